"""Siguo's move generation against Classic's, in one run (the issue's aim: a Siguo position
costs at most 3x a Classic one).

Run: python bench/siguo_moves.py [--seconds S] [--positions N]

Both sides are timed on mid-game positions of seeded random games (Classic: 60 plies;
Siguo: 120 plies, the same 30 turns per seat), interleaved so that a busy machine slows
both alike.  Prints legal-move generations per second, push/pop pairs per second, and the
ratio of Siguo's cost per position to Classic's.  Figures are CPython's; Pyodide is about
2.2x slower on both (bench/cpu_page.py measures the page).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from siguo_games import random_game as siguo_game

from junqi_core.game import PLAY
from junqi_core.rules import Position
from junqi_core.selfplay import random_game


def classic_positions(n: int) -> list[Position]:
    found, seed = [], 1
    while len(found) < n:
        game = random_game("classic", seed, max_plies=60)
        if game.phase == PLAY:
            found.append(game.position.copy())
        seed += 1
    return found


def siguo_positions(n: int) -> list[Position]:
    found, seed = [], 1
    while len(found) < n:
        last = None
        for ply, (position, _move) in enumerate(siguo_game(seed, 121)):
            if ply == 120:
                last = position.copy()
        if last is not None and len(last.in_game()) == 4:
            found.append(last)
        seed += 1
    return found


def per_second(positions: list[Position], seconds: float) -> tuple[float, float]:
    """(generations/s, push+pop pairs/s) over the positions in turn."""
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for position in positions:
            position.legal_moves()
            count += 1
    generations = count / (time.perf_counter() - start)
    pairs, start = 0, time.perf_counter()
    moves = [(p, p.legal_moves()) for p in positions]
    while time.perf_counter() - start < seconds:
        for position, legal in moves:
            for move in legal:
                position.push(move)
                position.pop()
            pairs += len(legal)
    return generations, pairs / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sides = {"classic": classic_positions(args.positions), "siguo": siguo_positions(args.positions)}
    for name, positions in sides.items():
        moves = sum(len(p.legal_moves()) for p in positions) / len(positions)
        pieces = sum(1 for p in positions for x in p.board if x) / len(positions)
        print(f"{name:<8} {len(positions)} positions, {moves:.1f} moves, {pieces:.0f} pieces each")
    print(f"{'round':<6} {'classic gen/s':>14} {'siguo gen/s':>12} {'ratio':>6} "
          f"{'classic push/s':>15} {'siguo push/s':>13}")  # fmt: skip
    ratios = []
    for round_ in range(args.rounds):
        classic = per_second(sides["classic"], args.seconds)
        siguo = per_second(sides["siguo"], args.seconds)
        ratios.append(classic[0] / siguo[0])
        print(f"{round_ + 1:<6} {classic[0]:>14,.0f} {siguo[0]:>12,.0f} {ratios[-1]:>6.2f} "
              f"{classic[1]:>15,.0f} {siguo[1]:>13,.0f}")  # fmt: skip
    print(
        f"Siguo's cost per generation: {sorted(ratios)[len(ratios) // 2]:.2f}x Classic's "
        "(median of the rounds; the aim is at most 3x)"
    )


if __name__ == "__main__":
    main()
