"""Engine speed per variant: legal-move generations, push/pop pairs, random playouts.

Run: python bench/engine.py [--seconds S]
Figures are per second of CPython on this machine; the page (Pyodide) is ~2.2x slower.
Aims for classic: >= 10,000 generations/s and >= 100,000 push/pop pairs/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from junqi_core.game import PLAY
from junqi_core.notation import position_text
from junqi_core.rules import Position
from junqi_core.selfplay import random_game

MID_GAME_PLY = 60


def mid_game(variant: str, seed: int) -> Position:
    """A position after MID_GAME_PLY random plies of a seeded game that is still in play."""
    while True:
        game = random_game(variant, seed, max_plies=MID_GAME_PLY)
        if game.phase == PLAY:
            return game.position.copy()
        seed += 1


def rate(fn, seconds: float) -> float:
    """Calls of fn per second, timed over at least `seconds`."""
    count, start = 0, time.perf_counter()
    while True:
        fn()
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed


def bench(variant: str, seconds: float) -> dict:
    position = mid_game(variant, seed=1)
    moves = position.legal_moves()
    generations = rate(position.legal_moves, seconds)

    def push_pop_all() -> None:
        for move in moves:
            position.push(move)
            position.pop()

    pairs = rate(push_pop_all, seconds) * len(moves)
    rng = random.Random(7)

    def playout() -> None:
        random_game(variant, rng.randrange(1000), max_plies=0).position.playout(rng)

    playouts = rate(playout, seconds * 2)
    return {
        "position": position_text(position),
        "moves": len(moves),
        "generations": generations,
        "pairs": pairs,
        "playouts": playouts,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    print(f"CPython {sys.version.split()[0]}, {args.seconds:.1f} s per figure")
    print(f"{'variant':<8} {'moves':>5} {'gen/s':>10} {'push+pop/s':>12} {'playouts/s':>11}")
    for variant in ("classic", "blind", "gunjin"):
        r = bench(variant, args.seconds)
        print(
            f"{variant:<8} {r['moves']:>5} {r['generations']:>10,.0f} {r['pairs']:>12,.0f} "
            f"{r['playouts']:>11,.1f}"
        )
    for variant in ("classic", "blind", "gunjin"):
        print(f"  {variant} mid-game position: {position_text(mid_game(variant, 1))}")


if __name__ == "__main__":
    main()
