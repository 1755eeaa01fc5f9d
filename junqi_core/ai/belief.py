"""What a CPU player believes about hidden pieces, built only from its view.

Classic and Gunjin: every piece is followed through the view's history by its identity
(the square it started on).  For each enemy identity the set of kinds still possible (a
bit mask) is narrowed by the deployment rules, by movement (a piece that moved is no mine
or flag; the shape of a move names the kinds that can make it), by every combat outcome,
and by the piece counts.  `Belief.sample` draws complete assignments of kinds to enemy
identities, alive and removed, that respect all of it and the counts exactly.

Blind: face-up pieces are public, so the only hidden thing is which face-down piece is
which, and that is a uniform draw from the public pool (`BlindPool`).
"""

from __future__ import annotations

import random

from junqi_core import pieces as pc
from junqi_core.ai.tables import (
    ALL_KINDS,
    COUNTS,
    DEPLOY_MASKS,
    FULL_MASK,
    KIND_BY_ID,
    MOVABLE,
    MOVE_CLASSES,
    START_SQUARES,
    kinds_of,
)
from junqi_core.pieces import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS, FACE_DOWN, piece
from junqi_core.rules import POSITION_CLASSES, Position
from junqi_core.topology import GUNJIN_TABLES

NOT_OCCUPIER = sum(1 << k for k in pc.GUNJIN_OCCUPIERS)
RESULT_CODES = {"attacker": ATTACKER_WINS, "defender": DEFENDER_WINS, "both": BOTH_REMOVED}


class BeliefError(ValueError):
    """The view history does not fit the tracker (a malformed or foreign view)."""


class Tracker:
    """Follows every piece of a Classic or Gunjin game through one player's view."""

    def __init__(self, variant: str, me: int) -> None:
        if variant not in START_SQUARES:
            raise ValueError(f"no piece tracking for {variant}")
        self.variant = variant
        self.me = me
        self.enemy = 1 - me
        cls = POSITION_CLASSES[variant]
        self.cls = cls
        self.index = cls.spec.index
        self.size = cls.spec.size
        self.at = [-1] * self.size  # square -> identity (its starting square), -1 empty
        self.owner: dict[int, int] = {}
        self.square: dict[int, int] = {}  # identity -> current square, -1 once removed
        self.shadow = [0] * self.size  # occupancy with placeholder kinds, for move shapes
        for p in (0, 1):
            for s in START_SQUARES[variant][p]:
                self.at[s] = s
                self.owner[s] = p
                self.square[s] = s
                self.shadow[s] = piece(pc.FLAG if variant != "gunjin" else pc.G_FLAG, p)
        self.enemy_ids = tuple(START_SQUARES[variant][self.enemy])
        self.own_kind: dict[int, int] = {}
        self.moved: set[int] = set()
        self.shape: dict[int, int] = {}
        # Combat records about enemy identities (see _domains).
        self.records: list[tuple] = []
        self.n_events = 0
        self.last_event: dict | None = None
        self._probe = cls(self.shadow, turn=self.enemy)
        self._probe.board = self.shadow  # move shapes are tested on the live shadow board

    # --- following the history ------------------------------------------------------------

    def update(self, view: dict) -> None:
        """Take in every event of the view not yet seen (the view holds the full history)."""
        history = view["history"]
        n = self.n_events
        if n > len(history) or (n and history[n - 1] != self.last_event):
            raise BeliefError("the view's history does not extend the one seen before")
        for ev in history[n:]:
            self._apply(ev)
        self.n_events = len(history)
        self.last_event = history[-1] if history else None
        self._check_board(view)

    def _apply(self, ev: dict) -> None:
        if ev.get("type") != "move":
            return
        frm, to = self.index[ev["from"]], self.index[ev["to"]]
        mover = self.at[frm]
        if mover < 0:
            raise BeliefError(f"no piece on {ev['from']} to move")
        player = self.owner[mover]
        if player != ev["player"]:
            raise BeliefError("a piece moved by the wrong player")
        target = self.at[to]
        combat = ev.get("combat")
        if player == self.enemy:
            self.moved.add(mover)
            mask = self._shape_mask(frm, to)
            if (
                self.variant == "gunjin"
                and to == self.cls.spec.hqs[self.me][0]
                and (not combat or combat["result"] == "attacker")
            ):
                mask &= ~NOT_OCCUPIER  # it entered our HQ and the game went on
            self.shape[mover] = self.shape.get(mover, -1) & mask
        if target >= 0 and not combat:
            raise BeliefError("an attack without a combat result")
        if combat:
            result = RESULT_CODES[combat["result"]]
            kinds = KIND_BY_ID[self.variant]
            if player == self.me:
                a = kinds[combat["attacker"]]
                self.own_kind[mover] = a
                self.records.append(("def", target, a, result, self._behind(to, self.enemy)))
            else:
                d = kinds[combat["defender"]]
                self.own_kind[target] = d
                own_behind = None
                if self.variant == "gunjin" and d == pc.G_FLAG:
                    own_behind = self._behind(to, self.me)
                self.records.append(("att", mover, target, result, own_behind))
            self._remove_or_move(frm, to, mover, target, result)
        else:
            self._move(frm, to, mover)

    def _behind(self, square: int, player: int) -> int | None:
        """Identity of `player`'s own piece directly behind `square` (Gunjin flags)."""
        if self.variant != "gunjin":
            return None
        b = GUNJIN_TABLES.behind[player][square]
        if b is None or self.at[b] < 0 or self.owner[self.at[b]] != player:
            return None
        return self.at[b]

    def _move(self, frm: int, to: int, ident: int) -> None:
        self.at[to], self.at[frm] = ident, -1
        self.shadow[to], self.shadow[frm] = self.shadow[frm], 0
        self.square[ident] = to

    def _remove_or_move(self, frm: int, to: int, mover: int, target: int, result: int) -> None:
        if result == ATTACKER_WINS:
            self.square[target] = -1
            self._move(frm, to, mover)
            return
        self.square[mover] = -1
        self.at[frm] = -1
        self.shadow[frm] = 0
        if result == BOTH_REMOVED:
            self.square[target] = -1
            self.at[to] = -1
            self.shadow[to] = 0

    def _shape_mask(self, frm: int, to: int) -> int:
        """Kinds that could have made the enemy move frm -> to on the board before it."""
        move = frm << 6 | to
        saved = self.shadow[frm]
        colour = self.enemy
        mask = 0
        for rep, kinds in MOVE_CLASSES[self.variant]:
            self.shadow[frm] = piece(rep, colour)
            if move in self._probe.legal_moves(self.enemy):
                mask |= kinds
        self.shadow[frm] = saved
        if not mask:
            raise BeliefError("an enemy move no piece could make")
        return mask

    def _check_board(self, view: dict) -> None:
        board = view["board"]
        names = self.cls.spec.names
        for s in range(self.size):
            cell = board.get(names[s])
            ident = self.at[s]
            if (cell is None) != (ident < 0):
                raise BeliefError(f"tracking lost: occupancy differs on {names[s]}")
            if cell is None:
                continue
            if cell["owner"] != self.owner[ident]:
                raise BeliefError(f"tracking lost: owner differs on {names[s]}")
            if cell["owner"] == self.me:
                self.own_kind[ident] = KIND_BY_ID[self.variant][cell["kind"]]

    # --- what follows from it -------------------------------------------------------------

    def alive_enemies(self) -> list[int]:
        return [e for e in self.enemy_ids if self.square[e] >= 0]

    def domains(self) -> dict[int, int]:
        """Per enemy identity the mask of kinds consistent with every unary fact."""
        v = self.variant
        table = self.cls.combat
        dom = {e: DEPLOY_MASKS[v][self.enemy][e] for e in self.enemy_ids}
        for e in self.moved:
            dom[e] &= MOVABLE[v]
        for e, m in self.shape.items():
            dom[e] &= m
        kinds = ALL_KINDS[v]
        flag = self.cls.flag_kind
        for _ in range(2):  # Gunjin flag records read the domain of the piece behind
            for rec in self.records:
                if rec[0] == "att":
                    _, e, own, result, own_behind = rec
                    d = self.own_kind[own]
                    if v == "gunjin" and d == pc.G_FLAG:
                        d = self.own_kind[own_behind] if own_behind is not None else pc.G_FLAG
                    m = 0
                    for a in kinds:
                        if table[a][d] == result:
                            m |= 1 << a
                    dom[e] &= m & MOVABLE[v]
                else:
                    _, e, a, result, behind = rec
                    m = 0
                    for d in kinds:
                        if d != flag and table[a][d] == result:
                            m |= 1 << d
                    if v == "gunjin":
                        if behind is None:
                            ok = result == ATTACKER_WINS
                        else:
                            ok = any(
                                table[a][b] == result for b in kinds_of(dom[behind]) if b != flag
                            )
                        if ok:
                            m |= 1 << flag
                    dom[e] &= m
        return dom

    def flag_checks(self) -> list[tuple[int, int, int, int | None]]:
        """Gunjin: (identity, attacker kind, result, identity behind) for every attack on an
        enemy piece; a sampled world that makes that piece the flag must reproduce it."""
        if self.variant != "gunjin":
            return []
        return [(r[1], r[2], r[3], r[4]) for r in self.records if r[0] == "def"]


class BoardTracker:
    """Facts from the current board alone, for a view whose history cannot be followed
    (e.g. a position set up by hand): enemy pieces are told apart only by whether they
    stand off their own starting squares (then they have moved)."""

    def __init__(self, view: dict, me: int) -> None:
        variant = view["variant"]
        self.variant = variant
        self.me = me
        self.enemy = 1 - me
        self.cls = POSITION_CLASSES[variant]
        index = self.cls.spec.index
        starts = set(START_SQUARES[variant][self.enemy])
        alive = sorted(
            index[name] for name, cell in view["board"].items() if cell["owner"] == self.enemy
        )
        total = sum(COUNTS[variant].values())
        self.square = {s: s for s in alive}
        dead = [1000 + i for i in range(total - len(alive))]
        self.square.update({d: -1 for d in dead})
        self.enemy_ids = tuple(alive + dead)
        self.moved = {s for s in alive if s not in starts}
        self.records: list[tuple] = []

    def alive_enemies(self) -> list[int]:
        return [e for e in self.enemy_ids if self.square[e] >= 0]

    def domains(self) -> dict[int, int]:
        full = FULL_MASK[self.variant]
        return {e: (MOVABLE[self.variant] if e in self.moved else full) for e in self.enemy_ids}

    def flag_checks(self) -> list:
        return []


def feasible(domains: dict[int, int], counts: dict[int, int]) -> bool:
    """Whether some assignment gives every identity a kind in its mask, counts exact."""
    slots = [k for k, c in sorted(counts.items()) for _ in range(c)]
    if len(slots) != len(domains):
        return False
    idents = sorted(domains)
    match_slot: list[int] = [-1] * len(slots)  # slot -> identity index

    def augment(i: int, seen: list[bool]) -> bool:
        mask = domains[idents[i]]
        for j, k in enumerate(slots):
            if seen[j] or not (mask >> k) & 1:
                continue
            seen[j] = True
            if match_slot[j] < 0 or augment(match_slot[j], seen):
                match_slot[j] = i
                return True
        return False

    return all(augment(i, [False] * len(slots)) for i in range(len(idents)))


class Belief:
    """Sampling complete hidden assignments (Classic, Gunjin) from a tracker's facts."""

    def __init__(
        self, tracker: Tracker | BoardTracker, prior: dict[int, dict[int, float]] | None = None
    ) -> None:
        """`prior`, if given: identity -> kind -> weight, how likely each kind is there
        before any fact (`prior.gunjin_prior`); without it every layout is as likely."""
        self.tracker = tracker
        self.prior = prior or {}
        self.variant = tracker.variant
        self.counts = COUNTS[self.variant]
        dom = tracker.domains()
        self.relaxed = False
        if not feasible(dom, self.counts):  # should not happen; keep playing on weaker facts
            self.relaxed = True
            dom = {e: FULL_MASK[self.variant] for e in tracker.enemy_ids}
            for e in tracker.moved:
                dom[e] &= MOVABLE[self.variant]
        self.domains = dom
        self.checks = tracker.flag_checks()
        self._options = {e: kinds_of(m) for e, m in dom.items()}

    def marginals(self) -> dict[int, dict[int, float]]:
        """A rough per-identity distribution (count-weighted over each mask)."""
        out = {}
        for e, opts in self._options.items():
            total = sum(self.counts[k] for k in opts)
            out[e] = {k: self.counts[k] / total for k in opts}
        return out

    def sample(self, rng: random.Random, tries: int = 40) -> dict[int, int]:
        """One assignment identity -> kind; counts exact, every fact respected.

        Identities are drawn most constrained first, each kind weighted by how many of it
        are left (times its prior weight there, if any); when an identity finds no kind
        left, an augmenting path moves others to free one (so a draw never dead-ends when
        the facts are consistent).  Gunjin flag facts are checked as the draw goes and
        again at the end."""
        assignment: dict[int, int] | None = None
        for _ in range(tries):
            assignment = self._draw(rng)
            if assignment is not None and self._consistent(assignment):
                return assignment
        if assignment is None:
            raise BeliefError("no assignment fits the facts")
        return assignment  # a Gunjin flag fact still unmet after many draws (very rare)

    def _draw(self, rng: random.Random) -> dict[int, int] | None:
        options = self._options
        prior = self.prior
        remaining = dict(self.counts)
        holders: dict[int, list[int]] = {k: [] for k in remaining}
        assignment: dict[int, int] = {}
        order = sorted(options, key=lambda e: (len(options[e]), rng.random()))

        def take(e: int, k: int) -> None:
            assignment[e] = k
            remaining[k] -= 1
            holders[k].append(e)

        def relocate(f: int, banned: int, visited: set[int]) -> bool:
            """Give f a kind other than `banned`, moving others if need be."""
            ks = [k for k in options[f] if k != banned]
            rng.shuffle(ks)
            for k in ks:
                if remaining[k] > 0:
                    holders[banned].remove(f)
                    remaining[banned] += 1
                    take(f, k)
                    return True
            for k in ks:
                for g in list(holders[k]):
                    if g in visited:
                        continue
                    visited.add(g)
                    if relocate(g, k, visited):
                        holders[banned].remove(f)
                        remaining[banned] += 1
                        take(f, k)
                        return True
            return False

        for e in order:
            opts = [k for k in options[e] if remaining[k] and self._flag_ok(e, k, assignment)]
            if opts:
                weigh = prior.get(e)
                if weigh is None:
                    weights = [remaining[k] for k in opts]
                else:
                    weights = [remaining[k] * weigh[k] for k in opts]
                r = rng.random() * sum(weights)
                chosen = opts[-1]
                for k, weight in zip(opts, weights, strict=True):
                    r -= weight
                    if r < 0:
                        chosen = k
                        break
                take(e, chosen)
                continue
            ks = list(options[e])
            rng.shuffle(ks)
            for k in ks:
                if remaining[k] > 0:  # free, only a flag fact was against it
                    take(e, k)
                    break
                freed = False
                for g in list(holders[k]):
                    if relocate(g, k, {g}):
                        freed = True
                        break
                if freed:
                    take(e, k)
                    break
            else:
                return None
        return assignment

    def _flag_ok(self, e: int, k: int, assignment: dict[int, int]) -> bool:
        """Gunjin: whether giving e kind k keeps every flag fact true so far."""
        if not self.checks:
            return True
        assignment[e] = k
        ok = self._consistent(assignment)
        del assignment[e]
        return ok

    def _consistent(self, assignment: dict[int, int]) -> bool:
        """Gunjin: a piece sampled as the flag must have fought with the strength of the
        piece behind it (checked as far as the assignment goes)."""
        if not self.checks:
            return True
        table = self.tracker.cls.combat
        for e, a, result, behind in self.checks:
            if assignment.get(e) != pc.G_FLAG:
                continue
            if behind is None:
                d = pc.G_FLAG
            elif behind in assignment:
                d = assignment[behind]
            else:
                continue
            if table[a][d] != result:
                return False
        return True

    def world(self, view_position: Position, assignment: dict[int, int]) -> Position:
        """A full-information position: the player's own pieces plus sampled enemies."""
        board = list(view_position.board)
        colour = self.tracker.enemy
        for e in self.tracker.alive_enemies():
            board[self.tracker.square[e]] = piece(assignment[e], colour)
        pos = type(view_position)(
            board, view_position.turn, view_position.ply, view_position.quiet, view_position.swap
        )
        return pos


def own_position(view: dict, tracker: Tracker | None = None) -> Position:
    """A position holding only what the player knows: own pieces with kinds, enemy pieces
    with a placeholder kind (Classic/Gunjin), face-down pieces as face-down placeholders
    (Blind).  Counters and side to move come from the view."""
    variant = view["variant"]
    cls = POSITION_CLASSES[variant]
    names = cls.spec.index
    kinds = KIND_BY_ID[variant]
    board = [0] * cls.spec.size
    colours = view.get("colours")
    swap = -1 if not colours else (0 if colours[0] == "red" else 1)
    if variant != "blind":
        swap = 0
    for name, cell in view["board"].items():
        s = names[name]
        if cell["down"]:
            board[s] = FACE_DOWN | pc.FLAG
            continue
        owner = cell["owner"]
        colour = owner ^ swap if swap >= 0 else owner
        kind = kinds[cell["kind"]] if cell["kind"] is not None else cls.flag_kind
        board[s] = piece(kind, colour)
    turn = view["turn"] if view["turn"] is not None else 0
    return cls(board, turn=turn, ply=view["ply"], quiet=view["quiet"], swap=swap)


class BlindPool:
    """The face-down pool of Blind: public, so a flip is a chance event over it.

    The pool is the two full sets minus every face-up piece and every piece lost.  In a
    position set up by hand it may not match the number of face-down pieces; it is then
    still used, as the odds of what a flip shows."""

    def __init__(self, view: dict) -> None:
        counts = COUNTS["blind"]
        kinds = KIND_BY_ID["blind"]
        pool = {(k, c): counts[k] for c in (0, 1) for k in counts}
        colours = view.get("colours")
        swap = -1 if not colours else (0 if colours[0] == "red" else 1)
        seen: list[tuple[int, int]] = []
        for cell in view["board"].values():
            if not cell["down"]:
                seen.append((kinds[cell["kind"]], cell["owner"] ^ swap))
        if swap >= 0:
            for player, lost in enumerate(view["lost"]):
                seen.extend((kinds[k], player ^ swap) for k in lost["kinds"] or ())
        for key in seen:
            if pool.get(key, 0) > 0:
                pool[key] -= 1
        self.pool = {key: n for key, n in pool.items() if n}
        self.total = sum(self.pool.values())
        self.down = sum(1 for cell in view["board"].values() if cell["down"])

    def outcomes(self) -> list[tuple[int, float]]:
        """(piece int, probability) for the next flip, in a fixed order."""
        if not self.total:
            return []
        return [(piece(k, c), n / self.total) for (k, c), n in sorted(self.pool.items())]


__all__ = [
    "FULL_MASK",
    "Belief",
    "BeliefError",
    "BlindPool",
    "BoardTracker",
    "Tracker",
    "feasible",
    "own_position",
]
