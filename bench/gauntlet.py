"""The gauntlet: every CPU level (and random) against every bot and random, per variant.

Run: python3 bench/gauntlet.py [--pairs 20] [--hard-pairs 4] [--seed 1] [--jobs 1]
     [--variants classic,blind,gunjin] [--levels random,easy,medium,hard]
     [--opponents bot_greedy,...,random]   (--quick: one pair per match, no Hard)

Each match is played with the arena's paired deals (`junqi_core.arena.run_pairs`): every
deal twice, seats swapped, the layouts (Blind: the deal) kept on their seats.  The score
is the level's, with a 95% interval computed over pair scores (pairs are the independent
unit).  Think time is the p95 of CPU seconds per move, the level's and the opponent's.
Progress goes to stderr, the table to stdout.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from junqi_core import arena
from junqi_core.players import bots

LEVELS = "random,easy,medium,hard"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20, help="paired deals per match")
    parser.add_argument("--hard-pairs", type=int, default=4, help="paired deals for Hard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--variants", default="classic,blind,gunjin")
    parser.add_argument("--levels", default=None, help=f"side A (default {LEVELS})")
    parser.add_argument("--opponents", default=",".join([*bots(), "random"]))
    parser.add_argument("--quick", action="store_true", help="one pair per match, no Hard")
    args = parser.parse_args(argv)
    levels = args.levels or (LEVELS.replace(",hard", "") if args.quick else LEVELS)
    header = (
        f"{'variant':<8} {'level':<7} {'opponent':<14} {'score':>6}  {'95% interval':<13}"
        f" {'W / D / L':>11} {'pairs':>5} {'p95 s':>7} {'opp p95':>7}"
    )
    rows = []
    start = time.perf_counter()
    for variant in args.variants.split(","):
        for level in levels.split(","):
            for opponent in args.opponents.split(","):
                if opponent == level:
                    continue
                pairs = args.hard_pairs if level == "hard" else args.pairs
                if args.quick:
                    pairs = 1
                t0 = time.perf_counter()
                results = arena.run_pairs(variant, level, opponent, pairs, args.seed, args.jobs)
                st = arena.stats(results)
                wdl = f"{st['wins']} / {st['draws']} / {st['losses']}"
                rows.append(
                    f"{variant:<8} {level:<7} {opponent:<14} {100 * st['score']:>5.1f}%"
                    f"  {100 * st['low']:>5.1f} - {100 * st['high']:>5.1f}% {wdl:>11}"
                    f" {st['pairs']:>5} {st['cpu_a']['p95']:>7.4f} {st['cpu_b']['p95']:>7.4f}"
                )
                print(rows[-1] + f"   ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    print(
        f"bench/gauntlet.py: seed {args.seed}, paired deals, score = the level's, interval "
        f"over pair scores; CPython {sys.version.split()[0]}, "
        f"{time.perf_counter() - start:.0f} s"
    )
    print(header)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
