"""Drive the game page like a player: real clicks on the board, the buttons and the curtain.

The driver reads only what the page shows the current viewer (the DOM, and the page's own
state `window.junqiUI.game.view`, which is that viewer's view, with the legal actions of the
side to move in `dests`), picks a random action and clicks it on the board.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

GAME = "section.game"


@pytest.fixture(autouse=True)
def no_page_errors(request):
    """Import into a test module: fails a test whose page logged an error or threw."""
    site = request.getfixturevalue("site") if "site" in request.fixturenames else None
    yield
    if site is not None:
        errors = [m for m in site.console if m.startswith(("pageerror", "error"))]
        assert not errors, errors


WAIT_JS = """([uis, mine]) => {
  const g = document.querySelector('section.game');
  if (!g || g.dataset.busy !== 'false' || !uis.includes(g.dataset.ui)) return false;
  if (mine && g.dataset.ui === 'play' && g.dataset.turn !== g.dataset.viewer) return false;
  return true;
}"""

CHOICES_JS = """() => {
  // What the viewer may do now, as the engine sent it (view.dests): no extra round trips.
  const d = window.junqiUI.game.view.dests || {moves: {}, flips: []};
  const moves = [], attacks = [], flips = d.flips.map(sq => [sq, null]);
  for (const [sq, targets] of Object.entries(d.moves))
    for (const t of targets) (t.attack ? attacks : moves).push([sq, t.to]);
  return {moves, attacks, flips};
}"""

# Every text node and attribute value outside static reference content ([data-reference]:
# the combat table and the rules, which name every piece of the variant for everyone).
DOM_TEXTS_JS = """() => {
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('[data-reference]') || ['SCRIPT', 'STYLE'].includes(el.tagName)) continue;
    for (const a of el.attributes) out.push([el.tagName.toLowerCase() + '@' + a.name, a.value]);
    for (const n of el.childNodes) {
      if (n.nodeType === 3 && n.nodeValue.trim()) out.push([el.tagName.toLowerCase(), n.nodeValue]);
    }
  }
  return out;
}"""


# Elements whose text is cut. Checked: overflow hidden / clip or an ellipsis with content
# larger than the box; text wider than its own box (words running out of a button); an
# element past the screen's sides that no scroller can bring in; text spilling out of a bar
# that stays put (the header); a scrolling text box (the message) whose newest line is out of
# view. Hidden and screen-reader-only text is skipped.
CLIPPED_JS = """() => {
  const out = [];
  const vw = document.documentElement.clientWidth;
  const clips = (v) => v === 'hidden' || v === 'clip';
  const scrolls = (v) => v === 'auto' || v === 'scroll';
  const classes = (el) => typeof el.className === 'string' && el.className.trim()
    ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + classes(el);
  for (const el of document.querySelectorAll('body *')) {
    const skip ='svg, .sr-only, [hidden], dialog:not([open]), details:not([open]) > :not(summary)';
    if (el.closest(skip)) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') continue;
    const text = [...el.childNodes].some(n => n.nodeType === 3 && n.nodeValue.trim());
    if (!text) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const why = [];
    const wide = el.scrollWidth > el.clientWidth + 1;
    const tall = el.scrollHeight > el.clientHeight + 1;
    if (cs.textOverflow === 'ellipsis' && wide) why.push('ellipsis');
    if (clips(cs.overflowX) && wide) why.push(`cut across ${el.scrollWidth}>${el.clientWidth}`);
    if (clips(cs.overflowY) && tall) why.push(`cut below ${el.scrollHeight}>${el.clientHeight}`);
    if (!clips(cs.overflowX) && !scrolls(cs.overflowX) && wide && cs.display !== 'inline')
      why.push(`runs out of its box ${el.scrollWidth}>${el.clientWidth}`);
    if (scrolls(cs.overflowY) && tall && el.scrollTop + el.clientHeight < el.scrollHeight - 2)
      why.push('newest line out of view');
    if (r.right > vw + 1 || r.left < -1) {
      let p = el.parentElement, inside = false;
      for (; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (scrolls(s.overflowX) && p.scrollWidth > p.clientWidth) { inside = true; break; }
      }
      if (!inside) why.push(`past the screen: ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (!clips(s.overflowX) && !clips(s.overflowY)) continue;
      const q = p.getBoundingClientRect();
      const beyond = r.bottom > q.bottom + 1 || r.right > q.right + 1
        || r.top < q.top - 1 || r.left < q.left - 1;
      if (beyond) why.push(`cut by ${name(p)}`);
      break;
    }
    // A bar that stays put (the header): text taller than the bar spills over the page
    // below it or off the screen's top.
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.position === 'absolute') break; // a panel placed on its own (the menu)
      if (s.position !== 'sticky' && s.position !== 'fixed') continue;
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') break;
      const q = p.getBoundingClientRect();
      if (r.top < q.top - 1 || r.bottom > q.bottom + 1) why.push(`spills out of ${name(p)}`);
      break;
    }
    if (why.length) out.push({el: name(el), text: el.textContent.trim().slice(0, 60), why});
  }
  return out;
}"""


class GameDriver:
    def __init__(self, page, seed: int = 0) -> None:
        self.page = page
        self.rng = random.Random(seed)
        self._desc: dict | None = None

    # --- state ------------------------------------------------------------------------

    def attr(self, name: str) -> str | None:
        return self.page.get_attribute(GAME, f"data-{name}")

    @property
    def ui(self) -> str | None:
        return self.attr("ui")

    @property
    def ply(self) -> int:
        return int(self.attr("ply") or 0)

    def view(self) -> dict:
        return self.page.evaluate("() => window.junqiUI.game.view")

    def viewer(self):
        return self.page.evaluate("() => window.junqiUI.game.viewer")

    def desc(self) -> dict:
        if self._desc is None:
            self._desc = self.page.evaluate("() => window.junqiUI.game.desc")
        return self._desc

    def wait(self, *uis: str, mine: bool = True, timeout: int = 30_000) -> str:
        """Wait until the game shows one of `uis` and is idle (for "play": the viewer's turn)."""
        self.page.wait_for_function(WAIT_JS, arg=[list(uis), mine], timeout=timeout)
        return self.ui

    def status(self) -> str:
        return self.page.inner_text("#status")

    def message(self) -> str:
        return self.page.inner_text("#message")

    # --- start ------------------------------------------------------------------------

    def choose(self, name: str, value) -> None:
        """Pick a choice of the start screen (its label, as a finger would)."""
        if not self.page.is_checked(f"#{name}-{value}"):
            self.page.click(f'label[for="{name}-{value}"]')

    def start(
        self,
        variant: str,
        mode: str = "cpu",
        level: str | None = None,
        second: bool = False,
        clock: bool = False,
    ) -> None:
        page = self.page
        page.wait_for_selector("#app[data-ui=ready]", state="attached", timeout=30_000)
        if not page.is_visible(".start"):
            self.open_menu()
            page.click("#btn-mode")
            if page.is_visible("dialog.confirm"):
                page.click("dialog.confirm [data-answer=yes]")
            page.wait_for_selector(".start")
        page.check(f"#variant-{variant}")
        self._desc = None
        self.choose("mode", mode)
        if mode == "cpu":
            levels = page.eval_on_selector_all("input[name=level]", "bs => bs.map(b => b.value)")
            chosen = level if level in levels else ("easy" if "easy" in levels else levels[0])
            self.choose("level", chosen)
            self.choose("seat", 1 if second else 0)
            self.play()
            self.wait("setup", "play", "over")
        else:
            if page.is_checked("#clock-option") != clock:
                page.click("#clock-option")
            self.play()
            self.wait("curtain")

    def play(self) -> None:
        """Play on the start screen (yes when the page asks whether the new game may end the
        oldest saved game, beyond the ones the browser keeps)."""
        page = self.page
        page.click("#btn-play")
        page.wait_for_selector(f"{GAME}, dialog.confirm", state="attached", timeout=30_000)
        if page.is_visible("dialog.confirm"):
            page.click("dialog.confirm [data-answer=yes]")

    def deploy_both_on_one_device(self) -> None:
        """Hot-seat setup: each seat opens the curtain and confirms its layout as drawn,
        then the first player opens the curtain to play."""
        for _ in (0, 1):
            self.wait("curtain")
            self.page.click("#btn-curtain")
            self.wait("setup")
            self.page.click("#btn-confirm")
        self.wait("curtain")
        self.page.click("#btn-curtain")
        self.wait("play")

    def open_menu(self) -> None:
        """The header's menu: New game, Change mode, Rules (in a game) and the settings."""
        if self.page.get_attribute("#game-menu-toggle", "aria-expanded") != "true":
            self.page.click("#game-menu-toggle")

    def close_menu(self) -> None:
        if self.page.get_attribute("#game-menu-toggle", "aria-expanded") == "true":
            self.page.click("#game-menu-toggle")

    # --- board ------------------------------------------------------------------------

    def tap(self, square: str) -> None:
        self.page.click(f'svg.board [data-hit="{square}"]')

    def own_layout(self) -> dict[str, str]:
        """Own pieces as drawn on the board: square -> kind."""
        return self.page.eval_on_selector_all(
            "svg.board g.pc.own",
            "gs => Object.fromEntries(gs.map(g => [g.dataset.sq, g.dataset.kind]))",
        )

    def marks(self, kind: str) -> list[str]:
        return self.page.eval_on_selector_all(
            f'svg.board [data-mark="{kind}"]', "ms => ms.map(m => m.dataset.sq)"
        )

    def choices(self) -> dict:
        return self.page.evaluate(CHOICES_JS)

    def random_action(self, attack_bias: float = 0.7) -> tuple[str, str | None]:
        c = self.choices()
        pools = []
        if c["attacks"] and self.rng.random() < attack_bias:
            pools.append(c["attacks"])
        pools += [c["moves"] + c["attacks"] + c["flips"]]
        pool = next(p for p in pools if p)
        frm, to = self.rng.choice(pool)
        return frm, to

    def play_random(self, attack_bias: float = 0.7) -> tuple[str, str | None]:
        """One random legal action by clicks: select, check the marks, click the target."""
        before = self.ply
        frm, to = self.random_action(attack_bias)
        self.tap(frm)
        if to is not None:
            self.page.wait_for_selector(f'svg.board [data-mark="selected"][data-sq="{frm}"]')
            marked = self.marks("dest") + self.marks("attack")
            assert to in marked, (frm, to, marked)
            self.tap(to)
        self.page.wait_for_function(
            "n => { const g = document.querySelector('section.game');"
            " return Number(g.dataset.ply) > n || g.dataset.ui === 'over'; }",
            arg=before,
        )
        return frm, to

    # --- secrecy ------------------------------------------------------------------------

    def piece_words(self) -> list[str]:
        d = self.desc()
        words = []
        for p in d["pieces"]:
            words += [p["name"], p["glyph"]]
        return words

    def dom_hits(self, words: list[str]) -> list[str]:
        hits = []
        texts = self.page.evaluate(DOM_TEXTS_JS)
        pattern = re.compile("|".join(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])" for w in words))
        for where, text in texts:
            found = pattern.search(text)
            if found:
                hits.append(f"{where}: {found.group(0)!r} in {text[:80]!r}")
        ids = {p["id"] for p in self.desc()["pieces"]}
        for where, text in texts:
            if "@" in where and text in ids:
                hits.append(f"{where}={text!r}")
        return hits

    def assert_public(self) -> None:
        """Curtain down: no piece rank of anyone anywhere in the DOM or in the page's state."""
        assert self.page.is_visible("#curtain")
        if self.desc()["id"] == "blind":
            # Face-up pieces are public in Blind Junqi: only face-down ones are secret.
            self.assert_hidden_side(-1)
        else:
            hits = self.dom_hits(self.piece_words())
            assert not hits, "ranks in the DOM under the curtain:\n" + "\n".join(hits)
        view = self.view()
        assert view["player"] is None
        known = {sq: p for sq, p in view["board"].items() if p["kind"] and not self._public(p)}
        assert not known, f"the page state holds ranks under the curtain: {known}"
        assert self.page.inner_text("#live").strip() == ""
        assert self.page.inner_text("#message").strip() == ""

    def _public(self, piece: dict) -> bool:
        # Blind: face-up pieces are public for everyone.
        return self.desc()["id"] == "blind" and not piece["down"]

    def assert_hidden_side(self, hidden: int) -> None:
        """While one player looks: nothing on the board or in the grid names the other's ranks."""
        blind = self.desc()["id"] == "blind"
        bad = self.page.eval_on_selector_all(
            "svg.board g.pc",
            """(gs, [hidden, blind]) => gs.filter(g => {
                 const secret = g.classList.contains('down')
                   || (!blind && g.dataset.owner === String(hidden));
                 return secret && (g.dataset.kind || g.textContent.trim());
               }).map(g => g.dataset.sq)""",
            [hidden, blind],
        )
        assert not bad, f"hidden pieces carry a rank on the board: {bad}"
        view = self.view()
        leaked = {
            sq: p
            for sq, p in view["board"].items()
            if (p["owner"] == hidden or p["down"]) and p["kind"] and not self._public(p)
        }
        assert not leaked, f"the page state holds hidden ranks: {leaked}"
        hidden_squares = [
            sq
            for sq, p in view["board"].items()
            if (p["owner"] == hidden or p["down"]) and not self._public(p)
        ]
        pieces = self.desc()["pieces"]
        names = [p["name"] for p in pieces] + [p["glyph"] for p in pieces]
        bad = self.page.evaluate(
            """([squares, names]) => squares.map(sq => {
            const b = document.querySelector(`.button-grid [data-sq="${sq}"]`);
            const text = b.textContent;
            return names.some(n => text.includes(n)) ? `${sq}: ${text}` : null;
          }).filter(Boolean)""",
            [hidden_squares, names],
        )
        assert not bad, f"the button grid names hidden ranks: {bad}"

    # --- artifacts ------------------------------------------------------------------------

    def screenshot(self, name: str, full_page: bool = False) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path


def grid_label(page, square: str) -> str:
    """What a screen reader reads for a square of the button grid."""
    return (
        page.inner_text(f'.button-grid [data-sq="{square}"] .sr-only')
        if page.is_visible(".button-grid")
        else page.eval_on_selector(
            f'.button-grid [data-sq="{square}"] .sr-only', "e => e.textContent"
        )
    )


def active(page) -> dict:
    """The focused element: its id and what it stands for (a square, a start choice)."""
    return page.evaluate("""() => { const a = document.activeElement;
        return {id: a.id, sq: a.dataset.sq || null, start: a.dataset.start || null,
                level: a.dataset.level || null, tag: a.tagName}; }""")


def tab_until(page, predicate, limit=60) -> dict:
    """Press Tab until the focused element satisfies `predicate`."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = active(page)
        if predicate(now):
            return now
    raise AssertionError(f"Tab never reached the element; last focus {active(page)}")


def cell(page, square):
    """A square's (row, column) in the button grid."""
    return page.evaluate(
        """sq => {
        const b = document.querySelector(`.button-grid [data-sq='${sq}']`);
        return [parseInt(b.style.gridRowStart), parseInt(b.style.gridColumnStart)]; }""",
        square,
    )


def arrow_to(page, target, limit=60) -> None:
    """Walk the button grid with the arrow keys to a square."""
    for _ in range(limit):
        here = active(page)["sq"]
        assert here, "focus left the button grid"
        if here == target:
            return
        (r, c), (tr, tc) = cell(page, here), cell(page, target)
        if r != tr:
            page.keyboard.press("ArrowDown" if tr > r else "ArrowUp")
        else:
            page.keyboard.press("ArrowRight" if tc > c else "ArrowLeft")
    raise AssertionError(f"arrow keys did not reach {target}")


def assert_nothing_cut(page, where: str) -> None:
    """No text on screen is cut (CLIPPED_JS)."""
    bad = page.evaluate(CLIPPED_JS)
    assert not bad, f"{where}: text cut: {json.dumps(bad, indent=1)}"


# Every control shown (in the page and its header, menu and dialogs): its tap target, at
# least 44x44 CSS px. A checkbox or radio button is tapped through its label (the larger
# of the two counts); a control kept off screen for another to open (1 px) is none.
SMALL_TARGETS_JS = """() => {
  const out = [];
  const shown = (el) => { const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && !el.closest('[hidden], [inert]')
      && getComputedStyle(el).visibility !== 'hidden'; };
  const controls = 'button, select, summary, a[href], input:not([type=hidden]), textarea,'
    + ' [role=button]';
  for (const el of document.querySelectorAll(controls)) {
    if (el.closest('svg')) continue;  // the board's squares: test_game_fit measures them
    let box = el.getBoundingClientRect();
    let seen = shown(el);
    if (el.matches('input[type=checkbox], input[type=radio]') && el.labels?.[0]) {
      const label = el.labels[0], lb = label.getBoundingClientRect();
      seen = seen || shown(label);
      if (lb.width * lb.height > box.width * box.height) box = lb;
    }
    if (!seen || (box.height >= 43.5 && box.width >= 43.5)) continue;
    out.push({control: el.id || `${el.tagName.toLowerCase()}.${el.className}`,
      w: Math.round(box.width), h: Math.round(box.height)});
  }
  return out;
}"""


def assert_targets(page, where: str) -> None:
    """Every control shown is a tap target of 44x44 px or more (SMALL_TARGETS_JS)."""
    small = page.evaluate(SMALL_TARGETS_JS)
    assert not small, f"{where}: controls under 44 px: {json.dumps(small[:8])}"


def axe_scan(page, base_url: str, context: str = "body") -> list[dict]:
    """Run axe-core (vendored from npm, test-only) on the page; serious/critical findings.

    axe is served to the page from a same-origin test URL, so the page's CSP stays on."""
    url = base_url.rstrip("/") + "/__test__/axe.min.js"
    if not page.evaluate("() => Boolean(window.axe)"):
        # On the context, not the page: once the service worker controls the page, its
        # fetches are seen only by context routes.
        page.context.route(
            "**/__test__/axe.min.js",
            lambda route: route.fulfill(path=str(AXE), content_type="text/javascript"),
        )
        page.add_script_tag(url=url)
    result = page.evaluate(
        """async (ctx) => {
        const r = await axe.run(ctx, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))}));
    }""",
        context,
    )
    return [v for v in result if v["impact"] in ("serious", "critical")]
