"""Seeded matches between levels: `python -m junqi_core arena ...` (CPython only).

Game i is played with seed `seed * 100_003 + i`; level A takes seat i % 2, so sides
alternate.  Players get only `views.view` and `views.event`, exactly as in the page.
`--jobs` uses multiprocessing, imported only here and only when asked for.

For Blind, results are also counted by the first flag turned face up.

Think time is reported twice: CPU time of the process (`time.process_time`, unaffected by
other programs on the machine) and wall time.  In the arena the players' wall-clock
safety cap is driven by the CPU clock for the same reason; in the page it is wall time.
"""

from __future__ import annotations

import math
import time

from junqi_core.game import PLAY, SETUP, Game
from junqi_core.notation import move_text
from junqi_core.pieces import KIND_MASK
from junqi_core.players import make_player
from junqi_core.record import layout_from_json
from junqi_core.views import event, view

MAX_PLIES = 5000


def play_game(variant: str, levels: tuple[str, str], seed: int, index: int) -> dict:
    """One game; levels[0] is side A.  Returns the result and think times per side."""
    game_seed = seed * 100_003 + index
    a_seat = index % 2
    seat_level = {a_seat: levels[0], 1 - a_seat: levels[1]}
    game = Game(variant, seed=game_seed)
    players = {s: make_player(variant, seat_level[s], s, game_seed * 2 + s) for s in (0, 1)}
    for player in players.values():
        if hasattr(player, "clock"):
            # the safety cap counts this process's CPU time, so that other programs
            # running on the machine do not change which moves are played
            player.clock = time.process_time
    if game.phase == SETUP:
        for s in (0, 1):
            game.deploy(s, layout_from_json(game, players[s].deploy(view(game, s))))
    times: dict[int, list[float]] = {0: [], 1: []}
    cpu_times: dict[int, list[float]] = {0: [], 1: []}
    while game.phase == PLAY and game.position.ply < MAX_PLIES:
        seat = game.turn
        legal = [move_text(game.board_spec, m) for m in game.legal_moves()]
        v = view(game, seat)
        t0, c0 = time.perf_counter(), time.process_time()
        choice = players[seat].choose(v, legal)
        times[seat].append(time.perf_counter() - t0)
        cpu_times[seat].append(time.process_time() - c0)
        entry = game.apply(seat, choice)
        for s in (0, 1):
            players[s].observe(event(game, entry, s))
    result = game.result
    winner = None if result is None else result.winner
    score_a = 0.5 if winner is None else float(winner == a_seat)
    out = {
        "index": index,
        "a_seat": a_seat,
        "score_a": score_a,
        "reason": "unfinished" if result is None else result.reason,
        "plies": game.position.ply,
        "times_a": times[a_seat],
        "times_b": times[1 - a_seat],
        "cpu_a": cpu_times[a_seat],
        "cpu_b": cpu_times[1 - a_seat],
    }
    if variant == "blind":
        out["first_flag"] = first_flag(game, a_seat)
    return out


def first_flag(game: Game, a_seat: int) -> str:
    """Blind: whose flag was turned face up first and by whom ("A's flag, turned up by
    B"), or "none".  It decides most Blind games (see docs/strength.md)."""
    flag_kind = game.position_class.flag_kind
    side = {a_seat: "A", 1 - a_seat: "B"}
    for entry in game.history:
        flipped = entry.extra.get("flipped", 0)  # the piece a flip showed (Game._play)
        if flipped & KIND_MASK == flag_kind:
            owner = game.position.piece_owner(flipped)
            if owner is not None:
                return f"{side[owner]}'s flag, turned up by {side[entry.player]}"
    return "none"


def _job(args: tuple) -> dict:
    return play_game(*args)


def run(variant: str, a: str, b: str, games: int, seed: int, jobs: int = 1, progress=None):
    tasks = [(variant, (a, b), seed, i) for i in range(games)]
    results = []
    if jobs > 1:
        import multiprocessing  # CPython only; never imported inside the page

        with multiprocessing.Pool(jobs) as pool:
            for r in pool.imap_unordered(_job, tasks):
                results.append(r)
                if progress:
                    progress(r, len(results))
    else:
        for t in tasks:
            r = _job(t)
            results.append(r)
            if progress:
                progress(r, len(results))
    results.sort(key=lambda r: r["index"])
    return results


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    k = max(0, min(len(s) - 1, math.ceil(q * len(s)) - 1))
    return s[k]


def summary(variant: str, a: str, b: str, seed: int, results: list[dict]) -> str:
    n = len(results)
    wins = sum(1 for r in results if r["score_a"] == 1.0)
    losses = sum(1 for r in results if r["score_a"] == 0.0)
    draws = n - wins - losses
    scores = [r["score_a"] for r in results]
    mean = sum(scores) / n if n else 0.0
    var = sum((x - mean) ** 2 for x in scores) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n else 0.0
    lines = [
        f"arena {variant}: A={a} vs B={b}, {n} games, seed {seed} (sides alternate)",
        f"  A wins {wins}, draws {draws}, losses {losses}",
        f"  score A {100 * mean:.1f}% (95% interval {100 * max(0.0, mean - half):.1f}% "
        f"- {100 * min(1.0, mean + half):.1f}%)",
    ]
    reasons: dict[str, int] = {}
    for r in results:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    lines.append("  endings " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    plies = [r["plies"] for r in results]
    lines.append(f"  plies mean {sum(plies) / max(1, n):.0f}, max {max(plies, default=0)}")
    flags: dict[str, list[int]] = {}
    for r in results:
        if "first_flag" in r:
            row = flags.setdefault(r["first_flag"], [0, 0, 0])
            row[{1.0: 0, 0.5: 1, 0.0: 2}[r["score_a"]]] += 1
    if flags:
        lines.append("  first flag turned up               games   A wins  draws  losses")
        for name, (w, d, lo) in sorted(flags.items()):
            lines.append(f"    {name:<32} {w + d + lo:>5} {w:>8} {d:>6} {lo:>7}")
    for side, level in (("a", a), ("b", b)):
        for kind, label in (("cpu", "cpu "), ("times", "wall")):
            ts = [t for r in results for t in r[f"{kind}_{side}"]]
            if ts:
                mean_t = sum(ts) / len(ts)
                lines.append(
                    f"  think {label} {side.upper()}={level:<7} moves {len(ts):>6}"
                    f"  mean {mean_t:.4f} s  p95 {percentile(ts, 0.95):.4f} s"
                    f"  max {max(ts):.4f} s"
                )
    return "\n".join(lines)
