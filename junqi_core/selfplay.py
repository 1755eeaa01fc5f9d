"""Seeded random games, for smoke tests and the CLI; identical in CPython and Pyodide."""

from __future__ import annotations

import random
from collections import Counter

from junqi_core.game import PLAY, SETUP, Game
from junqi_core.notation import move_text

MAX_PLIES = 5000  # a safety net only: every variant ends by its quiet-move rule first


def random_game(variant: str, seed: int, max_plies: int = MAX_PLIES) -> Game:
    """A seeded game where both sides pick uniformly among legal moves, to the end or
    until `max_plies` have been played."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    if game.phase == SETUP:
        for player in range(game.seats):
            game.deploy(player, game.random_layout(player, rng.randrange(2**32)))
    while game.phase == PLAY and game.position.ply < max_plies:
        move = rng.choice(game.legal_moves())
        game.apply(game.turn, move_text(game.board_spec, move))
    return game


def selfplay(variant: str, games: int, seed: int) -> list[dict]:
    """Results of `games` seeded random games: winner, reason and length of each."""
    results = []
    for i in range(games):
        game = random_game(variant, seed * 100_003 + i)
        outcome = game.result
        results.append(
            {
                "winner": None if outcome is None else outcome.winner,
                "reason": "unfinished" if outcome is None else outcome.reason,
                "plies": game.position.ply,
            }
        )
    return results


def summary(results: list[dict]) -> Counter:
    return Counter((r["reason"], r["winner"]) for r in results)
