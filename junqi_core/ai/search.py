"""Search: alpha-beta over one world with an incrementally updated score.

`Searcher` runs a fixed-depth negamax on a `Position` using push/pop (no copies per
node).  The last full-width ply is scored without generating the replies: each move's
table delta, minus what the opponent could take back at once (a local exchange check
on the destination square), minus a near-win for the opponent if the move leaves them
an immediate flag capture (Gunjin: an occupation of the headquarters).

`root_values` gives a value for every root move, exact when within `margin` of the best
(an upper bound below that), so that values can be averaged over sampled worlds.

Blind: face-down pieces stay face down in the search position.  At the root a flip is a
chance node over the public pool; below the root a side may always "flip" instead of
moving, which is scored as standing pat (a flip is worth about nothing on average).

What differs between families is in subclasses and data: `JunqiSearcher` (threats on
a flag that stands still; `GuardedFlagSearcher` for a flag only an Engineer may take once
its mines are gone) and `GunjinSearcher` (threats of occupying the headquarters, flags
that fight with the piece behind them).  The family strategy (`strategy`) builds them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from junqi_core import pieces as pc
from junqi_core.ai.evaluate import WIN, move_delta, move_deltas
from junqi_core.pieces import (
    ATTACKER_WINS,
    BOTH_REMOVED,
    COLOUR_BIT,
    COLOUR_BITS,
    COLOUR_OF,
    DEFENDER_WINS,
    FACE_DOWN,
    SIDE_AND_KIND,
)
from junqi_core.rules import Position
from junqi_core.topology import NORTH, SOUTH

if TYPE_CHECKING:
    from junqi_core.ai.strategy import Strategy

INF = 1e9
CHECK_EVERY = 256  # nodes between wall-clock checks
THREAT = 0.5 * WIN  # a move that leaves the opponent an immediate win
DANGER = 0.2 * WIN  # one that lets them set up a capture of the flag nothing can stop
HANG = 0.8  # share of a piece's value lost when it can be taken at once
PRESS = 0.05 * WIN  # a threat on the enemy flag that they can parry
UNSTOPPABLE = 0.4 * WIN  # one that they cannot
FADE = 0.8  # share of the lead gone when the quiet-move counter reaches its limit


class TimeUp(Exception):
    """The wall-clock safety cap ran out (only when a cap is set)."""


class NodeLimit(TimeUp):
    """The node budget ran out (deterministic, unlike the wall clock)."""


Lines = tuple[tuple[tuple[int, ...], ...], ...]


class Searcher:
    """The search shared by every family; subclasses say how a square is attacked and
    what threatens a side's flag (Gunjin: its headquarters)."""

    def __init__(
        self,
        strategy: Strategy,
        pst: list[list[float]],
        clock: Callable[[], float] | None = None,
        deadline: float | None = None,
        values: tuple[float, ...] = (),
        hang: float = HANG,
        watch: bool = False,
        gates: bool = False,
    ) -> None:
        variant = strategy.variant
        cls = variant.position_class
        self.flips = strategy.flips  # Blind: a side may always turn a piece instead
        # taking the flag wins at once (Junqi); a Gunjin flag fights with the piece behind
        self.flag_wins = variant.flag_capture_ends
        self.flag_behind = variant.flag_behind
        # pieces whose entry into the enemy headquarters wins (Gunjin), and per colour
        # the headquarters whose entry wins against it (-1: none, Junqi)
        self.occupiers = variant.occupiers
        self.hq = (-1, -1)
        self.pst = pst
        self.hang = hang
        # a one-ply searcher that still sees a capture of its flag two moves away
        self.watch = watch or gates
        # ... and one through an own piece on a gate that an enemy piece beside it beats
        # (an Engineer through a mine), unless a piece of its own can take that one back
        self.gates = gates
        self.node_limit = 1 << 62
        # PIMC without strategy fusion at the last ply: the searching side's attacks on
        # enemy pieces it does not know are scored over its belief, not the world's truth
        self.my_colour = -1
        self.marginal: dict[int, list[tuple[int, float]]] = {}
        # (move, attacker, belief square) -> that attack's terms in this world's tables
        self._attack_terms: dict[tuple[int, int, int], tuple[float, float, float, float]] = {}
        self.clock = clock
        self.deadline = deadline
        self.nodes = 0
        # the node count at which the clock is read next: the last ply adds its moves in
        # one step, so a test on `nodes` modulo CHECK_EVERY would miss most checks
        self._next_check = CHECK_EVERY
        self.combat = cls.combat
        self.flag_kind = cls.flag_kind
        # how moves are taken apart: the post a move leaves, the post it reaches
        self.frm_of = cls.move_code.frm
        self.to_of = cls.move_code.to
        self.size = cls.spec.size
        self.camps = tuple(s in cls.spec.camps for s in range(cls.spec.size))
        self.frozen = getattr(cls, "frozen", (False,) * cls.spec.size)
        self.neighbours = cls.spec.neighbours
        # per square, the squares from which a piece could attack it in one move
        self.press_zone: tuple[frozenset[int], ...] = strategy.press_zone
        # absolute material value per piece int (for exchange estimates)
        self.value = values or tuple(abs(pst[p][0]) if pst else 0.0 for p in range(128))
        self.flags: list[int | None] = [None, None]

    def set_world(self, pst: list[list[float]], values: tuple[float, ...], pos: Position) -> None:
        self.pst = pst
        self.value = values
        self.find_flags(pos)
        self._attack_terms.clear()

    def find_flags(self, pos: Position) -> None:
        """Where each colour's face-up flag stands in the world searched."""
        flags: list[int | None] = [None, None]
        fk = self.flag_kind
        for s, p in enumerate(pos.board):
            if p and not p & FACE_DOWN and p & 31 == fk:
                flags[COLOUR_OF[p]] = s
        self.flags = flags

    def _tick(self) -> None:
        nodes = self.nodes + 1
        self.nodes = nodes
        if nodes > self.node_limit:
            raise NodeLimit
        if nodes >= self._next_check and self.deadline is not None:
            self._next_check = nodes + CHECK_EVERY
            if self.clock() > self.deadline:  # type: ignore[misc]
                raise TimeUp

    @staticmethod
    def terminal(pos: Position, ply: int) -> float:
        winner = pos.decided.winner  # type: ignore[union-attr]
        if winner is None:
            return 0.0
        return (WIN - ply) if winner == pos.turn else -(WIN - ply)

    @staticmethod
    def _no_moves(pos: Position, ply: int) -> float:
        outcome = pos.outcome_given([])
        if outcome.winner is None:  # type: ignore[union-attr]
            return 0.0
        return (WIN - ply) if outcome.winner == pos.turn else -(WIN - ply)  # type: ignore[union-attr]

    # --- threats on one square --------------------------------------------------------------

    def attackers(self, board: list[int], s: int, colour_bits: int) -> list[int]:
        """Pieces of the colour `colour_bits` that could attack square s in one move."""
        raise NotImplementedError

    def exposure(self, pos: Position, board: list[int], s: int, p: int) -> float:
        """What the opponent gains at once by attacking piece p on square s (>= 0)."""
        enemy_bits = (p & COLOUR_BIT) ^ COLOUR_BIT
        best = 0.0
        value = self.value
        combat = self.combat
        kind = p & 31
        for a in self.attackers(board, s, enemy_bits):
            r = combat[a & 31][kind]
            if r == ATTACKER_WINS:
                gain = value[p]
            elif r == BOTH_REMOVED:
                gain = value[p] - value[a]
            else:
                gain = -value[a]
            if gain > best:
                best = gain
        return best

    def flag_danger(self, pos: Position, board: list[int], colour: int) -> bool:
        """Whether the opponent of `colour` can set up a win next move that nothing can
        stop (only Junqi's flags are looked at this way)."""
        return False

    def can_parry(self, board: list[int], s: int, p: int, colour: int) -> bool:
        """Whether `colour` can answer a threat by piece p on square s: take it (or trade
        with it)."""
        combat = self.combat
        kind = p & 31
        for a in self.attackers(board, s, COLOUR_BITS[colour]):
            if combat[a & 31][kind] != DEFENDER_WINS:
                return True
        return False

    def flag_threat(self, pos: Position, board: list[int], colour: int) -> bool:
        """Whether the opponent of `colour` can win at once (flag capture / occupation)."""
        raise NotImplementedError

    # --- search -----------------------------------------------------------------------------

    def negamax(
        self, pos: Position, depth: int, alpha: float, beta: float, score: float, ply: int
    ) -> float:
        """Value for the side to move (depth >= 1); `score` is colour 0's table score."""
        self._tick()
        if pos.decided is not None:
            return self.terminal(pos, ply)
        quiet: list[int] = []
        can_flip = False
        if depth <= 1:
            # the last ply takes moves onto empty posts apart (see `leaf`)
            moves: list[int] = []
            pos.generate(None, quiet.append, moves.append)  # type: ignore[attr-defined]
            if self.flips:
                can_flip = any(p & FACE_DOWN for p in pos.board)
        else:
            moves = pos.legal_moves()
            frm_of, to_of = self.frm_of, self.to_of
            if self.flips and moves and frm_of[moves[0]] == to_of[moves[0]]:
                can_flip = True
                moves = [m for m in moves if frm_of[m] != to_of[m]]
        if not moves and not quiet and not can_flip:
            return self._no_moves(pos, ply)
        if pos.quiet >= pos.quiet_limit:
            return 0.0
        sign = 1.0 if (pos.turn ^ pos.swap) & 1 == 0 else -1.0
        if depth <= 1:
            return self.leaf(pos, moves, alpha, beta, score, ply, sign, can_flip, quiet)
        pst = self.pst
        scored = [(sign * d, m) for d, m in zip(self.deltas(pos, pst, moves), moves, strict=True)]
        scored.sort(reverse=True)
        best = -INF
        if can_flip:  # flipping instead of moving: about neutral
            best = sign * score
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
        push = pos.push
        pop = pos.pop
        for d, m in scored:
            push(m)
            v = -self.negamax(pos, depth - 1, -beta, -alpha, score + sign * d, ply + 1)
            pop()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        return best

    delta = staticmethod(move_delta)
    deltas = staticmethod(move_deltas)

    def leaf(
        self,
        pos: Position,
        moves: list[int],
        alpha: float,
        beta: float,
        score: float,
        ply: int,
        sign: float,
        can_flip: bool,
        quiet_moves: list[int] | tuple[()] = (),
    ) -> float:
        """The last full-width ply: every move scored from its table delta, then the best
        few (in order) checked for what the opponent could do at once.  `quiet_moves`:
        moves known to go onto an empty post (one piece's together), scored from the
        piece's table row alone; only the best of them get an entry in the order at
        first, the others only if the checks go that far (rarely)."""
        board = pos.board
        pst = self.pst
        self.nodes += len(moves) + len(quiet_moves)
        colour = (pos.turn ^ pos.swap) & 1
        flag_wins = self.flag_wins
        flag_behind = self.flag_behind
        flag_kind = self.flag_kind
        win = WIN - ply - 1
        best = -INF
        if can_flip:
            best = sign * score
            if self.flag_threat(pos, board, colour):
                best -= THREAT
        # what the side to move presses on: the enemy HQ (Gunjin) or the enemy flag
        enemy_hq = self.hq[colour ^ 1]
        target = enemy_hq if enemy_hq >= 0 else self.flags[colour ^ 1]
        zone = self.press_zone[target] if target is not None else ()
        occupiers = self.occupiers
        # After a move without combat the quiet-move draw comes one ply nearer: fade the
        # lead towards a draw (0) as it does, so that a side ahead seeks combat.
        fade = 1.0 - FADE * ((pos.quiet + 1) / pos.quiet_limit) ** 2
        # (upper bound, value, move, combat result) per move; checked in descending order
        cands: list[tuple[float, float, int, int]] = []
        append = cands.append
        guess = self.marginal if colour == self.my_colour and ply >= 2 else None
        last = pos.last_move
        frm_of = self.frm_of
        to_of = self.to_of
        last_from = frm_of[last]
        last_to = to_of[last] if last_from != to_of[last] else -1  # (a flip moved nothing)
        faded = sign * fade
        combat = self.combat
        attack_terms = self._attack_terms
        # A move onto an empty post outside the zone is worth faded * (score + d), d the
        # change of its piece's table value, so the best of them have the highest
        # sign * d (fade > 0): `top` is that, `tops` the moves that reach it, `second`
        # the highest below it.
        top = second = -INF
        tops: list[int] = []
        mover_at = -1
        for m in quiet_moves:
            frm = frm_of[m]
            if frm != mover_at:
                mover_at = frm
                p = board[frm]
                row = pst[p]
                here = row[frm]
                hq = enemy_hq if p & 31 in occupiers else -1  # its entry there wins
            to = to_of[m]
            if to in zone:
                if to == hq:
                    return win
                v = faded * (score + (row[to] - here))
                append((v + UNSTOPPABLE, v, m, ATTACKER_WINS))
                continue
            if to == hq:
                return win
            k = sign * (row[to] - here)
            if k > second:
                if k > top:
                    second = top
                    top = k
                    tops = [m]
                elif k == top:
                    tops.append(m)
                else:
                    second = k
        for m in moves:
            frm = frm_of[m]
            to = to_of[m]
            p = board[frm]
            q = board[to]
            if not q:  # onto an empty post (a root move scored alone)
                if to == enemy_hq and p & 31 in occupiers:
                    return win
                row = pst[p]
                v = faded * (score + (row[to] - row[frm]))
                append((v + UNSTOPPABLE if to in zone else v, v, m, ATTACKER_WINS))
                continue
            if guess:
                # the belief about the enemy piece there, followed back over its last move
                where = last_from if to == last_to else to
                known = guess.get(where)
                if known is not None:
                    key = (m, p, where)
                    terms = attack_terms.get(key)
                    if terms is None:
                        terms = attack_terms[key] = self._attack_terms_over(p, frm, to, known)
                    taken, other, gain, flag_chance = terms
                    v = taken * win + sign * (other * score + gain)
                    r = combat[p & 31][q & 31]
                    if flag_chance:
                        v += flag_chance * self._gunjin_flag_attack(pos, frm, to, sign, score)
                    if flag_behind and q & 31 == flag_kind:
                        r = pos.combat_result(frm, to)
                    append((v + UNSTOPPABLE if r == ATTACKER_WINS and to in zone else v, v, m, r))
                    continue
            r = combat[p & 31][q & 31]
            if q & 31 == flag_kind:
                if flag_wins:
                    if r != DEFENDER_WINS:
                        return win
                elif flag_behind:  # a Gunjin flag fights with the piece behind it
                    r = pos.combat_result(frm, to)
            if r == ATTACKER_WINS:
                if to == enemy_hq and p & 31 in occupiers:
                    return win
                d = pst[p][to] - pst[p][frm] - pst[q][to]
            elif r == BOTH_REMOVED:
                d = -pst[p][frm] - pst[q][to]
            else:
                d = -pst[p][frm]
            v = sign * (score + d)
            # an upper bound: only a threat on the enemy flag can add to it
            append((v + UNSTOPPABLE if r == ATTACKER_WINS and to in zone else v, v, m, r))
        # Every move onto an empty post without an entry yet is worth at most `bound`, and
        # each entry above it comes before all of them in the full order.
        exact = cands[:] if tops else cands
        for m in tops:
            frm = frm_of[m]
            row = pst[board[frm]]
            v = faded * (score + (row[to_of[m]] - row[frm]))
            append((v, v, m, ATTACKER_WINS))
        bound = faded * (score + sign * second) if second > -INF else -INF
        complete = bound == -INF  # every move has its entry
        cands.sort(reverse=True)
        i = 0
        while True:
            if i < len(cands):
                upper, v, m, r = cands[i]
                if upper <= bound and not complete:
                    upper = bound  # the next move may be one without an entry yet
            elif complete:
                return best
            else:
                upper = bound
            if upper <= best:
                return best
            if upper == bound and not complete:
                # the checks go below the entries made so far: make all, take up the order
                # where it was (the first i entries are the same)
                cands = exact + self._quiet_entries(board, quiet_moves, zone, faded, score)
                cands.sort(reverse=True)
                complete = True
                continue
            i += 1
            frm = frm_of[m]
            to = to_of[m]
            p = board[frm]
            saved = board[to]
            # play it on the board in place (no push) and look at the replies' chances
            board[frm] = 0
            if r == ATTACKER_WINS:
                board[to] = p
                exposed = self.exposure(pos, board, to, p)
                if exposed:
                    v -= self.hang * exposed
                if upper > v and self.flag_threat(pos, board, colour ^ 1):
                    # a threat on the enemy flag (HQ): decisive if they cannot parry it
                    v += PRESS if self.can_parry(board, to, p, colour ^ 1) else UNSTOPPABLE
            elif r == BOTH_REMOVED:
                board[to] = 0
            if self.flag_threat(pos, board, colour):
                v -= THREAT
            elif self.watch and self.flag_danger(pos, board, colour):
                v -= DANGER
            board[frm] = p
            board[to] = saved
            if v > best:
                best = v
                if v >= beta:
                    return best

    def _quiet_entries(
        self,
        board: list[int],
        quiet_moves: list[int] | tuple[()],
        zone: frozenset[int] | tuple[()],
        faded: float,
        score: float,
    ) -> list[tuple[float, float, int, int]]:
        """`leaf`'s entries for every move onto an empty post outside the zone."""
        pst = self.pst
        frm_of, to_of = self.frm_of, self.to_of
        out = []
        append = out.append
        mover_at = -1
        for m in quiet_moves:
            frm = frm_of[m]
            if frm != mover_at:
                mover_at = frm
                row = pst[board[frm]]
                here = row[frm]
            to = to_of[m]
            if to not in zone:
                v = faded * (score + (row[to] - here))
                append((v, v, m, ATTACKER_WINS))
        return out

    def _attack_terms_over(
        self, p: int, frm: int, to: int, believed: list[tuple[int, float]]
    ) -> tuple[float, float, float, float]:
        """Attacking an unknown piece, over what it may be, as (chance of winning at once,
        chance of anything else, mean table change of the rest, chance of a Gunjin flag).
        The attack's mean value is `taken * win + sign * (other * score + gain)`, plus the
        flag's chance times `_gunjin_flag_attack`: these terms do not depend on the
        position, so one world computes them once per move (a Gunjin flag's fight does)."""
        pst = self.pst
        row = pst[p]
        attack = self.combat[p & 31]
        flag_kind = self.flag_kind
        flag_behind = self.flag_behind
        flag_wins = self.flag_wins
        takes_hq = to == self.hq[COLOUR_OF[p] ^ 1] and p & 31 in self.occupiers
        taken = other = gain = flag_chance = 0.0
        for q, prob in believed:
            kind = q & 31
            r = attack[kind]
            if kind == flag_kind:
                if flag_behind:  # a Gunjin flag fights with the piece behind it
                    flag_chance += prob
                    continue
                if flag_wins and r != DEFENDER_WINS:
                    taken += prob
                    continue
            if r == ATTACKER_WINS:
                if takes_hq:
                    taken += prob
                    continue
                d = row[to] - row[frm] - pst[q][to]
            elif r == BOTH_REMOVED:
                d = -row[frm] - pst[q][to]
            else:
                d = -row[frm]
            other += prob
            gain += prob * d
        return taken, other, gain, flag_chance

    def _gunjin_flag_attack(
        self, pos: Position, frm: int, to: int, sign: float, score: float
    ) -> float:
        """Static value of attacking `to` were it the enemy's Gunjin flag, whose strength is
        that of the piece behind it in this position (never a win: no flag is in an HQ)."""
        board = pos.board
        p = board[frm]
        flag = self.flag_kind | (board[to] & 32)
        saved = board[to]
        board[to] = flag
        r = pos.combat_result(frm, to)
        board[to] = saved
        row = self.pst[p]
        if r == ATTACKER_WINS:
            d = row[to] - row[frm] - self.pst[flag][to]
        elif r == BOTH_REMOVED:
            d = -row[frm] - self.pst[flag][to]
        else:
            d = -row[frm]
        return sign * (score + d)

    def root_values(
        self,
        pos: Position,
        moves: list[int],
        depth: int,
        score: float,
        margin: float,
    ) -> list[float]:
        """A value for each root move (side to move's view), in the order given."""
        if depth <= 1:
            return [self.leaf(pos, [m], -INF, INF, score, 0, self._sign(pos), False) for m in moves]
        values = []
        best = -INF
        for m in moves:
            v = self._search_move(pos, m, depth, score, best - margin)
            values.append(v)
            if v > best:
                best = v
        return values

    def _search_move(self, pos: Position, m: int, depth: int, score: float, floor: float) -> float:
        """One root move searched to `depth` (side to move's view); values below `floor`
        need only be known to be below it."""
        sign = self._sign(pos)
        d = sign * self.delta(pos, self.pst, m)
        height = pos.height
        pos.push(m)
        self.nodes += 1
        try:
            if pos.decided is not None:
                return -self.terminal(pos, 1)
            return -self.negamax(pos, depth - 1, -INF, -floor, score + sign * d, 1)
        finally:
            pos.pop_to(height)  # also a line cut short by the clock or the node budget

    def _after_flip(self, pos: Position, square: int, p: int, score: float) -> float:
        """A flip's outcome scored for the side that flipped, the opponent now to move:
        the static score, less the piece if it is the flipper's and can be taken at once,
        less a near-loss if the flipper's flag can now be captured."""
        board = pos.board
        colour = (pos.turn ^ 1 ^ pos.swap) & 1
        v = (1.0 if colour == 0 else -1.0) * score
        if COLOUR_OF[p] == colour:
            v -= self.hang * self.exposure(pos, board, square, p)
        if self.flag_threat(pos, board, colour):
            v -= THREAT
        elif self.watch and self.flag_danger(pos, board, colour):
            v -= DANGER
        return v

    @staticmethod
    def _sign(pos: Position) -> float:
        return 1.0 if (pos.turn ^ pos.swap) & 1 == 0 else -1.0

    def blind_root_values(
        self,
        pos: Position,
        moves: list[int],
        depth: int,
        score: float,
        outcomes: list[tuple[int, float]],
        pool_value: dict[int, float],
        margin: float,
    ) -> list[float]:
        """Blind root: moves are searched; a flip averages over every pool outcome."""
        pst = self.pst
        board = pos.board
        values = []
        best = -INF
        self.find_flags(pos)
        root_flags = list(self.flags)
        for m in moves:
            frm = self.frm_of[m]
            flip = frm == self.to_of[m]
            if not flip and depth <= 1:
                v = self.leaf(pos, [m], -INF, INF, score, 0, self._sign(pos), False)
            elif not flip:
                v = self._search_move(pos, m, depth, score, best - margin)
            else:
                saved = board[frm]
                v = 0.0
                for p, prob in outcomes:
                    board[frm] = p | FACE_DOWN
                    delta = pst[p][frm] - pool_value[p]
                    if p & 31 == self.flag_kind:
                        self.flags[COLOUR_OF[p]] = frm
                    height = pos.height
                    pos.push(m)
                    self.nodes += 1
                    try:
                        if pos.decided is not None:
                            w = -self.terminal(pos, 1)
                        elif depth <= 1:
                            w = self._after_flip(pos, frm, p, score + delta)
                        else:
                            w = -self.negamax(pos, depth - 1, -INF, INF, score + delta, 1)
                        v += prob * w
                    finally:
                        pos.pop_to(height)
                        board[frm] = saved
                        self.flags[0], self.flags[1] = root_flags
            values.append(v)
            if v > best:
                best = v
        return values


_JUNQI_MOVERS = tuple(
    tuple(
        bool(p) and not p & FACE_DOWN and COLOUR_OF[p] == colour and p & 31 < pc.LANDMINE
        for p in range(128)
    )
    for colour in (0, 1)
)


class JunqiSearcher(Searcher):
    """Junqi (Classic, Blind): a side loses when an enemy piece reaches its flag."""

    def __init__(self, strategy: Strategy, pst: list[list[float]], *args, **kwargs) -> None:
        super().__init__(strategy, pst, *args, **kwargs)
        # per square, the lines along which a piece could reach it in one move
        self.lines: Lines = strategy.lines
        self.rail_neighbours = strategy.variant.position_class.spec.rail_neighbours
        # the gates of a headquarters that an Engineer may reach round a railway corner
        self.rail_gates: tuple[bool, ...] = strategy.rail_gates
        # per colour, by piece int: a face-up piece of that colour that moves
        self.movers = _JUNQI_MOVERS

    def attackers(self, board: list[int], s: int, colour_bits: int) -> list[int]:
        if self.camps[s]:
            return []
        return self.reachers(board, s, colour_bits)

    def reachers(self, board: list[int], s: int, colour_bits: int) -> list[int]:
        """Pieces of the colour `colour_bits` that could move onto square s, whether or
        not a piece there could be attacked."""
        out = []
        frozen = self.frozen
        mover = self.movers[COLOUR_OF[colour_bits]]
        for line in self.lines[s]:
            for t in line:
                q = board[t]
                if q:
                    if mover[q] and not frozen[t]:
                        out.append(q)
                    break
        return out

    def rail_engineers(self, board: list[int], s: int, colour_bits: int) -> list[int]:
        """Engineers of the colour `colour_bits` that could run to square s along the
        railway round a corner (`reachers` has those on a straight line)."""
        out = []
        rail_neighbours = self.rail_neighbours
        engineer = pc.ENGINEER | colour_bits
        frozen = self.frozen
        seen = [False] * len(board)  # (faster than a set in Pyodide)
        seen[s] = True
        frontier = [s]
        while frontier:
            u = frontier.pop()
            for t in rail_neighbours[u]:
                if seen[t]:
                    continue
                seen[t] = True
                q = board[t]
                if not q:
                    frontier.append(t)
                elif q == engineer and not frozen[t]:
                    out.append(q)
        return out

    def takers(self, pos: Position, board: list[int], flag: int, pieces: list[int]) -> list[int]:
        """Those of `pieces` that may take the flag on square `flag` (any of them here)."""
        return pieces

    def flag_danger(self, pos: Position, board: list[int], colour: int) -> bool:
        """Whether an enemy piece can step next to `colour`'s face-up flag where it could
        not be taken (a camp, or a post none of `colour`'s pieces can reach): the capture
        would follow next move, too late to stop."""
        flag = self.flags[colour]
        if flag is None or board[flag] & 31 != self.flag_kind:
            return False
        enemy_bits = COLOUR_BITS[colour ^ 1]
        if self.gates:
            return self._gate_danger(pos, board, flag, colour, enemy_bits)
        for line in self.lines[flag]:
            gate = line[0]
            if board[gate]:
                continue
            if not self.takers(pos, board, flag, self.reachers(board, gate, enemy_bits)):
                continue
            if self.camps[gate] or not self.reachers(board, gate, COLOUR_BITS[colour]):
                return True
        return False

    def _gate_danger(
        self, pos: Position, board: list[int], flag: int, colour: int, enemy_bits: int
    ) -> bool:
        """`flag_danger` looking through the gates too: an enemy piece that can move onto
        a gate (empty, or held by an own piece it beats) and would take the flag from
        there, where no own piece could take it (or trade with it) first."""
        combat = self.combat
        own_bits = COLOUR_BITS[colour]
        for line in self.lines[flag]:
            gate = line[0]
            held = board[gate]
            if held and held & COLOUR_BIT != own_bits:
                continue  # an enemy piece there already: `flag_threat`
            attackers = self.reachers(board, gate, enemy_bits)
            if self.rail_gates[gate]:
                attackers += self.rail_engineers(board, gate, enemy_bits)
            if not attackers:
                continue
            defenders = None if self.camps[gate] else self.reachers(board, gate, own_bits)
            for a in self.takers(pos, board, flag, attackers):
                kind = a & 31
                if held and combat[kind][held & 31] != ATTACKER_WINS:
                    continue
                if not defenders or all(combat[d & 31][kind] == DEFENDER_WINS for d in defenders):
                    return True
        return False

    def flag_threat(self, pos: Position, board: list[int], colour: int) -> bool:
        flag = self.flags[colour]
        if flag is None or board[flag] & 31 != self.flag_kind:
            return False
        return bool(self.attackers(board, flag, COLOUR_BITS[colour ^ 1]))


class GuardedFlagSearcher(JunqiSearcher):
    """Blind under "an Engineer takes the flag": only an Engineer threatens a flag, and
    only once every Landmine of the flag's colour is gone (the search position counts
    the mines still face down: `belief.own_position`)."""

    def takers(self, pos: Position, board: list[int], flag: int, pieces: list[int]) -> list[int]:
        if not pieces or pos.mines_left(board[flag] & COLOUR_BIT):  # type: ignore[attr-defined]
            return []
        return [a for a in pieces if a & 31 == pc.ENGINEER]

    def flag_threat(self, pos: Position, board: list[int], colour: int) -> bool:
        flag = self.flags[colour]
        if flag is None or board[flag] & 31 != self.flag_kind:
            return False
        enemy_bits = COLOUR_BITS[colour ^ 1]
        return bool(self.takers(pos, board, flag, self.attackers(board, flag, enemy_bits)))


@functools.cache
def _gunjin_attack_tables(cls: type[Position]) -> tuple:
    """What can attack a Gunjin square: a piece beside it; an Engineer running to it along
    a ground ray (from two squares away or more: (first square, the rest) per ray); a
    Plane flying to it from north or south over anything between (two squares away or
    more).  Also per colour, by piece int: a piece that moves, an Engineer, a Plane."""
    rays = cls.tables  # type: ignore[attr-defined]
    n = cls.spec.size
    runs = tuple(
        tuple((ray[0], ray[1:]) for by_d in rays.ground_rays[s] for ray in by_d if len(ray) > 1)
        for s in range(n)
    )
    flights = tuple(
        tuple(t for d in (NORTH, SOUTH) for ray in rays.flight_rays[s][d] for t in ray[1:])
        for s in range(n)
    )
    engineers, planes = (
        tuple(
            tuple(p & SIDE_AND_KIND == pc.piece(kind, colour) for p in range(128))
            for colour in (0, 1)
        )
        for kind in (pc.G_ENGINEER, pc.PLANE)
    )
    return runs, flights, cls.gunjin_mover, engineers, planes  # type: ignore[attr-defined]


class GunjinSearcher(Searcher):
    """Gunjin: a side loses when an occupier enters its headquarters; flags are pieces."""

    def __init__(self, strategy: Strategy, pst: list[list[float]], *args, **kwargs) -> None:
        super().__init__(strategy, pst, *args, **kwargs)
        cls = strategy.variant.position_class
        hq = cls.spec.hqs
        self.hq = (hq[0][0], hq[1][0])
        # what can attack a square (`attackers`), per square and colour
        attack = _gunjin_attack_tables(cls)
        self.engineer_runs, self.plane_flights, self.movers, self.engineers, self.planes = attack
        # per colour, by piece int: an occupier of it (whose entry into the enemy HQ wins)
        self.occupier = tuple(
            tuple(bool(mover[p]) and p & 31 in self.occupiers for p in range(128))
            for mover in self.movers
        )
        # whether an occupier may come from afar (an Engineer's run, a Plane's flight)
        self.occupiers_from_afar = bool(self.occupiers & {pc.G_ENGINEER, pc.PLANE})

    def find_flags(self, pos: Position) -> None:
        self.flags = [None, None]  # a Gunjin flag is no target: the headquarters is

    def attackers(self, board: list[int], s: int, colour_bits: int) -> list[int]:
        colour = COLOUR_OF[colour_bits]
        mover = self.movers[colour]
        out = [q for q in map(board.__getitem__, self.neighbours[s]) if mover[q]]
        engineer = self.engineers[colour]
        for first, rest in self.engineer_runs[s]:
            if board[first]:
                continue  # a piece beside s attacks from there (above) or blocks the run
            for t in rest:
                q = board[t]
                if q:
                    if engineer[q]:
                        out.append(q)
                    break
        plane = self.planes[colour]
        for t in self.plane_flights[s]:
            q = board[t]
            if plane[q]:
                out.append(q)
        return out

    def can_parry(self, board: list[int], s: int, p: int, colour: int) -> bool:
        """Also: put a piece the threatening one cannot beat into the empty headquarters."""
        if super().can_parry(board, s, p, colour):
            return True
        combat = self.combat
        kind = p & 31
        hq = self.hq[colour]
        if not board[hq]:
            for t in self.neighbours[hq]:
                q = board[t]
                if (
                    q
                    and COLOUR_OF[q] == colour
                    and q & 31 < pc.MINE
                    and combat[kind][q & 31] != ATTACKER_WINS
                ):
                    return True
        return False

    def flag_threat(self, pos: Position, board: list[int], colour: int) -> bool:
        enemy_bits = COLOUR_BITS[colour ^ 1]
        hq = self.hq[colour]
        inside = board[hq]
        if inside and inside & COLOUR_BIT == enemy_bits:
            return False
        if self.occupiers_from_afar:
            occupiers = self.occupiers
            near = [a for a in self.attackers(board, hq, enemy_bits) if a & 31 in occupiers]
        else:  # only a piece beside it can enter
            occupier = self.occupier[colour ^ 1]
            near = [q for q in map(board.__getitem__, self.neighbours[hq]) if occupier[q]]
        if not inside:
            return bool(near)
        beaten = inside & 31
        combat = self.combat
        return any(combat[a & 31][beaten] == ATTACKER_WINS for a in near)
