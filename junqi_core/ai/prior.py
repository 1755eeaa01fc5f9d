"""How deployments usually look: a prior over the kind on each enemy start square.

Sampling worlds uniformly treats every layout the rules allow as equally likely.  Real
layouts are not.  In Gunjin most keep a mine in the headquarters (only a Plane or an
Engineer clears it, and neither can occupy), so a uniform belief, which puts a mine there
about one time in eleven, sends officers to die on it.  In Classic the flag's gates are
mined far more often than the two back ranks' other posts, and Bombs stand where rushes
come; a uniform belief sends the Field Marshal onto a gate of the flag, where a mine is
likelier than not.  Hard's belief weighs each kind on each start square by how often the
CPU's own layouts put it there, against how often a uniform layout would (squared:
`SHARPNESS`).

The counts are of `SAMPLES` layouts per seat drawn from a fixed seed, mixing the ways the
levels deploy (`layout_counts`).  They are stored (`LAYOUT_COUNTS`) because drawing them
takes about a second in the page; `python -m junqi_core.ai.prior` prints them anew, and a
test checks that they are still what the layouts give.  Every Gunjin rule option keeps the
board, the pieces and the deployment rules, so one prior serves them all; in Classic the
options that keep the board (all but the 60-post board) share the standard one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from junqi_core.ai.deploy import gunjin_layout, junqi_layout
from junqi_core.ai.tables import Tables, tables_for

SAMPLES = 400
SEED = 12345
# Each weight is squared: against Medium (seed 2026, 200 games) Gunjin Hard scored 60.5%
# with no prior, 65.5% with the plain ratio and 70% with its square (docs/strength.md)
SHARPNESS = 2.0


def layout_counts(t: Tables, player: int) -> dict[str, dict[str, tuple[int, ...]]]:
    """Per start square (by name), how many of the layouts under the rules `t` put each
    kind there (kinds in `t.kinds` order), kept apart by where the flag stands (Classic:
    its headquarters, which decides where the mines go) or all together ("any", Gunjin).
    Gunjin: one in four layouts is fortified (a mine in the HQ always, as Hard deploys),
    one in four has no HQ mine preference (Easy), and half keep a mine in the HQ unless
    it holds the flag's guard (Medium).  Classic: one in three is fortified (every gate
    of the flag mined, the Marshal and General off the rush lanes, as Hard deploys)."""
    rng = random.Random(SEED)
    names = t.board.names
    kinds = t.kinds
    gunjin = t.variant.family == "gunjin"
    counts: dict[str, dict[int, list[int]]] = {}
    for i in range(SAMPLES):
        if gunjin:
            hq_mine = None if i % 2 == 0 else 1.0
            layout = gunjin_layout(t, player, rng, hq_mine, i % 4 == 0)
            key = "any"
        else:
            layout = junqi_layout(t, player, rng, i % 3 == 0)
            key = names[next(s for s, k in layout.items() if k == t.cls.flag_kind)]
        table = counts.setdefault(key, {s: [0] * len(kinds) for s in t.start_squares[player]})
        for s, k in layout.items():
            table[s][kinds.index(k)] += 1
    return {
        key: {names[s]: tuple(c) for s, c in table.items()} for key, table in sorted(counts.items())
    }


@dataclass(frozen=True)
class Prior:
    """How `player`'s layouts usually look: per start square and kind a weight (how
    often the kind stands there, against a uniform layout), given where the flag stands
    (`given`); and where the flag stands (`flag`: start square -> share of layouts;
    empty when the weights do not depend on it)."""

    flag: dict[int, float]
    weights: dict[int | None, dict[int, dict[int, float]]]

    def given(self, flag_square: int | None) -> dict[int, dict[int, float]]:
        return self.weights[flag_square]


@cache
def deployment_prior(t: Tables, player: int) -> Prior | None:
    """The prior of `player`'s layouts under the rules `t`: each kind's weight on each
    start square is how often it stands there in `SAMPLES` layouts of the standard rules
    (Classic: those with the flag where it is), against the uniform expectation (one
    added to both, so that no kind the rules allow is ruled out), to the power
    `SHARPNESS`.  None for a board the stored counts were not drawn on."""
    stored = LAYOUT_COUNTS.get(t.variant.family)
    index = t.board.index
    if stored is None:
        return None
    tables = stored[player]
    if any(name not in index for table in tables.values() for name in table):
        return None
    kinds = t.kinds
    counts = t.counts
    pieces = sum(counts.values())
    flag: dict[int, float] = {}
    weights: dict[int | None, dict[int, dict[int, float]]] = {}
    for key, table in tables.items():
        layouts = SAMPLES
        where = None
        if key != "any":
            where = index[key]
            layouts = table[key][kinds.index(t.cls.flag_kind)]  # every layout has its flag
            flag[where] = layouts / SAMPLES
        uniform = {k: layouts * counts[k] / pieces + 1.0 for k in kinds}
        weights[where] = {
            index[name]: {
                k: ((n + 1.0) / uniform[k]) ** SHARPNESS for k, n in zip(kinds, row, strict=True)
            }
            for name, row in table.items()
        }
    return Prior(flag, weights)


# layout_counts(standard Classic, 0) and (..., 1), by the flag's HQ
# (regenerate: `python -m junqi_core.ai.prior`)
JUNQI_LAYOUT_COUNTS: tuple[dict[str, dict[str, tuple[int, ...]]], ...] = (
    {
        "b1": {
            "a1": (0, 0, 0, 0, 0, 0, 4, 1, 0, 9, 207, 0),
            "b1": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 221),
            "c1": (0, 0, 0, 0, 2, 0, 4, 7, 0, 7, 201, 0),
            "d1": (1, 0, 1, 1, 0, 3, 124, 55, 36, 0, 0, 0),
            "e1": (1, 2, 2, 2, 10, 23, 84, 68, 5, 5, 19, 0),
            "a2": (8, 8, 13, 20, 24, 20, 30, 37, 35, 14, 12, 0),
            "b2": (0, 2, 1, 0, 1, 1, 2, 2, 2, 6, 204, 0),
            "c2": (2, 10, 14, 16, 33, 23, 26, 42, 31, 19, 5, 0),
            "d2": (5, 12, 22, 17, 26, 21, 25, 37, 33, 18, 5, 0),
            "e2": (4, 8, 12, 14, 30, 26, 24, 33, 39, 21, 10, 0),
            "a3": (16, 11, 14, 22, 15, 8, 22, 31, 43, 39, 0, 0),
            "c3": (18, 12, 14, 14, 17, 27, 27, 40, 16, 36, 0, 0),
            "e3": (17, 16, 16, 17, 17, 13, 10, 36, 45, 34, 0, 0),
            "a4": (20, 19, 27, 22, 14, 16, 11, 22, 35, 35, 0, 0),
            "b4": (18, 9, 25, 20, 12, 25, 25, 42, 12, 33, 0, 0),
            "d4": (23, 12, 18, 19, 16, 18, 25, 41, 17, 32, 0, 0),
            "e4": (12, 17, 18, 32, 10, 14, 14, 25, 48, 31, 0, 0),
            "a5": (19, 22, 19, 16, 14, 13, 6, 19, 54, 39, 0, 0),
            "c5": (23, 19, 28, 22, 19, 35, 16, 27, 14, 18, 0, 0),
            "e5": (13, 15, 22, 22, 23, 9, 14, 12, 45, 46, 0, 0),
            "a6": (1, 5, 31, 37, 34, 27, 31, 24, 31, 0, 0, 0),
            "b6": (5, 4, 36, 36, 28, 24, 40, 20, 28, 0, 0, 0),
            "c6": (7, 6, 35, 32, 29, 32, 33, 15, 32, 0, 0, 0),
            "d6": (4, 5, 45, 32, 29, 29, 34, 15, 28, 0, 0, 0),
            "e6": (4, 7, 29, 29, 39, 35, 32, 12, 34, 0, 0, 0),
        },
        "d1": {
            "a1": (2, 2, 2, 2, 13, 18, 49, 72, 6, 5, 8, 0),
            "b1": (1, 2, 0, 1, 1, 2, 91, 51, 26, 4, 0, 0),
            "c1": (1, 0, 0, 0, 1, 0, 3, 5, 0, 4, 165, 0),
            "d1": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 179),
            "e1": (0, 0, 0, 0, 0, 1, 3, 2, 1, 6, 166, 0),
            "a2": (4, 0, 13, 18, 16, 29, 29, 19, 27, 14, 10, 0),
            "b2": (6, 3, 13, 14, 18, 17, 24, 26, 35, 17, 6, 0),
            "c2": (2, 8, 14, 12, 27, 20, 28, 24, 23, 13, 8, 0),
            "d2": (0, 0, 1, 0, 1, 0, 4, 0, 1, 7, 165, 0),
            "e2": (7, 4, 14, 11, 25, 17, 23, 31, 22, 16, 9, 0),
            "a3": (6, 7, 19, 10, 13, 18, 11, 25, 41, 29, 0, 0),
            "c3": (14, 12, 10, 13, 13, 14, 21, 32, 10, 40, 0, 0),
            "e3": (9, 14, 12, 15, 7, 10, 15, 31, 34, 32, 0, 0),
            "a4": (15, 17, 18, 16, 11, 8, 13, 24, 40, 17, 0, 0),
            "b4": (18, 14, 9, 15, 15, 16, 22, 41, 11, 18, 0, 0),
            "d4": (13, 12, 16, 21, 15, 22, 21, 33, 12, 14, 0, 0),
            "e4": (14, 21, 19, 13, 10, 19, 6, 21, 30, 26, 0, 0),
            "a5": (8, 11, 22, 22, 14, 13, 9, 12, 35, 33, 0, 0),
            "c5": (23, 18, 29, 22, 21, 19, 14, 17, 6, 10, 0, 0),
            "e5": (16, 10, 18, 16, 16, 4, 7, 14, 25, 53, 0, 0),
            "a6": (2, 6, 29, 26, 28, 29, 24, 8, 27, 0, 0, 0),
            "b6": (5, 6, 27, 25, 13, 19, 41, 12, 31, 0, 0, 0),
            "c6": (4, 5, 25, 29, 25, 21, 26, 11, 33, 0, 0, 0),
            "d6": (5, 6, 22, 30, 26, 17, 28, 11, 34, 0, 0, 0),
            "e6": (4, 1, 26, 27, 29, 25, 25, 15, 27, 0, 0, 0),
        },
    },
    {
        "b12": {
            "a7": (5, 9, 32, 34, 27, 26, 34, 16, 38, 0, 0, 0),
            "b7": (8, 12, 35, 30, 23, 31, 34, 14, 34, 0, 0, 0),
            "c7": (4, 8, 43, 36, 33, 21, 36, 11, 29, 0, 0, 0),
            "d7": (8, 8, 33, 34, 33, 21, 41, 16, 27, 0, 0, 0),
            "e7": (7, 6, 27, 40, 34, 23, 33, 14, 37, 0, 0, 0),
            "a8": (21, 13, 25, 18, 16, 23, 11, 15, 47, 32, 0, 0),
            "c8": (22, 24, 23, 29, 28, 25, 13, 27, 15, 15, 0, 0),
            "e8": (14, 15, 32, 26, 14, 15, 14, 17, 35, 39, 0, 0),
            "a9": (22, 12, 21, 21, 17, 8, 17, 31, 39, 33, 0, 0),
            "b9": (20, 24, 21, 16, 16, 19, 19, 46, 17, 23, 0, 0),
            "d9": (21, 13, 12, 20, 17, 29, 22, 35, 20, 32, 0, 0),
            "e9": (21, 15, 22, 18, 13, 14, 11, 25, 39, 43, 0, 0),
            "a10": (8, 7, 23, 18, 14, 17, 13, 33, 54, 34, 0, 0),
            "c10": (8, 17, 12, 20, 17, 17, 25, 36, 19, 50, 0, 0),
            "e10": (11, 12, 9, 18, 9, 17, 16, 33, 53, 43, 0, 0),
            "a11": (6, 4, 15, 16, 37, 18, 24, 38, 34, 13, 16, 0),
            "b11": (1, 0, 6, 0, 0, 2, 3, 1, 1, 6, 201, 0),
            "c11": (6, 9, 20, 14, 18, 29, 32, 36, 29, 20, 8, 0),
            "d11": (5, 6, 13, 17, 22, 20, 41, 41, 31, 14, 11, 0),
            "e11": (2, 7, 15, 15, 35, 36, 22, 32, 33, 16, 8, 0),
            "a12": (0, 0, 0, 0, 0, 3, 3, 4, 0, 12, 199, 0),
            "b12": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 221),
            "c12": (0, 0, 0, 0, 1, 0, 2, 4, 0, 10, 204, 0),
            "d12": (0, 0, 0, 1, 1, 2, 132, 57, 27, 1, 0, 0),
            "e12": (1, 0, 3, 1, 17, 26, 65, 81, 5, 6, 16, 0),
        },
        "d12": {
            "a7": (3, 1, 31, 26, 19, 35, 19, 13, 32, 0, 0, 0),
            "b7": (8, 5, 34, 27, 22, 20, 26, 13, 24, 0, 0, 0),
            "c7": (5, 7, 32, 22, 24, 14, 26, 22, 27, 0, 0, 0),
            "d7": (6, 3, 29, 23, 26, 17, 27, 19, 29, 0, 0, 0),
            "e7": (4, 2, 17, 38, 34, 27, 27, 10, 20, 0, 0, 0),
            "a8": (11, 17, 15, 20, 10, 12, 12, 3, 40, 39, 0, 0),
            "c8": (19, 15, 24, 16, 20, 20, 13, 24, 11, 17, 0, 0),
            "e8": (11, 13, 18, 16, 5, 8, 13, 17, 39, 39, 0, 0),
            "a9": (16, 15, 20, 16, 13, 12, 8, 26, 32, 21, 0, 0),
            "b9": (13, 18, 15, 16, 21, 14, 13, 31, 10, 28, 0, 0),
            "d9": (9, 15, 16, 19, 12, 27, 18, 23, 9, 31, 0, 0),
            "e9": (14, 10, 16, 16, 17, 14, 13, 25, 29, 25, 0, 0),
            "a10": (13, 8, 15, 20, 13, 10, 23, 22, 30, 25, 0, 0),
            "c10": (18, 16, 12, 14, 12, 13, 18, 38, 10, 28, 0, 0),
            "e10": (11, 12, 15, 13, 11, 12, 14, 28, 34, 29, 0, 0),
            "a11": (3, 5, 12, 17, 24, 21, 21, 33, 31, 9, 3, 0),
            "b11": (4, 8, 12, 10, 14, 22, 29, 31, 31, 11, 7, 0),
            "c11": (7, 5, 11, 7, 25, 18, 25, 28, 40, 8, 5, 0),
            "d11": (0, 0, 1, 5, 1, 1, 1, 1, 1, 6, 162, 0),
            "e11": (4, 3, 9, 13, 17, 21, 22, 26, 35, 19, 10, 0),
            "a12": (0, 1, 3, 4, 13, 19, 54, 55, 1, 11, 18, 0),
            "b12": (0, 0, 0, 0, 3, 0, 110, 42, 22, 2, 0, 0),
            "c12": (0, 0, 1, 0, 0, 0, 4, 1, 0, 8, 165, 0),
            "d12": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 179),
            "e12": (0, 0, 0, 0, 2, 1, 1, 6, 0, 2, 167, 0),
        },
    },
)

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


LAYOUT_COUNTS = {
    "junqi": JUNQI_LAYOUT_COUNTS,
    "gunjin": tuple({"any": counts} for counts in GUNJIN_LAYOUT_COUNTS),
}


def main() -> None:
    for family, variant in (("junqi", "classic"), ("gunjin", "gunjin")):
        standard = tables_for(variant)
        if family == "junqi":
            print("JUNQI_LAYOUT_COUNTS: tuple[dict[str, dict[str, tuple[int, ...]]], ...] = (")
        else:
            print("GUNJIN_LAYOUT_COUNTS: tuple[dict[str, tuple[int, ...]], ...] = (")
        for player in (0, 1):
            print("    {")
            for key, table in layout_counts(standard, player).items():
                indent = "        "
                if family == "junqi":
                    print(f'{indent}"{key}": {{')
                    indent += "    "
                for name, row in table.items():
                    print(f'{indent}"{name}": {row},')
                if family == "junqi":
                    print("        },")
            print("    },")
        print(")")


if __name__ == "__main__":
    main()
