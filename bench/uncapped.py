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


def play(
    variant: str,
    level: str,
    moves: int,
    seed: int,
    profile: bool = False,
    clock: Callable[[], float] = time.perf_counter,
) -> dict:
    """Per decision of `level`: seconds (by `clock`), nodes and worlds searched; with
    `profile`, the cProfile statistics of all of them (top 30 by own time)."""
    records = []
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
    games = 0
    while len(records) < moves:
        game_seed = seed + games
        games += 1
        game = Game(variant, seed=game_seed)
        cpus = {s: make_player(variant, level, s, game_seed * 2 + s) for s in (0, 1)}
        for player in cpus.values():
            player.time_cap = None
        if game.deployment is not None:
            for s, player in cpus.items():
                game.deploy(s, layout_from_json(game, player.deploy(view(game, s))))
        while game.phase == PLAY and len(records) < moves:
            seat = game.turn
            cpu = cpus[seat]
            if cpu.offer_draw(view(game, seat)):
                game.apply(seat, f"offer:{seat}")
            legal = [move_text(game.board_spec, m) for m in game.legal_moves()]
            v = view(game, seat)
            t0 = clock()
            if profiler is not None:
                profiler.enable()
            choice = cpu.choose(v, legal)
            if profiler is not None:
                profiler.disable()
            seconds = clock() - t0
            info = getattr(cpu, "last_info", {})
            records.append(
                {
                    "seconds": seconds,
                    "nodes": info.get("nodes", 0),
                    "worlds": info.get("worlds", 0),
                    "ply": game.position.ply,
                }
            )
            game.apply(seat, choice)
    out: dict = {"records": records, "games": games}
    if profiler is not None:
        import io
        import pstats

        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(30)
        out["profile"] = text.getvalue()
    return out
