"""Marks on enemy pieces and deduction notes on the game page: a mark follows its piece and
goes with it, survives a reload, and in a game on one device is seen only by the player who
made it; the notes' labels are the engine's `notes` answer. Screenshots of marks and notes
in every variant, phone and desktop: test-artifacts/marks-notes-<variant>-<size>.png."""

from __future__ import annotations

import pytest
from gamedriver import GameDriver, no_page_errors  # noqa: F401
from sitekit import ARTIFACTS, call, wait_ready

SIZES = {"390x844": (390, 844), "1280x800": (1280, 800)}


def open_page(site, server, seed=0, size=None):
    page = site.open(server.url)
    page.emulate_media(reduced_motion="reduce")
    if size:
        page.set_viewport_size({"width": size[0], "height": size[1]})
    return page, GameDriver(page, seed=seed)


def tags(page) -> dict[str, str]:
    """What the board shows as marks: square -> text."""
    return page.eval_on_selector_all(
        "svg.board [data-mark-tag]",
        "ts => Object.fromEntries(ts.map(t => [t.dataset.markTag, t.textContent]))",
    )


def notes_shown(page) -> dict[str, str]:
    return page.eval_on_selector_all(
        "svg.board [data-note]",
        "ts => Object.fromEntries(ts.map(t => [t.dataset.note, t.textContent]))",
    )


def mark(page, square: str, choice: str) -> None:
    page.click(f'svg.board [data-hit="{square}"]')
    page.wait_for_selector("dialog#mark-chooser")
    page.click(f'dialog#mark-chooser [data-choice="{choice}"]')
    page.wait_for_selector("dialog#mark-chooser", state="detached")


def enemy_hidden(d: GameDriver, seat: int) -> list[str]:
    board = d.view()["board"]
    return sorted(sq for sq, p in board.items() if p["owner"] == 1 - seat and p["kind"] is None)


def start_cpu(d: GameDriver, page, variant: str) -> None:
    d.start(variant, mode="cpu", level="easy")
    if variant != "blind":
        page.click("#btn-confirm")
    d.wait("play")


def mark_and_play(page, d: GameDriver) -> int:
    """A new game against the CPU: every hidden enemy piece marked, then up to 12 moves a
    side, checking where the marks go. Returns how often a mark followed its piece."""
    start_cpu(d, page, "classic")
    kinds = [p["id"] for p in d.desc()["pieces"]] + ["?"]
    squares = enemy_hidden(d, 0)
    for i, square in enumerate(squares):
        mark(page, square, kinds[i % len(kinds)])
    shown = tags(page)
    assert set(shown) == set(squares)
    # The chooser is keyboard-reachable too: the button grid opens it. (The panel stays as
    # the player left it: open already in a second game.)
    if not page.evaluate("document.getElementById('grid-panel-summary').closest('details').open"):
        page.click("#grid-panel-summary")
    page.focus(f'.button-grid [data-sq="{squares[0]}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog#mark-chooser")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog#mark-chooser", state="detached")
    assert "marked" in page.inner_text(f'.button-grid [data-sq="{squares[0]}"] .sr-only')
    followed = 0
    for _ in range(12):
        before = tags(page)
        ply = d.ply
        d.play_random()
        d.wait("play", "over")
        if d.ui == "over":
            break
        view = d.view()
        after = tags(page)
        for ev in view["history"][ply:]:
            if ev["type"] != "move" or ev["player"] != 1:
                continue
            frm, to = ev["from"], ev["to"]
            result = (ev.get("combat") or {}).get("result")
            assert frm not in after, (ev, after)
            if result in (None, "attacker"):
                assert after.get(to) == before[frm], (ev, before, after)
                followed += 1
            else:
                assert to not in after or result == "defender", (ev, after)
        # Marks only ever sit on enemy pieces whose kind is hidden.
        board = view["board"]
        for square in after:
            assert board[square]["owner"] == 1 and board[square]["kind"] is None, square
    return followed


def test_marks_follow_a_moving_piece_and_survive_a_reload(site, server):
    page, d = open_page(site, server, seed=4)
    # The CPU plays unseeded: now and then it takes the flag within these 12 moves (4
    # games in 15 here), and an ended game has nothing to continue: then another game.
    for _ in range(3):
        followed = mark_and_play(page, d)
        if d.ui != "over":
            break
    assert d.ui == "play"
    assert followed >= 3
    kept = tags(page)
    page.reload()
    wait_ready(page)
    page.emulate_media(reduced_motion="reduce")
    page.click("#continue-box .continue-go")
    d.wait("play", "over")
    assert tags(page) == kept


def test_hot_seat_marks_belong_to_the_player_who_made_them(site, server):
    page, d = open_page(site, server, seed=6)
    d.start("gunjin", mode="hotseat")
    d.deploy_both_on_one_device()
    assert d.viewer() == 0
    target = enemy_hidden(d, 0)[0]
    mark(page, target, "?")
    assert tags(page) == {target: "?"}
    d.play_random()
    d.wait("moved")
    page.click("#btn-change-turn")
    d.wait("curtain")
    assert tags(page) == {}
    d.assert_public()
    page.click("#btn-curtain")
    d.wait("play")
    assert d.viewer() == 1
    assert tags(page) == {}  # player 0's guess is not shown to player 1
    assert "marked" not in page.eval_on_selector_all(
        ".button-grid .sr-only", "ss => ss.map(s => s.textContent).join(' ')"
    )
    # Notes for the seat that looks: player 1's own view, nothing under the curtain.
    page.check("#notes-option")
    page.wait_for_selector("svg.board [data-note]")
    game = page.evaluate("window.junqiUI.game.session.gameId")
    notes = call(page, {"op": "notes", "game": game, "player": 1})["notes"]
    assert set(notes_shown(page)) <= set(notes["pieces"])
    assert all(d.view()["board"][sq]["owner"] == 0 for sq in notes_shown(page))
    own = enemy_hidden(d, 1)[0]
    mark(page, own, "?")
    d.play_random()
    d.wait("moved")
    page.click("#btn-change-turn")
    d.wait("curtain")
    assert notes_shown(page) == {} and tags(page) == {}
    assert page.inner_text("#notes-list") == ""
    page.click("#btn-curtain")
    d.wait("play")
    assert d.viewer() == 0
    page.wait_for_selector("svg.board [data-note]")
    assert all(d.view()["board"][sq]["owner"] == 1 for sq in notes_shown(page))
    shown = tags(page)
    assert own not in shown
    assert list(shown.values()) in ([], ["?"])  # the mark is back, unless its piece fell


def test_notes_show_the_engines_labels(site, server):
    page, d = open_page(site, server, seed=8)
    start_cpu(d, page, "classic")
    assert notes_shown(page) == {}  # off by default
    page.check("#notes-option")
    page.wait_for_selector("svg.board [data-note]")
    game = page.evaluate("window.junqiUI.game.session.gameId")
    notes = call(page, {"op": "notes", "game": game, "player": 0})["notes"]
    shown = notes_shown(page)
    labelled = {sq for sq, n in notes["pieces"].items() if any(n["label"].values())}
    assert set(shown) == labelled
    prefix = {"is": "= ", "min": "≥ ", "max": "≤ ", "not": "not "}
    names = {p["id"]: p for p in d.desc()["pieces"]}
    for square, text in shown.items():
        note = notes["pieces"][square]
        label = note["label"]
        if text.startswith("not ") or text in ("mobile", "ranked"):
            # The kinds it cannot be (when that is shorter than the label): exactly those.
            missing = set(names) - set(note["kinds"])
            if text == "mobile":
                assert missing == {k for k, p in names.items() if not p["movable"]}, square
            elif text == "ranked":
                assert missing == {k for k, p in names.items() if p["rank"] is None}, square
            else:
                assert len(text.split(",")) == len(missing), (square, text, missing)
            continue
        for key, start in prefix.items():
            if key in label and not ("min" in label and "max" in label):
                assert text.startswith(start), (square, label, text)
    listed = page.eval_on_selector_all("#notes-list li", "ls => ls.map(l => l.textContent)")
    assert len(listed) == len([u for u in notes["unaccounted"] if u["count"] > 0])
    # Remembered: a new page starts with the notes on.
    page.reload()
    wait_ready(page)
    page.click("#continue-box .continue-go")
    d.wait("play")
    page.wait_for_selector("svg.board [data-note]")
    assert page.is_checked("#notes-option")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("variant", ["classic", "blind", "gunjin"])
def test_marks_and_notes_screenshots(site, server, variant, size):
    page, d = open_page(site, server, seed=11, size=SIZES[size])
    # The CPU plays unseeded: in Blind it may take a flag turned up beside it within these
    # four moves, and an ended game shows no notes to draw: then another game.
    for _ in range(3):
        start_cpu(d, page, variant)
        page.check("#notes-option")
        for _ in range(4):
            d.play_random()
            if d.wait("play", "over") == "over":
                break
        if d.ui != "over":
            break
    assert d.ui == "play"
    if variant != "blind":
        page.wait_for_selector("svg.board [data-note]")
        squares = enemy_hidden(d, 0)
        mark(page, squares[len(squares) // 2], d.desc()["pieces"][3]["id"])
        mark(page, squares[-1], "?")
        assert len(tags(page)) == 2
    else:
        page.wait_for_selector("#notes-list li")
    if size == "390x844":
        page.locator("#notes-panel").scroll_into_view_if_needed()
        page.evaluate("window.scrollTo(0, 0)")
    d.screenshot(f"marks-notes-{variant}-{size}")
    panel = ARTIFACTS / f"notes-panel-{variant}-{size}.png"
    page.locator("#notes-panel").screenshot(path=str(panel))
    if variant != "blind":
        mark_square = next(iter(tags(page)))
        page.click(f'svg.board [data-hit="{mark_square}"]')
        page.wait_for_selector("dialog#mark-chooser")
        d.screenshot(f"mark-chooser-{variant}-{size}")
        page.keyboard.press("Escape")
