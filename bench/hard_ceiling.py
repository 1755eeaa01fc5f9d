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
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from junqi_core import arena
from junqi_core.ai.belief import Belief
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic", choices=["classic", "gunjin"])
    parser.add_argument("--a", default="hard", help="the level told every hidden piece")
    parser.add_argument("--b", default="bot_reply", help="a bot (not a level)")
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.b in LEVELS:
        parser.error("side B must be a bot: the cheat is in the levels' belief")
    arena.Game = _WatchedGame  # type: ignore[misc]
    Belief.sample = _true_assignment  # type: ignore[method-assign]
    results = arena.run_pairs(args.variant, args.a, args.b, args.pairs, args.seed)
    print(arena.summary(args.variant, args.a + "+sees all", args.b, args.seed, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
