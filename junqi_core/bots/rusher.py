"""The flag rusher: Engineers and strong pieces straight for the enemy flag.

Its runners (Classic: Engineers, Field Marshal, General, Major Generals; Gunjin: the
pieces that win by entering the enemy HQ, and Tanks and Planes to clear the way; Blind:
Engineers and pieces from Brigadier up) take the shortest way to the target: the enemy
headquarters likelier to hold the flag by its record of what each HQ piece can be
(Classic), the enemy HQ (Gunjin), the enemy flag once it is face up (Blind).  A runner
attacks whatever stands in its way unless it expects to lose, and any chance at the
flag comes first.  Other pieces follow behind.  It defends only against a piece that
can take its flag next move.  In Blind, until a flag shows, its runners close in on
face-down pieces and it turns the pieces beside them, hoping to find the flag with a
runner next to it.  It deploys its runners on the front railway.
"""

from __future__ import annotations

import random

from junqi_core import pieces as pc
from junqi_core.bots.base import Bot, LayoutBuilder, Picture, best_index

RUNNERS = {
    "classic": frozenset({pc.ENGINEER, pc.FIELD_MARSHAL, pc.GENERAL, pc.MAJOR_GENERAL}),
    "blind": frozenset({pc.ENGINEER, pc.FIELD_MARSHAL, pc.GENERAL, pc.MAJOR_GENERAL, pc.BRIGADIER}),
    "gunjin": frozenset(pc.GUNJIN_OCCUPIERS | {pc.TANK, pc.PLANE}),
}
WIN = 1000.0


class RusherBot(Bot):
    level = "bot_rusher"
    salt = 2

    def layout(self, builder: LayoutBuilder, rng: random.Random) -> None:
        board = self.rules.board
        if self.variant == "classic":
            flag = builder.put_best(pc.FLAG, lambda s: 0.0, rng)
            for gate in board.neighbours[flag][:2]:  # two of its three gates mined
                builder.put(pc.LANDMINE, gate)
        else:
            flag = builder.put_best(pc.G_FLAG, lambda s: -builder.rank(s), rng)
            behind = self.rules.cls.tables.behind[self.player][flag]  # type: ignore[attr-defined]
            if behind in builder.free:
                builder.put(pc.G_MAJOR, behind)  # guards the flag, and fights for it

    def weight(self, kind: int, square: int, builder: LayoutBuilder) -> float:
        rank = builder.rank(square)
        if kind in RUNNERS[self.variant]:
            rail = 2.0 if self.rules.board.on_rail[square] else 0.0
            return 3.0 * rank + rail
        return -abs(rank - 3)

    def pick(self, picture: Picture, moves: list[tuple[int, int]], rng: random.Random) -> int:
        rules = self.rules
        values = rules.values
        runners = RUNNERS[self.variant]
        targets = self._targets(picture)
        hops = rules.hops(targets) if targets else None
        threats = {f for f, _ in picture.reach.get(picture.flag, ())} if picture.flag else set()
        enemy_hq = rules.board.hqs[picture.them]
        scores = []
        for frm, to in moves:
            if frm == to:
                scores.append(self._flip(picture, to, rng))
                continue
            kind = picture.mine[frm]
            odds = picture.theirs.get(to)
            score = rng.random() * 0.2
            if self.variant == "gunjin" and to in enemy_hq and kind in rules.occupiers:
                if odds is None:
                    scores.append(WIN)
                    continue
                win = picture.attack_odds(kind, odds)[0]
                score += WIN * win / 2
            if odds is not None:
                flag = odds.get(rules.flag, 0.0) if self.variant != "gunjin" else 0.0
                win, both, lose = picture.attack_odds(kind, odds)
                if flag:
                    score += WIN * flag
                if to in threats:
                    score += 200.0 * (win + both)
                if lose >= 0.6 and not flag:
                    scores.append(score - 20.0)
                    continue
                score += picture.trade(kind, odds) / 2
            elif self.variant == "classic" and to in enemy_hq:
                score -= 5.0  # an empty headquarters is a trap: nothing leaves it
            if hops is not None:
                progress = hops[frm] - hops[to]
                weight = 6.0 if kind in runners else 1.0
                score += weight * progress + values[kind] / 20
            score -= 0.3 * picture.danger(to, kind, ignore=to) * values[kind]
            scores.append(score)
        return best_index(scores, rng)

    def _targets(self, picture: Picture) -> frozenset[int]:
        rules = self.rules
        if self.variant == "gunjin":
            return frozenset(rules.board.hqs[picture.them])
        if self.variant == "classic":
            likely = picture.likely_flag_hqs()
            return frozenset([likely[self.seed % len(likely)]])
        flags = [s for s, odds in picture.theirs.items() if rules.flag in odds]
        if flags:
            return frozenset(flags)
        return frozenset(picture.down)

    def _flip(self, picture: Picture, square: int, rng: random.Random) -> float:
        """Blind: turn the pieces beside its runners first."""
        beside = any(
            picture.mine.get(t) in RUNNERS["blind"] for t in self.rules.board.neighbours[square]
        )
        return (3.0 if beside else 0.5) + rng.random()
