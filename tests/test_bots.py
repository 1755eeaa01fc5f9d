"""The gauntlet bots: made by name but kept out of the page's levels, independent of the
CPU levels' code, legal in every variant, never peeking, and clearly better than random."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from helpers import make_game
from test_ai_support import hidden_twins

from junqi_core import arena, bridge
from junqi_core import pieces as pc
from junqi_core.deployment import DEPLOYMENTS
from junqi_core.game import PLAY, Game
from junqi_core.notation import move_text
from junqi_core.players import LEVELS, bots, make_player
from junqi_core.record import layout_from_json
from junqi_core.selfplay import random_game
from junqi_core.topology import BOARDS
from junqi_core.views import view

VARIANTS = ("classic", "blind", "gunjin")
BOTS = tuple(bots())


def legal(game: Game) -> list[str]:
    return [move_text(game.board_spec, m) for m in game.legal_moves()]


def test_bots_are_made_by_name_but_not_offered_in_the_page():
    assert BOTS == ("bot_greedy", "bot_rusher", "bot_turtle", "bot_heuristic", "bot_reply")
    for name in BOTS:
        assert name not in LEVELS
        player = make_player("classic", name, 1, 7)
        assert isinstance(player, bots()[name]) and player.level == name
    reply = json.loads(bridge.handle(json.dumps({"op": "version"})))
    assert reply["levels"] == ["random", "easy", "medium", "hard"]
    with pytest.raises(ValueError, match="bot_greedy"):
        make_player("classic", "grandmaster", 0)


def test_the_bots_never_import_the_levels_code():
    code = (
        "import sys, junqi_core.bots; "
        "print(sorted(m for m in sys.modules if m.startswith('junqi_core.ai')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", BOTS)
def test_each_bot_plays_a_game_against_another_bot_to_the_end(name, variant):
    """`play_game` applies every choice with `Game.apply`, which refuses illegal actions."""
    other = BOTS[(BOTS.index(name) + 1) % len(BOTS)]
    result = arena.play_game(variant, (name, other), seed=3, index=BOTS.index(name))
    assert result["reason"] not in ("unfinished", "resignation", "timeouts")
    # (their speed is a benchmark figure, not a test: bench/gauntlet.py prints each bot's p95)


PLIES = (8, 30, 70, 120, 180)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", BOTS)
def test_the_choice_does_not_change_when_hidden_pieces_are_permuted(name, variant):
    rng = random.Random(11)
    checked = 0
    for i, plies in enumerate(PLIES):
        game = random_game(variant, 200 + i, plies)
        if game.phase != PLAY:
            continue
        me = game.turn
        actions = legal(game)
        choice = make_player(variant, name, me, 42).choose(view(game, me), actions)
        assert choice in actions
        for twin in hidden_twins(game, me, rng, wanted=2):
            assert view(twin, me) == view(game, me)  # the same view ...
            assert twin.position.board != game.position.board  # ... of other hidden pieces
            assert legal(twin) == actions
            assert make_player(variant, name, me, 42).choose(view(twin, me), actions) == choice
            checked += 1
    assert checked >= 4


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", BOTS)
def test_a_bot_that_followed_the_game_chooses_as_a_fresh_one(name, variant):
    """A bot keeps its record of enemy pieces from one move to the next; what it
    chooses must not depend on that (a pure function of seed and view)."""
    game = Game(variant, seed=4)
    players = {s: make_player(variant, name, s, 9) for s in (0, 1)}
    if game.phase != PLAY:
        for s in (0, 1):
            game.deploy(s, layout_from_json(game, players[s].deploy(view(game, s))))
    rng = random.Random(5)
    while game.phase == PLAY and game.position.ply < 150:
        seat = game.turn
        actions = legal(game)
        if seat == 1 and rng.random() < 0.5:
            action = rng.choice(actions)  # seat 1 is half random, for more combats
        else:
            action = players[seat].choose(view(game, seat), actions)
        if game.position.ply % 25 == 0:
            fresh = make_player(variant, name, seat, 9).choose(view(game, seat), actions)
            assert fresh == players[seat].choose(view(game, seat), actions)
        game.apply(seat, action)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", BOTS)
def test_bots_choose_in_a_position_set_up_by_hand(name, variant):
    """No history to follow: the bot reads the board alone."""
    pieces = {
        "classic": "Fb1 Lc1 Ma3 fb12 le12 ga9",
        "blind": "Fb1 Lc1 Ma3 fb12 le12 ga9 ?Xc5 ?nd7",
        "gunjin": "Fc2 Ehq1 Aa3 fc7 ehq8 ua6",
    }[variant]
    game = make_game(variant, pieces, swap=0)
    actions = legal(game)
    assert make_player(variant, name, 0, 1).choose(view(game, 0), actions) in actions


def test_blind_bots_turn_a_piece_at_the_first_move():
    game = Game("blind", seed=8)
    for name in BOTS:
        choice = make_player("blind", name, 0, 3).choose(view(game, 0), legal(game))
        assert choice.startswith("flip:")


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_bot_layouts_are_legal_varied_and_in_style(variant):
    rules = DEPLOYMENTS[variant]
    board = BOARDS[variant]
    game = Game(variant)
    for name in BOTS:
        layouts = set()
        for seed in range(12):
            for seat in (0, 1):
                layout = layout_from_json(
                    game, make_player(variant, name, seat, seed).deploy(view(game, seat))
                )
                rules.validate(seat, layout)
                layouts.add(tuple(sorted(layout.items())))
                if name == "bot_turtle" and variant == "classic":
                    flag = next(s for s, k in layout.items() if k == pc.FLAG)
                    assert all(layout[t] == pc.LANDMINE for t in board.neighbours[flag])
                if name == "bot_turtle" and variant == "gunjin":
                    flag = next(s for s, k in layout.items() if k == pc.G_FLAG)
                    behind = board.index["hq1" if seat == 0 else "hq8"]
                    assert layout.get(behind) == pc.MINE or flag not in board.neighbours[behind]
        assert len(layouts) >= 20, name


# Each bot against random, two paired deals per variant (12 games per bot).  Measured
# (seed 1): every bot scored 83% or more here; over 20 pairs per variant (seed 5) the
# lowest was 82.5% (greedy and turtle in Blind).  The bar leaves room for changes.
BEATS_RANDOM = 0.70


@pytest.mark.parametrize("name", BOTS)
def test_each_bot_beats_random_clearly(name):
    scores = []
    for variant in VARIANTS:
        results = arena.run_pairs(variant, name, "random", pairs=2, seed=1)
        scores += [r["score"] for r in results]
    assert sum(scores) / len(scores) >= BEATS_RANDOM
