// The app controller (web/js/ui/ctrl/app.js) in Node: the flows from screen to screen with
// the real engine behind the worker's saved-game ops, screens that only note what they
// were asked to draw, and tabs that play nothing (or tabs of one browser that share their
// locks, their storage and their saved games). Run: node --test tests/js/

import { test } from "node:test";
import assert from "node:assert/strict";
import { AppController } from "../../web/js/ui/ctrl/app.js";
import { Saves, SUMMARY_KEY, OLD_SUMMARY_KEY, MAX_SAVES, crowded } from "../../web/js/ui/ctrl/saves.js";
import { Stats } from "../../web/js/ui/ctrl/stats.js";
import * as link from "../../web/js/net/link.js";
import { useEngine, memoryStore, memoryStorage, withSavedGame, until, counter } from "./support.mjs";

const ready = useEngine();

/** Screens that note what they were asked to draw; `answers` are the confirmations given. */
function fakeScreens(answers = []) {
  const shown = [];
  return {
    shown,
    asked: [],
    last: () => shown.at(-1),
    showStart: (notice = "") => shown.push(["start", notice]),
    showGame: (game, { title }) => {
      shown.push(["game", title, game.session.mode]);
      return { pageData: () => ({ marks: "m" }) };
    },
    closeGame: () => shown.push(["closed"]),
    showReplay: (replay) => shown.push(["replay", replay.variant]),
    closeReplay: () => shown.push(["replay closed"]),
    backToGame: () => shown.push(["back to game"]),
    showNotice: (text) => shown.push(["notice", text]),
    showElsewhere: (tag, text) => shown.push(["elsewhere", tag, text]),
    showJoin: (signal, about) => shown.push(["join", about]),
    startNotice: (text, error = false) => shown.push(["start notice", text, error]),
    async confirm(message) {
      this.asked.push(message);
      return answers.shift() ?? true;
    },
  };
}

/** Tabs of a browser where no other tab plays anything. */
function loneTabs() {
  return { held: [], listen() {}, onLetGo() {}, async hold(tag) { this.held.push(tag); return true; },
    holds: () => true, async isHeld() { return false; }, async pass() { return false; },
    async take() { return true; }, release() {} };
}

/** The tabs of one browser, as net/tabs.js TabRelay with Web Locks: tab() is one page's,
 * all share the locks (a tag held by at most one tab; take() asks the holder to let go). */
function browserTabs() {
  const locks = new Map(); // tag -> the tab that holds it
  return {
    locks,
    tab() {
      return {
        mine: null, letGo: null,
        listen() {},
        onLetGo(fn) {
          this.letGo = fn;
        },
        async hold(tag) {
          if (this.mine === tag) return true;
          this.release();
          if (locks.has(tag)) return false;
          locks.set(tag, this);
          this.mine = tag;
          return true;
        },
        holds(tag) {
          return this.mine === tag;
        },
        async isHeld(tag) {
          return locks.has(tag);
        },
        async pass() {
          return false;
        },
        async take(tag) {
          this.release();
          locks.get(tag)?.letGo?.(tag);
          await waitFor(() => !locks.has(tag), "the other tab to let go");
          locks.set(tag, this);
          this.mine = tag;
          return true;
        },
        release() {
          if (this.mine && locks.get(this.mine) === this) locks.delete(this.mine);
          this.mine = null;
        },
      };
    },
  };
}

function flows({ answers = [], storage = memoryStorage(), tabs = loneTabs(), net = link,
  engine = withSavedGame(ready.engine), idb = undefined } = {}) {
  const variants = ready.variants;
  const screens = fakeScreens(answers);
  const app = new AppController({
    engine, variants, screens, saves: new Saves({ engine, variants, storage, idb }), stats: new Stats(storage),
    store: memoryStore(), tabs: () => tabs, net, pageURL: () => "http://127.0.0.1:8000/",
    gameDeps: { cpuMinMs: 0, random: counter(11) },
  });
  return { app, engine, screens, storage };
}

const cpuGame = { variant: "classic", mode: "cpu", level: "easy", human: 0, clock: false };

/** Wait until fn() is true (a save arrives after the redraw that asked for it). */
async function waitFor(fn, what) {
  for (let i = 0; i < 2000; i++) {
    if (fn()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** IndexedDB as far as the page counts the worker's save key in it (or fails to open). */
function fakeIndexedDB({ count = 0, fails = false } = {}) {
  return {
    opened: 0,
    open() {
      this.opened++;
      const request = { result: null, onsuccess: null, onerror: null, onupgradeneeded: null };
      const store = { count: () => {
        const counting = { result: count, onsuccess: null, onerror: null };
        setTimeout(() => counting.onsuccess?.());
        return counting;
      } };
      request.result = { transaction: () => ({ objectStore: () => store }), close() {} };
      setTimeout(() => (fails ? request.onerror?.() : request.onsuccess?.()));
      return request;
    },
  };
}

const FINGERPRINT = "a=fingerprint:sha-256 00:11";

test("Play: a game against the CPU on screen, saved after every change with the page's data", async () => {
  const { app, engine, screens, storage } = flows();
  await app.play(cpuGame);
  const game = app.game;
  assert.deepEqual(screens.last(), ["game", "Classic Junqi", "cpu"]);
  assert.equal(game.ui, "setup");
  await game.confirm();
  await until(game, "play");
  await waitFor(() => engine.kept()?.summary.phase === "play", "the save of the game in play");
  assert.deepEqual(engine.kept().page, { clock: false, marks: "m" }, "the clock choice and the marks");
  // the summary is in local storage too: the start screen reads it before the engine is up
  assert.equal(JSON.parse(storage.getItem(SUMMARY_KEY)).games[0].summary.variant, "classic");
  assert.equal(app.saves.peek()[0].info.mode, "cpu");
});

test("a saved-games list the engine cannot give keeps the games the summaries offer", async () => {
  const engine = withSavedGame(ready.engine);
  let failing = false; // the worker's storage fails to list the saves (once, after a reload)
  const flaky = { ...engine, call: (request) => (failing && request.op === "saved_games"
    ? Promise.resolve({ ok: false, error: { code: "storage", message: "the browser's storage failed" } })
    : engine.call(request)) };
  const { app, storage } = flows({ engine: flaky });
  await app.play(cpuGame);
  await app.game.confirm();
  await until(app.game, "play");
  await waitFor(() => engine.kept()?.summary.phase === "play", "the save of the game in play");
  const id = app.saveId;
  app.toStart();
  failing = true;
  const found = await app.checkSaved();
  assert.deepEqual(found.map((e) => e.id), [id], "still offered: no answer is not no game");
  assert.equal(JSON.parse(storage.getItem(SUMMARY_KEY)).games[0].id, id, "the summaries kept");
  failing = false;
  assert.deepEqual((await app.checkSaved()).map((e) => e.id), [id]);
});

test("a new game keeps the unfinished one; the start screen offers both, newest first", async () => {
  const { app, engine, screens } = flows();
  await app.play(cpuGame);
  await app.game.confirm();
  await until(app.game, "play");
  await waitFor(() => engine.kept()?.summary.phase === "play", "the save of the game in play");
  const ply = app.game.view.ply;
  app.toStart();
  assert.deepEqual(screens.last(), ["start", ""]);
  assert.equal(app.game, null);
  // Play again: nothing is asked, nothing replaced.
  await app.play({ ...cpuGame, variant: "gunjin" });
  assert.deepEqual(screens.asked, []);
  assert.equal(app.game.variant, "gunjin");
  await waitFor(() => engine.store.size === 2, "the second game's save");
  app.toStart();
  const found = await app.checkSaved();
  assert.deepEqual(found.map((e) => e.info.variant), ["gunjin", "classic"]);
  assert.deepEqual(app.saves.peek().map((e) => e.id), found.map((e) => e.id), "the summaries say the same");
  // Continue the first: the same game, at the same move, the page's data back.
  await app.continueSaved(found[1]);
  assert.equal(app.game.variant, "classic");
  assert.equal(app.game.view.ply, ply);
  assert.equal(app.game.ui, "play");
  // and it is saved under its own id still: the Gunjin game is not touched
  await app.game.resign();
  await until(app.game, "over");
  await waitFor(() => engine.store.size === 1, "the finished game's save forgotten");
  assert.equal(engine.kept().summary.variant, "gunjin");
});

test("the browser keeps the newest of each kind and the most recent: a new game asks before it ends the oldest", async () => {
  assert.equal(MAX_SAVES, 5);
  const entry = (id, variant, mode = "cpu") => ({ id, info: { variant, mode } });
  // Newest first: five Classic games against the CPU and an older Gunjin one.
  const games = ["c1", "c2", "c3", "c4", "c5"].map((id) => entry(id, "classic")).concat(entry("g", "gunjin"));
  assert.deepEqual(crowded(games, "blind/cpu").map((e) => e.id), ["c5"], "the oldest Classic; Gunjin's only one stays");
  assert.deepEqual(crowded(games, "gunjin/cpu").map((e) => e.id), ["g", "c5"], "a new Gunjin game is its newest");
  assert.deepEqual(crowded(games.slice(0, 4), "classic/cpu"), [], "room for one more");
  assert.deepEqual(crowded([...games.slice(0, 4), entry("h", "classic", "hotseat")], "classic/cpu"), [],
    "the only game on one device stays");

  // Five saved Classic games against the CPU; a sixth game asks before it ends the oldest.
  const { app, engine, screens } = flows({ answers: [false, true] });
  await app.play(cpuGame);
  await waitFor(() => engine.store.size === 1, "the first save");
  const [[first, record]] = engine.store.entries();
  app.toStart();
  for (const id of ["b", "c", "d", "e"]) engine.store.set(id, { ...record, at: record.at + id.charCodeAt(0) });
  await app.play({ ...cpuGame, variant: "blind" });
  assert.match(screens.asked.at(-1), /^A new game ends your oldest unfinished game \(Classic Junqi · against the CPU \(Easy\) · setting up\): this browser keeps the 5 most recent/);
  assert.equal(app.game, null, "no: nothing started");
  assert.equal(engine.store.size, 5, "and nothing forgotten");
  // A game another tab plays is never the one that goes: no question, nothing ended.
  const busy = { ...loneTabs(), isHeld: async (tag) => tag === `saved-${first}` };
  const other = flows({ tabs: busy, engine });
  await other.app.play({ ...cpuGame, variant: "blind" });
  assert.deepEqual(other.screens.asked, []);
  await waitFor(() => engine.store.size === 6, "the sixth game saved");
  other.app.toStart();
  engine.store.delete(other.app.saves.peek()[0].id);
  // yes: the oldest is forgotten, the new game starts
  await app.play({ ...cpuGame, variant: "blind" });
  assert.equal(app.game.variant, "blind");
  assert.equal(engine.store.has(first), false);
  assert.deepEqual([...engine.store.keys()].sort().slice(0, 4), ["b", "c", "d", "e"]);
});

test("a saved game plays in one tab: another tab that continues it is told, can move it here, and the first stops saving", async () => {
  // One browser: its tabs share the locks, local storage and the worker's saved games.
  const browser = browserTabs();
  const storage = memoryStorage();
  const store = new Map();
  const tab = () => flows({ tabs: browser.tab(), storage, engine: withSavedGame(ready.engine, store) });
  const one = tab();
  await one.app.play(cpuGame);
  await one.app.game.confirm();
  await until(one.app.game, "play");
  await waitFor(() => one.engine.kept()?.summary.phase === "play", "tab 1's save");
  const [id] = store.keys();
  // Tab 2 offers the unfinished game and Continue: it is open in tab 1, not opened twice.
  const two = tab();
  const [offered] = two.app.saves.peek();
  assert.equal(offered.id, id);
  await two.app.continueSaved(offered);
  assert.deepEqual(two.screens.last(), ["elsewhere", `saved-${id}`,
    "This game is open in another tab of this browser. One tab plays it at a time."]);
  assert.equal(two.app.game, null);
  // Nor is it discarded under tab 1.
  assert.equal(await two.app.forgetSaved(id), false);
  assert.ok(store.has(id));
  // Tab 3 starts Gunjin: a save of its own, nothing asked; tab 1's next move keeps both.
  const three = tab();
  await three.app.play({ ...cpuGame, variant: "gunjin" });
  assert.deepEqual(three.screens.asked, []);
  await waitFor(() => store.size === 2, "tab 3's save");
  const gunjin = [...store.keys()].find((key) => key !== id);
  const [from, targets] = Object.entries(one.app.game.view.dests.moves)[0];
  await one.app.game.tap(from);
  await one.app.game.tap(targets[0].to); // and the CPU answers
  await until(one.app.game, "play");
  const ply = one.app.game.view.ply;
  await waitFor(() => store.get(id).summary.ply === ply, "tab 1's move saved");
  assert.equal(store.get(gunjin).summary.variant, "gunjin");
  assert.deepEqual((await two.app.checkSaved()).map((e) => e.id).sort(), [id, gunjin].sort());
  // Tab 2 moves it here: tab 1 lets go and says where it went; tab 2 goes on at the same move.
  await two.app.moveHere(`saved-${id}`);
  assert.deepEqual(one.screens.last(), ["notice", "This game moved to another tab of this browser: it goes on there."]);
  assert.equal(one.app.game, null);
  assert.equal(two.app.game.variant, "classic");
  assert.equal(two.app.game.view.ply, ply);
  // Tab 2 saves it now; a tab that lost its game writes nothing for it any more.
  const game = two.app.game;
  const move = async () => {
    const [from, targets] = Object.entries(game.view.dests.moves)[0];
    await game.tap(from);
    await game.tap(targets[0].to);
    await until(game, "play", "over");
  };
  await move();
  await waitFor(() => store.get(id).summary.ply === game.view.ply, "tab 2's move saved");
  const before = store.get(id);
  const saving = () => ready.engine.calls.filter((request) => request.op === "save").length;
  const asked = saving();
  browser.locks.set(`saved-${id}`, {}); // (as if another tab had taken it)
  two.app.relay.mine = null;
  await move(); // (a save is asked as the game changes: by now it would have been)
  assert.equal(saving(), asked, "no save asked");
  assert.equal(store.get(id), before);
});

test("the one save of an earlier version (and its summary) is offered and goes on after the upgrade", async () => {
  const storage = memoryStorage();
  const store = new Map();
  const { app, engine } = flows({ storage, engine: withSavedGame(ready.engine, store) });
  await app.play(cpuGame);
  await app.game.confirm();
  await until(app.game, "play");
  await waitFor(() => engine.kept()?.summary.phase === "play", "the save");
  const ply = app.game.view.ply;
  app.toStart();
  // As an earlier version left it: the save under "current", its summary in junqi.saved.v1.
  const [[id, record]] = store.entries();
  store.delete(id);
  store.set("current", record);
  storage.removeItem(SUMMARY_KEY);
  storage.setItem(OLD_SUMMARY_KEY, JSON.stringify({ v: 1, summary: record.summary, clock: false, at: 1 }));
  const later = flows({ storage, engine });
  const [offered] = later.app.saves.peek();
  assert.equal(offered.id, "current");
  assert.equal(offered.info.variant, "classic");
  await later.app.continueSaved(offered);
  assert.equal(later.app.game.view.ply, ply);
  await waitFor(() => storage.getItem(SUMMARY_KEY), "the summaries written as a list");
  assert.equal(storage.getItem(OLD_SUMMARY_KEY), null);
  assert.deepEqual(later.app.saves.peek().map((e) => e.id), ["current"]);
});

test("a refused Continue says whether the save is kept: kept for a passing failure, gone when damaged", async () => {
  const saved = withSavedGame(ready.engine);
  let refuse = null; // the worker's next answer to resume_game, if set
  const engine = { ...saved, call: (request) => (request.op === "resume_game" && refuse
    ? Promise.resolve({ ok: false, error: refuse }) : saved.call(request)) };
  const { app, screens } = flows({ engine });
  await app.play(cpuGame);
  await app.game.confirm();
  await until(app.game, "play");
  await waitFor(() => saved.kept()?.summary.phase === "play", "the save of the game in play");
  app.toStart();
  // the browser's storage failed this once: the save and its summary stay, and the page says so
  refuse = { code: "storage", message: "the browser's storage failed" };
  await app.continueSaved((await app.checkSaved())[0]);
  assert.equal(app.game, null);
  assert.match(app.takeNotice(), /kept/);
  assert.equal(app.saves.peek().length, 1, "the summary is still there");
  // damaged: the worker discarded it, and the page says that
  refuse = { code: "bad_save", message: "not a save" };
  await app.continueSaved((await app.checkSaved())[0]);
  assert.match(app.takeNotice(), /discarded/);
  assert.deepEqual(app.saves.peek(), [], "the summary went with it");
  assert.deepEqual(screens.last()[0], "start");
});

test("an early Play asks even when no local summary tells of the saved games", async () => {
  // Five games saved in the worker (a sixth would end the oldest); the summaries in local
  // storage lost (or never written).
  const storage = memoryStorage();
  const first = flows({ storage });
  await first.app.play(cpuGame);
  await first.app.game.confirm();
  await until(first.app.game, "play");
  await waitFor(() => first.engine.kept()?.summary.phase === "play", "the save of the game in play");
  await waitFor(() => storage.getItem(SUMMARY_KEY), "the summary of the save");
  first.app.toStart();
  const record = first.engine.kept();
  for (const id of ["b", "c", "d", "e"]) first.engine.store.set(id, { ...record, at: -id.charCodeAt(0) });
  // A reload: the engine is not up yet (its calls wait), nothing on the page tells of the save.
  let up;
  const whenUp = new Promise((resolve) => (up = resolve));
  const early = { ...first.engine, ready: false,
    call: async (request) => (await whenUp, first.engine.call(request)) };
  for (const [idb, asks] of [[fakeIndexedDB({ count: 1 }), true], [undefined, true],
    [fakeIndexedDB({ fails: true }), true], [fakeIndexedDB({ count: 0 }), false]]) {
    storage.removeItem(SUMMARY_KEY); // (the engine's answer brings it back each time)
    const { app, screens } = flows({ storage, engine: early, idb, answers: [false] });
    assert.deepEqual(app.saves.peek(), []);
    const playing = app.play({ ...cpuGame, variant: "gunjin" });
    up();
    await playing;
    if (asks) {
      // the storage holds a save (or cannot say): the engine was waited for, and the player asked
      assert.match(screens.asked.at(-1) ?? "", /\(Classic Junqi · against the CPU \(Easy\) · move \d+\)/);
      assert.equal(app.game, null, "no: nothing started");
      assert.equal(first.engine.store.size, 5, "and the saves are kept");
    } else {
      // no save key in the storage: no question, the new game starts at once
      assert.deepEqual(screens.asked, []);
      assert.equal(app.game?.variant, "gunjin");
      app.toStart();
    }
  }
});

test("a new friend game asks before it replaces this browser's unfinished one", async () => {
  const storage = memoryStorage();
  const record = JSON.stringify({ v: 1, match: "0123456789abcdef", role: "host", variant: "classic",
    state: "{}", updated: 0 });
  storage.setItem("junqi.friend.v1", record);
  storage.setItem("junqi.friend.v1.clock", JSON.stringify({ stage: "setup" }));
  const host = { variant: "classic", mode: "friend", role: "host", net: "lan", clock: false };
  const { app, screens } = flows({ storage, answers: [false] });
  await app.play(host);
  assert.equal(screens.asked.at(-1),
    "A new game with a friend ends your unfinished game with a friend on this browser.");
  assert.equal(app.game, null, "no: nothing started");
  assert.equal(storage.getItem("junqi.friend.v1"), record, "the unfinished game is kept");
  // A game another tab plays is not asked about here (startFriend says it is played there).
  const elsewhere = flows({ storage, tabs: { ...loneTabs(), isHeld: async () => true, hold: async () => false } });
  await elsewhere.app.play(host);
  assert.deepEqual(elsewhere.screens.asked, []);
  assert.equal(elsewhere.screens.last()[0], "elsewhere");
});

test("New game and Change mode abandon the game under way only when the player says so", async () => {
  const { app, engine, screens } = flows({ answers: [false, true] });
  await app.play(cpuGame);
  await app.game.confirm();
  await until(app.game, "play");
  await waitFor(() => engine.kept()?.summary.phase === "play", "the save of the game in play");
  const first = app.game;
  await app.newGame();
  assert.equal(app.game, first, "not confirmed: the game stays");
  assert.ok(engine.kept(), "and so does its save");
  await app.changeMode();
  assert.deepEqual(screens.last(), ["start", ""]);
  assert.equal(engine.kept(), null, "abandoned: its save is forgotten");
  assert.equal(first.session.gameId, null, "the controller was disposed");
});

test("a rematch against the CPU is a new game, seats switched; a replay comes back to the end", async () => {
  const { app, screens } = flows();
  await app.play(cpuGame);
  await app.game.confirm();
  await until(app.game, "play");
  await app.game.resign();
  await until(app.game, "over");
  const first = app.game;
  await app.replayFinished();
  assert.deepEqual(screens.last(), ["replay", "classic"]);
  assert.ok(app.replay);
  app.closeReplay();
  assert.deepEqual(screens.shown.slice(-2), [["replay closed"], ["back to game"]]);
  assert.equal(app.game, first);
  await app.rematch();
  assert.notEqual(app.game, first);
  assert.equal(app.game.session.human, 1);
  assert.equal(app.stats.rows().length, 1, "the resigned game was counted");
});

test("records and replay links that are not: refused with the engine's reason", async () => {
  const { app, screens } = flows();
  assert.equal(await app.openRecordFile({ size: 2_000_000, text: async () => "" }), false);
  assert.deepEqual(screens.last(),
    ["start notice", "This file cannot be replayed: the file is far larger than any game record.", true]);
  assert.equal(await app.openRecordFile({ size: 10, text: async () => "{}" }), false);
  assert.match(screens.last()[1], /^This file cannot be replayed: /);
  await app.openReplayLink("not-a-link");
  assert.deepEqual(screens.shown.slice(-3, -1), [["replay", null], ["replay closed"]],
    "the replay screen first, closed when the engine refused the link");
  assert.equal(screens.last()[0], "start");
  assert.match(screens.last()[1], /^This replay link does not work: /);
});

test("a replay link opens straight into its replay, filled in when the engine answers", async () => {
  // A finished game's link, made by the engine.
  const { app: maker } = flows();
  await maker.play(cpuGame);
  await maker.game.confirm();
  await until(maker.game, "play");
  await maker.game.resign();
  await until(maker.game, "over");
  const payload = await maker.game.recordLink();
  assert.ok(payload);
  // Another page, its engine not up yet: the replay screen at once, before any answer.
  let up;
  const whenUp = new Promise((resolve) => (up = resolve));
  const engine = withSavedGame(ready.engine);
  const early = { ...engine, ready: false, call: async (request) => (await whenUp, engine.call(request)) };
  const { app, screens } = flows({ engine: early });
  const opening = app.openReplayLink(payload);
  assert.deepEqual(screens.shown, [["replay", null]], "no start screen first");
  assert.equal(app.replay.busy, true);
  assert.equal(app.replay.title(), "Replay");
  up();
  await opening;
  assert.deepEqual(screens.shown, [["replay", null]], "the same screen, filled in");
  assert.equal(app.replay.variant, "classic");
  assert.equal(app.replay.viewer, "all");
  assert.equal(app.replay.busy, false);
  // Closed before the engine answers: nothing comes back.
  const again = flows({ engine: early });
  const closing = again.app.openReplayLink(payload);
  again.app.closeReplay();
  await closing;
  assert.deepEqual(again.screens.shown.map((s) => s[0]), ["replay", "replay closed", "start"]);
  assert.equal(again.app.replay, null);
});

test("a friend's code: this page's own, the Join screen, no code, a reply nobody waits for", async () => {
  // A channel that gathers at once (no WebRTC in Node): the host's page makes its link.
  const channel = { sdp: `v=0\r\n${FINGERPRINT}\r\n`, certificate: null, on() {
    return this;
  }, close() {} };
  const net = { ...link, Channel: { offer: async () => channel } };
  const host = flows({ net });
  await host.app.play({ variant: "classic", mode: "friend", role: "host", net: "lan", clock: false });
  assert.deepEqual(host.screens.last(), ["game", "Play with a friend", "friend"]);
  const code = host.app.game.session.connection.link.code;
  assert.equal(host.app.saves.friend.load().role, "host", "saved as it started");
  await host.app.openCode(code);
  assert.deepEqual(host.screens.last(),
    ["notice", "This is your own invitation: send it to your friend, who opens it on their device."]);
  // Another browser: what the invitation offers, before the player joins.
  const guest = flows({ net });
  await guest.app.openCode(code);
  const [screen, about] = guest.screens.last();
  assert.equal(screen, "join");
  assert.deepEqual(about, { offer: { variant: "Classic Junqi", rules: "Standard", clock: "no clock" },
    replaces: false });
  await guest.app.openCode("J2-not-a-code");
  assert.equal(guest.screens.last()[0], "notice");
  const reply = await link.encodeSignal({ kind: "answer", net: "lan", game: "0123456789abcdef",
    sdp: `v=0\r\n${FINGERPRINT}\r\n` });
  await guest.app.openCode(reply);
  assert.match(guest.screens.last()[1], /^This is a reply to an invitation, but no game on this browser/);
});

test("a code put into the open page's address: the Join screen, asked over a game; the host's page takes its reply", async () => {
  const accepted = [];
  const channel = { sdp: `v=0\r\n${FINGERPRINT}\r\n`, certificate: null, on() {
    return this;
  }, close() {}, async accept(sdp) {
    accepted.push(sdp);
  } };
  const net = { ...link, Channel: { offer: async () => channel } };
  const host = flows({ net });
  await host.app.play({ variant: "classic", mode: "friend", role: "host", net: "lan", clock: false });
  const connection = host.app.game.session.connection;
  const invitation = connection.link.code;
  // A page on the start screen: the invitation's Join screen, as when opened afresh.
  const guest = flows({ net, answers: [false, true] });
  guest.app.toStart();
  await guest.app.openChangedCode(invitation);
  assert.equal(guest.screens.last()[0], "join");
  // A game under way there: asked first; "no" keeps the game, "yes" opens the invitation.
  await guest.app.play(cpuGame);
  const game = guest.app.game;
  await guest.app.openChangedCode(invitation);
  assert.deepEqual(guest.screens.asked, ["Abandon this game and open the link to a game with a friend?"]);
  assert.equal(guest.app.game, game, "the game stays on screen");
  assert.equal(guest.screens.last()[0], "game");
  await guest.app.openChangedCode(invitation);
  assert.equal(guest.screens.asked.length, 2);
  assert.equal(guest.app.game, null);
  assert.equal(guest.screens.last()[0], "join");
  // The host's page, waiting: its own invitation is refused in its panel (the game goes
  // on waiting), the reply is taken there, unasked; no other screen shows.
  const shown = host.screens.shown.length;
  await host.app.openChangedCode(invitation);
  assert.equal(connection.linkError, "it is this page's own invitation, for your friend to open");
  assert.equal(connection.conn, "invite");
  const sdp = `v=0\r\n${FINGERPRINT}\r\na=reply\r\n`;
  const reply = await link.encodeSignal({ kind: "answer", net: "lan", game: connection.match, sdp });
  await host.app.openChangedCode(reply);
  await waitFor(() => accepted.length === 1, "the reply accepted");
  assert.deepEqual(accepted, [sdp]);
  assert.equal(connection.conn, "connecting");
  assert.equal(host.app.game?.session.connection, connection);
  assert.equal(host.screens.shown.length, shown, "no other screen");
  assert.deepEqual(host.screens.asked, []);
  host.app.toStart(); // its clock stops
});

test("a friend game played in another tab is not opened twice: it can be moved here", async () => {
  const tabs = { ...loneTabs(), hold: async () => false, take: async () => true, released: 0,
    release() {
      this.released++;
    } };
  const storage = memoryStorage();
  storage.setItem("junqi.friend.v1", JSON.stringify({ v: 1, match: "feedfacefeedface", role: "host",
    state: "{}", updated: Date.now() }));
  storage.setItem("junqi.friend.v1.clock", JSON.stringify({ stage: "play" }));
  const { app, screens } = flows({ tabs, storage });
  await app.openRecent();
  assert.deepEqual(screens.last(), ["elsewhere", "feedfacefeedface",
    "This game is open in another tab of this browser. One tab plays it at a time."]);
  // The player moves it here; the screen was left meanwhile: nothing is opened, the lock let go.
  const moving = app.moveHere("feedfacefeedface");
  app.toStart();
  await moving;
  assert.equal(screens.last()[0], "start");
  assert.ok(tabs.released > 0);
});

test("without Web Locks (an old browser) every tab plays and saves what it shows, as before", async () => {
  const { TabRelay } = await import("../../web/js/net/tabs.js");
  const tabs = new TabRelay(null, null); // no BroadcastChannel, no Web Locks
  const { app, engine } = flows({ tabs });
  await app.play(cpuGame);
  await app.game.confirm();
  await until(app.game, "play");
  await waitFor(() => engine.kept()?.summary.phase === "play", "the save");
  app.toStart();
  const [entry] = await app.checkSaved();
  await app.continueSaved(entry);
  assert.equal(app.game.variant, "classic");
  assert.equal(await app.forgetSaved(entry.id), true);
});
