#!/usr/bin/env python3
"""Four-player Siguo in the page on a phone-sized screen: from Play to the first move.

    python3 bench/siguo_page.py [--runs 5] [--cpu medium] [--no-build]
                                [--shots DIR] [--pace 150] [--game-minutes 15]

The built site (dist/, built first unless `--no-build`) is served with the production
headers (build.SiteServer) to headless Chromium at 390x844.  Each run opens the page in a
fresh browser context (a first visit), picks Siguo with the default seats (you South, the
three others CPUs of `--cpu`, Medium by default), and presses Play; as soon as the setup is
shown it presses Confirm (the layout as drawn).  Two cases, runs interleaved:

- engine ready: Play once the engine has answered (html[data-ready]) and stored its memory
  snapshot (html[data-snapshot], at most 60 s), as a player who reads the start screen;
- at once: Play as soon as the start screen can be used (#app[data-ui=ready]), while the
  engine may still be loading (its loading is then part of the wait).

Times, in the page (performance.now(), at the first animation frame that shows it):

- Play to setup: Play pressed until the setup can be used;
- Confirm to first move: Confirm pressed until the first move of the game is on the board
  (or, when South moves first, until it is South's turn);
- Play to first move: both, with the bench's own moment between setup shown and Confirm.

The CPU seats keep the page's own pace (no `?cpupace`).  Then, with `--shots DIR`, one
whole game against three CPUs at `?cpupace=--pace` (ms each CPU move stays on screen; the
page's test-only parameter), South playing random legal moves by clicks, with screenshots
of the setup, play, the first seat going out and the end saved as DIR/sgbench-*.png.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import build  # noqa: E402

PHONE = {"width": 390, "height": 844}

# The moments of one start, in the page: Play and Confirm pressed (listeners that run
# before the page's own), the setup shown, the first move shown (or South's turn).
WATCH_JS = """() => {
  const t = window.__bench = {};
  document.addEventListener('click', (e) => {
    if (e.target.closest('#btn-play') && t.play === undefined) t.play = performance.now();
    if (e.target.closest('#btn-confirm') && t.confirm === undefined)
      t.confirm = performance.now();
  }, {capture: true});
  const tick = () => {
    const g = document.querySelector('section.game');
    if (g && g.dataset.busy === 'false') {
      if (t.setup === undefined && g.dataset.ui === 'setup') t.setup = performance.now();
      const yours = g.dataset.ui === 'play' && g.dataset.turn === g.dataset.viewer;
      if (t.confirm !== undefined && (Number(g.dataset.ply) > 0 || yours)) {
        t.first = performance.now();
        t.ply = Number(g.dataset.ply);
      }
    }
    if (t.first === undefined) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""

STATE_JS = """() => {
  const g = document.querySelector('section.game');
  const v = window.junqiUI?.game?.view;
  return {ui: g?.dataset.ui, busy: g?.dataset.busy, turn: g?.dataset.turn,
          viewer: g?.dataset.viewer, out: v ? v.out : null, ply: Number(g?.dataset.ply || 0),
          result: v ? v.result : null};
}"""


def choose_siguo(page, cpu: str) -> None:
    page.wait_for_selector("#app[data-ui=ready]", state="attached", timeout=180_000)
    page.check("#variant-siguo")
    page.wait_for_selector("#table-options:not([hidden])")
    for seat in (1, 2, 3):
        if page.input_value(f"#seat-choice-{seat}") != cpu:
            page.select_option(f"#seat-choice-{seat}", cpu)


def one_start(browser, url: str, cpu: str, warm: bool) -> dict:
    from gamedriver import GameDriver
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(url)
        if warm:
            page.wait_for_selector("html[data-ready]", state="attached", timeout=180_000)
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_selector("html[data-snapshot]", state="attached", timeout=60_000)
        choose_siguo(page, cpu)
        page.evaluate(WATCH_JS)
        driver = GameDriver(page)
        driver.play()
        driver.wait("setup", timeout=120_000)
        page.click("#btn-confirm")
        page.wait_for_function("() => window.__bench.first !== undefined", timeout=120_000)
        t = page.evaluate("() => window.__bench")
        first = page.evaluate("() => window.junqiUI.game.view.first")
        return {
            "setup": (t["setup"] - t["play"]) / 1000,
            "first": (t["first"] - t["confirm"]) / 1000,
            "total": (t["first"] - t["play"]) / 1000,
            "ply": t["ply"],
            "first_seat": first,
        }
    finally:
        context.close()


def whole_game(browser, url: str, cpu: str, shots: Path, minutes: float) -> str:
    """One game against three CPUs, South clicking random legal moves; screenshots."""
    from gamedriver import GameDriver

    shots.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(url)
        choose_siguo(page, cpu)
        driver = GameDriver(page, seed=1)
        driver.play()
        driver.wait("setup", timeout=120_000)
        page.screenshot(path=str(shots / "sgbench-setup.png"))
        page.click("#btn-confirm")
        started = time.monotonic()
        moves = 0
        out_seen = False
        while time.monotonic() - started < minutes * 60:
            s = page.evaluate(STATE_JS)
            if s["ui"] == "over":
                break
            if not out_seen and s["out"] and any(s["out"]):
                out_seen = True
                page.screenshot(path=str(shots / "sgbench-out.png"))
            out = s["out"] or []
            south_in = not (out and out[0])
            mine = s["ui"] == "play" and s["busy"] == "false" and s["turn"] == s["viewer"]
            if mine and south_in and (driver.choices()["moves"] or driver.choices()["attacks"]):
                driver.play_random()
                moves += 1
                if moves == 6:
                    page.screenshot(path=str(shots / "sgbench-play.png"))
            else:
                time.sleep(0.1)
        s = page.evaluate(STATE_JS)
        page.screenshot(path=str(shots / "sgbench-end.png"))
        seconds = time.monotonic() - started
        return (
            f"whole game against three {cpu} CPUs at ?cpupace: ui {s['ui']}, ply {s['ply']}, "
            f"out {s['out']}, result {s['result']}, South's moves {moves}, {seconds:.0f} s; "
            f"screenshots in {shots}"
        )
    finally:
        context.close()


def summary(name: str, values: list[float]) -> str:
    runs = " ".join(f"{v:.2f}" for v in values)
    return (
        f"{name:<24}median {statistics.median(values):6.2f} s  max {max(values):6.2f} s"
        f"   runs: {runs}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cpu", default="medium", choices=["easy", "medium"])
    parser.add_argument("--no-build", action="store_true", help="use the existing dist/")
    parser.add_argument("--shots", type=Path, help="play a whole game; screenshots here")
    parser.add_argument("--pace", type=int, default=150, help="?cpupace for the whole game")
    parser.add_argument("--game-minutes", type=float, default=15)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    if not args.no_build:
        build.build()
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        shutil.copytree(build.DIST, site)
        with build.SiteServer(site) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=build.find_chromium(), args=build.CHROMIUM_ARGS
            )
            runs: dict[str, list[dict]] = {"engine ready": [], "at once": []}
            for _ in range(args.runs):
                runs["engine ready"].append(one_start(browser, server.url, args.cpu, True))
                runs["at once"].append(one_start(browser, server.url, args.cpu, False))
            game = None
            if args.shots:
                url = f"{server.url}?cpupace={args.pace}"
                game = whole_game(browser, url, args.cpu, args.shots, args.game_minutes)
            browser.close()
    print(
        f"bench/siguo_page.py  Pyodide {build.PYODIDE_VERSION} in headless Chromium at "
        f"{PHONE['width']}x{PHONE['height']}, you South + three {args.cpu} CPUs, "
        f"{args.runs} runs; load average {load_before:.1f} -> {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores, {time.perf_counter() - started:.0f} s"
    )
    for case, rows in runs.items():
        print(f"Play pressed with the {case}" if case == "engine ready" else f"Play pressed {case}")
        print(summary("  Play to setup", [r["setup"] for r in rows]))
        print(summary("  Confirm to first move", [r["first"] for r in rows]))
        print(summary("  Play to first move", [r["total"] for r in rows]))
        firsts = ", ".join(
            "South's turn" if r["ply"] == 0 else f"ply {r['ply']} (seat {r['first_seat']} first)"
            for r in rows
        )
        print(f"  first move shown: {firsts}")
    if game:
        print(game)
    return 0


if __name__ == "__main__":
    sys.exit(main())
