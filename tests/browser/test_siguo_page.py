"""Four-player Siguo in the page: the start screen's four seats, a game against three CPUs
(setup, moves, the CPU seats one at a time with a log line each, reload and Continue), two
people sharing the screen (the curtain only between people), nothing of a hidden army's
ranks in the DOM or in the worker's messages, and no cut text on a phone."""

from __future__ import annotations

import json
import os
import re
import shutil
import time

from gamedriver import (  # noqa: F401
    GameDriver,
    active,
    arrow_to,
    assert_nothing_cut,
    assert_targets,
    grid_label,
    no_page_errors,
    tab_until,
)

PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("SIGUO_SHOTS")  # a folder for the closing note's screenshots

# Every message the worker sends the page.
LISTEN_JS = """() => { window.__workerText = [];
  window.junqi.engine.worker.addEventListener('message',
    (e) => window.__workerText.push(JSON.stringify(e.data))); }"""

# The status and message lines as they change (the CPU seats' turns, one at a time).
WATCH_JS = """() => { window.__lines = [];
  const note = () => window.__lines.push([document.querySelector('#status')?.textContent || '',
    document.querySelector('#message')?.textContent || '', Math.round(performance.now())]);
  new MutationObserver(note).observe(document.querySelector('#status-bar'),
    {subtree: true, childList: true, characterData: true}); }"""

# Pieces drawn with a rank (or a label) that belong to another seat than `seat`, but a
# flag shown to all; and button-grid labels naming a piece on another seat's square.
FOREIGN_JS = """([seat, names]) => {
  const v = window.junqiUI.game.view;
  const shown = (p) => p.kind === 'flag' && v.flags_shown[p.owner];
  const bad = [];
  for (const g of document.querySelectorAll('svg.board g.pc')) {
    const p = v.board[g.dataset.sq];
    const named = g.dataset.kind || g.querySelector('.name')?.textContent;
    const other = g.dataset.owner !== String(seat);
    if (other && named && !(p && shown(p))) bad.push('board ' + g.dataset.sq);
  }
  for (const [sq, p] of Object.entries(v.board)) {
    if (p.owner === seat || shown(p)) continue;
    if (p.kind) bad.push('view ' + sq);
    const b = document.querySelector(`.button-grid [data-sq="${sq}"]`);
    const text = b ? b.textContent : '';
    if (names.some((n) => text.includes(n))) bad.push('grid ' + sq + ': ' + text);
  }
  return bad;
}"""


def foreign_in_dom(page, driver: GameDriver, seat: int) -> list[str]:
    pieces = driver.desc()["pieces"]
    names = [p["name"] for p in pieces] + [p["glyph"] for p in pieces]
    return page.evaluate(FOREIGN_JS, [seat, names])


def leaks(texts: list[str], seat: int) -> list[str]:
    """Ranks of another seat's pieces in the worker's messages to the page (views and
    events; a flag shown to all is public)."""
    found = []

    def walk(node, where):
        if isinstance(node, dict):
            piece = {"owner", "kind", "down"} <= set(node)
            if piece and node["owner"] not in (seat, None) and node["kind"] not in (None, "flag"):
                found.append(f"{where}: {node}")
            combat = node.get("combat") if isinstance(node.get("combat"), dict) else None
            if combat and "against" in combat:
                if node.get("player") != seat and combat.get("attacker"):
                    found.append(f"{where}: attacker {combat}")
                if combat["against"] != seat and combat.get("defender") not in (None, "flag"):
                    found.append(f"{where}: defender {combat}")
            for key, value in node.items():
                walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}[{i}]")

    for text in texts:
        message = json.loads(text)
        if isinstance(message, dict) and message.get("type") == "progress":
            continue
        walk(message, "message")
    return found


def assert_public(page, driver: GameDriver) -> None:
    """The curtain is down: no rank of any army in the DOM or the page's state, but a flag
    shown to all (its army's Field Marshal fell)."""
    assert page.is_visible("#curtain")
    view = driver.view()
    assert view["player"] is None
    shown = any(view["flags_shown"])
    known = {
        sq: p["kind"]
        for sq, p in view["board"].items()
        if p["kind"] and not (p["kind"] == "flag" and view["flags_shown"][p["owner"]])
    }
    assert not known, f"the page state holds ranks under the curtain: {known}"
    words = [
        w
        for p in driver.desc()["pieces"]
        if not (shown and p["id"] == "flag")
        for w in (p["name"], p["glyph"])
    ]
    hits = driver.dom_hits(words)
    if shown:
        hits = [h for h in hits if not h.endswith("='flag'")]
    assert not hits, "ranks in the DOM under the curtain:\n" + "\n".join(hits)
    assert page.inner_text("#message").strip() == ""


def shot(driver: GameDriver, name: str) -> None:
    path = driver.screenshot(f"siguo-{name}")
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        shutil.copy(path, os.path.join(SHOTS, f"sgpage-{name}.png"))


def choose_siguo(page, seats: dict[int, str]) -> None:
    page.check("#variant-siguo")
    page.wait_for_selector("#table-options:not([hidden])")
    for seat, choice in seats.items():
        page.select_option(f"#seat-choice-{seat}", choice)


def open_page(site, server):
    page = site.open(server.url + "?cpupace=250")  # the CPU seats' pace, shortened for tests
    page.set_viewport_size(PHONE)
    page.evaluate(LISTEN_JS)
    return page, GameDriver(page, seed=3)


def test_a_game_against_three_cpus_plays_on_a_phone_and_goes_on_after_a_reload(site, server):
    page, driver = open_page(site, server)
    page.wait_for_selector("#app[data-ui=ready]", state="attached")
    page.check("#variant-siguo")
    # four seats, each a person or a CPU level: you South, Medium CPUs elsewhere, no Hard
    assert page.is_hidden("#mode-choice")
    assert [page.input_value(f"#seat-choice-{s}") for s in range(4)] == [
        "person",
        "medium",
        "medium",
        "medium",
    ]
    levels = page.eval_on_selector_all("#seat-choice-1 option", "os => os.map(o => o.value)")
    assert levels == ["person", "easy", "medium"]
    assert "South" in page.inner_text("#start-summary")
    assert_nothing_cut(page, "start, Siguo")
    assert_targets(page, "start, Siguo")
    page.set_viewport_size({"width": 360, "height": 740})
    assert_nothing_cut(page, "start, Siguo, 360x740")
    assert_targets(page, "start, Siguo, 360x740")
    page.set_viewport_size(PHONE)
    for seat in (1, 2, 3):  # Easy CPUs: quick to answer
        page.select_option(f"#seat-choice-{seat}", "easy")
    started = time.monotonic()
    driver.play()
    driver.wait("setup")
    setup_seconds = time.monotonic() - started
    assert driver.viewer() == 0
    assert not foreign_in_dom(page, driver, 0)
    assert_nothing_cut(page, "setup")
    shot(driver, "setup")

    page.evaluate(WATCH_JS)
    confirmed = time.monotonic()
    page.click("#btn-confirm")
    page.wait_for_function(
        "() => Number(document.querySelector('section.game').dataset.ply) > 0"
        " || window.junqiUI.game.view.turn === 0"
    )
    first = time.monotonic() - confirmed
    print(
        f"\nPlay to setup shown: {setup_seconds:.2f} s; Confirm to the first move"
        f" (or the person's turn): {first:.2f} s"
    )
    driver.wait("play")
    for _ in range(2):
        driver.play_random()
        driver.wait("play", "over")
        assert not foreign_in_dom(page, driver, 0)
    lines = page.evaluate("() => window.__lines")
    thinking = [status for status, _, _ in lines if "(CPU) is thinking" in status]
    # each CPU seat's turn on its own: its own status, then its own log line
    seen = [s.split(" (CPU)")[0] for i, s in enumerate(thinking) if i == 0 or thinking[i - 1] != s]
    assert len(seen) >= 3 and set(seen) <= {"East", "North", "West"}, seen
    messages = [m for _, m, _ in lines if m]
    east, north = re.compile(r"East( moves|:)"), re.compile(r"North( moves|:)")
    assert any(len(east.findall(m)) == 1 and not north.search(m) for m in messages), messages
    assert_nothing_cut(page, "play")
    shot(driver, "play")
    # the smaller phone: one more turn played at its size
    page.set_viewport_size({"width": 360, "height": 740})
    driver.play_random()
    driver.wait("play", "over")
    assert_nothing_cut(page, "play, 360x740")
    page.set_viewport_size(PHONE)
    assert "East: CPU (Easy)" in page.inner_text("#sides")
    assert not leaks(page.evaluate("() => window.__workerText"), 0)

    # reload: the Continue box names the game, which goes on from the same position
    ply = driver.ply
    page.reload()
    page.wait_for_selector("#app[data-ui=ready]", state="attached")
    page.wait_for_selector("#continue-box .continue-go")
    box = page.inner_text("#continue-box .continue-game:first-child .continue-what")
    assert "Siguo" in box and "you with the CPUs (Easy)" in box, box
    page.click("#continue-box .continue-game:first-child .continue-go")
    driver.wait("play", "over")
    assert driver.viewer() == 0 and driver.ply >= ply
    assert not foreign_in_dom(page, driver, 0)


def test_two_people_share_the_screen_with_the_curtain_only_between_them(site, server):
    page, driver = open_page(site, server)
    page.wait_for_selector("#app[data-ui=ready]", state="attached")
    choose_siguo(page, {0: "person", 1: "easy", 2: "person", 3: "easy"})
    assert "2 people share this device" in page.inner_text("#table-note")
    driver.play()
    curtains = []
    for _ in range(2):  # South deploys, then North
        driver.wait("curtain")
        assert_public(page, driver)
        curtains.append(page.inner_text("#curtain-text"))
        page.click("#btn-curtain")
        driver.wait("setup")
        page.click("#btn-confirm")
    assert "South" in curtains[0] and "North" in curtains[1], curtains
    for _ in range(2):
        driver.wait("curtain", "moved", "play")
        if driver.ui == "moved":
            page.click("#btn-change-turn")
            driver.wait("curtain")
        if driver.ui == "curtain":
            assert_public(page, driver)
            text = page.inner_text("#curtain-text")
            assert "South" in text or "North" in text, text  # never a CPU's seat
            page.click("#btn-curtain")
            driver.wait("play")
        seat = driver.viewer()
        assert seat in (0, 2) and driver.view()["turn"] == seat
        assert not foreign_in_dom(page, driver, seat)
        driver.play_random()
    assert not leaks(
        [
            t
            for t in page.evaluate("() => window.__workerText")
            if '"player":null' in t or '"player": null' in t
        ],
        -1,
    )


def test_keyboard_plays_siguo_with_the_button_grid_and_the_focus_follows(site, server):
    page = site.open(server.url + "?cpupace=100")
    page.emulate_media(reduced_motion="reduce")
    driver = GameDriver(page, seed=4)
    page.wait_for_selector("#app[data-ui=ready]", state="attached")
    choose_siguo(page, {1: "easy", 2: "easy", 3: "easy"})
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    tab_until(page, lambda a: a["id"] == "btn-play")
    page.keyboard.press("Enter")
    driver.wait("setup")
    tab_until(page, lambda a: a["id"] == "btn-confirm")
    page.keyboard.press("Enter")
    driver.wait("play")
    tab_until(page, lambda a: a["id"] == "grid-panel-summary")
    page.keyboard.press("Enter")
    tab_until(page, lambda a: a["sq"] is not None)
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", ""), "the focused post has no visible focus"
    for _ in range(2):
        before = driver.ply
        c = driver.choices()
        frm, to = (c["attacks"] + c["moves"])[0]
        assert frm.startswith("S") and frm in grid_label(page, frm), grid_label(page, frm)
        arrow_to(page, frm, limit=120)
        page.keyboard.press("Enter")
        page.wait_for_selector(f'.button-grid [data-sq="{frm}"].selected')
        label = grid_label(page, to)
        assert to in label and ("can move here" in label or "can attack" in label), label
        arrow_to(page, to, limit=120)
        page.keyboard.press("Enter")
        page.wait_for_function(
            "n => Number(document.querySelector('section.game').dataset.ply) > n", arg=before
        )
        driver.wait("play", "over")
        if driver.ui == "over":
            break
        assert active(page)["sq"] is not None, "focus left the button grid"
    # the live region told what the CPU seats did
    live = page.inner_text("#live")
    assert any(side in live for side in ("East", "North", "West")), live
