"""A Siguo army goes out in the page, as a player sees it: a saved game against three CPUs
(seeded in CPython, put where the page keeps its saves) goes on one move before South
takes East's flag. The test marks East's pieces, turns the notes on, makes the move by
clicks, and checks at once: East is out and why (the seats line, the log line), its
army has left the cross, the marks and notes on it are gone, and no hidden rank is in
the DOM; then the CPU seats play on and the turn skips East."""

from __future__ import annotations

import json
import time

from gamedriver import GameDriver, no_page_errors  # noqa: F401
from sitekit import wait_ready
from test_resume import WRITE_SAVE_JS
from test_siguo_page import foreign_in_dom, shot

from junqi_core.bridge import handle
from junqi_core.players import make_player

SEED = 2  # South (Easy, seeded) takes East's flag at ply 161 of this game
SAVE_ID = "siguo-out"
EAST = 1


def bridge(**request) -> dict:
    reply = json.loads(handle(json.dumps(request)))
    assert reply.get("ok"), reply
    return reply


def save_before_an_elimination(seed: int) -> tuple[dict, str, dict]:
    """A seeded game against three Easy CPUs, South played by a seeded Easy player, up to
    South's turn whose move takes an army out: (the worker's saved record, that move, the
    out event as South saw it)."""
    game = bridge(op="new_game", variant="siguo", seed=seed, viewer=0,
                  cpu={"1": "easy", "2": "easy", "3": "easy"})["game"]  # fmt: skip
    bridge(op="setup_random", game=game, player=0, seed=seed)
    view = bridge(op="deploy", game=game, player=0)["view"]
    south = make_player("siguo", "easy", 0, seed * 7 + 1)
    try:
        while view["phase"] == "play":
            if view["turn"] != 0:
                view = bridge(op="cpu_act", game=game, player=view["turn"], viewer=0)["view"]
                continue
            saved = bridge(op="save", game=game, text=True)
            moves = view["dests"]["moves"]
            legal = [f"{frm}-{t['to']}" for frm, tos in moves.items() for t in tos]
            move = south.choose(view, legal)
            reply = bridge(op="act", game=game, player=0, action=move)
            out = next((e for e in reply["events"] if e.get("out")), None)
            if out:
                record = {"save": saved["save"], "summary": saved["summary"],
                          "page": {"clock": False}, "at": int(time.time() * 1000)}  # fmt: skip
                return record, move, out
            view = reply["view"]
        raise AssertionError("the seeded game ended before South took an army out")
    finally:
        bridge(op="drop", game=game)


def tags(page) -> dict[str, dict[str, str]]:
    """What the board shows on pieces: {"marks": square -> text, "notes": square -> text}."""
    return page.evaluate(
        """() => ({
          marks: Object.fromEntries([...document.querySelectorAll('svg.board [data-mark-tag]')]
            .map(t => [t.dataset.markTag, t.textContent])),
          notes: Object.fromEntries([...document.querySelectorAll('svg.board [data-note]')]
            .map(t => [t.dataset.note, t.textContent])) })"""
    )


def mark(page, square: str, choice: str) -> None:
    page.click(f'svg.board [data-hit="{square}"]')
    page.wait_for_selector("dialog#mark-chooser")
    page.click(f'dialog#mark-chooser [data-choice="{choice}"]')
    page.wait_for_selector("dialog#mark-chooser", state="detached")


def hidden_ranks(page, driver: GameDriver) -> list[str]:
    """Ranks of another army in the DOM (the notes, South's own deductions that name
    kinds, are turned off for the check and back on after it)."""
    page.click("#notes-option")
    page.wait_for_function("() => !document.querySelector('svg.board [data-note]')")
    found = foreign_in_dom(page, driver, 0)
    page.click("#notes-option")
    return found


# The moment the page shows East out: what is on the board and in the marks then (a
# MutationObserver on the game section runs before any later view is drawn).
CATCH_OUT_JS = """(east) => {
  const game = window.junqiUI.game;
  window.__outSeen = null;
  const look = () => {
    const v = game.view;
    if (!v?.out?.[east]) return false;
    window.__outSeen = {
      ply: v.ply,
      board: Object.values(v.board).filter((p) => p.owner === east).length,
      drawn: document.querySelectorAll(`svg.board g.pc[data-owner="${east}"]`).length,
      marks: [...document.querySelectorAll('svg.board [data-mark-tag]')]
        .map((t) => t.dataset.markTag),
      notes: [...document.querySelectorAll('svg.board [data-note]')].map((t) => t.dataset.note),
    };
    return true;
  };
  const unsubscribe = game.subscribe(() => { if (look()) unsubscribe(); });
}"""


def test_an_army_goes_out_and_leaves_the_cross_with_its_marks(site, server):
    record, move, out_event = save_before_an_elimination(SEED)
    assert out_event["out"] == [{"player": EAST, "reason": "flag_captured"}], out_event
    page = site.open(server.url + "?cpupace=100")
    page.emulate_media(reduced_motion="reduce")
    driver = GameDriver(page)
    page.evaluate(WRITE_SAVE_JS, {"id": SAVE_ID, "record": record})
    page.reload()
    wait_ready(page)
    page.emulate_media(reduced_motion="reduce")
    go = f'#continue-box .continue-game[data-save="{SAVE_ID}"] .continue-go'
    page.wait_for_selector(go)
    page.click(go)
    driver.wait("play")
    view = driver.view()
    assert driver.viewer() == 0 and view["turn"] == 0 and not any(view["out"])
    # South marks three of East's hidden pieces and reads the notes
    east = sorted(sq for sq, p in view["board"].items() if p["owner"] == EAST)
    frm, to = move.split("-")
    hidden = [sq for sq in east if view["board"][sq]["kind"] is None and sq != to]
    marked = hidden[:3]
    for sq in marked:
        mark(page, sq, "?")
    if not page.is_checked("#notes-option"):
        page.click("#notes-option")
    page.wait_for_function(
        '(sq) => document.querySelector(`svg.board [data-note="${sq}"]`)', arg=hidden[-1]
    )
    before = tags(page)
    assert set(marked) <= set(before["marks"]), before
    assert set(east) & set(before["notes"]), before
    shot(driver, "out-before")

    page.evaluate(CATCH_OUT_JS, EAST)
    driver.tap(frm)
    page.wait_for_selector(f'svg.board [data-mark="selected"][data-sq="{frm}"]')
    driver.tap(to)
    page.wait_for_function("() => window.__outSeen")
    seen = page.evaluate("() => window.__outSeen")
    # at once, in the very view that says East is out: its army is off the cross, and
    # so are South's marks and the notes on it
    assert seen["board"] == 0 and seen["drawn"] == 0, seen
    assert not set(seen["marks"]) & set(east), seen
    assert not set(seen["notes"]) & set(east), seen
    # who is out and why: the seats line and the log line
    page.wait_for_function("() => /East[^·]*out: flag captured/.test("
                           "document.querySelector('#sides').textContent)")  # fmt: skip
    assert "East is out: flag captured." in page.inner_text("#message")
    assert not hidden_ranks(page, driver)
    shot(driver, "out")

    # the CPUs play on around the table and the turn never comes to East again; the
    # marks stay off even after later moves (nothing brings them back)
    driver.wait("play", "over", timeout=60_000)
    after = driver.view()
    later = [e for e in after["history"] if e["ply"] > out_event["ply"]]
    assert later and all(e["player"] != EAST for e in later), later
    assert {e["player"] for e in later} >= {2, 3} or after["phase"] == "over", later
    assert not set(tags(page)["marks"]) & set(east)
    page.wait_for_selector("#notes-list li[data-army]")
    armies = page.eval_on_selector_all(
        "#notes-list li[data-army]", "ls => ls.map(l => l.dataset.army)"
    )
    assert str(EAST) not in armies and armies, armies  # the notes panel: North, West only
    assert not hidden_ranks(page, driver)
