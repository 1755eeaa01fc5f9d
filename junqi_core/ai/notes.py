"""Deduction notes: what each hidden enemy piece can still be, from certain facts only.

The page's "deduction notes" show a player what the CPU's belief model knows for sure
from that player's own view: the deployment rules, how each piece moved, every combat
outcome and the piece counts.  A kind is listed for a piece exactly when some complete
assignment of kinds to the enemy's pieces (removed ones included) fits every unary fact
and the counts — so the true kind is always among those listed.  (Gunjin's facts about
a flag fighting with the piece behind it are left out: that can only list more, never
less.)  Blind has no per-piece notes: a face-down piece is any piece of the public pool.
"""

from __future__ import annotations

from typing import TypedDict

from junqi_core.ai.belief import BeliefError, BlindPool, BoardTracker, Tracker, matching
from junqi_core.ai.notes_siguo import army_notes
from junqi_core.ai.tables import kinds_of, tables_for
from junqi_core.variants import Variant
from junqi_core.views import COLOUR_NAMES, View


class Label(TypedDict, total=False):
    """A compact, translatable summary of a set of kinds (the page words it)."""

    is_: str  # exactly this kind ("is" in JSON)
    min: str  # this rank or higher ...
    max: str  # ... this rank or lower
    also: list[str]  # ... or one of these unranked kinds (bomb, mine, flag)
    not_: list[str]  # anything but these ("not" in JSON)
    one_of: list[str]


def notes(variant: Variant, view: View, me: int) -> dict:
    """{"pieces": {square: {"kinds": [ids], "label": {...}}}, "unaccounted": [{kind, count,
    colour?}]} for `me`'s view: every enemy piece still on the board whose kind the view
    does not name, and the enemy pieces whose kind is not yet certain.

    With four seats (Siguo): {"armies": [{"seat", "pieces", "unaccounted"}]}, the same
    for each army still in whose ranks `me` does not see (`notes_siguo`)."""
    if variant.seats > 2:
        return army_notes(variant, view, me, lambda options: _json_label(label(variant, options)))
    t = tables_for(variant)
    if variant.has_flips:
        pool = BlindPool(variant, view)
        return {
            "pieces": {},
            "unaccounted": [
                {"kind": t.kind_ids[k], "count": n, "colour": COLOUR_NAMES[c]}
                for (k, c), n in sorted(pool.pool.items())
            ],
        }
    try:
        tracker: Tracker | BoardTracker = Tracker(variant, me)
        tracker.update(view)
    except BeliefError:
        tracker = BoardTracker(variant, view, me)
    domains = possible_kinds(tracker.domains(), t.counts)
    names = t.board.names
    pieces = {}
    certain: dict[int, int] = {}
    for e, mask in domains.items():
        options = kinds_of(mask)
        if len(options) == 1:
            certain[options[0]] = certain.get(options[0], 0) + 1
        square = tracker.square[e]
        if square < 0 or view["board"].get(names[square], {}).get("kind") is not None:
            continue  # removed, or named by the view itself
        pieces[names[square]] = {
            "kinds": [t.kind_ids[k] for k in options],
            "label": _json_label(label(variant, options)),
        }
    unaccounted = [
        {"kind": t.kind_ids[k], "count": n - certain.get(k, 0)}
        for k, n in t.counts.items()
        if n - certain.get(k, 0) > 0
    ]
    return {"pieces": pieces, "unaccounted": unaccounted}


def possible_kinds(domains: dict[int, int], counts: dict[int, int]) -> dict[int, int]:
    """Each identity's mask cut to the kinds it takes in at least one assignment that
    gives every identity a kind of its mask with the counts exact (kind k stays for e
    when a matching exists with e fixed to k)."""
    base = matching(domains, counts)
    if base is None:
        return dict(domains)  # the facts contradict each other: claim nothing more
    out = {}
    for e, mask in domains.items():
        keep = 0
        for k in kinds_of(mask):
            if base[e] == k or matching({**domains, e: 1 << k}, counts) is not None:
                keep |= 1 << k
        out[e] = keep
    return out


def label(variant: Variant, options: list[int]) -> Label:
    """The shortest true summary of a set of kinds: one kind; a range of ranks (with any
    unranked kinds besides); all but a few; or a short list."""
    kinds = {k.kind: k for k in variant.kinds}
    ids = {k: kinds[k].id for k in options}
    if len(options) == 1:
        return {"is_": ids[options[0]]}
    everything = set(kinds)
    chosen = set(options)
    missing = everything - chosen
    ranked = sorted((kinds[k].rank, k) for k in options if kinds[k].rank is not None)
    unranked = [ids[k] for k in options if kinds[k].rank is None]
    all_ranked = sorted((k.rank, k.kind) for k in variant.kinds if k.rank is not None)
    if ranked and _contiguous(ranked, all_ranked):
        low, high = ranked[0], ranked[-1]
        out: Label = {}
        if high == all_ranked[-1] and low != all_ranked[0]:
            out["min"] = kinds[low[1]].id
        elif low == all_ranked[0] and high != all_ranked[-1]:
            out["max"] = kinds[high[1]].id
        elif low != all_ranked[0]:
            out["min"], out["max"] = kinds[low[1]].id, kinds[high[1]].id
        if out and len(unranked) <= 2:
            if unranked:
                out["also"] = unranked
            return out
    if missing and len(missing) <= 3:
        return {"not_": [kinds[k].id for k in sorted(missing)]}
    if len(options) <= 3:
        return {"one_of": [ids[k] for k in options]}
    return {}


def _contiguous(ranked: list[tuple[int, int]], all_ranked: list[tuple[int, int]]) -> bool:
    start = all_ranked.index(ranked[0])
    return all_ranked[start : start + len(ranked)] == ranked


def _json_label(out: Label) -> dict:
    """Python names to the JSON keys ("is", "not")."""
    return {key.rstrip("_"): value for key, value in out.items()}
