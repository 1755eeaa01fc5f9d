"""Siguo's Hard CPU: worlds that never contradict the deduction notes, a partner that
defends the other Flag of its team and keeps out of its partner's lanes, and mixed
teams in the arena.  (Legal play, layouts and the never-peeks test for Hard are in
tests/test_ai_siguo.py with the other levels.)"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from junqi_core import arena
from junqi_core import pieces as pc
from junqi_core.__main__ import main
from junqi_core.ai.notes import notes
from junqi_core.ai.siguo.hard import HardPlayer, NotedBelief, _draw
from junqi_core.game import PLAY, Game
from junqi_core.siguo.board import SIGUO_BOARD
from junqi_core.views import view
from tests.test_ai_siguo import ARMIES, legal, occupied, siguo

BOARD = SIGUO_BOARD
S, E, N, W = range(4)
KIND_OF_ID = {k.id: k.kind for k in pc.JUNQI_KINDS}


def random_game(visibility: str, seed: int, plies: int) -> Game:
    """A game of random play, attacks preferred, so that fights between seats happen."""
    game = Game(siguo(visibility), seed=seed)
    for s in range(4):
        game.deploy(s)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.phase != PLAY:
            break
        options = legal(game)
        attacks = [a for a in options if BOARD.index[a.split("-")[1]] in occupied(game)]
        game.apply(game.turn, rng.choice(attacks if attacks and rng.random() < 0.6 else options))
    return game


@pytest.mark.parametrize("visibility", ("dark4", "team_open"))
def test_no_sampled_world_gives_a_piece_a_kind_the_notes_rule_out(visibility):
    """The notes list, for every hidden piece, the kinds some assignment that fits every
    public fact and each army's counts gives it; Hard's worlds never make it another."""
    checked = 0
    for seed in range(4):
        game = random_game(visibility, 700 + seed, 40 + 35 * seed)
        if game.phase != PLAY:
            continue
        for me in range(4):
            if game.position.is_out(me):
                continue
            mine = view(game, me)
            listed = {
                name: {KIND_OF_ID[k] for k in piece["kinds"]}
                for army in notes(game.variant, mine, me)["armies"]
                for name, piece in army["pieces"].items()
            }
            belief = NotedBelief(mine, game.position_class.combat, game.variant)
            assert belief.ident, "the notes were read"
            rng = random.Random(seed * 4 + me)
            for _ in range(3):
                world = belief.sample_board(rng)
                for name, cell in mine["board"].items():
                    s = BOARD.index[name]
                    assert world[s] and pc.SEAT_OF[world[s]] == cell["owner"]
                    kind = world[s] & pc.KIND_MASK
                    if cell["kind"] is not None:
                        assert kind == KIND_OF_ID[cell["kind"]], name
                    else:
                        assert kind in listed[name], (name, kind, listed[name])
                        checked += 1
    assert checked > 1000


def test_worlds_keep_each_armys_counts_exact():
    """Each hidden army is drawn over all its 25 pieces, the taken ones too: the kinds
    drawn are its counts exactly, every piece within its mask, and the board's pieces
    are those of the draw."""
    game = random_game("dark4", 711, 90)
    assert game.phase == PLAY
    me = game.turn
    belief = NotedBelief(view(game, me), game.position_class.combat, game.variant)
    full = {k.kind: k.count for k in pc.JUNQI_KINDS}
    drawn = 0
    for seat in range(4):
        army = belief.armies[seat]
        if seat == me or game.position.is_out(seat) or army is None:
            continue
        for n in range(3):
            kinds = _draw(army, random.Random(n))
            assert kinds is not None and set(kinds) == set(army)
            assert Counter(kinds.values()) == Counter(full)
            assert all(army[e] >> k & 1 for e, k in kinds.items())
            drawn += 1
    assert drawn >= 6
    world = belief.sample_board(random.Random(3))
    for seat in range(4):
        if belief.armies[seat] is None:
            continue
        on_board = Counter(p & pc.KIND_MASK for p in world if p and pc.SEAT_OF[p] == seat)
        assert all(n <= full[k] for k, n in on_board.items())


def board_game(pieces: dict, visibility: str = "dark4", turn: int = S) -> Game:
    cls = siguo(visibility).position_class
    board = [0] * BOARD.size
    for name, (kind, seat) in pieces.items():
        board[BOARD.index[name]] = pc.seat_piece(kind, seat)
    return Game.from_position(cls(board, turn=turn))


@pytest.mark.parametrize("visibility", ("dark4", "team_open"))
def test_hard_takes_the_piece_beside_its_partners_flag(visibility):
    # An East Captain has come to Nb2, beside North's Flag on Nb1, and East moves next:
    # South's Colonel on Nc2 can take it; South's Field Marshal could instead take a West
    # Major on C32.  Hard defends its partner's Flag.
    pieces = {k: v for k, v in ARMIES.items() if not k.startswith("N")}
    pieces.update(
        {
            "Nb1": (pc.FLAG, N),
            "Na1": (pc.LANDMINE, N),
            "Nc1": (pc.LANDMINE, N),
            "Ne5": (pc.CAPTAIN, N),
            "Sb1": (pc.FLAG, S),
            "Sa1": (pc.LANDMINE, S),
            "Sc1": (pc.LANDMINE, S),
            "Sb2": (pc.LANDMINE, S),
            "Sc6": (pc.FIELD_MARSHAL, S),
            "Se4": (pc.ENGINEER, S),
            "Nc2": (pc.COLONEL, S),
            "Nb2": (pc.CAPTAIN, E),
            "C32": (pc.MAJOR, W),
        }
    )
    game = board_game(pieces, visibility)
    actions = legal(game)
    assert "Nc2-Nb2" in actions and "Sc6-C32" in actions
    chosen = [
        HardPlayer(siguo(visibility), S, seed).choose(view(game, S), actions) for seed in range(4)
    ]
    assert chosen.count("Nc2-Nb2") == 4, chosen


def test_hard_does_not_step_into_its_partners_lane_for_a_piece_it_can_leave():
    # Open ranks.  A West Lieutenant stands on Na6, at the corner of North's railway,
    # where North's General (on Nb6) will take it at North's turn.  South's Major on Se4
    # could take it too, only by running up the long railway and stopping on Na6, in
    # North's lane, shutting North's pieces behind it in.  Hard leaves it to North.
    pieces = {k: v for k, v in ARMIES.items() if not k.startswith("N")}
    pieces.update(
        {
            "Nd1": (pc.FLAG, N),
            "Nc1": (pc.LANDMINE, N),
            "Ne1": (pc.LANDMINE, N),
            "Nd2": (pc.LANDMINE, N),
            "Nb6": (pc.GENERAL, N),
            "Na5": (pc.COLONEL, N),
            "Na4": (pc.CAPTAIN, N),
            "Na3": (pc.ENGINEER, N),
            "Na6": (pc.LIEUTENANT, W),
            "Sb1": (pc.FLAG, S),
            "Sa1": (pc.LANDMINE, S),
            "Sc1": (pc.LANDMINE, S),
            "Sb2": (pc.LANDMINE, S),
            "Se4": (pc.MAJOR, S),
            "Sc3": (pc.CAPTAIN, S),
        }
    )
    game = board_game(pieces, "open")
    actions = legal(game)
    assert "Se4-Na6" in actions
    chosen = [
        HardPlayer(siguo("open"), S, seed).choose(view(game, S), actions) for seed in range(4)
    ]
    assert "Se4-Na6" not in chosen, chosen


def test_hard_carries_on_alone_when_its_partner_is_out():
    game = random_game("dark4", 705, 30)
    cls = game.position_class
    board = list(game.position.board)
    for s, p in enumerate(board):
        if p and pc.SEAT_OF[p] == N:
            board[s] = 0
    alone = Game.from_position(cls(board, turn=S, out=1 << N))
    actions = legal(alone)
    choice = HardPlayer(alone.variant, S, 3).choose(view(alone, S), actions)
    assert choice in actions


# --- mixed teams in the arena ----------------------------------------------------------------


def test_a_mixed_team_plays_its_first_name_in_seat_s_or_e_and_its_second_beside(monkeypatch):
    assert [arena.seat_name("hard+easy", s) for s in range(4)] == ["hard", "hard", "easy", "easy"]
    assert arena.seat_name("medium", 3) == "medium"
    players = {s: arena.new_player("siguo", "medium+random", s, 1).level for s in range(4)}
    assert players == {0: "medium", 1: "medium", 2: "random", 3: "random"}
    # in a game, the team's think times are its two players' (East: Easy, West: random)
    monkeypatch.setattr(arena, "MAX_PLIES", 24)
    game = arena.play_game("siguo", ("easy+random", "random"), 1, 0, a_seat=1)
    assert game["plies"] == 24 and len(game["cpu_a"]) == len(game["cpu_b"]) == 12


def test_a_mixed_team_is_refused_for_two_seats_and_when_malformed(capsys):
    with pytest.raises(ValueError, match="four seats"):
        arena.new_player("classic", "hard+easy", 0, 1)
    with pytest.raises(ValueError, match="joined by"):
        arena.new_player("siguo", "hard+", 2, 1)
    assert main(["arena", "--variant", "classic", "--a", "hard+easy", "--b", "easy"]) == 2
    assert "four seats" in capsys.readouterr().err
