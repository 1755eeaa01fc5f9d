"""docs/rules.md, Classic Junqi: one test (or more) per rule line."""

from __future__ import annotations

import random

import pytest
from helpers import make_game, make_position, play, targets

from junqi_core.deployment import CLASSIC_DEPLOYMENT, DeploymentError
from junqi_core.game import OVER, PLAY, Game, IllegalActionError
from junqi_core.topology import CLASSIC_BOARD as B

# --- Board ------------------------------------------------------------------------------


def test_board_has_63_posts_with_three_stations_and_mountains_on_b_and_d():
    assert B.size == 63
    assert [B.names[s] for s in B.stations] == ["sa", "sc", "se"]
    for f in "bd":
        assert B.square(f"{f}7") not in B.neighbours[B.square(f"{f}6")]
    assert {B.names[s] for s in B.neighbours[B.square("sc")]} == {"c6", "c7"}


def test_board_hqs_and_camps_are_where_the_rules_say():
    assert {B.names[s] for s in B.hqs[0]} == {"b1", "d1"}
    assert {B.names[s] for s in B.hqs[1]} == {"b12", "d12"}
    assert {B.names[s] for s in B.camps} == {
        "b3",
        "d3",
        "c4",
        "b5",
        "d5",
        "b10",
        "d10",
        "c9",
        "b8",
        "d8",
    }


def test_board_railways_are_ranks_2_6_7_11_the_outer_files_and_the_central_crossing():
    rail = {B.names[s] for s in range(B.size) if B.on_rail[s]}
    expected = {f"{f}{r}" for f in "abcde" for r in (2, 6, 7, 11)}
    expected |= {f"{f}{r}" for f in "ae" for r in range(2, 12)} | {"sa", "sc", "se"}
    assert rail == expected


def test_board_roads_connect_each_camp_to_its_four_diagonal_neighbours():
    assert {B.names[s] for s in B.road_steps[B.square("c4")]} == {
        "c3",
        "c5",
        "b4",
        "d4",
        "b3",
        "d3",
        "b5",
        "d5",
    }


# --- Moving -----------------------------------------------------------------------------


def test_moving_road_step_one_post_even_onto_a_railway():
    position = make_position("classic", "Lc3 Fb1 fb12 La12")
    assert targets(position, "c3") == {"c2", "b3", "d3", "c4"}


def test_moving_railway_slide_along_one_straight_line_only():
    position = make_position("classic", "La2 Fb1 fb12 la12")
    rank_2 = {"b2", "c2", "d2", "e2"}
    file_a = {"a3", "a4", "a5", "a6", "sa", "a7", "a8", "a9", "a10", "a11"}
    assert targets(position, "a2") == rank_2 | file_a | {"a1", "b3"}


def test_moving_railway_slide_passes_empty_posts_only_and_may_attack_at_the_end():
    own = make_position("classic", "La2 Ja5 Fb1 fb12")
    assert {"a3", "a4"} <= targets(own, "a2")
    assert not {"a5", "a6", "sa"} & targets(own, "a2")
    enemy = make_position("classic", "La2 ja5 Fb1 fb12")
    assert {"a3", "a4", "a5"} <= targets(enemy, "a2")
    assert "a6" not in targets(enemy, "a2")


def test_moving_engineer_follows_any_railway_path_turning_corners():
    position = make_position("classic", "Ea2 Fb1 fb12")
    rail_posts = {B.names[s] for s in range(B.size) if B.on_rail[s]}
    assert targets(position, "a2") == (rail_posts - {"a2"}) | {"a1", "b3"}


def test_moving_engineer_paths_go_through_empty_posts_only():
    # A piece on e2 blocks the corner: e3.. can only be reached round the other way.
    position = make_position("classic", "Ea2 Je2 Ka6 Fb1 fb12")
    reach = targets(position, "a2")
    assert "e3" not in reach and "e2" not in reach
    assert {"b2", "c2", "d2", "a3", "a4", "a5"} <= reach
    assert not {"sa", "b6"} & reach


def test_moving_engineer_off_the_railway_steps_like_everyone_else():
    position = make_position("classic", "Ec3 Fb1 fb12")
    assert targets(position, "c3") == {"c2", "b3", "d3", "c4"}


def test_moving_mines_and_the_flag_never_move():
    position = make_position("classic", "Na2 Fb1 Lc3 fb12 la12")
    assert targets(position, "a2") == set()
    assert targets(position, "b1") == set()


def test_moving_a_piece_in_an_hq_never_moves_own_or_enemy():
    position = make_position("classic", "Md1 Gd12 Fb1 Lc3 fb12 la11")
    assert targets(position, "d1") == set()
    assert targets(position, "d12") == set()


def test_moving_pieces_in_camps_cannot_be_attacked_but_empty_camps_may_be_entered():
    position = make_position("classic", "Mc3 jc4 Fb1 fb12")
    assert "c4" not in targets(position, "c3")
    assert {"b3", "d3"} <= targets(position, "c3")


def test_moving_no_passing_and_nothing_crosses_the_mountains():
    position = make_position("classic", "Lb6 Fb1 fb12 lb11")
    assert targets(position, "b6") == {"a6", "c6", "d6", "e6", "b5"}


def test_moving_stations_are_ordinary_posts_on_the_railway():
    position = make_position("classic", "Lsc Fb1 fb12 la12")
    assert targets(position, "sc") == {"c6", "c7"}
    position = make_position("classic", "Lsa Fb1 fb12 lb11")
    assert targets(position, "sa") >= {"a2", "a11"}


# --- Combat -----------------------------------------------------------------------------


def _attack(pieces: str, move: str) -> Game:
    game = make_game("classic", pieces + " Fb1 fd12")
    play(game, move)
    return game


def _on(game: Game, square: str) -> str | None:
    p = game.position.board[B.square(square)]
    if not p:
        return None
    letter = {k.kind: k.letter for k in game.position_class.kinds}[p & 31]
    return letter if not p & 32 else letter.lower()


def test_combat_1_a_bomb_removes_itself_and_what_it_fights_either_way():
    game = _attack("Xc3 mc2 Lc5 lc7", "c3-c2")
    assert _on(game, "c3") is None and _on(game, "c2") is None
    game = _attack("Mc3 xc2 Lc5 lc7", "c3-c2")
    assert _on(game, "c3") is None and _on(game, "c2") is None


def test_combat_2_the_flag_is_captured_and_the_game_ends():
    game = make_game("classic", "Lb11 Fb1 fb12 lc7")
    play(game, "b11-b12")
    assert game.phase == OVER and game.result == (0, "flag_captured")


def test_combat_3_engineer_removes_a_mine_and_moves_in():
    game = _attack("Ec3 nc2 Lc5 lc7", "c3-c2")
    assert _on(game, "c2") == "E" and _on(game, "c3") is None


def test_combat_3_any_other_attacker_is_removed_with_the_mine():
    game = _attack("Mc3 nc2 Lc5 lc7", "c3-c2")
    assert _on(game, "c2") is None and _on(game, "c3") is None


def test_combat_3_a_bomb_against_a_mine_removes_both():
    game = _attack("Xc3 nc2 Lc5 lc7", "c3-c2")
    assert _on(game, "c2") is None and _on(game, "c3") is None


@pytest.mark.parametrize(
    "attacker, defender, survivor",
    [("M", "g", "M"), ("G", "m", "m"), ("K", "k", None), ("E", "l", "l"), ("L", "e", "L")],
)
def test_combat_4_higher_rank_survives_equal_ranks_both_go(attacker, defender, survivor):
    game = _attack(f"{attacker}c3 {defender}c2 Lc5 lc7", "c3-c2")
    assert _on(game, "c2") == survivor
    assert _on(game, "c3") is None  # only the attacker moves, into the post when it wins


def test_combat_decision_a_bomb_that_hits_the_flag_captures_it():
    game = make_game("classic", "Xb11 Fb1 fb12 lc7")
    play(game, "b11-b12")
    assert game.result == (0, "flag_captured")
    assert _on(game, "b12") is None


# --- End of game --------------------------------------------------------------------------


def test_end_immobilised_opponent_loses_at_the_start_of_their_turn():
    # Blue's last movable piece (c10) is boxed in by a mine and Red pieces in camps.
    game = make_game("classic", "Lb10 Ld10 Lc8 Fb1 lc10 nc11 fb12")
    assert game.phase == PLAY
    play(game, "c8-c9")
    assert game.result == (0, "immobilised")


def test_end_flag_capture_is_reported_when_it_also_removes_the_last_movable_piece():
    # Blue's only other pieces are a mine and a frozen HQ piece: after the capture Blue
    # could not move either, but the flag capture is what is reported.
    game = make_game("classic", "Lb11 Fb1 fb12 md12 na11")
    play(game, "b11-b12")
    assert game.result == (0, "flag_captured")


def test_end_draw_after_100_plies_without_combat():
    game = make_game("classic", "Lb10 Ld10 Lc8 Fb1 lc10 nc11 fb12", quiet=99)
    play(game, "b10-a9")
    assert game.result == (None, "quiet_moves")


def test_end_the_100th_ply_that_leaves_the_opponent_without_a_move_wins_instead():
    game = make_game("classic", "Lb10 Ld10 Lc8 Fb1 lc10 nc11 fb12", quiet=99)
    play(game, "c8-c9")
    assert game.result == (0, "immobilised")


def test_end_combat_resets_the_quiet_counter():
    game = make_game("classic", "Lc3 jc2 Fb1 fb12 la12", quiet=99)
    play(game, "c3-c2")
    assert game.phase == PLAY and game.position.quiet == 0


def _started(seed: int = 3) -> Game:
    game = Game("classic", seed=seed)
    game.deploy(0)
    game.deploy(1)
    return game


def _quiet_move(game: Game) -> str:
    from junqi_core.notation import move_text

    board = game.position.board
    to = game.position.move_code.to
    quiet = [m for m in game.legal_moves() if not board[to[m]]]
    return move_text(B, random.Random(0).choice(quiet))


def test_end_draw_by_agreement():
    game = _started()
    play(game, "offer:1")  # either player may offer at any time, even out of turn
    play(game, "accept:0")
    assert game.result == (None, "agreed_draw")


def test_end_declined_offer_and_the_ten_ply_wait():
    game = _started()
    play(game, "offer:0", "decline:1")
    assert game.phase == PLAY and game.offer_by is None
    with pytest.raises(IllegalActionError):
        game.apply(0, "offer:0")
    for _ in range(10):
        play(game, _quiet_move(game))
    play(game, "offer:0")
    assert game.offer_by == 0


def test_end_an_unanswered_offer_lapses_at_the_end_of_the_opponents_turn():
    game = _started()
    play(game, "offer:0", _quiet_move(game))  # Red offers, then moves: still pending
    assert game.offer_by == 0
    play(game, _quiet_move(game))  # Blue's turn ends without an answer
    assert game.offer_by is None
    with pytest.raises(IllegalActionError):
        game.apply(1, "accept:1")


def test_end_resignation():
    game = _started()
    play(game, "resign:1")
    assert game.result == (0, "resignation")


# --- Clock --------------------------------------------------------------------------------


def test_clock_a_time_out_passes_the_turn_and_counts_as_a_ply():
    game = _started()
    quiet_before = game.position.quiet
    play(game, "timeout")
    assert game.turn == 1 and game.position.ply == 1
    assert game.position.quiet == quiet_before + 1


def test_clock_the_third_time_out_loses():
    game = _started()
    for _ in range(2):
        play(game, "timeout")
        play(game, _quiet_move(game))
    assert game.phase == PLAY
    play(game, "timeout")
    assert game.result == (1, "timeouts")


def test_clock_a_time_out_that_leaves_the_opponent_immobile_wins():
    game = make_game("classic", "Lb10 Ld10 Lc9 Fb1 lc10 nc11 fb12")
    play(game, "timeout")
    assert game.result == (0, "immobilised")


def test_clock_deployment_not_confirmed_gets_a_random_legal_layout():
    game = Game("classic", seed=9)
    game.deploy(0, game.random_layout(0, seed=123))
    game.deploy(1)  # the draft, itself random and legal
    assert game.phase == PLAY


# --- Deployment ---------------------------------------------------------------------------

RULES = CLASSIC_DEPLOYMENT


def _layout(player: int = 0, seed: int = 1):
    return RULES.random_layout(player, random.Random(seed))


def _swap_to(layout, kind: int, square: str):
    """The layout with the first piece of `kind` exchanged with what stands on `square`."""
    target = B.square(square)
    source = next(s for s, k in sorted(layout.items()) if k == kind)
    out = dict(layout)
    out[source], out[target] = layout[target], layout[source]
    return out


def test_deployment_fills_the_25_non_camp_posts_of_the_own_half():
    layout = _layout()
    assert len(layout) == 25 and not set(layout) & B.camps
    assert set(layout) <= set(B.home[0])


@pytest.mark.parametrize("seed", range(20))
def test_deployment_random_layouts_are_legal_and_seeded(seed):
    for player in (0, 1):
        layout = _layout(player, seed)
        RULES.validate(player, layout)
        assert layout == _layout(player, seed)


@pytest.mark.parametrize(
    "kind, square, code",
    [
        (12, "c3", "flag_not_in_hq"),
        (11, "c4", "square_not_yours"),
        (11, "a3", "mine_not_in_back_ranks"),
        (11, "b1", "mine_in_hq"),
        (10, "c6", "bomb_on_front_rank"),
    ],
)
def test_deployment_validation_names_the_rule_and_the_square(kind, square, code):
    layout = _layout()
    if code == "mine_in_hq":  # use the HQ that does not hold the flag
        square = next(h for h in ("b1", "d1") if layout[B.square(h)] != 12)
    if code == "square_not_yours":
        layout = dict(layout)
        layout[B.square(square)] = layout.pop(next(s for s, k in layout.items() if k == kind))
    else:
        layout = _swap_to(layout, kind, square)
    with pytest.raises(DeploymentError) as error:
        RULES.validate(0, layout)
    assert error.value.code == code
    assert error.value.square == square


def test_deployment_flag_may_stand_in_either_hq_and_others_in_the_other_hq():
    for hq in ("b1", "d1"):
        RULES.validate(0, _swap_to(_layout(), 12, hq))


def test_deployment_blue_rules_are_mirrored_to_its_own_back_ranks():
    layout = _swap_to(_layout(1), 11, "a11")
    RULES.validate(1, layout)
    with pytest.raises(DeploymentError) as error:
        RULES.validate(1, _swap_to(_layout(1), 10, "a7"))
    assert error.value.code == "bomb_on_front_rank"


def test_deployment_swap_is_refused_with_the_reason_and_leaves_the_layout_alone():
    layout = _layout()
    flag = next(s for s, k in layout.items() if k == 12)
    before = dict(layout)
    with pytest.raises(DeploymentError) as error:
        RULES.swap(0, layout, flag, B.square("c6"))
    assert error.value.code == "flag_not_in_hq" and "c6" in str(error.value)
    assert layout == before
    swapped = RULES.swap(0, layout, B.square("a6"), B.square("e6"))
    assert swapped[B.square("a6")] == layout[B.square("e6")]


def test_deployment_mirror_swaps_left_and_right_and_stays_legal():
    layout = _layout()
    mirrored = RULES.mirror(layout)
    RULES.validate(0, mirrored)
    assert mirrored[B.square("e6")] == layout[B.square("a6")]
    assert mirrored[B.square("d1")] == layout[B.square("b1")]
    assert RULES.mirror(mirrored) == layout


def test_deployment_camps_and_stations_start_empty():
    game = _started()
    for square in list(B.camps) + list(B.stations):
        assert game.position.board[square] == 0
