"""Siguo's board and rules (docs/rules.md, "Siguo"): the board's counts, the slide and
Engineer vectors, combat between four seats, armies that go out, the team's win, skips,
surrender and the quiet draw; push/pop restores every change, eliminations included."""

from __future__ import annotations

from collections import Counter

import pytest
from siguo_games import BOARD, placed, random_game, sq, start

from junqi_core import pieces as pc
from junqi_core.siguo.board import LINES, grid_point
from junqi_core.siguo.deployment import SIGUO_DEPLOYMENT, siguo_deployment
from junqi_core.siguo.rules import SiguoPosition

S, E, N, W = range(4)
MAJOR, ENGINEER = pc.MAJOR, pc.ENGINEER


def dests(position: SiguoPosition, frm: str, seat: int | None = None) -> list[str]:
    code = position.move_code
    found = [BOARD.names[code.to[m]] for m in position.legal_moves(seat) if code.frm[m] == sq(frm)]
    assert len(found) == len(set(found)), "a destination listed twice"
    return sorted(found)


def names(*groups: str) -> list[str]:
    """`names("Sa3-6", "C31")`: posts of one file between two ranks, or single posts."""
    out = []
    for g in groups:
        if "-" in g:
            head, last = g.split("-")
            first = int(head[-1])
            step = 1 if int(last) >= first else -1
            out += [f"{head[:-1]}{r}" for r in range(first, int(last) + step, step)]
        else:
            out.append(g)
    return sorted(out)


# --- the board ------------------------------------------------------------------------------


def test_the_board_has_its_posts_and_links():
    kinds = Counter(
        "hq"
        if any(s in hq for hq in BOARD.hqs)
        else "camp"
        if s in BOARD.camps
        else "rail"
        if BOARD.on_rail[s]
        else "road"
        for s in range(BOARD.size)
    )
    assert BOARD.size == 129
    assert kinds == {"rail": 73, "camp": 20, "hq": 8, "road": 28}
    assert len(BOARD.roads) + len(BOARD.rails) == 288
    assert len(BOARD.rails) == 92
    degrees = [len(n) for n in BOARD.neighbours]
    assert (max(degrees), min(degrees)) == (8, 2)
    assert sum(len(DEPLOYABLE) for DEPLOYABLE in map(SIGUO_DEPLOYMENT.squares, range(4))) == 100
    assert len(LINES) == 18
    # every post has its own point on the drawing grid; centre posts two units apart
    assert len({grid_point(n) for n in BOARD.names}) == 129
    assert grid_point("C11") == (6, 6) and grid_point("C33") == (10, 10)


def test_neighbours_as_the_rules_list_them():
    def around(name):
        return sorted(BOARD.names[t] for t in BOARD.neighbours[sq(name)])

    assert around("Sa6") == ["C31", "Sa5", "Sb5", "Sb6", "We6"]
    assert around("C11") == ["C12", "C21", "Ne6", "Wa6"]
    assert around("Sb1") == ["Sa1", "Sb2", "Sc1"]
    assert len(around("Sc4")) == 8
    # files b and d of the front row have no link forward; rank 1 is never railway
    assert around("Sb6") == ["Sa6", "Sb5", "Sc6"]
    assert (sq("Sa1"), sq("Sa2")) in BOARD.roads


# --- moves ----------------------------------------------------------------------------------


def test_a_piece_slides_along_one_straight_line_and_round_the_arc():
    alone = placed(Sa2=(MAJOR, S))
    assert dests(alone, "Sa2") == names(
        "Sb2", "Sc2", "Sd2", "Se2", "Sa3-6", "C31", "C21", "C11", "Ne6-2", "We6-2", "Sa1", "Sb3"
    )
    assert len(dests(placed(Se2=(MAJOR, S)), "Se2")) == 23
    assert "Ee4" not in dests(alone, "Sa2")  # that would need a turn


def test_an_engineer_turns_anywhere_on_the_railways():
    found = dests(placed(Sa2=(ENGINEER, S)), "Sa2")
    assert len(found) == 74
    assert "Ee4" in found
    rail_posts = {BOARD.names[s] for s in range(BOARD.size) if BOARD.on_rail[s]}
    assert set(found) == (rail_posts - {"Sa2"}) | {"Sa1", "Sb3"}


def test_the_arc_passes_by_the_centre_corner():
    with_partner = placed(Sa4=(MAJOR, S), C31=(MAJOR, N))
    assert dests(with_partner, "Sa4") == names("Sa2", "Sa3", "Sa5", "Sa6", "Sb3", "Sb4", "Sb5",
                                               "We2-6")  # fmt: skip
    with_enemy = placed(Sa4=(MAJOR, S), C31=(MAJOR, E))
    assert dests(with_enemy, "Sa4") == sorted([*dests(with_partner, "Sa4"), "C31"])


def test_centre_and_front_lines():
    assert dests(placed(Sc6=(MAJOR, S), C22=(MAJOR, W)), "Sc6") == names(
        "C22", "C32", "Sa6", "Sb6", "Sd6", "Se6", "Sb5", "Sc5", "Sd5"
    )
    assert dests(placed(C22=(MAJOR, S)), "C22") == names(
        "C12", "C21", "C23", "C32", "Nc6", "Sc6", "Wc6", "Ec6"
    )
    assert dests(placed(Sc6=(MAJOR, S)), "Sc6") == names(
        "Sa6", "Sb6", "Sd6", "Se6", "C32", "C22", "C12", "Nc6", "Sb5", "Sc5", "Sd5"
    )
    assert dests(placed(Sb6=(MAJOR, S)), "Sb6") == names("Sa6", "Sc6", "Sd6", "Se6", "Sb5")


def test_partners_are_never_attacked_and_camps_shelter_every_army():
    position = placed(Sa5=(MAJOR, S), Sa6=(pc.CAPTAIN, N), Sb5=(pc.CAPTAIN, E), Sa4=(pc.CAPTAIN, N))
    assert dests(position, "Sa5") == []  # partners on the rail, an enemy in a camp
    position.board[sq("Sa4")] = pc.seat_piece(pc.CAPTAIN, W)
    assert dests(position, "Sa5") == ["Sa4"]  # an enemy outside a camp is attacked


def test_headquarters_pieces_and_mines_never_move_and_seats_move_only_their_own():
    position = placed(Sb1=(MAJOR, S), Sa1=(pc.LANDMINE, S), Sc1=(MAJOR, N), Nb1=(MAJOR, E))
    assert dests(position, "Sb1") == [] and dests(position, "Sa1") == []
    assert dests(position, "Sc1", S) == []  # a partner's piece is not ours to move
    assert dests(position, "Sc1", N) == ["Sc2", "Sd1"]
    assert dests(position, "Nb1", E) == []  # an enemy HQ freezes the piece in it too


# --- combat and going out ---------------------------------------------------------------------


def push_named(position: SiguoPosition, frm: str, to: str) -> None:
    move = position.move_code.move(sq(frm), sq(to))
    assert move in position.legal_moves()
    position.push(move)


def test_a_mine_stays_when_it_removes_an_attacker_unless_an_engineer_comes():
    position = placed(Ea3=(MAJOR, S), Ea2=(pc.LANDMINE, E), Ec3=(pc.CAPTAIN, E), Wa3=(MAJOR, W))
    push_named(position, "Ea3", "Ea2")
    assert position.board[sq("Ea2")] == pc.seat_piece(pc.LANDMINE, E)
    assert position.board[sq("Ea3")] == 0 and position.quiet == 0
    cleared = placed(Ea3=(ENGINEER, S), Ea2=(pc.LANDMINE, E), Ec3=(pc.CAPTAIN, E), Wa3=(MAJOR, W))
    push_named(cleared, "Ea3", "Ea2")
    assert cleared.board[sq("Ea2")] == pc.seat_piece(ENGINEER, S)


def test_taking_a_flag_puts_its_army_out_and_the_partner_plays_on():
    position = placed(
        Eb2=(MAJOR, S), Eb1=(pc.FLAG, E), Ea2=(pc.CAPTAIN, E), Wa3=(MAJOR, W), Nc3=(MAJOR, N)
    )
    before = list(position.board)
    push_named(position, "Eb2", "Eb1")
    assert position.is_out(E)
    assert position.board[sq("Ea2")] == 0  # the whole army leaves at once
    assert position.board[sq("Eb1")] == pc.seat_piece(MAJOR, S)  # frozen in the HQ now
    assert position.turn == N  # East is skipped
    assert position.eliminated_by_last_push() == [(E, "flag_captured")]
    assert position.quiet == 0 and position.decided is None
    push_named(position, "Nc3", "Nc2")
    assert position.turn == W
    position.pop()
    position.pop()
    assert position.board == before and position.out == 0 and position.turn == S


def test_a_team_wins_when_both_enemy_seats_are_out():
    position = placed(Eb2=(MAJOR, S), Eb1=(pc.FLAG, E), Wc3=(MAJOR, N))
    position.out = 1 << W
    push_named(position, "Eb2", "Eb1")
    assert position.decided == (0, "flag_captured")
    assert position.outcome() == (0, "flag_captured")


def test_a_seat_with_no_legal_move_goes_out_at_the_start_of_its_turn():
    # East has only a mine and its flag; North has a piece and moves next
    position = placed(
        Sc3=(MAJOR, S), Eb1=(pc.FLAG, E), Ea1=(pc.LANDMINE, E), Nc3=(MAJOR, N), Wc3=(MAJOR, W)
    )
    push_named(position, "Sc3", "Sc2")
    assert position.is_out(E) and position.turn == N
    assert position.eliminated_by_last_push() == [(E, "no_legal_move")]
    assert position.board[sq("Eb1")] == 0
    position.pop()
    assert not position.is_out(E) and position.board[sq("Eb1")]


def test_settle_takes_out_a_first_seat_that_cannot_move():
    position = placed(turn=E, Sc3=(MAJOR, S), Eb1=(pc.FLAG, E), Nc3=(MAJOR, N), Wc3=(MAJOR, W))
    assert position.settle() == [(E, "no_legal_move")]
    assert position.turn == N


def test_the_fifth_skip_puts_a_seat_out_and_skips_count_as_quiet_plies():
    position = placed(Sc3=(MAJOR, S), Ec3=(MAJOR, E), Nc3=(MAJOR, N), Wc3=(MAJOR, W))
    for _ in range(4):
        for _seat in range(4):
            position.push(position.move_code.PASS)
    assert position.skips == [4, 4, 4, 4] and position.quiet == 16 and position.ply == 16
    position.push(position.move_code.PASS)  # South's fifth
    assert position.is_out(S) and position.quiet == 0 and position.turn == E
    assert position.eliminated_by_last_push() == [(S, "skip_limit")]
    position.pop()
    assert position.skips[S] == 4 and not position.is_out(S)


def test_surrender_at_any_time_and_the_turn_passes_only_if_it_was_ones_own():
    position = placed(Sc3=(MAJOR, S), Ec3=(MAJOR, E), Nc3=(MAJOR, N), Wc3=(MAJOR, W))
    position.push(position.surrender_move(N))  # not North's turn: South still moves
    assert position.is_out(N) and position.turn == S and position.ply == 0
    position.push(position.surrender_move(S))  # South's own turn: on to East
    assert position.decided == (1, "resignation")
    position.pop()
    position.pop()
    assert position.out == 0 and position.board[sq("Nc3")]


def test_quiet_draw_after_two_hundred_plies_without_a_removal():
    position = placed(Sc3=(MAJOR, S), Ec3=(MAJOR, E), Nc3=(MAJOR, N), Wc3=(MAJOR, W))
    position.quiet = 199
    assert position.outcome() is None
    push_named(position, "Sc3", "Sc2")
    assert position.outcome() == (None, "quiet_moves")


def test_turn_order_either_way():
    clockwise = type("Clockwise", (SiguoPosition,), {"__slots__": (), "turn_step": 3})
    position = placed(clockwise, Sc3=(MAJOR, S), Ec3=(MAJOR, E), Nc3=(MAJOR, N), Wc3=(MAJOR, W))
    push_named(position, "Sc3", "Sc2")
    assert position.turn == W


# --- deployment ------------------------------------------------------------------------------


def test_layouts_follow_siguo_rules():
    layout = SIGUO_DEPLOYMENT.random_layout(E, __import__("random").Random(3))
    SIGUO_DEPLOYMENT.validate(E, layout)
    flag = next(s for s, k in layout.items() if k == pc.FLAG)
    assert BOARD.names[flag] in ("Eb1", "Ed1")
    mined = dict(layout)
    other_hq = sq("Ed1") if BOARD.names[flag] == "Eb1" else sq("Eb1")
    mine = next(s for s, k in layout.items() if k == pc.LANDMINE)
    mined[other_hq], mined[mine] = pc.LANDMINE, layout[other_hq]
    SIGUO_DEPLOYMENT.validate(E, mined)  # a mine may stand in the HQ without the flag
    with pytest.raises(ValueError, match="headquarters"):
        siguo_deployment(mine_in_hq=False).validate(E, mined)


# --- push and pop over seeded games ----------------------------------------------------------


def state(position: SiguoPosition):
    return (list(position.board), position.turn, position.ply, position.quiet, position.out,
            list(position.skips), position.decided)  # fmt: skip


def test_push_then_pop_restores_every_change():
    pushed = Counter()
    for seed in range(6):
        for position, move in random_game(seed, 400, passes=0.05):
            before = state(position)
            position.push(move)
            after = state(position)
            gone = position.eliminated_by_last_push()
            position.pop()
            assert state(position) == before, (seed, position.ply)
            position.push(move)
            assert state(position) == after, (seed, position.ply)
            position.pop()  # (the game pushes it again)
            pushed["plies"] += 1
            pushed["eliminations"] += len(gone)
    assert pushed["plies"] > 600 and pushed["eliminations"] >= 6


def test_seeded_random_games_end_with_a_team_or_a_draw():
    endings = Counter()
    for seed in range(12):
        position = start(seed)
        result = position.playout(__import__("random").Random(seed), max_plies=5000)
        assert result is not None
        endings[result.reason] += 1
        if result.winner is not None:
            assert position.team_out(result.winner ^ 1)
            assert not position.team_out(result.winner)
    assert sum(endings.values()) == 12


def test_the_position_text_names_every_pieces_seat_and_round_trips():
    from junqi_core.notation import NotationError, parse_position, position_text

    position = start(8)
    for move in position.legal_moves()[:3]:
        position.push(move)
    position.push(position.surrender_move(3))
    text = position_text(position)
    again = parse_position(text)
    assert position_text(again) == text
    assert again.board == position.board and again.out == position.out == 1 << 3
    assert again.turn == position.turn and again.skips == position.skips
    for bad in (
        text.replace(" - ", " Q ").replace(" W ", " Q "),  # no seat Q
        text.replace("/", "/1", 1),  # an area one post too long
        text.rsplit(" ", 1)[0] + " 0,0,0",  # three skip counts
        text.replace("sM", "xM", 1),  # no seat x
    ):
        with pytest.raises(NotationError):
            parse_position(bad)


def test_the_four_corner_railways_are_drawn_round_the_corner_posts():
    from junqi_core.variants import describe

    curves = describe("siguo")["board"]["curves"]
    assert len(curves) == 4
    for a, b, x, y in curves:
        assert (min(sq(a), sq(b)), max(sq(a), sq(b))) in BOARD.rails
        corner = next(n for n in BOARD.names if n[0] == "C" and BOARD.coords[sq(n)] == (x, y))
        assert {a, b} <= {BOARD.names[t] for t in BOARD.neighbours[sq(corner)]}
    assert describe("classic")["board"]["curves"] == []
