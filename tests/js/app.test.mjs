// The app controller (web/js/ui/ctrl/app.js) in Node: the flows from screen to screen with
// the real engine behind the worker's saved-game ops, screens that only note what they
// were asked to draw, and tabs that play nothing. Run: node --test tests/js/

import { test } from "node:test";
import assert from "node:assert/strict";
import { AppController } from "../../web/js/ui/ctrl/app.js";
import { Saves, SUMMARY_KEY } from "../../web/js/ui/ctrl/saves.js";
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
    async isHeld() { return false; }, async pass() { return false; }, async take() { return true; },
    release() {} };
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
  assert.equal(JSON.parse(storage.getItem(SUMMARY_KEY)).summary.variant, "classic");
  assert.equal(app.saves.peek().info.mode, "cpu");
});

test("a new game asks before it replaces the saved one; Continue goes on with it", async () => {
  const { app, engine, screens } = flows({ answers: [false] });
  await app.play(cpuGame);
  await app.game.confirm();
  await until(app.game, "play");
  await waitFor(() => engine.kept()?.summary.phase === "play", "the save of the game in play");
  const ply = app.game.view.ply;
  app.toStart();
  assert.deepEqual(screens.last(), ["start", ""]);
  assert.equal(app.game, null);
  // Play again: the saved game would be replaced; the player says no.
  await app.play({ ...cpuGame, variant: "gunjin" });
  assert.match(screens.asked.at(-1), /Classic Junqi · against the CPU \(Easy\) · move \d+/);
  assert.equal(app.game, null, "nothing started");
  // Continue: the same game, at the same move, the page's data back.
  const found = await app.checkSaved();
  await app.continueSaved(found.info);
  assert.equal(app.game.variant, "classic");
  assert.equal(app.game.view.ply, ply);
  assert.equal(app.game.ui, "play");
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
  await app.continueSaved((await app.checkSaved()).info);
  assert.equal(app.game, null);
  assert.match(app.takeNotice(), /kept/);
  assert.ok(app.saves.peek(), "the summary is still there");
  // damaged: the worker discarded it, and the page says that
  refuse = { code: "bad_save", message: "not a save" };
  await app.continueSaved((await app.checkSaved()).info);
  assert.match(app.takeNotice(), /discarded/);
  assert.equal(app.saves.peek(), null, "the summary went with it");
  assert.deepEqual(screens.last()[0], "start");
});

test("an early Play asks even when no local summary tells of the saved game", async () => {
  // A game saved in the worker; the summary in local storage lost (or never written).
  const storage = memoryStorage();
  const first = flows({ storage });
  await first.app.play(cpuGame);
  await first.app.game.confirm();
  await until(first.app.game, "play");
  await waitFor(() => first.engine.kept()?.summary.phase === "play", "the save of the game in play");
  await waitFor(() => storage.getItem(SUMMARY_KEY), "the summary of the save");
  first.app.toStart();
  // A reload: the engine is not up yet (its calls wait), nothing on the page tells of the save.
  let up;
  const whenUp = new Promise((resolve) => (up = resolve));
  const early = { ...first.engine, ready: false,
    call: async (request) => (await whenUp, first.engine.call(request)) };
  for (const [idb, asks] of [[fakeIndexedDB({ count: 1 }), true], [undefined, true],
    [fakeIndexedDB({ fails: true }), true], [fakeIndexedDB({ count: 0 }), false]]) {
    storage.removeItem(SUMMARY_KEY); // (the engine's answer brings it back each time)
    const { app, screens } = flows({ storage, engine: early, idb, answers: [false] });
    assert.equal(app.saves.peek(), null);
    const playing = app.play({ ...cpuGame, variant: "gunjin" });
    up();
    await playing;
    if (asks) {
      // the storage holds a save (or cannot say): the engine was waited for, and the player asked
      assert.match(screens.asked.at(-1) ?? "", /Classic Junqi · against the CPU \(Easy\) · move \d+/);
      assert.equal(app.game, null, "no: nothing started");
      assert.equal(first.engine.kept()?.summary.variant, "classic", "and the save is kept");
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
