"""What a bot knows of the rules and of the enemy's hidden pieces.

`Rules`: one variant's rules data as the bots read it (one place to adapt to rule
options), with the bots' own piece values and step counts between squares.

`Tracker` (Classic, Gunjin) follows each enemy piece through the view's history: the
kinds its start square allows, whether it moved and how (a turn along a railway is an
Engineer, a Gunjin jump a Plane), every combat outcome against a piece of ours, and piece
counts (a kind whose every piece is accounted for is struck from the others).  The
chance of each kind is its count still unaccounted for, spread over the pieces that may
be that kind.  Nothing here comes from `junqi_core.ai`.
"""

from __future__ import annotations

import functools
from collections import Counter

from junqi_core import pieces as pc
from junqi_core.pieces import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS
from junqi_core.rules import Position
from junqi_core.variants import Variant

OUTCOMES = {"attacker": ATTACKER_WINS, "defender": DEFENDER_WINS, "both": BOTH_REMOVED}

# What a piece is worth to a bot (its own simple scale; a flag that ends the game is
# worth more than everything else together).
VALUES = {
    "classic": {
        pc.FIELD_MARSHAL: 10.0, pc.GENERAL: 8.0, pc.MAJOR_GENERAL: 6.0, pc.BRIGADIER: 4.5,
        pc.COLONEL: 3.5, pc.MAJOR: 2.5, pc.CAPTAIN: 2.0, pc.LIEUTENANT: 1.5,
        pc.ENGINEER: 2.5, pc.BOMB: 5.0, pc.LANDMINE: 2.5, pc.FLAG: 100.0,
    },
    "gunjin": {
        pc.ARMY_GENERAL: 10.0, pc.LIEUTENANT_GENERAL: 8.0, pc.G_MAJOR_GENERAL: 7.0,
        pc.PLANE: 6.5, pc.TANK: 6.0, pc.G_COLONEL: 5.0, pc.LIEUTENANT_COLONEL: 4.5,
        pc.G_MAJOR: 4.0, pc.G_CAPTAIN: 3.0, pc.FIRST_LIEUTENANT: 2.5,
        pc.SECOND_LIEUTENANT: 2.0, pc.CAVALRY: 2.0, pc.G_ENGINEER: 3.0, pc.SPY: 4.0,
        pc.MINE: 3.0, pc.G_FLAG: 8.0,
    },
}  # fmt: skip
VALUES["blind"] = VALUES["classic"]

# Gunjin movement classes: how a kind may move, for the reach of unknown pieces.
STEP, DOUBLE, RUNNER, FLYER, STILL = "step", "double", "runner", "flyer", "still"
GUNJIN_CLASS = {k.kind: STEP for k in pc.GUNJIN_KINDS}
GUNJIN_CLASS.update({pc.TANK: DOUBLE, pc.CAVALRY: DOUBLE, pc.G_ENGINEER: RUNNER, pc.PLANE: FLYER})
GUNJIN_CLASS.update({pc.MINE: STILL, pc.G_FLAG: STILL})
GUNJIN_REP = {STEP: pc.G_CAPTAIN, DOUBLE: pc.TANK, RUNNER: pc.G_ENGINEER, FLYER: pc.PLANE}
# Classic: an Engineer turns along railways, the others run straight.
JUNQI_CLASS = {k.kind: STEP for k in pc.JUNQI_KINDS}
JUNQI_CLASS.update({pc.ENGINEER: RUNNER, pc.LANDMINE: STILL, pc.FLAG: STILL})
JUNQI_REP = {STEP: pc.LIEUTENANT, RUNNER: pc.ENGINEER}


class Rules:
    """The rules data of one Variant (rule options included), as a bot reads them.
    `variant` is the style a bot plays: `classic`, `blind` or `gunjin`."""

    def __init__(self, rules: Variant) -> None:
        variant = rules.id
        self.rules = rules
        self.variant = variant
        self.cls: type[Position] = rules.position_class
        self.board = self.cls.spec
        self.combat = self.cls.combat
        self.kinds = self.cls.kinds
        self.flag = self.cls.flag_kind
        self.ids = {k.kind: k.id for k in self.kinds}
        self.by_id = {k.id: k.kind for k in self.kinds}
        self.counts = {k.kind: k.count for k in self.kinds}
        self.movable = frozenset(k.kind for k in self.kinds if k.movable)
        self.values = VALUES[variant]
        self.deployment = rules.deployment
        # Gunjin: the pieces whose entry into the enemy HQ wins
        self.occupiers = rules.occupiers
        gunjin = variant == "gunjin"
        self.move_class = GUNJIN_CLASS if gunjin else JUNQI_CLASS
        self.rep = GUNJIN_REP if gunjin else JUNQI_REP
        self.still_rep = pc.MINE if gunjin else pc.LANDMINE
        self._hops: dict[frozenset, list[int]] = {}

    def hops(self, targets: frozenset[int]) -> list[int]:
        """Steps along roads and railways from every square to the nearest target
        (occupancy ignored; cached)."""
        out = self._hops.get(targets)
        if out is None:
            far = self.board.size * 2
            out = [far] * self.board.size
            frontier = list(targets)
            for s in frontier:
                out[s] = 0
            neighbours = self.board.neighbours
            for s in frontier:  # grows while it is walked: a breadth-first search
                for t in neighbours[s]:
                    if out[t] == far:
                        out[t] = out[s] + 1
                        frontier.append(t)
            self._hops[targets] = out
        return out

    def result(self, attacker: int, defender: int) -> int:
        return self.combat[attacker][defender]


@functools.cache
def rules_for(variant: Variant) -> Rules:
    """The bots' rules data for a Variant, built once (Variants are singletons)."""
    return Rules(variant)


# --- what enemy pieces can be (Classic, Gunjin) --------------------------------------------


class Tracker:
    """Follows the enemy's pieces through a view's history (see the module docstring)."""

    def __init__(self, rules: Rules, me: int) -> None:
        self.rules = rules
        self.me = me
        self.them = 1 - me
        deployment = rules.deployment
        assert deployment is not None
        self.at: dict[int, int] = {}  # square -> piece number (alive enemy pieces)
        self.cands: list[set[int]] = []  # per piece number: the kinds it may be
        self.dead: list[bool] = []
        for square in deployment.squares(self.them):
            kinds = {
                k for k in rules.counts if deployment.placement_error(self.them, k, square) is None
            }
            self.at[square] = len(self.cands)
            self.cands.append(kinds)
            self.dead.append(False)
        self.seen = 0  # history events read
        self.last = None  # (ply, action) of the last event read

    def follow(self, history: list[dict]) -> bool:
        """Read the events not read yet; False if the history is not this game's."""
        if self.seen:
            if len(history) < self.seen:
                return False
            e = history[self.seen - 1]
            if (e["ply"], e["action"]) != self.last:
                return False
        names = self.rules.board.index
        for e in history[self.seen :]:
            if e.get("type") == "move" and not self._move(e, names):
                return False
        self.seen = len(history)
        if history:
            self.last = (history[-1]["ply"], history[-1]["action"])
        self._counts()
        return True

    def _move(self, e: dict, names: dict[str, int]) -> bool:
        frm, to = names[e["from"]], names[e["to"]]
        combat = e.get("combat")
        if e["player"] == self.them:
            pid = self.at.pop(frm, None)
            if pid is None:
                return False
            self._narrow(pid, self._shape(frm, to))
            if combat is None:
                self.at[to] = pid
                return True
            result = OUTCOMES[combat["result"]]
            mine = self.rules.by_id.get(combat["defender"] or "")
            if mine is not None and not (self.rules.variant == "gunjin" and mine == pc.G_FLAG):
                self._narrow(
                    pid, {k for k in self.cands[pid] if self.rules.result(k, mine) == result}
                )
            if result == ATTACKER_WINS:
                self.at[to] = pid
            else:
                self.dead[pid] = True
            return True
        if combat is None:
            return True
        pid = self.at.get(to)
        if pid is None:
            return False
        result = OUTCOMES[combat["result"]]
        mine = self.rules.by_id.get(combat["attacker"] or "")
        if mine is not None:
            fits = {k for k in self.cands[pid] if self.rules.result(mine, k) == result}
            if self.rules.variant == "gunjin" and pc.G_FLAG in self.cands[pid]:
                fits.add(pc.G_FLAG)  # a Gunjin flag fights with the piece behind it
            self._narrow(pid, fits)
        if result != DEFENDER_WINS:
            del self.at[to]
            self.dead[pid] = True
        return True

    def _shape(self, frm: int, to: int) -> set[int]:
        """The kinds that can make a move from `frm` to `to` (by its shape alone)."""
        rules = self.rules
        movers = set(rules.movable)
        if to in rules.board.neighbours[frm]:
            return movers
        if rules.variant == "gunjin":
            tables = rules.cls.tables  # type: ignore[attr-defined]
            forward = tables.forward[self.them]
            for direction, rays in enumerate(tables.ground_rays[frm]):
                for ray in rays:
                    if to in ray:
                        if direction == forward and ray.index(to) == 1:
                            return {pc.TANK, pc.CAVALRY, pc.G_ENGINEER, pc.PLANE}
                        if direction in (forward, forward ^ 1):
                            return {pc.G_ENGINEER, pc.PLANE}
                        return {pc.G_ENGINEER}
            return {pc.PLANE}
        for ray in rules.cls.rail_rays[frm]:  # type: ignore[attr-defined]
            if to in ray:
                return movers
        return {pc.ENGINEER}

    def _narrow(self, pid: int, kinds: set[int]) -> None:
        kept = self.cands[pid] & kinds
        if kept:  # never empty: an outcome this simple record cannot explain is skipped
            self.cands[pid] = kept

    def _counts(self) -> None:
        """Strike a kind from every other piece once all its pieces are accounted for."""
        counts = self.rules.counts
        changed = True
        while changed:
            changed = False
            fixed = Counter(next(iter(c)) for c in self.cands if len(c) == 1)
            for kind, n in fixed.items():
                if n < counts[kind]:
                    continue
                for c in self.cands:
                    if len(c) > 1 and kind in c:
                        c.discard(kind)
                        changed = True

    def odds(self) -> dict[int, dict[int, float]]:
        """Square -> chance of each kind, for every enemy piece on the board.  Each kind's
        pieces not yet accounted for are spread over the pieces that may be that kind,
        and each piece's chances are then scaled to add up to one; three rounds of this
        (so a Mine, which only the back two ranks may hold, is likelier there)."""
        counts = self.rules.counts
        left = Counter(counts)
        left.subtract(self.lost_kinds())
        rows = {s: dict.fromkeys(self.cands[pid], 1.0) for s, pid in self.at.items()}
        balance(rows.values(), {k: max(left[k], 0.05) for k in counts}, 3)
        return rows

    def lost_kinds(self) -> Counter:
        """Kinds of the enemy's lost pieces that this record knows for sure."""
        return Counter(
            next(iter(c)) for c, d in zip(self.cands, self.dead, strict=True) if d and len(c) == 1
        )


def unknown_odds(rules: Rules, lost: Counter | None = None) -> dict[int, float]:
    """A piece known only by its count: every kind, by the pieces of it left."""
    lost = lost or Counter()
    weights = {k: max(n - lost[k], 0.05) for k, n in rules.counts.items()}
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


class ExactTracker(Tracker):
    """`Tracker` with the piece counts read exactly: a kind stays possible for a piece
    only if the other pieces (removed ones included) can still take up every kind's
    count around it, and chances are spread over all the enemy's pieces, removed ones
    with kinds not yet known included.

    One assignment of kinds to pieces that fits every record is found by augmenting
    paths; a piece may then be kind k exactly when the kinds form a chain from k back
    to the piece's own kind in that assignment (a piece of k that could be k2, a piece
    of k2 that could be k3, ... up to its kind), each step freeing a slot for the one
    before it."""

    def _counts(self) -> None:
        if self.rules.rules.flag_capture_ends:  # a flag taken would have ended the game
            for pid, dead in enumerate(self.dead):
                if dead and len(self.cands[pid]) > 1:
                    self.cands[pid].discard(self.rules.flag)
        super()._counts()
        assigned = self._assignment()
        if assigned is None:
            return  # records this bot cannot reconcile: keep the simple deductions
        kinds = list(self.rules.counts)
        steps: dict[int, set[int]] = {k: set() for k in kinds}
        for pid, c in enumerate(self.cands):
            steps[assigned[pid]].update(c)
        reach: dict[int, set[int]] = {}
        for k in kinds:
            seen = {k}
            frontier = [k]
            while frontier:
                for nxt in steps[frontier.pop()]:
                    if nxt not in seen:
                        seen.add(nxt)
                        frontier.append(nxt)
            reach[k] = seen
        for pid, c in enumerate(self.cands):
            own = assigned[pid]
            c.intersection_update({k for k in c if own in reach[k]})

    def _assignment(self) -> list[int] | None:
        """Piece number -> a kind in its record, every kind used exactly its count."""
        counts = self.rules.counts
        if len(self.cands) != sum(counts.values()):
            return None
        holders: dict[int, list[int]] = {k: [] for k in counts}
        kind_of: list[int] = [0] * len(self.cands)

        def place(pid: int, tried: set[int]) -> bool:
            for k in self.cands[pid]:
                if k in tried:
                    continue
                tried.add(k)
                if len(holders[k]) < counts[k] or any(
                    place(other, tried) and _release(holders[k], other)
                    for other in list(holders[k])
                ):
                    holders[k].append(pid)
                    kind_of[pid] = k
                    return True
            return False

        for pid in range(len(self.cands)):
            if not place(pid, set()):
                return None
        return kind_of

    def odds(self) -> dict[int, dict[int, float]]:
        """As `Tracker.odds`, but every piece (removed ones too) shares out the counts,
        and the chances are balanced until they settle."""
        rows = [dict.fromkeys(c, 1.0) for c in self.cands]
        balance(rows, self.rules.counts, 12)
        return {s: rows[pid] for s, pid in self.at.items()}


def balance(rows, totals: dict[int, float], rounds: int) -> None:
    """Scale each piece's chances (in place) so that each kind's chances over the pieces
    add up to its `totals`, then each piece's to one; `rounds` times."""
    for _ in range(rounds):
        column: Counter = Counter()
        for row in rows:
            for k, w in row.items():
                column[k] += w
        scale = {k: totals[k] / w for k, w in column.items()}
        for row in rows:
            total = 0.0
            for k in row:
                row[k] *= scale[k]
                total += row[k]
            for k in row:
                row[k] /= total


def _release(holders: list[int], pid: int) -> bool:
    """Take `pid` out of a kind's holders (it has just been placed elsewhere)."""
    holders.remove(pid)
    return True
