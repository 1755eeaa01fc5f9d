"""How likely each kind is to have done what an enemy piece did (Classic): a behaviour model.

The view carries every move each enemy piece made.  A landmine and the flag never move; a
Bomb mostly waits and then charges; a Marshal goes forward early and attacks; a weak piece
runs from our pieces.  `Acts` (kept by the belief's `Tracker`) counts, per enemy piece,
what it did: how often it moved, attacked, moved toward or away from our nearest piece,
ran along a railway, stood or ran while one of ours stood next to it, and where it is
now.  `features` turns that into a few small codes, each read against the ply (bucketed:
an early mover says more than a late one).  `BehaviourModel.likelihoods` gives, per
identity and kind, P(what it did | kind) as a product of one smoothed count table per
code (naive Bayes), each raised to a weight: the codes are not independent, and a style
one player has need not hold for the next, so the weights were fitted leaving one
player out at a time (each player's pieces judged by tables learned without its games).
The start post is one more factor: where many players put each kind (left and right
alike).

The tables are counts from a corpus of seeded games between many players (every gauntlet
bot, random and the levels), stored in `behaviour_tables` and rebuilt by
`python3 bench/behaviour_corpus.py` (docs/strength.md, "Behaviour model").  They are
read only against the standard Classic board (`supports`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

from junqi_core import pieces as pc
from junqi_core.variants import Variant

PLY_EDGES = (10, 20, 40, 80, 160)  # ply buckets: [0, 10), [10, 20), ... [160, inf)
# the codes read against the ply bucket, and how many values each takes
CODES: dict[str, int] = {
    "moves": 5,  # moves made: 0, 1, 2, 3-5, 6+
    "attacks": 3,  # attacks made: 0, 1, 2+
    "approach": 9,  # moves toward our nearest piece (0, 1, 2+) x moves away (0, 1, 2+)
    "threat": 8,  # turns it stood next to one of ours (0, 1, 2-3, 4+) x ran from one (0, 1+)
    "runs": 3,  # moves of more than one step (railway runs): 0, 1, 2+
    "zone": 5,  # unmoved, removed, own back two rows, own other rows, the enemy half
}
SQUARES = 30  # start posts of one side, counted from that side's back rank (seat 0's view)
SMOOTH = 4.0  # pseudo-counts toward the all-kinds frequency of a value
POSTS = "mirror"  # how the start post is read (`BehaviourModel`)


def ply_bucket(ply: int) -> int:
    for i, edge in enumerate(PLY_EDGES):
        if ply < edge:
            return i
    return len(PLY_EDGES)


def _bucket(n: int, edges: Sequence[int]) -> int:
    """How many of `edges` n reaches (edges ascending)."""
    b = 0
    for e in edges:
        if n >= e:
            b += 1
    return b


@functools.cache
def supports(variant: Variant) -> bool:
    """Whether the model reads this variant: Classic's standard 60-post board."""
    spec = variant.position_class.spec
    kinds = {k.kind for k in variant.kinds}
    return (
        {pc.BOMB, pc.LANDMINE, pc.FIELD_MARSHAL} <= kinds
        and not variant.flag_behind
        and spec.size == 63
        and not variant.has_flips
        and len(spec.home[0]) == SQUARES
        and len(spec.home[1]) == SQUARES
    )


@functools.cache
def _geometry(variant: Variant) -> tuple[tuple[tuple[float, float], ...], tuple[int, ...]]:
    """(coordinates per square, mirror: seat-1 square -> the seat-0 square it matches)."""
    spec = variant.position_class.spec
    coords = spec.coords
    top = max(y for _, y in coords)
    where = {c: s for s, c in enumerate(coords)}
    mirror = tuple(where.get((x, top - y), s) for s, (x, y) in enumerate(coords))
    return coords, mirror


class PieceActs:
    """What one enemy piece has done so far."""

    __slots__ = ("attacks", "away", "fled", "moves", "runs", "stood", "toward")

    def __init__(self) -> None:
        self.moves = self.attacks = self.toward = self.away = 0
        self.stood = self.fled = self.runs = 0


class Acts:
    """Per enemy identity, what it did (see the module's docstring); fed by the Tracker
    with every enemy move before the move is applied."""

    def __init__(self, variant: Variant, me: int, enemy_ids: Iterable[int]) -> None:
        self.variant = variant
        self.me = me
        self.coords, self.mirror = _geometry(variant)
        spec = variant.position_class.spec
        self.neighbours = spec.neighbours
        self.top = max(y for _, y in self.coords)
        self.half = self.top / 2
        self.of: dict[int, PieceActs] = {e: PieceActs() for e in enemy_ids}

    def _nearest(self, square: int, ours: list[int]) -> float:
        x, y = self.coords[square]
        best = 99.0
        for s in ours:
            ox, oy = self.coords[s]
            d = abs(ox - x) + abs(oy - y)
            if d < best:
                best = d
        return best

    def enemy_move(self, tracker, frm: int, to: int, mover: int, attack: bool) -> None:
        """Count the move frm -> to of enemy identity `mover` (an attack if `attack`),
        with the board as it stood before it."""
        at, owner, me = tracker.at, tracker.owner, self.me
        ours = [s for s, i in enumerate(at) if i >= 0 and owner[i] == me]
        for e, s in tracker.square.items():
            if s < 0 or owner[e] == me:
                continue
            threatened = False
            for n in self.neighbours[s]:
                i = at[n]
                if i >= 0 and owner[i] == me:
                    threatened = True
                    break
            if not threatened:
                continue
            acts = self.of[e]
            if e != mover:
                acts.stood += 1
            elif not attack:
                acts.fled += 1
        acts = self.of[mover]
        acts.moves += 1
        (x0, y0), (x1, y1) = self.coords[frm], self.coords[to]
        if abs(x1 - x0) + abs(y1 - y0) > 1.01:
            acts.runs += 1
        if attack:
            acts.attacks += 1
            acts.toward += 1
            return
        if ours:
            before = self._nearest(frm, ours)
            after = self._nearest(to, ours)
            if after < before:
                acts.toward += 1
            elif after > before:
                acts.away += 1

    def codes(self, ident: int, square: int) -> tuple[int, ...]:
        """The codes of CODES for one identity now standing on `square` (-1: removed)."""
        a = self.of[ident]
        if a.moves == 0:
            zone = 1 if square < 0 else 0
        elif square < 0:
            zone = 1
        else:
            y = self.coords[square][1]
            if self.me == 0:  # the enemy's own back rank is the far edge
                y = self.top - y
            zone = 2 if y < 2 else (3 if y < self.half else 4)
        return (
            _bucket(a.moves, (1, 2, 3, 6)),
            _bucket(a.attacks, (1, 2)),
            3 * _bucket(a.toward, (1, 2)) + _bucket(a.away, (1, 2)),
            2 * _bucket(a.stood, (1, 2, 4)) + _bucket(a.fled, (1,)),
            _bucket(a.runs, (1, 2)),
            zone,
        )

    def start_post(self, ident: int) -> int:
        """The identity's start square as a post counted from its own back rank (0..29)."""
        s = ident if self.me == 1 else self.mirror[ident]
        return s


def features(tracker, ply: int) -> dict[int, tuple[int, int, tuple[int, ...]]]:
    """Per enemy identity: (ply bucket, start post, codes) from the tracker's `acts`."""
    acts: Acts = tracker.acts
    pb = ply_bucket(ply)
    return {
        e: (pb, acts.start_post(e), acts.codes(e, tracker.square[e])) for e in tracker.enemy_ids
    }


COMPONENTS = ("posts", *CODES)  # the factors of the likelihood, each with its weights
# each factor's weight depends on the kind's group: a style that holds across players for
# one kind (where the mines go) need not for another (where the Bombs go)
GROUPS = ("still", "bomb", "top", "rest")
GROUP_OF = {pc.LANDMINE: 0, pc.FLAG: 0, pc.BOMB: 1, pc.FIELD_MARSHAL: 2, pc.GENERAL: 2}


class BehaviourModel:
    """Smoothed count tables: P(code value | kind, ply bucket) and P(start post | kind),
    each against all kinds' frequency, raised to a weight per factor and group of kinds
    (`weights[name][group]`, names in COMPONENTS, groups in GROUPS; 0 leaves it out).

    `counts["codes"][name][pb][kind]` is a list of counts per value; `counts["posts"][kind]`
    a list of 30 counts (seat 0's posts)."""

    def __init__(
        self, counts: dict, weights: dict[str, Sequence[float]], posts: str = POSTS
    ) -> None:
        """`posts`: how the start post is read ("full": each post; "mirror": a post and
        its mirror image left to right alike, so that which headquarters holds the flag,
        a matter of style, is not learned)."""
        self.kinds = sorted(int(k) for k in counts["posts"])
        zero = (0.0,) * len(GROUPS)
        self.weights = {
            k: tuple(float(weights.get(name, zero)[GROUP_OF.get(k, 3)]) for name in COMPONENTS)
            for k in self.kinds
        }
        self.log_codes: list[list[dict[int, list[float]]]] = []
        for name, size in CODES.items():
            per_pb = []
            for pb_counts in counts["codes"][name]:
                per_pb.append(_smoothed({int(k): v for k, v in pb_counts.items()}, size))
            self.log_codes.append(per_pb)
        rows = {int(k): list(v) for k, v in counts["posts"].items()}
        if posts == "mirror":
            width = 5
            for k, row in rows.items():
                rows[k] = [
                    row[p] + row[p - p % width + width - 1 - p % width] for p in range(SQUARES)
                ]
        self.log_posts = _smoothed(rows, SQUARES)

    def components(self, pb: int, post: int, codes: Sequence[int], kind: int) -> list[float]:
        """log P(factor's value | kind) per factor of COMPONENTS, unweighted."""
        out = [self.log_posts[kind][post]]
        for table, value in zip(self.log_codes, codes, strict=True):
            out.append(table[pb][kind][value])
        return out

    def log_likelihood(self, pb: int, post: int, codes: Sequence[int], kind: int) -> float:
        """The weighted sum of `components`."""
        total = 0.0
        parts = self.components(pb, post, codes, kind)
        for w, c in zip(self.weights[kind], parts, strict=True):
            if w:
                total += w * c
        return total

    def likelihoods(self, tracker, ply: int) -> dict[int, dict[int, float]]:
        """Per enemy identity, each kind's weighted likelihood, the best scaled to 1."""
        out: dict[int, dict[int, float]] = {}
        for e, (pb, post, codes) in features(tracker, ply).items():
            logs = {k: self.log_likelihood(pb, post, codes, k) for k in self.kinds}
            top = max(logs.values())
            out[e] = {k: math.exp(max(v - top, -40.0)) for k, v in logs.items()}
        return out


def _smoothed(table: dict[int, list[int]], size: int) -> dict[int, list[float]]:
    """log P(value | kind) / P(value): counts plus SMOOTH pseudo-counts spread like all
    kinds' values, against all kinds' frequency (so that a factor weighed 0 for a kind
    leaves that kind where the average kind is)."""
    pooled = [1.0] * size
    for row in table.values():
        for v, c in enumerate(row):
            pooled[v] += c
    total = sum(pooled)
    base = [p / total for p in pooled]
    out = {}
    for k, row in table.items():
        n = sum(row)
        out[k] = [
            math.log((c + SMOOTH * b) / (n + SMOOTH) / b) for c, b in zip(row, base, strict=True)
        ]
    return out


@functools.cache
def stored_model() -> BehaviourModel | None:
    """The model from the stored tables (None if none are stored)."""
    from junqi_core.ai import behaviour_tables

    if not behaviour_tables.COUNTS:
        return None
    return BehaviourModel(behaviour_tables.COUNTS, behaviour_tables.WEIGHTS)


__all__ = [
    "CODES",
    "COMPONENTS",
    "GROUPS",
    "GROUP_OF",
    "Acts",
    "BehaviourModel",
    "features",
    "ply_bucket",
    "stored_model",
    "supports",
]
