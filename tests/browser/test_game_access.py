"""Keyboard-only play, screen-reader announcements, axe-core, phone size with touch,
the two-player move clock, and the five languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import CHROMIUM_ARGS, LOCAL, wait_ready  # noqa: F401
from gamedriver import (  # noqa: F401
    ARTIFACTS,
    GameDriver,
    active,
    arrow_to,
    axe_scan,
    grid_label,
    no_page_errors,
    tab_until,
)

WEB = Path(__file__).resolve().parents[2] / "web"
LANGUAGES = ["en", "es", "pt", "zh", "ja"]


def test_game_keyboard_only(site, server):
    page = site.open(server.url)
    page.emulate_media(reduced_motion="reduce")
    d = GameDriver(page, seed=5)
    page.wait_for_selector("#app[data-ui=ready]", state="attached")
    # Choose Classic Junqi and the Easy level with the keyboard only.
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    tab_until(page, lambda a: a["id"].startswith("variant-"))
    for _ in range(3):
        if active(page)["id"] == "variant-classic":
            break
        page.keyboard.press("ArrowLeft")
    assert active(page)["id"] == "variant-classic"
    tab_until(page, lambda a: a["id"] == "level-easy")
    tab_until(page, lambda a: a["id"] == "btn-play")
    page.keyboard.press("Enter")
    d.wait("setup")
    tab_until(page, lambda a: a["id"] == "btn-confirm")
    page.keyboard.press("Enter")
    d.wait("play")
    # Open "Play with buttons" and play two moves with arrows and Enter.
    tab_until(page, lambda a: a["id"] == "grid-panel-summary")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.getElementById('grid-panel').open")
    tab_until(page, lambda a: a["sq"] is not None)
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", ""), "the focused square has no visible focus"
    for _ in range(2):
        before = d.ply
        c = d.choices()
        frm, to = (c["attacks"] + c["moves"])[0]
        arrow_to(page, frm)
        page.keyboard.press("Enter")
        page.wait_for_selector(f'.button-grid [data-sq="{frm}"].selected')
        label = grid_label(page, to)
        assert "can move here" in label or "can attack" in label, label
        arrow_to(page, to)
        page.keyboard.press("Enter")
        page.wait_for_function(
            "n => Number(document.querySelector('section.game').dataset.ply) >= n + 2", arg=before
        )
        d.wait("play", "over")
        if d.ui == "over":
            break
        # The live region announced the CPU's reply.
        page.wait_for_function(
            "() => document.getElementById('live').textContent.includes('CPU moves')"
        )
    assert active(page)["sq"] is not None  # focus stayed on the grid


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_game_axe_no_serious_findings(site, server, scheme):
    """axe-core on each screen, in the light and the dark theme (the system's setting)."""
    page = site.open(server.url)
    page.emulate_media(reduced_motion="reduce", color_scheme=scheme)
    page.wait_for_function("s => document.documentElement.dataset.theme === s", arg=scheme)
    d = GameDriver(page, seed=6)
    page.wait_for_selector("#app[data-ui=ready]", state="attached")
    findings = {"start": axe_scan(page, server.url)}
    d.start("classic", mode="cpu", level="easy")
    page.click("#grid-panel-summary")
    page.click("#table-panel-summary")
    findings["setup"] = axe_scan(page, server.url)
    page.click("#btn-confirm")
    d.wait("play")
    d.play_random()
    d.wait("play", "over")
    findings["play"] = axe_scan(page, server.url)
    d.open_menu()
    findings["menu"] = axe_scan(page, server.url)
    page.click("#btn-rules")
    page.wait_for_selector("dialog.rules #rules-classic")
    findings["rules"] = axe_scan(page, server.url)
    page.click("dialog.rules .close")
    d.start("gunjin", mode="hotseat")
    findings["curtain"] = axe_scan(page, server.url)
    bad = {k: v for k, v in findings.items() if v}
    assert not bad, json.dumps(bad, indent=1)


def test_game_phone_touch(browser, server):
    """Phone size: the panels go below the board and taps play."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
    )
    external = []
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if LOCAL.match(route.request.url) or route.request.url.startswith(("data:", "blob:"))
            else (external.append(route.request.url), route.abort())
        ),
    )
    try:
        page = context.new_page()
        page.emulate_media(reduced_motion="reduce")
        page.goto(server.url)
        wait_ready(page)
        d = GameDriver(page, seed=7)
        d.start("gunjin", mode="cpu", level="easy")
        board = page.locator("svg.board").bounding_box()
        panels = page.locator("aside.panels").bounding_box()
        assert board["width"] <= 390 and panels["y"] >= board["y"] + board["height"] - 1
        page.tap("#btn-confirm")
        d.wait("play")
        for _ in range(3):
            c = d.choices()
            frm, to = (c["attacks"] + c["moves"])[0]
            before = d.ply
            page.tap(f'svg.board [data-hit="{frm}"]')
            page.wait_for_selector(f'svg.board [data-mark="selected"][data-sq="{frm}"]')
            page.tap(f'svg.board [data-hit="{to}"]')
            page.wait_for_function(
                "n => Number(document.querySelector('section.game').dataset.ply) > n", arg=before
            )
            if d.wait("play", "over") == "over":
                break
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "game-gunjin-phone.png"), full_page=True)
        d.start("classic", mode="hotseat")
        page.tap("#btn-curtain")
        d.wait("setup")
        page.screenshot(path=str(ARTIFACTS / "game-classic-phone-setup.png"))
    finally:
        context.close()
    assert external == []


def test_game_hotseat_move_clock(site, server):
    """Two players with the clock (shortened for the test): deployment time-outs confirm a
    random layout; a move time-out passes the turn."""
    page = site.open(server.url + "?moveclock=2")
    page.emulate_media(reduced_motion="reduce")
    d = GameDriver(page, seed=8)
    d.start("classic", mode="hotseat", clock=True)
    for side in ("Red", "Blue"):
        assert side in page.inner_text("#btn-curtain")
        page.click("#btn-curtain")
        d.wait("setup")
        assert "to deploy" in page.inner_text("#clock")
        d.wait("curtain", timeout=10_000)  # nobody confirmed: a random layout was
    assert d.view()["phase"] == "play" and d.view()["deployed"] == [True, True]
    page.click("#btn-curtain")
    d.wait("play")
    assert page.is_visible("#clock")
    assert page.locator("#clock svg.icon-clock").count() == 1  # drawn, not a font's emoji
    d.wait("moved", timeout=10_000)
    assert "Red ran out of time" in d.message(), "a time-out names who ran out of time"
    assert d.view()["timeouts"] == [1, 0]
    assert d.view()["turn"] == 1
    page.click("#btn-change-turn")
    d.wait("curtain")
    assert not page.is_visible("#clock")


def test_the_rule_option_strings_in_english_are_the_engines_own():
    """The page words presets and options from i18n keys; English must say what the
    engine's descriptions say (docs/rules.md), so the two cannot drift apart."""
    from junqi_core.variants import OPTIONS, PRESETS

    en = json.loads((WEB / "i18n" / "en.json").read_text())
    for variant in ("classic", "blind", "gunjin"):
        for preset in PRESETS[variant]:
            assert en[f"rules.{variant}.{preset.id}"] == preset.name
            assert en[f"rules.{variant}.{preset.id}.desc"] == preset.description
        for option in OPTIONS[variant]:
            key = f"rule.{variant}.{option.id}"
            assert en[key] == option.name and en[f"{key}.desc"] == option.description
            for choice, name in zip(option.choices, option.choice_names, strict=False):
                assert en[f"{key}.{choice}"] == name


def test_game_strings_complete_in_every_language():
    keys = {
        lang: set(json.loads((WEB / "i18n" / f"{lang}.json").read_text())) for lang in LANGUAGES
    }
    required = {k for k in keys["en"] if not k.startswith("short.")}
    for lang in LANGUAGES:
        missing = required - keys[lang]
        assert not missing, f"{lang} lacks {sorted(missing)}"
        extra = {k for k in keys[lang] - keys["en"] if not k.startswith("short.")}
        assert not extra, f"{lang} has keys English lacks: {sorted(extra)}"
        rules = (WEB / "rules" / f"{lang}.html").read_text()
        for section in (
            "rules-classic",
            "rules-blind",
            "rules-gunjin",
            "rules-siguo",
            "rules-controls",
        ):
            assert f'id="{section}"' in rules, (lang, section)
        assert "http://" not in rules and "https://" not in rules


def test_game_language_switch(site, server):
    """Each language from the menu: the page, the rules, the pieces and the message line of
    the game on screen change; pieces show characters in Chinese and Japanese, words
    elsewhere; the choice is remembered after a reload."""
    page = site.open(server.url)
    page.wait_for_selector("#app[data-ui=ready]", state="attached")
    page.emulate_media(reduced_motion="reduce")
    d = GameDriver(page, seed=9)
    glyphs = {p["glyph"] for p in d_desc(page, "gunjin")["pieces"]}
    before = None
    for lang in ["es", "pt", "zh", "ja", "en", "ja"]:
        strings = json.loads((WEB / "i18n" / f"{lang}.json").read_text())
        in_game = page.is_visible("section.game")
        d.open_menu()
        page.select_option("#lang-select", lang)
        d.close_menu()
        if in_game:
            # The game on screen follows: the message line too (it said the setup hint).
            page.wait_for_function(
                "t => document.getElementById('message').textContent === t",
                arg=strings["setup.hint"],
            )
            assert page.inner_text("#btn-confirm") == strings["setup.confirm"]
            assert page.inner_text("#message") != before
            d.open_menu()
            page.click("#btn-mode")
            page.click("dialog.confirm [data-answer=yes]")
        page.wait_for_function(
            "t => document.getElementById('start-title').textContent === t",
            arg=strings["start.title"],
        )
        assert page.evaluate("() => document.documentElement.lang").startswith(lang)
        assert page.inner_text(".site-header .subtitle") == strings["title.subtitle"]
        page.click("[data-rules=gunjin]")
        page.wait_for_selector("dialog.rules #rules-gunjin")
        assert page.inner_text("#rules-title") == strings["rules.title"].replace(
            "{variant}", strings["variant.gunjin"]
        )
        page.click("dialog.rules .close")
        d.start("gunjin", mode="cpu", level="easy")
        assert page.inner_text("#btn-confirm") == strings["setup.confirm"]
        shown = set(page.eval_on_selector_all("svg.board text.name", LABELS_JS))
        if lang in ("zh", "ja"):
            names = glyphs  # the pieces' own characters
        else:
            names = {
                v for k, v in strings.items() if k.startswith(("piece.gunjin.", "short.gunjin."))
            }
        assert shown and shown <= names, (lang, shown - names)
        before = page.inner_text("#message")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "game-gunjin-setup-ja.png"))
    # "Pieces show": words, chosen in Japanese, stays words.
    d.open_menu()
    page.select_option("#labels-select", "words")
    d.close_menu()
    strings = json.loads((WEB / "i18n" / "ja.json").read_text())
    words = {v for k, v in strings.items() if k.startswith(("piece.gunjin.", "short.gunjin."))}
    shown = set(page.eval_on_selector_all("svg.board text.name", LABELS_JS))
    assert shown <= words, shown - words
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#app[data-ui=ready]", state="attached")
    assert page.input_value("#lang-select") == "ja"
    assert page.input_value("#labels-select") == "words"


# The names on the pieces (a long name may be drawn on two lines, one <tspan> each).
LABELS_JS = """ts => ts.map(t => t.children.length
    ? [...t.children].map(s => s.textContent).join(' ') : t.textContent)"""


def d_desc(page, variant: str) -> dict:
    return page.evaluate("v => window.junqiUI.variants[v]", variant)
