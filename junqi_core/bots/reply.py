"""The reply bot: its own move and the opponent's best reply, over exact deductions.

For every legal action it asks two questions: what does this move win or lose on
average over what the enemy piece it attacks can be, and what is the best the opponent
can do straight after it.  What each hidden enemy piece can be comes from its record
(`tracker.ExactTracker`: the start square, how it moved, every combat with a piece of
ours, and the piece counts read exactly), the chances from the counts spread over the
pieces that may be each kind.  The opponent is taken to know this bot's pieces and its
own: each enemy piece replies with the capture its kind does best (by the bots' values
of pieces, a capture of the flag or an occupation of the headquarters worth more than
everything), and the opponent plays the piece whose reply is worth most to it on
average.  An attack with uncertain outcome is followed down each outcome (won, traded,
lost: then the defender is known to be one of the kinds that beat the attacker).

So a move that leaves a piece where an enemy piece that may beat it can strike, or that
opens a line to the flag, costs what the opponent would take.  Among moves that cost
nothing, it walks towards the enemy flag (Classic: the headquarters likelier to hold it;
Gunjin: the enemy HQ; Blind: a face-up enemy flag, else the pieces it beats), Engineers
and strong pieces first.  In Blind a flip is scored over the face-down pool the same
way: a piece of its own turned up beside an enemy piece that beats it is lost, an enemy
piece turned up beside one of its pieces that beats it is a catch.

It deploys its strongest pieces and Engineers on the front railway and a Bomb behind
the front (Gunjin: the strong pieces at the passes), its flag in a headquarters with
mines at two gates (Gunjin: a Mine behind the flag, the Spy by the HQ).
"""

from __future__ import annotations

import random

from junqi_core import pieces as pc
from junqi_core.bots.base import Bot, LayoutBuilder, Picture, best_index
from junqi_core.bots.tracker import STEP, STILL, ExactTracker, Rules
from junqi_core.pieces import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS, FACE_DOWN

WIN = 1000.0
LATER = 0.5  # share of a capture that only the move after next could make
HQ_TRAP = 3.0  # Classic: nothing leaves a headquarters
HOME = 2  # steps from our flag within which a piece guards it
# movable pieces kept within HOME steps of our flag (Gunjin: our HQ, which every
# general and field officer can win by entering); enemy pieces within HOME + GUARDS - 2
# steps are struck when that is likely to win
GUARDS = 3
HQ_GUARDS = 5  # where an occupier wins by entering our HQ (Gunjin)
GATE = 0.4  # share of a win: an enemy piece on a gate of our flag that nothing can strike


def expected_best(rows: list[list[tuple[float, float]]]) -> float:
    """E[max(0, X_1, ..., X_n)] for independent X_i, each given as (value, chance) pairs
    (the chances may add up to less than one: the rest is worth nothing)."""
    levels = sorted({v for row in rows for v, p in row if v > 0 and p > 0})
    total = previous = 0.0
    for level in levels:
        below = 1.0
        for row in rows:
            below *= 1.0 - sum(p for v, p in row if v >= level)
        total += (level - previous) * (1.0 - below)
        previous = level
    return total


class Lookahead:
    """One view's position with the opponent's best reply to any change of it."""

    def __init__(self, rules: Rules, picture: Picture) -> None:
        self.rules = rules
        self.picture = picture
        self.board = picture.position().board
        swap = picture.swap if picture.swap >= 0 else 0
        self.colour = picture.me ^ swap
        self.enemy_colour = picture.them ^ swap
        self.swap = swap
        self.occupation = rules.occupation  # Gunjin: an occupier entering an HQ wins
        self.flag_wins = rules.rules.flag_capture_ends  # taking the flag wins (Junqi)
        hqs = rules.board.hqs
        self.my_hq = hqs[picture.me][0] if self.occupation else -1
        self.enemy_hq = hqs[picture.them][0] if self.occupation else -1
        self.flag_behind = rules.rules.flag_behind
        self.now = self.reply(self.board, picture.theirs)

    # --- the opponent's reply ------------------------------------------------------------

    def reply(self, board: list[int], theirs: dict[int, dict[int, float]]) -> float:
        """What the opponent's best move is worth to it on `board` (>= 0).  Each enemy
        piece, knowing its kind, has a best move: a capture (less what we take back at
        once), an occupation, or a step onto a gate of our flag from where nothing of ours
        can drive it off before it takes the flag.  The opponent plays the best of them;
        its worth is the mean over the kinds the pieces may be (`expected_best`)."""
        rules = self.rules
        move_class = rules.move_class
        mine_bits = pc.colour_bits(self.colour)
        gates = self._gates(board)
        classes: dict[str, None] = {}
        for odds in theirs.values():
            for k in odds:
                if move_class[k] != STILL:
                    classes[move_class[k]] = None
        best: dict[int, dict[int, float]] = {}
        hits: list[tuple[int, int, str]] = []
        for c in classes:
            trial = list(board)
            for s, odds in theirs.items():
                rep = rules.rep[c] if any(move_class[k] == c for k in odds) else rules.still_rep
                trial[s] = pc.piece(rep, self.enemy_colour)
            pos = rules.cls(trial, turn=self.picture.them, swap=self.swap)
            for m in pos.legal_moves(self.picture.them):
                frm, to = pos.move_code.split(m)
                if frm == to:
                    continue  # a flip (Blind)
                q = board[to]
                if q and q & (pc.COLOUR_BIT | FACE_DOWN) == mine_bits:
                    hits.append((frm, to, c))
                    continue
                if to != self.my_hq and to not in gates:
                    continue
                gains = best.setdefault(frm, {})
                for k in theirs[frm]:
                    if move_class[k] == c:
                        g = self.taken(k, to, board, ())
                        if to in gates:
                            g = max(g, self._at_gate(k, frm, to, board))
                        if g > gains.get(k, 0.0):
                            gains[k] = g
        guards = self._guards(board, {to for _, to, _ in hits})
        for frm, to, c in hits:
            gains = best.setdefault(frm, {})
            for k in theirs[frm]:
                if move_class[k] == c:
                    g = self.taken(k, to, board, guards.get(to, ()))
                    if to in gates:
                        g = max(g, self._at_gate(k, frm, to, board))
                    if g > gains.get(k, 0.0):
                        gains[k] = g
        return expected_best(
            [[(g, theirs[f][k]) for k, g in gains.items()] for f, gains in best.items() if gains]
        )

    def _guards(self, board: list[int], squares: set[int]) -> dict[int, list[int]]:
        """Square of ours -> kinds of our pieces that could strike an enemy piece that
        had just taken ours there."""
        if not squares:
            return {}
        trial = list(board)
        for s in squares:
            trial[s] = pc.piece(self.rules.rep[STEP], self.enemy_colour)
        pos = self.rules.cls(trial, turn=self.picture.me, swap=self.swap)
        out: dict[int, list[int]] = {}
        for m in pos.legal_moves(self.picture.me):
            frm, to = pos.move_code.split(m)
            if to in squares and frm in self.picture.mine:
                out.setdefault(to, []).append(trial[frm] & pc.KIND_MASK)
        return out

    def taken(self, kind: int, to: int, board: list[int], guards) -> float:
        """What an enemy `kind` gains by moving onto `to` (one of our pieces or our HQ),
        less what the best of our `guards` would take back (a piece that won stays)."""
        rules = self.rules
        values = rules.values
        q = board[to]
        occupies = to == self.my_hq and kind in rules.occupiers
        if not q:
            return WIN if occupies else 0.0
        mine = q & pc.KIND_MASK
        if mine == rules.flag and self.flag_wins:
            return WIN
        result = self.fight(kind, mine, to, board, self.colour)
        if result == ATTACKER_WINS:
            if occupies:
                return WIN
            back = 0.0
            for g in guards:
                r = rules.result(g, kind)
                if r == ATTACKER_WINS:
                    back = max(back, values[kind])
                elif r == BOTH_REMOVED:
                    back = max(back, values[kind] - values[g])
            return values[mine] - back
        if result == BOTH_REMOVED:
            return values[mine] - values[kind]
        return -values[kind]

    def _gates(self, board: list[int]) -> frozenset[int]:
        """The squares from which an enemy piece wins next move: beside our face-up flag
        (Junqi), beside our headquarters (Gunjin, where an occupier enters it)."""
        if self.occupation:
            return frozenset(self.rules.board.neighbours[self.my_hq])
        flag = self.picture.flag
        if flag is None or board[flag] & pc.KIND_MASK != self.rules.flag:
            return frozenset()
        return frozenset(self.rules.board.neighbours[flag])

    def _at_gate(self, kind: int, frm: int, gate: int, board: list[int]) -> float:
        """What an enemy `kind` from `frm` gains by standing on a gate (taking what is
        there): the flag (the headquarters) next move, unless a piece of ours can strike
        it first."""
        rules = self.rules
        q = board[gate]
        if q and self.fight(kind, q & pc.KIND_MASK, gate, board, self.colour) != ATTACKER_WINS:
            return 0.0
        if self.occupation:
            inside = board[self.my_hq]
            if kind not in rules.occupiers or (
                inside and rules.result(kind, inside & pc.KIND_MASK) != ATTACKER_WINS
            ):
                return 0.0
        if gate in rules.board.camps:
            return GATE * WIN
        trial = list(board)
        trial[frm] = 0
        trial[gate] = pc.piece(kind, self.enemy_colour)
        pos = rules.cls(trial, turn=self.picture.me, swap=self.swap)
        for m in pos.legal_moves(self.picture.me):
            frm, to = pos.move_code.split(m)
            if to == gate and frm != gate:
                mine = trial[frm] & pc.KIND_MASK
                if rules.result(mine, kind) != DEFENDER_WINS:
                    return 0.0
        return GATE * WIN

    def fight(self, attacker: int, defender: int, to: int, board: list[int], owner: int) -> int:
        """The outcome of `attacker` striking `defender` on `to` (a Gunjin flag fights
        with the known piece of `owner`'s colour behind it)."""
        rules = self.rules
        if defender == rules.flag and self.flag_behind:
            behind = rules.cls.tables.behind[owner][to]  # type: ignore[attr-defined]
            q = board[behind] if behind is not None else 0
            if q and pc.colour_of(q) == owner:
                defender = q & pc.KIND_MASK
        return rules.result(attacker, defender)

    # --- our move ------------------------------------------------------------------------

    def move(self, frm: int, to: int) -> float:
        """Our move's mean gain less the opponent's best reply after it."""
        rules = self.rules
        picture = self.picture
        kind = picture.mine[frm]
        piece = self.board[frm]
        odds = picture.theirs.get(to)
        if odds is None:
            if to == self.enemy_hq and kind in rules.occupiers:
                return WIN
            board = list(self.board)
            board[to], board[frm] = piece, 0
            return -self.reply(board, picture.theirs)
        total = 0.0
        for result, kinds in self.outcomes(kind, to, odds).items():
            mass = sum(kinds.values())
            if not mass:
                continue
            board = list(self.board)
            board[frm] = 0
            theirs = dict(picture.theirs)
            if result == DEFENDER_WINS:
                theirs[to] = {k: p / mass for k, p in kinds.items()}
            else:
                del theirs[to]
                if result == ATTACKER_WINS:
                    board[to] = piece
                    if to == self.enemy_hq and kind in rules.occupiers:
                        total += mass * WIN
                        continue
                else:
                    board[to] = 0
            for k, p in kinds.items():
                total += p * self.gained(kind, k, result)
            total -= mass * self.reply(board, theirs)
        return total

    def outcomes(self, kind: int, to: int, odds: dict[int, float]) -> dict[int, dict[int, float]]:
        """Result -> {enemy kind: chance} of our `kind` attacking a piece with these odds.
        A Classic flag taken ends the game: it is left out here (`gained` pays for it)."""
        rules = self.rules
        out: dict[int, dict[int, float]] = {ATTACKER_WINS: {}, BOTH_REMOVED: {}, DEFENDER_WINS: {}}
        for k, p in odds.items():
            if k == rules.flag and self.flag_behind:
                for r, share in self.flag_fight(kind, to).items():
                    out[r][k] = out[r].get(k, 0.0) + p * share
                continue
            out[rules.result(kind, k)][k] = p
        return out

    def flag_fight(self, kind: int, to: int) -> dict[int, float]:
        """Gunjin: result -> chance, were the piece on `to` the enemy flag, by the odds
        of the enemy piece behind it (none there: the flag loses)."""
        rules = self.rules
        behind = rules.cls.tables.behind[self.enemy_colour][to]  # type: ignore[attr-defined]
        odds = self.picture.theirs.get(behind) if behind is not None else None
        if not odds:
            return {rules.result(kind, rules.flag): 1.0}
        out: dict[int, float] = {}
        for k, p in odds.items():
            r = rules.result(kind, k)
            out[r] = out.get(r, 0.0) + p
        return out

    def gained(self, kind: int, enemy: int, result: int) -> float:
        """Material we gain when our `kind` attacks an enemy `enemy` with this result."""
        values = self.rules.values
        if enemy == self.rules.flag and self.flag_wins and result != DEFENDER_WINS:
            return WIN
        if result == ATTACKER_WINS:
            return values[enemy]
        if result == BOTH_REMOVED:
            return values[enemy] - values[kind]
        return -values[kind]

    # --- Blind flips -----------------------------------------------------------------------

    def flip(self, square: int) -> float:
        """A flip's mean value over the face-down pool: the opponent's best reply once the
        piece shows, and what we could take next if it is theirs."""
        rules = self.rules
        picture = self.picture
        values = rules.values
        strikers = self._strikers(square)
        ours = self._ours_beside(square)
        total = 0.0
        for owner, kind, chance in picture.flip_odds():
            if owner == picture.me:
                if kind == rules.flag:
                    lost = WIN if strikers else 0.0
                else:
                    lost = max((self._strike(a, kind) for a in strikers), default=0.0)
                total -= chance * max(self.now, lost)
                continue
            threat = 0.0
            if kind in rules.movable:
                reach = self._reach_from(square, kind)
                threat = max(
                    (self._strike(kind, picture.mine[t]) for t in reach if t in picture.mine),
                    default=0.0,
                )
            catch = 0.0
            for m in ours:
                r = rules.result(m, kind)
                if kind == rules.flag:
                    catch = WIN
                elif r == ATTACKER_WINS:
                    catch = max(catch, values[kind])
            total += chance * (LATER * catch - max(self.now, threat))
        return total

    def _strike(self, attacker: int, defender: int) -> float:
        """What an enemy `attacker` gains striking our face-up `defender` (Blind)."""
        values = self.rules.values
        if defender == self.rules.flag:
            return WIN
        r = self.rules.result(attacker, defender)
        if r == ATTACKER_WINS:
            return values[defender]
        if r == BOTH_REMOVED:
            return values[defender] - values[attacker]
        return 0.0  # it would not strike

    def _strikers(self, square: int) -> list[int]:
        """Kinds of the enemy's face-up pieces that could strike a piece of ours on
        `square` were it face up."""
        board = list(self.board)
        board[square] = pc.piece(pc.LIEUTENANT, self.colour)
        pos = self.rules.cls(board, turn=self.picture.them, swap=self.swap)
        theirs, code = self.picture.theirs, pos.move_code
        return [
            next(iter(theirs[code.frm[m]]))
            for m in pos.legal_moves(self.picture.them)
            if code.to[m] == square and code.frm[m] in theirs
        ]

    def _ours_beside(self, square: int) -> list[int]:
        """Kinds of our pieces that could strike an enemy piece turned up on `square`."""
        board = list(self.board)
        board[square] = pc.piece(pc.LIEUTENANT, self.enemy_colour)
        pos = self.rules.cls(board, turn=self.picture.me, swap=self.swap)
        code = pos.move_code
        return [
            self.picture.mine[code.frm[m]]
            for m in pos.legal_moves(self.picture.me)
            if code.to[m] == square and code.frm[m] in self.picture.mine
        ]

    def _reach_from(self, square: int, kind: int) -> set[int]:
        """Squares an enemy `kind` turned up on `square` could move onto next."""
        board = list(self.board)
        board[square] = pc.piece(kind, self.enemy_colour)
        pos = self.rules.cls(board, turn=self.picture.them, swap=self.swap)
        code = pos.move_code
        moves = pos.legal_moves(self.picture.them)
        return {code.to[m] for m in moves if code.frm[m] == square != code.to[m]}


class ReplyBot(Bot):
    level = "bot_reply"
    salt = 5
    tracker_class = ExactTracker

    # --- deployment ------------------------------------------------------------------------

    def layout(self, builder: LayoutBuilder, rng: random.Random) -> None:
        board = self.rules.board
        if self.rules.flag_in_hq:
            flag, gates = self.mined_flag(builder, rng)
            near = {t for g in gates for t in board.neighbours[g]} - {flag}
            builder.put_best(pc.BOMB, lambda s: 3.0 * (s in near) - builder.rank(s), rng)
            builder.put_best(
                pc.BOMB, lambda s: 2.0 * board.on_rail[s] - abs(builder.rank(s) - 4), rng
            )
            return
        hq = board.hqs[self.player][0]
        builder.put(pc.MINE, hq)  # no occupier passes a mine
        flag = builder.put_best(pc.G_FLAG, lambda s: -builder.rank(s), rng)
        behind = self.rules.cls.tables.behind[self.player][flag]  # type: ignore[attr-defined]
        if behind in builder.free:
            builder.put(pc.MINE, behind)
        near = set(board.neighbours[hq]) | {hq}
        builder.put_best(pc.SPY, lambda s: 3.0 * (s in near) - builder.rank(s) / 2, rng)

    def weight(self, kind: int, square: int, builder: LayoutBuilder) -> float:
        rules = self.rules
        rank = builder.rank(square)
        value = rules.values[kind]
        if rules.occupation:
            front = 2.0 if square in rules.board.access else 0.0
            return (rank + front) * (1.0 if value >= 6 else -0.3)
        rail = 2.0 if rules.board.on_rail[square] else 0.0
        if value >= 6 or kind == pc.ENGINEER:
            return rank + rail  # the strong pieces and Engineers on the front railway
        return rank * (3.0 - value) / 3.0  # the weakest in front, as screens

    # --- play ------------------------------------------------------------------------------

    def pick(self, picture: Picture, moves: list[tuple[int, int]], rng: random.Random) -> int:
        if picture.swap < 0:  # Blind, before anyone owns a colour: turn any piece
            return rng.randrange(len(moves))
        look = Lookahead(self.rules, picture)
        targets = picture.targets() or frozenset(picture.down)
        hops = self.rules.hops(targets) if targets else None
        scores = []
        for frm, to in moves:
            if frm == to:
                score = look.flip(to)
            else:
                score = look.move(frm, to) + self._plan(picture, frm, to, hops)
            scores.append(score + rng.random() * 0.01)
        return best_index(scores, rng)

    def _plan(self, picture: Picture, frm: int, to: int, hops: list[int] | None) -> float:
        """Small terms among moves that cost nothing: on towards the target, Engineers
        and strong pieces first; the flag's neighbours kept while enemy pieces are near."""
        rules = self.rules
        kind = picture.mine[frm]
        score = 0.0
        if hops is not None:
            occupation = rules.occupation
            if (kind == rules.engineer and not occupation) or kind in rules.occupiers:
                weight = 0.3
            else:
                weight = 0.2 if rules.values[kind] >= 6 else 0.1
            score += weight * (hops[frm] - hops[to])
        enemy_hqs = rules.board.hqs[picture.them]
        if rules.hq_trap and to in enemy_hqs and to not in picture.theirs:
            score -= HQ_TRAP
        flag = rules.board.hqs[picture.me][0] if rules.occupation else picture.flag
        if flag is not None:
            near = rules.hops(frozenset([flag]))
            guards = HQ_GUARDS if rules.occupation else GUARDS
            home = [t for t, k in picture.mine.items() if near[t] <= HOME and k in rules.movable]
            if near[frm] <= HOME < near[to] and len(home) <= guards:
                score -= 1.5  # the last guards stay home
            elif near[to] <= HOME < near[frm] and len(home) < guards:
                score += 0.5
            odds = picture.theirs.get(to)
            if odds is not None and near[to] <= HOME + guards - 2:
                score += 2.0 * sum(picture.attack_odds(kind, odds)[:2])  # a raider by the flag
        return score
