"""CPU think time per variant and level: p50 / p95 / max of `choose()` in CPython.

Run: python bench/ai.py [--positions N] [--levels easy,medium,hard] [--variants ...]
                        [--preset PRESET]
(Inside the page, in Chromium: bench/cpu_page.py.)  `--preset` plays each variant that
has that preset under its rule options (variants.PRESETS); the others are skipped.

Positions come from seeded Easy-vs-Easy games (every few plies, from the opening to
the end game).  Each level then chooses once in each position.  Times are CPU time of
this process (`time.process_time`, which other programs on the machine do not inflate);
the safety cap runs on the same clock.  Wall time is shown as well.  Budgets in the page
(Pyodide, about 2.2x slower than CPython): Easy 0.1 s, Medium 0.5 s, Hard 1.5 s at the
95th percentile, i.e. about 0.045 / 0.22 / 0.65 s here.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from junqi_core.game import PLAY, Game
from junqi_core.notation import move_text
from junqi_core.players import make_player
from junqi_core.record import layout_from_json
from junqi_core.variants import PRESETS, Variant, find_variant
from junqi_core.views import view

TARGET = {"easy": 0.1 / 2.2, "medium": 0.5 / 2.2, "hard": 1.5 / 2.2}


def positions(
    variant: Variant | str,
    count: int,
    seed: int = 1,
    every: int = 5,
    level: str = "easy",
    uncapped: bool = False,
) -> list[tuple]:
    """(view, legal actions, seat) samples from seeded games of `level` against itself
    (Easy unless told); `uncapped`: without the wall-clock cap, so that the games do not
    depend on the machine."""
    out: list[tuple] = []
    game_index = 0
    while len(out) < count:
        game_seed = seed * 1_000 + game_index
        game_index += 1
        game = Game(variant, seed=game_seed)
        players = {s: make_player(variant, level, s, game_seed * 2 + s) for s in (0, 1)}
        if uncapped:
            for player in players.values():
                player.time_cap = None
        if game.phase != PLAY:
            for s in (0, 1):
                game.deploy(s, layout_from_json(game, players[s].deploy(view(game, s))))
        while game.phase == PLAY and len(out) < count:
            seat = game.turn
            legal = [move_text(game.board_spec, m) for m in game.legal_moves()]
            v = view(game, seat)
            if game.position.ply % every == game_index % every and len(legal) > 1:
                out.append((v, legal, seat))
            game.apply(seat, players[seat].choose(v, legal))
    return out


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[max(0, min(len(s) - 1, int(q * len(s) + 0.999999) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--variants", default="classic,blind,gunjin")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default=None, help="rule options by preset name")
    args = parser.parse_args()
    rules = f", preset {args.preset}" if args.preset else ""
    print(f"CPython {sys.version.split()[0]}, {args.positions} positions per variant{rules}")
    print(
        f"{'variant':<8} {'level':<7} {'p50 s':>7} {'p95 s':>7} {'max s':>7} "
        f"{'target p95':>10} {'capped':>6} {'wall p95':>9}"
    )
    for name in args.variants.split(","):
        if args.preset and args.preset not in {p.id for p in PRESETS[name]}:
            print(f"{name:<8} (no preset {args.preset})")
            continue
        variant = find_variant(name, args.preset)
        samples = positions(variant, args.positions, args.seed)
        for level in args.levels.split(","):
            times = []
            walls = []
            capped = 0
            for i, (v, legal, seat) in enumerate(samples):
                player = make_player(variant, level, seat, i)
                player.clock = time.process_time
                t0, c0 = time.perf_counter(), time.process_time()
                player.choose(v, legal)
                times.append(time.process_time() - c0)
                walls.append(time.perf_counter() - t0)
                capped += bool(getattr(player, "last_info", {}).get("timeout"))
            print(
                f"{name:<8} {level:<7} {percentile(times, 0.5):>7.3f} "
                f"{percentile(times, 0.95):>7.3f} {max(times):>7.3f} "
                f"{TARGET.get(level, 0):>10.3f} {capped:>6} {percentile(walls, 0.95):>9.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
