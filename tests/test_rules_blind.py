"""docs/rules.md, Blind Junqi (Fanqi): one test (or more) per rule line."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import make_game, make_position, play, targets

from junqi_core import pieces as pc
from junqi_core.deployment import blind_shuffle
from junqi_core.game import PLAY, Game, IllegalActionError
from junqi_core.pieces import FACE_DOWN
from junqi_core.topology import BLIND_BOARD as B


def test_board_is_classic_without_stations_files_a_c_e_cross_directly_by_railway():
    assert B.size == 60 and not B.stations
    for f in "ace":
        assert B.square(f"{f}7") in B.rail_neighbours[B.square(f"{f}6")]
    for f in "bd":
        assert B.square(f"{f}7") not in B.neighbours[B.square(f"{f}6")]


def test_setup_all_50_pieces_face_down_on_the_50_non_camp_posts_hqs_included():
    board = blind_shuffle(42)
    occupied = [s for s, p in enumerate(board) if p]
    assert len(occupied) == 50 and not set(occupied) & B.camps
    assert all(board[s] for s in B.hqs[0] + B.hqs[1])
    assert all(p & FACE_DOWN for p in board if p)
    counts = Counter((p & 31, pc.colour_of(p)) for p in board if p)
    for kind in pc.JUNQI_KINDS:
        assert counts[(kind.kind, 0)] == counts[(kind.kind, 1)] == kind.count


def test_setup_the_shuffle_is_fixed_by_its_seed():
    assert blind_shuffle(5) == blind_shuffle(5)
    assert blind_shuffle(5) != blind_shuffle(6)


def test_a_turn_the_first_player_can_only_flip_at_first():
    game = Game("blind", seed=1)
    moves = game.legal_moves()
    assert len(moves) == 50 and all(B.move_code.is_flip(m) for m in moves)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_turn_the_first_flip_decides_the_colours(seed):
    game = Game("blind", seed=seed)
    square = next(s for s, p in enumerate(game.position.board) if p)
    colour = pc.colour_of(game.position.board[square])
    play(game, f"flip:{B.names[square]}")
    assert game.position.colour_of(0) == colour
    assert game.position.colour_of(1) == 1 - colour


def test_a_turn_whoever_flips_first_plays_the_flipped_colour():
    game = Game("blind", seed=3)
    play(game, "timeout")  # player 0 loses the first turn to the clock; player 1 flips first
    square = next(s for s, p in enumerate(game.position.board) if p)
    colour = pc.colour_of(game.position.board[square])
    play(game, f"flip:{B.names[square]}")
    assert game.position.colour_of(1) == colour


def test_a_turn_flip_any_face_down_piece_or_move_an_own_face_up_piece():
    position = make_position("blind", "Lc3 lc5 ?Ma1 Fb1 fb12", swap=0)
    moves = position.legal_moves()
    assert B.move_code.flip(B.square("a1")) in moves
    assert targets(position, "c3") == {"c2", "b3", "d3", "c4"}
    # not the opponent's piece
    assert not any(B.move_code.frm[m] == B.square("c5") for m in moves)


def test_moving_face_down_pieces_block_paths_and_cannot_be_moved_onto():
    position = make_position("blind", "La2 ?Ja5 ?Kc2 Fb1 fb12", swap=0)
    reach = targets(position, "a2")
    assert {"a3", "a4", "b2"} <= reach
    assert not {"a5", "a6", "c2", "d2"} & reach


def test_moving_face_down_pieces_cannot_be_attacked_even_if_they_are_enemies():
    position = make_position("blind", "Mc3 ?lc2 Fb1 fb12", swap=0)
    assert "c2" not in targets(position, "c3")


def test_moving_a_piece_may_leave_an_hq_in_this_variant():
    position = make_position("blind", "Mb1 Fd1 fb12", swap=0)
    assert targets(position, "b1") == {"a1", "c1", "b2"}


def test_moving_mines_and_the_flag_never_move_and_engineers_turn_corners():
    position = make_position("blind", "Na1 Fb1 Ea2 fb12", swap=0)
    assert targets(position, "a1") == set() and targets(position, "b1") == set()
    assert {"e2", "e11", "a11", "c7"} <= targets(position, "a2")


def test_moving_railways_cross_the_front_directly():
    position = make_position("blind", "Lc6 Fb1 fb12", swap=0)
    assert {"c7", "b6", "a6", "d6", "e6"} <= targets(position, "c6")


def _fight(attacker: str, defender: str) -> Game:
    game = make_game("blind", f"{attacker}c3 {defender}c2 Lc5 lc7 Fa1 fe12", swap=0)
    play(game, "c3-c2")
    return game


def _kind_on(game: Game, square: str) -> int | None:
    p = game.position.board[B.square(square)]
    return p & 31 if p else None


@pytest.mark.parametrize(
    "attacker, defender, survivor",
    [
        ("M", "g", pc.FIELD_MARSHAL),
        ("K", "j", pc.MAJOR),
        ("K", "k", None),
        ("X", "m", None),
        ("M", "x", None),
        ("E", "n", pc.ENGINEER),
        ("X", "n", None),
        ("G", "n", pc.LANDMINE),
    ],
)
def test_attack_outcomes(attacker, defender, survivor):
    game = _fight(attacker, defender)
    assert _kind_on(game, "c2") == survivor
    assert _kind_on(game, "c3") is None


def test_attack_a_mine_destroys_the_attacker_and_stays():
    game = _fight("M", "n")
    assert _kind_on(game, "c2") == pc.LANDMINE
    assert game.removed[0] and not game.removed[1]


def test_attack_pieces_in_camps_cannot_be_attacked():
    position = make_position("blind", "Mc3 jc4 Fb1 fb12", swap=0)
    assert "c4" not in targets(position, "c3")


@pytest.mark.parametrize("attacker", ["L", "X"])
def test_end_capturing_the_flag_wins_also_with_a_bomb(attacker):
    game = make_game("blind", f"{attacker}c3 fc2 Fa1 le12 ?Kd4", swap=0)
    play(game, "c3-c2")
    assert game.result == (0, "flag_captured")


def test_end_a_player_with_no_legal_action_loses():
    # Blue (player 1) has only a mine and a flag and nothing left to flip.
    game = make_game("blind", "Lc3 Fa1 nc12 fe12", swap=0)
    play(game, "c3-c4")
    assert game.result == (0, "immobilised")


def test_end_a_face_down_piece_left_to_flip_is_a_legal_action():
    game = make_game("blind", "Lc3 Fa1 nc12 fe12 ?Ka6", swap=0)
    play(game, "c3-c4")
    assert game.phase == PLAY


def test_end_draw_after_80_plies_without_flip_or_attack():
    game = make_game("blind", "Lc3 Fa1 la12 fe12", swap=0, quiet=79)
    play(game, "c3-c4")
    assert game.result == (None, "quiet_moves")


def test_end_a_flip_resets_the_80_ply_counter():
    game = make_game("blind", "Lc3 Fa1 la12 fe12 ?Kd4", swap=0, quiet=79)
    play(game, "flip:d4")
    assert game.phase == PLAY and game.position.quiet == 0


def test_draw_offers_are_not_part_of_blind():
    game = Game("blind", seed=1)
    with pytest.raises(IllegalActionError):
        game.apply(0, "offer:0")
