"""Setup tools on the game page: swap, refused swap with its reason, Random, Mirror,
Previous layout after a reload (from either seat, turned round by the engine)."""

from __future__ import annotations

import pytest
from conftest import wait_ready
from gamedriver import GameDriver, grid_label, no_page_errors  # noqa: F401

from junqi_core.deployment import rotation_table
from junqi_core.variants import find_variant

OFFICERS = {
    "classic": {
        "field_marshal",
        "general",
        "major_general",
        "brigadier",
        "colonel",
        "major",
        "captain",
        "lieutenant",
        "engineer",
    },
    "gunjin": {
        "army_general",
        "lieutenant_general",
        "major_general",
        "plane",
        "tank",
        "colonel",
        "lieutenant_colonel",
        "major",
        "captain",
        "first_lieutenant",
        "second_lieutenant",
        "cavalry",
        "engineer",
        "spy",
    },
}


def mirror(variant: str, square: str) -> str:
    if square.startswith("hq"):
        return square
    last = "e" if variant == "classic" else "f"
    return chr(ord("a") + ord(last) - ord(square[0])) + square[1:]


def rank(square: str) -> int:
    return int(square.lstrip("abcdefhq"))


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_game_setup_tools(site, server, variant):
    page = site.open(server.url)
    page.emulate_media(reduced_motion="reduce")
    d = GameDriver(page, seed=3)
    d.start(variant, mode="cpu", level="easy")
    assert d.ui == "setup"
    layout = d.own_layout()
    assert len(layout) == (25 if variant == "classic" else 23)
    assert page.is_disabled("#btn-previous")  # nothing confirmed yet in this browser

    # Swap two officers in the middle ranks: always allowed.
    middle = [
        sq
        for sq, kind in sorted(layout.items())
        if kind in OFFICERS[variant] and 2 <= rank(sq) <= 3 and not sq.startswith("hq")
    ]
    a = middle[0]
    b = next(sq for sq in middle if layout[sq] != layout[a])
    d.tap(a)
    page.wait_for_selector(f'svg.board [data-mark="selected"][data-sq="{a}"]')
    d.tap(b)
    page.wait_for_function(
        "([a, kind]) => document.querySelector(`svg.board g.pc[data-sq='${a}']`)"
        "?.dataset.kind === kind",
        arg=[a, layout[b]],
    )
    swapped = d.own_layout()
    assert swapped == {**layout, a: layout[b], b: layout[a]}
    assert f"Swapped {a} and {b}" in d.message()

    # A swap that breaks a rule is refused, with the reason and the square shown.
    flag = next(sq for sq, kind in swapped.items() if kind == "flag")
    if variant == "classic":
        bad = next(
            sq for sq, kind in swapped.items() if rank(sq) == 6 and kind in OFFICERS[variant]
        )
        reason = "the flag must stand in one of your two headquarters"
    else:
        bad = next(sq for sq in ("b4", "e4") if swapped[sq] in OFFICERS[variant])
        reason = "the flag may not stand on an access square"
    d.tap(flag)
    d.tap(bad)
    page.wait_for_selector('svg.board [data-mark="refused"]')
    assert "Swap refused" in d.message() and reason in d.message(), d.message()
    assert d.marks("refused") == [bad]
    assert d.own_layout() == swapped
    assert "swap refused" in grid_label(page, bad)

    # Random: another legal layout.
    page.click("#btn-random")
    page.wait_for_selector("#message:has-text('New random layout')")
    shuffled = d.own_layout()
    assert shuffled != swapped and sorted(shuffled.values()) == sorted(swapped.values())

    # Mirror: left and right exchanged.
    page.click("#btn-mirror")
    page.wait_for_selector("#message:has-text('Left and right swapped')")
    assert d.own_layout() == {mirror(variant, sq): kind for sq, kind in shuffled.items()}

    # Confirm, then after a reload "Previous layout" brings the confirmed layout back.
    confirmed = d.own_layout()
    page.click("#btn-confirm")
    d.wait("play")
    page.reload()
    wait_ready(page)
    page.emulate_media(reduced_motion="reduce")
    d.start(variant, mode="cpu", level="easy")
    assert d.own_layout() != confirmed
    page.click("#btn-previous")
    page.wait_for_selector("#message:has-text('Previous layout loaded')")
    assert d.own_layout() == confirmed

    # Playing second: the layout confirmed on the first seat comes back turned round to
    # this side (the engine turns it: `from_player`), then this seat keeps its own.
    d.start(variant, mode="cpu", second=True)
    page.click("#btn-previous")
    page.wait_for_selector("#message:has-text('Previous layout loaded')")
    board = find_variant(variant).board
    turn = rotation_table(board)
    index = {name: square for square, name in enumerate(board.names)}
    assert d.own_layout() == {board.names[turn[index[sq]]]: kind for sq, kind in confirmed.items()}
    page.click("#btn-mirror")
    page.wait_for_selector("#message:has-text('Left and right swapped')")
    second = d.own_layout()
    page.click("#btn-confirm")
    d.wait("play")
    d.start(variant, mode="cpu", second=True)
    page.click("#btn-previous")
    page.wait_for_selector("#message:has-text('Previous layout loaded')")
    assert d.own_layout() == second
    d.screenshot(f"game-{variant}-setup-second")
