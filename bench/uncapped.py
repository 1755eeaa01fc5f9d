"""CPU-vs-CPU games without the wall-clock cap: how long each decision takes to finish its
node budget.  Run by bench/cpu_page.py both in CPython and, as source text, in Pyodide
inside the page's browser (so it imports only junqi_core and the standard library).

The games are those the bridge starts for `new_game` with a seed and a CPU in both seats
(the same layouts, seeds and draw offers), so where no move runs into the cap in the page,
the page plays the same moves.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from junqi_core.game import PLAY, Game
from junqi_core.notation import move_text
from junqi_core.players import make_player
from junqi_core.record import layout_from_json
from junqi_core.views import view


class Games:
    """Seeded games of `level` against itself (seeds `seed`, `seed + 1`, ...), one
    decision at a time; `profile` keeps cProfile statistics of the decisions."""

    def __init__(
        self,
        variant: str,
        level: str,
        seed: int,
        profile: bool = False,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.variant = variant
        self.level = level
        self.seed = seed
        self.clock = clock
        self.games = 0
        self.game: Game | None = None
        self.profiler = None
        if profile:
            import cProfile

            self.profiler = cProfile.Profile()

    def _start(self) -> None:
        game_seed = self.seed + self.games
        self.games += 1
        game = Game(self.variant, seed=game_seed)
        self.cpus = {s: make_player(self.variant, self.level, s, game_seed * 2 + s) for s in (0, 1)}
        for player in self.cpus.values():
            player.time_cap = None
        if game.deployment is not None:
            for s, player in self.cpus.items():
                game.deploy(s, layout_from_json(game, player.deploy(view(game, s))))
        self.game = game

    def next(self) -> dict:
        """The next decision: its seconds (by `clock`), nodes and worlds searched, ply."""
        if self.game is None or self.game.phase != PLAY:
            self._start()
        game = self.game
        assert game is not None
        seat = game.turn
        cpu = self.cpus[seat]
        if cpu.offer_draw(view(game, seat)):
            game.apply(seat, f"offer:{seat}")
        legal = [move_text(game.board_spec, m) for m in game.legal_moves()]
        v = view(game, seat)
        if self.profiler is not None:
            self.profiler.enable()
        t0 = self.clock()
        choice = cpu.choose(v, legal)
        seconds = self.clock() - t0
        if self.profiler is not None:
            self.profiler.disable()
        info = getattr(cpu, "last_info", {})
        record = {
            "seconds": seconds,
            "nodes": info.get("nodes", 0),
            "worlds": info.get("worlds", 0),
            "ply": game.position.ply,
        }
        game.apply(seat, choice)
        return record

    def profile(self, top: int = 30) -> str:
        """cProfile's functions by own time over the decisions so far."""
        import io
        import pstats

        text = io.StringIO()
        pstats.Stats(self.profiler, stream=text).sort_stats("tottime").print_stats(top)
        return text.getvalue()


def play(
    variant: str,
    level: str,
    moves: int,
    seed: int,
    clock: Callable[[], float] = time.perf_counter,
) -> dict:
    """`moves` decisions of `level` from the first game on, and how many games they took."""
    games = Games(variant, level, seed, clock=clock)
    records = [games.next() for _ in range(moves)]
    return {"records": records, "games": games.games}
