"""Phone first: at 360x740, 390x844, 844x390 and 1280x800, in setup, play and at the end,
for every variant, the whole board and the buttons the moment needs are on screen without
scrolling, tap targets are at least 44 px, piece names fit their tiles, no text is cut
(gamedriver.CLIPPED_JS), and the board does not move between two moves. At 1280x800
nothing scrolls at all.

One page does it all (the viewport changes size; one engine start): screenshots of every
size and moment go to test-artifacts/layout-<variant>-<moment>-<size>.png."""

from __future__ import annotations

import pytest
from gamedriver import (  # noqa: F401
    ARTIFACTS,
    GameDriver,
    assert_nothing_cut,
    assert_targets,
    no_page_errors,
)

SIZES = {
    "360x740": (360, 740),
    "390x844": (390, 844),
    "844x390": (844, 390),
    "1280x800": (1280, 800),
}
VARIANTS = ["classic", "blind", "gunjin"]
NEEDED = {
    "setup": ["#btn-random", "#btn-mirror", "#btn-previous", "#btn-confirm"],
    "play": ["#btn-resign"],
    "over": ["#btn-rematch", "#btn-replay", "#btn-again"],
}
ALWAYS = ["#status", "#message", "#game-menu-toggle"]

BOXES_JS = """(selectors) => {
  const out = {};
  for (const sel of selectors) {
    const el = document.querySelector(sel);
    if (!el) { out[sel] = null; continue; }
    const r = el.getBoundingClientRect();
    out[sel] = {x: r.x, y: r.y, w: r.width, h: r.height,
                shown: !el.closest('[hidden]') && r.width > 0 && r.height > 0};
  }
  out.scroll = {x: scrollX, y: scrollY, height: document.documentElement.scrollHeight,
                width: document.documentElement.scrollWidth};
  return out;
}"""

# Every piece name on the board: drawn at a readable size, never squeezed, inside its tile.
FIT_JS = """() => [...document.querySelectorAll('svg.board g.pc text.name')].map(t => {
  const tile = t.parentNode.querySelector('.tile').getBBox();
  const box = t.getBBox();
  return {text: t.textContent, size: Number(t.getAttribute('font-size')),
          squeezed: t.hasAttribute('textLength'),
          inside: box.width <= tile.width - 2};
}).filter(x => x.squeezed || !x.inside || x.size < 10)"""


# The board's coordinates (file letters, rank numbers) that a piece covers, even in part
# (seen from above: in the perspective view the pieces stand up from the board).
COVERED_COORDS_JS = """() => {
  const covered = [];
  if (document.documentElement.dataset.view === '3d') return covered;
  const pieces = [...document.querySelectorAll('svg.board g.pc')];
  for (const label of document.querySelectorAll('svg.board .coord')) {
    const a = label.getBoundingClientRect();
    for (const piece of pieces) {
      const b = piece.getBoundingClientRect();
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0.5 && h > 0.5) covered.push(`${label.textContent} under ${piece.dataset.sq}`);
    }
  }
  return covered;
}"""


def check_layout(page, moment: str, size: str) -> None:
    width, height = SIZES[size]
    needed = ["svg.board", *ALWAYS, *NEEDED[moment]]
    boxes = page.evaluate(BOXES_JS, needed)
    scroll = boxes.pop("scroll")
    assert scroll["x"] == 0 and scroll["y"] == 0, scroll
    assert scroll["width"] <= width, f"{size} {moment}: the page scrolls sideways: {scroll}"
    if size == "1280x800":
        assert scroll["height"] <= height, f"{size} {moment}: the page scrolls: {scroll}"
    for sel, box in boxes.items():
        assert box and box["shown"], f"{size} {moment}: {sel} is not shown"
        inside = (
            box["x"] >= -0.5
            and box["y"] >= -0.5
            and box["x"] + box["w"] <= width + 0.5
            and box["y"] + box["h"] <= height + 0.5
        )
        assert inside, f"{size} {moment}: {sel} at {box} is not inside {width}x{height}"
        if sel.startswith("#btn-") or sel == "#game-menu-toggle":
            assert box["h"] >= 43.5 and box["w"] >= 43.5, f"{size} {moment}: {sel} is {box}"
    bad = page.evaluate(FIT_JS)
    assert not bad, f"{size} {moment}: piece names that do not fit: {bad[:5]}"
    covered = page.evaluate(COVERED_COORDS_JS)
    assert not covered, f"{size} {moment}: coordinates covered by pieces: {covered}"
    assert_nothing_cut(page, f"{size} {moment}")
    assert_targets(page, f"{size} {moment}")


def check_rank_numbers(page, d) -> None:
    """The optional rank number on each piece: the description's rank, for every piece
    whose name the board shows (none for bomb, mine, flag)."""
    d.open_menu()
    page.check("#ranks-option")
    d.close_menu()
    ranks = {p["id"]: p["rank"] for p in d.desc()["pieces"]}
    shown = page.eval_on_selector_all(
        "svg.board g.pc[data-kind]",
        "gs => gs.map(g => [g.dataset.kind, g.querySelector('.rank-no')?.textContent ?? null])",
    )
    assert shown or d.desc()["id"] == "blind"  # Blind: maybe nothing face up yet
    for kind, number in shown:
        assert number == (None if ranks[kind] is None else str(ranks[kind])), (kind, number)
    d.screenshot(f"layout-{d.desc()['id']}-ranks")
    d.open_menu()
    page.uncheck("#ranks-option")
    d.close_menu()
    assert page.locator("svg.board .rank-no").count() == 0


BOARD_BOX_JS = """async () => {
  // the box once the layout has settled: the same over two animation frames (after a
  // resize the page fits the board in a frame of its own, later on a busy machine)
  const frame = () => new Promise(r => requestAnimationFrame(() => r()));
  const box = () => {
    const r = document.querySelector('svg.board').getBoundingClientRect();
    return JSON.stringify({x: r.x, y: r.y, w: r.width, h: r.height});
  };
  let last = box();
  for (let i = 0; i < 100; i++) {
    await frame(); await frame();
    const now = box();
    if (now === last) return JSON.parse(now);
    last = now;
  }
  return JSON.parse(last);
}"""


def board_box(page) -> dict:
    return page.evaluate(BOARD_BOX_JS)


def all_sizes(page, d, variant: str, moment: str) -> None:
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        check_layout(page, moment, size)
        d.screenshot(f"layout-{variant}-{moment}-{size}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_layout_fits_every_screen(layout_page, variant):
    page = layout_page
    d = GameDriver(page, seed=30 + VARIANTS.index(variant))
    page.set_viewport_size({"width": 390, "height": 844})
    d.start(variant, mode="cpu", level="easy")
    if d.ui == "setup":
        all_sizes(page, d, variant, "setup")
        page.click("#btn-confirm")
    d.wait("play")
    all_sizes(page, d, variant, "play")
    check_rank_numbers(page, d)
    # The board stays where it is while you play: a move and the CPU's answer at each size.
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        if d.wait("play", "over") == "over":
            break
        before = board_box(page)
        message = d.message()
        d.play_random(attack_bias=0.9)
        if d.wait("play", "over") == "over":
            break
        assert d.message() != message or d.view()["ply"] > 0
        assert board_box(page) == before, f"{size}: the board moved"
    if d.ui != "over":
        page.click("#btn-resign")
        page.click("dialog.confirm [data-answer=yes]")
        d.wait("over")
    all_sizes(page, d, variant, "over")


@pytest.fixture(scope="module")
def layout_page(browser, _session_server, request):
    """One phone-like page (touch, reduced motion) for the module: one engine start."""
    from sitekit import Site

    s = Site(browser, "layout")
    s.context.close()
    s.context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, device_scale_factor=1
    )
    s.context.route("**/*", s._route)
    page = s.open(_session_server.url)
    page.emulate_media(reduced_motion="reduce")
    yield page
    errors = [m for m in s.console if m.startswith(("pageerror", "error"))]
    s.close()
    assert s.external == [], s.external
    assert not errors, errors


def test_game_perspective_view_and_sound(layout_page):
    """The perspective view: a tilted board (CSS 3D) whose pieces stand up again, inside the
    screen, played by clicks; remembered. Sounds for moves, muted on request (remembered)
    and silent while the tab is hidden."""
    page = layout_page
    d = GameDriver(page, seed=40)
    page.set_viewport_size({"width": 390, "height": 844})
    d.start("classic", mode="cpu", level="easy")
    page.click("#view-toggle")
    assert page.get_attribute("html", "data-view") == "3d"
    assert page.get_attribute("#view-toggle", "aria-pressed") == "true"
    tilt = page.evaluate("getComputedStyle(document.querySelector('svg.board')).transform")
    assert tilt.startswith("matrix3d"), tilt
    stand = page.evaluate(
        "getComputedStyle(document.querySelector('svg.board g.pc .face')).transform"
    )
    assert stand != "none", stand  # the pieces are stood up again
    # The tilt is the player's: a slider in the menu, live, remembered.
    d.open_menu()
    assert page.get_attribute("#tilt-option", "value") == "35"
    page.eval_on_selector(
        "#tilt-option",
        "r => { r.value = '20'; r.dispatchEvent(new Event('input', {bubbles: true})); }",
    )
    d.close_menu()
    assert (
        page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--tilt')")
        == "20deg"
    )
    flatter = page.evaluate("getComputedStyle(document.querySelector('svg.board')).transform")
    assert flatter != tilt and flatter.startswith("matrix3d"), (flatter, tilt)
    assert page.evaluate("JSON.parse(localStorage.getItem('junqi.prefs.v1'))")["tilt"] == 20
    for size in ("390x844", "844x390", "1280x800", "360x740"):
        w, h = SIZES[size]
        page.set_viewport_size({"width": w, "height": h})
        check_layout(page, "setup", size)
        d.screenshot(f"layout-classic-3d-setup-{size}")
    page.click("#btn-confirm")
    d.wait("play")
    log = lambda: page.evaluate("window.junqiUI.sound.log.slice()")  # noqa: E731
    start = len(log())
    d.play_random(attack_bias=1.0)  # clicks on the tilted board
    d.wait("play", "over")
    played = log()[start:]
    assert any(name.startswith(("move", "combat", "flip")) for name in played), played
    check_layout(page, "play", "360x740")
    d.screenshot("layout-classic-3d-play-360x740")
    prefs = page.evaluate("JSON.parse(localStorage.getItem('junqi.prefs.v1'))")
    assert prefs["view3d"] is True
    # Muted: nothing more is played; the choice is remembered.
    page.click("#sound-toggle")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    muted = len(log())
    if d.ui == "play":
        d.play_random()
        d.wait("play", "over")
    assert len(log()) == muted
    assert page.evaluate("JSON.parse(localStorage.getItem('junqi.prefs.v1'))")["sound"] is False
    # Sound on again, but the tab hidden: silent.
    page.click("#sound-toggle")
    page.evaluate("""() => { Object.defineProperty(document, 'hidden',
        {configurable: true, get: () => true});
        document.dispatchEvent(new Event('visibilitychange')); }""")
    hidden = len(log())
    if d.ui == "play":
        d.play_random()
        d.wait("play", "over")
    assert len(log()) == hidden
    page.evaluate("""() => { delete document.hidden;
        document.dispatchEvent(new Event('visibilitychange')); }""")
    page.click("#view-toggle")
    assert page.get_attribute("html", "data-view") == "flat"
