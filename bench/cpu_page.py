#!/usr/bin/env python3
"""CPU think time inside the page: Pyodide in headless Chromium, through the real worker.

    python3 bench/cpu_page.py [--levels hard] [--moves 40] [--no-build] [--no-uncapped]
                              [--profile]

For each variant, a CPU-vs-CPU game is started through the bridge and the page's own
`engine.call({op: "cpu_act"})` is timed in the page (worker round trip: the CPU's search,
its view and the reply) until `--moves` moves of the measured level have been made (new
games are started as needed). Budgets per move in the page, at the 95th percentile:
easy 0.1 s, medium 0.5 s, hard 1.5 s.  "at cap" counts the moves that took at least the
search's wall-clock cap (90% of the budget): those most likely stopped before their node
budget.

Then, unless `--no-uncapped`, the same games are played without the cap (bench/uncapped.py)
in a bench worker beside the page's (Pyodide from the site's own files, the site's game
wheel) and in this CPython: the seconds each decision needs to finish its node budget,
the nodes searched per second, and the ratio Pyodide / CPython on the same decisions.  The
page reaches the arena's node budget at p95 when that p95 is within the cap.  `--profile`
prints cProfile's top functions of those decisions in Pyodide.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

BUDGETS = {"easy": 0.1, "medium": 0.5, "hard": 1.5}
SEARCH_SHARE = 0.9  # the search's wall-clock cap as a share of the budget (ai/player.py)

BENCH_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>search bench</title>
<script type="module" src="bench.js"></script></head><body>search bench</body></html>
"""
# The page side: one worker, requests answered in order.
BENCH_JS = """
const worker = new Worker(new URL("worker.js", import.meta.url), {type: "module"});
const waiting = [];
worker.onmessage = (event) => {
  if (event.data.type === "ready") document.documentElement.dataset.ready = "true";
  else if (event.data.type === "error") console.error(event.data.message);
  else waiting.shift()(event.data);
};
worker.onerror = (event) => console.error(`bench worker: ${event.message}`);
window.bench = (request) => new Promise((resolve) => {
  waiting.push(resolve);
  worker.postMessage({type: "run", request});
});
const build = await (await fetch("../build.json")).json();
worker.postMessage({type: "init",
  pyodide: new URL(`../${build.pyodide}/pyodide.mjs`, location.href).href,
  lock: new URL("pyodide-lock.json", location.href).href,
  wheel: new URL(`../${build.wheel}`, location.href).href,
  source: new URL("uncapped.py", location.href).href});
"""
# Pyodide from the site's files, the site's game wheel unpacked, bench/uncapped.py run.
BENCH_WORKER = """
let pyodide = null;
let scope = null;
self.onmessage = (event) => handle(event.data).catch((error) => {
  self.postMessage({ type: "error", message: String(error.stack || error) });
});
async function handle(msg) {
  if (msg.type === "init") {
    const { loadPyodide } = await import(msg.pyodide);
    pyodide = await loadPyodide({ lockFileURL: msg.lock });
    const wheel = new Uint8Array(await (await fetch(msg.wheel)).arrayBuffer());
    const site = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
    pyodide.unpackArchive(wheel, "wheel", { extractDir: site });
    scope = pyodide.globals.get("dict")();
    pyodide.runPython(await (await fetch(msg.source)).text(), { globals: scope });
    self.postMessage({ type: "ready" });
    return;
  }
  scope.set("request", msg.request);
  const out = pyodide.runPython(
    "import json; json.dumps(play(**json.loads(request)))", { globals: scope });
  self.postMessage({ type: "result", result: out });
}
"""


def prepare(site: Path, no_build: bool) -> None:
    """A copy of the built site with the search bench in bench/ beside it."""
    if not no_build:
        build.build()
    shutil.copytree(build.DIST, site)
    folder = site / "bench"
    folder.mkdir()
    (folder / "index.html").write_text(BENCH_HTML)
    (folder / "bench.js").write_text(BENCH_JS)
    (folder / "worker.js").write_text(BENCH_WORKER)
    shutil.copyfile(ROOT / "bench" / "uncapped.py", folder / "uncapped.py")
    stock_lock = build.ROOT / "node_modules" / "pyodide" / "pyodide-lock.json"
    shutil.copyfile(stock_lock, folder / "pyodide-lock.json")


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


def round_trips(page, args) -> list[tuple]:
    """The page's own worker: `cpu_act` timed per move, with the cap as shipped."""
    rows = []
    for level in args.levels:
        for variant in args.variants:
            result = page.evaluate(
                PLAY_JS,
                {"variant": variant, "level": level, "moves": args.moves, "seed": args.seed},
            )
            seconds = [t / 1000 for t in result["times"]]
            rows.append((level, variant, seconds, result["games"]))
    return rows


def uncapped(page, args) -> list[tuple]:
    """The same games without the cap, in the bench worker (Pyodide) and in CPython."""
    sys.path.insert(0, str(ROOT / "bench"))
    from uncapped import play

    rows = []
    for level in args.levels:
        for variant in args.variants:
            request = {"variant": variant, "level": level, "moves": args.moves, "seed": args.seed}
            if args.profile:
                request["profile"] = True
            pyodide = json.loads(
                page.evaluate("(r) => window.bench(r).then((m) => m.result)", json.dumps(request))
            )
            request.pop("profile", None)
            cpython = play(**request)
            rows.append((level, variant, pyodide, cpython))
    return rows


def print_round_trips(rows: list[tuple]) -> None:
    print(
        f"{'level':<7}{'variant':<9}{'moves':>6}{'games':>6}{'mean s':>9}{'p50 s':>8}"
        f"{'p95 s':>8}{'max s':>8}{'at cap':>7}  budget (p95)"
    )
    for level, variant, seconds, games in rows:
        budget = BUDGETS[level]
        p95 = percentile(seconds, 0.95)
        verdict = "ok" if p95 <= budget else "OVER"
        at_cap = sum(t >= SEARCH_SHARE * budget for t in seconds)
        print(
            f"{level:<7}{variant:<9}{len(seconds):>6}{games:>6}{statistics.mean(seconds):>9.3f}"
            f"{percentile(seconds, 0.5):>8.3f}{p95:>8.3f}{max(seconds):>8.3f}{at_cap:>7}"
            f"  {budget:.1f} s {verdict}"
        )


def print_uncapped(rows: list[tuple]) -> None:
    from junqi_core.ai.player import settings_for

    print(
        "without the cap: seconds to finish the node budget (Pyodide in the bench worker; "
        "CPython here, wall clock)"
    )
    print(
        f"{'level':<7}{'variant':<9}{'budget':>9}{'moves':>6}{'p50 s':>8}{'p95 s':>8}"
        f"{'max s':>8}{'nodes/s':>10}{'CPython p95':>12}{'nodes/s':>10}{'ratio':>6}"
        f"  p95 within the cap"
    )
    for level, variant, pyodide, cpython in rows:
        budget = settings_for(variant, level).nodes
        cap = SEARCH_SHARE * BUDGETS[level]
        page_s = [r["seconds"] for r in pyodide["records"]]
        here_s = [r["seconds"] for r in cpython["records"]]
        nodes = sum(r["nodes"] for r in pyodide["records"])
        same = [r["nodes"] for r in pyodide["records"]] == [r["nodes"] for r in cpython["records"]]
        p95 = percentile(page_s, 0.95)
        verdict = f"{cap:.2f} s {'ok' if p95 <= cap else 'OVER'}"
        print(
            f"{level:<7}{variant:<9}{budget:>9,}{len(page_s):>6}{percentile(page_s, 0.5):>8.3f}"
            f"{p95:>8.3f}{max(page_s):>8.3f}{nodes / sum(page_s):>10,.0f}"
            f"{percentile(here_s, 0.95):>12.3f}{nodes / sum(here_s):>10,.0f}"
            f"{sum(page_s) / sum(here_s):>6.2f}  {verdict}"
            + ("" if same else "  (the games differ!)")
        )
        if "profile" in pyodide:
            print(f"cProfile of {level} {variant} in Pyodide (all decisions):")
            print(pyodide["profile"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["hard"], choices=sorted(BUDGETS))
    parser.add_argument("--variants", nargs="+", default=["classic", "blind", "gunjin"])
    parser.add_argument("--moves", type=int, default=40, help="measured moves per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-build", action="store_true", help="use the existing dist/")
    parser.add_argument("--no-uncapped", action="store_true", help="only the page's own moves")
    parser.add_argument("--profile", action="store_true", help="cProfile in Pyodide")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        prepare(site, args.no_build)
        with build.SiteServer(site) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=build.find_chromium(), args=build.CHROMIUM_ARGS
            )
            page = browser.new_page()
            page.goto(server.url)
            page.wait_for_selector("html[data-ready]", state="attached", timeout=120_000)
            trips = round_trips(page, args)
            page.close()
            free = []
            if not args.no_uncapped:
                page = browser.new_page()
                page.goto(server.url + "bench/")
                page.wait_for_selector("html[data-ready]", state="attached", timeout=120_000)
                free = uncapped(page, args)
            browser.close()
    print(
        f"bench/cpu_page.py  Pyodide {build.PYODIDE_VERSION} in headless Chromium, "
        f"worker round trip per CPU move; load average {load_before:.1f} -> "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, "
        f"{time.perf_counter() - started:.0f} s"
    )
    print_round_trips(trips)
    if free:
        print_uncapped(free)
    return 0


if __name__ == "__main__":
    sys.exit(main())
