"""docs/rules.md, Gunjin Shogi: one test (or more) per rule line."""

from __future__ import annotations

import random

import pytest
from helpers import make_game, make_position, play, targets

from junqi_core import pieces as pc
from junqi_core.deployment import GUNJIN_DEPLOYMENT, DeploymentError
from junqi_core.game import PLAY, Game, IllegalActionError
from junqi_core.topology import GUNJIN_BOARD as B

# --- Board ----------------------------------------------------------------------------------


def test_board_two_camps_of_23_squares_with_the_hq_as_one_square():
    assert B.size == 46
    assert len(B.home[0]) == len(B.home[1]) == 23
    assert "hq1" in B.index and "c1" not in B.index and "d8" not in B.index


def test_board_river_crossed_only_by_the_bridges_on_b_and_e():
    for f in "acdf":
        assert B.square(f"{f}5") not in B.neighbours[B.square(f"{f}4")]
    for f in "be":
        assert B.square(f"{f}5") in B.neighbours[B.square(f"{f}4")]
    assert {B.names[s] for s in B.access} == {"b4", "e4", "b5", "e5"}


def test_board_hq_is_adjacent_to_b1_e1_c2_and_d2():
    assert {B.names[s] for s in B.neighbours[B.square("hq1")]} == {"b1", "e1", "c2", "d2"}
    assert {B.names[s] for s in B.neighbours[B.square("hq8")]} == {"b8", "e8", "c7", "d7"}


# --- Moving ---------------------------------------------------------------------------------


def test_moving_officers_and_spy_one_square_orthogonally():
    position = make_position("gunjin", "Cc3 Sd3 sa8")
    assert targets(position, "c3") == {"c2", "b3", "c4"}
    assert targets(position, "d3") == {"d2", "e3", "d4"}


def test_moving_no_moving_onto_own_pieces():
    position = make_position("gunjin", "Cc3 Kc4 Kb3 sa8")
    assert targets(position, "c3") == {"c2", "d3"}


@pytest.mark.parametrize("letter", ["T", "V"])
def test_moving_tank_and_cavalry_double_step_forward_when_the_middle_is_empty(letter):
    position = make_position("gunjin", f"{letter}b3 sa8")
    assert targets(position, "b3") == {"b2", "a3", "c3", "b4", "b5"}
    blocked = make_position("gunjin", f"{letter}b3 Kb4 sa8")
    assert "b5" not in targets(blocked, "b3")


def test_moving_the_double_step_is_forward_only_and_forward_depends_on_the_side():
    position = make_position("gunjin", "Tb6 sa8", turn=0)
    assert "b4" not in targets(position, "b6") and "b8" in targets(position, "b6")
    position = make_position("gunjin", "Ka1 tb6", turn=1)
    assert "b4" in targets(position, "b6") and "b8" not in targets(position, "b6")


def test_moving_engineer_any_distance_stopped_by_the_first_piece_which_it_may_attack():
    position = make_position("gunjin", "Ea2 kd2 Ka5 sf8")
    assert targets(position, "a2") == {"a1", "a3", "a4", "b2", "c2", "d2"}


def test_moving_engineer_crosses_only_at_the_bridges():
    position = make_position("gunjin", "Eb2 sf8")
    assert {"b3", "b4", "b5", "b6", "b7", "b8"} <= targets(position, "b2")
    position = make_position("gunjin", "Ec2 sf8")
    assert "c5" not in targets(position, "c2")


def test_moving_plane_any_distance_forward_or_back_jumping_pieces_and_the_river():
    position = make_position("gunjin", "Pc3 Kc4 kc6 Ka2 sf8")
    assert targets(position, "c3") == {"c2", "hq1", "c5", "c6", "c7", "hq8", "b3", "d3"}


def test_moving_plane_sideways_one_square_only():
    position = make_position("gunjin", "Pa3 Kb3 sf8")
    assert {"b3", "c3"}.isdisjoint(targets(position, "a3"))
    position = make_position("gunjin", "Pa3 sf8")
    assert "b3" in targets(position, "a3") and "c3" not in targets(position, "a3")


def test_moving_mine_and_flag_never_move():
    position = make_position("gunjin", "Na3 Fb3 Kc3 sf8")
    assert targets(position, "a3") == set() and targets(position, "b3") == set()


def test_moving_multi_square_moves_stop_on_entering_an_hq():
    position = make_position("gunjin", "Eb1 sf8")
    assert "hq1" in targets(position, "b1") and "e1" not in targets(position, "b1")
    position = make_position("gunjin", "Pc6 sa1")
    assert targets(position, "c6") >= {"c7", "hq8"}
    position = make_position("gunjin", "Tc6 sa1")
    assert "hq8" in targets(position, "c6")


def test_moving_from_the_hq_forward_lines_run_up_file_c_and_file_d():
    position = make_position("gunjin", "Ehq1 sf8")
    assert targets(position, "hq1") == {"c2", "c3", "c4", "d2", "d3", "d4", "b1", "a1", "e1", "f1"}
    position = make_position("gunjin", "Thq1 Kc2 sf8")
    assert targets(position, "hq1") == {"b1", "e1", "d2", "d3"}
    position = make_position("gunjin", "Phq1 Kc2 sf8")
    assert {"c3", "c7", "d7", "hq8", "b1", "e1"} <= targets(position, "hq1")
    assert "c2" not in targets(position, "hq1")


def test_moving_only_the_plane_crosses_the_river_outside_the_bridges():
    position = make_position("gunjin", "Tc4 Vd4 Ca4 sf8")
    for square in ("c4", "d4", "a4"):
        assert not {t for t in targets(position, square) if t[1] in "5678"}


# --- Combat ---------------------------------------------------------------------------------


def _fight(attacker: str, defender: str, extra: str = "") -> Game:
    game = make_game("gunjin", f"{attacker}c3 {defender}c4 Ka1 ka8 {extra}")
    play(game, "c3-c4")
    return game


def _kind_on(game: Game, square: str) -> int | None:
    p = game.position.board[B.square(square)]
    return p & 31 if p else None


STRENGTH = ["A", "L", "M", "P", "T", "C", "O", "J", "K", "I", "U", "V", "E", "S"]
LETTER = {k.letter: k.kind for k in pc.GUNJIN_KINDS}


@pytest.mark.parametrize("i", range(len(STRENGTH) - 1))
def test_combat_strength_order_stronger_wins_attacking_or_defending(i):
    strong, weak = STRENGTH[i], STRENGTH[i + 1]
    game = _fight(strong, weak.lower())
    assert _kind_on(game, "c4") == LETTER[strong]
    game = _fight(weak, strong.lower())
    assert _kind_on(game, "c4") == LETTER[strong] and _kind_on(game, "c3") is None


@pytest.mark.parametrize("letter", STRENGTH)
def test_combat_equal_types_are_both_removed(letter):
    game = _fight(letter, letter.lower())
    assert _kind_on(game, "c4") is None and _kind_on(game, "c3") is None


def test_combat_spy_beats_the_army_general_attacking_or_defending():
    assert _kind_on(_fight("S", "a"), "c4") == pc.SPY
    game = _fight("A", "s")
    assert _kind_on(game, "c4") == pc.SPY and _kind_on(game, "c3") is None


def test_combat_spy_loses_to_everything_else():
    assert _kind_on(_fight("S", "e"), "c4") == pc.G_ENGINEER
    assert _kind_on(_fight("V", "s"), "c4") == pc.CAVALRY


def test_combat_tank_beats_engineer():
    assert _kind_on(_fight("E", "t"), "c4") == pc.TANK


@pytest.mark.parametrize("letter", ["P", "E"])
def test_combat_plane_or_engineer_removes_a_mine_and_moves_in(letter):
    assert _kind_on(_fight(letter, "n"), "c4") == LETTER[letter]


@pytest.mark.parametrize("letter", ["A", "T", "S", "K"])
def test_combat_any_other_attacker_is_removed_with_the_mine(letter):
    game = _fight(letter, "n")
    assert _kind_on(game, "c4") is None and _kind_on(game, "c3") is None


def _flag_fight(attacker: str, behind: str | None) -> Game:
    """Player 1 attacks c5-c6: Player 2's flag on c6, `behind` on c7 (its back-rank side)."""
    extra = f"{behind}c7" if behind else ""
    game = make_game("gunjin", f"{attacker}c5 fc6 Ka1 ka8 {extra}")
    play(game, "c5-c6")
    return game


def test_combat_flag_wins_with_the_strength_of_the_piece_behind():
    game = _flag_fight("C", "a")
    assert _kind_on(game, "c6") == pc.G_FLAG and _kind_on(game, "c5") is None
    assert _kind_on(game, "c7") == pc.ARMY_GENERAL


def test_combat_flag_loses_and_only_the_flag_is_removed_the_piece_behind_stays():
    game = _flag_fight("A", "c")
    assert _kind_on(game, "c6") == pc.ARMY_GENERAL and _kind_on(game, "c7") == pc.G_COLONEL


def test_combat_flag_equal_strength_removes_flag_and_attacker_not_the_piece_behind():
    game = _flag_fight("C", "c")
    assert _kind_on(game, "c6") is None and _kind_on(game, "c5") is None
    assert _kind_on(game, "c7") == pc.G_COLONEL


def test_combat_flag_with_a_spy_behind_beats_the_army_general():
    game = _flag_fight("A", "s")
    assert _kind_on(game, "c6") == pc.G_FLAG and _kind_on(game, "c5") is None


def test_combat_flag_with_a_mine_behind_is_resolved_as_a_mine():
    game = _flag_fight("A", "n")
    assert _kind_on(game, "c6") is None and _kind_on(game, "c5") is None
    assert _kind_on(game, "c7") == pc.MINE
    assert _kind_on(_flag_fight("P", "n"), "c6") == pc.PLANE


def test_combat_flag_with_no_own_piece_behind_loses_to_everything():
    assert _kind_on(_flag_fight("S", None), "c6") == pc.SPY
    assert _kind_on(_flag_fight("S", "A"), "c6") == pc.SPY  # an enemy piece behind gives nothing


def test_combat_flag_on_c2_is_backed_by_the_hq_piece():
    game = make_game("gunjin", "Fc2 Ahq1 Ka3 lc3 ka8", turn=1)
    play(game, "c3-c2")
    assert _kind_on(game, "c2") == pc.G_FLAG and _kind_on(game, "c3") is None


def test_combat_losing_the_flag_does_not_end_the_game():
    game = _flag_fight("A", None)
    assert game.phase == PLAY


# --- End of game ----------------------------------------------------------------------------


@pytest.mark.parametrize("letter", ["A", "L", "M", "C", "O", "J"])
def test_end_occupation_by_a_general_or_field_officer_wins_at_once(letter):
    game = make_game("gunjin", f"{letter}c7 Ka1 ka8")
    play(game, "c7-hq8")
    assert game.result == (0, "occupation")


@pytest.mark.parametrize("letter", ["P", "T", "K", "I", "U", "V", "E", "S"])
def test_end_other_pieces_may_enter_the_enemy_hq_without_winning(letter):
    game = make_game("gunjin", f"{letter}c7 Ka1 ka8")
    play(game, "c7-hq8")
    assert game.phase == PLAY


def test_end_occupation_after_winning_the_combat_in_the_hq():
    game = make_game("gunjin", "Ac7 Ka1 khq8 ka8")
    play(game, "c7-hq8")
    assert game.result == (0, "occupation")


def test_end_a_side_with_no_possible_move_loses():
    game = make_game("gunjin", "Ca3 Ka1 nf8 ke7")
    play(game, "a3-a4")
    assert game.phase == PLAY
    game = make_game("gunjin", "Ca3 Ka1 nf8 Ke8 fe7")
    play(game, "a3-a4")
    assert game.result == (0, "immobilised")


def test_end_draw_when_after_a_move_neither_side_can_move():
    game = make_game("gunjin", "Kb4 Na1 na8 kb5")
    play(game, "b4-b5")  # both captains are removed: nobody can move
    assert game.result == (None, "no_moves")


def test_end_draw_after_100_plies_without_combat_hq_entry_counts_as_a_ply():
    game = make_game("gunjin", "Kc7 Ka1 ka8", quiet=99)
    play(game, "c7-hq8")
    assert game.result == (None, "quiet_moves")


# --- Deployment -----------------------------------------------------------------------------

RULES = GUNJIN_DEPLOYMENT


def _layout(player=0, seed=1):
    return RULES.random_layout(player, random.Random(seed))


@pytest.mark.parametrize("seed", range(20))
def test_deployment_fills_all_23_squares_legally(seed):
    for player in (0, 1):
        layout = _layout(player, seed)
        assert set(layout) == set(B.home[player])
        RULES.validate(player, layout)


@pytest.mark.parametrize(
    "kind, square, code",
    [
        (pc.MINE, "b4", "mine_on_access"),
        (pc.G_FLAG, "e4", "flag_on_access"),
        (pc.G_FLAG, "a1", "flag_on_back_rank"),
        (pc.G_FLAG, "hq1", "flag_on_back_rank"),
    ],
)
def test_deployment_rules_name_the_rule_and_the_square(kind, square, code):
    layout = _layout()
    target = B.square(square)
    source = next(s for s, k in sorted(layout.items()) if k == kind)
    if source == target:
        pytest.skip("already there")
    with pytest.raises(DeploymentError) as error:
        RULES.swap(0, layout, source, target)
    assert error.value.code == code and error.value.square == square


def test_deployment_a_mine_may_stand_in_the_hq():
    layout = _layout()
    mine = next(s for s, k in layout.items() if k == pc.MINE)
    hq = B.square("hq1")
    if layout[hq] in (pc.G_FLAG,):
        pytest.skip("flag cannot leave")
    RULES.validate(0, RULES.swap(0, layout, mine, hq))


def test_deployment_mirror_keeps_the_hq_and_swaps_access_squares():
    layout = _layout()
    mirrored = RULES.mirror(layout)
    RULES.validate(0, mirrored)
    assert mirrored[B.square("hq1")] == layout[B.square("hq1")]
    assert mirrored[B.square("e4")] == layout[B.square("b4")]


def test_no_draw_offers_in_gunjin():
    game = Game("gunjin", seed=1)
    game.deploy(0)
    game.deploy(1)
    with pytest.raises(IllegalActionError):
        game.apply(0, "offer:0")
