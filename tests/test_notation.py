"""Notation both ways: squares, actions and position text (docs/notation.md)."""

from __future__ import annotations

import pytest

from junqi_core.notation import (
    NotationError,
    move_text,
    parse_move,
    parse_position,
    parse_square,
    position_text,
)
from junqi_core.selfplay import random_game
from junqi_core.topology import BOARDS, CLASSIC_BOARD, GUNJIN_BOARD


def test_square_names_round_trip_on_every_board():
    for board in BOARDS.values():
        for square, name in enumerate(board.names):
            assert parse_square(board, name) == square


@pytest.mark.parametrize("bad", ["", "f1", "a13", "hq1", "A1", None, 3])
def test_unknown_squares_are_refused(bad):
    with pytest.raises(NotationError):
        parse_square(CLASSIC_BOARD, bad)


def test_action_text_round_trips():
    for text in ("a6-sa", "sc-c7", "b2-b3"):
        assert move_text(CLASSIC_BOARD, parse_move(CLASSIC_BOARD, text)) == text
    assert move_text(GUNJIN_BOARD, parse_move(GUNJIN_BOARD, "hq1-c2")) == "hq1-c2"
    assert move_text(CLASSIC_BOARD, parse_move(CLASSIC_BOARD, "flip:c3")) == "flip:c3"
    assert parse_move(CLASSIC_BOARD, "pass") == CLASSIC_BOARD.move_code.PASS


@pytest.mark.parametrize("bad", ["a1a2", "a1-a1", "a1-", "flip:", "x1-a2", "", 12])
def test_bad_actions_are_refused(bad):
    with pytest.raises(NotationError):
        parse_move(CLASSIC_BOARD, bad)


@pytest.mark.parametrize("variant", ["classic", "blind", "gunjin"])
def test_position_text_round_trips_through_a_game(variant):
    game = random_game(variant, 5)
    text = position_text(game.position)
    assert position_text(parse_position(text)) == text
    assert parse_position(text).board == game.position.board


@pytest.mark.parametrize(
    "bad",
    [
        "chess 8/8 0 0 0 r",
        "classic 5/5 0 0 0 r",
        "classic 1f3/5/5/5/5/5/3/5/5/5/5/L5/1F3 0 0 0 r",
        "classic 1f3/5/5/5/5/5/3/5/5/5/5/Q4/1F3 0 0 0 r",
        "classic 1f3/5/5/5/5/5/3/5/5/5/5/L4/1F3 2 0 0 r",
        "classic 1f3/5/5/5/5/5/3/5/5/5/5/L4/1F3 0 0 0 -",
        "classic 1f3/5/5/5/5/5/3/5/5/5/5/?L4/1F3 0 0 0 r",
        "classic 1f3/5/5/5/5/5/3/5/5/5/5/L4/1F3 0 x 0 r",
        "gunjin 4s/6/6/6/6/6/6/2V2 0 0 0 r extra",
    ],
)
def test_bad_position_text_is_refused_with_a_message(bad):
    with pytest.raises(NotationError) as error:
        parse_position(bad)
    assert str(error.value)
