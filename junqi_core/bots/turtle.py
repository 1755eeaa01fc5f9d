"""The turtle: guards its flag, keeps its pieces at home, trades only when sure.

It deploys its flag behind mines (Classic: every gate of the flag's headquarters; Gunjin:
a Mine behind the flag, so that the flag fights as a mine) with Bombs and its strongest
pieces close by.  In play it first strikes any piece that could take its flag (Gunjin:
enter its HQ) next move, with the piece likeliest to win; it attacks elsewhere only when
its record of the enemy piece says it cannot lose.  Otherwise it shuffles pieces inside
its own half, drawing them towards the flag and away from squares an enemy piece that
may beat them can reach.  Pure defence only draws, so once a third of the quiet-move
limit has passed, or it is three pieces up, or after 150 plies, its strongest piece
that can move goes raiding for the flag while the rest stay home.  In Blind it turns
pieces far from the enemy's face-up pieces and, once its flag is face up, crowds its
pieces around it.
"""

from __future__ import annotations

import random

from junqi_core import pieces as pc
from junqi_core.bots.base import Bot, LayoutBuilder, Picture, best_index, forward

FLAG_ALARM = 500.0
RAID_PLY = 150  # from here on its strongest piece raids (a pure function of the view)


class TurtleBot(Bot):
    level = "bot_turtle"
    salt = 3

    def layout(self, builder: LayoutBuilder, rng: random.Random) -> None:
        board = self.rules.board
        if self.rules.flag_in_hq:
            flag, gates = self.mined_flag(builder, rng)
            beyond = {t for g in gates for t in board.neighbours[g]} - set(gates) - {flag}
            for _ in range(2):
                builder.put_best(pc.BOMB, lambda s: 3.0 * (s in beyond) - builder.rank(s), rng)
            return
        flag = builder.put_best(pc.G_FLAG, lambda s: -builder.rank(s), rng)
        behind = self.rules.cls.tables.behind[self.player][flag]  # type: ignore[attr-defined]
        if behind in builder.free:
            builder.put(pc.MINE, behind)  # the flag then fights as a mine
        near = set(board.neighbours[flag]) | set(board.neighbours[behind or flag])
        builder.put_best(pc.MINE, lambda s: 3.0 * (s in near) - builder.rank(s), rng)
        builder.put_best(pc.ARMY_GENERAL, lambda s: 3.0 * (s in near) - builder.rank(s), rng)
        builder.put_best(pc.SPY, lambda s: 3.0 * (s in near) - builder.rank(s), rng)

    def weight(self, kind: int, square: int, builder: LayoutBuilder) -> float:
        # strong pieces at home, weak ones in front
        value = self.rules.values[kind]
        return -value * builder.rank(square) / 5.0 + (builder.rank(square) if value < 3 else 0)

    def pick(self, picture: Picture, moves: list[tuple[int, int]], rng: random.Random) -> int:
        rules = self.rules
        values = rules.values
        view = picture.view
        home = self._home(picture)
        alarm = self._alarm(picture)
        raider = self._raider(picture, {frm for frm, to in moves if frm != to})
        raid_hops = rules.hops(self._raid_targets(picture))
        guard = rules.hops(frozenset([picture.flag])) if picture.flag is not None else None
        lost = [view["lost"][p]["count"] for p in (0, 1)]
        ahead = lost[picture.them] - lost[picture.me]
        raiding = view["ply"] >= RAID_PLY or view["quiet"] >= view["quiet_limit"] // 3 or ahead >= 3
        scores = []
        for frm, to in moves:
            if frm == to:
                scores.append(self._flip(picture, to, rng))
                continue
            kind = picture.mine[frm]
            odds = picture.theirs.get(to)
            score = rng.random() * 0.1
            if odds is not None:
                win, both, lose = picture.attack_odds(kind, odds)
                if to in alarm:
                    score += FLAG_ALARM * (win + both / 2) - values[kind] / 10
                elif (lose <= 0.02 and win >= 0.6) or odds.get(rules.flag, 0.0) > 0.5:
                    score += 50.0 + picture.trade(kind, odds)
                elif raiding and frm == raider and lose < 0.3:
                    score += 10.0 + picture.trade(kind, odds)
                else:
                    score -= 30.0
                scores.append(score)
                continue
            danger = picture.danger(to, kind) - picture.danger(frm, kind)
            score -= 2.0 * danger * values[kind] / 5
            if raiding and frm == raider:
                score += 3.0 * (raid_hops[frm] - raid_hops[to])
            else:
                if home is not None and to not in home:
                    score -= 3.0
                if guard is not None and kind in rules.movable:
                    score += 0.5 * max(0, guard[frm] - 2) - 0.5 * max(0, guard[to] - 2)
            scores.append(score)
        return best_index(scores, rng)

    def _home(self, picture: Picture) -> set[int] | None:
        if self.rules.flips:
            return None
        board = self.rules.board
        return {s for s in range(board.size) if board.owner_of_square(s) == picture.me}

    def _alarm(self, picture: Picture) -> set[int]:
        """Enemy squares from which the flag (Gunjin: also the HQ) can be hit next move."""
        squares = set()
        if picture.flag is not None:
            squares |= {f for f, _ in picture.reach.get(picture.flag, ())}
        if self.rules.occupation:
            hq = self.rules.board.hqs[picture.me][0]
            for f, kinds in picture.reach.get(hq, ()):
                if kinds & self.rules.occupiers:
                    squares.add(f)
        return squares

    def _raid_targets(self, picture: Picture) -> frozenset[int]:
        if not self.rules.flips:
            return frozenset(self.rules.board.hqs[picture.them])
        flags = [s for s, odds in picture.theirs.items() if self.rules.flag in odds]
        return frozenset(flags or picture.theirs or picture.down or [0])

    def _raider(self, picture: Picture, can_move: set[int]) -> int | None:
        """The strongest piece that can move now: the one that raids."""
        rules = self.rules
        ranked = [
            (rules.values[k], forward(rules, picture.me, s), s)
            for s, k in picture.mine.items()
            if s in can_move and k != pc.BOMB
        ]
        return max(ranked)[2] if ranked else None

    def _flip(self, picture: Picture, square: int, rng: random.Random) -> float:
        """Blind: turn pieces far from the enemy's face-up pieces, near its own."""
        board = self.rules.board
        near_enemy = any(t in picture.theirs for t in board.neighbours[square])
        near_own = any(t in picture.mine for t in board.neighbours[square])
        return 1.0 + (0.5 if near_own else 0.0) - (1.5 if near_enemy else 0.0) + rng.random()
