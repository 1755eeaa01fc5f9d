"""The replay screen: from a game's end, from a record file (button or drop) and from a
shared link; every step's board is the engine's (CPython, `junqi_core.record.import_record`)
position as the chosen viewpoint knew it; bad files and links are refused with the engine's
reason and the start screen keeps working. Screenshots of each variant's replay at 390x844
and 1280x800 go to test-artifacts/replay-<variant>-<size>.png."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gamedriver import ARTIFACTS, GameDriver, axe_scan, no_page_errors  # noqa: F401

from junqi_core.record import export_record, import_record
from junqi_core.selfplay import random_game
from junqi_core.share import encode_link
from junqi_core.views import view

REPLAY = "section.replay"
SIZES = {
    "360x740": (360, 740),
    "390x844": (390, 844),
    "844x390": (844, 390),
    "1280x800": (1280, 800),
}
CONTROLS = ["#replay-first", "#replay-back", "#replay-play", "#replay-forward", "#replay-last"]
NEEDED = ["svg.board", "#replay-status", "#replay-message", "#replay-slider", "#replay-viewer",
          "#replay-speed", "#replay-close", *CONTROLS]  # fmt: skip

PIECES_JS = """() => Object.fromEntries([...document.querySelectorAll('svg.board g.pc')]
  .map(g => [g.dataset.sq, [g.dataset.owner === '' ? null : Number(g.dataset.owner),
                            g.dataset.kind ?? null]]))"""

BOXES_JS = """(selectors) => {
  const out = {};
  for (const sel of selectors) {
    const el = document.querySelector(sel);
    const r = el.getBoundingClientRect();
    out[sel] = {x: r.x, y: r.y, w: r.width, h: r.height,
                shown: !el.closest('[hidden]') && r.width > 0};
  }
  out.scroll = {x: scrollX, y: scrollY, width: document.documentElement.scrollWidth,
                height: document.documentElement.scrollHeight};
  return out;
}"""


def finished_record(variant: str, seed: int, plies: int = 60) -> dict:
    """A finished game's record (a resignation after `plies` random plies)."""
    game = random_game(variant, seed, max_plies=plies)
    if game.result is None:
        game.apply(game.turn, f"resign:{game.turn}")
    return export_record(game)


def expected_boards(record: dict, viewer) -> list[dict]:
    """The board at every step, from CPython's engine: the true pieces ("all"), or what
    the seat's own view named then."""
    boards = []

    def step(game) -> None:
        if viewer == "all":
            names = game.board_spec.names
            kinds = {k.kind: k.id for k in game.variant.kinds}
            boards.append(
                {
                    names[sq]: [game.position.piece_owner(p), kinds[p & 31]]
                    for sq, p in enumerate(game.position.board)
                    if p
                }
            )
        else:
            board = view(game, viewer)["board"]
            boards.append({sq: [c["owner"], c["kind"]] for sq, c in board.items()})

    import_record(record, on_step=step)
    return boards


def slide(page, step: int) -> None:
    """Drag the slider to a step (as its input event does)."""
    page.eval_on_selector(
        "#replay-slider", "(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }", step
    )


def step_of(page) -> int:
    return int(page.get_attribute(REPLAY, "data-step"))


def wait_replay(page, viewer=None) -> None:
    page.wait_for_selector(f"{REPLAY}[data-busy=false]", timeout=60_000)
    if viewer is not None:
        page.wait_for_selector(f'{REPLAY}[data-viewer="{viewer}"][data-busy=false]')


def check_step(page, boards: list[dict], step: int | None = None) -> None:
    step = step_of(page) if step is None else step
    assert step_of(page) == step
    assert page.evaluate(PIECES_JS) == boards[step], f"step {step}"


def check_layout(page, size: str) -> None:
    width, height = SIZES[size]
    page.evaluate("scrollTo(0, 0)")  # the move list below the board may have been used
    boxes = page.evaluate(BOXES_JS, NEEDED)
    scroll = boxes.pop("scroll")
    assert scroll["width"] <= width, f"{size}: the page scrolls sideways {scroll}"
    if size == "1280x800":
        assert scroll["height"] <= height, f"{size}: the page scrolls {scroll}"
    for sel, box in boxes.items():
        inside = box["x"] >= -0.5 and box["y"] >= -0.5
        inside = inside and box["x"] + box["w"] <= width + 0.5
        inside = inside and box["y"] + box["h"] <= height + 0.5
        assert box["shown"] and inside, f"{size}: {sel} at {box} is not on screen"
        if sel.startswith("#replay-") and sel not in ("#replay-status", "#replay-message"):
            assert box["h"] >= 43.5 and box["w"] >= 43.5, f"{size}: {sel} is {box}"
    # nothing overlaps: the board, the status bar and the two control rows stack
    board = boxes["svg.board"]
    assert boxes["#replay-message"]["y"] + boxes["#replay-message"]["h"] <= board["y"] + 0.5 or (
        boxes["#replay-message"]["x"] >= board["x"] + board["w"] - 0.5
    )


# The combat's flash is over: its burst removed from the board (after about a second) and
# the board's own flash ended. A wait on that instead of a fixed second.
FLASH_OVER_JS = "() => !document.querySelector('svg.board [data-fx], svg.board.impact')"


def flash_over(page) -> None:
    page.wait_for_function(FLASH_OVER_JS, timeout=10_000)


def screenshots(page, variant: str) -> None:
    for size in ("390x844", "1280x800"):
        w, h = SIZES[size]
        page.set_viewport_size({"width": w, "height": h})
        flash_over(page)
        check_layout(page, size)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"replay-{variant}-{size}.png"))


def go_to_combat(page, record: dict) -> None:
    """A step whose action was a combat, so the message says how it went."""
    game = import_record(record)
    combats = [i + 1 for i, e in enumerate(game.history) if e.result]
    target = combats[len(combats) // 2] if combats else len(game.history) // 2
    slide(page, target)
    assert step_of(page) == target


def test_replay_from_the_end_of_a_game_and_by_a_shared_link(site, server):
    site.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = site.open(server.url)
    page.set_viewport_size({"width": 390, "height": 844})
    d = GameDriver(page, seed=11)
    d.start("classic", mode="cpu", level="easy")
    if d.ui == "setup":
        page.click("#btn-confirm")
    for _ in range(8):
        if d.wait("play", "over") == "over":
            break
        d.play_random(attack_bias=1.0)
    if d.wait("play", "over") == "play":
        page.click("#btn-resign")
        page.click("dialog.confirm [data-answer=yes]")
        d.wait("over")
    game_id = page.evaluate("window.junqiUI.game.session.gameId")
    record = page.evaluate(
        "id => window.junqi.engine.call({op: 'record_export', game: id})", game_id
    )["record"]
    everything = expected_boards(record, "all")
    last = len(record["actions"])

    # The end screen: Replay opens at the start, everything shown.
    page.click("#btn-replay")
    wait_replay(page, "all")
    assert page.get_attribute(REPLAY, "data-last") == str(last)
    check_step(page, everything, 0)
    assert page.inner_text("#replay-status").startswith("Start position")
    page.click("#replay-forward")
    check_step(page, everything, 1)
    assert page.inner_text("#replay-status") == f"Move 1 of {last}"
    assert page.inner_text("#replay-message").startswith("Red moves ")
    page.keyboard.press("ArrowRight")
    check_step(page, everything, 2)
    page.keyboard.press("End")
    check_step(page, everything, last)
    assert "Game over" in page.inner_text("#replay-status")
    page.keyboard.press("ArrowLeft")
    check_step(page, everything, last - 1)
    page.keyboard.press("Home")
    check_step(page, everything, 0)
    page.click('#replay-moves .move-link[data-step="3"]')
    check_step(page, everything, 3)
    assert page.get_attribute('#replay-moves .move-link[data-step="3"]', "aria-current") == "step"
    page.click("#replay-back")
    check_step(page, everything, 2)
    page.click("#replay-last")
    check_step(page, everything, last)
    page.click("#replay-first")
    check_step(page, everything, 0)
    for step in range(last + 1):  # every position, by the slider
        slide(page, step)
        check_step(page, everything, step)

    # Seat views: what that seat knew at each step (the CPU's ranks hidden until the end).
    for seat in (0, 1):
        page.select_option("#replay-viewer", str(seat))
        wait_replay(page, seat)
        seen = expected_boards(record, seat)
        for step in range(last + 1):
            slide(page, step)
            check_step(page, seen, step)
            if step < last:
                named = page.evaluate(PIECES_JS).values()
                assert all(kind is None for owner, kind in named if owner != seat)
        assert page.get_attribute("svg.board", "data-seat") == str(seat)
    page.select_option("#replay-viewer", "all")
    wait_replay(page, "all")

    # Autoplay at 4x runs to the end and stops.
    page.click("#replay-first")
    page.select_option("#replay-speed", "3")
    page.click("#replay-play")
    assert page.get_attribute("#replay-play", "aria-pressed") == "true"
    page.wait_for_selector(f'{REPLAY}[data-step="{last}"][data-playing=false]', timeout=30_000)
    check_step(page, everything, last)

    go_to_combat(page, record)
    for size in SIZES:
        w, h = SIZES[size]
        page.set_viewport_size({"width": w, "height": h})
        check_layout(page, size)
    screenshots(page, "classic")
    page.set_viewport_size({"width": 390, "height": 844})
    assert axe_scan(page, server.url) == []

    # Close: back to the end screen; the move list as text and the share link.
    page.click("#replay-close")
    page.wait_for_selector("#btn-rematch", state="visible")
    with page.expect_download() as download:
        page.click("#btn-save-text")
    assert download.value.suggested_filename.endswith(".txt")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith("Classic") and f"{last:>3}. " in text
    page.click("#btn-share")
    page.wait_for_selector("#share-note[data-link]", state="attached")
    link = page.get_attribute("#share-note", "data-link")
    assert link.startswith(server.url) and "#replay=" in link
    assert page.evaluate("navigator.clipboard.readText()") == link
    assert page.inner_text("#share-note").startswith("Link copied")

    # The link in a fresh page: the same replay, once the engine is ready.
    other = site.open(link)
    wait_replay(other, "all")
    assert other.get_attribute(REPLAY, "data-last") == str(last)
    assert "#replay" not in other.url
    for step in (0, last // 2, last):
        slide(other, step)
        check_step(other, everything, step)
    other.click("#replay-close")
    other.wait_for_selector(".start #btn-play")


@pytest.mark.parametrize("variant", ["blind", "gunjin"])
def test_replay_of_a_record_file(site, server, variant, tmp_path):
    record = finished_record(variant, seed=3)
    path = tmp_path / f"{variant}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    everything = expected_boards(record, "all")
    last = len(record["actions"])
    page = site.open(server.url)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.is_visible("#btn-open-record")
    page.set_input_files("#record-file", str(path))
    wait_replay(page, "all")
    assert page.get_attribute(REPLAY, "data-variant") == variant
    assert page.evaluate("scrollY") == 0  # the replay shows from the top
    for step in range(last + 1):
        check_step(page, everything, step)
        page.keyboard.press("ArrowRight")
    check_step(page, everything, last)
    page.select_option("#replay-viewer", "1")
    wait_replay(page, 1)
    seen = expected_boards(record, 1)
    for step in (0, 1, last // 2, last - 1, last):
        slide(page, step)
        check_step(page, seen, step)
    go_to_combat(page, record)
    flash_over(page)
    page.screenshot(path=str(ARTIFACTS / f"replay-{variant}-seat1-390x844.png"))
    page.select_option("#replay-viewer", "all")
    wait_replay(page, "all")
    go_to_combat(page, record)
    assert page.inner_text("#replay-message")
    screenshots(page, variant)
    page.set_viewport_size({"width": 390, "height": 844})
    # Another language: every word of the replay follows, at the same step.
    step = step_of(page)
    page.click("#game-menu-toggle")
    page.select_option("#lang-select", "es")
    page.click("#game-menu-toggle")
    page.wait_for_function(
        "() => document.getElementById('replay-status').textContent.startsWith('Jugada ')"
    )
    assert step_of(page) == step
    assert page.get_attribute("#replay-forward", "aria-label") == "Jugada siguiente"
    page.keyboard.press("ArrowRight")
    assert step_of(page) == step + 1
    page.click("#game-menu-toggle")
    page.select_option("#lang-select", "en")
    page.click("#game-menu-toggle")
    page.click("#replay-close")
    page.wait_for_selector(".start #btn-play")


def test_bad_files_and_links_are_refused_and_the_start_screen_keeps_working(site, server, tmp_path):
    page = site.open(server.url + "#replay=AAAAthis-is-not-a-game")
    page.wait_for_selector("#start-notice.error:not([hidden])")
    notice = page.inner_text("#start-notice")
    assert notice.startswith("This replay link does not work: "), notice
    assert "#replay" not in page.url
    page.set_viewport_size({"width": 390, "height": 844})
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "replay-refused-link-390x844.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    # A file that is not JSON, and a record with an illegal move: the engine's reason.
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    page.set_input_files("#record-file", str(bad))
    page.wait_for_function(
        "() => document.getElementById('start-notice').textContent.includes('not valid JSON')"
    )
    record = finished_record("classic", seed=2, plies=10)
    record["actions"][1] = "a1-a9"
    bad.write_text(json.dumps(record), encoding="utf-8")
    page.set_input_files("#record-file", str(bad))
    page.wait_for_function(
        "() => document.getElementById('start-notice').textContent.includes('action 2')"
    )
    assert page.inner_text("#start-notice").startswith("This file cannot be replayed: ")
    assert not page.is_visible(REPLAY)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "replay-refused-file.png"))
    # A record dropped anywhere on the start screen opens its replay.
    good = finished_record("gunjin", seed=6, plies=12)
    page.evaluate(
        """text => {
          const dt = new DataTransfer();
          dt.items.add(new File([text], 'game.json', {type: 'application/json'}));
          for (const type of ['dragenter', 'dragover', 'drop'])
            document.querySelector('.start h2').dispatchEvent(
              new DragEvent(type, {dataTransfer: dt, bubbles: true, cancelable: true}));
        }""",
        json.dumps(good),
    )
    wait_replay(page, "all")
    assert page.get_attribute(REPLAY, "data-last") == str(len(good["actions"]))
    page.click("#replay-close")
    # A tampered link in the address of a page already open: refused, the start screen works.
    page.evaluate("location.hash = 'replay=' + 'B'.repeat(40)")
    page.wait_for_selector("#start-notice.error:not([hidden])")
    page.check("#variant-classic")
    page.click('label[for="mode-hotseat"]')
    page.click("#btn-play")
    page.wait_for_selector("section.game[data-ui=curtain]")
    page.click("#btn-curtain")
    page.wait_for_selector("section.game[data-ui=setup]")
    # A good link while a game is in progress: asked first; "Cancel" keeps the game.
    game = random_game("blind", 4, max_plies=30)
    game.apply(game.turn, f"resign:{game.turn}")
    payload = encode_link(game)
    page.evaluate("p => { location.hash = 'replay=' + p; }", payload)
    page.click("dialog.confirm [data-answer=no]")
    assert page.is_visible("section.game[data-ui=setup]") and not page.is_visible(REPLAY)
    page.evaluate("p => { location.hash = 'replay=' + p; }", payload)
    page.click("dialog.confirm [data-answer=yes]")
    wait_replay(page, "all")
    assert page.get_attribute(REPLAY, "data-last") == str(len(game.history))
    page.click("#replay-close")
    page.wait_for_selector(".start #btn-play")


# From the first moment of a page: every screen #app shows, with whether the engine was up.
SCREENS_JS = """
window.__screens = [];
new MutationObserver(() => {
  const app = document.getElementById('app');
  const shown = app && (app.querySelector('section.replay') ? 'replay'
    : app.querySelector('.start, #btn-play') ? 'start' : null);
  const last = window.__screens[window.__screens.length - 1];
  if (shown && shown !== last?.screen) {
    window.__screens.push({screen: shown, engine: Boolean(window.junqi?.link?.ready),
      status: document.getElementById('replay-status')?.textContent ?? null});
  }
}).observe(document, {subtree: true, childList: true});
"""


def test_a_shared_link_opens_straight_into_its_replay(site, serve):
    """A #replay= link shows the replay screen at once, "Preparing the replay…", while the
    engine starts (its game wheel held back 4 s here), never the start form; the replay
    fills in when the engine answers."""
    game = random_game("gunjin", 5, max_plies=24)
    game.apply(game.turn, f"resign:{game.turn}")
    server = serve(faults={".whl": ("delay", 4)})
    site.context.add_init_script(SCREENS_JS)
    page = site.open(server.url + "#replay=" + encode_link(game), wait=None)
    page.wait_for_selector(REPLAY, state="attached")
    first = page.evaluate("window.__screens")[0]
    assert first == {"screen": "replay", "engine": False, "status": "Preparing the replay…"}
    assert page.get_attribute(REPLAY, "data-busy") == "true"
    assert page.is_disabled("#replay-forward")
    assert "#replay" not in page.url
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("() => document.getElementById('replay-message').textContent")
    assert page.inner_text("#replay-message").startswith("The engine is starting (")
    # No side is named before the engine says which variant this is (it read "As side.null.0
    # saw it"): no viewpoint to choose yet.
    assert page.is_hidden("#replay-viewer")
    words = page.eval_on_selector(REPLAY, "r => r.textContent")
    assert "side." not in words and "null" not in words, words
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "replay-preparing-390x844.png"))
    wait_replay(page, "all")
    assert page.evaluate("window.junqi.link.ready")
    assert page.get_attribute(REPLAY, "data-variant") == "gunjin"
    assert page.get_attribute(REPLAY, "data-last") == str(len(game.history))
    check_step(page, expected_boards(export_record(game), "all"), 0)
    assert [s["screen"] for s in page.evaluate("window.__screens")] == ["replay"]
    page.click("#replay-forward")
    assert step_of(page) == 1
    page.click("#replay-close")
    page.wait_for_selector(".start #btn-play")
