"""What a CPU player believes about hidden pieces, built only from its view.

Classic and Gunjin: every piece is followed through the view's history by its identity
(the square it started on).  For each enemy identity the set of kinds still possible (a
bit mask) is narrowed by the deployment rules, by movement (a piece that moved is no mine
or flag; the shape of a move names the kinds that can make it), by every combat outcome,
and by the piece counts.  `Belief.sample` draws complete assignments of kinds to enemy
identities, alive and removed, that respect all of it and the counts exactly.

Blind: face-up pieces are public, so the only hidden thing is which face-down piece is
which, and that is a uniform draw from the public pool (`BlindPool`).

Every rule the deductions use comes from the Variant: its combat table, the pieces that
win by entering a headquarters (`occupiers`), whether a Gunjin flag fights with the piece
behind it (`flag_behind`), and a flag the view shows (`flag_shown_on_marshal`), whose
kind is then certain.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Sequence

from junqi_core import pieces as pc
from junqi_core.ai.behaviour import Acts, BehaviourModel, supports
from junqi_core.ai.prior import Prior
from junqi_core.ai.strategy import strategy_for
from junqi_core.ai.tables import Tables, kinds_of, mask_of, tables_for
from junqi_core.pieces import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS, FACE_DOWN, piece
from junqi_core.rules import Position
from junqi_core.variants import Variant
from junqi_core.views import Event, View

RESULT_CODES = {"attacker": ATTACKER_WINS, "defender": DEFENDER_WINS, "both": BOTH_REMOVED}


class BeliefError(ValueError):
    """The view history does not fit the tracker (a malformed or foreign view)."""


def tracked_cells(
    view: View, names: Sequence[str], at: Sequence[int], owner: Sequence[int]
) -> Iterator[tuple[int, dict]]:
    """Each occupied square's (identity, cell), after checking that the tracked pieces stand
    where the view shows pieces, with the same owners (else tracking was lost)."""
    board = view["board"]
    for s, name in enumerate(names):
        cell = board.get(name)
        ident = at[s]
        if (cell is None) != (ident < 0):
            raise BeliefError(f"tracking lost: occupancy differs on {name}")
        if cell is None:
            continue
        if cell["owner"] != owner[ident]:
            raise BeliefError(f"tracking lost: owner differs on {name}")
        yield ident, cell


def _known_kinds(dom: dict[int, int], known: dict[int, int], counts: dict[int, int]) -> None:
    """Pin the identities whose kind the view names, and take that kind from every other
    identity once all pieces of it are named (a shown flag is no other piece's kind)."""
    named: dict[int, int] = {}
    for e, k in known.items():
        dom[e] = 1 << k
        named[k] = named.get(k, 0) + 1
    for k, n in named.items():
        if n >= counts[k]:
            for e in dom:
                if e not in known:
                    dom[e] &= ~(1 << k)


class Tracker:
    """Follows every piece of a game with a deployment (Classic, Gunjin) through one
    player's view."""

    def __init__(self, variant: Variant | str, me: int) -> None:
        strategy = strategy_for(variant)
        t = strategy.tables
        if not t.start_squares[me]:
            raise ValueError(f"no piece tracking for {t.variant.name}")
        self.tables: Tables = t
        self.variant: Variant = t.variant
        self.move_classes = strategy.move_classes
        self.me = me
        self.enemy = 1 - me
        cls = t.cls
        self.cls = cls
        self.index = cls.spec.index
        self.size = cls.spec.size
        # rule options: a Gunjin flag fights with its own piece behind it; the pieces
        # that win by entering the enemy headquarters (none in Junqi)
        self.flag_behind = self.variant.flag_behind
        self.occupier_mask = mask_of(self.variant.occupiers)
        self.our_hqs = cls.spec.hqs[me] if self.occupier_mask else ()
        self.at = [-1] * self.size  # square -> identity (its starting square), -1 empty
        self.owner: dict[int, int] = {}
        self.square: dict[int, int] = {}  # identity -> current square, -1 once removed
        self.shadow = [0] * self.size  # occupancy with placeholder kinds, for move shapes
        for p in (0, 1):
            for s in t.start_squares[p]:
                self.at[s] = s
                self.owner[s] = p
                self.square[s] = s
                self.shadow[s] = piece(cls.flag_kind, p)
        self.enemy_ids = tuple(t.start_squares[self.enemy])
        self.own_kind: dict[int, int] = {}
        # enemy identities whose kind the view names (a flag shown once its side's Field
        # Marshal fell): certain
        self.known: dict[int, int] = {}
        self.moved: set[int] = set()
        self.shape: dict[int, int] = {}
        # Combat records about enemy identities (see _domains).
        self.records: list[tuple] = []
        # rule option "flag shown once the Field Marshal falls": the enemy identity whose
        # fall showed the enemy's flag (it was the Marshal; no other removed piece was)
        self.marshal_fell: set[int] = set()
        self.n_events = 0
        self.last_event: Event | None = None
        self.ply = 0  # plies played so far (for the behaviour model)
        # what each enemy piece did (Classic's board: the behaviour model reads it)
        self.acts = Acts(self.variant, me, self.enemy_ids) if supports(self.variant) else None
        self._probe = cls(self.shadow, turn=self.enemy)
        self._probe.board = self.shadow  # move shapes are tested on the live shadow board

    # --- following the history ------------------------------------------------------------

    def update(self, view: View) -> None:
        """Take in every event of the view not yet seen (the view holds the full history)."""
        history = view["history"]
        n = self.n_events
        if n > len(history) or (n and history[n - 1] != self.last_event):
            raise BeliefError("the view's history does not extend the one seen before")
        for ev in history[n:]:
            self._apply(ev)
        self.n_events = len(history)
        self.last_event = history[-1] if history else None
        self.ply = max(self.ply, view.get("ply", 0) or 0)
        self._check_board(view)

    def _apply(self, ev: Event) -> None:
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
            if self.acts is not None:
                self.acts.enemy_move(self, frm, to, mover, target >= 0)
            self.moved.add(mover)
            mask = self._shape_mask(frm, to)
            if to in self.our_hqs and (not combat or combat["result"] == "attacker"):
                mask &= ~self.occupier_mask  # it entered our HQ and the game went on
            self.shape[mover] = self.shape.get(mover, -1) & mask
        if target >= 0 and not combat:
            raise BeliefError("an attack without a combat result")
        if combat:
            result = RESULT_CODES[combat["result"]]
            kinds = self.tables.kind_by_id
            if player == self.me:
                a = kinds[combat["attacker"]]  # type: ignore[index]
                self.own_kind[mover] = a
                self.records.append(("def", target, a, result, self._behind(to, self.enemy)))
            else:
                d = kinds[combat["defender"]]  # type: ignore[index]
                self.own_kind[target] = d
                own_behind = None
                if d == self.cls.flag_kind:
                    own_behind = self._behind(to, self.me)
                self.records.append(("att", mover, target, result, own_behind))
            if any(shown["player"] == self.enemy for shown in ev.get("flag_shown", ())):
                self.marshal_fell.add(mover if player == self.enemy else target)
            self._remove_or_move(frm, to, mover, target, result)
        else:
            self._move(frm, to, mover)

    def _behind(self, square: int, player: int) -> int | None:
        """Identity of `player`'s own piece directly behind `square`, where a flag fights
        with it (Gunjin; None under the rules where it does not)."""
        if not self.flag_behind:
            return None
        b = self.cls.tables.behind[player][square]  # type: ignore[attr-defined]
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
        move = self.cls.move_code.move(frm, to)
        saved = self.shadow[frm]
        colour = self.enemy
        mask = 0
        for rep, kinds in self.move_classes:
            self.shadow[frm] = piece(rep, colour)
            if move in self._probe.legal_moves(self.enemy):
                mask |= kinds
        self.shadow[frm] = saved
        if not mask:
            raise BeliefError("an enemy move no piece could make")
        return mask

    def _check_board(self, view: View) -> None:
        kinds = self.tables.kind_by_id
        for ident, cell in tracked_cells(view, self.cls.spec.names, self.at, self.owner):
            if cell["owner"] == self.me:
                self.own_kind[ident] = kinds[cell["kind"]]  # type: ignore[index]
            elif cell["kind"] is not None:  # e.g. a flag shown when its Marshal fell
                self.known[ident] = kinds[cell["kind"]]

    # --- what follows from it -------------------------------------------------------------

    def alive_enemies(self) -> list[int]:
        return [e for e in self.enemy_ids if self.square[e] >= 0]

    def domains(self) -> dict[int, int]:
        """Per enemy identity the mask of kinds consistent with every unary fact."""
        t = self.tables
        movable = t.movable
        table = self.cls.combat
        dom = {e: t.deploy_masks[self.enemy][e] for e in self.enemy_ids}
        for e in self.moved:
            dom[e] &= movable
        for e, m in self.shape.items():
            dom[e] &= m
        kinds = t.kinds
        flag = self.cls.flag_kind
        # an attacked flag whose fall would have ended the game (Junqi) was no flag
        flag_ends = self.variant.flag_capture_ends
        for _ in range(2):  # Gunjin flag records read the domain of the piece behind
            for rec in self.records:
                if rec[0] == "att":
                    _, e, own, result, own_behind = rec
                    d = self.own_kind[own]
                    if d == flag and own_behind is not None:
                        d = self.own_kind[own_behind]  # it fought with the piece behind
                    m = 0
                    for a in kinds:
                        if table[a][d] == result:
                            m |= 1 << a
                    dom[e] &= m & movable
                else:
                    _, e, a, result, behind = rec
                    m = 0
                    for d in kinds:
                        if d != flag and table[a][d] == result:
                            m |= 1 << d
                    if flag_ends:
                        ok = False
                    elif behind is None:
                        ok = table[a][flag] == result
                    else:
                        ok = any(table[a][b] == result for b in kinds_of(dom[behind]) if b != flag)
                    if ok:
                        m |= 1 << flag
                    dom[e] &= m
        if self.variant.flag_shown_on_marshal:
            # the enemy's flag is shown when its Marshal falls, so a removed piece whose
            # fall showed nothing was no Marshal
            marshal = 1 << pc.FIELD_MARSHAL
            for e in self.enemy_ids:
                if e in self.marshal_fell:
                    dom[e] &= marshal
                elif self.square[e] < 0:
                    dom[e] &= ~marshal
        if self.known:
            _known_kinds(dom, self.known, t.counts)
        return dom

    def flag_checks(self) -> list[tuple[int, int, int, int | None]]:
        """Where a flag fights with the piece behind it (Gunjin): (identity, attacker kind,
        result, identity behind) for every attack on an enemy piece; a sampled world that
        makes that piece the flag must reproduce it."""
        if not self.flag_behind:
            return []
        return [(r[1], r[2], r[3], r[4]) for r in self.records if r[0] == "def"]


class BoardTracker:
    """Facts from the current board alone, for a view whose history cannot be followed
    (e.g. a position set up by hand): enemy pieces are told apart only by whether they
    stand off their own starting squares (then they have moved), and by a kind the view
    names (a shown flag)."""

    def __init__(self, variant: Variant | str, view: View, me: int) -> None:
        t = tables_for(variant)
        self.tables = t
        self.variant = t.variant
        self.me = me
        self.enemy = 1 - me
        self.cls = t.cls
        index = self.cls.spec.index
        starts = set(t.start_squares[self.enemy])
        alive = sorted(
            index[name] for name, cell in view["board"].items() if cell["owner"] == self.enemy
        )
        total = sum(t.counts.values())
        self.square = {s: s for s in alive}
        dead = [1000 + i for i in range(total - len(alive))]
        self.square.update({d: -1 for d in dead})
        self.enemy_ids = tuple(alive + dead)
        self.moved = {s for s in alive if s not in starts}
        self.records: list[tuple] = []
        self.known = {
            index[name]: t.kind_by_id[cell["kind"]]
            for name, cell in view["board"].items()
            if cell["owner"] == self.enemy and cell["kind"] is not None
        }

    def alive_enemies(self) -> list[int]:
        return [e for e in self.enemy_ids if self.square[e] >= 0]

    def domains(self) -> dict[int, int]:
        full = self.tables.full_mask
        movable = self.tables.movable
        dom = {e: (movable if e in self.moved else full) for e in self.enemy_ids}
        if self.known:
            _known_kinds(dom, self.known, self.tables.counts)
        return dom

    def flag_checks(self) -> list:
        return []


def feasible(domains: dict[int, int], counts: dict[int, int]) -> bool:
    """Whether some assignment gives every identity a kind in its mask, counts exact."""
    return matching(domains, counts) is not None


def matching(domains: dict[int, int], counts: dict[int, int]) -> dict[int, int] | None:
    """One assignment identity -> kind within every mask with the counts exact (a
    bipartite matching of identities to the pieces of each kind), or None."""
    slots = [k for k, c in sorted(counts.items()) for _ in range(c)]
    if len(slots) != len(domains):
        return None
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

    if not all(augment(i, [False] * len(slots)) for i in range(len(idents))):
        return None
    return {idents[match_slot[j]]: slots[j] for j in range(len(slots))}


class Belief:
    """Sampling complete hidden assignments (Classic, Gunjin) from a tracker's facts."""

    def __init__(
        self,
        tracker: Tracker | BoardTracker,
        prior: Prior | None = None,
        behaviour: BehaviourModel | None = None,
    ) -> None:
        """`prior`, if given: how likely each kind is on each start square before any
        fact, given where the flag stands (`prior.deployment_prior`); without it every
        layout is as likely.  `behaviour`, if given (and the tracker kept `acts`): each
        identity's kinds are also weighed by how likely each would have done what the
        piece did (`behaviour.BehaviourModel`); the facts still decide which kinds it may
        be."""
        self.tracker = tracker
        self.prior = prior
        acts = getattr(tracker, "acts", None)
        self.likes: dict[int, dict[int, float]] = {}
        if behaviour is not None and acts is not None:
            self.likes = behaviour.likelihoods(tracker, tracker.ply)  # type: ignore[arg-type]
        self.variant = tracker.variant
        t = tracker.tables
        self.counts = t.counts
        dom = tracker.domains()
        self.relaxed = False
        if not feasible(dom, self.counts):  # should not happen; keep playing on weaker facts
            self.relaxed = True
            dom = {e: t.full_mask for e in tracker.enemy_ids}
            for e in tracker.moved:
                dom[e] &= t.movable
            if tracker.known:  # what the view names stays certain
                _known_kinds(dom, tracker.known, self.counts)
        self.domains = dom
        self.checks = tracker.flag_checks()
        self._options = {e: kinds_of(m) for e, m in dom.items()}

    def marginals(self) -> dict[int, dict[int, float]]:
        """A rough per-identity distribution (count-weighted over each mask, and by the
        behaviour likelihoods if any)."""
        out = {}
        for e, opts in self._options.items():
            like = self.likes.get(e)
            w = {k: self.counts[k] * (like[k] if like else 1.0) for k in opts}
            total = sum(w.values())
            out[e] = {k: v / total for k, v in w.items()}
        return out

    def sample(self, rng: random.Random, tries: int = 40) -> dict[int, int]:
        """One assignment identity -> kind; counts exact, every fact respected.

        With a prior that depends on where the flag stands (Classic), the flag's identity
        is drawn first, by how often layouts put it there.  Then identities are drawn most
        constrained first, each kind weighted by how many of it are left (times its prior
        weight there, if any); when an identity finds no kind left, an augmenting path
        moves others to free one (so a draw never dead-ends when the facts are
        consistent).  Gunjin flag facts are checked as the draw goes and again at the
        end."""
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
        prior: dict[int, dict[int, float]] = {}
        if self.prior is not None:
            where = self._draw_flag(rng) if self.prior.flag else None
            if where is not None:
                flag = self.tracker.cls.flag_kind
                options = {
                    e: [flag] if e == where else [k for k in opts if k != flag]
                    for e, opts in options.items()
                }
            if where in self.prior.weights:
                prior = self.prior.given(where)
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
                like = self.likes.get(e)
                if weigh is None:
                    weights = [remaining[k] for k in opts]
                else:
                    weights = [remaining[k] * weigh[k] for k in opts]
                if like is not None:
                    weights = [w * like[k] for w, k in zip(weights, opts, strict=True)]
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

    def _draw_flag(self, rng: random.Random) -> int | None:
        """The identity to hold the flag in this draw, among those it may be, by how
        often layouts put the flag on their start squares (None: nowhere the prior
        knows)."""
        flag = self.tracker.cls.flag_kind
        shares = self.prior.flag  # type: ignore[union-attr]
        cands = [e for e, opts in self._options.items() if flag in opts and shares.get(e)]
        if not cands:
            return None
        r = rng.random() * sum(shares[e] for e in cands)
        for e in cands:
            r -= shares[e]
            if r < 0:
                return e
        return cands[-1]

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
        flag = self.tracker.cls.flag_kind
        for e, a, result, behind in self.checks:
            if assignment.get(e) != flag:
                continue
            if behind is None:
                d = flag
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


def own_position(variant: Variant | str, view: View) -> Position:
    """A position holding only what the player knows: own pieces with kinds, enemy pieces
    with a placeholder kind unless the view names it (Classic/Gunjin), face-down pieces
    as face-down placeholders (Blind).  Counters and side to move come from the view.
    Under "an Engineer takes the flag" (Blind) the position also counts the mines of each
    colour still face down, so that its move generator knows when a flag may be taken."""
    t = tables_for(variant)
    cls = t.cls
    names = cls.spec.index
    kinds = t.kind_by_id
    board = [0] * cls.spec.size
    colours = view.get("colours")
    swap = -1 if not colours else (0 if colours[0] == "red" else 1)
    if not t.variant.has_flips:
        swap = 0
    for name, cell in view["board"].items():
        s = names[name]
        if cell["down"]:
            board[s] = FACE_DOWN | cls.flag_kind  # a placeholder: nobody knows what it is
            continue
        owner = cell["owner"]
        colour = owner ^ swap if swap >= 0 else owner
        kind = kinds[cell["kind"]] if cell["kind"] is not None else cls.flag_kind
        board[s] = piece(kind, colour)
    turn = view["turn"] if view["turn"] is not None else 0
    if t.variant.guarded_flag:
        pool = BlindPool(t.variant, view).pool
        hidden = (pool.get((pc.LANDMINE, 0), 0), pool.get((pc.LANDMINE, 1), 0))
        pos = _counting_hidden_mines(cls)(board, turn, view["ply"], view["quiet"], swap)
        pos.hidden_mines = hidden  # type: ignore[attr-defined]
        return pos
    return cls(board, turn=turn, ply=view["ply"], quiet=view["quiet"], swap=swap)


@functools.cache
def _counting_hidden_mines(cls: type[Position]) -> type[Position]:
    """`cls` (whose flag falls only once its colour's mines are gone) for a position that
    holds face-down pieces as placeholders: `hidden_mines[colour]` counts the mines of
    that colour among them, from the public pool."""

    def mines_left(self, colour_bits: int) -> bool:
        return self.hidden_mines[pc.colour_of(colour_bits)] > 0 or cls.mines_left(self, colour_bits)

    def copy(self) -> Position:
        out = cls.copy(self)  # of this same class
        out.hidden_mines = self.hidden_mines  # type: ignore[attr-defined]
        return out

    return type(
        f"{cls.__name__}[public]",
        (cls,),
        {"__slots__": ("hidden_mines",), "mines_left": mines_left, "copy": copy},
    )


class BlindPool:
    """The face-down pool of Blind: public, so a flip is a chance event over it.

    The pool is the two full sets minus every face-up piece and every piece lost.  In a
    position set up by hand it may not match the number of face-down pieces; it is then
    still used, as the odds of what a flip shows."""

    def __init__(self, variant: Variant | str, view: View) -> None:
        t = tables_for(variant)
        counts = t.counts
        kinds = t.kind_by_id
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
    "Belief",
    "BeliefError",
    "BlindPool",
    "BoardTracker",
    "Tracker",
    "feasible",
    "matching",
    "own_position",
]
