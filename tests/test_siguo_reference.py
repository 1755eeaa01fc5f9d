"""The independent Siguo model (tests/siguo_reference.py) checked against the rules: board
counts, the hand-worked move examples, combat, and the course of a game."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest
import siguo_reference as R
from siguo_reference import (
    State,
    apply_move,
    apply_pass,
    apply_surrender,
    combat,
    destinations,
    legal_moves,
    outcome,
)

S, E, N, W = range(4)


def pieces(spec: str) -> dict[str, tuple[int, str]]:
    """'Sa2:S:colonel C31:N:bomb' -> {post: (seat, kind)}."""
    found = {}
    for token in spec.split():
        post, seat, kind = token.split(":")
        assert post in R.posts() and kind in R.KINDS and post not in found
        found[post] = (R.SEATS.index(seat), kind)
    return found


def dests(spec: str, post: str) -> set[str]:
    return destinations(State(pieces(spec)), post)


# Every seat keeps its flag in b1 and a Lieutenant on c1 (which can always step to d1 or c2),
# so that no seat is out for want of a move unless a test wants it.
HOME = " ".join(f"{s}b1:{s}:flag {s}c1:{s}:lieutenant" for s in R.SEATS)


def game(spec: str = "", turn: int = S, home: str = HOME, **kwargs) -> State:
    return State(pieces(f"{home} {spec}"), turn=turn, **kwargs)


def army(state: State, seat: int) -> set[str]:
    return {p for p, (s, _) in state.pieces.items() if s == seat}


# --- board -------------------------------------------------------------------------------------

MAP = """\
......oHoHo......
......RRRRR......
......RCoCR......
......RoCoR......
......RCoCR......
......RRRRR......
oRRRRR#.#.#RRRRRo
HRCoCR.....RCoCRH
oRoCoR#.#.#RoCoRo
HRCoCR.....RCoCRH
oRRRRR#.#.#RRRRRo
......RRRRR......
......RCoCR......
......RoCoR......
......RCoCR......
......RRRRR......
......oHoHo......"""


def test_every_post_sits_on_the_drawn_grid_with_its_kind():
    rows = MAP.splitlines()
    letter = {"hq": "H", "camp": "C", "rail": "R", "road": "o", "centre": "#"}
    seen = set()
    for post in R.posts():
        x, y = R.grid_xy(post)
        assert rows[y][x] == letter[R.post_kind(post)], post
        seen.add((x, y))
    drawn = {(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c != "."}
    assert seen == drawn


def test_post_and_link_counts():
    ps = R.posts()
    assert len(ps) == len(set(ps)) == 129
    assert ps[0] == "Sa1" and ps[119] == "We6" and ps[120:] == R.CENTRE
    kinds = Counter(R.post_kind(p) for p in ps)
    assert kinds == {"rail": 64, "centre": 9, "camp": 20, "hq": 8, "road": 28}
    assert sum(R.is_railway_post(p) for p in ps) == 73
    assert sum(len(R.deployable_posts(s)) for s in range(4)) == 100
    links, rail = R.links(), R.rail_links()
    assert len(links) == 288 and len(rail) == 92 and rail <= links
    assert all(len(link) == 2 for link in links)
    roads = links - rail
    diagonal = {x for x in roads if any(R.post_kind(p) == "camp" for p in x) and _diag(x)}
    assert len(diagonal) == 64 and len(roads - diagonal) == 132
    degree = {p: len(R.neighbours(p)) for p in ps}
    assert max(degree.values()) == 8 and min(degree.values()) == 2
    assert {p for p, d in degree.items() if d == 8} == {p for p in ps if R.post_kind(p) == "camp"}
    assert {p for p, d in degree.items() if d == 2} == {f"{s}{f}1" for s in R.SEATS for f in "ae"}


def _diag(link: frozenset[str]) -> bool:
    (x1, y1), (x2, y2) = (R.grid_xy(p) for p in link)
    return abs(x1 - x2) == 1 and abs(y1 - y2) == 1


def test_links_inside_an_army_are_rail_exactly_when_both_ends_are():
    for link in R.links():
        a, b = sorted(link)
        if a[0] == b[0] != "C":
            both = R.is_railway_post(a) and R.is_railway_post(b)
            assert (link in R.rail_links()) == both, link
    assert frozenset(("Sa1", "Sa2")) not in R.rail_links()
    assert frozenset(("Se1", "Se2")) not in R.rail_links()
    assert not any(R.is_railway_post(p) for p in R.posts() if R.post_kind(p) in ("camp", "hq"))


FOREIGN_LINKS = (
    *("Ne6-C11", "Nc6-C12", "Na6-C13", "Wa6-C11", "Wc6-C21", "We6-C31"),
    *("Sa6-C31", "Sc6-C32", "Se6-C33", "Ea6-C33", "Ec6-C23", "Ee6-C13"),
    *("Sa6-We6", "Wa6-Ne6", "Na6-Ee6", "Ea6-Se6"),
)


def test_links_between_armies_are_the_front_stations_and_the_corner_arcs_only():
    between = {x for x in R.links() if len({p[0] for p in x}) == 2}
    assert between <= R.rail_links()
    expected = {frozenset(pair.split("-")) for pair in FOREIGN_LINKS}
    assert between == expected
    centre = {x for x in R.links() if all(p[0] == "C" for p in x)}
    assert len(centre) == 12 and centre <= R.rail_links()
    for s in R.SEATS:
        assert R.neighbours(f"{s}b6") == {f"{s}a6", f"{s}c6", f"{s}b5"}
        assert R.neighbours(f"{s}d6") == {f"{s}c6", f"{s}e6", f"{s}d5"}
    # The arcs join the inner corners of the drawing.
    arcs = {frozenset(R.grid_xy(p) for p in x) for x in expected if "C" not in "".join(x)}
    assert arcs == {
        frozenset(pair)
        for pair in (
            ((6, 11), (5, 10)),
            ((5, 6), (6, 5)),
            ((10, 5), (11, 6)),
            ((11, 10), (10, 11)),
        )
    }


def test_the_eighteen_straight_lines_cover_every_railway_link():
    assert len(R.LINES) == 18
    on = Counter()
    for line in R.LINES:
        assert len(set(line)) == len(line)
        for a, b in pairwise(line):
            assert frozenset((a, b)) in R.rail_links(), (a, b)
            on[frozenset((a, b))] += 1
    assert set(on) == R.rail_links()
    for link, n in on.items():
        side = (
            all(p[0] != "C" and p[1] in "ae" and p[2] != "1" for p in link)
            and len({p[0] for p in link}) == 1
            and len({p[1] for p in link}) == 1
        )
        assert n == (2 if side else 1), link
    assert Counter(len(line) for line in R.LINES) == {5: 10, 13: 4, 10: 4}


def test_neighbours_of_sample_posts():
    assert R.neighbours("Sa6") == {"Sb6", "Sa5", "C31", "We6", "Sb5"}
    assert {p for p in R.neighbours("Sa6") if frozenset(("Sa6", p)) in R.rail_links()} == {
        "Sb6",
        "Sa5",
        "C31",
        "We6",
    }
    assert R.neighbours("C11") == {"C12", "C21", "Ne6", "Wa6"}
    assert R.neighbours("Sb1") == {"Sa1", "Sc1", "Sb2"}
    assert len(R.neighbours("Sc4")) == 8


# --- moves -------------------------------------------------------------------------------------


def test_non_engineer_on_a2_uses_three_straight_lines():
    found = dests("Sa2:S:colonel", "Sa2")
    rail = {"Sb2", "Sc2", "Sd2", "Se2", "Sa3", "Sa4", "Sa5", "Sa6", "C31", "C21", "C11"}
    rail |= {f"Ne{r}" for r in range(2, 7)} | {f"We{r}" for r in range(2, 7)}
    assert len(rail) == 21
    assert found == rail | {"Sa1", "Sb3"}
    assert len(dests("Se2:S:colonel", "Se2")) == 23


def test_engineer_on_a2_reaches_every_railway_post():
    found = dests("Sa2:S:engineer", "Sa2")
    rail = {p for p in R.posts() if R.is_railway_post(p)} - {"Sa2"}
    assert len(rail) == 72
    assert found == rail | {"Sa1", "Sb3"}
    assert "Ee4" not in dests("Sa2:S:general", "Sa2")
    assert "Ee4" in found


def test_arc_bypasses_the_corner_station():
    around = {"Sa2", "Sa3", "Sa5", "Sa6", "Sb3", "Sb4", "Sb5"} | {f"We{r}" for r in range(2, 7)}
    assert dests("Sa4:S:major C31:N:major", "Sa4") == around
    assert dests("Sa4:S:major C31:E:major", "Sa4") == around | {"C31"}


def test_middle_line_and_rank_six():
    assert dests("Sc6:S:major C22:E:major", "Sc6") == {
        "C22",
        "C32",
        "Sa6",
        "Sb6",
        "Sd6",
        "Se6",
        "Sb5",
        "Sc5",
        "Sd5",
    }
    assert dests("C22:S:major", "C22") == {
        "C12",
        "C21",
        "C23",
        "C32",
        "Nc6",
        "Sc6",
        "Wc6",
        "Ec6",
    }
    assert dests("Sc6:S:major", "Sc6") == {
        "Sa6",
        "Sb6",
        "Sd6",
        "Se6",
        "C32",
        "C22",
        "C12",
        "Nc6",
        "Sb5",
        "Sc5",
        "Sd5",
    }
    # A slide along the front row stops at the corner: no turn onto the arc or into C31.
    assert dests("Sb6:S:major", "Sb6") == {"Sa6", "Sc6", "Sd6", "Se6", "Sb5"}


def test_slides_stop_at_the_first_piece():
    # An enemy ends a slide (as a target); own and partner pieces end it before them.
    assert dests("Sa2:S:major Sa4:E:major Sd2:S:major", "Sa2") == {
        "Sa1",
        "Sb3",
        "Sa3",
        "Sa4",
        "Sb2",
        "Sc2",
    }
    assert dests("Sa2:S:major Sa3:N:major Sb2:W:major", "Sa2") == {"Sa1", "Sb3", "Sb2"}


def test_engineer_turns_but_is_blocked_by_pieces():
    spec = "Sa2:S:engineer Sb2:S:major Sa3:E:major"
    assert dests(spec, "Sa2") == {"Sa1", "Sb3", "Sa3"}
    # Round the whole board through the centre and an arc, into an enemy at the end.
    found = dests("Sa6:S:engineer Ee2:E:major Ea6:N:major", "Sa6")
    assert "Ee2" in found and "Ee3" in found and "Ea6" not in found
    # With a partner on Ea6 and an enemy on Ee2, East's rank 2 and file a are out of reach.
    assert not found & {"Ea2", "Ea3", "Ea4", "Ea5", "Eb2", "Ec2", "Ed2"}


def test_road_posts_camps_and_hqs_step_once():
    assert dests("Sc3:S:general", "Sc3") == R.neighbours("Sc3")
    assert dests("Sb5:S:engineer", "Sb5") == R.neighbours("Sb5")
    assert dests("Sa1:S:engineer", "Sa1") == {"Sa2", "Sb1"}


def test_pieces_in_any_hq_mines_and_flags_never_move():
    assert dests("Sb1:S:general", "Sb1") == set()
    assert dests("Nd1:S:general", "Nd1") == set()
    assert dests("Sa2:S:landmine", "Sa2") == set()
    assert dests("Sc3:S:flag", "Sc3") == set()
    assert dests("", "C22") == set()


def test_camps_shelter_and_partners_are_never_targets():
    # An enemy in a camp is out of reach of a step, a slide and an Engineer alike.
    assert "Sb3" not in dests("Sa2:S:major Sb3:E:major", "Sa2")
    assert "Nb3" not in dests("Na2:S:engineer Nb3:W:major", "Na2")
    assert "Sc4" not in dests("Sc3:S:major Sc4:E:major", "Sc3")
    # A partner's piece is neither entered nor attacked; its empty camps and HQs are open.
    assert "Sb2" not in dests("Sa2:N:major Sb2:S:major", "Sa2")
    assert {"Sb1", "Sb3"} <= dests("Sb2:N:major", "Sb2")
    # An enemy HQ may be entered or attacked; an enemy on a railway post may be attacked.
    assert "Eb1" in dests("Eb2:S:major Eb1:E:landmine", "Eb2")
    assert "Eb1" in dests("Eb2:S:major", "Eb2")


def test_legal_moves_are_the_seat_to_move_only():
    state = State(pieces("Sa2:S:major Ea2:E:major Na2:N:flag"), turn=E)
    assert legal_moves(state) == {("Ea2", to) for to in destinations(state, "Ea2")}
    state.result = (0, "flag_captured")
    assert legal_moves(state) == set()


def test_move_generation_of_a_full_army_stays_reasonable():
    state = R.initial_state(random.Random(3))
    assert len(state.pieces) == 100
    assert legal_moves(state)
    for seat in range(4):
        layout = {p: k for p, (s, k) in state.pieces.items() if s == seat}
        assert sorted(Counter(layout.values()).items()) == sorted(zip(R.KINDS, R.ARMY, strict=True))
        assert set(layout) == set(R.deployable_posts(seat))
        assert any(p[1:] in ("b1", "d1") and k == "flag" for p, k in layout.items())
        assert all(p[2] in "12" for p, k in layout.items() if k == "landmine")
        assert all(p[2] != "6" for p, k in layout.items() if k == "bomb")


# --- combat ------------------------------------------------------------------------------------

RANKED = R.KINDS[:9]


@pytest.mark.parametrize("other", R.KINDS)
def test_bomb_removes_both_whatever_it_meets(other):
    assert combat("bomb", other) == "both"
    if other not in ("landmine", "flag"):
        assert combat(other, "bomb") == "both"


def test_flag_is_taken_by_anything_and_mine_only_by_an_engineer():
    for kind in RANKED:
        assert combat(kind, "flag") == "attacker"
    assert combat("engineer", "landmine") == "attacker"
    for kind in RANKED[:-1]:
        assert combat(kind, "landmine") == "defender"
    with pytest.raises(ValueError):
        combat("landmine", "major")


def test_higher_rank_wins_and_equal_ranks_both_go():
    for i, a in enumerate(RANKED):
        for j, d in enumerate(RANKED):
            assert combat(a, d) == ("both" if i == j else "attacker" if i < j else "defender")
    assert combat("field_marshal", "general") == "attacker"
    assert combat("engineer", "lieutenant") == "defender"


# --- the course of a game ----------------------------------------------------------------------


def test_a_quiet_move_passes_the_turn_and_counts():
    state = game("Sa2:S:major", quiet=7, ply=3)
    after = apply_move(state, "Sa2", "Sa5")
    assert after.pieces["Sa5"] == (S, "major") and "Sa2" not in after.pieces
    assert (after.turn, after.quiet, after.ply) == (E, 8, 4)
    assert state.pieces["Sa2"] == (S, "major") and state.turn == S  # input untouched
    with pytest.raises(ValueError):
        apply_move(state, "Sa2", "Sb1")  # own flag
    with pytest.raises(ValueError):
        apply_move(state, "Ec1", "Ed1")  # not East's turn


def test_combat_on_the_board_and_the_mine_that_stays():
    state = game("C22:S:colonel C23:E:major", quiet=50)
    after = apply_move(state, "C22", "C23")
    assert after.pieces["C23"] == (S, "colonel") and "C22" not in after.pieces
    assert after.quiet == 0
    state = game("Sa2:S:general Sb2:E:landmine", quiet=50)
    after = apply_move(state, "Sa2", "Sb2")
    assert after.pieces["Sb2"] == (E, "landmine") and "Sa2" not in after.pieces
    assert after.quiet == 0
    after = apply_move(game("Sa2:S:engineer Sb2:E:landmine"), "Sa2", "Sb2")
    assert after.pieces["Sb2"] == (S, "engineer")
    after = apply_move(game("Sa2:S:major Sb2:E:major"), "Sa2", "Sb2")
    assert "Sa2" not in after.pieces and "Sb2" not in after.pieces


def test_flag_capture_removes_the_army_and_the_partner_plays_on():
    state = game("Eb2:S:major Ea4:E:general C22:E:engineer Wa2:W:colonel", quiet=120)
    after = apply_move(state, "Eb2", "Eb1")
    assert after.out == {E}
    assert army(after, E) == set()
    assert after.pieces["Eb1"] == (S, "major")  # it stays, frozen, in the HQ
    assert destinations(after, "Eb1") == set()
    assert after.turn == N and after.quiet == 0 and after.result is None
    assert "Wa2" in after.pieces  # the partner's pieces stay
    after = apply_move(after, "Nc1", "Nc2")
    assert after.turn == W
    after = apply_move(after, "Wa2", "Wa3")
    assert after.turn == S  # East is skipped from now on
    after = apply_move(after, "Sc1", "Sc2")
    assert after.turn == N


def test_a_bomb_that_takes_the_flag_puts_its_owner_out():
    after = apply_move(game("Eb2:S:bomb"), "Eb2", "Eb1")
    assert "Eb1" not in after.pieces and after.out == {E} and army(after, E) == set()


def test_team_wins_when_both_enemies_are_out():
    state = game(
        "Wb2:N:major", turn=N, out={E}, home=HOME.replace("Eb1:E:flag Ec1:E:lieutenant", "")
    )
    after = apply_move(state, "Wb2", "Wb1")
    assert outcome(after) == (0, "flag_captured")
    assert after.out == {E, W} and army(after, W) == set()
    with pytest.raises(ValueError):
        apply_move(after, "Nc1", "Nc2")
    # A team whose other seat is already out still wins.
    home = HOME.replace("Sb1:S:flag Sc1:S:lieutenant", "")
    state = game("Nb2:E:major", turn=E, out={S}, home=home)
    after = apply_move(state, "Nb2", "Nb1")
    assert outcome(after) == (1, "flag_captured")


def test_skips_count_as_plies_and_the_fifth_puts_the_seat_out():
    state = game(quiet=10, skips=[0, 3, 0, 0], turn=E)
    after = apply_pass(state)
    assert (after.skips, after.quiet, after.ply, after.turn) == ([0, 4, 0, 0], 11, 1, N)
    assert after.out == set()
    state = game(quiet=10, skips=[0, 4, 0, 0], turn=E)
    after = apply_pass(state)
    assert after.out == {E} and army(after, E) == set()
    assert (after.skips[E], after.quiet, after.ply, after.turn) == (5, 0, 1, N)
    # The team's last seat out by skips: the other team wins.
    home = HOME.replace("Wb1:W:flag Wc1:W:lieutenant", "")
    after = apply_pass(game(skips=[0, 4, 0, 0], turn=E, out={W}, home=home))
    assert outcome(after) == (0, "timeouts")


def test_surrender_on_and_off_turn():
    state = game(turn=E, quiet=40, ply=9)
    after = apply_surrender(state, E)
    assert after.out == {E} and army(after, E) == set()
    assert (after.turn, after.ply, after.quiet) == (N, 9, 0)
    after = apply_surrender(state, W)
    assert after.out == {W} and after.turn == E and after.ply == 9
    after = apply_surrender(after, E)
    assert outcome(after) == (0, "resignation")
    with pytest.raises(ValueError):
        apply_surrender(apply_surrender(state, W), W)


def test_a_seat_with_no_legal_move_goes_out_when_its_turn_comes():
    # East has only its flag and a mine: after South moves, East is out and North plays.
    home = HOME.replace("Ec1:E:lieutenant", "Ec1:E:landmine")
    state = game("Sa2:S:major", home=home, quiet=30)
    assert legal_moves(game("Sa2:S:major", home=home, turn=E)) == set()
    after = apply_move(state, "Sa2", "Sa3")
    assert after.out == {E} and army(after, E) == set()
    assert after.turn == N and after.quiet == 0 and after.result is None
    # Two in a row: East and North both stuck, West plays next.
    home2 = home.replace("Nc1:N:lieutenant", "Nd1:N:general")  # a piece in an HQ never moves
    after = apply_move(game("Sa2:S:major", home=home2), "Sa2", "Sa3")
    assert after.out == {E, N} and after.turn == W
    # Stuck as the team's last seat: the other team wins at once.
    home3 = home.replace("Wb1:W:flag Wc1:W:lieutenant", "")
    after = apply_move(game("Sa2:S:major", home=home3, out={W}), "Sa2", "Sa3")
    assert outcome(after) == (0, "immobilised")


def test_quiet_count_resets_on_removal_and_draws_at_200():
    state = game("Sa2:S:major Ea3:E:captain", quiet=198)
    after = apply_move(state, "Sa2", "Sa3")
    assert after.quiet == 199 and outcome(after) is None
    drawn = apply_move(after, "Ec1", "Ed1")
    assert drawn.quiet == 200 and outcome(drawn) == (None, "quiet_moves")
    with pytest.raises(ValueError):
        apply_pass(drawn)
    # A removal on the last ply resets the count instead.
    state = game("Sa2:S:major Sa4:E:captain", quiet=199)
    after = apply_move(state, "Sa2", "Sa4")
    assert after.quiet == 0 and outcome(after) is None
    # A pass on the last ply draws too.
    assert outcome(apply_pass(game(quiet=199))) == (None, "quiet_moves")
    # An elimination at the start of the next turn resets it.
    home = HOME.replace("Ec1:E:lieutenant", "Ec1:E:landmine")
    after = apply_move(game("Sa2:S:major", home=home, quiet=199), "Sa2", "Sa3")
    assert after.out == {E} and after.quiet == 0 and outcome(after) is None


def test_an_elimination_on_the_last_quiet_ply_wins_rather_than_draws():
    home = HOME.replace("Wb1:W:flag Wc1:W:lieutenant", "")
    state = game("Eb2:S:major", out={W}, home=home, quiet=199)
    assert outcome(apply_move(state, "Eb2", "Eb1")) == (0, "flag_captured")


def test_random_games_keep_the_invariants_and_end():
    rng = random.Random(20261207)
    for _ in range(8):
        state = R.initial_state(rng, first=rng.randrange(4))
        while outcome(state) is None:
            moves = sorted(legal_moves(state))
            assert moves and state.turn not in state.out
            for seat in range(4):
                flags = [p for p, (s, k) in state.pieces.items() if s == seat and k == "flag"]
                assert len(flags) == (0 if seat in state.out else 1)
            roll = rng.random()
            if roll < 0.002:
                after = apply_surrender(state, rng.choice(sorted(set(range(4)) - state.out)))
            elif roll < 0.008:
                after = apply_pass(state)
            else:
                after = apply_move(state, *rng.choice(moves))
            fewer = len(after.pieces) < len(state.pieces)
            assert len(after.pieces) <= len(state.pieces)
            assert after.quiet == (0 if fewer else state.quiet + 1) or after.result is not None
            state = after
        winner, reason = outcome(state)
        if winner is None:
            assert reason == "quiet_moves" and state.quiet == R.QUIET_LIMIT
        else:
            assert {s for s in range(4) if R.team(s) != winner} <= state.out
