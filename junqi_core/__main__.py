"""Command line: `python -m junqi_core selfplay ...` and `python -m junqi_core arena ...`."""

from __future__ import annotations

import argparse
import json
import sys

from junqi_core.rules import POSITION_CLASSES
from junqi_core.selfplay import selfplay, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m junqi_core")
    commands = parser.add_subparsers(dest="command", required=True)
    sp = commands.add_parser("selfplay", help="play seeded random games and count outcomes")
    sp.add_argument("--variant", choices=sorted(POSITION_CLASSES), required=True)
    sp.add_argument("--games", type=int, default=10)
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--json", action="store_true", help="print each game's result as JSON")
    ar = commands.add_parser("arena", help="play seeded matches between two CPU levels")
    ar.add_argument("--variant", choices=sorted(POSITION_CLASSES), required=True)
    ar.add_argument("--a", required=True, help="level of side A (random, easy, medium, hard)")
    ar.add_argument("--b", required=True, help="level of side B")
    ar.add_argument("--games", type=int, default=10)
    ar.add_argument("--seed", type=int, default=0)
    ar.add_argument("--jobs", type=int, default=1, help="worker processes (CPython only)")
    ar.add_argument("--quiet", action="store_true", help="no per-game progress lines")
    args = parser.parse_args(argv)

    if args.command == "selfplay":
        results = selfplay(args.variant, args.games, args.seed)
        if args.json:
            print(json.dumps(results))
            return 0
        print(f"{args.games} random {args.variant} games, seed {args.seed}")
        for (reason, winner), count in sorted(summary(results).items(), key=str):
            who = "draw" if winner is None else f"player {winner} wins"
            print(f"  {reason:<14} {who:<16} {count}")
        mean = sum(r["plies"] for r in results) / max(1, len(results))
        print(f"  mean length {mean:.0f} plies")
    elif args.command == "arena":
        return _arena(args)
    return 0


def _arena(args: argparse.Namespace) -> int:
    from junqi_core.ai import arena
    from junqi_core.players import LEVELS

    for level in (args.a, args.b):
        if level not in LEVELS:
            print(f"unknown level {level!r}; levels: {', '.join(LEVELS)}", file=sys.stderr)
            return 2

    def progress(r: dict, done: int) -> None:
        if not args.quiet:
            print(
                f"  game {r['index']:>4} A seat {r['a_seat']} score {r['score_a']:.1f} "
                f"{r['reason']:<14} {r['plies']:>4} plies  ({done}/{args.games})",
                flush=True,
            )

    results = arena.run(args.variant, args.a, args.b, args.games, args.seed, args.jobs, progress)
    print(arena.summary(args.variant, args.a, args.b, args.seed, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
