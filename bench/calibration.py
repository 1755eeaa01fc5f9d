"""Calibration of Classic Hard's belief on a bot the behaviour model never saw.

    python3 bench/calibration.py [--holdout bot_reply] [--plies 10,20,40,80,120]
        [--samples 300] [--stored] [--corpus build/behaviour_corpus.jsonl.gz]

The behaviour model is learned from the corpus (bench/behaviour_corpus.py) without any
game the held-out player played (`--stored`: the package's tables are used instead,
which `behaviour_corpus.py learn --exclude bot_reply` wrote the same way).  Then, in
every corpus game the held-out player played, at each of `--plies`, the belief of its
opponent's seat (the Tracker replayed through the events that seat saw) is asked, for
each living held-out piece: is it a Bomb, a landmine, the flag, the Field Marshal?  Each
belief answers with the share of `--samples` sampled worlds (clipped to [0.001, 0.999]
for the log-loss): today's (`Belief(tracker)`, Classic Hard's) and the new one
(`Belief(tracker, behaviour=model)`).  Printed: log-loss and Brier score per question,
and a reliability table (predicted-probability buckets against the observed frequency).
Lower is better for both scores.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from behaviour_corpus import DEFAULT_OUT, learn, observations, read_corpus

from junqi_core import pieces as pc
from junqi_core.ai import behaviour_tables
from junqi_core.ai.behaviour import POSTS, BehaviourModel, stored_model
from junqi_core.ai.belief import Belief
from junqi_core.ai.player import HardPlayer

QUESTIONS = {
    "Bomb": pc.BOMB,
    "Landmine": pc.LANDMINE,
    "Flag": pc.FLAG,
    "Field Marshal": pc.FIELD_MARSHAL,
}
BUCKETS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0001)
CLIP = 0.001


def shares(belief: Belief, alive: list[int], samples: int, rng: random.Random) -> dict:
    """Per living identity, per question kind, the share of sampled worlds giving it."""
    counts = {e: dict.fromkeys(QUESTIONS.values(), 0) for e in alive}
    for _ in range(samples):
        a = belief.sample(rng)
        for e in alive:
            k = a[e]
            if k in counts[e]:
                counts[e][k] += 1
    return {e: {k: n / samples for k, n in c.items()} for e, c in counts.items()}


def scores(rows: list[tuple[float, int]]) -> tuple[float, float]:
    """(log-loss, Brier) of (probability, outcome) rows."""
    ll = br = 0.0
    for p, y in rows:
        q = min(1 - CLIP, max(CLIP, p))
        ll -= math.log(q if y else 1 - q)
        br += (p - y) ** 2
    return ll / len(rows), br / len(rows)


def reliability(rows: list[tuple[float, int]]) -> list[tuple[str, int, float, float]]:
    out = []
    for lo, hi in itertools.pairwise(BUCKETS):
        inside = [(p, y) for p, y in rows if lo <= p < hi]
        if inside:
            mean_p = sum(p for p, _ in inside) / len(inside)
            freq = sum(y for _, y in inside) / len(inside)
            out.append((f"{lo:.2f}-{min(hi, 1.0):.2f}", len(inside), mean_p, freq))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--holdout", default="bot_reply")
    parser.add_argument("--plies", default="10,20,40,80,120")
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=None, help="at most this many games")
    parser.add_argument("--posts", default=POSTS, choices=["full", "mirror"])
    parser.add_argument(
        "--stored",
        action="store_true",
        help="the package's tables (when they were learned without the held-out player)",
    )
    args = parser.parse_args(argv)
    plies = [int(p) for p in args.plies.split(",")]
    t0 = time.process_time()
    if args.stored:
        model = stored_model()
        assert model is not None, "no stored tables"
        weights, info = behaviour_tables.WEIGHTS, behaviour_tables.__doc__.split("(")[-1][:-3]
    else:
        counts, weights, info = learn(read_corpus(args.corpus), {args.holdout}, args.posts)
        model = BehaviourModel(counts, weights, args.posts)
    learned = time.process_time() - t0
    rng = random.Random(args.seed)
    rows: dict[str, dict[str, list[tuple[float, int]]]] = {
        q: {"today": [], "behaviour": []} for q in QUESTIONS
    }
    games = seats = points = 0
    for rec in read_corpus(args.corpus):
        if args.holdout not in rec["players"]:
            continue
        if args.games is not None and games >= args.games:
            break
        games += 1
        for seat in (0, 1):
            if rec["players"][1 - seat] != args.holdout:
                continue
            seats += 1
            for _ply, tracker, truth in observations(rec, seat, plies):
                points += 1
                alive = tracker.alive_enemies()
                for name, belief in (
                    ("today", Belief(tracker)),
                    ("behaviour", Belief(tracker, behaviour=model)),
                ):
                    got = shares(belief, alive, args.samples, rng)
                    for q, k in QUESTIONS.items():
                        rows[q][name].extend((got[e][k], int(truth[e] == k)) for e in alive)
    print(
        f"bench/calibration.py: held out {args.holdout} (model learned without its games,"
        f" weights {weights} fitted leaving one player out: {info};"
        f" {learned:.0f} CPU s); {games} games, {seats} seats facing it,"
        f" {points} observations at plies {args.plies}, {args.samples} worlds each;"
        f" {time.process_time() - t0:.0f} CPU s"
    )
    print(
        f"{'question':<14} {'pieces':>6} {'rate':>6}  {'log-loss today':>14} {'new':>7}"
        f"  {'Brier today':>11} {'new':>7}"
    )
    for q in QUESTIONS:
        old, new = rows[q]["today"], rows[q]["behaviour"]
        if not old:
            continue
        (ll0, b0), (ll1, b1) = scores(old), scores(new)
        rate = sum(y for _, y in old) / len(old)
        print(
            f"{q:<14} {len(old):>6} {rate:>6.3f}  {ll0:>14.4f} {ll1:>7.4f}  {b0:>11.4f} {b1:>7.4f}"
        )
    print("\nreliability: predicted bucket, pieces, mean predicted, observed frequency")
    for q in QUESTIONS:
        for name in ("today", "behaviour"):
            table = reliability(rows[q][name])
            print(f"{q} ({name}):")
            for bucket, n, mean_p, freq in table:
                print(f"  {bucket:<10} {n:>6} {mean_p:>7.3f} {freq:>7.3f}")
    return 0


class BehaviourHard(HardPlayer):
    """Classic Hard with the behaviour model in its belief, for the arena:
    `--a bench.calibration:BehaviourHard` (run from the repository's root)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.settings = replace(self.settings, behaviour=True)


if __name__ == "__main__":
    sys.exit(main())
