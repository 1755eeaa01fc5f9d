"""The rules: positions, legal moves, combat, push/pop and the end of play.

A `Position` is the true state of the board during play.  It is built for search:
moves are small ints numbered by the board's `MoveCode` (`moves`; a flip goes from a
post to itself), the board is a flat list of piece ints (see `pieces`), and
`push`/`pop` apply and undo a move in place.
Game-level matters (setup, offers, resignation, clocks, history) live in `game`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from junqi_core import pieces as pc
from junqi_core.moves import Move, MoveCode
from junqi_core.pieces import (
    ATTACKER_WINS,
    COLOUR_BIT,
    DEFENDER_WINS,
    FACE_DOWN,
    KIND_MASK,
    PieceKind,
)
from junqi_core.topology import (
    BLIND_BOARD,
    BLIND_RAIL_RAYS,
    CLASSIC_BOARD,
    CLASSIC_RAIL_RAYS,
    EAST,
    GUNJIN_BOARD,
    GUNJIN_TABLES,
    NORTH,
    SOUTH,
    WEST,
    Board,
)

if TYPE_CHECKING:
    from junqi_core.variants import Variant

FACE_AND_COLOUR = FACE_DOWN | COLOUR_BIT


class Outcome(NamedTuple):
    """How a game ended: the winning player (None for a draw) and a reason code."""

    winner: int | None
    reason: str


class Position:
    """Board, side to move and counters; variants override move generation and combat."""

    variant_id: ClassVar[str]
    # The `variants.Variant` these rules belong to (set when the Variant is built).
    variant: ClassVar[Variant]
    spec: ClassVar[Board]
    move_code: ClassVar[MoveCode]  # how moves on its board are numbered
    kinds: ClassVar[tuple[PieceKind, ...]]
    combat: ClassVar[tuple[tuple[int, ...], ...]]
    flag_kind: ClassVar[int]
    quiet_limit: ClassVar[int] = 100
    initial_swap: ClassVar[int] = 0
    seats: ClassVar[int] = 2  # players (Siguo: four, in two teams)
    # Facts of the variant's pieces and rules that code above asks instead of its name:
    engineer_kind: ClassVar[int]  # the piece that turns corners along railways or lines
    mine_kind: ClassVar[int]  # the piece that never moves and is cleared by Engineers
    top_kinds: ClassVar[tuple[int, ...]]  # the strongest pieces, whose early loss hurts most
    piece_family: ClassVar[str]  # which set of pieces ("junqi", "gunjin"): their names
    flag_in_hq: ClassVar[bool] = False  # the flag starts in a headquarters (Classic)
    flag_capture_ends: ClassVar[bool] = True  # taking the flag wins (not in Gunjin)
    flag_behind: ClassVar[bool] = False  # the flag fights with the piece behind it
    occupiers: ClassVar[frozenset[int]] = frozenset()  # kinds that win entering the enemy HQ
    no_moves_draw: ClassVar[bool] = False  # neither side able to move draws (else: lost)

    __slots__ = ("_stack", "board", "decided", "ply", "quiet", "swap", "turn")

    def __init__(
        self,
        board: list[int] | None = None,
        turn: int = 0,
        ply: int = 0,
        quiet: int = 0,
        swap: int | None = None,
        decided: Outcome | None = None,
    ) -> None:
        self.board = list(board) if board is not None else [0] * self.spec.size
        if len(self.board) != self.spec.size:
            raise ValueError(f"a {self.variant_id} board has {self.spec.size} posts")
        self.turn = turn
        self.ply = ply
        self.quiet = quiet
        # Colour of player 0 (player p plays colour p ^ swap).  Blind: -1 until the first flip.
        self.swap = self.initial_swap if swap is None else swap
        self.decided = decided
        self._stack: list[tuple] = []

    # --- basic queries -------------------------------------------------------------------

    def copy(self) -> Position:
        """An independent copy without the undo stack."""
        return type(self)(self.board, self.turn, self.ply, self.quiet, self.swap, self.decided)

    def colour_of(self, player: int) -> int | None:
        return None if self.swap < 0 else player ^ self.swap

    def owner(self, square: int) -> int | None:
        """The player the piece on a square belongs to (None: empty or colours not fixed)."""
        p = self.board[square]
        return None if not p or self.swap < 0 else pc.colour_of(p) ^ self.swap

    def piece_owner(self, p: int) -> int | None:
        """The player a piece int belongs to (None before Blind colours are fixed)."""
        return None if self.swap < 0 else pc.colour_of(p) ^ self.swap

    def piece_of(self, kind: int, player: int) -> int:
        """The piece int of a `kind` belonging to `player` (as its colour stands now)."""
        return pc.piece(kind, self.colour_of(player) or 0)

    def settle(self) -> list[tuple[int, str]]:
        """Hook: at the start of play, who goes out before the first move (Siguo: a seat
        with no legal move); two-player games end instead (`outcome`)."""
        return []

    def eliminated_by_last_push(self) -> list[tuple[int, str]]:
        """Hook: (seat, reason) of each army the last push took off the board (Siguo)."""
        return []

    def legal_moves(self, player: int | None = None) -> list[Move]:
        moves: list[Move] = []
        self.generate(player, moves.append, moves.append)
        return moves

    def generate(
        self,
        player: int | None,
        quiet: Callable[[Move], None],
        attack: Callable[[Move], None],
    ) -> None:
        """Pass each legal move (other than a flip) to `quiet` (onto an empty post) or
        `attack`: the search scores the two kinds apart.  One list's `append` for both
        gives `legal_moves`."""
        raise NotImplementedError

    def combat_result(self, frm: int, to: int) -> int:
        """Outcome code of the attack frm -> to (both squares occupied)."""
        board = self.board
        return self.combat[board[frm] & KIND_MASK][board[to] & KIND_MASK]

    # --- apply and undo ------------------------------------------------------------------

    def push(self, move: Move) -> None:
        board = self.board
        code = self.move_code
        if move == code.PASS:
            self._stack.append((move, -1, -1, 0, 0, self.quiet, self.swap, self.decided))
            self.quiet += 1
            self.turn ^= 1
            self.ply += 1
            return
        frm = code.frm[move]
        to = code.to[move]
        mover = board[frm]
        target = board[to]
        self._stack.append((move, frm, to, mover, target, self.quiet, self.swap, self.decided))
        if frm == to:
            self._flip(frm, mover)
        elif not target:
            board[to] = mover
            board[frm] = 0
            self.quiet += 1
            self._after_quiet_move(to, mover)
        else:
            result = self.combat_result(frm, to)
            if result == ATTACKER_WINS:
                board[to] = mover
                board[frm] = 0
                self._after_win(to, mover, target)
            elif result == DEFENDER_WINS:
                board[frm] = 0
            else:
                board[frm] = 0
                board[to] = 0
            self.quiet = 0
            if target & KIND_MASK == self.flag_kind and result != DEFENDER_WINS:
                self._flag_removed(mover)
        self.turn ^= 1
        self.ply += 1

    def pop(self) -> Move:
        move, frm, to, mover, target, quiet, swap, decided = self._stack.pop()
        self.turn ^= 1
        self.ply -= 1
        self.quiet = quiet
        self.swap = swap
        self.decided = decided
        if frm >= 0:  # (not a pass)
            board = self.board
            board[frm] = mover
            board[to] = target
        return move

    @property
    def height(self) -> int:
        """Moves pushed and not yet popped (a mark for `pop_to`)."""
        return len(self._stack)

    @property
    def last_move(self) -> int:
        """The move pushed last and not yet popped (0 at the bottom of the stack)."""
        stack = self._stack
        return stack[-1][0] if stack else 0

    def pop_to(self, height: int) -> None:
        """Pop back to a mark taken with `height`: a search cut short by an exception
        leaves its line pushed, and its caller takes the whole line back at once."""
        while len(self._stack) > height:
            self.pop()

    @classmethod
    def _tables(cls) -> None:
        """Tables the move generator reads, derived from the class's board and rules."""
        cls.move_code = cls.spec.move_code

    def _flip(self, square: int, p: int) -> None:
        raise ValueError("this variant has no flips")

    def _after_quiet_move(self, to: int, mover: int) -> None:
        """Hook: a move onto an empty post (Gunjin occupation)."""

    def _after_win(self, to: int, mover: int, target: int) -> None:
        """Hook: the attacker won and moved in."""

    def _flag_removed(self, mover: int) -> None:
        self.decided = Outcome(self.turn, "flag_captured")

    # --- end of play ---------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """The result if play has ended, checked at the start of the side to move's turn."""
        if self.decided is not None:
            return self.decided
        return self.outcome_given(self.legal_moves(self.turn))

    def outcome_given(self, moves: list[Move]) -> Outcome | None:
        """`outcome()` when the side to move's legal moves are already known (search)."""
        if self.decided is not None:
            return self.decided
        if not moves:
            return self._no_moves_outcome()
        if self.quiet >= self.quiet_limit:
            return Outcome(None, "quiet_moves")
        return None

    def playout(self, rng: random.Random, max_plies: int = 10_000) -> Outcome | None:
        """Play uniformly random moves to the end (or max_plies); the moves stay pushed."""
        for _ in range(max_plies):
            moves = self.legal_moves()
            result = self.outcome_given(moves)
            if result is not None:
                return result
            self.push(rng.choice(moves))
        return None

    def _no_moves_outcome(self) -> Outcome:
        if self.no_moves_draw and not self.legal_moves(self.turn ^ 1):
            return Outcome(None, "no_moves")
        return Outcome(self.turn ^ 1, "immobilised")


# ---------------------------------------------------------------------------------------
# Junqi: classic and blind


_STRAIGHT_MOVES, _ENGINEER_MOVES = 1, 2  # road steps and straight railway runs; any rail path


def _mover_class(p: int, colour: int) -> int:
    """How piece int p moves if it is a face-up piece of `colour` (0: it is not, or never moves)."""
    if not p or p & FACE_AND_COLOUR != pc.colour_bits(colour) or p & KIND_MASK >= pc.LANDMINE:
        return 0
    return _ENGINEER_MOVES if p & KIND_MASK == pc.ENGINEER else _STRAIGHT_MOVES


# Per colour, per piece int (so that move generation tests each square once).
_MOVER_CLASS = tuple(tuple(_mover_class(p, colour) for p in range(128)) for colour in (0, 1))
# Per colour, per piece int: a face-up piece of that colour (one the other side may attack).
_FACE_UP_OF = tuple(
    tuple(bool(p) and p & FACE_AND_COLOUR == pc.colour_bits(colour) for p in range(128))
    for colour in (0, 1)
)


class JunqiPosition(Position):
    kinds = pc.JUNQI_KINDS
    piece_family = "junqi"
    flag_kind = pc.FLAG
    engineer_kind = pc.ENGINEER
    mine_kind = pc.LANDMINE
    top_kinds = (pc.FIELD_MARSHAL, pc.GENERAL)
    rail_rays: ClassVar[tuple[tuple[tuple[int, ...], ...], ...]]
    # Per square: a piece standing there never moves (classic HQs).
    frozen: ClassVar[tuple[bool, ...]]

    __slots__ = ()

    @classmethod
    def _tables(cls) -> None:
        super()._tables()
        spec = cls.spec
        cls.attackable = tuple(s not in spec.camps for s in range(spec.size))

    def generate(
        self,
        player: int | None,
        quiet: Callable[[Move], None],
        attack: Callable[[Move], None],
    ) -> None:
        if player is None:
            player = self.turn
        if self.swap < 0:
            return
        colour = player ^ self.swap
        mover_class = _MOVER_CLASS[colour]
        prey = _FACE_UP_OF[colour ^ 1]
        board = self.board
        road_steps = self.spec.road_steps
        rail_neighbours = self.spec.rail_neighbours
        rail_rays = self.rail_rays
        frozen = self.frozen
        attackable = self.attackable
        moves_from = self.move_code.at
        for frm, p in enumerate(board):
            mover = mover_class[p]
            if not mover or frozen[frm]:
                continue
            base = moves_from[frm]  # its move to t is base[t]
            for t in road_steps[frm]:
                q = board[t]
                if not q:
                    quiet(base[t])
                elif prey[q] and attackable[t]:
                    attack(base[t])
            if mover == _ENGINEER_MOVES:
                if not rail_neighbours[frm]:
                    continue
                seen = [False] * len(board)  # (faster than a set in Pyodide)
                seen[frm] = True
                frontier = [frm]
                while frontier:
                    s = frontier.pop()
                    for t in rail_neighbours[s]:
                        if seen[t]:
                            continue
                        seen[t] = True
                        q = board[t]
                        if not q:
                            quiet(base[t])
                            frontier.append(t)
                        elif prey[q] and attackable[t]:
                            attack(base[t])
            else:
                for ray in rail_rays[frm]:
                    for t in ray:
                        q = board[t]
                        if not q:
                            quiet(base[t])
                            continue
                        if prey[q] and attackable[t]:
                            attack(base[t])
                        break


class ClassicPosition(JunqiPosition):
    variant_id = "classic"
    spec = CLASSIC_BOARD
    flag_in_hq = True
    rail_rays = CLASSIC_RAIL_RAYS
    combat = pc.CLASSIC_COMBAT
    frozen = tuple(
        s in CLASSIC_BOARD.hqs[0] or s in CLASSIC_BOARD.hqs[1] for s in range(CLASSIC_BOARD.size)
    )
    __slots__ = ()


class BlindPosition(JunqiPosition):
    """Fanqi: all pieces start face down; a turn is a flip or a move; mines stay."""

    variant_id = "blind"
    spec = BLIND_BOARD
    rail_rays = BLIND_RAIL_RAYS
    combat = pc.BLIND_COMBAT
    frozen = (False,) * BLIND_BOARD.size
    quiet_limit = 80
    initial_swap = -1
    __slots__ = ()

    def legal_moves(self, player: int | None = None) -> list[Move]:
        flip = self.move_code.flip
        flips = [flip(s) for s, p in enumerate(self.board) if p & FACE_DOWN]
        return flips + super().legal_moves(player)

    def _flip(self, square: int, p: int) -> None:
        self.board[square] = p & ~FACE_DOWN
        if self.swap < 0:
            self.swap = pc.colour_of(p) ^ self.turn
        self.quiet = 0


class GuardedFlagBlindPosition(BlindPosition):
    """Blind under the "Engineer takes the flag" option: a flag may be attacked only by
    an Engineer, and only once every Landmine of the flag's colour has left the board."""

    __slots__ = ()

    def generate(
        self,
        player: int | None,
        quiet: Callable[[Move], None],
        attack: Callable[[Move], None],
    ) -> None:
        board = self.board

        frm, to = self.move_code.frm, self.move_code.to

        def guarded(move: Move) -> None:
            target = board[to[move]]
            if target & KIND_MASK == pc.FLAG and (
                board[frm[move]] & KIND_MASK != pc.ENGINEER or self.mines_left(target & COLOUR_BIT)
            ):
                return
            attack(move)

        super().generate(player, quiet, guarded)

    def mines_left(self, colour_bits: int) -> bool:
        """Whether a Landmine of that colour (face up or down) is still on the board."""
        return any(
            p & KIND_MASK == pc.LANDMINE and p & COLOUR_BIT == colour_bits for p in self.board
        )


# ---------------------------------------------------------------------------------------
# Gunjin Shogi


_STEPS, _CHARGES, _RUNS, _FLIES = 1, 2, 3, 4  # how a Gunjin piece moves (0: never)


def _gunjin_mover(p: int, colour: int) -> int:
    """How piece int p moves if it is a piece of `colour` (Gunjin has no face-down pieces)."""
    if not p or pc.colour_of(p) != colour or p & KIND_MASK >= pc.MINE:
        return 0
    kind = p & KIND_MASK
    if kind == pc.G_ENGINEER:
        return _RUNS
    if kind == pc.PLANE:
        return _FLIES
    return _CHARGES if kind in (pc.TANK, pc.CAVALRY) else _STEPS


class GunjinPosition(Position):
    variant_id = "gunjin"
    spec = GUNJIN_BOARD
    kinds = pc.GUNJIN_KINDS
    piece_family = "gunjin"
    combat = pc.GUNJIN_COMBAT
    flag_kind = pc.G_FLAG
    engineer_kind = pc.G_ENGINEER
    mine_kind = pc.MINE
    top_kinds = (pc.ARMY_GENERAL,)
    flag_capture_ends = False
    no_moves_draw = True
    tables = GUNJIN_TABLES
    enemy_hq = (GUNJIN_BOARD.hqs[1][0], GUNJIN_BOARD.hqs[0][0])
    # Rule options: which pieces win by entering the enemy HQ, and whether the flag
    # fights with the strength of its own piece behind it (else it loses to everything).
    occupiers = pc.GUNJIN_OCCUPIERS
    flag_behind = True
    __slots__ = ()

    @classmethod
    def _tables(cls) -> None:
        """Per square, where each way of moving may go, flattened in the order the moves
        are listed; per colour, how each piece int moves and which ints are its own."""
        super()._tables()
        ground = cls.tables.ground_rays
        flight = cls.tables.flight_rays
        n = cls.spec.size
        # an Engineer runs along every ground ray; a Plane steps sideways and flies north
        # and south over anything in its way
        cls.runs = tuple(tuple(ray for rays in ground[s] for ray in rays) for s in range(n))
        cls.flights = tuple(
            tuple(ray[0] for d in (EAST, WEST) for ray in ground[s][d])
            + tuple(t for d in (NORTH, SOUTH) for ray in flight[s][d] for t in ray)
            for s in range(n)
        )
        # a Tank or Cavalry also jumps two squares forward over an empty one
        cls.charges = tuple(
            tuple(
                tuple(
                    (ray[0], ray[1])
                    for ray in ground[s][cls.tables.forward[player]]
                    if len(ray) > 1
                )
                for s in range(n)
            )
            for player in (0, 1)
        )
        cls.gunjin_mover = tuple(
            tuple(_gunjin_mover(p, colour) for p in range(128)) for colour in (0, 1)
        )
        cls.own = tuple(
            tuple(bool(p) and pc.colour_of(p) == colour for p in range(128)) for colour in (0, 1)
        )

    def generate(
        self,
        player: int | None,
        quiet: Callable[[Move], None],
        attack: Callable[[Move], None],
    ) -> None:
        if player is None:
            player = self.turn
        board = self.board
        neighbours = self.spec.neighbours
        mover_of = self.gunjin_mover[player]
        own = self.own[player]
        charges = self.charges[player]
        runs, flights = self.runs, self.flights
        moves_from = self.move_code.at
        for frm, p in enumerate(board):
            mover = mover_of[p]
            if not mover:
                continue
            base = moves_from[frm]  # its move to t is base[t]
            if mover == _RUNS:
                for ray in runs[frm]:
                    for t in ray:
                        q = board[t]
                        if not q:
                            quiet(base[t])
                            continue
                        if not own[q]:
                            attack(base[t])
                        break
                continue
            for t in flights[frm] if mover == _FLIES else neighbours[frm]:
                q = board[t]
                if not q:
                    quiet(base[t])
                elif not own[q]:
                    attack(base[t])
            if mover == _CHARGES:
                for near, far in charges[frm]:
                    if not board[near]:
                        q = board[far]
                        if not q:
                            quiet(base[far])
                        elif not own[q]:
                            attack(base[far])

    def combat_result(self, frm: int, to: int) -> int:
        board = self.board
        target = board[to]
        defender = target & KIND_MASK
        if defender == pc.G_FLAG and self.flag_behind:
            # The flag fights with the strength of its own piece directly behind it.
            behind = self.tables.behind[pc.COLOUR_OF[target]][to]
            if behind is not None:
                q = board[behind]
                if q and q & COLOUR_BIT == target & COLOUR_BIT:
                    defender = q & KIND_MASK
        return self.combat[board[frm] & KIND_MASK][defender]

    def _after_quiet_move(self, to: int, mover: int) -> None:
        self._check_occupation(to, mover)

    def _after_win(self, to: int, mover: int, target: int) -> None:
        self._check_occupation(to, mover)

    def _check_occupation(self, to: int, mover: int) -> None:
        if to == self.enemy_hq[self.turn] and mover & KIND_MASK in self.occupiers:
            self.decided = Outcome(self.turn, "occupation")

    def _flag_removed(self, mover: int) -> None:
        """A Gunjin flag is just a piece: losing it does not end the game."""


for _cls in (ClassicPosition, BlindPosition, GunjinPosition):
    _cls._tables()


def derive_position_class(base: type[Position], name: str, **rules: object) -> type[Position]:
    """A subclass of `base` with some class-level rule data replaced (a board, a combat
    table, frozen squares, a quiet limit...).  Rule options become data, so the move
    generator stays the same code with the same speed."""
    cls = type(name, (base,), {"__slots__": (), **rules})
    cls._tables()
    return cls  # type: ignore[return-value]
