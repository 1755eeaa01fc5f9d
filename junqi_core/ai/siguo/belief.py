"""What one Siguo seat may know of every piece on the board, read from its view alone.

Every army starts on its 25 deployable posts, and every move is public, so the seat can
follow each piece from its starting post through the view's history.  For a piece whose
rank it cannot see it keeps the kinds still possible (a mask over the kinds):
- where it started: a Flag only in a headquarters, a Landmine only on ranks 1-2, a
  Bomb never on rank 6 (the deployment rules);
- a piece that moved is no Landmine and no Flag; one that went along a railway where no
  other piece could have gone (round a corner, or past the end of a straight line) is
  an Engineer;
- a combat against a piece of known rank tells which kinds could have had that result;
- a seat's Flag shown on the board (the Field Marshal fell) is known, and its Marshal gone.
Each army's pool is its full set of pieces less every one of known rank (on the board
or taken).  From masks and pools come a piece's chances of each kind (`chances`) and
whole sampled worlds (`sample_board`) for search.  Nothing here reads more than the view.
"""

from __future__ import annotations

import random

from junqi_core import pieces as pc
from junqi_core.pieces import ATTACKER_WINS, DEFENDER_WINS
from junqi_core.siguo.board import SIGUO_BOARD, SIGUO_SLIDES

BOARD = SIGUO_BOARD
KINDS = tuple(k.kind for k in pc.JUNQI_KINDS)
KIND_OF_ID = {k.id: k.kind for k in pc.JUNQI_KINDS}
FULL_COUNTS = {k.kind: k.count for k in pc.JUNQI_KINDS}
ALL = sum(1 << k for k in KINDS)
STILL = (1 << pc.LANDMINE) | (1 << pc.FLAG)  # kinds that never move
MOVERS = ALL & ~STILL
ARMY_POSTS = 25


def _rank(square: int) -> int:
    return int(BOARD.names[square][2])


def start_mask(square: int) -> int:
    """The kinds a piece starting on `square` may be (the deployment rules)."""
    name = BOARD.names[square]
    mask = ALL
    if name[1:] not in ("b1", "d1"):
        mask &= ~(1 << pc.FLAG)
    if _rank(square) > 2:
        mask &= ~(1 << pc.LANDMINE)
    if _rank(square) == 6:
        mask &= ~(1 << pc.BOMB)
    return mask


def start_posts(seat: int) -> tuple[int, ...]:
    return tuple(s for s in BOARD.home[seat] if s not in BOARD.camps)


class Piece:
    """One piece as the seat follows it."""

    __slots__ = ("engineer", "kind", "mask", "moved", "seat", "square")

    def __init__(self, seat: int, square: int, mask: int = ALL) -> None:
        self.seat = seat
        self.square = square
        self.kind = 0  # known kind, 0: unknown
        self.mask = mask
        self.moved = False
        self.engineer = False

    def know(self, kind: int) -> None:
        self.kind = kind
        self.mask = 1 << kind

    def restrict(self, mask: int) -> None:
        if self.kind:
            return
        narrowed = self.mask & mask
        if narrowed:  # a contradiction (never in a real game) keeps what we had
            self.mask = narrowed
            if narrowed & (narrowed - 1) == 0:
                self.kind = narrowed.bit_length() - 1


def _slid(frm: int, to: int, occupied) -> bool:
    """Whether a piece other than an Engineer could have gone from `frm` to `to` along
    a straight line, with the board as it stood (`occupied(square)`)."""
    for prefix, ray in SIGUO_SLIDES[frm]:
        if to not in ray or any(occupied(s) for s in prefix):
            continue
        for s in ray:
            if s == to:
                return True
            if occupied(s):
                break
    return False


class Belief:
    """The board as `me` knows it: a `Piece` per occupied post, per army the kinds not
    yet accounted for, the seats out."""

    def __init__(
        self, view: dict, combat: tuple[tuple[int, ...], ...], hidden: frozenset = frozenset()
    ) -> None:
        """`hidden`: seats whose ranks are read as nobody else knows them (what the
        other players may know of this seat's and its partner's pieces)."""
        self.me: int = view["player"]
        self.hidden = hidden
        self.combat = combat
        self.out = [bool(o) for o in view.get("out") or (None,) * 4]
        self.known_dead: list[list[int]] = [[] for _ in range(4)]
        self.no_marshal = [False] * 4
        at: dict[int, Piece] = {}
        for seat in range(4):
            for s in start_posts(seat):
                at[s] = Piece(seat, s, start_mask(s))
        index = BOARD.index
        for e in view.get("history") or ():
            if e.get("type") == "move":
                self._move(at, index[e["from"]], index[e["to"]], e.get("combat"))
            for gone in e.get("out") or ():
                seat = gone["player"]
                for s in [s for s, p in at.items() if p.seat == seat]:
                    del at[s]
            for flag in e.get("flag_shown") or ():
                self.no_marshal[flag["player"]] = True
        # the view's board is the truth of where pieces stand and what is seen
        board = view["board"]
        shown = view.get("flags_shown") or [False] * 4
        for s in list(at):
            if BOARD.names[s] not in board:
                del at[s]
        for name, cell in board.items():
            s = index[name]
            p = at.get(s)
            if p is None or p.seat != cell["owner"]:
                p = at[s] = Piece(cell["owner"], s, MOVERS)  # lost track (never expected)
                p.moved = True
            kind = cell["kind"]
            if kind and (p.seat not in hidden or (KIND_OF_ID[kind] == pc.FLAG and shown[p.seat])):
                p.know(KIND_OF_ID[kind])
        self.at = at
        self._pools()

    def _move(self, at: dict[int, Piece], frm: int, to: int, combat: dict | None) -> None:
        p = at.get(frm)
        if p is None:
            return
        if not p.moved:
            p.moved = True
            p.restrict(MOVERS)
        if to not in BOARD.neighbours[frm] and not _slid(frm, to, lambda s: s in at):
            p.engineer = True
            p.restrict(1 << pc.ENGINEER)
        del at[frm]
        if not combat:
            p.square = to
            at[to] = p
            return
        q = at.get(to)
        if q is None:
            return
        a = KIND_OF_ID[combat["attacker"]] if combat.get("attacker") else 0
        d = KIND_OF_ID[combat["defender"]] if combat.get("defender") else 0
        if p.seat in self.hidden or q.seat in self.hidden:
            a = d = 0
        if a:
            p.know(a)
        if d:
            q.know(d)
        result = {"attacker": ATTACKER_WINS, "defender": DEFENDER_WINS}.get(combat["result"], 0)
        table = self.combat
        if result == ATTACKER_WINS:
            if d and d != pc.FLAG:
                p.restrict(sum(1 << k for k in KINDS if table[k][d] == ATTACKER_WINS))
            self._dead(q)
            p.square = to
            at[to] = p
        elif result == DEFENDER_WINS:
            if a:
                q.restrict(sum(1 << k for k in KINDS if table[a][k] == DEFENDER_WINS))
            self._dead(p)
        else:
            if a and not d:
                q.restrict(sum(1 << k for k in KINDS if table[a][k] not in (1, 2)))
            if d and not a:
                p.restrict(sum(1 << k for k in KINDS if table[k][d] not in (1, 2)))
            self._dead(p)
            self._dead(q)
            del at[to]

    def _dead(self, p: Piece) -> None:
        if p.kind:
            self.known_dead[p.seat].append(p.kind)

    def _pools(self) -> None:
        """Per army, the kinds not yet accounted for, and per kind how many of its
        unknown pieces could be one."""
        self.pool: list[dict[int, int]] = []
        self.unknown: list[list[Piece]] = [[] for _ in range(4)]
        for seat in range(4):
            pool = dict(FULL_COUNTS)
            for k in self.known_dead[seat]:
                pool[k] = max(0, pool[k] - 1)
            if self.no_marshal[seat]:
                pool[pc.FIELD_MARSHAL] = 0
            self.pool.append(pool)
        for p in self.at.values():
            if p.kind:
                pool = self.pool[p.seat]
                pool[p.kind] = max(0, pool[p.kind] - 1)
            else:
                self.unknown[p.seat].append(p)
        self.room: list[dict[int, int]] = []
        for seat in range(4):
            room = dict.fromkeys(KINDS, 0)
            for p in self.unknown[seat]:
                for k in KINDS:
                    if p.mask >> k & 1:
                        room[k] += 1
            self.room.append(room)
        self._chances: dict[int, dict[int, float]] = {}

    def chances(self, p: Piece) -> dict[int, float]:
        """{kind: probability} for a piece (one kind for a known one): each kind weighed
        by how many of it are unaccounted for over how many unknown pieces could be one."""
        if p.kind:
            return {p.kind: 1.0}
        cached = self._chances.get(p.square)
        if cached is not None:
            return cached
        pool, room = self.pool[p.seat], self.room[p.seat]
        weights = {k: pool[k] / room[k] for k in KINDS if p.mask >> k & 1 and pool[k]}
        if not weights:  # more taken than we can account for: anything it may be
            weights = {k: 1.0 for k in KINDS if p.mask >> k & 1}
        total = sum(weights.values())
        out = {k: w / total for k, w in weights.items()}
        self._chances[p.square] = out
        return out

    def sample_board(self, rng: random.Random) -> list[int]:
        """A whole board (piece ints) consistent with what the seat knows."""
        board = [0] * BOARD.size
        for p in self.at.values():
            if p.kind:
                board[p.square] = pc.seat_piece(p.kind, p.seat)
        for seat in range(4):
            pieces = list(self.unknown[seat])
            if not pieces:
                continue
            rng.shuffle(pieces)
            bag = dict(self.pool[seat])
            flags = [p for p in pieces if p.mask >> pc.FLAG & 1]
            flag = rng.choice(flags) if flags and bag[pc.FLAG] else None
            pieces.sort(key=lambda p: (p is not flag, (p.mask & MOVERS).bit_count()))
            for p in pieces:
                mask = 1 << pc.FLAG if p is flag else p.mask & ~(1 << pc.FLAG)
                mask = mask or p.mask
                options = [k for k in KINDS if mask >> k & 1 and bag[k] > 0]
                if options:
                    kind = rng.choices(options, [bag[k] for k in options])[0]
                    bag[kind] -= 1
                else:
                    kind = rng.choice([k for k in KINDS if mask >> k & 1])
                board[p.square] = pc.seat_piece(kind, seat)
        return board
