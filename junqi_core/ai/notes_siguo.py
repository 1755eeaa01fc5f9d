"""Deduction notes with four seats (Siguo): what each piece of every hidden army can still be.

A seat follows every piece on the board from the post it started on through its own view
(every move and every combat is public: who moved, from where to where, who attacked
whom and how it ended; the ranks only where the seat may know them).  Certain facts only,
so the true kind is always among those listed:
- where the piece started (the deployment rules: a Flag in a headquarters, ...);
- a piece that moved is no Landmine and no Flag; one that went where no piece but an
  Engineer could have gone (round a railway turn, past another piece) is an Engineer;
- every combat between any two seats, the viewer's or not: the pair of kinds must give
  that outcome, and a Flag was taken exactly when its army went out for it
  ("flag_captured") in that event; a kind the event names is certain;
- with the rule "flag shown when the Field Marshal falls": a removed piece whose fall
  showed its army's flag was the Marshal, and one whose fall showed nothing was not;
- a kind the view names (a shown flag; the partner's pieces under `team_open`);
- each army's exact piece counts.
A combat between two hidden pieces ties two armies together: the masks are narrowed
until nothing changes, by each army's counts (`possible_kinds`) and by each combat (a kind
stays for one piece only if some kind of the other piece gives the outcome seen).  Every
step keeps only what some assignment of the facts allows, so nothing true is ever cut.
An army that is out has left the board: there is nothing to note about it.
"""

from __future__ import annotations

import functools

from junqi_core import pieces as pc
from junqi_core.ai.belief import BeliefError, matching, tracked_cells
from junqi_core.ai.tables import kinds_of, mask_of
from junqi_core.pieces import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS
from junqi_core.variants import Variant
from junqi_core.views import View

RESULT_CODES = {"attacker": ATTACKER_WINS, "defender": DEFENDER_WINS, "both": BOTH_REMOVED}
GONE = -1  # an identity's square once it has been removed


def hidden_armies(variant: Variant, me: int) -> list[int]:
    """The seats whose ranks `me` does not see (its partner's too under dark4)."""
    seats = variant.seats
    if variant.visibility == "open":
        return []
    partner = me ^ 2 if variant.visibility == "team_open" else None
    return [s for s in range(seats) if s != me and s != partner]


@functools.cache
def start_masks(variant: Variant) -> tuple[dict[int, int], ...]:
    """Per seat, its starting posts and the kinds the deployment rules allow on each."""
    rules = variant.deployment
    if rules is None:
        raise BeliefError("no deployment to follow pieces from")
    kinds = [k.kind for k in variant.kinds]
    return tuple(
        {s: mask_of(k for k in kinds if rules.placement_error(seat, k, s) is None) for s in squares}
        for seat in range(variant.seats)
        for squares in (rules.squares(seat),)
    )


class SeatTracker:
    """Every piece of a four-seat game followed through one seat's view, with the facts
    about its kind (see the module's docstring)."""

    def __init__(self, variant: Variant, view: View) -> None:
        self.variant = variant
        cls = variant.position_class
        self.cls = cls
        spec = cls.spec
        self.spec = spec
        self.kinds = tuple(k.kind for k in variant.kinds)
        self.counts = {k.kind: k.count for k in variant.kinds}
        self.kind_by_id = {k.id: k.kind for k in variant.kinds}
        self.full = mask_of(self.kinds)
        self.movable = self.full & ~mask_of(k.kind for k in variant.kinds if not k.movable)
        seats = variant.seats
        self.at = [-1] * spec.size  # square -> identity (the square it started on), -1 empty
        self.owner: dict[int, int] = {}
        self.square: dict[int, int] = {}
        self.dom: dict[int, int] = {}
        for seat, masks in enumerate(start_masks(variant)):
            for s, mask in masks.items():
                self.at[s] = s
                self.owner[s] = seat
                self.square[s] = s
                self.dom[s] = mask
        self.known: dict[int, int] = {}
        # (attacker, defender, allowed pairs of kinds as attacker kind -> defender mask)
        self.pairs: list[tuple[int, int, dict[int, int]]] = []
        self.out = [False] * seats
        self._follow(view)

    # --- following the history -------------------------------------------------------------

    def _follow(self, view: View) -> None:
        history = view["history"]
        out_by_event = {gone["player"] for ev in history for gone in ev.get("out") or ()}
        for seat, why in enumerate(view.get("out") or ()):  # type: ignore[misc]
            if why and seat not in out_by_event:
                self._leave(seat)  # out before the first move (no legal move at the start)
        for ev in history:
            if ev.get("type") == "move":
                self._move(ev)
            for gone in ev.get("out") or ():
                self._leave(gone["player"])
        self._check_board(view)

    def _move(self, ev) -> None:
        index = self.spec.index
        frm, to = index[ev["from"]], index[ev["to"]]
        mover = self.at[frm]
        if mover < 0 or self.owner[mover] != ev["player"]:
            raise BeliefError(f"no piece of seat {ev['player']} on {ev['from']} to move")
        self.dom[mover] &= self.movable
        if not self._plain(frm, to):
            self.dom[mover] &= 1 << pc.ENGINEER  # only an Engineer turns on the railway
        combat = ev.get("combat")
        target = self.at[to]
        if not combat:
            if target >= 0:
                raise BeliefError("an attack without a combat result")
            self._place(frm, to, mover)
            return
        if target < 0 or self.owner[target] != combat.get("against", self.owner[target]):
            raise BeliefError(f"no piece to attack on {ev['to']}")
        result = RESULT_CODES[combat["result"]]
        for ident, kind in ((mover, combat.get("attacker")), (target, combat.get("defender"))):
            if kind is not None:
                self.known[ident] = self.kind_by_id[kind]
        defender_seat = self.owner[target]
        flag_taken = any(
            g["player"] == defender_seat and g["reason"] == "flag_captured"
            for g in ev.get("out") or ()
        )
        table = self.cls.combat
        flag = self.cls.flag_kind
        allowed: dict[int, int] = {}
        for a in self.kinds:
            m = 0
            for d in self.kinds:
                if table[a][d] != result:
                    continue
                if result != DEFENDER_WINS and (d == flag) != flag_taken:
                    continue  # a Flag that falls takes its army out, and only a Flag does
                m |= 1 << d
            if m:
                allowed[a] = m
        self.pairs.append((mover, target, allowed))
        removed = []
        if result != ATTACKER_WINS:
            removed.append(mover)
        if result != DEFENDER_WINS:
            removed.append(target)
        if self.variant.flag_shown_on_marshal:
            shown_now = {f["player"] for f in ev.get("flag_shown") or ()}
            marshal = 1 << pc.FIELD_MARSHAL
            for ident in removed:  # (a Marshal that fell before: this one is none)
                if self.owner[ident] in shown_now:
                    self.dom[ident] &= marshal
                else:
                    self.dom[ident] &= ~marshal
        if result == ATTACKER_WINS:
            self.square[target] = GONE
            self._place(frm, to, mover)
        else:
            self.square[mover] = GONE
            self.at[frm] = -1
            if result == BOTH_REMOVED:
                self.square[target] = GONE
                self.at[to] = -1

    def _plain(self, frm: int, to: int) -> bool:
        """Whether a piece other than an Engineer could have gone from `frm` to `to`: one
        step along a road, or straight along a railway line over empty posts."""
        if to in self.spec.road_steps[frm]:
            return True
        at = self.at
        for prefix, ray in self.cls.slides[frm]:  # type: ignore[attr-defined]
            if to not in ray or any(at[s] >= 0 for s in prefix):
                continue
            for s in ray:
                if s == to:
                    return True
                if at[s] >= 0:
                    break
        return False

    def _place(self, frm: int, to: int, ident: int) -> None:
        self.at[to], self.at[frm] = ident, -1
        self.square[ident] = to

    def _leave(self, seat: int) -> None:
        """An army goes out: its pieces leave the board at once."""
        self.out[seat] = True
        for ident, owner in self.owner.items():
            if owner == seat and self.square[ident] >= 0:
                self.at[self.square[ident]] = -1
                self.square[ident] = GONE

    def _check_board(self, view: View) -> None:
        for ident, cell in tracked_cells(view, self.spec.names, self.at, self.owner):
            if cell["kind"] is not None:
                self.known[ident] = self.kind_by_id[cell["kind"]]

    # --- what follows from it --------------------------------------------------------------

    def domains(self) -> dict[int, int]:
        """Per identity, the kinds it can still be (narrowed until nothing changes)."""
        dom = dict(self.dom)
        for ident, kind in self.known.items():
            dom[ident] = 1 << kind
        armies = [[e for e in dom if self.owner[e] == seat] for seat in range(len(self.out))]
        return settle(dom, armies, self.counts, self.pairs)


class BoardOnly:
    """Facts from the board alone, for a view whose history cannot be followed: a piece
    off its own army's starting posts has moved; a kind the view names is certain."""

    def __init__(self, variant: Variant, view: View) -> None:
        cls = variant.position_class
        spec = cls.spec
        rules = variant.deployment
        self.counts = {k.kind: k.count for k in variant.kinds}
        kind_by_id = {k.id: k.kind for k in variant.kinds}
        full = mask_of(self.counts)
        movable = full & ~mask_of(k.kind for k in variant.kinds if not k.movable)
        total = sum(self.counts.values())
        self.owner: dict[int, int] = {}
        self.square: dict[int, int] = {}
        self.dom: dict[int, int] = {}
        self.out = [bool(o) for o in view.get("out") or (None,) * variant.seats]  # type: ignore[misc]
        alive: dict[int, list[int]] = {s: [] for s in range(variant.seats)}
        for name, cell in view["board"].items():
            alive[cell["owner"]].append(spec.index[name])  # type: ignore[index]
        for seat, squares in alive.items():
            starts = set(rules.squares(seat)) if rules else set()
            for s in squares:
                self.owner[s], self.square[s] = seat, s
                self.dom[s] = full if s in starts else movable
                kind = view["board"][spec.names[s]]["kind"]
                if kind is not None:
                    self.dom[s] = 1 << kind_by_id[kind]
            for i in range(total - len(squares)):
                ident = 1000 * (seat + 1) + i
                self.owner[ident], self.square[ident], self.dom[ident] = seat, GONE, full

    def domains(self) -> dict[int, int]:
        armies = [[e for e in self.dom if self.owner[e] == seat] for seat in range(len(self.out))]
        return settle(dict(self.dom), armies, self.counts, [])


def settle(
    dom: dict[int, int],
    armies: list[list[int]],
    counts: dict[int, int],
    pairs: list[tuple[int, int, dict[int, int]]],
) -> dict[int, int]:
    """Narrow the masks until nothing changes: each army's counts (a kind stays for a
    piece when some assignment of the army with exact counts gives it that kind), and
    each combat (a kind stays for one side when some kind of the other gives the
    outcome).  An army whose facts contradict each other (never in a real game) is left as
    it is."""
    army_of = {e: i for i, army in enumerate(armies) for e in army}
    dirty = set(range(len(armies)))  # armies whose masks changed since their counts were read
    while dirty:
        for i in sorted(dirty):
            cut = possible_kinds({e: dom[e] for e in armies[i]}, counts)
            dom.update(cut)
        dirty = set()
        for a_id, d_id, allowed in pairs:
            a_mask, d_mask = dom[a_id], dom[d_id]
            new_a = 0
            new_d = 0
            for a in kinds_of(a_mask):
                reach = allowed.get(a, 0) & d_mask
                if reach:
                    new_a |= 1 << a
                    new_d |= reach
            if not new_a or not new_d:
                continue  # a contradiction (never in a real game): claim nothing more
            if new_a != a_mask:
                dom[a_id] = new_a
                dirty.add(army_of[a_id])
            if new_d != d_mask:
                dom[d_id] = new_d
                dirty.add(army_of[d_id])
    return dom


def possible_kinds(domains: dict[int, int], counts: dict[int, int]) -> dict[int, int]:
    """Each identity's mask cut to the kinds it takes in at least one assignment with
    the counts exact.  From one assignment: identity e may swap its kind k0 for k when a
    chain of others can pass the places on (one holding k takes another kind of its
    mask, ... , one takes k0): a path from k to k0 among the kinds."""
    base = matching(domains, counts)
    if base is None:
        return dict(domains)  # the facts contradict each other: claim nothing more
    moves: dict[int, int] = {}  # kind -> kinds its holders could take instead
    for e, k in base.items():
        moves[k] = moves.get(k, 0) | domains[e]
    reach: dict[int, int] = {}  # kind -> kinds reachable from it (itself included)
    for k in counts:
        seen = 1 << k
        frontier = [k]
        while frontier:
            for nxt in kinds_of(moves.get(frontier.pop(), 0) & ~seen):
                seen |= 1 << nxt
                frontier.append(nxt)
        reach[k] = seen
    out = {}
    for e, mask in domains.items():
        k0 = base[e]
        out[e] = sum(1 << k for k in kinds_of(mask) if reach[k] >> k0 & 1)
    return out


def army_notes(variant: Variant, view: View, me: int, describe) -> dict:
    """{"armies": [{"seat", "pieces", "unaccounted"}]}: per army still in whose ranks the
    seat does not see, as the two-player notes say it for one enemy (`describe(options)`
    gives a piece's label)."""
    hidden = hidden_armies(variant, me)
    ids = {k.kind: k.id for k in variant.kinds}
    counts = {k.kind: k.count for k in variant.kinds}
    names = variant.position_class.spec.names
    out = view.get("out") or [None] * variant.seats  # type: ignore[misc]
    if view["phase"] != "play":
        return {
            "armies": [
                {"seat": s, "pieces": {}, "unaccounted": _unaccounted(counts, {}, ids)}
                for s in hidden
                if not out[s]
            ]
        }
    try:
        tracker: SeatTracker | BoardOnly = SeatTracker(variant, view)
    except BeliefError:
        tracker = BoardOnly(variant, view)
    domains = tracker.domains()
    board = view["board"]
    armies = []
    for seat in hidden:
        if out[seat] or tracker.out[seat]:
            continue  # out: its army has left the board
        pieces = {}
        certain: dict[int, int] = {}
        for e, mask in domains.items():
            if tracker.owner[e] != seat:
                continue
            options = kinds_of(mask)
            if len(options) == 1:
                certain[options[0]] = certain.get(options[0], 0) + 1
            square = tracker.square[e]
            if square < 0 or board.get(names[square], {}).get("kind") is not None:
                continue  # removed, or named by the view itself
            pieces[names[square]] = {
                "kinds": [ids[k] for k in options],
                "label": describe(options),
            }
        armies.append(
            {"seat": seat, "pieces": pieces, "unaccounted": _unaccounted(counts, certain, ids)}
        )
    return {"armies": armies}


def _unaccounted(counts: dict[int, int], certain: dict[int, int], ids: dict[int, str]) -> list:
    return [
        {"kind": ids[k], "count": n - certain.get(k, 0)}
        for k, n in counts.items()
        if n - certain.get(k, 0) > 0
    ]
