"""Moves as small ints: numbered by the board's size, so a board of 129 posts works too."""

from __future__ import annotations

import pytest

from junqi_core.moves import move_code
from junqi_core.notation import move_text, parse_move
from junqi_core.topology import BOARDS, Board


@pytest.mark.parametrize("size", [46, 60, 63, 64, 65, 129])
def test_every_move_comes_apart_into_the_posts_it_was_made_of(size):
    code = move_code(size)
    made = {}
    for frm in range(size):
        for to in range(size):
            move = code.move(frm, to)
            assert code.split(move) == (frm, to)
            assert (code.frm[move], code.to[move]) == (frm, to)
            assert code.is_flip(move) == (frm == to)
            made[move] = (frm, to)
    assert len(made) == size * size  # no two moves share a number
    assert code.PASS not in made and not code.is_flip(code.PASS)
    assert all(move < code.PASS for move in made)
    assert code.flip(size - 1) == code.move(size - 1, size - 1)


def test_the_boards_number_their_moves_by_their_own_size():
    for board in BOARDS.values():
        assert board.move_code is move_code(board.size)
        last = board.size - 1
        assert board.move_code.split(board.move_code.move(last, 0)) == (last, 0)


def line_board(size: int) -> Board:
    """A board of `size` posts in a row (as many as Siguo's 129 and more)."""
    names = tuple(f"p{i}" for i in range(size))
    return Board(
        id="line",
        files=size,
        ranks=1,
        names=names,
        coords=tuple((float(i), 0.0) for i in range(size)),
        roads=tuple((i, i + 1) for i in range(size - 1)),
        rails=(),
        camps=frozenset(),
        hqs=((), ()),
        home=(tuple(range(size // 2)), tuple(range(size // 2, size))),
    )


def test_notation_reads_and_writes_moves_between_any_posts_of_a_129_post_board():
    board = line_board(129)
    for frm, to in [(0, 128), (128, 0), (64, 65), (127, 128), (100, 3)]:
        text = f"p{frm}-p{to}"
        move = parse_move(board, text)
        assert board.move_code.split(move) == (frm, to)
        assert move_text(board, move) == text
    assert move_text(board, parse_move(board, "flip:p128")) == "flip:p128"
    assert parse_move(board, "pass") == board.move_code.PASS
    assert move_text(board, board.move_code.PASS) == "pass"
