"""How Gunjin deployments usually look: a prior over the kind on each enemy start square.

Sampling worlds uniformly treats every layout the rules allow as equally likely.  Real
layouts are not: most keep a mine in the headquarters (only a Plane or an Engineer clears
it, and neither can occupy), so a uniform belief, which puts a mine there about one time
in eleven, sends officers to die on it.  Hard's belief weighs each kind on each start
square by how often the CPU's own layouts put it there, against how often a uniform
layout would (squared: `SHARPNESS`).

The counts are of `SAMPLES` layouts per seat drawn from a fixed seed, mixing the ways the
levels deploy (`layout_counts`).  They are stored (`GUNJIN_LAYOUT_COUNTS`) because drawing
them takes about a second in the page; `python -m junqi_core.ai.prior` prints them anew,
and a test checks that they are still what the layouts give.  Every Gunjin rule option
keeps the board, the pieces and the deployment rules, so one prior serves them all.
"""

from __future__ import annotations

import random
from functools import cache

from junqi_core.ai.deploy import gunjin_layout
from junqi_core.ai.tables import Tables, tables_for

SAMPLES = 400
SEED = 12345
# Each weight is squared: against Medium (seed 2026, 200 games) Gunjin Hard scored 60.5%
# with no prior, 65.5% with the plain ratio and 70% with its square (docs/strength.md)
SHARPNESS = 2.0


def layout_counts(t: Tables, player: int) -> dict[str, tuple[int, ...]]:
    """Per start square (by name), how many of the layouts under the rules `t` put each
    kind there (kinds in `t.kinds` order).  One in four layouts is fortified (a mine in
    the HQ always, as Hard deploys), one in four has no HQ mine preference (Easy), and
    half keep a mine in the HQ unless it holds the flag's guard (Medium)."""
    rng = random.Random(SEED)
    names = t.board.names
    kinds = t.kinds
    counts = {s: [0] * len(kinds) for s in t.start_squares[player]}
    for i in range(SAMPLES):
        hq_mine = None if i % 2 == 0 else 1.0
        for s, k in gunjin_layout(t, player, rng, hq_mine, i % 4 == 0).items():
            counts[s][kinds.index(k)] += 1
    return {names[s]: tuple(c) for s, c in counts.items()}


@cache
def gunjin_prior(t: Tables, player: int) -> dict[int, dict[int, float]]:
    """Start square -> kind -> weight for `player`'s pieces under the Gunjin rules `t`:
    how often the kind stands there in `SAMPLES` layouts of the standard rules, against
    the uniform expectation (one added to both, so that no kind the rules allow is ruled
    out), to the power `SHARPNESS`."""
    index = t.board.index
    kinds = t.kinds
    counts = t.counts
    pieces = sum(counts.values())
    uniform = {k: SAMPLES * counts[k] / pieces + 1.0 for k in kinds}
    return {
        index[name]: {
            k: ((n + 1.0) / uniform[k]) ** SHARPNESS for k, n in zip(kinds, row, strict=True)
        }
        for name, row in GUNJIN_LAYOUT_COUNTS[player].items()
    }


# layout_counts(standard Gunjin, 0) and (..., 1); regenerate: `python -m junqi_core.ai.prior`
GUNJIN_LAYOUT_COUNTS: tuple[dict[str, tuple[int, ...]], ...] = (
    {
        "a1": (5, 6, 4, 12, 13, 33, 29, 24, 70, 65, 54, 12, 30, 10, 33, 0),
        "b1": (2, 2, 6, 9, 15, 26, 36, 28, 67, 58, 59, 22, 30, 13, 27, 0),
        "hq1": (2, 30, 38, 0, 29, 24, 2, 4, 6, 6, 7, 0, 1, 2, 249, 0),
        "e1": (7, 9, 7, 12, 13, 25, 28, 21, 71, 69, 64, 10, 16, 10, 38, 0),
        "f1": (2, 5, 5, 11, 10, 25, 31, 29, 67, 60, 69, 12, 26, 7, 41, 0),
        "a2": (9, 12, 17, 32, 26, 11, 15, 19, 42, 42, 47, 15, 36, 33, 20, 24),
        "b2": (13, 16, 15, 28, 27, 15, 11, 17, 38, 39, 37, 21, 40, 28, 38, 17),
        "c2": (9, 7, 9, 18, 20, 9, 10, 18, 26, 31, 34, 9, 32, 24, 31, 113),
        "d2": (12, 13, 10, 10, 12, 20, 16, 13, 29, 25, 30, 17, 22, 31, 32, 108),
        "e2": (12, 10, 16, 21, 27, 12, 32, 19, 40, 39, 42, 16, 46, 25, 23, 20),
        "f2": (19, 14, 17, 15, 25, 14, 20, 15, 41, 37, 45, 21, 33, 31, 38, 15),
        "a3": (24, 20, 27, 39, 41, 13, 15, 15, 30, 29, 31, 21, 45, 23, 15, 12),
        "b3": (23, 22, 18, 32, 39, 14, 15, 10, 27, 38, 29, 17, 29, 31, 39, 17),
        "c3": (22, 20, 22, 34, 49, 12, 16, 9, 23, 29, 21, 22, 36, 35, 36, 14),
        "d3": (23, 24, 17, 37, 28, 15, 13, 19, 29, 32, 43, 13, 48, 24, 25, 10),
        "e3": (25, 21, 18, 38, 30, 15, 12, 14, 30, 18, 35, 24, 41, 16, 46, 17),
        "f3": (25, 22, 12, 44, 31, 16, 9, 13, 20, 46, 30, 17, 42, 26, 14, 33),
        "a4": (19, 14, 17, 49, 47, 16, 16, 32, 26, 22, 29, 36, 55, 9, 13, 0),
        "b4": (49, 43, 39, 82, 66, 9, 7, 8, 17, 17, 20, 17, 22, 4, 0, 0),
        "c4": (26, 22, 15, 60, 61, 20, 17, 17, 25, 22, 22, 26, 50, 4, 13, 0),
        "d4": (17, 16, 20, 48, 66, 28, 19, 21, 34, 19, 16, 22, 57, 6, 11, 0),
        "e4": (41, 38, 33, 106, 73, 4, 9, 15, 20, 18, 10, 10, 21, 2, 0, 0),
        "f4": (14, 14, 18, 63, 52, 24, 22, 20, 22, 39, 26, 20, 42, 6, 18, 0),
    },
    {
        "a5": (19, 12, 26, 70, 51, 18, 14, 14, 26, 32, 20, 28, 50, 7, 13, 0),
        "b5": (47, 28, 32, 102, 69, 11, 15, 9, 15, 15, 17, 22, 14, 4, 0, 0),
        "c5": (20, 21, 13, 54, 58, 15, 18, 18, 32, 28, 22, 31, 50, 8, 12, 0),
        "d5": (23, 6, 23, 51, 47, 23, 23, 14, 22, 31, 29, 27, 62, 9, 10, 0),
        "e5": (40, 43, 37, 96, 65, 7, 13, 6, 17, 9, 7, 29, 26, 5, 0, 0),
        "f5": (16, 22, 18, 51, 53, 17, 14, 19, 30, 25, 29, 31, 61, 6, 8, 0),
        "a6": (22, 24, 20, 29, 35, 3, 21, 21, 30, 23, 38, 21, 43, 31, 15, 24),
        "b6": (20, 27, 17, 35, 34, 9, 17, 14, 23, 24, 32, 13, 39, 25, 54, 17),
        "c6": (28, 13, 16, 36, 38, 13, 19, 20, 34, 30, 28, 16, 29, 31, 31, 18),
        "d6": (24, 23, 15, 34, 39, 8, 15, 18, 21, 34, 29, 18, 50, 22, 31, 19),
        "e6": (31, 20, 21, 33, 34, 8, 13, 12, 31, 29, 33, 20, 31, 30, 37, 17),
        "f6": (26, 22, 27, 41, 35, 11, 17, 18, 25, 22, 29, 26, 35, 24, 20, 22),
        "a7": (14, 22, 15, 22, 34, 19, 19, 12, 35, 49, 40, 16, 26, 27, 25, 25),
        "b7": (16, 12, 13, 24, 24, 18, 10, 21, 37, 42, 48, 16, 39, 32, 36, 12),
        "c7": (8, 15, 10, 20, 16, 20, 14, 5, 34, 35, 32, 10, 29, 20, 24, 108),
        "d7": (10, 20, 12, 20, 15, 12, 15, 13, 31, 32, 35, 4, 34, 23, 36, 88),
        "e7": (16, 12, 17, 23, 25, 19, 18, 15, 46, 31, 49, 14, 35, 35, 28, 17),
        "f7": (12, 12, 13, 27, 31, 22, 13, 21, 43, 31, 45, 18, 37, 24, 18, 33),
        "a8": (1, 8, 3, 3, 17, 29, 20, 29, 60, 75, 57, 10, 31, 13, 44, 0),
        "b8": (2, 3, 10, 9, 20, 34, 36, 31, 63, 60, 61, 10, 26, 7, 28, 0),
        "hq8": (1, 22, 27, 1, 30, 23, 5, 5, 5, 7, 10, 1, 4, 0, 259, 0),
        "e8": (1, 6, 8, 3, 14, 26, 24, 36, 79, 67, 57, 10, 28, 9, 32, 0),
        "f8": (3, 7, 7, 16, 16, 35, 27, 29, 61, 69, 53, 9, 21, 8, 39, 0),
    },
)


def main() -> None:
    standard = tables_for("gunjin")
    print("GUNJIN_LAYOUT_COUNTS: tuple[dict[str, tuple[int, ...]], ...] = (")
    for player in (0, 1):
        print("    {")
        for name, row in layout_counts(standard, player).items():
            print(f'        "{name}": {row},')
        print("    },")
    print(")")


if __name__ == "__main__":
    main()
