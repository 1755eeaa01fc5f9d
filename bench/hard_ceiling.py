"""How much of a level's loss is what it cannot see: the level told every hidden piece.

Side A plays a level whose belief *cheats*: every world it samples (and the odds its
checks read) is the true position, so it searches the real game instead of guesses.
Everything else (search, evaluation, node budget, checks) is the level as it is.  No
fair player knows the hidden pieces, so what the cheat scores is a generous ceiling for
what a sharper belief could buy that level against the same opponent; what it still
loses is the search's and the evaluation's share.  Use it against a bot (side B must not
be a level: the cheat is in the levels' belief, which both would share).  The cheat
lives here only; the game's players never see the state.

    python3 bench/hard_ceiling.py --variant classic --a hard --b bot_reply --pairs 10
    python3 bench/hard_ceiling.py --sees still   # told only which pieces are Bombs or mines
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from junqi_core import arena
from junqi_core import pieces as pc
from junqi_core.ai.belief import Belief
from junqi_core.ai.tables import kinds_of, mask_of
from junqi_core.game import Game
from junqi_core.pieces import KIND_MASK
from junqi_core.players import LEVELS

_GAME: list[Game] = []  # the game being played in this process (one at a time)


class _WatchedGame(Game):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _GAME[:] = [self]


def _true_assignment(self: Belief, rng, tries: int = 40) -> dict[int, int]:
    """Every living enemy piece as it really is (the rng is left untouched)."""
    board = _GAME[0].position.board
    tracker = self.tracker
    return {e: board[tracker.square[e]] & KIND_MASK for e in tracker.alive_enemies()}


_plain_init = Belief.__init__


def _told_what_is_still(self: Belief, *args, **kwargs) -> None:
    """`--sees still` (Classic): the belief told which living enemy pieces are Bombs or
    landmines (and so which are not); every other kind is still guessed."""
    _plain_init(self, *args, **kwargs)
    board = _GAME[0].position.board
    still = {pc.BOMB, pc.LANDMINE}  # Classic's kinds
    still_mask = mask_of(still)
    for e in self.tracker.alive_enemies():
        kind = board[self.tracker.square[e]] & KIND_MASK
        self.domains[e] = 1 << kind if kind in still else self.domains[e] & ~still_mask
        self._options[e] = kinds_of(self.domains[e])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic", choices=["classic", "gunjin"])
    parser.add_argument("--a", default="hard", help="the level told every hidden piece")
    parser.add_argument("--b", default="bot_reply", help="a bot (not a level)")
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--sees",
        choices=["all", "still"],
        default="all",
        help="every hidden piece, or only which are Bombs and mines",
    )
    args = parser.parse_args()
    if args.sees == "still" and args.variant != "classic":
        parser.error("--sees still is written for Classic's Bombs and landmines")
    if args.b in LEVELS:
        parser.error("side B must be a bot: the cheat is in the levels' belief")
    arena.Game = _WatchedGame  # type: ignore[misc]
    if args.sees == "all":
        Belief.sample = _true_assignment  # type: ignore[method-assign]
    else:
        Belief.__init__ = _told_what_is_still  # type: ignore[method-assign]
    results = arena.run_pairs(args.variant, args.a, args.b, args.pairs, args.seed)
    name = f"{args.a}+sees {args.sees}"
    print(arena.summary(args.variant, name, args.b, args.seed, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
