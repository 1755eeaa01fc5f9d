"""A page that fits the hand and the keyboard.

Touch, at 360x740 and 740x360: every board square is at least 44 CSS px on its smaller
side, or the zoom (the header's button, or a pinch) gets it there and keeps the selected
piece in view; no text is cut anywhere (overflow hidden, an ellipsis, words running past
their box or the screen; a scrolling message must show its newest line). Keyboard, at
1280x800: after Play, each setup step, Confirm, a move, a dialog and the menu, focus is
where the player acts next and never on the page's body; the board is one tab stop whose
squares are read with their coordinate and only what this player may know.

Figures go to test-artifacts/fit-<size>.json; a screenshot of each screen at 360x740 to
test-artifacts/screen-<screen>-360x740.png."""

from __future__ import annotations

import json
import re

import pytest
from gamedriver import (  # noqa: F401
    ARTIFACTS,
    ROOT,
    GameDriver,
    assert_nothing_cut,
    assert_targets,
    no_page_errors,
)
from sitekit import Site

TOUCH_SIZES = {"360x740": (360, 740), "740x360": (740, 360)}
TARGET = 44

SMALLEST_JS = """() => {
  let w = Infinity, h = Infinity;
  for (const node of document.querySelectorAll('svg.board [data-hit]')) {
    const r = node.getBoundingClientRect();
    w = Math.min(w, r.width); h = Math.min(h, r.height);
  }
  return {w: Math.round(w * 10) / 10, h: Math.round(h * 10) / 10};
}"""

IN_VIEW_JS = """squares => squares.filter(sq => {
  const a = document.querySelector(`svg.board [data-hit="${sq}"]`).getBoundingClientRect();
  const f = document.getElementById('board-wrap').getBoundingClientRect();
  return !(a.left >= f.left - 1 && a.right <= f.right + 1 && a.top >= f.top - 1
           && a.bottom <= f.bottom + 1);
})"""

# Headquarters whose own outline shows around the piece standing on them.
HQ_OUTLINE_JS = """() => [...document.querySelectorAll('svg.board rect.hq')].map(hq => {
  const a = hq.getBoundingClientRect();
  const square = [...document.querySelectorAll('svg.board [data-hit]')].find(h => {
    const r = h.getBoundingClientRect();
    return r.left <= a.left && r.right >= a.right && r.top <= a.top && r.bottom >= a.bottom; });
  const tile = document.querySelector(`svg.board g.pc[data-sq="${square.dataset.hit}"] .tile`);
  if (!tile) return null;
  const b = tile.getBoundingClientRect();
  const inside = a.left >= b.left - 0.5 && a.right <= b.right + 0.5
    && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  return inside ? null : square.dataset.hit;
}).filter(Boolean)"""

DISPLAY_JS = "ss => ss.map(s => getComputedStyle(s).display)"

# What has focus: never the body; shown, and not covered by anything else (a sticky bar).
FOCUS_JS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return {where: 'body'};
  const r = a.getBoundingClientRect();
  const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  const top = document.elementFromPoint(x, y);
  const seen = r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight;
  const covered = seen && top && !(a === top || a.contains(top) || top.contains(a)
    || (a.ownerSVGElement && a.ownerSVGElement.contains(top)));
  return {where: a.dataset.hit ? 'board' : (a.id || a.tagName.toLowerCase()),
          sq: a.dataset.hit || null, label: a.getAttribute('aria-label'),
          answer: a.dataset.answer || null, seen, covered: Boolean(covered),
          coveredBy: covered ? top.tagName + '.' + top.className : null};
}"""


def smallest(page) -> dict:
    return page.evaluate(SMALLEST_JS)


def shot(page, name: str, size: str) -> None:
    if size == "360x740":
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"screen-{name}-{size}.png"))


def touch_context(browser, size):
    w, h = TOUCH_SIZES[size]
    s = Site(browser, f"fit-{size}")
    s.context.close()
    s.context = browser.new_context(
        viewport={"width": w, "height": h}, has_touch=True, is_mobile=True, device_scale_factor=1
    )
    s.context.route("**/*", s._route)
    return s


def zoom_to_targets(page, where: str, figures: dict) -> bool:
    """Squares under 44 px: the zoom button must exist and get them to 44 px or more.
    Returns whether the board was zoomed."""
    before = smallest(page)
    figures[f"{where}: smallest square"] = before
    if min(before.values()) >= TARGET:
        assert not page.is_visible("#zoom-toggle"), "no zoom offered where none is needed"
        return False
    assert page.is_visible("#zoom-toggle"), f"{where}: squares of {before} px and no zoom"
    if page.get_attribute("#zoom-toggle", "aria-pressed") != "true":
        page.click("#zoom-toggle")
    page.wait_for_selector("#board-wrap.zoomed")
    after = smallest(page)
    figures[f"{where}: smallest square, zoomed"] = after
    assert min(after.values()) >= TARGET, f"{where}: zoomed squares are {after} px"
    return True


def pinch(page, start: float, end: float) -> None:
    """Two fingers on the board moving apart (start, end: half their distance in px)."""
    cdp = page.context.new_cdp_session(page)
    box = page.locator("#board-wrap").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def touch(kind, d):
        points = (
            []
            if kind == "touchEnd"
            else [{"x": cx - d, "y": cy, "id": 1}, {"x": cx + d, "y": cy, "id": 2}]
        )
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", start)
    steps = 6
    for i in range(1, steps + 1):
        touch("touchMove", start + (end - start) * i / steps)
    touch("touchEnd", 0)
    cdp.detach()


@pytest.mark.parametrize("size", list(TOUCH_SIZES))
def test_touch_targets_zoom_and_no_cut_words(browser, server, size):
    s = touch_context(browser, size)
    figures: dict = {}
    try:
        page = s.open(server.url)
        page.emulate_media(reduced_motion="reduce")
        d = GameDriver(page, seed=36)
        page.wait_for_selector("#app[data-ui=ready]", state="attached")
        assert_nothing_cut(page, "start")
        shot(page, "start", size)
        # every control a tap target of 44 px: each mode's options, the rules' options
        for mode in ("hotseat", "friend", "cpu"):
            d.choose("mode", mode)
            assert_targets(page, f"start, {mode}")
        page.evaluate("() => document.getElementById('rules-customise').open = true")
        assert_targets(page, "start, rules customised")
        page.evaluate("() => document.getElementById('rules-customise').open = false")
        for variant in ("classic", "gunjin"):
            d.start(variant, mode="cpu", level="easy")
            assert page.evaluate("scrollY") == 0, "a game screen starts at its top"
            assert_nothing_cut(page, f"{variant} setup")
            shot(page, f"{variant}-setup", size)
            for panel in ("grid-panel", "moves-panel", "table-panel"):  # opened, then closed
                page.evaluate("id => document.getElementById(id).open = true", panel)
            assert_targets(page, f"{variant} setup")
            for panel in ("grid-panel", "table-panel"):
                page.evaluate("id => document.getElementById(id).open = false", panel)
            if variant == "classic":
                # A piece on a headquarters covers it: one outline, the piece's.
                loose = page.evaluate(HQ_OUTLINE_JS)
                assert loose == [], f"headquarters outlines around their pieces: {loose}"
            zoomed = zoom_to_targets(page, f"{variant} setup", figures)
            # A piece picked (here by the controller, as an arrow key or a tap would) while
            # the zoomed board shows the other side is brought into view.
            own = [sq for sq, p in d.view()["board"].items() if p["owner"] == 0]
            near = max(
                own, key=lambda sq: page.locator(f'svg.board [data-hit="{sq}"]').bounding_box()["y"]
            )
            page.locator("#board-wrap").evaluate("w => { w.scrollTop = 0; w.scrollLeft = 0; }")
            page.evaluate("sq => window.junqiUI.game.tap(sq)", near)
            page.wait_for_function("sq => window.junqiUI.game.pick === sq", arg=near)
            assert page.evaluate(IN_VIEW_JS, [near]) == [], "the picked piece is out of view"
            assert_nothing_cut(page, f"{variant} setup, zoomed")
            shot(page, f"{variant}-setup-zoomed" if zoomed else f"{variant}-setup-picked", size)
            page.evaluate("sq => window.junqiUI.game.tap(sq)", near)  # put it down again
            page.click("#btn-confirm")
            d.wait("play")
            # Play on the zoomed board: the selection and where it may go stay in view.
            for _ in range(2):
                c = d.choices()
                frm, to = (c["attacks"] + c["moves"])[0]
                page.locator("#board-wrap").evaluate("w => { w.scrollTop = 0; w.scrollLeft = 0; }")
                page.evaluate("sq => window.junqiUI.game.tap(sq)", frm)
                page.wait_for_selector(f'svg.board [data-mark="selected"][data-sq="{frm}"]')
                assert page.evaluate(IN_VIEW_JS, [frm]) == [], "the selected piece is out of view"
                shot(page, f"{variant}-play-selected", size)
                before = d.ply
                page.tap(f'svg.board [data-hit="{to}"]')
                page.wait_for_function(
                    "n => Number(document.querySelector('section.game').dataset.ply) > n",
                    arg=before,
                )
                if d.wait("play", "over") == "over":
                    break
                assert_nothing_cut(page, f"{variant} play")
            # Back to the whole board, then a pinch zooms in again.
            if zoomed:
                page.click("#zoom-toggle")
                page.wait_for_selector("#board-wrap:not(.zoomed)")
            pinch(page, 30, 90)
            page.wait_for_selector("#board-wrap.zoomed")
            zoomed = float(page.get_attribute("#board-wrap", "data-zoom"))
            figures[f"{variant}: zoom after a pinch from 60 to 180 px"] = zoomed
            assert zoomed > 2, zoomed
            assert page.evaluate("scrollY") == 0 and page.evaluate("visualViewport.scale") == 1
            page.click("#zoom-toggle")
            shot(page, f"{variant}-play", size)
            if variant == "gunjin":
                # The wide combat table scrolls inside its panel, never the page sideways.
                page.click("#table-panel-summary")
                page.locator("#table-panel").scroll_into_view_if_needed()
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= TOUCH_SIZES[size][0], f"the page scrolls sideways: {width}"
                assert_nothing_cut(page, "combat table")
                shot(page, "combat-table", size)
                page.click("#table-panel-summary")
                page.evaluate("scrollTo(0, 0)")
                # The mark chooser: in the middle of the screen, inside it.
                enemy = next(
                    sq
                    for sq, p in d.view()["board"].items()
                    if p["owner"] == 1 and p["kind"] is None
                )
                page.tap(f'svg.board [data-hit="{enemy}"]')
                box = page.locator("dialog#mark-chooser").bounding_box()
                w = TOUCH_SIZES[size][0]
                left, right = box["x"], w - box["x"] - box["width"]
                assert left >= 0 and right >= 0 and abs(left - right) <= 2, (left, right)
                assert_nothing_cut(page, "mark chooser")
                assert_targets(page, "mark chooser")
                shot(page, "mark-chooser", size)
                page.click('dialog#mark-chooser [data-choice="cancel"]')
            if d.ui != "over":
                page.click("#btn-resign")
                shot(page, "resign-dialog", size)
                assert_targets(page, "resign dialog")
                page.click("dialog.confirm [data-answer=yes]")
                d.wait("over")
            assert_nothing_cut(page, f"{variant} over")
            assert_targets(page, f"{variant} over")
            shot(page, f"{variant}-over", size)
            # "Save record" once: in "Keep this game", not in the action bar too.
            saves = page.eval_on_selector_all(
                "#app button", "bs => bs.filter(b => b.textContent === 'Save record').length"
            )
            assert saves == 1, f"{saves} 'Save record' buttons"
        d.open_menu()
        assert_nothing_cut(page, "menu")
        assert_targets(page, "menu")
        shot(page, "menu", size)
        page.click("#btn-rules")
        page.wait_for_selector("dialog.rules #rules-gunjin")
        assert_nothing_cut(page, "rules")
        assert_targets(page, "rules")
        shot(page, "rules", size)
        page.click("dialog.rules .close")
        page.click("#btn-replay")
        page.wait_for_selector("#replay")
        assert_nothing_cut(page, "replay")
        assert_targets(page, "replay")
        shot(page, "replay", size)
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"fit-{size}.json").write_text(json.dumps(figures, indent=1) + "\n")
        print(size, json.dumps(figures, indent=1))
        errors = [m for m in s.console if m.startswith(("pageerror", "error"))]
        s.close()
    assert s.external == []
    assert not errors, errors


LANGUAGES = ["en", "es", "pt", "zh", "ja"]

# The message line shows all of its text, with no scrolling back to read it.
WHOLE_MESSAGE_JS = """texts => {
  const g = window.junqiUI.game;
  if (texts) { g.setMessage(...texts.map(s => () => s)); g.changed(); }
  const m = document.getElementById('message');
  return {text: m.textContent, needed: m.scrollHeight, shown: m.clientHeight};
}"""


def turn_words(lang: str) -> list[str]:
    """A turn's three sentences in `lang`, as the page says them: the player's combat, the
    CPU's move and its combat ("Your Engineer loses (b2). CPU moves b2-b1. Your Flag loses
    to the enemy Field Marshal (b1).")."""
    words = json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text())

    def say(key, **values):
        return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], words[key])

    piece = {kind: words[f"piece.junqi.{kind}"] for kind in ("engineer", "flag", "field_marshal")}
    return [
        say("combat.lose", mine=piece["engineer"], sq="b2"),
        say("say.move", side=words["side.cpu"], **{"from": "b2", "to": "b1"}),
        say("combat.lose_vs", mine=piece["flag"], theirs=piece["field_marshal"], sq="b1"),
    ]


# The action bar's buttons whose words are broken inside a word: in Chinese and Japanese
# (no spaces between words) a label on two lines was broken anywhere ("ランダ|ム").
BROKEN_LABELS_JS = """() => [...document.querySelectorAll('#context-actions button')]
  .filter(b => b.offsetParent !== null).filter(b => {
    const range = document.createRange();
    range.selectNodeContents(b);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
  }).map(b => b.textContent)"""


def assert_labels_whole(page, lang: str, where: str) -> None:
    if lang in ("zh", "ja"):
        broken = page.evaluate(BROKEN_LABELS_JS)
        assert not broken, f"{lang} {where}: labels broken across lines: {broken}"


def assert_whole_message(page, where: str, texts: list[str] | None = None) -> None:
    seen = page.evaluate(WHOLE_MESSAGE_JS, texts)
    assert seen["needed"] <= seen["shown"] + 1, f"{where}: the message is cut: {seen}"


def test_words_fit_in_every_language(browser, server):
    """360x740, in each language: the engine's indicator stays gone after the switch; the
    game's title (the longest: Blind Junqi against the CPU, playing second) fits the header;
    nothing is cut in the setup, during play, at the end, in the menu, the rules and the
    replay, and no Chinese or Japanese
    button label is broken inside a word; the message line shows a turn's three sentences
    whole, during play and under the result."""
    s = touch_context(browser, "360x740")
    try:
        page = s.open(server.url)
        page.emulate_media(reduced_motion="reduce")
        d = GameDriver(page, seed=38)
        page.wait_for_selector("#app[data-ui=ready]", state="attached")
        for lang in LANGUAGES:
            if page.is_visible("section.game"):
                d.open_menu()
                page.click("#btn-mode")
                page.wait_for_selector(".start")
            d.open_menu()
            page.select_option("#lang-select", lang)
            d.close_menu()
            page.wait_for_function("l => document.documentElement.lang.startsWith(l)", arg=lang)
            assert page.is_hidden("#engine-progress"), f"{lang}: the engine's indicator is back"
            assert_nothing_cut(page, f"{lang} start")
            d.start("classic", mode="cpu", level="easy")
            assert_nothing_cut(page, f"{lang} setup")
            assert_labels_whole(page, lang, "setup")
            shot(page, f"words-{lang}-setup", "360x740")
            d.open_menu()
            page.click("#btn-mode")
            page.click("dialog.confirm [data-answer=yes]")
            page.wait_for_selector(".start")
            d.start("blind", mode="cpu", level="easy", second=True)
            d.wait("play")
            assert_nothing_cut(page, f"{lang} play")
            assert_labels_whole(page, lang, "play")
            assert_whole_message(page, f"{lang} play", turn_words(lang))
            shot(page, f"words-{lang}-play", "360x740")
            page.click("#btn-resign")
            page.click("dialog.confirm [data-answer=yes]")
            d.wait("over")
            assert_nothing_cut(page, f"{lang} over")
            assert_labels_whole(page, lang, "over")
            assert_whole_message(page, f"{lang} over")
            assert_whole_message(page, f"{lang} over", turn_words(lang))
            assert_nothing_cut(page, f"{lang} over, a turn's message")
            shot(page, f"words-{lang}-over", "360x740")
            d.open_menu()
            assert_nothing_cut(page, f"{lang} menu")
            page.click("#btn-rules")
            page.wait_for_selector("dialog.rules #rules-blind")
            assert_nothing_cut(page, f"{lang} rules")
            page.click("dialog.rules .close")
            d.close_menu()
            page.click("#btn-replay")
            page.wait_for_selector("#replay")
            assert_nothing_cut(page, f"{lang} replay")
            shot(page, f"words-{lang}-replay", "360x740")
            page.click("#replay-close")
            page.wait_for_selector("section.game")
    finally:
        errors = [m for m in s.console if m.startswith(("pageerror", "error"))]
        s.close()
    assert s.external == []
    assert not errors, errors


def test_keyboard_focus_follows_the_player(site, server):
    """1280x800, keyboard only: focus after each step is where the player acts next."""
    page = site.open(server.url)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.emulate_media(reduced_motion="reduce")
    d = GameDriver(page, seed=37)
    page.wait_for_selector("#app[data-ui=ready]", state="attached")
    steps: list[tuple[str, dict]] = []

    def focus(step: str) -> dict:
        now = page.evaluate(FOCUS_JS)
        steps.append((step, now))
        assert now["where"] != "body", f"after {step} focus fell to the page's body"
        assert now["seen"] and not now["covered"], f"after {step} focus is hidden: {now}"
        return now

    def tab_to(predicate, limit=80) -> dict:
        for _ in range(limit):
            page.keyboard.press("Tab")
            now = page.evaluate(FOCUS_JS)
            if predicate(now):
                return now
        raise AssertionError(f"Tab never got there; focus on {page.evaluate(FOCUS_JS)}")

    # Every disclosure keeps its triangle.
    displays = page.eval_on_selector_all(
        "summary", "ss => ss.map(s => getComputedStyle(s).display)"
    )
    assert displays and set(displays) == {"list-item"}, displays

    page.check("#variant-classic")
    page.check("#level-easy")
    page.focus("#btn-play")
    page.keyboard.press("Enter")
    d.wait("setup")
    first = focus("Play")
    assert first["where"] == "board", "after Play focus is on the board"
    # The board is one tab stop: one square takes Tab, the others are reached by arrows.
    stops = page.eval_on_selector_all('svg.board [data-hit][tabindex="0"]', "ns => ns.length")
    assert stops == 1
    page.keyboard.press("Tab")
    assert focus("Tab from the board")["where"] != "board", "Tab leaves the board at once"
    page.keyboard.press("Shift+Tab")
    back = focus("Shift+Tab back")
    assert back["sq"] == first["sq"], "Shift+Tab comes back to the same square, not the drawing"
    assert set(page.eval_on_selector_all("summary", DISPLAY_JS)) == {"list-item"}, "triangles"
    page.keyboard.press("ArrowUp")
    up = focus("ArrowUp")
    assert up["sq"] != first["sq"]
    assert up["label"].startswith(f"{up['sq']}: "), up  # its coordinate first
    # Squares say only what this player may know: own kinds, never the CPU's.
    view = d.view()
    labels = page.eval_on_selector_all(
        "svg.board [data-hit]",
        "ns => Object.fromEntries(ns.map(n => [n.dataset.hit, n.getAttribute('aria-label')]))",
    )
    names = [p["name"] for p in d.desc()["pieces"]]
    for sq, piece in view["board"].items():
        if piece["owner"] == 1:
            assert not any(n in labels[sq] for n in names), (sq, labels[sq])
            assert "hidden" in labels[sq], labels[sq]
        else:
            assert "your" in labels[sq], labels[sq]
    # A swap by keyboard: Enter on a piece, an arrow, Enter on another.
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.junqiUI.game.pick !== null")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    d.wait("setup")
    assert "Swapped" in d.message()
    focus("a swap")
    # Undo (swap back) by keyboard; Undo then goes out of use and focus goes to the board.
    tab_to(lambda f: f["where"] == "btn-undo")
    page.keyboard.press("Enter")
    d.wait("setup")
    assert "Undone" in d.message()
    assert focus("Undo")["where"] == "board"
    # Random by keyboard: focus stays on Random (out of use while the engine deals), so
    # Enter deals again.
    tab_to(lambda f: f["where"] == "btn-random")
    for deal in (1, 2):
        layout = d.own_layout()
        page.keyboard.press("Enter")
        page.wait_for_function("n => window.junqiUI.game.undoStack.length === n", arg=deal)
        d.wait("setup")
        assert d.own_layout() != layout, "Random dealt a new layout"
        assert focus(f"Random ({deal})")["where"] == "btn-random"
    tab_to(lambda f: f["where"] == "btn-confirm")
    page.keyboard.press("Enter")
    d.wait("play")
    assert focus("Confirm")["where"] == "board"
    # A move by keyboard; after the CPU's answer focus is still on the board.
    c = d.choices()
    frm, to = (c["attacks"] + c["moves"])[0]
    page.evaluate("sq => window.junqiUI.gameView.board.focusSquare(sq)", frm)
    page.keyboard.press("Enter")
    page.wait_for_selector(f'svg.board [data-mark="selected"][data-sq="{frm}"]')
    label = page.get_attribute(f'svg.board [data-hit="{to}"]', "aria-label")
    assert "can move here" in label or "can attack" in label, label
    page.evaluate("sq => window.junqiUI.gameView.board.focusSquare(sq)", to)
    page.keyboard.press("Enter")
    d.wait("play", "over")
    assert focus("a move and the CPU's answer")["where"] == "board"
    # Resign: the dialog's safe button has focus; Escape gives focus back to Resign.
    tab_to(lambda f: f["where"] == "btn-resign")
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.confirm")
    assert focus("Resign")["answer"] == "no", "Resign's dialog focuses Cancel"
    # Tab goes round the open dialog's buttons, never out of it.
    page.keyboard.press("Tab")
    assert focus("Tab from Cancel")["answer"] == "yes", "Tab from Cancel stays in the dialog"
    page.keyboard.press("Tab")
    assert focus("Tab again")["answer"] == "no"
    page.keyboard.press("Escape")
    assert focus("Cancel")["where"] == "btn-resign"
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.confirm")
    page.keyboard.press("Shift+Tab")
    assert focus("Shift+Tab in the dialog")["answer"] == "yes"
    page.keyboard.press("Enter")
    d.wait("over")
    assert focus("resigning")["where"] == "btn-rematch"
    # The menu's Rules: closing the dialog gives focus back to the menu button.
    page.focus("#game-menu-toggle")
    page.keyboard.press("Enter")
    tab_to(lambda f: f["where"] == "btn-rules")
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.rules #rules-classic")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.rules", state="detached")
    assert focus("closing the rules")["where"] == "game-menu-toggle"
    # New game from the menu: focus on the new game's board.
    page.keyboard.press("Enter")
    tab_to(lambda f: f["where"] == "btn-new")
    page.keyboard.press("Enter")
    d.wait("setup")
    page.wait_for_function("() => document.activeElement.dataset.hit")
    assert focus("New game")["where"] == "board"
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "fit-1280x800-focus.json").write_text(
        json.dumps([{"after": step, **now} for step, now in steps], indent=1) + "\n"
    )
