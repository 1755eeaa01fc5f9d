"""Care for the top pieces at the root (Hard): the Field Marshal and the General (Gunjin:
the Army General and the Spy) are not traded for less than they are worth, nor left
hanging.

The search averages its values over a few sampled worlds.  In a world where an enemy
piece is a Bomb beside the Marshal, it sees the Marshal lost; in the others it does not.
With a dozen worlds or fewer, one lucky world (a gate that happens not to hold a mine, with
the flag behind it) can decide the move, and a piece that is a Bomb one time in five
may be in none of them.  Here the same questions are asked of the belief itself, the
chances of each kind for every enemy piece (`odds`, from the sampled assignments):

- `attack_worth`: what a top piece attacking an enemy piece wins on average, over what
  that piece may be.  A move whose worth is below zero trades the top piece for less
  than it is worth, and the player sets it below every other move by `UNSOUND`
  (taking the flag, which ends the game, counts as a win).
- `exposure`: after a move, the most an enemy piece that can reach a top piece in one
  move (a railway run included) takes from it on average, by its odds of beating it or
  of taking it down with it (a Bomb, a piece of the same kind).  The player takes a share
  of it off the move's value (`Level.caution`).
- `risky_flip` (Blind): a flip that may turn up our flag where an enemy face-up piece
  strikes it next, or turn up a piece of ours beside an enemy piece that beats every
  kind we still have face down, goes below every other move by `UNSOUND` too.
"""

from __future__ import annotations

from collections.abc import Callable

from junqi_core import pieces as pc
from junqi_core.ai.strategy import Strategy
from junqi_core.pieces import ATTACKER_WINS, BOTH_REMOVED, COLOUR_BIT, FACE_DOWN, KIND_MASK
from junqi_core.rules import Position

UNSOUND = 0.05  # share of a win below every other move: a top piece traded for too little

# The pieces looked after, by family of rules.  Gunjin: the Spy too, the only piece that
# beats the Army General (attacking it): it stays out of reach and strikes only when the
# piece it attacks is likely enough that General to be worth it
TOP_KINDS = {
    "junqi": frozenset({pc.FIELD_MARSHAL, pc.GENERAL}),
    "gunjin": frozenset({pc.ARMY_GENERAL, pc.SPY}),
}

Odds = dict[int, dict[int, float]]  # enemy square -> kind -> chance


class Caution:
    """The root checks for one decision: the player's position as it knows it (enemy
    pieces of unknown kind as placeholders) and the odds of every enemy piece's kind."""

    def __init__(
        self,
        strategy: Strategy,
        base: Position,
        player: int,
        odds: Odds,
        values: dict[int, float],
        win: float,
    ) -> None:
        self.strategy = strategy
        self.base = base
        self.player = player
        self.colour = player ^ base.swap if base.swap >= 0 else player
        self.odds = odds
        self.values = values
        self.win = win
        self.top = TOP_KINDS[strategy.variant.family]
        self.combat = base.combat
        self.flag_wins = strategy.variant.flag_capture_ends
        self.camps = base.spec.camps

    def attack_worth(self, move: int) -> float | None:
        """What a top piece gains on average attacking the enemy piece on `move`'s square
        (None: the move is not such an attack)."""
        board = self.base.board
        frm, to = self.base.move_code.split(move)
        p = board[frm]
        odds = self.odds.get(to)
        if odds is None or p & KIND_MASK not in self.top:
            return None
        mine = p & KIND_MASK
        values = self.values
        worth = 0.0
        for kind, chance in odds.items():
            if kind == self.base.flag_kind and self.flag_wins:
                worth += chance * self.win
                continue
            result = self.combat[mine][kind]
            if result == ATTACKER_WINS:
                worth += chance * values[kind]
            elif result == BOTH_REMOVED:
                worth += chance * (values[kind] - values[mine])
            else:
                worth -= chance * values[mine]
        return worth

    def exposure(self, move: int) -> float:
        """After `move` (an attack taken as won), what the opponent's best strike at a top
        piece of ours takes on average: each enemy piece that can reach one in a move (a
        railway run included) strikes with whatever it is, and the opponent picks the
        piece that does best (so three pieces that may each be a Bomb count more than
        one)."""
        board = list(self.base.board)
        frm, to = self.base.move_code.split(move)
        if frm != to:
            board[to], board[frm] = board[frm], 0
        own = pc.colour_bits(self.colour)
        tops = {
            s
            for s, p in enumerate(board)
            if p
            and not p & FACE_DOWN
            and p & COLOUR_BIT == own
            and p & KIND_MASK in self.top
            and s not in self.camps
        }
        if not tops:
            return 0.0
        odds = {s: row for s, row in self.odds.items() if board[s] and s != to}
        best: dict[int, dict[int, float]] = {}  # enemy square -> kind -> what it takes
        for rep, mask in self.strategy.move_classes:
            trial = list(board)
            movers = False
            for s, row in odds.items():
                if any(mask >> k & 1 for k in row):
                    trial[s] = pc.piece(rep, self.colour ^ 1)
                    movers = True
                else:
                    trial[s] = pc.piece(self.base.flag_kind, self.colour ^ 1)
            if not movers:
                continue
            pos = type(self.base)(trial, 1 - self.player, swap=self.base.swap)
            for m in pos.legal_moves(1 - self.player):
                source, target = pos.move_code.split(m)
                if target in tops and source != target:
                    takes = best.setdefault(source, {})
                    mine = board[target] & KIND_MASK
                    for kind in odds[source]:
                        if mask >> kind & 1:
                            takes[kind] = max(takes.get(kind, 0.0), self._loss(mine, kind))
        return mean_of_best([[(v, odds[s][k]) for k, v in row.items()] for s, row in best.items()])

    def _loss(self, mine: int, kind: int) -> float:
        """What our `mine` loses when an enemy `kind` strikes it."""
        values = self.values
        result = self.combat[kind][mine]
        if result == ATTACKER_WINS:
            return values[mine]
        if result == BOTH_REMOVED:
            return max(0.0, values[mine] - values[kind])
        return 0.0


def mean_of_best(pieces: list[list[tuple[float, float]]]) -> float:
    """The mean of the best of several independent pieces' gains (none below zero), each
    piece given as (gain, chance) pairs whose chances may add up to less than one."""
    levels = sorted({g for row in pieces for g, p in row if g > 0 and p > 0})
    mean = floor = 0.0
    for level in levels:
        none = 1.0  # the chance that no piece gains this much
        for row in pieces:
            none *= 1.0 - sum(p for g, p in row if g >= level)
        mean += (level - floor) * (1.0 - none)
        floor = level
    return mean


def risky_flip(
    board: list[int],
    square: int,
    colour: int,
    pool: dict[tuple[int, int], int],
    combat,
    flag_kind: int,
    attackers: Callable[[list[int], int, int], list[int]],
) -> bool:
    """Blind: whether turning the face-down piece on `square` may put one of `colour`'s
    pieces where an enemy face-up piece strikes it next move and surely wins: our flag,
    while it is still face down, or any of our face-down kinds when that enemy piece
    beats them all."""
    if not board[square] & FACE_DOWN:
        return False
    strikers = attackers(board, square, pc.colour_bits(colour ^ 1))
    if not strikers:
        return False
    if pool.get((flag_kind, colour)):
        return True
    ours = [k for (k, c), n in pool.items() if c == colour and n]
    return any(all(combat[a & KIND_MASK][k] == ATTACKER_WINS for k in ours) for a in strikers)
