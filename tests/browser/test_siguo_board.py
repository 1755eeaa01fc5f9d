"""Siguo's cross board, seen through a shared replay link of a seeded four-seat game: the
cross drawn from the engine's description (129 posts, four curved railways), turned so
that the chosen seat's army is at the bottom, every piece marked with its seat's letter
besides its colour, no rank in the DOM that the chosen seat was not shown, and on a phone
every post a target of 44 px or more once zoomed. Screenshots go to
test-artifacts/sgboard-<view>-<size>.png."""

from __future__ import annotations

import json

import pytest
from gamedriver import (  # noqa: F401
    ARTIFACTS,
    assert_nothing_cut,
    assert_targets,
    axe_scan,
    no_page_errors,
)

from junqi_core import bridge
from junqi_core.notation import move_text
from junqi_core.selfplay import random_game
from junqi_core.share import encode_link
from junqi_core.views import view

REPLAY = "section.replay"
LETTERS = ["S", "E", "N", "W"]
SEATS = ["South", "East", "North", "West"]

# Each post's centre on screen, by name.
CENTRES_JS = """() => Object.fromEntries(
  [...document.querySelectorAll('#replay svg.board [data-hit]')].map(r => {
    const b = r.getBoundingClientRect();
    return [r.dataset.hit, [b.x + b.width / 2, b.y + b.height / 2, b.width, b.height]]; }))"""

# Each piece: [square, owner, kind or null, the seat letter drawn on it, the name drawn on it]
PIECES_JS = """() => [...document.querySelectorAll('#replay svg.board g.pc')].map(g => [
  g.dataset.sq, Number(g.dataset.owner), g.dataset.kind ?? null,
  g.querySelector('.seat-letter')?.textContent ?? null,
  g.querySelector('.name')?.textContent ?? null])"""


def siguo_game():
    """A finished four-seat game: 40 seeded random plies, then East and West resign."""
    game = random_game("siguo", 5, max_plies=40)
    while game.result is None:
        seat = game.turn
        if seat in (1, 3):
            game.apply(seat, f"resign:{seat}")
        else:
            game.apply(seat, move_text(game.board_spec, game.legal_moves()[0]))
    return game


@pytest.fixture(scope="module")
def game():
    return siguo_game()


def post_names() -> list[str]:
    desc = json.loads(bridge.handle(json.dumps({"op": "describe", "variant": "siguo"})))
    return [sq["name"] for sq in desc["description"]["board"]["squares"]]


def open_replay(site, server, game, size):
    page = site.open(server.url + "#replay=" + encode_link(game), wait=None)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.wait_for_selector(f"{REPLAY}[data-busy=false][data-viewer=all]", timeout=60_000)
    page.wait_for_selector("#replay svg.board[data-style=cross]")
    return page


def choose_view(page, viewer) -> None:
    page.select_option("#replay-viewer", str(viewer))
    page.wait_for_selector(f'{REPLAY}[data-viewer="{viewer}"][data-busy=false]')
    page.wait_for_selector(f'#replay svg.board[data-seat="{viewer if viewer != "all" else 0}"]')


def area_side(centres: dict, seat_letter: str) -> str:
    """Where an army's area lies on screen relative to the centre post C22."""
    cx, cy = centres["C22"][:2]
    xs = [c[0] for n, c in centres.items() if n[0] == seat_letter]
    ys = [c[1] for n, c in centres.items() if n[0] == seat_letter]
    x, y = sum(xs) / len(xs), sum(ys) / len(ys)
    if abs(x - cx) > abs(y - cy):
        return "right" if x > cx else "left"
    return "bottom" if y > cy else "top"


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"sgboard-{name}.png"))


def test_the_cross_turned_for_each_seat_with_lettered_pieces_and_no_hidden_rank(site, server, game):
    page = open_replay(site, server, game, (1280, 800))
    # The cross: every post of the engine's board, by its name, at its own place; the four
    # corner railways drawn as curves.
    centres = page.evaluate(CENTRES_JS)
    names = post_names()
    assert len(names) == 129 and sorted(centres) == sorted(names)
    assert len({(round(c[0]), round(c[1])) for c in centres.values()}) == 129
    curves = page.eval_on_selector_all(
        "#replay svg.board path.rail.curve", "ps => ps.map(p => p.dataset.curve)"
    )
    assert sorted(curves) == ["Ea6-Se6", "Na6-Ee6", "Sa6-We6", "Wa6-Ne6"]
    # Everything shown: seat 0 (South) at the bottom, turn order round the board.
    sides = {s: area_side(centres, s) for s in LETTERS}
    assert sides == {"S": "bottom", "E": "right", "N": "top", "W": "left"}
    # Every piece carries its seat's letter.
    pieces = page.evaluate(PIECES_JS)
    assert pieces and all(letter == LETTERS[owner] for _, owner, _, letter, _ in pieces), pieces
    shot(page, "all-1280x800")
    assert axe_scan(page, server.url, "#replay") == []

    # Each seat's view: that seat's army at the bottom, the others round it in turn order.
    for _ in range(12):
        page.click("#replay-forward")
    step = int(page.get_attribute(REPLAY, "data-step"))
    boards = []
    for seat in (1, 2, 3, 0):
        choose_view(page, seat)
        centres = page.evaluate(CENTRES_JS)
        order = [LETTERS[(seat + k) % 4] for k in range(4)]
        got = [area_side(centres, s) for s in order]
        assert got == ["bottom", "right", "top", "left"], (seat, got)
        # the seat's name drawn beside its own army, below the centre
        names = page.eval_on_selector_all(
            "#replay svg.board text.seat-name",
            "ts => ts.map(t => [Number(t.dataset.seat), t.textContent,"
            " t.getBoundingClientRect().y])",
        )
        assert sorted(n[:2] for n in names) == [[k, SEATS[k]] for k in range(4)]
        assert max(names, key=lambda n: n[2])[0] == seat, names
        # No rank the seat was not shown: the DOM names exactly what the engine's view of
        # that seat named at this step, and a rank only on its own pieces.
        pieces = page.evaluate(PIECES_JS)
        boards.append((seat, pieces))
        assert all(letter == LETTERS[owner] for _, owner, _, letter, _ in pieces)
        known = {(sq, owner, kind) for sq, owner, kind, _, _ in pieces if kind}
        assert known and all(owner == seat for _, owner, _ in known), (seat, known)
        assert all(name is None for _, owner, _, _, name in pieces if owner != seat)
        if seat in (0, 1):
            shot(page, f"{['south', 'east'][seat]}-1280x800")
    expected = expected_view(game, step)
    for seat, pieces in boards:
        got = {sq: [owner, kind] for sq, owner, kind, _, _ in pieces}
        assert got == expected[seat], f"seat {seat} at step {step}"


def expected_view(game, step: int) -> dict:
    """Each seat's view of the board after `step` actions, from CPython's engine."""
    from junqi_core.record import export_record, import_record

    out = {}
    seen = []

    def keep(g) -> None:
        if len(seen) == step:
            for seat in range(4):
                out[seat] = {
                    sq: [c["owner"], c["kind"]] for sq, c in view(g, seat)["board"].items()
                }
        seen.append(None)

    import_record(export_record(game), on_step=keep)
    return out


@pytest.mark.parametrize("size", [(390, 844), (360, 740)], ids=["390x844", "360x740"])
def test_the_phone_zoom_brings_every_post_to_44_px(site, server, game, size):
    page = open_replay(site, server, game, size)
    where = f"{size[0]}x{size[1]}"
    before = min(min(c[2], c[3]) for c in page.evaluate(CENTRES_JS).values())
    assert before < 44, "the whole cross fits the phone's width only with small posts"
    assert page.is_visible("#zoom-toggle"), f"{where}: posts of {before:.0f} px and no zoom"
    page.click("#zoom-toggle")
    page.wait_for_selector("#replay-board-wrap.zoomed")
    after = min(min(c[2], c[3]) for c in page.evaluate(CENTRES_JS).values())
    assert after >= 44, f"{where}: zoomed posts are {after:.1f} px"
    assert_targets(page, f"Siguo replay {where}")
    assert_nothing_cut(page, f"Siguo replay {where}")
    if size == (390, 844):
        # another seat's view, still zoomed: that seat's own posts in view, as big
        for seat, name in ((1, "east"), (0, "south")):
            choose_view(page, seat)
            zoomed = page.evaluate(CENTRES_JS)
            assert min(min(c[2], c[3]) for c in zoomed.values()) >= 44
            shot(page, f"{name}-zoomed-{where}")
        page.click("#zoom-toggle")
        page.wait_for_selector("#replay-board-wrap:not(.zoomed)")
        shot(page, f"south-{where}")
        choose_view(page, 1)
        shot(page, f"east-{where}")
