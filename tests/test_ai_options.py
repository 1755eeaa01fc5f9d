"""The CPU under every rule option (`variants.PRESETS`): legal play and legal layouts,
choices that never depend on hidden pieces, sampled worlds that replay to the player's
view, and the reasoning each option changes (a flag shown when its Marshal falls, a flag
only an Engineer takes once its mines are gone, the 60-post Classic board)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from test_ai_support import game_with, hidden_twins, layout_with, play, replay

from junqi_core import pieces as pc
from junqi_core.ai.belief import Belief, BlindPool, Tracker, own_position
from junqi_core.ai.evaluate import Weights
from junqi_core.ai.player import CpuPlayer
from junqi_core.ai.search import THREAT
from junqi_core.ai.strategy import strategy_for
from junqi_core.game import PLAY, Game
from junqi_core.notation import move_text, parse_move
from junqi_core.players import LEVELS
from junqi_core.record import layout_from_json
from junqi_core.selfplay import random_game
from junqi_core.variants import PRESETS, VARIANT_IDS, Variant, find_variant
from junqi_core.views import view

# the two-seat levels under every preset (Siguo's: tests/test_ai_siguo.py)
PRESET_CASES = [(v, p.id) for v in VARIANT_IDS if find_variant(v).seats == 2 for p in PRESETS[v]]
CPU_LEVELS = ("easy", "medium", "hard")
HARD_NODES = 25_000  # Hard's own search, on a budget that keeps these tests short


def cpu(variant: Variant, level: str, seat: int, seed: int):
    """A player with the wall-clock cap off, so that its choice depends on nothing else."""
    player = LEVELS[level](variant, seat, seed, time_cap=None)
    if level == "hard":
        player.settings = replace(player.settings, nodes=HARD_NODES, worlds=4, min_worlds=1)
    return player


def legal(game: Game) -> list[str]:
    return [move_text(game.board_spec, m) for m in game.legal_moves()]


def play_out(game: Game, players: dict, plies: int) -> None:
    """The CPUs deploy (checked by the game) and play (each action checked) to the end
    or `plies`."""
    if game.phase != PLAY:
        for seat in (0, 1):
            game.deploy(seat, layout_from_json(game, players[seat].deploy(view(game, seat))))
    while game.phase == PLAY and game.position.ply < plies:
        seat = game.turn
        actions = legal(game)
        choice = players[seat].choose(view(game, seat), actions)
        assert choice in actions
        game.apply(seat, choice)


@pytest.mark.parametrize(("variant_id", "preset"), PRESET_CASES)
def test_every_level_deploys_and_plays_legally_under_every_preset(variant_id, preset):
    variant = find_variant(variant_id, preset)
    game = Game(variant, seed=7)
    play_out(game, {0: cpu(variant, "easy", 0, 1), 1: cpu(variant, "medium", 1, 2)}, 120)
    assert game.phase != PLAY or game.position.ply == 120
    game = Game(variant, seed=8)
    play_out(game, {0: cpu(variant, "medium", 0, 3), 1: cpu(variant, "hard", 1, 4)}, 12)
    assert game.phase != PLAY or game.position.ply == 12


@pytest.mark.parametrize(("variant_id", "preset"), PRESET_CASES)
def test_choices_do_not_change_when_hidden_pieces_are_permuted_under_every_preset(
    variant_id, preset
):
    variant = find_variant(variant_id, preset)
    rng = random.Random(5)
    checked = 0
    for i, plies in enumerate((12, 45)):
        game = random_game(variant, 40 + i, plies)  # type: ignore[arg-type]
        if game.phase != PLAY:
            continue
        me = game.turn
        actions = legal(game)
        twins = hidden_twins(game, me, rng, wanted=1)
        for level in CPU_LEVELS:
            choice = cpu(variant, level, me, 42).choose(view(game, me), actions)
            assert choice in actions
            for twin in twins:
                assert view(twin, me) == view(game, me)
                assert twin.position.board != game.position.board
                assert cpu(variant, level, me, 42).choose(view(twin, me), actions) == choice
                checked += 1
    assert checked


@pytest.mark.parametrize(("variant_id", "preset"), [c for c in PRESET_CASES if c[0] != "blind"])
def test_sampled_worlds_replay_to_the_same_view_under_every_preset(variant_id, preset):
    """Every deduction (combat outcomes under the preset's combat table, who occupies,
    whether a flag fights with the piece behind it, a shown flag) keeps the truth
    possible: a sampled world replays every action to the player's very view."""
    variant = find_variant(variant_id, preset)
    rng = random.Random(9)
    replayed = 0
    for seed, plies in ((1, 60), (2, 140)):
        game = random_game(variant, seed, plies)  # type: ignore[arg-type]
        if game.phase != PLAY:
            continue
        for me in (0, 1):
            mine = view(game, me)
            tracker = Tracker(variant, me)
            tracker.update(mine)
            belief = Belief(tracker, strategy_for(variant).prior(1 - me))
            assert not belief.relaxed
            ours = {s: tracker.own_kind[s] for s in tracker.tables.start_squares[me]}
            for _ in range(4):
                world = belief.sample(rng)
                twin = replay(game, (ours, world) if me == 0 else (world, ours))
                assert twin is not None, "a sampled world makes a played action illegal"
                assert view(twin, me) == mine
                replayed += 1
    assert replayed


# --- Classic: the flag shown when the Field Marshal falls, the board without stations ------


def marshal_falls(variant: Variant, runner: str = "field_marshal") -> Game:
    """Blue's Field Marshal (or `runner`) slides down the a-file railway onto Red's Bomb
    on a5."""
    game = game_with(
        variant,
        (
            layout_with(variant, 0, {"a6": "lieutenant", "a5": "bomb"}),
            layout_with(variant, 1, {"a7": runner, "b12": "flag"}),
        ),
    )
    play(game, ["a6-b5", "a7-a5"])
    assert view(game, 0)["history"][-1]["combat"]["result"] == "both"
    return game


def test_a_shown_flag_is_known_for_certain():
    variant = find_variant("classic", "chinese")  # flag shown, and no front stations
    game = marshal_falls(variant)
    mine = view(game, 0)
    assert mine["board"]["b12"] == {"owner": 1, "kind": "flag", "down": False}
    b12 = variant.board.index["b12"]
    tracker = Tracker(variant, 0)
    tracker.update(mine)
    domains = tracker.domains()
    assert domains[b12] == 1 << pc.FLAG
    assert not any(m >> pc.FLAG & 1 for e, m in domains.items() if e != b12)
    belief = Belief(tracker)
    rng = random.Random(1)
    for _ in range(50):
        world = belief.sample(rng)
        assert world[b12] == pc.FLAG
        assert sum(k == pc.FLAG for k in world.values()) == 1
    assert own_position(variant, mine).board[b12] == pc.piece(pc.FLAG, 1)
    odds = cpu(variant, "hard", 0, 1)._odds(belief, rng)
    assert b12 not in CpuPlayer._marginals(odds, 1)  # nothing to guess
    # the piece whose fall showed the flag was the Marshal
    assert domains[variant.board.index["a7"]] == 1 << pc.FIELD_MARSHAL

    # under the standard rules nothing is shown: either headquarters may hold the flag
    standard = marshal_falls(find_variant("classic"))
    assert view(standard, 0)["board"]["b12"]["kind"] is None
    tracker = Tracker(standard.variant, 0)
    tracker.update(view(standard, 0))
    holders = {e for e, m in tracker.domains().items() if m >> pc.FLAG & 1}
    assert holders == {standard.board_spec.index[s] for s in ("b12", "d12")}


def test_a_removed_piece_whose_fall_showed_no_flag_was_no_marshal():
    """Under "flag shown once the Marshal falls", a Lieutenant taken down by our Bomb
    shows nothing: no sampled world makes it the Marshal (the world would have shown
    the flag)."""
    variant = find_variant("classic", "chinese")
    game = marshal_falls(variant, runner="lieutenant")
    mine = view(game, 0)
    assert mine["flags_shown"] == [False, False]
    tracker = Tracker(variant, 0)
    tracker.update(mine)
    a7 = variant.board.index["a7"]
    assert not tracker.domains()[a7] >> pc.FIELD_MARSHAL & 1
    belief = Belief(tracker, strategy_for(variant).prior(1))
    rng = random.Random(2)
    assert all(belief.sample(rng)[a7] != pc.FIELD_MARSHAL for _ in range(50))


def test_classic_without_stations_deploys_validly_and_plays_on_the_60_post_board():
    for preset in ("chinese", "open"):  # no stations; Bombs allowed on the front rank
        variant = find_variant("classic", preset)
        rules = variant.deployment
        assert rules is not None
        front_bombs = 0
        for seed in range(12):
            for seat in (0, 1):
                for level in CPU_LEVELS:
                    named = cpu(variant, level, seat, seed).deploy({})  # type: ignore[arg-type]
                    layout = {variant.board.square(n): k for n, k in named.items()}
                    kinds = strategy_for(variant).tables.kind_by_id
                    layout = {s: kinds[k] for s, k in layout.items()}
                    rules.validate(seat, layout)
                    front = [s for s in layout if strategy_for(variant).tables.rank[seat][s] == 6]
                    front_bombs += sum(layout[s] == pc.BOMB for s in front)
        if preset == "open":
            assert front_bombs  # the option is used, and the layouts stay legal
    variant = find_variant("classic", "chinese")
    assert variant.board.size == 60 and strategy_for(variant).tables.board is variant.board
    game = Game(variant, seed=3)
    play_out(game, {0: cpu(variant, "hard", 0, 5), 1: cpu(variant, "medium", 1, 6)}, 24)
    assert game.position.ply >= 10


# --- Blind: only an Engineer takes the flag, once its three mines are gone ------------------


def flag_beside(variant: Variant, attacker: str, mines: str) -> Game:
    """Red's flag lies face up on d4 with a Blue `attacker` on e4, Blue to be taken on
    a10 by Red's Major; Red's three mines face down (`mines == "down"`) or all lost."""
    cls = variant.position_class
    board = [0] * cls.spec.size
    placed = {
        "d4": pc.piece(pc.FLAG, 0),
        "a9": pc.piece(pc.MAJOR, 0),
        "e4": pc.piece(strategy_for(variant).tables.kind_by_id[attacker], 1),
        "a10": pc.piece(pc.LIEUTENANT, 1),
        "b12": pc.piece(pc.FLAG, 1),
    }
    if mines == "down":
        for name in ("a1", "c1", "e1"):
            placed[name] = pc.piece(pc.LANDMINE, 0, face_down=True)
    for name, p in placed.items():
        board[cls.spec.index[name]] = p
    game = Game.from_position(cls(board, turn=0, swap=0))
    if mines == "lost":
        game.removed[0] = [pc.piece(pc.LANDMINE, 0)] * 3
    return game


GUARDED_CASES = [
    # (preset, Blue's piece beside the flag, Red's mines, whether it threatens the flag)
    ("standard", "field_marshal", "down", True),
    ("engineer_flag", "field_marshal", "down", False),
    ("engineer_flag", "field_marshal", "lost", False),
    ("engineer_flag", "engineer", "down", False),
    ("engineer_flag", "engineer", "lost", True),
]


@pytest.mark.parametrize(("preset", "attacker", "mines", "threat"), GUARDED_CASES)
def test_under_engineer_after_mines_the_cpu_fears_only_captures_that_can_be_made(
    preset, attacker, mines, threat
):
    variant = find_variant("blind", preset)
    game = flag_beside(variant, attacker, mines)
    e4_d4 = parse_move(variant.board, "e4-d4")
    assert (e4_d4 in game.position.legal_moves(1)) is threat  # what the rules allow
    mine = view(game, 0)
    pos = own_position(variant, mine)  # what Red knows: face-down pieces are placeholders
    assert (e4_d4 in pos.legal_moves(1)) is threat
    strategy = strategy_for(variant)
    ws = (Weights(), Weights())
    pst, values, _, _ = strategy.public_tables(pos, BlindPool(variant, mine), ws, {})
    searcher = strategy.searcher(pst, values=values)
    searcher.find_flags(pos)
    assert searcher.flag_threat(pos, pos.board, 0) is threat
    actions = legal(game)
    moves = [parse_move(variant.board, a) for a in actions]
    for level in ("easy", "medium"):
        player = cpu(variant, level, 0, 1)
        values_of = player._values(mine, moves, random.Random(1), None)
        assert (max(values_of) < -THREAT / 2) is threat, level


def test_the_cpus_blind_position_knows_when_a_colours_mines_are_gone():
    """Its position holds face-down pieces as placeholders, yet it must know, as the true
    position does, whether a flag may be taken yet: it counts the mines still face down
    from the public pool."""
    variant = find_variant("blind", "engineer_flag")
    checked = set()
    for seed in range(6):
        game = Game(variant, seed=seed)
        rng = random.Random(seed)
        while game.phase == PLAY and game.position.ply < 400:
            mine = view(game, game.turn)
            pos = own_position(variant, mine)
            for colour in (0, 1):
                bits = pc.colour_bits(colour)
                gone = not game.position.mines_left(bits)  # type: ignore[attr-defined]
                assert pos.mines_left(bits) is not gone  # type: ignore[attr-defined]
                checked.add(gone)
            # random play, but an Engineer or a Bomb that can take a mine does
            moves = game.legal_moves()
            board = game.position.board
            code = game.position.move_code
            clear = [
                m
                for m in moves
                if board[code.to[m]] & 31 == pc.LANDMINE
                and board[code.frm[m]] & 31 in (pc.ENGINEER, pc.BOMB)
                and not code.is_flip(m)
            ]
            move = rng.choice(clear or moves)
            game.apply(game.turn, move_text(variant.board, move))
    assert checked == {False, True}
