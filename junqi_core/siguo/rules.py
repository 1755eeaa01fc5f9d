"""Siguo's rules: four seats in two teams on the cross board, with armies that drop out.

`SiguoPosition` is a `rules.Position` whose turn is a seat (0..3: S, E, N, W) and whose
pieces carry their seat (`pieces.seat_piece`).  South and North play together against
East and West; a piece never attacks a partner's.  A seat goes out when its flag is
taken, when it has no legal move at the start of its turn, at its last allowed skip
or when it surrenders: its whole army leaves the board at once and its turns are skipped.
A team wins when both enemy seats are out (`Outcome.winner` is then the team, 0 or 1).

Search needs every change undone in place, eliminations included, so `push` keeps on
its stack what an elimination removed and `pop` puts it back.  After every `push` the
position is settled: the seat to move is in the game and has a legal move, or the game
is decided.  (docs/rules.md, "Siguo", says the rules in words.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from junqi_core import pieces as pc
from junqi_core.moves import Move
from junqi_core.pieces import ATTACKER_WINS, DEFENDER_WINS, KIND_MASK, SEAT_OF
from junqi_core.rules import Outcome, Position
from junqi_core.siguo.board import SIGUO_BOARD, SIGUO_SLIDES

SEATS = 4
ALL_OUT = (1 << SEATS) - 1
# Why a seat went out (the view's `player_out` reasons) and, for the seat whose going out
# ends the game, the reason the game's result gives (the words the other games use).
OUT_REASONS = ("flag_captured", "no_legal_move", "skip_limit", "surrender")
RESULT_REASONS = {
    "flag_captured": "flag_captured",
    "no_legal_move": "immobilised",
    "skip_limit": "timeouts",
    "surrender": "resignation",
}

_STEPS, _SLIDES, _ANY_RAIL = 1, 2, 3  # how a piece moves: (0 never), roads and lines, any rail


def _mover(p: int, seat: int) -> int:
    if not p or SEAT_OF[p] != seat or p & KIND_MASK >= pc.LANDMINE:
        return 0
    return _ANY_RAIL if p & KIND_MASK == pc.ENGINEER else _SLIDES


# Per seat, per piece int: how it moves when it is that seat's piece (0: not, or never).
_MOVER = tuple(tuple(_mover(p, seat) for p in range(256)) for seat in range(SEATS))
# Per seat, per piece int: a piece of the other team (one that seat may attack).
_ENEMY = tuple(tuple(bool(p) and (SEAT_OF[p] ^ seat) & 1 for p in range(256)) for seat in range(4))


def team_of(seat: int) -> int:
    """South and North are team 0, East and West team 1."""
    return seat & 1


def partner_of(seat: int) -> int:
    return seat ^ 2


class SiguoPosition(Position):
    variant_id = "siguo"
    spec = SIGUO_BOARD
    kinds = pc.JUNQI_KINDS
    piece_family = "junqi"
    flag_kind = pc.FLAG
    engineer_kind = pc.ENGINEER
    mine_kind = pc.LANDMINE
    top_kinds = (pc.FIELD_MARSHAL, pc.GENERAL)
    flag_in_hq = True
    combat = pc.BLIND_COMBAT  # a Landmine stays when it removes an attacker
    quiet_limit = 200
    seats = SEATS
    turn_step: ClassVar[int] = 1  # S -> E -> N -> W (counter-clockwise); 3 goes clockwise
    skip_limit: ClassVar[int] = 5  # the fifth skip (time-out or pass) puts a seat out
    slides = SIGUO_SLIDES
    # Per post: a piece standing there never moves (the eight headquarters).
    frozen: ClassVar[tuple[bool, ...]] = tuple(
        any(s in hq for hq in SIGUO_BOARD.hqs) for s in range(SIGUO_BOARD.size)
    )
    attackable: ClassVar[tuple[bool, ...]]
    enemy: ClassVar[tuple[tuple[bool, ...], ...]] = _ENEMY  # per seat: the pieces it may attack

    __slots__ = ("_witness", "out", "skips")

    def __init__(
        self,
        board: list[int] | None = None,
        turn: int = 0,
        ply: int = 0,
        quiet: int = 0,
        swap: int | None = None,
        decided: Outcome | None = None,
        out: int = 0,
        skips: tuple[int, ...] | list[int] = (0, 0, 0, 0),
    ) -> None:
        super().__init__(board, turn, ply, quiet, swap, decided)
        self.out = out  # bit s set: seat s is out
        self.skips = list(skips)  # per seat, turns skipped so far (time-outs and passes)
        # per seat, the last (post, neighbour) found to give it a move: checked first
        # (a hint only, so push/pop need not keep it)
        self._witness = [(0, 0)] * SEATS

    @classmethod
    def _tables(cls) -> None:
        super()._tables()
        spec = cls.spec
        cls.attackable = tuple(s not in spec.camps for s in range(spec.size))

    def copy(self) -> SiguoPosition:
        return type(self)(
            self.board, self.turn, self.ply, self.quiet, self.swap, self.decided,
            self.out, self.skips,
        )  # fmt: skip

    # --- whose pieces ----------------------------------------------------------------------

    def colour_of(self, player: int) -> int | None:
        """A seat's team (the piece ints' colour bit)."""
        return player & 1

    def owner(self, square: int) -> int | None:
        p = self.board[square]
        return SEAT_OF[p] if p else None

    def piece_owner(self, p: int) -> int | None:
        return SEAT_OF[p]

    def piece_of(self, kind: int, player: int) -> int:
        return pc.seat_piece(kind, player)

    def is_out(self, seat: int) -> bool:
        return bool(self.out >> seat & 1)

    def in_game(self) -> list[int]:
        """The seats still playing, in seat order."""
        return [s for s in range(SEATS) if not self.out >> s & 1]

    # --- moves -----------------------------------------------------------------------------

    def generate(
        self,
        player: int | None,
        quiet: Callable[[Move], None],
        attack: Callable[[Move], None],
    ) -> None:
        if player is None:
            player = self.turn
        if self.out >> player & 1:
            return
        mover_of = _MOVER[player]
        enemy = self.enemy[player]
        board = self.board
        road_steps = self.spec.road_steps
        rail_neighbours = self.spec.rail_neighbours
        slides = self.slides
        frozen = self.frozen
        attackable = self.attackable
        moves_from = self.move_code.at
        for frm, p in enumerate(board):
            mover = mover_of[p]
            if not mover or frozen[frm]:
                continue
            base = moves_from[frm]
            for t in road_steps[frm]:
                q = board[t]
                if not q:
                    quiet(base[t])
                elif enemy[q] and attackable[t]:
                    attack(base[t])
            if mover == _ANY_RAIL:
                if not rail_neighbours[frm]:
                    continue
                seen = [False] * len(board)
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
                        elif enemy[q] and attackable[t]:
                            attack(base[t])
            else:
                for prefix, ray in slides[frm]:
                    if prefix and any(board[s] for s in prefix):
                        continue
                    for t in ray:
                        q = board[t]
                        if not q:
                            quiet(base[t])
                            continue
                        if enemy[q] and attackable[t]:
                            attack(base[t])
                        break

    def has_move(self, seat: int) -> bool:
        """Whether `seat` has a legal move: some piece of it may take one step (every
        slide starts with a step a piece could stop on, or attack, so this is enough)."""
        if self.out >> seat & 1:
            return False
        mover_of = _MOVER[seat]
        enemy = self.enemy[seat]
        board = self.board
        frozen = self.frozen
        attackable = self.attackable
        frm, t = self._witness[seat]
        if mover_of[board[frm]] and not frozen[frm]:
            q = board[t]
            if not q or (enemy[q] and attackable[t]):
                return True
        neighbours = self.spec.neighbours
        for frm, p in enumerate(board):
            if not mover_of[p] or frozen[frm]:
                continue
            for t in neighbours[frm]:
                q = board[t]
                if not q or (enemy[q] and attackable[t]):
                    self._witness[seat] = (frm, t)
                    return True
        return False

    # --- apply and undo --------------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Apply a move, a pass (`move_code.PASS`: a time-out or a voluntary pass) or a
        surrender (`surrender_move(seat)`), then settle the turn."""
        board = self.board
        code = self.move_code
        seat = self.turn
        gone: list[tuple[int, str, list[tuple[int, int]]]] = []
        entry = [move, -1, -1, 0, 0, self.quiet, seat, self.out, self.skips[seat], self.decided,
                 self.ply, gone]  # fmt: skip
        self._stack.append(entry)
        if move < 0:  # a seat surrenders (at any time: not always the seat to move)
            who = -1 - move
            entry[8] = self.skips[seat]
            self._eliminate(who, "surrender", gone)
            if not self.decided and who == seat:
                self._pass_turn(seat, gone)
            return
        self.ply += 1
        if move == code.PASS:
            self.quiet += 1
            self.skips[seat] += 1
            if self.skips[seat] >= self.skip_limit:
                self._eliminate(seat, "skip_limit", gone)
        else:
            frm = code.frm[move]
            to = code.to[move]
            mover = board[frm]
            target = board[to]
            entry[1], entry[2], entry[3], entry[4] = frm, to, mover, target
            if not target:
                board[to] = mover
                board[frm] = 0
                self.quiet += 1
            else:
                result = self.combat[mover & KIND_MASK][target & KIND_MASK]
                if result == ATTACKER_WINS:
                    board[to] = mover
                    board[frm] = 0
                elif result == DEFENDER_WINS:
                    board[frm] = 0
                else:
                    board[frm] = 0
                    board[to] = 0
                self.quiet = 0
                if target & KIND_MASK == pc.FLAG and result != DEFENDER_WINS:
                    self._eliminate(SEAT_OF[target], "flag_captured", gone)
        if not self.decided:
            self._pass_turn(seat, gone)

    def pop(self) -> Move:
        move, frm, to, mover, target, quiet, seat, out, skips, decided, ply, gone = (
            self._stack.pop()
        )
        board = self.board
        for _, _, removed in reversed(gone):
            for square, p in removed:
                board[square] = p
        if frm >= 0:
            board[frm] = mover
            board[to] = target
        self.quiet = quiet
        self.turn = seat
        self.out = out
        self.skips[seat] = skips
        self.decided = decided
        self.ply = ply
        return move

    def surrender_move(self, seat: int) -> Move:
        """The pseudo-move that takes `seat` out by its own choice (pushed like a move)."""
        return -1 - seat

    def settle(self) -> list[tuple[int, str]]:
        """At the start of play: the seat to move, and each after it, goes out while it has
        no legal move.  Returns who went out (a new game almost never has anyone)."""
        gone: list[tuple[int, str, list[tuple[int, int]]]] = []
        self._pass_turn(self.turn - self.turn_step, gone)
        return [(s, why) for s, why, _ in gone]

    def eliminated_by_last_push(self) -> list[tuple[int, str]]:
        """(seat, reason) of every army the last push took off the board, in order."""
        return [(s, why) for s, why, _ in self._stack[-1][11]] if self._stack else []

    def _eliminate(self, seat: int, reason: str, gone: list) -> None:
        """The seat's whole army leaves the board; a team with both seats out has lost."""
        board = self.board
        removed = []
        for square, p in enumerate(board):
            if p and SEAT_OF[p] == seat:
                removed.append((square, p))
                board[square] = 0
        self.out |= 1 << seat
        self.quiet = 0
        gone.append((seat, reason, removed))
        if self.out >> partner_of(seat) & 1:
            self.decided = Outcome(team_of(seat) ^ 1, RESULT_REASONS[reason])

    def _pass_turn(self, seat: int, gone: list) -> None:
        """The turn goes to the next seat still in; one with no legal move goes out."""
        step = self.turn_step
        for _ in range(SEATS):
            seat = (seat + step) % SEATS
            if self.out >> seat & 1:
                continue
            if self.has_move(seat):
                self.turn = seat
                return
            self._eliminate(seat, "no_legal_move", gone)
            if self.decided:
                self.turn = seat
                return

    # --- end of play -----------------------------------------------------------------------

    def outcome_given(self, moves: list[Move]) -> Outcome | None:
        if self.decided is not None:
            return self.decided
        if self.quiet >= self.quiet_limit:
            return Outcome(None, "quiet_moves")
        return None

    def team_out(self, team: int) -> bool:
        return self.out & (5 << team) == 5 << team


SiguoPosition._tables()
