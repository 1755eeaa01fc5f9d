#!/usr/bin/env python3
"""CPU think time inside the page: Pyodide in headless Chromium, through the real worker.

    python3 bench/cpu_page.py [--levels hard] [--variants classic blind gunjin siguo]
                              [--moves 40] [--no-build] [--no-uncapped] [--profile]

For each variant, CPU-vs-CPU games are started through the bridge and the page's own
`engine.call({op: "cpu_act"})` is timed in the page (worker round trip: the CPU's search,
its view and the reply) until `--moves` moves of the measured level have been made (new
games are started as needed). Budgets per move in the page, at the 95th percentile:
easy 0.1 s, medium 0.5 s, hard 1.5 s.  Siguo (`--variants siguo --levels easy medium hard`)
has four CPU seats: the measured level's team (South and North, or East and West in every
other game) against a team of another level (Easy against Medium, Medium against Easy;
Siguo's Hard is not offered), and only the measured level's moves are counted.  "at cap" counts the
moves that took at least the search's wall-clock cap (90% of the budget): those most likely
stopped before their node budget (Siguo's levels have no cap: their budget is in nodes).
"CPU" is the processor time the browser's renderer processes (the page and its workers)
used during the move (Linux /proc), which other programs on a busy machine do not inflate.

Then, unless `--no-uncapped`, the same games but Siguo's are played without the cap
(bench/uncapped.py) in a bench worker beside the page's (Pyodide from the site's own files,
the site's game wheel) and in this CPython: the CPU seconds each decision needs to finish
its node budget, the nodes searched per CPU second, and the ratio Pyodide / CPython on the
same decisions.
The page reaches the arena's node budget at p95 when that p95 is within the cap (given a
core of its own).  `--profile` prints cProfile's top functions of those decisions in
Pyodide (cProfile slows calls down, so read it as where, not how much).
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
  else waiting.shift()(event.data.result);
};
worker.onerror = (event) => console.error(`bench worker: ${event.message}`);
window.bench = (call) => new Promise((resolve) => {
  waiting.push(resolve);
  worker.postMessage({type: "call", call});
});
const build = await (await fetch("../build.json")).json();
worker.postMessage({type: "init",
  pyodide: new URL(`../${build.pyodide}/pyodide.mjs`, location.href).href,
  lock: new URL("pyodide-lock.json", location.href).href,
  wheel: new URL(`../${build.wheel}`, location.href).href,
  source: new URL("uncapped.py", location.href).href});
"""
# Pyodide from the site's files, the site's game wheel unpacked, bench/uncapped.py run;
# a call is a line of Python evaluated in its module (`games = Games(...)`, `games.next()`).
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
    pyodide.runPython("import json", { globals: scope });
    self.postMessage({ type: "ready" });
    return;
  }
  const result = pyodide.runPython(`json.dumps(${msg.call})`, { globals: scope });
  self.postMessage({ type: "result", result });
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


START_JS = """async ({variant, cpu, seed}) => {
  const engine = window.junqi.engine;
  if (window.benchGame) await engine.call({op: "drop", game: window.benchGame.game});
  const start = await engine.call({op: "new_game", variant, seed, cpu, viewer: null});
  if (!start.ok) throw new Error(JSON.stringify(start.error));
  window.benchGame = {game: start.game, view: start.view};  // the public view
}"""
# One CPU move of the game started last: its round trip in ms, the seat that moved, and
# whether play goes on.
STEP_JS = """async () => {
  const engine = window.junqi.engine;
  const state = window.benchGame;
  const seat = state.view.turn;
  const t0 = performance.now();
  const reply = await engine.call({op: "cpu_act", game: state.game, player: seat,
                                   viewer: null});
  const ms = performance.now() - t0;
  if (!reply.ok) throw new Error(JSON.stringify(reply.error));
  state.view = reply.view;
  return {ms, seat, playing: reply.view.phase === "play"};
}"""
# Siguo: the team that is not measured plays this level.
SIGUO_OTHER = {"easy": "medium", "medium": "easy"}  # (Hard against Medium, when offered)
SIGUO_TEAMS = (0, 1, 0, 1)  # South and North against East and West


def seats(variant: str, level: str, game: int) -> dict[str, str]:
    """The CPU levels of a game's seats: both `level` for two seats; for Siguo, `level`
    for one team (South and North in even games, East and West in odd ones) and the other
    level for the other team."""
    if variant != "siguo":
        return {"0": level, "1": level}
    return {
        str(seat): level if team == game % 2 else SIGUO_OTHER[level]
        for seat, team in enumerate(SIGUO_TEAMS)
    }


class RendererClock:
    """CPU seconds used so far by the browser's renderer processes (the pages and their
    workers), from /proc/PID/task/TID/schedstat; None where that cannot be read."""

    def __init__(self, browser) -> None:
        self.session = browser.new_browser_cdp_session()

    def __call__(self) -> float | None:
        info = self.session.send("SystemInfo.getProcessInfo")["processInfo"]
        total = 0.0
        for process in info:
            if process["type"] != "renderer":
                continue
            tasks = Path(f"/proc/{process['id']}/task")
            try:
                for task in tasks.iterdir():  # every thread: the page's and its workers'
                    total += int((task / "schedstat").read_text().split()[0]) / 1e9
            except (OSError, ValueError, IndexError):
                return None
        return total


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def round_trips(page, clock: RendererClock, args) -> list[tuple]:
    """The page's own worker: `cpu_act` timed per move, with the cap as shipped."""
    rows = []
    for level in args.levels:
        for variant in args.variants:
            if variant == "siguo" and level not in SIGUO_OTHER:
                print(f"(skipped: Siguo has no {level} level)")
                continue
            walls: list[float] = []
            cpus: list[float] = []
            games = 0
            playing = False
            cpu: dict[str, str] = {}
            while len(walls) < args.moves:
                if not playing:
                    cpu = seats(variant, level, games)
                    page.evaluate(
                        START_JS, {"variant": variant, "cpu": cpu, "seed": args.seed + games}
                    )
                    games += 1
                c0 = clock()
                step = page.evaluate(STEP_JS)
                c1 = clock()
                playing = step["playing"]
                if cpu[str(step["seat"])] != level:
                    continue  # Siguo: a move of the other team's level
                walls.append(step["ms"] / 1000)
                if c0 is not None and c1 is not None:
                    cpus.append(c1 - c0)
            rows.append((level, variant, walls, cpus, games))
    return rows


def uncapped(page, clock: RendererClock, args) -> list[tuple]:
    """The same games without the cap, in the bench worker (Pyodide) and in CPython."""
    sys.path.insert(0, str(ROOT / "bench"))
    from uncapped import Games

    rows = []
    for level in args.levels:
        for variant in args.variants:
            if variant == "siguo":
                continue  # bench/uncapped.py plays two seats
            start = f"Games({variant!r}, {level!r}, {args.seed}, profile={args.profile})"
            page.evaluate("(call) => window.bench(call)", f"[games := {start}, 0][1]")
            here = Games(variant, level, args.seed, clock=time.process_time)
            pyodide = []
            cpython = []
            for _ in range(args.moves):
                c0 = clock()
                record = json.loads(page.evaluate("() => window.bench('games.next()')"))
                c1 = clock()
                record["cpu"] = None if c0 is None or c1 is None else c1 - c0
                pyodide.append(record)
                cpython.append(here.next())
            profile = None
            if args.profile:
                profile = json.loads(page.evaluate("() => window.bench('games.profile()')"))
            rows.append((level, variant, pyodide, cpython, profile))
    return rows


def print_round_trips(rows: list[tuple]) -> None:
    print(
        f"{'level':<7}{'variant':<9}{'moves':>6}{'games':>6}{'mean s':>9}{'p50 s':>8}"
        f"{'p95 s':>8}{'max s':>8}{'at cap':>7}{'CPU p95':>8}  budget (p95)"
    )
    for level, variant, walls, cpus, games in rows:
        budget = BUDGETS[level]
        p95 = percentile(walls, 0.95)
        verdict = "ok" if p95 <= budget else "OVER"
        at_cap = sum(t >= SEARCH_SHARE * budget for t in walls)
        cpu = f"{percentile(cpus, 0.95):>8.3f}" if cpus else f"{'-':>8}"
        print(
            f"{level:<7}{variant:<9}{len(walls):>6}{games:>6}{statistics.mean(walls):>9.3f}"
            f"{percentile(walls, 0.5):>8.3f}{p95:>8.3f}{max(walls):>8.3f}{at_cap:>7}{cpu}"
            f"  {budget:.1f} s {verdict}"
        )


def print_uncapped(rows: list[tuple]) -> None:
    from junqi_core.ai.player import settings_for

    print(
        "without the cap: CPU seconds to finish the node budget (Pyodide in the bench "
        "worker: the renderer's CPU time; CPython here: this process's)"
    )
    print(
        f"{'level':<7}{'variant':<9}{'budget':>9}{'moves':>6}{'p50 s':>8}{'p95 s':>8}"
        f"{'max s':>8}{'nodes/s':>10}{'CPython p95':>12}{'nodes/s':>10}{'ratio':>6}"
        f"  p95 within the cap"
    )
    for level, variant, pyodide, cpython, profile in rows:
        budget = settings_for(variant, level).nodes
        cap = SEARCH_SHARE * BUDGETS[level]
        # the renderer's CPU time where it can be read, else the worker's wall clock
        page_s = [r["cpu"] if r["cpu"] is not None else r["seconds"] for r in pyodide]
        here_s = [r["seconds"] for r in cpython]
        nodes = sum(r["nodes"] for r in pyodide)
        same = [r["nodes"] for r in pyodide] == [r["nodes"] for r in cpython]
        p95 = percentile(page_s, 0.95)
        verdict = f"{cap:.2f} s {'ok' if p95 <= cap else 'OVER'}"
        print(
            f"{level:<7}{variant:<9}{budget:>9,}{len(page_s):>6}{percentile(page_s, 0.5):>8.3f}"
            f"{p95:>8.3f}{max(page_s):>8.3f}{nodes / sum(page_s):>10,.0f}"
            f"{percentile(here_s, 0.95):>12.3f}{nodes / sum(here_s):>10,.0f}"
            f"{sum(page_s) / sum(here_s):>6.2f}  {verdict}"
            + ("" if same else "  (the games differ!)")
        )
        if profile:
            print(f"cProfile of {level} {variant} in Pyodide (all decisions):")
            print(profile)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["hard"], choices=sorted(BUDGETS))
    parser.add_argument(
        "--variants",
        nargs="+",
        default=["classic", "blind", "gunjin"],
        choices=["classic", "blind", "gunjin", "siguo"],
    )
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
            clock = RendererClock(browser)
            page = browser.new_page()
            page.goto(server.url)
            page.wait_for_selector("html[data-ready]", state="attached", timeout=120_000)
            trips = round_trips(page, clock, args)
            page.close()
            free = []
            if not args.no_uncapped and set(args.variants) != {"siguo"}:
                page = browser.new_page()
                page.goto(server.url + "bench/")
                page.wait_for_selector("html[data-ready]", state="attached", timeout=120_000)
                free = uncapped(page, clock, args)
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
