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

function flows({ answers = [], storage = memoryStorage(), tabs = loneTabs(), net = link } = {}) {
  const engine = withSavedGame(ready.engine);
  const variants = ready.variants;
  const screens = fakeScreens(answers);
  const app = new AppController({
    engine, variants, screens, saves: new Saves({ engine, variants, storage }), stats: new Stats(storage),
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
  assert.equal(screens.last()[0], "start");
  assert.match(screens.last()[1], /^This replay link does not work: /);
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
