"""Saved games on the page: a game against the CPU or on one device survives a reload and
goes on exactly; a new game keeps the unfinished ones; one tab plays a saved game at a
time; a tampered save is refused with a message; statistics count finished games. The
saves live in the worker's IndexedDB (docs/api.md, "The saved games"), each under its id:
the test reads and edits them there directly, as a curious user could; the page itself
only ever gets the summaries."""

from __future__ import annotations

import json

import pytest
from gamedriver import GameDriver, no_page_errors  # noqa: F401
from sitekit import ARTIFACTS, call, wait_ready

from junqi_core.bridge import handle

# Every saved game, newest first: [{id, save, summary, page, at}].
READ_SAVES_JS = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open("junqi-saves", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("games");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const store = open.result.transaction("games").objectStore("games");
    const [keys, values] = [store.getAllKeys(), store.getAll()];
    values.onsuccess = () => {
      open.result.close();
      resolve(values.result.map((v, i) => ({ ...v, id: keys.result[i] }))
        .sort((a, b) => (b.at ?? 0) - (a.at ?? 0)));
    };
    values.onerror = () => reject(values.error);
  };
})"""

# The newest saved game, or null.
READ_SAVE_JS = f"async () => (await ({READ_SAVES_JS})())[0] ?? null"

WRITE_SAVE_JS = """({id, record}) => new Promise((resolve, reject) => {
  const open = indexedDB.open("junqi-saves", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("games");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const tx = open.result.transaction("games", "readwrite");
    tx.objectStore("games").put(record, id);
    tx.oncomplete = () => { open.result.close(); resolve(true); };
    tx.onerror = () => reject(tx.error);
  };
})"""


def write_save(page, id: str, record: dict) -> None:
    record = {k: v for k, v in record.items() if k != "id"}
    page.evaluate(WRITE_SAVE_JS, {"id": id, "record": record})


# Words that would mean the page received a save: its format name and the CPU's seed field.
SAVE_WORDS = ('"junqi-save"', '"seed"', '"drafts"')


def bridge(**request) -> dict:
    reply = json.loads(handle(json.dumps(request)))
    assert reply.get("ok"), reply
    return reply


# Every message the worker sends the page, to check that no save ever crosses.
LISTEN_JS = """() => { window.__workerText = [];
  window.junqi.engine.worker.addEventListener('message',
    (e) => window.__workerText.push(JSON.stringify(e.data))); }"""


def open_page(site, server, seed=0):
    page = site.open(server.url)
    page.emulate_media(reduced_motion="reduce")
    page.evaluate(LISTEN_JS)
    return page, GameDriver(page, seed=seed)


def assert_no_save_seen(page) -> None:
    texts = page.evaluate("() => window.__workerText || []")
    for text in texts:
        for word in SAVE_WORDS:
            assert word not in text.replace("\\", ""), f"the page received a save: {text[:200]}"


def wait_saved(page, ply: int, phase: str = "play") -> dict:
    """The newest save once it is of move `ply` in `phase` (the start of play is move 0,
    as the end of setup is: the phase tells them apart)."""
    page.wait_for_function(
        f"""async () => {{ const r = await ({READ_SAVE_JS})();
            return Boolean(r) && r.summary.ply === {ply} && r.summary.phase === "{phase}"; }}""",
        timeout=60_000,
    )
    return page.evaluate(READ_SAVE_JS)


def wait_games(page, n: int) -> None:
    """Until the start screen lists `n` unfinished games (a function, not an expression:
    the page's CSP refuses the eval Playwright would poll an expression with)."""
    page.wait_for_function(
        "n => document.querySelectorAll('#continue-box .continue-game').length === n", arg=n
    )


def wait_offered(page, text: str) -> None:
    """Until a game of the Continue list says `text` (the engine's list replaces the one
    the local summaries gave at once)."""
    page.wait_for_function(
        """t => [...document.querySelectorAll('#continue-box .continue-what')]
            .some((e) => e.textContent.includes(t))""",
        arg=text,
    )


def play_moves(d: GameDriver, n: int) -> None:
    for _ in range(n):
        if d.wait("play", "over") == "over":
            return
        d.play_random()
    d.wait("play", "over")


def reload(page) -> None:
    page.reload()
    wait_ready(page)
    page.emulate_media(reduced_motion="reduce")
    page.evaluate(LISTEN_JS)


def crowd(page, saved: dict, n: int = 4) -> None:
    """n more saved games of the same kind, older than `saved`: with it, as many as the
    browser keeps (a new game would end the oldest)."""
    for i in range(n):
        write_save(page, f"older{i}", {**saved, "at": saved["at"] - 1000 * (i + 1)})


def play_asks_first(page) -> None:
    """Play on the start screen asks before a new game ends the oldest saved game; "no"
    keeps them on offer."""
    page.click("#btn-play")
    page.wait_for_selector("dialog.confirm")
    assert "ends your oldest unfinished game" in page.inner_text("dialog.confirm")
    page.click("dialog.confirm [data-answer=no]")
    assert page.is_visible(".start") and page.is_visible("#continue-box .continue-go")


def resign(page, d: GameDriver) -> None:
    d.wait("play", "over")
    if d.ui == "over":
        return
    page.click("#btn-resign")
    page.click("dialog.confirm [data-answer=yes]")
    d.wait("over")


def replay_uninterrupted(save: str, record: dict, human: int) -> list[str]:
    """From the save made at the start of play, the same game in CPython without a
    reload: the human's actions from the record, the CPU's own choices; its actions."""
    game = bridge(op="restore", save=save, viewer=human)["game"]
    for action in record["actions"]:
        view = bridge(op="view", game=game, player=human)["view"]
        if view["phase"] != "play":
            break
        if action.startswith("resign") or view["turn"] == human:
            bridge(op="act", game=game, player=human, action=action)
        else:
            bridge(op="cpu_act", game=game, player=1 - human, viewer=human)
    view = bridge(op="view", game=game, player=human)["view"]
    return [e["action"] for e in view["history"]]


@pytest.mark.parametrize("variant", ["classic", "blind", "gunjin"])
def test_a_cpu_game_survives_a_reload_and_ends_as_the_uninterrupted_game(site, server, variant):
    page, d = open_page(site, server, seed=5)
    d.start(variant, mode="cpu", level="easy")
    if variant != "blind":
        page.click("#btn-random")
        d.wait("setup")
        page.click("#btn-confirm")
    d.wait("play")
    first = wait_saved(page, 0)  # the start of play, CPU layout and seed inside
    assert first["summary"]["cpus"] == {"1": "easy"}
    play_moves(d, 5)
    ply = d.ply
    before = d.view()
    wait_saved(page, ply)
    reload(page)
    # The start screen offers to go on: variant, mode, level and move number.
    page.wait_for_selector("#continue-box .continue-go")
    # The list from the local summaries comes at once, the engine's answer after it: a
    # reload just after a move may show the move before until then.
    wait_offered(page, f"move {ply}")
    page.locator("#continue-box").screenshot(path=str(ARTIFACTS / f"resume-continue-{variant}.png"))
    what = page.inner_text("#continue-box .continue-what")
    names = {"classic": "Classic Junqi", "blind": "Blind Junqi", "gunjin": "Gunjin Shogi"}
    assert names[variant] in what, what
    assert "Easy" in what and f"move {ply}" in what, what
    page.click("#continue-box .continue-go")
    d.wait("play", "over")
    after = d.view()
    assert after["board"] == before["board"] and after["history"] == before["history"]
    play_moves(d, 4)
    resign(page, d)
    game = page.evaluate("window.junqiUI.game.session.gameId")
    record = call(page, {"op": "record_export", "game": game})
    assert record["ok"], record
    record = record["record"]
    # The same game without the reload: the CPU chose the same moves and the same end.
    assert replay_uninterrupted(first["save"], record, 0) == record["actions"]
    # A finished game clears the save; the page never received one.
    page.wait_for_function(f"async () => !(await ({READ_SAVE_JS})())")
    assert_no_save_seen(page)
    d.screenshot(f"resume-cpu-{variant}-over")


def test_hot_seat_resume_brings_the_curtain_down_first(site, server):
    page, d = open_page(site, server, seed=2)
    d.start("classic", mode="hotseat")
    d.deploy_both_on_one_device()
    d.play_random()
    d.wait("moved")
    wait_saved(page, 1)
    reload(page)
    page.wait_for_selector("#continue-box .continue-go")
    assert "two players" in page.inner_text("#continue-box .continue-what")
    page.click("#continue-box .continue-go")
    d.wait("curtain")
    d.assert_public()  # nobody's pieces show before the next player opens the curtain
    assert "Blue" in page.inner_text("#btn-curtain")
    page.click("#btn-curtain")
    d.wait("play")
    assert d.viewer() == 1 and d.ply == 1
    d.assert_hidden_side(0)
    assert_no_save_seen(page)


def test_a_tampered_save_is_refused_and_the_start_screen_works(site, server):
    page, d = open_page(site, server, seed=1)
    d.start("classic", mode="cpu", level="easy")
    page.click("#btn-confirm")
    d.wait("play")
    play_moves(d, 2)
    saved = wait_saved(page, d.ply)
    # The page cannot ask the bridge for the save itself, however the op is spelt.
    game = page.evaluate("window.junqiUI.game.session.gameId")
    assert call(page, {"op": "save", "game": game})["error"]["code"] == "worker_only"
    escaped = json.dumps({"op": "save", "game": game}).replace('"save"', '"sav\\u0065"')
    reply = page.evaluate("t => window.junqi.engine.call(t)", escaped)
    assert reply["error"]["code"] == "worker_only", reply
    save = json.loads(saved["save"])
    save["record"]["actions"] = ["a1-e12", *save["record"]["actions"]]  # an illegal move
    write_save(page, saved["id"], {**saved, "save": json.dumps(save)})
    reload(page)
    page.wait_for_selector("#continue-box .continue-go")
    page.click("#continue-box .continue-go")
    page.wait_for_selector("#resume-notice")
    notice = page.inner_text("#resume-notice")
    assert "could not be continued" in notice and "discarded" in notice, notice
    assert not page.is_visible("#continue-box .continue-go")
    assert page.evaluate(READ_SAVE_JS) is None  # discarded
    d.screenshot("resume-refused")
    # The start screen still starts a game.
    d.start("gunjin", mode="cpu", level="easy")
    assert d.ui == "setup"
    # A foreign object in the storage: never breaks the start screen either.
    write_save(page, "foreign", {"summary": {"variant": "chess"}, "save": "{}"})
    reload(page)
    page.wait_for_selector("#resume-notice")
    # (the Gunjin game just started is offered; the foreign object is not, and is gone)
    whats = page.locator("#continue-box .continue-what").all_inner_texts()
    assert len(whats) == 1 and "Gunjin Shogi" in whats[0], whats
    assert [s["summary"]["variant"] for s in page.evaluate(READ_SAVES_JS)] == ["gunjin"]
    assert page.is_enabled("#btn-play")


def test_a_new_game_keeps_the_unfinished_one_and_both_are_offered(site, server):
    page, d = open_page(site, server)
    d.start("classic", mode="cpu", level="easy")
    page.click("#btn-confirm")
    d.wait("play")
    first = wait_saved(page, 0)
    reload(page)
    page.wait_for_selector("#continue-box .continue-go")
    # Play: nothing asked, nothing replaced; the new game is saved beside the first.
    d.start("gunjin", mode="cpu", level="easy")
    assert not page.is_visible("dialog.confirm")
    page.wait_for_function(f"async () => (await ({READ_SAVES_JS})()).length === 2")
    saves = page.evaluate(READ_SAVES_JS)
    assert [s["summary"]["variant"] for s in saves] == ["gunjin", "classic"]
    assert saves[1]["id"] == first["id"] and saves[1]["save"] == first["save"]
    # The start screen lists both, newest first, each with Continue and Discard.
    reload(page)
    wait_games(page, 2)
    page.locator("#continue-box").screenshot(path=str(ARTIFACTS / "resume-continue-two.png"))
    assert page.inner_text("#continue-title") == "Unfinished games"
    whats = page.locator("#continue-box .continue-what").all_inner_texts()
    assert "Gunjin Shogi" in whats[0] and "setting up" in whats[0], whats
    assert "Classic Junqi" in whats[1] and "move 0" in whats[1], whats
    # Discard forgets that one only.
    page.click("#continue-box .continue-forget")
    page.click("dialog.confirm [data-answer=yes]")
    wait_games(page, 1)
    assert [s["id"] for s in page.evaluate(READ_SAVES_JS)] == [first["id"]]
    # As many as the browser keeps: a new game of that kind asks before it ends the oldest.
    crowd(page, first)
    reload(page)
    page.check("#variant-classic")
    d.choose("mode", "cpu")
    play_asks_first(page)
    assert len(page.evaluate(READ_SAVES_JS)) == 5
    # A game abandoned on purpose (Change mode, confirmed) is not offered to continue.
    for record in page.evaluate(READ_SAVES_JS):
        page.click(f'#continue-box [data-save="{record["id"]}"] .continue-forget')
        page.click("dialog.confirm [data-answer=yes]")
    page.wait_for_selector("#continue-box", state="hidden")
    d.start("gunjin", mode="cpu", level="easy")
    page.click("#btn-confirm")
    d.wait("play")
    wait_saved(page, 0)
    d.open_menu()
    page.click("#btn-mode")
    page.click("dialog.confirm [data-answer=yes]")
    page.wait_for_selector(".start")
    page.wait_for_function(f"async () => !(await ({READ_SAVE_JS})())")
    assert not page.is_visible("#continue-box")


# Holds the engine back after a reload: the worker's "init" waits until the test calls
# window.__releaseEngine(), so the start screen is tested before the engine is up.
HOLD_ENGINE_JS = """
(() => {
  const post = Worker.prototype.postMessage;
  const held = [];
  Worker.prototype.postMessage = function (msg, ...rest) {
    if (msg && msg.type === "init" && !window.__released) {
      held.push(() => post.call(this, msg, ...rest));
      return;
    }
    return post.call(this, msg, ...rest);
  };
  window.__releaseEngine = () => {
    window.__released = true;
    for (const go of held.splice(0)) go();
  };
})();
"""

SUMMARY_JS = "() => JSON.parse(localStorage.getItem('junqi.saved.v2'))"


@pytest.mark.new_context  # an init script holds the engine back
def test_the_start_screen_knows_the_saved_game_before_the_engine(site, server):
    """A reload, and Play tapped before the engine is up: the start screen already offers
    the saved games (from the summaries the page keeps in local storage, nothing hidden in
    them), Play asks before it ends the oldest, "no" keeps them, and Continue goes on once
    the engine is up."""
    page, d = open_page(site, server, seed=3)
    d.start("classic", mode="cpu", level="easy")
    page.click("#btn-confirm")
    d.wait("play")
    play_moves(d, 3)
    ply = d.ply
    before = d.view()
    saved = wait_saved(page, ply)
    crowd(page, saved)
    page.evaluate("() => window.junqiUI.flows.checkSaved().then(() => true)")  # their summaries

    site.context.add_init_script(HOLD_ENGINE_JS)
    page.reload()
    page.wait_for_selector("#app[data-ui=ready]", state="attached")
    assert page.evaluate("document.documentElement.dataset.state") == "loading"
    assert page.is_visible("#continue-box .continue-go")
    assert f"move {ply}" in page.inner_text("#continue-box .continue-what")
    assert len(page.locator("#continue-box .continue-game").all()) == 5
    play_asks_first(page)
    page.click("#continue-box .continue-go")
    assert "as soon as the engine is ready" in page.inner_text("#continue-waiting")
    page.evaluate("window.__releaseEngine()")
    wait_ready(page)
    d.wait("play", "over")
    after = d.view()
    assert after["history"] == before["history"] and after["board"] == before["board"]
    assert page.evaluate(READ_SAVE_JS)["summary"]["ply"] == ply
    # What the page kept in local storage: the engine's public summary, no more.
    local = page.evaluate(SUMMARY_JS)["games"]
    assert local[0]["id"] == saved["id"] and local[0]["summary"] == saved["summary"]
    for word in SAVE_WORDS:
        assert word not in json.dumps(local)


# A save the local summary does not tell of: written by a version of the page before the
# summary, or a summary the storage would not keep (full, or cleared on its own).
FORGET_SUMMARY_JS = "localStorage.removeItem('junqi.saved.v2')"


@pytest.mark.new_context  # init scripts: no local summary, the engine held back
def test_an_early_play_asks_even_when_no_local_summary_tells_of_the_saved_game(site, server):
    """Play tapped before the engine is up, with saves in the browser's storage (as many as
    it keeps) but no summary of them in local storage: the page does not take "no summary"
    for "no save". It waits for the engine to say what the saves are and asks before the
    new game ends the oldest; "no" keeps them."""
    page, d = open_page(site, server, seed=5)
    d.start("classic", mode="cpu", level="easy")
    page.click("#btn-confirm")
    d.wait("play")
    play_moves(d, 2)
    ply = d.ply
    crowd(page, wait_saved(page, ply))

    site.context.add_init_script(FORGET_SUMMARY_JS)
    site.context.add_init_script(HOLD_ENGINE_JS)
    page.reload()
    page.wait_for_selector("#app[data-ui=ready]", state="attached")
    assert page.evaluate("document.documentElement.dataset.state") == "loading"
    assert not page.is_visible("#continue-box .continue-go")  # nothing on the page tells of it yet
    page.click("#btn-play")
    page.evaluate("window.__releaseEngine()")
    page.wait_for_selector("dialog.confirm", timeout=60_000)
    assert "ends your oldest unfinished game" in page.inner_text("dialog.confirm")
    page.click("dialog.confirm [data-answer=no]")
    page.wait_for_selector("#continue-box .continue-go")
    assert page.is_visible(".start")
    assert page.evaluate(READ_SAVE_JS)["summary"]["ply"] == ply
    assert len(page.evaluate(READ_SAVES_JS)) == 5


def saved_ply(page, id: str) -> int | None:
    saves = {s["id"]: s for s in page.evaluate(READ_SAVES_JS)}
    return saves[id]["summary"]["ply"] if id in saves else None


def test_a_saved_game_plays_in_one_tab_and_a_new_game_in_another_keeps_it(site, server):
    """The issue's scenario: tab 1 plays Classic against the CPU; tab 2 offers it and
    Continue says it is open in another tab (no second live copy); tab 3 starts Gunjin,
    which ends nothing; tab 1's next move is saved and the Gunjin game too; then tab 2 moves
    the Classic game here, and tab 1 says it went there and saves no more."""
    one, d1 = open_page(site, server, seed=3)
    d1.start("classic", mode="cpu", level="easy")
    one.click("#btn-confirm")
    d1.wait("play")
    play_moves(d1, 2)
    classic = wait_saved(one, d1.ply)["id"]
    # Tab 2: the unfinished game is offered; Continue finds it open in tab 1.
    two, d2 = open_page(site, server)
    two.wait_for_selector(f'#continue-box [data-save="{classic}"]')
    assert f"move {d1.ply}" in two.inner_text("#continue-box .continue-what")
    two.click("#continue-box .continue-go")
    two.wait_for_selector("#friend-elsewhere")
    assert "open in another tab" in two.inner_text("#friend-elsewhere")
    assert two.evaluate("window.junqiUI.game") is None
    # Tab 3 starts Gunjin: nothing asked, nothing replaced.
    three, d3 = open_page(site, server)
    d3.start("gunjin", mode="cpu", level="easy")
    assert not three.is_visible("dialog.confirm")
    three.click("#btn-confirm")
    d3.wait("play")
    three.wait_for_function(f"async () => (await ({READ_SAVES_JS})()).length === 2")
    gunjin = next(s["id"] for s in three.evaluate(READ_SAVES_JS) if s["id"] != classic)
    # Tab 1's next move: its own save moves on, the Gunjin save stays.
    play_moves(d1, 1)
    ply = d1.ply
    one.wait_for_function(
        f"""async () => (await ({READ_SAVES_JS})()).some(
            (s) => s.id === "{classic}" && s.summary.ply === {ply})""",
        timeout=60_000,
    )
    assert saved_ply(one, gunjin) == 0
    two.click("#btn-notice-back")
    wait_games(two, 2)
    # The start screen says that other tabs play them (tab 1 and tab 3).
    for id in (classic, gunjin):
        elsewhere = f'#continue-box [data-save="{id}"] .continue-elsewhere'
        two.wait_for_selector(elsewhere)
        assert "open in another tab" in two.inner_text(elsewhere)
    # Tab 2 moves the Classic game here: tab 1 lets go and says where it went.
    two.click(f'#continue-box [data-save="{classic}"] .continue-go')
    two.wait_for_selector("#btn-friend-move")
    two.click("#btn-friend-move")
    d2.wait("play", "over")
    assert d2.ply == ply
    one.wait_for_selector("#friend-notice")
    assert "moved to another tab" in one.inner_text("#friend-notice")
    assert one.evaluate("window.junqiUI.game") is None
    one.click("#btn-notice-back")  # tab 1's start screen: tab 2 plays it now
    one.wait_for_selector(f'#continue-box [data-save="{classic}"] .continue-elsewhere')
    # Tab 2 plays and saves it now.
    play_moves(d2, 1)
    two.wait_for_function(
        f"""async () => (await ({READ_SAVES_JS})()).some(
            (s) => s.id === "{classic}" && s.summary.ply === {d2.ply})""",
        timeout=60_000,
    )
    assert saved_ply(two, gunjin) == 0
    d2.screenshot("resume-moved-here")
    for page in (one, two, three):
        assert_no_save_seen(page)


@pytest.mark.new_context  # an init script writes what an earlier version left
def test_the_save_of_an_earlier_version_is_offered_and_goes_on(site, server):
    """Before several saved games, the page kept one save under "current" and its summary
    in `junqi.saved.v1`: after the upgrade it is offered at once and goes on."""
    page, d = open_page(site, server, seed=2)
    d.start("classic", mode="cpu", level="easy")
    page.click("#btn-confirm")
    d.wait("play")
    play_moves(d, 2)
    ply = d.ply
    before = d.view()
    saved = wait_saved(page, ply)
    # As an earlier version left it (the player's turn: nothing is saved meanwhile).
    old = {"v": 1, "summary": saved["summary"], "clock": False, "at": saved["at"]}
    site.context.add_init_script(
        f"""if (!sessionStorage.getItem("old")) {{
          sessionStorage.setItem("old", "1");
          localStorage.removeItem("junqi.saved.v2");
          localStorage.setItem("junqi.saved.v1", {json.dumps(json.dumps(old))});
        }}"""
    )
    write_save(page, "current", saved)
    page.evaluate(
        """(id) => new Promise((resolve) => {
          const open = indexedDB.open("junqi-saves", 1);
          open.onsuccess = () => {
            const tx = open.result.transaction("games", "readwrite");
            tx.objectStore("games").delete(id);
            tx.oncomplete = () => { open.result.close(); resolve(true); };
          };
        })""",
        saved["id"],
    )
    page.goto(server.url)
    page.wait_for_selector('#continue-box [data-save="current"]')
    assert f"move {ply}" in page.inner_text("#continue-box .continue-what")
    wait_ready(page)
    page.emulate_media(reduced_motion="reduce")
    page.click("#continue-box .continue-go")
    d.wait("play", "over")
    after = d.view()
    assert after["history"] == before["history"] and after["board"] == before["board"]
    assert page.evaluate("localStorage.getItem('junqi.saved.v1')") is None
    assert [s["id"] for s in page.evaluate(READ_SAVES_JS)] == ["current"]


def _friend_save_in_setup() -> dict:
    """An unfinished friend game as the page keeps it in local storage (ctrl/saves.js,
    FriendSaves): the host's side of a Classic game both pages have started setting up."""
    from tests.fairkit import Table

    table = Table("classic", seed=4)
    table.deliver()  # hello both ways: both in setup
    record = {
        "v": 1,
        "match": "0123456789abcdef",
        "role": "host",
        "net": "lan",
        "variant": "classic",
        "state": table.host.to_json(),
        "updated": 0,
    }
    clock = {"paused": 0, "since": 0, "alive": None, "stage": "setup", "offer": None}
    return {"junqi.friend.v1": json.dumps(record), "junqi.friend.v1.clock": json.dumps(clock)}


def test_a_new_friend_game_asks_before_it_replaces_the_unfinished_one(site, server):
    """This browser keeps one friend game. Play for a new one, while an unfinished one is
    saved (and open in no tab), asks first; "no" keeps it, and it is still offered."""
    page, d = open_page(site, server)
    saved = _friend_save_in_setup()
    page.evaluate(
        "s => { for (const [k, v] of Object.entries(s)) localStorage.setItem(k, v); }", saved
    )
    reload(page)
    page.check("#variant-classic")
    d.choose("mode", "friend")
    assert page.is_visible("#friend-saved")
    page.click("#btn-play")
    page.wait_for_selector("dialog.confirm", timeout=10_000)
    assert "unfinished" in page.inner_text("dialog.confirm")
    page.click("dialog.confirm [data-answer=no]")
    assert page.is_visible(".start") and page.is_visible("#friend-saved")
    kept = page.evaluate("() => localStorage.getItem('junqi.friend.v1')")
    assert kept == saved["junqi.friend.v1"]


def test_statistics_count_a_finished_game_and_reset(site, server):
    page, d = open_page(site, server)
    d.start("gunjin", mode="cpu", level="easy")
    page.click("#btn-confirm")
    d.wait("play")
    resign(page, d)
    d.open_menu()
    page.click("#btn-mode")
    page.wait_for_selector(".start")
    page.click("#stats-summary")
    row = '#stats-table tr[data-row="gunjin|cpu:easy"]'
    page.wait_for_selector(row)
    assert page.inner_text(f'{row} [data-count="lost"]') == "1"
    assert page.inner_text(f'{row} [data-count="won"]') == "0"
    page.locator("#stats-panel").screenshot(path=str(ARTIFACTS / "stats-start.png"))
    page.click("#btn-stats-reset")
    page.click("dialog.confirm [data-answer=yes]")
    page.wait_for_selector("#stats-empty")
    reload(page)
    page.click("#stats-summary")
    assert page.is_visible("#stats-empty")


def test_requests_nested_far_too_deep_are_refused_cleanly_and_the_engine_goes_on(site, server):
    """Pyodide's JSON parser overflowed the WebAssembly stack on a request nested 100,000
    deep (a fatal error: "engine_crashed"): the engine now measures the nesting before it
    parses, for its own ops and for the worker's saved-game ops alike."""
    page = site.open(server.url)
    wait_ready(page)
    game = call(page, {"op": "new_game", "variant": "classic", "seed": 1})["game"]
    assert call(page, {"op": "keep_game", "id": "deep", "game": game, "page": {}})["ok"]
    deep = "[" * 100_000 + "]" * 100_000
    for template in (
        '{"op": "view", "game": %s, "player": 0}',
        '{"op": "view", "game": "g1", "player": %s}',
        '{"op": "resume_game", "id": "deep", "viewer": %s}',
        '{"op": "keep_game", "id": "deep", "game": %s}',
    ):
        reply = call(page, template % deep)
        assert reply["error"]["code"] == "too_deep", (template, reply)
    assert call(page, {"op": "version"})["ok"]  # the engine is still there
    assert call(page, {"op": "saved_games"})["games"][0]["summary"]["variant"] == "classic"


def test_a_refused_resume_request_keeps_the_save_only_a_damaged_save_is_deleted(site, server):
    """docs/api.md: only a save the bridge refuses as `bad_save` is deleted; a request the
    bridge refuses (here: the CPU's seat as the viewer, `cpu_seat`) leaves it be."""
    page = site.open(server.url)
    wait_ready(page)
    request = {"op": "new_game", "variant": "classic", "seed": 1, "cpu": {"1": "random"}}
    game = call(page, {**request, "viewer": 0})["game"]
    assert call(page, {"op": "keep_game", "id": "g", "game": game, "page": {}})["ok"]
    assert call(page, {"op": "resume_game", "id": "g", "viewer": 1})["error"]["code"] == "cpu_seat"
    assert [s["id"] for s in call(page, {"op": "saved_games"})["games"]] == ["g"]
    resumed = call(page, {"op": "resume_game", "id": "g", "viewer": 0})
    assert resumed["ok"] and resumed["summary"]["cpus"] == {"1": "random"}
    # Every op on one saved game names it; one that names none is refused.
    assert call(page, {"op": "resume_game", "viewer": 0})["error"]["code"] == "bad_request"
    assert (
        call(page, {"op": "resume_game", "id": "other", "viewer": 0})["error"]["code"] == "no_save"
    )
