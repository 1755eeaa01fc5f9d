"""The built site in headless Chromium: ready, round trips, offline, sub-path, failures."""

from __future__ import annotations

import json
import re
import shutil
import time

import pytest
from sitekit import FaultyHandler, call, wait_error, wait_ready

import build
from junqi_core.bridge import handle

# The shell's own tests: each page is a first visit (a plain engine start, the service
# worker installing), not the return visit other browser tests share.
pytestmark = pytest.mark.new_context


def cpython(request: dict) -> dict:
    return json.loads(handle(json.dumps(request)))


def play_a_little(page) -> None:
    """Start a game and look at it, through the page's engine."""
    game = call(page, {"op": "new_game", "variant": "classic", "seed": 1, "mode": "hotseat"})
    assert game["ok"] is True, game
    view = call(page, {"op": "view", "game": game["game"], "player": 0})
    assert view["ok"] is True, view
    assert view == cpython_view_of_same_game()


def cpython_view_of_same_game() -> dict:
    game = cpython({"op": "new_game", "variant": "classic", "seed": 1, "mode": "hotseat"})
    return cpython({"op": "view", "game": game["game"], "player": 0})


def test_page_reaches_ready_and_round_trips(site, server):
    page = site.open(server.url)
    assert call(page, {"op": "version"}) == cpython({"op": "version"})
    # Error responses are answers too, and never break the channel.
    assert call(page, {"op": "no_such_op"})["error"]["code"] == "unknown_op"
    play_a_little(page)
    # The shell handed over to the game UI: loader gone, #app shown.
    assert page.is_hidden("#loader") and page.is_visible("#app")
    assert page.evaluate("performance.getEntriesByName('junqi-ready').length") == 1
    # No CSP violation anywhere (page or worker): 'unsafe-eval' is not needed.
    assert not [m for m in site.console if "Content Security Policy" in m], site.console


def test_request_ids_match_concurrent_calls(ready_page):
    page = ready_page
    answers = page.evaluate("""async () => {
        const e = window.junqi.engine;
        const calls = [];
        for (const v of ["classic", "blind", "gunjin", "classic", "gunjin"])
            calls.push(e.call({op: "new_game", variant: v, seed: 3, mode: "hotseat"}));
        calls.push(e.call({op: "version"}));
        calls.push(e.call("not json"));
        return Promise.all(calls);
    }""")
    games = answers[:5]
    assert all(g["ok"] for g in games), games
    assert len({g["game"] for g in games}) == 5
    # Each answer went to its own call: the variants come back in the order asked.
    assert [g["view"]["variant"] for g in games] == [
        "classic",
        "blind",
        "gunjin",
        "classic",
        "gunjin",
    ]
    assert answers[5] == cpython({"op": "version"})
    assert answers[6] == json.loads(handle("not json"))


def test_no_request_leaves_the_machine(site, server):
    page = site.open(server.url)
    play_a_little(page)
    call(page, {"op": "selfplay", "variant": "gunjin", "games": 1, "seed": 2})
    page.wait_for_selector("html[data-offline]", state="attached", timeout=60_000)
    # The guard saw the worker's downloads too, so the count of 0 below means something.
    assert any(url.endswith("pyodide.asm.wasm") for url in site.local)
    assert any(url.endswith(".whl") for url in site.local)
    assert site.external == []


def test_works_under_a_sub_path(site, serve):
    server = serve(base="/games/junqi/")
    page = site.open(server.url)
    play_a_little(page)
    page.wait_for_selector("html[data-offline]", state="attached", timeout=60_000)
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == server.url
    outside = [
        (path, status) for path, status in server.requests if not path.startswith("/games/junqi/")
    ]
    assert outside == []
    assert all(status in (200, 304) for _, status in server.requests), server.requests


def test_a_first_visit_fetches_at_most_five_percent_of_pyodides_bytes_of_our_own(site, serve, dist):
    """Until the engine is ready, a first visit fetches Pyodide and our own files; ours
    (gzip, as hosts send them) stay within build.FIRST_VISIT_SHARE of Pyodide's, so a slow
    line waits little for them (bench/bytes.py prints the same with the times)."""
    server = serve()
    page = site.open(server.url)
    ready = page.evaluate(
        "(performance.timeOrigin + performance.getEntriesByName('junqi-ready')[0].startTime) / 1000"
    )
    fetched = [rel for rel, _, _, at in server.log if at <= ready]
    parts = build.first_visit_bytes(dist, fetched)
    ours, pyodide = sum(parts["ours"].values()), sum(parts["pyodide"].values())
    assert "pyodide/314.0.7/pyodide.asm.wasm" in parts["pyodide"]
    assert any(rel.endswith(".whl") for rel in parts["ours"])  # the engine's wheel counts
    assert ours <= build.FIRST_VISIT_SHARE * pyodide, (
        f"our first-visit files are {ours:,} bytes gzipped, {ours / pyodide:.1%} of "
        f"Pyodide's {pyodide:,}: {sorted(parts['ours'].items(), key=lambda kv: -kv[1])}"
    )


def test_the_engines_other_modules_work_before_and_after_their_archive_is_in(site, serve):
    """Friend play and the notes are not in the first visit's wheel: their archive comes
    after ready. Asked for before it is in (held back here), the worker fetches it there and
    then; the answers are CPython's."""
    server = serve(faults={"-later.zip": ("delay", 3)})
    page = site.open(server.url)
    hosted = call(page, {"op": "fair_host", "variant": "classic"})
    assert hosted["ok"] is True, hosted
    game = call(page, {"op": "new_game", "variant": "classic", "seed": 1, "mode": "hotseat"})
    notes = call(page, {"op": "notes", "game": game["game"], "player": 0})
    expected = cpython({"op": "new_game", "variant": "classic", "seed": 1, "mode": "hotseat"})
    assert notes == cpython({"op": "notes", "game": expected["game"], "player": 0})
    fetched = [rel for rel, status, _, _ in server.log if rel.endswith("-later.zip")]
    assert fetched and all(status == 200 for rel, status, _, _ in server.log if rel in fetched)


def test_offline_reload_reaches_ready_and_plays(site, serve):
    server = serve()
    page = site.open(server.url)
    page.wait_for_selector("html[data-offline]", state="attached", timeout=60_000)
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    # Network off: the server is gone and the context is offline.
    server.stop()
    site.context.set_offline(True)
    page.reload()
    wait_ready(page)
    play_a_little(page)
    assert call(page, {"op": "selfplay", "variant": "classic", "games": 1, "seed": 1})["ok"]


def test_wrong_wasm_type_shows_error_then_retry_recovers(site, serve):
    faults = {"pyodide.asm.wasm": ("type", "application/octet-stream")}
    server = serve(faults=faults)
    started = time.monotonic()
    page = site.open(server.url, wait=None)
    message = wait_error(page)
    assert "application/wasm" in message
    assert time.monotonic() - started < 20
    faults.clear()  # fix the server, then press Retry
    page.click("#loader-retry")
    wait_ready(page)
    play_a_little(page)


def test_missing_wheel_shows_error(site, serve):
    server = serve(faults={".whl": ("status", 404)})
    page = site.open(server.url, wait=None)
    message = wait_error(page)
    assert "junqi_core" in message and "404" in message


def test_wheel_not_matching_the_lock_shows_error(site, serve):
    """Pyodide checks the wheel against the lock's sha256; a mismatch is named as such."""
    server = serve(faults={".whl": ("body", b"PK\x05\x06" + bytes(18))})
    page = site.open(server.url, wait=None)
    assert "sha256" in wait_error(page)


def test_missing_worker_script_shows_error(site, serve):
    server = serve(faults={"js/worker.js": ("status", 404)})
    page = site.open(server.url, wait=None)
    assert "worker" in wait_error(page).lower()


def test_broken_ui_module_shows_error(site, serve):
    """The game UI is imported dynamically: if it fails, the shell still reports it."""
    server = serve(faults={"js/app.js": ("status", 404)})
    page = site.open(server.url, wait=None)
    assert "game screen" in wait_error(page)


def test_engine_crash_after_ready_shows_error(site, server):
    page = site.open(server.url)
    page.evaluate(
        "window.junqi.engine.worker.dispatchEvent(new ErrorEvent('error', "
        "{message: 'simulated crash'}))"
    )
    assert "simulated crash" in wait_error(page, timeout=5_000)
    with pytest.raises(Exception, match="simulated crash"):
        call(page, {"op": "version"})


def test_stalled_download_shows_error(site, serve):
    server = serve(faults={"python_stdlib.zip": ("hang", 30)})
    started = time.monotonic()
    page = site.open(server.url + "?stall=3000", wait=None)
    assert "stalled" in wait_error(page, timeout=30_000).lower()
    assert time.monotonic() - started < 25


# Every text the header's loading indicator shows, and every step it named (an init script,
# so it sees the page from its first moment; steps from the records, as several changes
# may come in one batch).
WATCH_STEPS_JS = """
(() => {
  window.__texts = [];
  window.__steps = [];
  const watch = () => {
    const pill = document.getElementById("engine-progress");
    if (!pill) return setTimeout(watch, 5);
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === "attributes") window.__steps.push(r.oldValue, pill.dataset.step);
      }
      window.__texts.push(pill.textContent.replace(/\\s*[0-9]+%\\s*$/, "").trim());
    }).observe(pill, { childList: true, characterData: true, subtree: true, attributes: true,
      attributeFilter: ["data-step"], attributeOldValue: true });
  };
  watch();
})();
"""


def test_slow_engine_download_starts_with_progress_and_a_real_failure_offers_retry(site, serve):
    """A slow device or network is not a failure. First a real one: the game wheel is
    missing (404), the error screen says so and offers Retry. The server is "fixed" into a
    slow one: the wheel now trickles in over 24 s, twice the stall limit this page is given
    (?stall=12000: no progress at all for 12 s means stuck). Retry loads the page again; it
    keeps counting what arrives, shows each step (downloading with MB, Python, the engine's
    modules), and gets ready."""
    faults = {".whl": ("status", 404)}
    server = serve(faults=faults)
    site.context.add_init_script(WATCH_STEPS_JS)
    page = site.open(server.url + "?stall=12000", wait=None)
    assert "404" in wait_error(page)
    faults[".whl"] = ("slow", 24)
    started = time.monotonic()
    with page.expect_navigation():
        page.click("#loader-retry")
    page.wait_for_selector("#app[data-ui=ready]", state="attached")
    note = page.inner_text("#start-engine")  # the start screen says it in words too
    wait_ready(page, timeout=90_000)
    assert re.match(r"The engine is starting \(\d+%\): (Downloading|Compiling|Starting) ", note)
    assert time.monotonic() - started > 20  # it really took longer than the stall limit
    steps = set(page.evaluate("window.__steps"))
    texts = page.evaluate("window.__texts")
    assert {"download", "python", "wheel", "install", "answer", "ready"} <= steps, steps
    python_count = r"Downloading Python: [0-9.]+ of [1-9]\d*\.\d MB"
    assert any(re.fullmatch(python_count, t) for t in texts), texts
    # Python up, the wheel still coming: its own count, in KB
    assert any(re.fullmatch(r"Downloading the game engine: \d+ of \d+ KB", t) for t in texts)
    assert any(re.fullmatch(r"Installing the game engine: \d+ of \d+ modules", t) for t in texts)
    play_a_little(page)


def test_csp_without_wasm_unsafe_eval_fails_clearly(site, serve):
    """The CSP header matters: without 'wasm-unsafe-eval' Pyodide cannot start."""
    server = serve(csp=build.CSP.replace(" 'wasm-unsafe-eval'", ""))
    page = site.open(server.url, wait=None)
    assert "wasm-unsafe-eval" in wait_error(page)


def test_micropip_loads_from_the_app_lock(ready_page):
    """micropip is in the app lock with its real sha256; Pyodide verifies it on load."""
    ready_page.evaluate("window.junqi.engine.loadPackages(['micropip'])")


@pytest.mark.parametrize("variant", ["classic", "blind", "gunjin"])
def test_selfplay_in_page_equals_cpython(ready_page, variant):
    request = {"op": "selfplay", "variant": variant, "games": 3, "seed": 7}
    in_page = call(ready_page, request)
    assert in_page["ok"] is True, in_page
    assert len(in_page["results"]) == 3
    assert in_page == cpython(request)


# The service worker's caches, and the engine snapshots kept (one per build, see worker.js).
CACHES_JS = """async () => ({
  site: (await caches.keys()).filter(k => k.startsWith('junqi-')),
  snapshots: (await (await caches.open('engine-snapshot')).keys())
    .map(r => new URL(r.url).pathname.split('/').slice(-2).join('/')),
})"""


def test_new_deploy_replaces_the_old_one(site, dist, tmp_path, monkeypatch):
    """After a deploy, a returning visitor gets the new build whole: the new page with only
    its own assets, then the service worker swaps its cache and deletes the old one."""
    web = tmp_path / "web"
    shutil.copytree(build.WEB, web)
    with (web / "css" / "site.css").open("a") as f:
        f.write("\n.deploy-b { color: red }\n")  # a comment alone is minified away
    monkeypatch.setattr(build, "WEB", web)
    new = build.build(tmp_path / "dist-b")["version"]
    old = json.loads((dist / "build.json").read_text())["version"]
    live = tmp_path / "live"
    live.symlink_to(dist)
    server = build.SiteServer(live, handler=FaultyHandler).start()
    try:
        page = site.open(server.url)
        assert page.evaluate("document.documentElement.dataset.build") == old
        page.wait_for_selector("html[data-offline]", state="attached", timeout=60_000)

        live.unlink()
        live.symlink_to(tmp_path / "dist-b")  # deploy
        page.reload()
        wait_ready(page)
        assert page.evaluate("document.documentElement.dataset.build") == new
        loaded = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
        assert any(f"/assets/{new}/" in url for url in loaded)
        assert not any(f"/assets/{old}/" in url for url in loaded)
        deadline = time.monotonic() + 60
        while (caches := page.evaluate(CACHES_JS)) != {
            "site": [f"junqi-{new}"],
            "snapshots": [f"__engine-snapshot__/{new}"],
        }:
            assert time.monotonic() < deadline, caches
            time.sleep(0.25)
        play_a_little(page)
    finally:
        server.stop()


READY_MS = "performance.getEntriesByName('junqi-ready')[0].startTime"


def test_engine_snapshot_restores_and_plays(site, server):
    """A first visit keeps a memory snapshot of the engine (Cache Storage, per build); the
    next start restores it instead of booting Python and importing the engine, faster, and
    the restored engine plays exactly like CPython."""
    page = site.open(server.url)
    assert page.evaluate("document.documentElement.dataset.boot") == "plain"
    cold = page.evaluate(READY_MS)
    page.wait_for_selector("html[data-snapshot=stored]", state="attached", timeout=60_000)
    page.reload()
    wait_ready(page)
    assert page.evaluate("document.documentElement.dataset.boot") == "snapshot"
    warm = page.evaluate(READY_MS)
    assert warm < cold, (warm, cold)
    for variant in ("classic", "blind", "gunjin"):
        request = {"op": "selfplay", "variant": variant, "games": 1, "seed": 11}
        assert call(page, request) == cpython(request)
    # Friend play is not in the snapshot (imported when first used): its files are there.
    assert call(page, {"op": "fair_host", "variant": "classic"})["ok"] is True
    play_a_little(page)
    from gamedriver import GameDriver

    page.emulate_media(reduced_motion="reduce")
    d = GameDriver(page, seed=12)
    d.start("classic", mode="cpu", level="medium")
    page.click("#btn-confirm")
    d.wait("play")
    d.play_random()
    assert d.wait("play", "over") and d.view()["ply"] >= 2


def test_broken_snapshot_falls_back_to_a_normal_boot(site, server):
    """A stored snapshot that does not restore is deleted; the page boots normally (no
    error screen) and keeps a new one."""
    page = site.open(server.url)
    page.wait_for_selector("html[data-snapshot=stored]", state="attached", timeout=60_000)
    page.evaluate("""async () => {
        const cache = await caches.open('engine-snapshot');
        const [key] = await cache.keys();
        const junk = new Uint8Array(4096).fill(7);
        await cache.put(key, new Response(junk, {headers: {'X-Snapshot-Bytes': '4096'}}));
    }""")
    page.reload()
    wait_ready(page)
    assert page.evaluate("document.documentElement.dataset.boot") == "plain"
    assert "magic" in page.evaluate("window.junqi.engine.snapshotFailed")
    assert call(page, {"op": "version"}) == cpython({"op": "version"})
    page.wait_for_selector("html[data-snapshot=stored]", state="attached", timeout=60_000)
    page.reload()
    wait_ready(page)
    assert page.evaluate("document.documentElement.dataset.boot") == "snapshot"
