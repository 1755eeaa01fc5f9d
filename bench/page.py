#!/usr/bin/env python3
"""Page load benchmark: our site against a bare Pyodide boot, in headless Chromium.

    python3 bench/page.py [--runs 3] [--no-build]

Builds dist/ (unless --no-build), copies it to a temp folder, adds bare/ -- a tiny page whose
module worker only runs loadPyodide() from the same vendored files -- and serves both from
one 127.0.0.1 server with the production headers (build.SiteServer). Four pages, visits
interleaved so background load hits all alike:

- ours: the site as shipped (a warm start restores the engine's memory snapshot);
- ours without snapshot: the same with ?snapshot=off (a warm start boots Python and
  imports the engine, as before snapshots);
- bare: loadPyodide() and nothing else;
- floor: one stylesheet and one tiny module behind a service worker like ours -- the least
  a page takes to be interactive on this machine and browser.

Each cold (a fresh browser context: empty caches, no service worker) and warm (a
persistent profile visited once before, relaunched: HTTP cache, service worker, the
engine snapshot). Times from navigation start to:

- interactive: the start screen can be used (performance.mark("junqi-interactive"));
- engine ready: the engine answered and the UI is mounted ("junqi-ready"; bare: loadPyodide
  resolved and ran 1 + 1).

Also the bytes the server sent and the size of our own files.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
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

CHROMIUM_ARGS = build.CHROMIUM_ARGS

BARE_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>bare</title>
<script type="module" src="bare.js"></script></head><body>bare Pyodide</body></html>
"""
BARE_JS = """
const worker = new Worker(new URL("worker.js", import.meta.url), {type: "module"});
worker.onmessage = () => {
  performance.mark("junqi-ready");
  document.documentElement.dataset.ready = "true";
};
worker.postMessage({
  pyodide: new URL("../%(pyodide)s/pyodide.mjs", location.href).href,
  lock: new URL("pyodide-lock.json", location.href).href,  // the stock lock, absolute
});
"""
BARE_WORKER = """
self.onmessage = async (event) => {
  const { loadPyodide } = await import(event.data.pyodide);
  const pyodide = await loadPyodide({ lockFileURL: event.data.lock });
  self.postMessage(pyodide.runPython("1 + 1"));
};
"""

# The floor: the least a page like ours can take to be interactive here -- one stylesheet,
# one tiny module that adds a button, and a service worker serving both from its cache the
# way ours does (navigation preload for the page). Its warm interactive start is what
# this machine and browser cost before any of our own work.
FLOOR_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>floor</title>
<link rel="stylesheet" href="floor.css"><script type="module" src="floor.js"></script>
</head><body><main id="app"></main></body></html>
"""
FLOOR_CSS = "body { font-family: sans-serif; }\n"
FLOOR_JS = """
const button = document.createElement("button");
button.textContent = "Play";
document.getElementById("app").append(button);
performance.mark("junqi-interactive");
performance.mark("junqi-ready");
document.documentElement.dataset.ready = "true";
navigator.serviceWorker.register("./sw.js").then(() => navigator.serviceWorker.ready)
  .then(() => (document.documentElement.dataset.offline = "true"));
"""
FLOOR_SW = """
const CACHE = "floor";
self.addEventListener("install", (event) => event.waitUntil(caches.open(CACHE)
  .then((cache) => cache.addAll(["./", "floor.css", "floor.js"])).then(() => self.skipWaiting())));
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  await self.registration.navigationPreload?.enable();
  await self.clients.claim();
})()));
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.mode === "navigate") {
    event.respondWith((async () => {
      try { return (await event.preloadResponse) || (await fetch(request)); }
      catch { return caches.match("./"); }
    })());
    return;
  }
  event.respondWith(caches.match(request.url).then((hit) => hit || fetch(request)));
});
"""

PAGES = {"ours": "", "ours, no snapshot": "?snapshot=off", "bare": "bare/", "floor": "floor/"}


def prepare(site: Path, no_build: bool) -> dict:
    if not no_build:
        build.build()
    shutil.copytree(build.DIST, site)
    manifest = json.loads((site / "build.json").read_text())
    bare = site / "bare"
    bare.mkdir()
    (bare / "index.html").write_text(BARE_HTML)
    (bare / "bare.js").write_text(BARE_JS % {"pyodide": manifest["pyodide"]})
    (bare / "worker.js").write_text(BARE_WORKER)
    floor = site / "floor"
    floor.mkdir()
    for name, text in (
        ("index.html", FLOOR_HTML),
        ("floor.css", FLOOR_CSS),
        ("floor.js", FLOOR_JS),
        ("sw.js", FLOOR_SW),
    ):
        (floor / name).write_text(text)
    stock_lock = build.ROOT / "node_modules" / "pyodide" / "pyodide-lock.json"
    shutil.copyfile(stock_lock, bare / "pyodide-lock.json")
    return manifest


class Visit:
    """One navigation: ms to interactive and to engine ready, and when ready was."""

    def __init__(self, page, url: str) -> None:
        page.goto(url)
        page.wait_for_selector("html[data-ready]", state="attached", timeout=90_000)
        marks = page.evaluate("""() => {
            const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
            return {ready: at('junqi-ready'), interactive: at('junqi-interactive'),
                    origin: performance.timeOrigin,
                    boot: document.documentElement.dataset.boot ?? null,
                    worker: window.junqi?.engine?.timings ?? null};
        }""")
        self.ms = marks["ready"]
        self.interactive_ms = marks["interactive"]
        self.boot = marks["boot"]  # ours: "plain" or "snapshot"
        self.worker = marks["worker"]  # ours: worker milestones, ms since worker start
        self.origin = marks["origin"]  # navigation start, ms since the epoch
        self.ready_at = (marks["origin"] + marks["ready"]) / 1000  # epoch seconds


def split_bytes(entries, before: float | None = None) -> tuple[int, int]:
    """(Pyodide runtime bytes, everything else) in server log entries, optionally only
    those of requests that came in before the time `before`."""
    entries = [e for e in entries if before is None or e[3] <= before]
    pyodide = sum(size for rel, _, size, _ in entries if rel.startswith("pyodide/"))
    other = sum(size for rel, _, size, _ in entries if not rel.startswith("pyodide/"))
    return pyodide, other


def settle(page, path: str) -> None:
    """After a first visit: let the service worker precache (ours, the floor) and the
    engine snapshot be kept (ours)."""
    if path == PAGES["bare"]:
        return
    with contextlib.suppress(Exception):
        page.wait_for_selector("html[data-offline]", state="attached", timeout=60_000)
    if path == PAGES["floor"]:
        return
    with contextlib.suppress(Exception):
        page.wait_for_selector("html[data-snapshot]", state="attached", timeout=60_000)


def cold(browser, server, path: str) -> tuple[Visit, tuple, tuple]:
    """One visit in a fresh context: (visit, bytes to ready, bytes incl. precache)."""
    context = browser.new_context()
    page = context.new_page()
    start = len(server.log)
    visit = Visit(page, server.url + path)
    if path != PAGES["bare"]:
        settle(page, path)
        time.sleep(0.5)
    to_ready = split_bytes(server.log[start:], before=visit.ready_at)
    total = split_bytes(server.log[start:])
    context.close()
    return visit, to_ready, total


def warm(pw, server, path: str, profile: Path, first: bool) -> tuple[Visit, tuple]:
    """One visit with a persistent profile: (visit, bytes sent until the context closed)."""
    context = pw.chromium.launch_persistent_context(
        str(profile), executable_path=build.find_chromium(), args=CHROMIUM_ARGS
    )
    page = context.pages[0] if context.pages else context.new_page()
    start = len(server.log)
    visit = Visit(page, server.url + path)
    if first:  # let the service worker precache, the snapshot be kept, the disk cache settle
        settle(page, path)
        time.sleep(1.0)
    context.close()
    return visit, split_bytes(server.log[start:])


def measure(pw, server, tmp: Path, runs: int) -> dict:
    """Every page cold, then warm, interleaved so that background load hits all alike."""
    result = {name: {"cold": [], "warm": []} for name in PAGES}
    browser = pw.chromium.launch(executable_path=build.find_chromium(), args=CHROMIUM_ARGS)
    try:
        for i in range(runs):
            for name, path in PAGES.items():
                visit, to_ready, total = cold(browser, server, path)
                result[name]["cold"].append(visit)
                if i == 0:
                    result[name]["cold_bytes"], result[name]["cold_total_bytes"] = to_ready, total
    finally:
        browser.close()
    for name, path in PAGES.items():
        _, sent = warm(pw, server, path, tmp / f"profile-{list(PAGES).index(name)}", first=True)
        result[name]["first_visit_bytes"] = sent
    for _ in range(runs):
        for name, path in PAGES.items():
            visit, sent = warm(
                pw, server, path, tmp / f"profile-{list(PAGES).index(name)}", first=False
            )
            result[name]["warm"].append(visit)
            result[name]["warm_bytes"] = sent
    return result


def kb(n: int) -> str:
    return f"{n / 1024:,.0f} KB"


def median(values) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="measured visits per case")
    parser.add_argument("--no-build", action="store_true", help="use the existing dist/")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    load_before = f"{os.getloadavg()[0]:.1f}"
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        manifest = prepare(site, args.no_build)
        own = {
            rel: f["bytes"]
            for rel, f in manifest["files"].items()
            if not rel.startswith(("pyodide/", "bare/")) and rel != "build.json"
        }
        own_gz = {rel: len(gzip.compress((site / rel).read_bytes(), 9)) for rel in own}
        with build.SiteServer(site) as server, sync_playwright() as pw:
            result = measure(pw, server, Path(tmp), args.runs)
    ours, plain, bare, floor = (result[name] for name in PAGES)

    print(
        f"bench/page.py  build {manifest['version']}  Pyodide {build.PYODIDE_VERSION}  "
        f"headless Chromium, 127.0.0.1 (no compression), {args.runs} runs each, median; "
        f"load average {load_before} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print("ms from navigation start; ours* = ours with ?snapshot=off (no engine snapshot)")
    print("floor = a page of one stylesheet and one tiny module behind a service worker")
    header = f"{'':28}{'ours':>8}{'ours*':>8}{'bare':>8}{'floor':>8}"
    print(f"{header}   runs: ours | ours* | floor (interactive), bare (ready)")
    ratios = {}
    for key in ("cold", "warm"):
        inter, inter_plain, inter_floor = (
            median(v.interactive_ms for v in page[key]) for page in (ours, plain, floor)
        )
        runs = " | ".join(
            " ".join(f"{v.interactive_ms:.0f}" for v in page[key]) for page in (ours, plain, floor)
        )
        print(
            f"{key + ' interactive start':28}{inter:>8.0f}{inter_plain:>8.0f}{'-':>8}"
            f"{inter_floor:>8.0f}   {runs}"
        )
        o, p, b = (median(v.ms for v in page[key]) for page in (ours, plain, bare))
        ratios[key] = o / b
        runs = " | ".join(
            " ".join(f"{v.ms:.0f}" for v in page[key]) for page in (ours, plain, bare)
        )
        print(f"{key + ' engine ready':28}{o:>8.0f}{p:>8.0f}{b:>8.0f}{'-':>8}   {runs}")
        boots = sorted({v.boot for v in ours[key]})
        steps = {
            name: median((v.worker or {}).get(name) for v in ours[key])
            for name in ("snapshot_read", "python", "engine_import", "snapshot_made", "ready")
        }
        started = median(
            (v.worker or {}).get("origin", v.origin) - v.origin for v in ours[key] if v.worker
        )
        told = f"started {started:.0f} ms after the page, then " if started is not None else ""
        told += ", ".join(f"{k} {v:.0f}" for k, v in steps.items() if v is not None)
        print(f"    ours booted from {'/'.join(boots)}; its worker {told} (ms since it started)")
    print(
        f"warm engine ready: ours {ratios['warm']:.2f}x bare Pyodide "
        f"({'faster' if ratios['warm'] < 1 else 'slower'} than a bare boot in the same run)"
    )
    print("bytes sent by the server: total = Pyodide runtime + everything else")
    for label, (p, o) in (
        ("ours cold, to ready", ours["cold_bytes"]),
        ("ours cold, + SW precache", ours["cold_total_bytes"]),
        ("ours 1st visit, profile", ours["first_visit_bytes"]),
        ("ours warm", ours["warm_bytes"]),
        ("bare cold, to ready", bare["cold_bytes"]),
        ("bare 1st visit, profile", bare["first_visit_bytes"]),
        ("bare warm", bare["warm_bytes"]),
    ):
        print(f"  {label:24}{kb(p + o):>10}  = {kb(p)} + {kb(o)}")
    print("  (a fresh context's memory cache does not keep the 9.6 MB wasm, so there the SW")
    print("  precache downloads it again; a real profile serves the precache from disk cache)")
    wheel = own[manifest["wheel"]]
    micropip = sum(v for k, v in own.items() if "/micropip-" in k)
    page = sum(own.values()) - wheel - micropip
    page_gz = (
        sum(own_gz.values())
        - own_gz[manifest["wheel"]]
        - sum(v for k, v in own_gz.items() if "/micropip-" in k)
    )
    ours_total = wheel + page
    ours_gz = own_gz[manifest["wheel"]] + page_gz
    print(
        f"our own files in dist: game wheel {kb(wheel)} + page and the engine's later archive "
        f"{kb(page)} ({len(own) - 2} files) "
        f"= {kb(ours_total)}; gzip -9 as hosts send them: {kb(ours_gz)}"
    )
    print(f"  plus micropip wheel {kb(micropip)} (Pyodide's installer: in the lock, not loaded)")
    print("  plus, kept in the browser after a first visit: the engine snapshot (about 30 MB)")
    print("  (what a first visit fetches before the engine is ready: python3 bench/bytes.py)")
    print(
        f"aim: ours under 300 KB: {'ok' if ours_total < 300 * 1024 else 'OVER'} raw, "
        f"{'ok' if ours_gz < 300 * 1024 else 'OVER'} gzip"
    )
    for key, aim in (("cold", 300), ("warm", 150)):
        inter = median(v.interactive_ms for v in ours[key])
        inter_floor = median(v.interactive_ms for v in floor[key])
        print(
            f"aim: interactive start within {aim} ms ({key}): {inter:.0f} ms "
            f"{'ok' if inter <= aim else 'OVER'} (the floor page: {inter_floor:.0f} ms)"
        )
    print(
        f"aim: cold engine ready within 1.1x bare Pyodide: {ratios['cold']:.2f}x "
        f"{'ok' if ratios['cold'] <= 1.1 else 'OVER'}"
    )
    print(
        f"aim: warm engine ready faster than bare Pyodide: {ratios['warm']:.2f}x "
        f"{'ok' if ratios['warm'] < 1 else 'OVER'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
