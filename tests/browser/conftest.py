"""Browser test fixtures: one build per session, served on 127.0.0.1, driven in Chromium.

- `dist`: `build.build()` output in a temp folder (one per session).
- `serve(base="/", faults=None, csp=build.CSP)`: start a server for `dist` (production
  headers; `faults` maps a path suffix to a way of breaking it, see FaultyHandler).
- `server`: the default server at "/".
- `browser`: headless Debian Chromium through Python Playwright (`executable_path`).
- `ready_page`: one ready page for the session, for tests that only call the engine.
- `site`: opens pages in a browser context that aborts and counts every request leaving
  127.0.0.1 (asserted zero at teardown), collects console messages, and saves a screenshot
  of each page to test-artifacts/. The context is the session's `shared_context` (a
  return visit: the engine starts from its snapshot; nothing saved by earlier tests), or a
  new one for tests marked `new_context` and tests that start their own server (`serve`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sitekit import (  # noqa: F401  (re-exported for tests that import from conftest)
    ARTIFACTS,
    CHROMIUM_ARGS,
    LOCAL,
    READY_TIMEOUT_MS,
    ROOT,
    FaultyHandler,
    SharedContext,
    Site,
    build,
    call,
    wait_error,
    wait_ready,
)


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "dist"
    build.build(out)
    return out


@pytest.fixture
def serve(dist):
    servers = []

    def start(base="/", faults=None, csp=build.CSP):
        server = build.SiteServer(
            dist,
            base=base,
            handler=FaultyHandler,
            csp=csp,
            faults=faults if faults is not None else {},
        )
        servers.append(server.start())
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def _session_server(dist):
    with build.SiteServer(dist) as server:
        yield server


@pytest.fixture
def server(_session_server):
    return _session_server


@pytest.fixture(scope="session")
def playwright():
    """One Playwright for the whole run: a second sync instance in the same process fails."""
    from playwright.sync_api import sync_playwright

    if build.find_chromium() is None:
        pytest.fail("no Chromium: run `python3 build.py test` (installs Debian's chromium)")
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright):
    browser = playwright.chromium.launch(executable_path=build.find_chromium(), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def shared_context(browser, _session_server):
    # less motion asked for: no animation waits and no "thinking" pause before the CPU's
    # move (the same clicks and states; the tests on a context of their own keep both)
    shared = SharedContext(browser, _session_server.url, reduced_motion="reduce")
    yield shared
    shared.close()
    assert shared.strays == [], f"requests left 127.0.0.1: {shared.strays}"


def needs_new_context(request) -> bool:
    return bool(request.node.get_closest_marker("new_context")) or "serve" in request.fixturenames


@pytest.fixture
def site(browser, request):
    name = re.sub(r"[^\w.-]+", "_", request.node.name)
    if needs_new_context(request):
        s = Site(browser, name)
        yield s
        s.close()
    else:
        shared = request.getfixturevalue("shared_context")
        s = shared.site(name)
        yield s
        shared.release(s)
    assert s.external == [], f"requests left 127.0.0.1: {s.external}"


@pytest.fixture(scope="session")
def ready_page(browser, _session_server):
    """One page at the ready state, shared by the tests that only call the engine (each
    fresh page costs a full Pyodide start). Its own context; same guard as `site`."""
    s = Site(browser, "ready-page")
    page = s.open(_session_server.url)
    yield page
    s.close()
    assert s.external == [], f"requests left 127.0.0.1: {s.external}"
