"""Siguo's CPU players (Easy, Medium, Hard) at every seat: legal layouts and moves in every
visibility mode, choices that depend on the seat's view only, layouts with sense, the
Flag defended, and no attack into a likely Landmine when a safer capture is there."""

from __future__ import annotations

import random

import pytest

from junqi_core import pieces as pc
from junqi_core.ai.siguo.hard import HardPlayer
from junqi_core.deployment import DeploymentError
from junqi_core.game import PLAY, Game
from junqi_core.notation import move_text
from junqi_core.players import make_player as offered_player
from junqi_core.players import variant_levels
from junqi_core.record import layout_from_json
from junqi_core.siguo.board import SIGUO_BOARD
from junqi_core.variants import find_variant
from junqi_core.views import view

BOARD = SIGUO_BOARD
LEVELS = ("easy", "medium", "hard")
VISIBILITY = ("dark4", "team_open", "open")
S, E, N, W = range(4)


def make_player(variant, level: str, seat: int, seed: int):
    """A CPU of `level` for a Siguo seat: Hard is built from its class, as the arena's
    `module:Class` does (the page does not offer it yet)."""
    if level == "hard":
        return HardPlayer(variant, seat, seed)
    return offered_player(variant, level, seat, seed)


def siguo(visibility: str = "dark4"):
    return find_variant("siguo", None, {"visibility": visibility})


def legal(game: Game) -> list[str]:
    return [move_text(game.board_spec, m) for m in game.legal_moves()]


def cpu_game(visibility: str, seed: int, levels: tuple[str, ...]) -> tuple[Game, dict]:
    """A game whose four seats deploy with the given levels (seat s: levels[s % len])."""
    variant = siguo(visibility)
    game = Game(variant, seed=seed)
    players = {s: make_player(variant, levels[s % len(levels)], s, seed * 10 + s) for s in range(4)}
    for s in range(4):
        game.deploy(s, layout_from_json(game, players[s].deploy(view(game, s))))
    return game, players


def test_the_levels_are_siguos_own_and_hard_is_not_offered_yet():
    variant = siguo()
    for level in LEVELS:
        player = make_player(variant, level, 2, 1)
        assert player.level == level
        assert type(player).__module__.startswith("junqi_core.ai.siguo.")
    assert offered_player(variant, "random", 1, 1).level == "random"
    assert variant_levels(variant) == ["random", "easy", "medium"]
    with pytest.raises(ValueError, match="Hard is not offered for Siguo yet"):
        offered_player(variant, "hard", 0, 1)
    with pytest.raises(ValueError, match="Hard is not offered for Siguo yet"):
        offered_player("siguo", "hard", 3, 1)


@pytest.mark.parametrize("visibility", VISIBILITY)
def test_every_seat_deploys_legally_and_plays_only_legal_moves(visibility):
    game, players = cpu_game(visibility, 3, ("easy", "medium", "medium", "easy"))
    assert game.phase == PLAY
    played = 0
    while game.phase == PLAY and played < 120:
        seat = game.turn
        actions = legal(game)
        choice = players[seat].choose(view(game, seat), actions)
        assert choice in actions
        game.apply(seat, choice)
        played += 1
    assert played >= 60  # the game went on long enough to mean something


def replayed(variant, seed: int, layouts: list, actions: list[tuple[int, str]]) -> Game | None:
    """The game with these layouts and actions (None if an action is not legal in it)."""
    game = Game(variant, seed=seed)
    for s in range(4):
        game.deploy(s, layouts[s])
    for seat, action in actions:
        if game.phase != PLAY or seat != game.turn or action not in legal(game):
            return None
        game.apply(seat, action)
    return game


def hidden_twins(variant, seed, game: Game, actions, me: int, rng: random.Random, wanted=2):
    """Games whose view for `me` equals `game`'s but whose hidden pieces stand elsewhere:
    pieces of a seat `me` may not see are exchanged, the same actions replayed."""
    mine = view(game, me)
    hidden = [
        s for s in range(4) if s != me and not (s == me ^ 2 and variant.visibility != "dark4")
    ]
    out = []
    for _ in range(300):
        if len(out) >= wanted:
            break
        layouts = [dict(lay) for lay in game.layouts]
        seat = rng.choice(hidden)
        layout = layouts[seat]
        for _ in range(rng.randint(1, 3)):
            a, b = rng.sample(sorted(layout), 2)
            layout[a], layout[b] = layout[b], layout[a]
        try:
            variant.deployment.validate(seat, layout)
        except DeploymentError:
            continue
        twin = replayed(variant, seed, layouts, actions)
        if twin and twin.position.board != game.position.board and view(twin, me) == mine:
            out.append(twin)
    return out


@pytest.mark.parametrize("visibility", ("dark4", "team_open"))
@pytest.mark.parametrize("level", LEVELS)
def test_the_choice_is_the_same_whatever_the_hidden_pieces_are(level, visibility):
    variant = siguo(visibility)
    rng = random.Random(5)
    checked = 0
    for seed, plies in ((11, 24), (12, 60), (13, 100)):
        game = Game(variant, seed=seed)
        for s in range(4):
            game.deploy(s)
        actions: list[tuple[int, str]] = []
        play = random.Random(seed)
        for _ in range(plies):
            if game.phase != PLAY:
                break
            seat = game.turn
            options = legal(game)
            attacks = [a for a in options if BOARD.index[a.split("-")[1]] in occupied(game)]
            action = play.choice(attacks if attacks and play.random() < 0.4 else options)
            game.apply(seat, action)
            actions.append((seat, action))
        assert game.phase == PLAY
        me = game.turn
        choice = make_player(variant, level, me, 42).choose(view(game, me), legal(game))
        for twin in hidden_twins(variant, seed, game, actions, me, rng):
            assert legal(twin) == legal(game)
            assert make_player(variant, level, me, 42).choose(view(twin, me), legal(twin)) == choice
            checked += 1
    assert checked >= 4


def occupied(game: Game) -> set[int]:
    return {s for s, p in enumerate(game.position.board) if p}


@pytest.mark.parametrize("level", LEVELS)
def test_layouts_put_the_flag_in_a_headquarters_behind_landmines_and_vary(level):
    variant = siguo()
    seen: set[tuple] = set()
    flags: set[str] = set()
    for seed in range(8):
        for seat in range(4):
            game = Game(variant, seed=seed)
            layout = layout_from_json(
                game, make_player(variant, level, seat, seed).deploy(view(game, seat))
            )
            variant.deployment.validate(seat, layout)  # legal (raises otherwise)
            flag = next(s for s, k in layout.items() if k == pc.FLAG)
            assert BOARD.names[flag][1:] in ("b1", "d1")
            beside = [s for s in BOARD.neighbours[flag] if layout.get(s) == pc.LANDMINE]
            assert beside, f"no Landmine beside the Flag on {BOARD.names[flag]}"
            bombs = [BOARD.names[s] for s, k in layout.items() if k == pc.BOMB]
            assert all(int(name[2]) in (3, 4, 5) for name in bombs)
            seen.add(tuple(sorted((BOARD.names[s][1:], k) for s, k in layout.items())))
            flags.add(BOARD.names[flag][1:])
    assert len(seen) == 32  # never the same layout twice: it comes from the seed
    assert flags == {"b1", "d1"}  # either headquarters


def position_game(**pieces) -> Game:
    """A game in play from `post=(kind, seat)` keywords, South to move."""
    cls = siguo().position_class
    board = [0] * BOARD.size
    for name, (kind, seat) in pieces.items():
        board[BOARD.index[name]] = pc.seat_piece(kind, seat)
    return Game.from_position(cls(board, turn=S))


ARMIES = {
    # every seat keeps a Flag and a few pieces; North (South's partner) and West far away
    "Eb1": (pc.FLAG, E),
    "Ea1": (pc.LANDMINE, E),
    "Ec5": (pc.CAPTAIN, E),
    "Nd1": (pc.FLAG, N),
    "Nc3": (pc.MAJOR, N),
    "Nc6": (pc.COLONEL, N),
    "Wb1": (pc.FLAG, W),
    "Wc5": (pc.CAPTAIN, W),
    "Wd6": (pc.LIEUTENANT, W),
}


@pytest.mark.parametrize("level", LEVELS)
def test_an_enemy_piece_beside_the_flag_is_taken(level):
    # East's piece has come to Sb2, next to South's Flag on Sb1.  South's Colonel on Sc2
    # can take it; its Field Marshal could instead attack a West piece on C32.
    game = position_game(
        **ARMIES,
        Sb1=(pc.FLAG, S),
        Sa1=(pc.LANDMINE, S),
        Sc2=(pc.COLONEL, S),
        Sc6=(pc.FIELD_MARSHAL, S),
        Se4=(pc.ENGINEER, S),
        Sb2=(pc.CAPTAIN, E),
        C32=(pc.MAJOR, W),
    )
    actions = legal(game)
    assert "Sc2-Sb2" in actions and "Sc6-C32" in actions
    took = [
        make_player(siguo(), level, S, seed).choose(view(game, S), actions) for seed in range(6)
    ]
    assert took.count("Sc2-Sb2") >= 5, took


@pytest.mark.parametrize("level", LEVELS)
def test_a_general_takes_the_piece_that_cannot_be_a_landmine(level):
    # South's General on East's camp Eb3 may attack Eb2 (an unmoved piece on East's
    # rank 2: maybe a Landmine) or Ec3 (rank 3: never a Landmine).  South's and North's
    # Flags are behind Landmines (else taking what could be an enemy Engineer that may
    # reach an open Flag would be worth the risk), and South has a few more pieces (with
    # two, its General would be worth three times as much and rather not move at all).
    game = position_game(
        **ARMIES,
        Nc1=(pc.LANDMINE, N),
        Ne1=(pc.LANDMINE, N),
        Nd2=(pc.LANDMINE, N),
        Sb1=(pc.FLAG, S),
        Sa1=(pc.LANDMINE, S),
        Sc1=(pc.LANDMINE, S),
        Sb2=(pc.LANDMINE, S),
        Sd3=(pc.MAJOR, S),
        Sa5=(pc.CAPTAIN, S),
        Se5=(pc.LIEUTENANT, S),
        Sd6=(pc.ENGINEER, S),
        Eb3=(pc.GENERAL, S),
        Eb2=(pc.LANDMINE, E),
        Ec3=(pc.LIEUTENANT, E),
    )
    actions = legal(game)
    assert "Eb3-Eb2" in actions and "Eb3-Ec3" in actions
    chosen = [
        make_player(siguo(), level, S, seed).choose(view(game, S), actions) for seed in range(6)
    ]
    assert "Eb3-Eb2" not in chosen, chosen
    if level == "easy":  # Easy takes what it can; Medium may also wait for an attacker
        assert chosen.count("Eb3-Ec3") >= 5, chosen


def flag_at_risk(side: str, visibility: str) -> Game:
    """South to move; an East Engineer sits in the camp `{side}b3`, next to the Landmine
    `{side}b2` in front of the Flag on `{side}b1` (South's own, or its partner North's).
    South's Colonel on `{side}c2` is the only piece that could take `{side}b2` back; a
    West Lieutenant on `{side}c3` is there for it to take instead."""
    owner = S if side == "S" else N
    pieces = {k: v for k, v in ARMIES.items() if not k.startswith("N")}
    pieces.update({"Nd6": (pc.MAJOR, N), "Ne5": (pc.CAPTAIN, N)})
    other = "N" if side == "S" else "S"
    other_owner = N if side == "S" else S
    for name, kind in (("d1", pc.FLAG), ("c1", pc.LANDMINE), ("e1", pc.LANDMINE)):
        pieces[other + name] = (kind, other_owner)
    pieces[other + "d2"] = (pc.LANDMINE, other_owner)
    if side == "N":
        pieces["Se5"] = (pc.MAJOR, S)  # South has another piece to move
    for name, kind in (("b1", pc.FLAG), ("a1", pc.LANDMINE), ("c1", pc.LANDMINE)):
        pieces[side + name] = (kind, owner)
    pieces[side + "b2"] = (pc.LANDMINE, owner)
    pieces[side + "b3"] = (pc.ENGINEER, E)
    pieces[side + "c2"] = (pc.COLONEL, S)
    pieces[side + "c3"] = (pc.LIEUTENANT, W)
    cls = siguo(visibility).position_class
    board = [0] * BOARD.size
    for name, (kind, seat) in pieces.items():
        board[BOARD.index[name]] = pc.seat_piece(kind, seat)
    return Game.from_position(cls(board, turn=S))


@pytest.mark.parametrize("visibility", ("open", "dark4"))
@pytest.mark.parametrize("side", ("S", "N"))
def test_medium_keeps_a_piece_that_can_close_the_way_to_its_or_its_partners_flag(side, visibility):
    # If East's Engineer takes the Landmine in front of the Flag, South must be able to
    # take that post back before East's next turn, or the Flag falls: Medium does not
    # take the Lieutenant with the only piece that could.
    gate = BOARD.index[f"{side}b2"]
    kept = 0
    for seed in range(6):
        game = flag_at_risk(side, visibility)
        actions = legal(game)
        assert f"{side}c2-{side}c3" in actions
        choice = make_player(siguo(visibility), "medium", S, seed).choose(view(game, S), actions)
        game.apply(S, choice)
        assert game.turn == E
        game.apply(E, f"{side}b3-{side}b2")  # the Engineer takes the Landmine
        answers: list[int] = []
        game.position.generate(S, answers.append, answers.append)
        kept += any(game.position.move_code.to[m] == gate for m in answers)
    assert kept >= 5, kept


def test_medium_takes_a_piece_its_partner_would_avenge():
    # Open ranks.  South's Colonel on C32 can take West's Major on C22, where East's
    # General (on C23, moving next) would take the Colonel; but then North's Field
    # Marshal on C12, moving before West, takes the General.  Medium counts its partner's
    # turn between the two enemies', so the trade is worth it; the other move on offer
    # is a quiet step at home.
    pieces = {
        **ARMIES,
        "Sb1": (pc.FLAG, S),
        "Sa1": (pc.LANDMINE, S),
        "Sc1": (pc.LANDMINE, S),
        "Sb2": (pc.LANDMINE, S),
        "Sd3": (pc.MAJOR, S),
        "Sd4": (pc.CAPTAIN, S),
        "C32": (pc.COLONEL, S),
        "C22": (pc.MAJOR, W),
        "C23": (pc.GENERAL, E),
        "C12": (pc.FIELD_MARSHAL, N),
    }
    board = [0] * BOARD.size
    for name, (kind, seat) in pieces.items():
        board[BOARD.index[name]] = pc.seat_piece(kind, seat)
    game = Game.from_position(siguo("open").position_class(board, turn=S))
    actions = ["C32-C22", "Sd4-Sc4"]
    assert set(actions) <= set(legal(game))
    took = [
        make_player(siguo("open"), "medium", S, seed).choose(view(game, S), actions)
        for seed in range(6)
    ]
    assert took.count("C32-C22") >= 5, took


def test_the_belief_reads_an_engineers_turn_and_a_moved_piece_from_the_view():
    from junqi_core.ai.siguo.belief import Belief

    cls = siguo().position_class
    board = [0] * BOARD.size
    for name, (kind, seat) in {
        **ARMIES,
        "Sb1": (pc.FLAG, S),
        "Sc3": (pc.MAJOR, S),
        "Ee5": (pc.ENGINEER, E),
        "Eb4": (pc.COLONEL, E),
    }.items():
        board[BOARD.index[name]] = pc.seat_piece(kind, seat)
    game = Game.from_position(cls(board, turn=E))
    game.apply(E, "Ee5-Ec2")  # down file e, then along rank 2: a turn only an Engineer makes
    for seat in (N, W, S):
        game.apply(seat, legal(game)[0])
    game.apply(E, "Eb4-Ea4")  # one step: any piece but a Landmine or the Flag
    belief = Belief(view(game, S), cls.combat)
    engineer, colonel = belief.at[BOARD.index["Ec2"]], belief.at[BOARD.index["Ea4"]]
    assert engineer.kind == pc.ENGINEER
    assert colonel.kind == 0 and colonel.moved
    chances = belief.chances(colonel)
    assert pc.LANDMINE not in chances and pc.FLAG not in chances
    assert {pc.BOMB, pc.FIELD_MARSHAL, pc.ENGINEER} <= set(chances)  # still any mover
