"""CPU think time per variant and level: p50 / p95 / max of `choose()` in CPython.

Run: python bench/ai.py [--positions N] [--levels easy,medium,hard] [--variants ...]
     python bench/ai.py --page [--moves N] [--levels hard]   (inside the page, Chromium)

Positions come from seeded Easy-vs-Easy games (every few plies, from the opening to
the end game).  Each level then chooses once in each position.  Times are CPU time of
this process (`time.process_time`, which other programs on the machine do not inflate);
the safety cap runs on the same clock.  Wall time is shown as well.  Budgets in the page
(Pyodide, about 2.2x slower than CPython): Easy 0.1 s, Medium 0.5 s, Hard 1.5 s at the
95th percentile, i.e. about 0.045 / 0.22 / 0.65 s here.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from junqi_core.game import PLAY, Game
from junqi_core.notation import move_text
from junqi_core.players import make_player
from junqi_core.record import layout_from_json
from junqi_core.views import view

TARGET = {"easy": 0.1 / 2.2, "medium": 0.5 / 2.2, "hard": 1.5 / 2.2}


def positions(variant: str, count: int, seed: int = 1, every: int = 5) -> list[tuple]:
    """(view, legal actions, seat) samples from seeded Easy-vs-Easy games."""
    out: list[tuple] = []
    game_index = 0
    while len(out) < count:
        game_seed = seed * 1_000 + game_index
        game_index += 1
        game = Game(variant, seed=game_seed)
        players = {s: make_player(variant, "easy", s, game_seed * 2 + s) for s in (0, 1)}
        if game.phase != PLAY:
            for s in (0, 1):
                game.deploy(s, layout_from_json(game, players[s].deploy(view(game, s))))
        while game.phase == PLAY and len(out) < count:
            seat = game.turn
            legal = [move_text(game.board_spec, m) for m in game.legal_moves()]
            v = view(game, seat)
            if game.position.ply % every == game_index % every and len(legal) > 1:
                out.append((v, legal, seat))
            game.apply(seat, players[seat].choose(v, legal))
    return out


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[max(0, min(len(s) - 1, int(q * len(s) + 0.999999) - 1))]


def page_bench(levels: list[str], variants: list[str], moves: int, seed: int) -> None:
    """Think time of `cpu_act` measured inside the page (Pyodide in headless Chromium):
    a throwaway build of the site is served on 127.0.0.1 and each level plays Easy, the
    time of each of its moves taken with performance.now() around the engine call."""
    import tempfile

    from playwright.sync_api import sync_playwright

    import build  # the site's build script (repository root)

    timed = """async request => {
        const t0 = performance.now();
        const reply = await window.junqi.engine.call(request);
        return [performance.now() - t0, reply];
    }"""
    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        build.build(dist)
        with build.SiteServer(dist) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=build.find_chromium(), args=["--headless", "--no-sandbox"]
            )
            page = browser.new_page()
            page.goto(server.url)
            page.wait_for_selector("html[data-state=ready]", state="attached", timeout=120_000)
            print(f"inside the page (Pyodide), {moves} moves per level and variant")
            print(
                f"{'variant':<8} {'level':<7} {'p50 s':>7} {'p95 s':>7} {'max s':>7} {'budget':>7}"
            )
            for variant in variants:
                for level in levels:
                    times: list[float] = []
                    game_seed = seed
                    while len(times) < moves:
                        cpu = {"0": level, "1": "easy"}
                        request = {"op": "new_game", "variant": variant, "seed": game_seed}
                        _, reply = page.evaluate(timed, {**request, "cpu": cpu})
                        game_id = reply["game"]
                        game_seed += 1
                        view = reply["view"]
                        while view["phase"] == "play" and len(times) < moves:
                            seat = view["turn"]
                            request = {"op": "cpu_act", "game": game_id, "player": seat}
                            ms, reply = page.evaluate(timed, {**request, "viewer": 1 - seat})
                            if not reply.get("ok"):
                                raise SystemExit(f"engine error: {reply}")
                            if seat == 0:
                                times.append(ms / 1000)
                            view = reply["view"]
                        page.evaluate(timed, {"op": "drop", "game": game_id})
                    budget = {"easy": 0.1, "medium": 0.5, "hard": 1.5}.get(level, 0)
                    print(
                        f"{variant:<8} {level:<7} {percentile(times, 0.5):>7.3f} "
                        f"{percentile(times, 0.95):>7.3f} {max(times):>7.3f} {budget:>7.3f}",
                        flush=True,
                    )
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--page", action="store_true", help="measure inside the page")
    parser.add_argument("--moves", type=int, default=60, help="with --page: moves per level")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--variants", default="classic,blind,gunjin")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.page:
        levels = args.levels.split(",")
        page_bench(levels, args.variants.split(","), args.moves, args.seed)
        return
    print(f"CPython {sys.version.split()[0]}, {args.positions} positions per variant")
    print(
        f"{'variant':<8} {'level':<7} {'p50 s':>7} {'p95 s':>7} {'max s':>7} "
        f"{'target p95':>10} {'capped':>6} {'wall p95':>9}"
    )
    for variant in args.variants.split(","):
        samples = positions(variant, args.positions, args.seed)
        for level in args.levels.split(","):
            times = []
            walls = []
            capped = 0
            for i, (v, legal, seat) in enumerate(samples):
                player = make_player(variant, level, seat, i)
                player.clock = time.process_time
                t0, c0 = time.perf_counter(), time.process_time()
                player.choose(v, legal)
                times.append(time.process_time() - c0)
                walls.append(time.perf_counter() - t0)
                capped += bool(getattr(player, "last_info", {}).get("timeout"))
            print(
                f"{variant:<8} {level:<7} {percentile(times, 0.5):>7.3f} "
                f"{percentile(times, 0.95):>7.3f} {max(times):>7.3f} "
                f"{TARGET.get(level, 0):>10.3f} {capped:>6} {percentile(walls, 0.95):>9.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
