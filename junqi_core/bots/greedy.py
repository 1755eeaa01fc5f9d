"""The greedy capturer: takes whatever it knows or thinks it beats, otherwise advances.

It attacks when, by its record of what the enemy piece can be, its piece wins at least
55% of the time (a trade counting half) and the attack gains material on average, taking
the attack worth most; a chance at the flag is worth more than everything.  With
nothing to take it walks a piece towards the enemy's headquarters (Gunjin: the HQ;
Blind: the nearest face-up enemy piece it beats), strong pieces first, and never looks
back at its own flag.  In Blind, with nothing to take or chase, it turns a face-down
piece at random.  It deploys its strong pieces up front.
"""

from __future__ import annotations

import random

from junqi_core.bots.base import Bot, LayoutBuilder, Picture, best_index, forward


class GreedyBot(Bot):
    level = "bot_greedy"
    salt = 1

    def weight(self, kind: int, square: int, builder: LayoutBuilder) -> float:
        # the stronger the piece, the further forward
        return self.rules.values[kind] * builder.rank(square) / 10.0

    def pick(self, picture: Picture, moves: list[tuple[int, int]], rng: random.Random) -> int:
        rules = self.rules
        values = rules.values
        targets = self._targets(picture)
        hops = rules.hops(targets) if targets else None
        scores = []
        for frm, to in moves:
            if frm == to:  # Blind: a flip
                scores.append(0.5 + rng.random())
                continue
            kind = picture.mine[frm]
            odds = picture.theirs.get(to)
            if odds is not None:
                win, both, _ = picture.attack_odds(kind, odds)
                gain = picture.trade(kind, odds)
                if win + both / 2 >= 0.55 and gain > 0.0:
                    scores.append(100.0 + gain)
                    continue
                scores.append(-10.0 + gain / 10)
                continue
            if hops is None:
                scores.append(rng.random() * 0.1 + 0.01 * forward(rules, self.player, to))
                continue
            progress = hops[frm] - hops[to]
            if rules.hq_trap and to in targets:
                progress = -2  # a piece that walks into a headquarters never moves again
            scores.append(progress * (0.3 + values[kind] / 10) + rng.random() * 0.5)
        return best_index(scores, rng)

    def _targets(self, picture: Picture) -> frozenset[int]:
        rules = self.rules
        if not rules.flips:
            return frozenset(rules.board.hqs[picture.them])
        prey = []
        for s, odds in picture.theirs.items():
            kind = next(iter(odds))
            if kind == rules.flag or any(
                picture.attack_odds(k, odds)[0] == 1.0 for k in picture.mine.values()
            ):
                prey.append(s)
        return frozenset(prey)
