"""The one-move heuristic player: scores every legal action by a handful of rules of
thumb and plays the best.

- Captures by the odds: what the capture wins or trades, by its record of what the enemy
  piece can be (`base.Tracker`: start square, move shapes, combat outcomes and piece
  counts), with the flag worth more than everything.
- Safety: a piece is not moved where an enemy piece that may beat it can strike next
  move, and a piece that stands there now is moved away.
- Its flag: a piece that could take the flag (Gunjin: enter the HQ as an occupier) next
  move is struck at once; with enemy pieces near, the flag's neighbours stay manned.
- Progress: Engineers run along the railways towards the enemy flag (Classic: the
  headquarters likelier to hold it; Gunjin: the enemy HQ, which its generals and field
  officers head for too), strong pieces follow more slowly, weak ones hold back.
- Blind: a flip is scored over the odds of what it shows (the face-down pool is counted
  from the board and the lost pieces): its own flag turned up beside an enemy piece is a
  disaster, the enemy's beside one of its pieces a win, an enemy piece beside a weaker
  piece of its own a loss.  With the enemy flag face up everything heads for it.

It looks no further than its own move: no search, no sampled worlds.
"""

from __future__ import annotations

import random

from junqi_core import pieces as pc
from junqi_core.bots.base import Bot, LayoutBuilder, Picture, best_index
from junqi_core.pieces import ATTACKER_WINS, DEFENDER_WINS

WIN = 1000.0
FLAG_STRIKE = 60.0  # removing a piece that could take the flag next move
CAUTION = 0.8  # share of a piece's value lost per unit of danger


class HeuristicBot(Bot):
    level = "bot_heuristic"
    salt = 4

    # --- deployment ------------------------------------------------------------------------

    def layout(self, builder: LayoutBuilder, rng: random.Random) -> None:
        board = self.rules.board
        if self.variant == "classic":
            flag = builder.put_best(pc.FLAG, lambda s: 0.0, rng)
            gates = list(board.neighbours[flag])
            rng.shuffle(gates)
            for gate in gates[:2]:
                builder.put(pc.LANDMINE, gate)
            near = {t for g in gates for t in board.neighbours[g]} - {flag}
            builder.put_best(pc.BOMB, lambda s: 2.0 * (s in near) - builder.rank(s), rng)
            for kind in (pc.ENGINEER, pc.ENGINEER):
                builder.put_best(kind, lambda s: 2.0 * board.on_rail[s] + builder.rank(s) / 3, rng)
            return
        flag = builder.put_best(pc.G_FLAG, lambda s: -builder.rank(s) + rng.random(), rng)
        behind = self.rules.cls.tables.behind[self.player][flag]  # type: ignore[attr-defined]
        if behind in builder.free:
            builder.put(pc.MINE, behind)
        near = set(board.neighbours[flag])
        builder.put_best(pc.SPY, lambda s: 2.0 * (s in near) - builder.rank(s) / 2, rng)

    def weight(self, kind: int, square: int, builder: LayoutBuilder) -> float:
        rank = builder.rank(square)
        value = self.rules.values[kind]
        if value >= 6:
            return -abs(rank - 3)  # the strongest pieces in the middle of the half
        return rank * (3.0 - value) / 3.0  # the weakest in front, as screens

    # --- play --------------------------------------------------------------------------------

    def pick(self, picture: Picture, moves: list[tuple[int, int]], rng: random.Random) -> int:
        rules = self.rules
        targets = picture.targets()
        hops = rules.hops(targets) if targets else None
        alarm = self._alarm(picture)
        guard = self._guard_posts(picture)
        opens = self._opens(picture, {frm for frm, to in moves if frm != to})
        scores = []
        for frm, to in moves:
            if frm == to:
                scores.append(self._flip(picture, to) + rng.random() * 0.05)
                continue
            score = self._move(picture, frm, to, hops, alarm, guard) - opens.get(frm, 0.0)
            scores.append(score + rng.random() * 0.05)
        return best_index(scores, rng)

    def _shield(self, picture: Picture) -> set[int]:
        """The flag and its neighbours (Gunjin: also the HQ and its neighbours)."""
        board = self.rules.board
        shield = set()
        if picture.flag is not None:
            shield = {picture.flag, *board.neighbours[picture.flag]}
        if self.variant == "gunjin":
            hq = board.hqs[picture.me][0]
            shield |= {hq, *board.neighbours[hq]}
        return shield

    def _opens(self, picture: Picture, movers: set[int]) -> dict[int, float]:
        """Our square -> the cost of leaving it: moving the piece away would let an enemy
        piece reach the flag or a square beside it next move (a railway line opened)."""
        rules = self.rules
        shield = self._shield(picture)
        if not shield:
            return {}
        near = rules.hops(frozenset(shield))
        now = {(f, t) for t in shield for f, _ in picture.reach.get(t, ())}
        out = {}
        for s in movers:
            if near[s] > 3 or not (rules.board.on_rail[s] or self.variant == "gunjin"):
                continue
            after = picture.reach_if_vacated(s)
            new = {(f, t) for t in shield if t != s for f, _ in after.get(t, ()) if f != s}
            if new - now:
                out[s] = FLAG_STRIKE / 3
        return out

    def _move(self, picture: Picture, frm, to, hops, alarm, guard) -> float:
        rules = self.rules
        kind = picture.mine[frm]
        value = rules.values[kind]
        odds = picture.theirs.get(to)
        score = 0.0
        enemy_hq = rules.board.hqs[picture.them]
        occupier = self.variant == "gunjin" and to in enemy_hq and kind in rules.occupiers
        escape = picture.danger(frm, kind) * value * CAUTION / 2  # out of harm's way
        if odds is not None:
            win, both, _ = picture.attack_odds(kind, odds)
            score += picture.trade(kind, odds) + win * escape
            if occupier:
                score += WIN * win
            score += alarm.get(to, 0.0) * (win + both)
            score -= win * picture.danger(to, kind, ignore=to) * value * CAUTION
        else:
            score += escape
            if occupier:
                return WIN
            score -= picture.danger(to, kind) * value * CAUTION
            if self.variant == "classic" and to in enemy_hq:
                score -= 3.0  # nothing leaves a headquarters
        if frm in guard and to not in guard:
            score -= 1.5
        elif to in guard and frm not in guard:
            score += 0.5
        if hops is not None:
            progress = hops[frm] - hops[to]
            if kind == self._engineer():
                score += 0.8 * progress + (0.3 if rules.board.on_rail[to] else 0.0)
            elif self.variant == "gunjin" and kind in rules.occupiers:
                score += 0.5 * progress
            elif value >= 6:
                score += 0.4 * progress
            else:
                score += 0.15 * progress
        return score

    def _engineer(self) -> int:
        return pc.G_ENGINEER if self.variant == "gunjin" else pc.ENGINEER

    def _alarm(self, picture: Picture) -> dict[int, float]:
        """Enemy square -> what striking it is worth: a piece that can hit the flag
        (Gunjin: enter the HQ as an occupier) next move, or that stands two steps from
        the flag (a third of that)."""
        squares: dict[int, float] = {}
        flag = picture.flag
        if flag is not None:
            hops = self.rules.hops(frozenset([flag]))
            for s in picture.theirs:
                if hops[s] <= 2:
                    squares[s] = FLAG_STRIKE / 3
            for gate in self.rules.board.neighbours[flag]:
                for f, _ in picture.reach.get(gate, ()):
                    squares[f] = FLAG_STRIKE / 3
            for f, _ in picture.reach.get(flag, ()):
                squares[f] = FLAG_STRIKE
        if self.variant == "gunjin":
            for f, kinds in picture.reach.get(self.rules.board.hqs[picture.me][0], ()):
                if kinds & self.rules.occupiers:
                    squares[f] = FLAG_STRIKE
        return squares

    def _guard_posts(self, picture: Picture) -> set[int]:
        """The flag's neighbours, when an enemy piece is within three steps of the flag."""
        flag = picture.flag
        if flag is None:
            return set()
        hops = self.rules.hops(frozenset([flag]))
        if not any(hops[s] <= 3 for s in picture.theirs):
            return set()
        return set(self.rules.board.neighbours[flag])

    # --- Blind flips -----------------------------------------------------------------------

    def _flip(self, picture: Picture, square: int) -> float:
        rules = self.rules
        values = rules.values
        around = rules.board.neighbours[square]
        mine = [picture.mine[t] for t in around if picture.mine.get(t) in rules.movable]
        theirs = [
            next(iter(picture.theirs[t]))
            for t in around
            if t in picture.theirs and next(iter(picture.theirs[t])) in rules.movable
        ]
        total = 0.0
        for owner, kind, chance in picture.flip_odds():
            if picture.swap < 0:
                owner = picture.me  # the first flip takes the colour it shows
            if owner == picture.me:
                if kind == rules.flag:
                    value = -100.0 if theirs else -4.0
                else:
                    lost = [values[kind] for e in theirs if rules.result(e, kind) != DEFENDER_WINS]
                    value = 0.3 - 0.7 * max(lost, default=0.0)
            elif kind == rules.flag:
                value = 90.0 if mine else 3.0
            else:
                gain = [values[kind] for m in mine if rules.result(m, kind) == ATTACKER_WINS]
                loss = [
                    values[m]
                    for m in mine
                    if kind in rules.movable and rules.result(kind, m) != DEFENDER_WINS
                ]
                value = 0.7 * max(gain, default=0.0) - 0.7 * max(loss, default=0.0)
            total += chance * value
        return total
