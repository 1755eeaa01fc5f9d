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

from junqi_core import pieces as pc
from junqi_core.ai.deploy import gunjin_layout, junqi_layout
from junqi_core.ai.tables import Tables, tables_for

SAMPLES = 400
SEED = 12345
# Each weight is squared: against Medium (seed 2026, 200 games) Gunjin Hard scored 60.5%
# with no prior, 65.5% with the plain ratio and 70% with its square (docs/strength.md)
SHARPNESS = 2.0
# Classic: the prior speaks of the kinds every style places alike (the flag, the mines
# around it, the Bombs); where the officers stand is a matter of style, and a prior
# drawn from the CPU's own layouts (its Marshal kept off the front) made Hard's General
# attack a rushing Marshal it thought a Major General (docs/strength.md, issue 35)
PRIOR_KINDS = {"junqi": frozenset({pc.FLAG, pc.LANDMINE, pc.BOMB})}


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
    spoken = PRIOR_KINDS.get(t.variant.family) or frozenset(kinds)
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
                k: ((n + 1.0) / uniform[k]) ** SHARPNESS if k in spoken else 1.0
                for k, n in zip(kinds, row, strict=True)
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
            "d1": (1, 0, 1, 1, 0, 3, 122, 56, 37, 0, 0, 0),
            "e1": (1, 2, 2, 2, 10, 23, 83, 70, 4, 5, 19, 0),
            "a2": (8, 9, 13, 19, 24, 20, 31, 36, 35, 14, 12, 0),
            "b2": (0, 2, 1, 0, 1, 1, 2, 2, 2, 6, 204, 0),
            "c2": (3, 14, 14, 17, 34, 22, 25, 41, 29, 17, 5, 0),
            "d2": (4, 10, 20, 19, 24, 22, 26, 39, 35, 17, 5, 0),
            "e2": (5, 5, 14, 13, 30, 26, 25, 34, 37, 22, 10, 0),
            "a3": (15, 14, 15, 20, 14, 10, 22, 29, 43, 39, 0, 0),
            "c3": (24, 13, 14, 15, 17, 24, 28, 37, 15, 34, 0, 0),
            "e3": (18, 17, 13, 15, 19, 13, 11, 36, 44, 35, 0, 0),
            "a4": (20, 21, 26, 24, 13, 18, 10, 25, 34, 30, 0, 0),
            "b4": (17, 12, 27, 19, 11, 24, 24, 40, 13, 34, 0, 0),
            "d4": (28, 15, 17, 23, 12, 20, 23, 39, 16, 28, 0, 0),
            "e4": (14, 19, 18, 30, 12, 10, 13, 25, 49, 31, 0, 0),
            "a5": (19, 20, 17, 15, 17, 15, 9, 19, 57, 33, 0, 0),
            "c5": (11, 8, 31, 22, 20, 33, 16, 28, 11, 41, 0, 0),
            "e5": (13, 15, 23, 22, 24, 11, 13, 13, 47, 40, 0, 0),
            "a6": (1, 5, 31, 38, 30, 26, 32, 25, 33, 0, 0, 0),
            "b6": (4, 3, 35, 37, 30, 25, 41, 18, 28, 0, 0, 0),
            "c6": (7, 6, 35, 31, 30, 31, 33, 16, 32, 0, 0, 0),
            "d6": (4, 4, 45, 32, 29, 30, 34, 15, 28, 0, 0, 0),
            "e6": (4, 7, 30, 28, 39, 35, 32, 12, 34, 0, 0, 0),
        },
        "d1": {
            "a1": (2, 3, 2, 2, 12, 19, 49, 72, 7, 3, 8, 0),
            "b1": (2, 1, 0, 1, 0, 1, 93, 51, 24, 6, 0, 0),
            "c1": (1, 0, 0, 0, 1, 0, 3, 5, 0, 4, 165, 0),
            "d1": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 179),
            "e1": (0, 0, 0, 0, 0, 1, 3, 2, 1, 6, 166, 0),
            "a2": (3, 0, 13, 18, 17, 29, 28, 21, 26, 14, 10, 0),
            "b2": (8, 5, 14, 15, 17, 16, 21, 26, 34, 17, 6, 0),
            "c2": (2, 7, 13, 11, 29, 20, 27, 27, 24, 11, 8, 0),
            "d2": (0, 0, 1, 0, 1, 0, 4, 0, 1, 7, 165, 0),
            "e2": (5, 5, 12, 12, 24, 17, 28, 27, 23, 17, 9, 0),
            "a3": (7, 8, 18, 10, 13, 18, 11, 24, 41, 29, 0, 0),
            "c3": (17, 19, 10, 12, 13, 12, 17, 37, 8, 34, 0, 0),
            "e3": (7, 12, 15, 16, 7, 14, 16, 21, 35, 36, 0, 0),
            "a4": (18, 17, 17, 15, 11, 6, 12, 25, 43, 15, 0, 0),
            "b4": (20, 21, 7, 13, 14, 12, 22, 40, 11, 19, 0, 0),
            "d4": (25, 11, 13, 20, 14, 22, 20, 31, 13, 10, 0, 0),
            "e4": (14, 26, 20, 11, 8, 21, 6, 22, 29, 22, 0, 0),
            "a5": (9, 11, 19, 20, 20, 16, 11, 15, 30, 28, 0, 0),
            "c5": (5, 3, 34, 28, 21, 16, 12, 17, 12, 31, 0, 0),
            "e5": (17, 9, 20, 16, 15, 7, 7, 15, 24, 49, 0, 0),
            "a6": (2, 6, 27, 29, 26, 29, 23, 10, 27, 0, 0, 0),
            "b6": (4, 5, 28, 26, 16, 17, 43, 10, 30, 0, 0, 0),
            "c6": (4, 5, 29, 26, 23, 23, 26, 12, 31, 0, 0, 0),
            "d6": (3, 4, 20, 30, 28, 16, 29, 12, 37, 0, 0, 0),
            "e6": (4, 1, 26, 27, 28, 26, 26, 15, 26, 0, 0, 0),
        },
    },
    {
        "b12": {
            "a7": (5, 9, 33, 34, 28, 26, 33, 16, 37, 0, 0, 0),
            "b7": (7, 10, 35, 30, 23, 30, 36, 14, 36, 0, 0, 0),
            "c7": (4, 8, 42, 38, 32, 22, 36, 12, 27, 0, 0, 0),
            "d7": (9, 9, 33, 30, 34, 21, 40, 17, 28, 0, 0, 0),
            "e7": (7, 6, 26, 42, 32, 24, 33, 14, 37, 0, 0, 0),
            "a8": (21, 13, 28, 19, 16, 24, 12, 15, 44, 29, 0, 0),
            "c8": (8, 11, 27, 31, 28, 23, 14, 28, 20, 31, 0, 0),
            "e8": (14, 15, 28, 28, 17, 14, 15, 16, 38, 36, 0, 0),
            "a9": (21, 17, 19, 21, 17, 13, 18, 27, 39, 29, 0, 0),
            "b9": (24, 17, 24, 12, 16, 19, 18, 50, 15, 26, 0, 0),
            "d9": (23, 22, 9, 19, 16, 25, 21, 35, 20, 31, 0, 0),
            "e9": (23, 17, 23, 17, 12, 17, 10, 24, 37, 41, 0, 0),
            "a10": (10, 8, 22, 18, 14, 16, 15, 34, 51, 33, 0, 0),
            "c10": (10, 19, 11, 20, 17, 18, 23, 33, 22, 48, 0, 0),
            "e10": (13, 11, 9, 20, 9, 15, 15, 32, 54, 43, 0, 0),
            "a11": (6, 5, 16, 15, 37, 19, 24, 38, 32, 13, 16, 0),
            "b11": (1, 0, 6, 0, 0, 2, 3, 1, 1, 6, 201, 0),
            "c11": (6, 9, 19, 14, 19, 27, 35, 37, 28, 19, 8, 0),
            "d11": (5, 7, 14, 16, 21, 22, 40, 39, 34, 12, 11, 0),
            "e11": (3, 8, 15, 16, 36, 35, 20, 34, 30, 16, 8, 0),
            "a12": (0, 0, 0, 0, 0, 3, 3, 4, 0, 12, 199, 0),
            "b12": (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 221),
            "c12": (0, 0, 0, 0, 1, 0, 2, 4, 0, 10, 204, 0),
            "d12": (0, 0, 0, 1, 1, 1, 133, 55, 28, 2, 0, 0),
            "e12": (1, 0, 3, 1, 16, 26, 64, 84, 5, 5, 16, 0),
        },
        "d12": {
            "a7": (3, 1, 31, 26, 19, 34, 19, 14, 32, 0, 0, 0),
            "b7": (6, 3, 34, 27, 22, 20, 26, 14, 27, 0, 0, 0),
            "c7": (5, 7, 33, 23, 22, 15, 28, 22, 24, 0, 0, 0),
            "d7": (3, 4, 27, 21, 28, 18, 29, 19, 30, 0, 0, 0),
            "e7": (4, 2, 18, 39, 35, 24, 27, 12, 18, 0, 0, 0),
            "a8": (11, 15, 13, 22, 12, 13, 12, 5, 43, 33, 0, 0),
            "c8": (12, 5, 24, 15, 18, 20, 16, 24, 9, 36, 0, 0),
            "e8": (10, 13, 23, 20, 6, 12, 12, 13, 38, 32, 0, 0),
            "a9": (17, 19, 19, 10, 12, 13, 5, 28, 34, 22, 0, 0),
            "b9": (12, 16, 14, 18, 22, 13, 17, 26, 7, 34, 0, 0),
            "d9": (16, 17, 19, 18, 11, 27, 14, 24, 10, 23, 0, 0),
            "e9": (17, 13, 11, 17, 16, 13, 15, 23, 32, 22, 0, 0),
            "a10": (11, 10, 16, 21, 14, 10, 17, 23, 29, 28, 0, 0),
            "c10": (18, 15, 12, 12, 14, 12, 20, 38, 10, 28, 0, 0),
            "e10": (12, 12, 14, 14, 10, 13, 15, 29, 35, 25, 0, 0),
            "a11": (5, 7, 13, 16, 22, 21, 22, 30, 30, 10, 3, 0),
            "b11": (6, 8, 12, 10, 15, 22, 27, 30, 31, 11, 7, 0),
            "c11": (6, 7, 12, 7, 24, 17, 27, 28, 40, 6, 5, 0),
            "d11": (0, 0, 1, 5, 1, 1, 1, 1, 1, 6, 162, 0),
            "e11": (5, 3, 9, 13, 17, 21, 20, 28, 34, 19, 10, 0),
            "a12": (0, 2, 2, 4, 13, 18, 53, 57, 1, 11, 18, 0),
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
