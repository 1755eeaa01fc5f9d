#!/usr/bin/env python3
"""CPU think time inside the page: Pyodide in headless Chromium, through the real worker.

    python3 bench/cpu_page.py [--levels hard] [--moves 40] [--no-build]

For each variant, a CPU-vs-CPU game is started through the bridge and the page's own
`engine.call({op: "cpu_act"})` is timed in the page (worker round trip: the CPU's search,
its view and the reply) until `--moves` moves of the measured level have been made (new
games are started as needed). Budgets per move in the page, at the 95th percentile:
easy 0.1 s, medium 0.5 s, hard 1.5 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

BUDGETS = {"easy": 0.1, "medium": 0.5, "hard": 1.5}

PLAY_JS = """async ({variant, level, moves, seed}) => {
  const engine = window.junqi.engine;
  const times = [];
  let games = 0;
  while (times.length < moves) {
    const start = await engine.call({op: "new_game", variant, seed: seed + games,
                                     cpu: {"0": level, "1": level}});
    if (!start.ok) throw new Error(JSON.stringify(start.error));
    games += 1;
    let view = start.view;
    const game = start.game;
    view = (await engine.call({op: "view", game, player: null})).view;
    while (view.phase === "play" && times.length < moves) {
      const t0 = performance.now();
      const reply = await engine.call({op: "cpu_act", game, player: view.turn, viewer: null});
      times.push(performance.now() - t0);
      if (!reply.ok) throw new Error(JSON.stringify(reply.error));
      view = reply.view;
    }
    await engine.call({op: "drop", game});
  }
  return {times, games};
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["hard"], choices=sorted(BUDGETS))
    parser.add_argument("--variants", nargs="+", default=["classic", "blind", "gunjin"])
    parser.add_argument("--moves", type=int, default=40, help="measured moves per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-build", action="store_true", help="use the existing dist/")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    if not args.no_build:
        build.build()
    load_before = os.getloadavg()[0]
    rows = []
    with build.SiteServer(build.DIST) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=build.find_chromium(), args=build.CHROMIUM_ARGS
        )
        page = browser.new_page()
        page.goto(server.url)
        page.wait_for_selector("html[data-ready]", state="attached", timeout=120_000)
        for level in args.levels:
            for variant in args.variants:
                result = page.evaluate(
                    PLAY_JS,
                    {"variant": variant, "level": level, "moves": args.moves, "seed": args.seed},
                )
                seconds = [t / 1000 for t in result["times"]]
                rows.append(
                    (
                        level,
                        variant,
                        len(seconds),
                        result["games"],
                        statistics.mean(seconds),
                        percentile(seconds, 0.5),
                        percentile(seconds, 0.95),
                        max(seconds),
                    )
                )
        browser.close()
    print(
        f"bench/cpu_page.py  Pyodide {build.PYODIDE_VERSION} in headless Chromium, "
        f"worker round trip per CPU move; load average {load_before:.1f} -> "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"{'level':<7}{'variant':<9}{'moves':>6}{'games':>6}{'mean s':>9}{'p50 s':>8}"
        f"{'p95 s':>8}{'max s':>8}  budget (p95)"
    )
    for level, variant, n, games, mean, p50, p95, top in rows:
        verdict = "ok" if p95 <= BUDGETS[level] else "OVER"
        print(
            f"{level:<7}{variant:<9}{n:>6}{games:>6}{mean:>9.3f}{p50:>8.3f}{p95:>8.3f}"
            f"{top:>8.3f}  {BUDGETS[level]:.1f} s {verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
