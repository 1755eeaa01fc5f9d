"""Command line: `python -m junqi_core selfplay ...` (and `arena`, see the players)."""

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
    return 0


if __name__ == "__main__":
    sys.exit(main())
