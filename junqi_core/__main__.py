"""Command line: `python -m junqi_core selfplay ...` and `python -m junqi_core arena ...`."""

from __future__ import annotations

import argparse
import json
import sys

from junqi_core.selfplay import selfplay, summary
from junqi_core.variants import BUILDERS, find_variant

ENGINE_VARIANTS = sorted(BUILDERS)  # Siguo too: the engine plays it before the page offers it


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m junqi_core")
    commands = parser.add_subparsers(dest="command", required=True)
    sp = commands.add_parser("selfplay", help="play seeded random games and count outcomes")
    sp.add_argument("--variant", choices=ENGINE_VARIANTS, required=True)
    sp.add_argument("--games", type=int, default=10)
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--json", action="store_true", help="print each game's result as JSON")
    ar = commands.add_parser(
        "arena",
        help="play seeded matches between two players (paired deals)",
        description="Paired deals: each deal is played twice with the seats swapped and the "
        "layouts (Blind: the deal) kept on their seats; the interval and the SPRT count "
        "pairs.  --games N plays N unpaired games instead, sides alternating.",
    )
    ar.add_argument("--variant", choices=ENGINE_VARIANTS, required=True)
    ar.add_argument(
        "--a",
        required=True,
        help="side A: a level (random, easy, medium, hard), a bot "
        "(bot_greedy, bot_rusher, bot_turtle, bot_heuristic, bot_reply) or module:Class; "
        "with four seats (Siguo) also a mixed team FIRST+SECOND (hard+easy: FIRST plays "
        "the team's seat S or E, SECOND its partner's seat N or W)",
    )
    ar.add_argument("--b", required=True, help="side B (as --a)")
    count = ar.add_mutually_exclusive_group()
    count.add_argument(
        "--pairs", type=int, help="paired deals to play (default 10; with --sprt the most to play)"
    )
    count.add_argument("--games", type=int, help="unpaired games instead, sides alternating")
    ar.add_argument("--seed", type=int, default=0)
    ar.add_argument("--jobs", type=int, default=1, help="worker processes (CPython only)")
    ar.add_argument("--quiet", action="store_true", help="no per-game or per-pair lines")
    ar.add_argument(
        "--sprt",
        action="store_true",
        help="stop as soon as a GSPRT decides between elo0 (H0) and elo1 (H1)",
    )
    ar.add_argument("--elo0", type=float, default=0.0, help="SPRT: Elo of A over B under H0")
    ar.add_argument("--elo1", type=float, default=20.0, help="SPRT: Elo of A over B under H1")
    ar.add_argument("--alpha", type=float, default=0.05, help="SPRT: false H1 rate")
    ar.add_argument("--beta", type=float, default=0.05, help="SPRT: false H0 rate")
    ar.add_argument(
        "--sprt-model",
        choices=("pentanomial", "trinomial"),
        default="pentanomial",
        help="SPRT on pair results (pentanomial) or on games as if independent (trinomial)",
    )
    args = parser.parse_args(argv)

    if args.command == "selfplay":
        results = selfplay(args.variant, args.games, args.seed)
        if args.json:
            print(json.dumps(results))
            return 0
        print(f"{args.games} random {args.variant} games, seed {args.seed}")
        teams = ("team S+N", "team E+W") if find_variant(args.variant).seats > 2 else None
        for (reason, winner), count in sorted(summary(results).items(), key=str):
            side = f"player {winner}" if teams is None or winner is None else teams[winner]
            who = "draw" if winner is None else f"{side} wins"
            print(f"  {reason:<14} {who:<16} {count}")
        mean = sum(r["plies"] for r in results) / max(1, len(results))
        print(f"  mean length {mean:.0f} plies")
    elif args.command == "arena":
        return _arena(args)
    return 0


def _arena(args: argparse.Namespace) -> int:
    from junqi_core import arena

    for name in (args.a, args.b):
        try:
            for seat in (0, 2) if "+" in name else (0,):
                arena.new_player(args.variant, name, seat, 0)
        except (ValueError, ImportError, AttributeError) as error:
            print(error, file=sys.stderr)
            return 2
    if args.games is not None:
        if args.sprt:
            print("--sprt needs paired deals (--pairs)", file=sys.stderr)
            return 2

        def game_line(r: dict, done: int) -> None:
            if not args.quiet:
                print(
                    f"  game {r['index']:>4} A seat {r['a_seat']} score {r['score_a']:.1f} "
                    f"{r['reason']:<14} {r['plies']:>4} plies  ({done}/{args.games})",
                    flush=True,
                )

        results = arena.run(
            args.variant, args.a, args.b, args.games, args.seed, args.jobs, game_line
        )
        print(arena.summary(args.variant, args.a, args.b, args.seed, results))
        return 0
    pairs = 10 if args.pairs is None else args.pairs
    sprt = None
    if args.sprt:
        try:
            sprt = arena.Sprt(args.elo0, args.elo1, args.alpha, args.beta, args.sprt_model)
        except ValueError as error:
            print(error, file=sys.stderr)
            return 2

    def pair_line(r: dict, done: int) -> None:
        if args.quiet:
            return
        games = ", ".join(
            f"{g['score_a']:.1f} in seat {g['a_seat']} ({g['reason']}, {g['plies']} plies)"
            for g in r["games"]
        )
        llr = f"  LLR {sprt.llr():.2f}" if sprt is not None else ""
        print(
            f"  pair {r['index']:>4}: A {games} -> {r['score']:.2f}  ({done}/{pairs}){llr}",
            flush=True,
        )

    results = arena.run_pairs(
        args.variant, args.a, args.b, pairs, args.seed, args.jobs, pair_line, sprt
    )
    print(arena.summary(args.variant, args.a, args.b, args.seed, results, sprt))
    return 0


if __name__ == "__main__":
    sys.exit(main())
