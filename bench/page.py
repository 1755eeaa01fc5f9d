#!/usr/bin/env python3
"""Page load benchmark: our site against a bare Pyodide boot, in headless Chromium.

    python3 bench/page.py [--runs 3] [--no-build]

Builds dist/ (unless --no-build), copies it to a temp folder, adds bare/ -- a tiny page whose
module worker only runs loadPyodide() from the same vendored files -- and serves both from
one 127.0.0.1 server with the production headers (build.SiteServer). For each page:

- cold: a fresh browser context (empty cache, no service worker), navigation -> ready;
- warm: a persistent profile visited once before (HTTP cache; for our site also the service
  worker's cache), relaunched, navigation -> ready;
- bytes the server sent: until ready, and for our cold visit also until the service worker
  has precached everything.

"Ready" is the page's performance.mark("junqi-ready") (ours: engine answered its version
request; bare: loadPyodide resolved), so times are measured from navigation start.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]

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
    stock_lock = build.ROOT / "node_modules" / "pyodide" / "pyodide-lock.json"
    shutil.copyfile(stock_lock, bare / "pyodide-lock.json")
    return manifest


def ready_ms(page, url: str) -> float:
    page.goto(url)
    page.wait_for_selector("html[data-ready]", state="attached", timeout=60_000)
    return page.evaluate("performance.getEntriesByName('junqi-ready')[0].startTime")


def split_bytes(entries) -> tuple[int, int]:
    """(Pyodide runtime bytes, everything else) in server log entries."""
    pyodide = sum(size for rel, _, size in entries if rel.startswith("pyodide/"))
    other = sum(size for rel, _, size in entries if not rel.startswith("pyodide/"))
    return pyodide, other


def measure(pw, server, path: str, profile: Path, runs: int, offline_wait: bool) -> dict:
    url = server.url + path
    result = {
        "cold_ms": [],
        "warm_ms": [],
        "cold_bytes": None,
        "cold_total_bytes": None,
        "warm_bytes": None,
    }
    browser = pw.chromium.launch(executable_path=build.find_chromium(), args=CHROMIUM_ARGS)
    try:
        for i in range(runs):
            context = browser.new_context()
            page = context.new_page()
            start = len(server.log)
            result["cold_ms"].append(ready_ms(page, url))
            if i == 0:
                result["cold_bytes"] = split_bytes(server.log[start:])
                if offline_wait:
                    page.wait_for_selector("html[data-offline]", state="attached", timeout=60_000)
                    time.sleep(0.5)
                result["cold_total_bytes"] = split_bytes(server.log[start:])
            context.close()
    finally:
        browser.close()

    # Warm: prime a persistent profile once, then relaunch it for each measured visit.
    shutil.rmtree(profile, ignore_errors=True)
    for i in range(runs + 1):
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=build.find_chromium(), args=CHROMIUM_ARGS
        )
        page = context.pages[0] if context.pages else context.new_page()
        start = len(server.log)
        ms = ready_ms(page, url)
        if i == 0:
            if offline_wait:
                page.wait_for_selector("html[data-offline]", state="attached", timeout=60_000)
            time.sleep(1.0)  # let the cache settle before closing the profile
        else:
            result["warm_ms"].append(ms)
            result["warm_bytes"] = split_bytes(server.log[start:])
        context.close()
    return result


def kb(n: int) -> str:
    return f"{n / 1024:,.0f} KB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="measured visits per case")
    parser.add_argument("--no-build", action="store_true", help="use the existing dist/")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        manifest = prepare(site, args.no_build)
        own_files = {
            rel: f["bytes"]
            for rel, f in manifest["files"].items()
            if not rel.startswith("pyodide/")
        }
        with build.SiteServer(site) as server, sync_playwright() as pw:
            ours = measure(pw, server, "", Path(tmp) / "profile-ours", args.runs, True)
            bare = measure(pw, server, "bare/", Path(tmp) / "profile-bare", args.runs, False)

    med = {
        key: (statistics.median(ours[key]), statistics.median(bare[key]))
        for key in ("cold_ms", "warm_ms")
    }
    print(
        f"bench/page.py  build {manifest['version']}  Pyodide {build.PYODIDE_VERSION}  "
        f"Chromium headless, 127.0.0.1, {args.runs} runs each, median"
    )
    print(f"{'':24}{'ours':>10}{'bare':>10}{'ratio':>8}   runs (ours | bare)")
    for key, label in (("cold_ms", "cold nav->ready (ms)"), ("warm_ms", "warm nav->ready (ms)")):
        o, b = med[key]
        runs = (
            " ".join(f"{x:.0f}" for x in ours[key])
            + " | "
            + " ".join(f"{x:.0f}" for x in bare[key])
        )
        print(f"{label:24}{o:>10.0f}{b:>10.0f}{o / b:>8.2f}   {runs}")
    print("bytes sent by the server (Pyodide runtime + everything else):")
    for label, (p, o) in (
        ("ours cold, to ready", ours["cold_bytes"]),
        ("ours cold, + precache", ours["cold_total_bytes"]),
        ("ours warm, to ready", ours["warm_bytes"]),
        ("bare cold, to ready", bare["cold_bytes"]),
        ("bare warm, to ready", bare["warm_bytes"]),
    ):
        print(f"  {label:24}{kb(p + o):>12}  = {kb(p)} + {kb(o)}")
    total_own = sum(own_files.values())
    wheel = own_files[manifest["wheel"]]
    micropip = sum(v for k, v in own_files.items() if "/micropip-" in k)
    print(
        f"our own files in dist (all but pyodide/): {kb(total_own)} in {len(own_files)} files "
        f"(game wheel {kb(wheel)}, micropip wheel {kb(micropip)}, "
        f"page {kb(total_own - wheel - micropip)}); aim < 300 KB: "
        f"{'ok' if total_own < 300 * 1024 else 'OVER'}"
    )
    ratio = med["cold_ms"][0] / med["cold_ms"][1]
    print(
        f"aim: ready within 1.2x of bare Pyodide (cold): {ratio:.2f}x "
        f"{'ok' if ratio <= 1.2 else 'OVER'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
