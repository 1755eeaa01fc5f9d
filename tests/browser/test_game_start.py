"""The start screen works before Python does: it is drawn from the engine's answers that
build.py wrote (js/start-data.js), a game started early waits in "Starting the engine…",
and the rules chooser renders whatever presets and options a variant describes."""

from __future__ import annotations

import json
from pathlib import Path

from gamedriver import GameDriver, axe_scan, no_page_errors  # noqa: F401
from sitekit import wait_ready

from junqi_core.bridge import handle

WEB = Path(__file__).resolve().parents[2] / "web"


def test_start_screen_before_the_engine(site, serve):
    """Python held back for 4 s: the start screen is usable at once, a game started now
    draws its board and waits for the engine, then goes on by itself."""
    server = serve(faults={"python_stdlib.zip": ("delay", 4)})
    page = site.open(server.url, wait=None)
    page.wait_for_selector("#app[data-ui=ready]", state="attached", timeout=20_000)
    assert page.evaluate("document.documentElement.dataset.state") == "loading"
    marks = page.evaluate("""() => ({
        interactive: performance.getEntriesByName('junqi-interactive')[0]?.startTime,
        engine: performance.getEntriesByName('junqi-engine').length})""")
    assert marks["engine"] == 0 and marks["interactive"] is not None
    # bench/page.py measures the time properly; here only that it is no engine start.
    assert marks["interactive"] < 3_000, marks
    assert page.is_visible("#engine-progress")
    assert page.get_attribute(".start", "data-engine") == "loading"
    assert "engine is starting" in page.inner_text("#start-engine")
    assert axe_scan(page, server.url) == []  # the start screen with the engine's progress
    d = GameDriver(page, seed=1)
    # Choices work while Python loads.
    page.check("#variant-gunjin")
    d.choose("mode", "hotseat")
    assert page.is_visible("#clock-option") and page.is_hidden("#level-choice")
    d.choose("mode", "cpu")
    d.choose("level", "hard")
    d.choose("seat", 1)
    assert "Gunjin Shogi" in page.inner_text("#start-summary")
    page.check("#variant-classic")
    d.choose("level", "easy")
    d.choose("seat", 0)
    page.click("#btn-play")
    page.wait_for_selector("section.game[data-ui=engine]")
    assert page.inner_text("#status") == "Starting the engine…"
    assert page.locator("svg.board [data-hit]").count() == 63  # the board, from static data
    d.wait("setup", timeout=60_000)
    wait_ready(page)
    assert len(d.own_layout()) == 25


def test_static_engine_data_is_the_engines(ready_page):
    """The start screen's static data (start-data.js, written by build.py) is exactly what
    the engine in the page answers, and its English strings are web/i18n/en.json."""
    page = ready_page
    data, english = page.evaluate("""async () => {
        const href = document.querySelector('link[rel=modulepreload][href$="/start-data.js"]').href;
        const m = await import(href);
        return [m.ENGINE, m.ENGLISH]; }""")
    assert english == json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
    version = page.evaluate("window.junqi.engine.call({op: 'version'})")
    variants = page.evaluate("window.junqi.engine.call({op: 'variants'})")
    assert data["version"] == version
    assert data["variants"] == variants["variants"]
    assert data["variants"] == json.loads(handle('{"op": "variants"}'))["variants"]


def test_rules_chooser_offers_the_engines_presets_and_options(site, server):
    """The chooser is drawn from the presets and options the engine describes; the choice
    goes to new_game as `preset` and (customised) `options`, and the game is played under
    those rules (the Chinese-sites preset draws the 60-post board)."""
    page = site.open(server.url)
    d = GameDriver(page, seed=2)
    page.check("#variant-classic")
    assert page.is_visible("#rules-choice")
    assert page.is_checked("#preset-standard")
    page.click('label[for="preset-chinese"]')
    assert "Field Marshal" in page.inner_text("#rules-choice .preset-desc")
    page.click("#rules-customise summary")
    assert not page.is_checked("#rule-stations") and page.is_checked("#rule-flag_shown")
    assert page.inner_text("#rules-name") == "Chinese sites"
    page.select_option("#rule-quiet_limit", "60")
    assert page.inner_text("#rules-name") == "Chinese sites, customised"
    assert "Chinese sites, customised" in page.inner_text("#start-summary")
    page.check("#variant-gunjin")
    assert page.is_checked("#preset-standard")  # each variant has its own presets
    page.check("#variant-classic")
    assert page.is_checked("#preset-chinese")  # remembered per variant
    d.choose("level", "easy")
    page.click("#btn-play")
    d.wait("setup")
    request = page.evaluate("window.junqiUI.game.session.newGameRequest()")
    assert request["preset"] == "chinese" and request["options"]["quiet_limit"] == 60
    squares = page.evaluate("window.junqiUI.game.desc.board.squares.length")
    assert squares == 60  # no front stations
    rules = page.evaluate("window.junqiUI.game.view.rules")
    assert rules["preset"] is None and rules["options"]["stations"] is False


def test_start_choices_are_remembered(site, server):
    page = site.open(server.url)
    d = GameDriver(page, seed=3)
    page.check("#variant-blind")
    d.choose("mode", "cpu")
    d.choose("level", "medium")
    d.choose("seat", 1)
    page.reload()
    wait_ready(page)
    assert page.is_checked("#variant-blind")
    assert page.is_checked("#level-medium") and page.is_checked("#seat-1")


def test_the_board_preview_is_drawn_only_where_the_layout_shows_it(site, server):
    """A wide screen shows the chosen game's board beside the form (drawn after the form,
    in its final proportions); a phone, where the layout hides it, never draws it, and
    turning to a wide window draws it then."""
    page = site.open(server.url)
    page.set_viewport_size({"width": 360, "height": 740})
    page.check("#variant-gunjin")
    page.wait_for_timeout(200)  # a frame or two: a drawing would have come by now
    assert page.locator(".start-preview svg.board-gunjin").count() == 0
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_selector(".start-preview svg.board-gunjin")
    box = page.locator(".start-preview").bounding_box()
    view = page.locator(".start-preview svg").get_attribute("viewBox").split()
    assert abs(box["width"] / box["height"] - float(view[2]) / float(view[3])) < 0.02
    page.check("#variant-classic")
    page.wait_for_selector(".start-preview svg.board-classic")


# Strings only the game, replay and friend screens' code holds (their titles' ids): the
# start screen's page must not fetch that code before the player can use the start screen.
SCREEN_MARKS = ('"game-title"', '"replay-title"', '"friend-title"')


def screens_code(dist: Path) -> list[str]:
    """The built scripts holding the game, replay or friend screen (paths under dist/)."""
    return sorted(
        p.relative_to(dist).as_posix()
        for p in (dist / "assets").glob("*/js/**/*.js")
        if any(mark in p.read_text(encoding="utf-8") for mark in SCREEN_MARKS)
    )


def test_the_start_screen_loads_without_the_game_replay_and_friend_screens(site, serve, dist):
    """A first visit fetches only the start screen's scripts before the start screen is
    usable (the game, replay and friend screens are code of their own, not preloaded, not
    imported by the start screen); the page fetches them itself right after, while the
    player looks at the start screen (not only the service worker's precache)."""
    lazy = screens_code(dist)
    assert lazy, "no script holds the game screen"
    server = serve()
    page = site.open(server.url, wait=None)
    page.wait_for_selector("#app[data-ui=ready]", state="attached", timeout=60_000)
    interactive = page.evaluate(
        "(performance.timeOrigin"
        " + performance.getEntriesByName('junqi-interactive')[0].startTime) / 1000"
    )
    before = [rel for rel, _, _, at in server.log if at <= interactive and rel.endswith(".js")]
    assert any(rel.endswith("/js/app.js") for rel in before), before
    assert not set(lazy) & set(before), f"fetched before the start screen was usable: {before}"
    # then the page's own idle fetch (in the page's resource timings, not the worker's)
    page.wait_for_function(
        "names => names.every(n => performance.getEntriesByType('resource')"
        ".some(e => e.name.endsWith(n)))",
        arg=[rel.rsplit("/", 1)[1] for rel in lazy],
        timeout=30_000,
    )
    wait_ready(page)


def test_a_game_started_before_its_screens_code_is_in_opens_when_it_is(site, serve, dist):
    """The game screen's code held back 3 s: Play at once leaves the start screen, and the
    game's board comes when the code is in."""
    lazy = screens_code(dist)
    assert lazy, "no script holds the game screen"
    server = serve(faults={rel.rsplit("/", 1)[1]: ("delay", 3) for rel in lazy})
    page = site.open(server.url, wait=None)
    page.wait_for_selector("#app[data-ui=ready]", state="attached", timeout=60_000)
    d = GameDriver(page, seed=1)
    d.choose("mode", "cpu")
    page.click("#btn-play")
    page.wait_for_selector("#btn-play", state="detached")  # the start screen goes
    page.wait_for_selector("section.game svg.board [data-hit]", timeout=30_000)
    assert page.evaluate("document.documentElement.dataset.screen") == "game"
    wait_ready(page)
    d.wait("setup", timeout=60_000)


# Every radio chip shown: the radio's box and its chip's (label's) box.
CHIP_BOXES_JS = """() => [...document.querySelectorAll('fieldset.chips input[type=radio]')]
  .filter((i) => i.labels?.[0]?.getBoundingClientRect().width > 0)
  .map((i) => { const r = i.getBoundingClientRect(), l = i.labels[0].getBoundingClientRect();
    return [i.id, [r.left, r.top, r.right, r.bottom], [l.left, l.top, l.right, l.bottom]]; })"""


def test_each_chip_radio_lies_under_its_own_chip(site, server):
    """A radio of the start screen's chips is where its chip is (not a 1 px box in the
    corner of the row, under another chip): a direct click on it, a screen reader's touch
    exploration or a magnifier following the focus finds it there."""
    page = site.open(server.url)
    for size in ({"width": 1280, "height": 720}, {"width": 390, "height": 844}):
        page.set_viewport_size(size)
        page.check("#variant-classic")
        page.check("#mode-cpu")
        boxes = page.evaluate(CHIP_BOXES_JS)
        assert len(boxes) >= 5, boxes  # the opponent chips, the levels, the seats
        for name, radio, chip in boxes:
            same = all(abs(a - b) < 1 for a, b in zip(radio, chip, strict=True))
            assert same, (name, radio, chip)
        for mode in ("friend", "hotseat", "cpu"):
            page.check(f"#mode-{mode}")  # a click on the radio itself, at its centre
            assert page.is_checked(f"#mode-{mode}")
