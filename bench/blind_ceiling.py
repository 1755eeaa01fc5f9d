"""How much of Blind is luck: a level that is told where its own flag lies.

In Blind nobody knows what a face-down piece is, so the first flag turned up (a coin
toss between the two flags) decides most games (docs/strength.md).  This bench plays side
A as a level that *cheats* in one respect only: it is told which face-down post holds its
own flag, never turns that piece, and leaves its flag out of the odds of what any other
flip shows.  Everything else (search, evaluation) is the level as it is.  No fair level
can know where its flag lies, so the cheat's gain is a generous estimate of what better
flips could buy that level (not a proof: another search could score more).  The cheat
lives here only; the game's players never see the state.

    python3 bench/blind_ceiling.py --a medium --b easy --games 200 --seeds 11 12 --jobs 2
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from junqi_core import arena
from junqi_core.ai.belief import BlindPool
from junqi_core.game import Game
from junqi_core.notation import move_text
from junqi_core.pieces import FACE_DOWN, KIND_MASK, colour_of
from junqi_core.players import make_player

_GAME: list[Game] = []  # the game being played in this process (one at a time)
_TOLD: list[tuple[int, int]] = []  # (kind, colour) of the flag the choosing player was told
_outcomes = BlindPool.outcomes


def _outcomes_told(self: BlindPool) -> list[tuple[int, float]]:
    """The odds of a flip, less the flag the choosing player knows is elsewhere."""
    if not _TOLD or self.pool.get(_TOLD[0], 0) <= 0:
        return _outcomes(self)
    told = copy.copy(self)
    told.pool = {key: n - (key == _TOLD[0]) for key, n in self.pool.items()}
    told.pool = {key: n for key, n in told.pool.items() if n}
    told.total = self.total - 1
    return _outcomes(told)


class _WatchedGame(Game):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _GAME[:] = [self]


class _KnowsOwnFlag:
    """A player told from the true state where its own flag lies: it never turns it, and
    leaves it out of the odds of every other flip."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.level = inner.level

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def choose(self, view: dict, legal: list[str]) -> str:
        game = _GAME[0]
        pos = game.position
        if pos.swap >= 0:  # colours are decided by the first flip
            colour = self.inner.player ^ pos.swap
            flag_kind = game.position_class.flag_kind
            for s, p in enumerate(pos.board):
                if p & FACE_DOWN and p & KIND_MASK == flag_kind and colour_of(p) == colour:
                    own_flag = move_text(game.board_spec, game.board_spec.move_code.flip(s))
                    if len(legal) > 1:
                        legal = [a for a in legal if a != own_flag]
                    _TOLD[:] = [(flag_kind, colour)]
                    break
        try:
            return self.inner.choose(view, legal)
        finally:
            _TOLD.clear()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="medium", help="the level told where its flag is")
    parser.add_argument("--b", default="easy")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 12, 13, 14, 2026])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--keep-odds",
        action="store_true",
        help="only refuse to turn its flag; keep it in the odds of the other flips",
    )
    args = parser.parse_args()

    def players(variant: str, level: str, player: int, seed: int = 0):
        inner = make_player(variant, level, player, seed)
        # side A is told; in play_game side A takes seat index % 2, and its seed is
        # game_seed * 2 + seat, so the game index is recovered from the seed
        index = (seed // 2) % 100_003
        return _KnowsOwnFlag(inner) if player == index % 2 else inner

    arena.Game = _WatchedGame  # type: ignore[misc]
    if not args.keep_odds:
        BlindPool.outcomes = _outcomes_told  # type: ignore[method-assign]
    arena.make_player = players  # type: ignore[assignment]
    every = []
    for seed in args.seeds:
        results = arena.run("blind", args.a, args.b, args.games, seed, args.jobs)
        print(arena.summary("blind", args.a + "+own flag", args.b, seed, results), flush=True)
        every.extend(results)
    if len(args.seeds) > 1:
        lines = arena.summary("blind", args.a + "+own flag", args.b, 0, every).splitlines()
        print("all seeds " + " ".join(map(str, args.seeds)) + ":", *lines[1:], sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
