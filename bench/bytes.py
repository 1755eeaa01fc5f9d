#!/usr/bin/env python3
"""What a first visit downloads, and what that costs on a slow and on a fast line.

    python3 bench/bytes.py [--no-build] [--dist PATH]

Builds dist/ (unless --no-build; --dist measures another built site, e.g. an older
build), serves it on 127.0.0.1 with the production headers and opens it once in a fresh
headless Chromium context (empty caches, no service worker). Every file the server sent
before the start screen was usable and before the engine was ready is listed at its gzip
-9 size (build.first_visit_bytes: as hosts send it), ours apart from Pyodide's, with the
share ours is of Pyodide's (the aim: at most build.FIRST_VISIT_SHARE, which
tests/browser/test_site.py keeps) and the time those bytes take on the lines of
build.LINES (bytes only: no round trips, no CPU). The service worker's precache, after
ready, is listed apart: it does not delay the first game. Last, the page's scripts that
came before the start screen was usable, at their size as parsed (not gzipped): the code
the browser compiles before the first click (not the engine's worker).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402


def visit(site: Path) -> dict:
    """One first visit: {"interactive": [...], "ready": [...], "after": [...]} paths."""
    from playwright.sync_api import sync_playwright

    with build.SiteServer(site) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=build.find_chromium(), args=build.CHROMIUM_ARGS
        )
        try:
            page = browser.new_context().new_page()
            page.goto(server.url)
            page.wait_for_selector("#app[data-ui=ready]", state="attached", timeout=90_000)
            page.wait_for_selector("html[data-ready]", state="attached", timeout=90_000)
            marks = page.evaluate("""() => {
                const at = (name) => performance.getEntriesByName(name)[0]?.startTime;
                return {origin: performance.timeOrigin, interactive: at('junqi-interactive'),
                        ready: at('junqi-ready')};
            }""")
            page.wait_for_selector("html[data-offline]", state="attached", timeout=60_000)
            time.sleep(0.5)
        finally:
            browser.close()
        log = list(server.log)
    interactive = (marks["origin"] + marks["interactive"]) / 1000
    ready = (marks["origin"] + marks["ready"]) / 1000
    return {
        "interactive": [rel for rel, _, _, at in log if at <= interactive],
        "ready": [rel for rel, _, _, at in log if at <= ready],
        "after": [rel for rel, _, _, at in log if at > ready],
    }


def kb(n: int) -> str:
    return f"{n / 1000:,.1f} kB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-build", action="store_true", help="use the existing dist/")
    parser.add_argument("--dist", type=Path, help="a built site to measure instead of dist/")
    args = parser.parse_args()
    site = args.dist or build.DIST
    if not args.dist and not args.no_build:
        build.build()
    manifest = json.loads((site / "build.json").read_text())
    fetched = visit(site)
    ready = build.first_visit_bytes(site, fetched["ready"])
    start = build.first_visit_bytes(site, fetched["interactive"])["ours"]
    after = build.first_visit_bytes(site, [r for r in fetched["after"] if r not in ready["ours"]])
    ours, pyodide = (sum(part.values()) for part in (ready["ours"], ready["pyodide"]))
    share = ours / pyodide

    print(f"bench/bytes.py  build {manifest['version']}  one first visit, headless Chromium")
    print("files the server sent until the engine was ready, gzip -9 (kB = 1000 bytes)")
    for side in ("ours", "pyodide"):
        for rel, size in sorted(ready[side].items(), key=lambda kv: -kv[1]):
            mark = "  (start screen)" if rel in start else ""
            print(f"  {kb(size):>10}  {rel}{mark}")
    print(f"ours {kb(ours)} ({len(ready['ours'])} files; {kb(sum(start.values()))} of them before")
    print(f"  the start screen was usable), Pyodide {kb(pyodide)}: ours are {share:.1%} of it")
    for line, bps in build.LINES.items():
        print(
            f"  {line:18} ours {build.line_seconds(ours, bps):5.2f} s, the whole first visit "
            f"{build.line_seconds(ours + pyodide, bps):5.2f} s (bytes only)"
        )
    later = sum(after["ours"].values())
    print(f"after ready (the service worker's precache, the engine's other modules): {kb(later)}")
    scripts = {
        rel: (site / rel).stat().st_size
        for rel in dict.fromkeys(r.lstrip("/") for r in fetched["interactive"])
        if rel.endswith(".js") and not rel.startswith("pyodide/") and not rel.endswith("/worker.js")
    }
    names = ", ".join(f"{rel.rsplit('/', 1)[1]} {kb(n)}" for rel, n in sorted(scripts.items()))
    print(f"page scripts parsed before the start screen was usable: {kb(sum(scripts.values()))}")
    print(f"  ({names})")
    aim = build.FIRST_VISIT_SHARE
    verdict = "ok" if share <= aim else "OVER"
    print(f"aim: ours at most {aim:.0%} of Pyodide's: {share:.1%} {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
