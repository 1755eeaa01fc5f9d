#!/usr/bin/env python3
"""Same decisions, faster? Hard's choices at its node budget, recorded and compared.

    python3 bench/decisions.py record FILE [--positions 40] [--levels hard]
    python3 bench/decisions.py check FILE

`record` plays seeded games (Easy against Easy, or `--games-of hard`; no wall-clock cap,
so the positions do not depend on the machine), takes every few plies a position,
lets each level choose there with its node budget only (no time cap), and writes the
views, the chosen actions, the nodes and worlds searched and every root value to FILE.
`check` reads FILE, lets the same players choose again in the same views, and prints
where a choice, a node count or a root value differs (a speed-up of the search must not
change them), then CPU time and search nodes per second per variant: run `check` on the
old code and the new one to compare speed on exactly the same work.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import ai

from junqi_core.players import make_player

VARIANTS = ("classic", "blind", "gunjin")


def positions(variant: str, count: int, level: str, every: int) -> list[dict]:
    """Positions from seeded games of `level` against itself, without the cap."""
    games = ai.positions(variant, count, every=every, level=level, uncapped=True)
    return [{"view": v, "legal": legal, "seat": seat} for v, legal, seat in games]


def decide(variant: str, level: str, sample: dict, index: int) -> tuple[dict, float]:
    """One decision without a time cap: what was chosen, with what search; CPU seconds."""
    player = make_player(variant, level, sample["seat"], index)
    player.time_cap = None
    values: list[float] = []
    original = player._values

    def keep(*args, **kwargs):
        out = original(*args, **kwargs)
        values.extend(out)
        return out

    player._values = keep
    c0 = time.process_time()
    chosen = player.choose(sample["view"], sample["legal"])
    spent = time.process_time() - c0
    info = player.last_info
    return {
        "chosen": chosen,
        "nodes": info.get("nodes"),
        "worlds": info.get("worlds"),
        "values": [repr(v) for v in values],
    }, spent


def record(path: Path, count: int, levels: list[str], games_of: str, every: int) -> None:
    data: dict = {}
    for variant in VARIANTS:
        samples = positions(variant, count, games_of, every)
        for level in levels:
            for i, sample in enumerate(samples):
                sample.setdefault("decisions", {})[level], _ = decide(variant, level, sample, i)
        data[variant] = samples
        print(f"{variant}: {len(samples)} positions", flush=True)
    path.write_text(json.dumps(data))


def check(path: Path) -> int:
    data = json.loads(path.read_text())
    differ = 0
    rows = []
    for variant, samples in data.items():
        levels = sorted({level for s in samples for level in s["decisions"]})
        for level in levels:
            seconds = 0.0
            nodes = 0
            same_choice = same_values = 0
            for i, sample in enumerate(samples):
                want = sample["decisions"][level]
                got, spent = decide(variant, level, sample, i)
                seconds += spent
                nodes += got["nodes"] or 0
                same_choice += got["chosen"] == want["chosen"]
                same_values += got == want
                if got != want:
                    differ += 1
                    what = [k for k in want if got[k] != want[k]]
                    print(
                        f"  {variant} {level} #{i} ply {sample['view']['ply']}: differs in {what}"
                    )
            n = len(samples)
            rows.append((variant, level, n, same_choice, same_values, seconds, nodes))
    print(f"CPython {sys.version.split()[0]}, CPU time of this process")
    print(
        f"{'variant':<8} {'level':<7} {'pos':>4} {'same move':>10} {'same all':>9} "
        f"{'CPU s':>8} {'nodes':>11} {'nodes/s':>9}"
    )
    for variant, level, n, choice, same, seconds, nodes in rows:
        print(
            f"{variant:<8} {level:<7} {n:>4} {choice:>10} {same:>9} {seconds:>8.2f} "
            f"{nodes:>11,} {nodes / seconds:>9,.0f}"
        )
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("record", "check"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--positions", type=int, default=40, help="positions per variant")
    parser.add_argument("--levels", nargs="+", default=["hard"])
    parser.add_argument("--games-of", default="easy", help="the level whose games give positions")
    parser.add_argument("--every", type=int, default=5, help="plies between positions")
    args = parser.parse_args()
    if args.action == "record":
        record(args.file, args.positions, args.levels, args.games_of, args.every)
        return 0
    return check(args.file)


if __name__ == "__main__":
    sys.exit(main())
