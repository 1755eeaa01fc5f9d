"""Helpers for the browser tests: the guarded browser context, waits, a faulty server.

Import from here (`from sitekit import call, wait_ready`); conftest.py re-exports the same
names for older tests.
"""

from __future__ import annotations

import contextlib
import re
import sys
import time
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = build.CHROMIUM_ARGS
LOCAL = re.compile(r"^(https?|wss?)://(127\.0\.0\.1|localhost)(:\d+)?/")
READY_TIMEOUT_MS = 60_000


class FaultyHandler(build.SiteHandler):
    """Breaks chosen files on purpose. faults: {path suffix: (kind, value)} where kind is
    "status" (answer with that HTTP status), "type" (serve the file with that
    Content-Type), "body" (serve these bytes instead), "hang" (answer nothing for that
    many seconds, then 404), "delay" (wait that many seconds, then serve the file) or
    "slow" (serve the file in small pieces spread over that many seconds: a slow network
    that keeps making progress)."""

    faults: ClassVar[dict] = {}
    SLOW_PIECES = 40

    def fault(self, rel):
        self._slow = None
        for suffix, (kind, value) in list(self.faults.items()):
            if rel.endswith(suffix):
                if kind == "status":
                    return value, {}
                if kind == "type":
                    return 200, {"Content-Type": value}
                if kind == "body":
                    return 200, {}, value
                if kind == "hang":
                    time.sleep(value)
                    return 404, {}
                if kind == "delay":
                    time.sleep(value)
                    return None
                if kind == "slow":
                    self._slow = value
                    return None
        return None

    def copyfile(self, source, outputfile) -> None:
        seconds = getattr(self, "_slow", None)
        if not seconds:
            return super().copyfile(source, outputfile)
        data = source.read()
        size = -(-len(data) // self.SLOW_PIECES)
        try:
            for start in range(0, len(data), size):
                outputfile.write(data[start : start + size])
                outputfile.flush()
                time.sleep(seconds / self.SLOW_PIECES)
        except (BrokenPipeError, ConnectionResetError):  # the browser went away
            return
        self._record(self.rel_path() or self.path, 200, len(data))


class Site:
    """A browser context for one test, guarded against requests leaving the machine.

    With `shared` (a SharedContext) the test borrows that context instead of a new one:
    its pages are closed at the end, the context stays."""

    def __init__(self, browser, name: str, shared: SharedContext | None = None) -> None:
        self.name = name
        self.shared = shared
        self.external: list[str] = []
        self.local: list[str] = []
        self.console: list[str] = []
        self.pages = []
        if shared is None:
            self.context = browser.new_context()
            self.context.route("**/*", self._route)
        else:
            self.context = shared.context

    def _route(self, route) -> None:
        url = route.request.url
        if url.startswith(("data:", "blob:")) or LOCAL.match(url):
            self.local.append(url)
            route.continue_()
        else:
            self.external.append(url)
            route.abort()

    def open(self, url: str, wait: str | None = "ready"):
        page = self.context.new_page()
        page.on("console", lambda msg: self.console.append(f"{msg.type}: {msg.text}"))
        page.on("pageerror", lambda err: self.console.append(f"pageerror: {err}"))
        self.pages.append(page)
        page.goto(url)
        if wait == "ready":
            wait_ready(page)
        elif wait == "error":
            wait_error(page)
        return page

    def close(self) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        for i, page in enumerate(self.pages):
            if not page.is_closed():
                suffix = f"-{i}" if i else ""
                # A screenshot is a bonus: never let it mask the real result.
                with contextlib.suppress(Exception):
                    page.screenshot(path=str(ARTIFACTS / f"{self.name}{suffix}.png"))
        if self.shared is None:
            self.context.close()
        else:
            for page in self.pages:
                page.close()


# Forgets what a test saved on the site's origin: preferences, statistics and friend games
# (localStorage), saved games (IndexedDB). Run on a page that is not the game (build.json),
# once the test's own pages are closed, so no connection holds a database open.
FORGET_JS = """async () => {
  localStorage.clear();
  sessionStorage.clear();
  for (const db of await indexedDB.databases()) {
    await new Promise((resolve, reject) => {
      const request = indexedDB.deleteDatabase(db.name);
      request.onsuccess = resolve;
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error(`${db.name} is still open`));
    });
  }
  return localStorage.length + (await indexedDB.databases()).length;
}"""


class SharedContext:
    """One browser context lent to test after test (each through its own Site): the page
    starts like on a return visit -- the service worker, the browser cache and the engine
    snapshot stay (about 1.5 s to ready instead of about 5 s on two cores) -- while what a
    player saves is forgotten before each test, so every test starts with no saved game,
    no preferences and no permissions. Tests about a first visit use a new context."""

    def __init__(self, browser, origin_url: str, init_scripts=(), **context_options) -> None:
        self.url = origin_url
        self.context = browser.new_context(**context_options)
        self.current: Site | None = None
        self.strays: list[str] = []  # requests leaving 127.0.0.1 between tests
        self.context.route("**/*", self._route)
        for script in init_scripts:
            self.context.add_init_script(script)
        # What a test would leave behind for the next ones: refused, with the way out.
        self.context.add_init_script = self.context.set_offline = self._refuse

    @staticmethod
    def _refuse(*args, **kwargs):
        raise RuntimeError(
            "the shared browser context stays as it is for the next tests: "
            "mark this test @pytest.mark.new_context for a context of its own"
        )

    def _route(self, route) -> None:
        if self.current is not None:
            self.current._route(route)
        elif LOCAL.match(route.request.url):
            route.continue_()
        else:
            self.strays.append(route.request.url)
            route.abort()

    def site(self, name: str) -> Site:
        """A Site for the next test, on this context with nothing saved."""
        self.forget()
        self.current = Site(None, name, shared=self)
        return self.current

    def release(self, site: Site) -> None:
        site.close()
        self.current = None

    def forget(self) -> None:
        self.context.clear_permissions()
        page = self.context.new_page()
        try:
            page.goto(self.url + "build.json")
            left = page.evaluate(FORGET_JS)
        finally:
            page.close()
        assert left == 0, f"{left} saved items left on {self.url}"

    def close(self) -> None:
        self.context.close()


def wait_ready(page, timeout=READY_TIMEOUT_MS) -> None:
    page.wait_for_selector(
        "html[data-state=ready], html[data-state=error]", state="attached", timeout=timeout
    )
    state = page.evaluate("document.documentElement.dataset.state")
    if state != "ready":
        message = page.inner_text("#loader")
        raise AssertionError(f"page shows the error screen instead of ready:\n{message}")
    assert page.evaluate("document.documentElement.dataset.ready") == "true"


def wait_error(page, timeout=READY_TIMEOUT_MS) -> str:
    page.wait_for_selector(
        "html[data-state=ready], html[data-state=error]", state="attached", timeout=timeout
    )
    assert page.evaluate("document.documentElement.dataset.state") == "error"
    assert page.is_visible("#loader-retry")
    return page.inner_text("#loader-error-message")


def call(page, request: dict) -> dict:
    """One bridge round trip through the page's engine (web/js/engine.js)."""
    return page.evaluate("request => window.junqi.engine.call(request)", request)
