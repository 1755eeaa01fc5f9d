"""Engine speed per variant: legal-move generations, push/pop pairs, random playouts.

Run: python bench/engine.py [--seconds S]
Figures are per second of CPython on this machine; the page (Pyodide) is ~2.2x slower.
Aims for classic: >= 10,000 generations/s and >= 100,000 push/pop pairs/s.

    python bench/engine.py --instructions [--against DIR]

counts machine instructions per operation under valgrind (callgrind) instead of timing:
the same count on a busy machine as on an idle one, so a change's cost is measurable when
other work shares the cores.  `--against DIR` counts a second checkout (for example an
older commit made with `git worktree add`) in the same run and prints the ratio.
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


# --- instruction counts ------------------------------------------------------------------------

WORKLOADS = {"generation": 300, "push+pop": 100, "playout": 2}
COUNT_SCRIPT = """
import random, sys
sys.path.insert(0, sys.argv[1])
from junqi_core.game import PLAY
from junqi_core.selfplay import random_game
variant, work, n = sys.argv[2], sys.argv[3], int(sys.argv[4])
seed = 1
while True:
    game = random_game(variant, seed, max_plies=60)
    if game.phase == PLAY:
        break
    seed += 1
position = game.position.copy()
moves = position.legal_moves()
if work == "generation":
    for _ in range(n):
        position.legal_moves()
elif work == "push+pop":
    for _ in range(n):
        for move in moves:
            position.push(move)
            position.pop()
elif work == "playout":
    rng = random.Random(7)
    for start in [random_game(variant, s, max_plies=0).position for s in range(n)]:
        start.playout(rng)
"""


def callgrind_instructions(root: str, variant: str, work: str, n: int) -> int:
    """Instructions CPython runs for the COUNT_SCRIPT workload (callgrind's Ir total)."""
    import os
    import re
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-c",
                COUNT_SCRIPT,
                root,
                variant,
                work,
                str(n),
            ],
            check=True,
            capture_output=True,
        )
        text = Path(out).read_text()
    return int(re.search(r"^summary:\s+(\d+)", text, re.M).group(1))


def instructions(roots: list[str]) -> None:
    """Per operation: (Ir with the workload - Ir without it) / operations."""
    print("instructions per operation (callgrind), fewer is faster")
    header = f"{'variant':<8} {'operation':<11}" + "".join(f" {r[-24:]:>24}" for r in roots)
    print(header + ("   ratio" if len(roots) == 2 else ""))
    empty: dict[tuple[str, str], int] = {}
    for variant in ("classic", "blind", "gunjin"):
        for work, n in WORKLOADS.items():
            per_op: list[float] = []
            for root in roots:
                moves = 1
                if work == "push+pop":
                    moves = bench(variant, 0.0)["moves"]
                full = callgrind_instructions(root, variant, work, n)
                if (root, variant) not in empty:
                    empty[root, variant] = callgrind_instructions(root, variant, work, 0)
                per_op.append((full - empty[root, variant]) / (n * moves))
            line = f"{variant:<8} {work:<11}" + "".join(f" {x:>24,.0f}" for x in per_op)
            if len(per_op) == 2:
                line += f"   {per_op[0] / per_op[1]:.3f}"
            print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--instructions", action="store_true", help="count, do not time")
    parser.add_argument("--against", help="a second checkout to count in the same run")
    args = parser.parse_args()
    if args.instructions:
        here = str(Path(__file__).resolve().parent.parent)
        instructions([here] + ([args.against] if args.against else []))
        return
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
