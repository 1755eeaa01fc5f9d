// GameController in Node against the real engine (CPython): flows, hidden information,
// no rule knowledge in JS, words from the right seat, the clock. Run: node --test tests/js/

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Stale } from "../../web/js/ui/ctrl/game.js";
import { newGame } from "../../web/js/ui/ctrl/session.js";
import * as i18n from "../../web/js/ui/i18n.js";
import * as words from "../../web/js/ui/ctrl/words.js";
import { bridge, useLanguage, fakeTimers, memoryStore, until, counter } from "./support.mjs";

let engine;
let variants;

before(async () => {
  useLanguage("en");
  engine = bridge();
  variants = (await engine.call({ op: "variants" })).variants;
});

after(() => engine.close());

function game(options, extra = {}) {
  return newGame({
    engine,
    desc: variants[options.variant],
    options,
    store: memoryStore(),
    random: counter(7),
    cpuMinMs: 0,
    ...extra,
  });
}

/** Calls the controller made to the engine while fn ran. */
async function callsDuring(fn) {
  const start = engine.calls.length;
  await fn();
  return engine.calls.slice(start).map((r) => r.op);
}

test("a game against the CPU: setup, swap, confirm, move, the CPU answers", async () => {
  const g = game({ variant: "classic", mode: "cpu", level: "easy", human: 0 });
  const seen = [];
  g.subscribe((what) => seen.push(what));
  await g.start();
  assert.equal(g.ui, "setup");
  assert.ok(seen.length > 0, "the screen was told to redraw");
  assert.equal(g.viewer, 0);
  const own = Object.entries(g.view.board).filter(([, p]) => p.owner === 0);
  assert.equal(own.length, 25);
  assert.equal(g.messageText(), "Tap two of your pieces to swap them, then confirm.");

  // Swap two pieces of the same middle rank (always allowed).
  const [a, b] = own.map(([sq]) => sq).filter((sq) => sq.endsWith("3") && !sq.startsWith("hq"));
  const before = { a: g.view.board[a].kind, b: g.view.board[b].kind };
  assert.deepEqual(await callsDuring(() => g.tap(a)), [], "picking a piece needs no engine");
  assert.equal(g.pick, a);
  assert.deepEqual(await callsDuring(() => g.tap(b)), ["setup_swap"]);
  assert.equal(g.view.board[a].kind, before.b);
  assert.equal(g.view.board[b].kind, before.a);
  assert.match(g.messageText(), new RegExp(`Swapped ${a} and ${b}`));

  await g.confirm();
  await until(g, "play");
  assert.equal(g.view.phase, "play");
  assert.equal(g.view.turn, 0);
  assert.ok(g.view.dests, "the engine sends the destinations of the side to move");

  // Select a piece that can move: its targets are exactly the view's dests, no round trip.
  const [from, targets] = Object.entries(g.view.dests.moves)[0];
  assert.deepEqual(await callsDuring(() => g.tap(from)), []);
  assert.equal(g.selected, from);
  assert.deepEqual(g.targets, targets);
  assert.equal(g.boardState().targets, g.targets);
  const ply = g.view.ply;
  const ops = await callsDuring(() => g.tap(targets[0].to));
  assert.deepEqual(ops, ["act", "cpu_act"]);
  await until(g, "play", "over");
  assert.ok(g.view.ply >= ply + 2, "the player's move and the CPU's answer");
  assert.match(g.messageText(), /CPU moves|Moved|Your /);
  g.dispose();
});

test("taps the engine did not offer do nothing and ask nothing", async () => {
  const g = game({ variant: "gunjin", mode: "cpu", level: "easy", human: 0 });
  await g.start();
  await g.confirm();
  await until(g, "play");
  const movable = new Set(Object.keys(g.view.dests.moves));
  const stuck = Object.entries(g.view.board)
    .find(([sq, p]) => p.owner === 0 && !movable.has(sq))?.[0];
  assert.ok(stuck, "some piece cannot move at the start (the back rank)");
  const ops = await callsDuring(() => g.tap(stuck));
  assert.deepEqual(ops, []);
  assert.equal(g.selected, null);
  assert.match(g.messageText(), /cannot move now/);
  // An enemy piece no selected piece can reach: nothing.
  const enemy = Object.entries(g.view.board).find(([, p]) => p.owner === 1)[0];
  assert.deepEqual(await callsDuring(() => g.tap(enemy)), []);
  assert.equal(g.selected, null);
  g.dispose();
});

test("Blind Junqi: a flip is one of the engine's dests", async () => {
  const g = game({ variant: "blind", mode: "cpu", level: "easy", human: 0 });
  await g.start();
  await until(g, "play");
  assert.ok(g.view.dests.flips.length > 0);
  assert.equal(g.messageText(), "Tap a face-down piece to flip it, or one of your face-up pieces to move it.");
  const square = g.view.dests.flips[0];
  assert.deepEqual(await callsDuring(() => g.tap(square)), ["act", "cpu_act"]);
  await until(g, "play", "over");
  assert.equal(g.view.board[square].down, false);
  assert.ok(g.view.colours, "the first flip decides the colours");
  assert.match(g.messageText(), /You flipped/);
  g.dispose();
});

test("the engine is not ready yet: the game waits in the 'engine' state", async () => {
  let release;
  const slow = {
    ready: false,
    whenReady: new Promise((resolve) => (release = resolve)),
    call: (r) => engine.call(r),
  };
  const g = game({ variant: "classic", mode: "cpu", level: "easy" }, { engine: slow });
  const started = g.start();
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(g.ui, "engine");
  assert.equal(g.statusText(), "Starting the engine…");
  assert.equal(g.controls().confirm.shown, false);
  slow.ready = true;
  release();
  await started;
  assert.equal(g.ui, "setup");
  g.dispose();
});

test("hot seat: the curtain holds no ranks; a draw offer is said once", async () => {
  const g = game({ variant: "classic", mode: "hotseat" });
  await g.start();
  assert.equal(g.ui, "curtain");
  assert.equal(g.viewer, null);
  const secret = () => Object.values(g.view.board).filter((p) => p.kind);
  for (const seat of [0, 1]) {
    assert.equal(g.ui, "curtain");
    assert.equal(g.curtainSeat, seat);
    assert.deepEqual(secret(), []);
    assert.equal(g.messageText(), "");
    await g.openCurtain();
    assert.equal(g.ui, "setup");
    assert.equal(g.viewer, seat);
    assert.equal(g.seat, seat, "own side at the bottom");
    await g.confirm();
  }
  // Red moves and offers a draw; Blue is told once.
  await g.openCurtain();
  assert.equal(g.ui, "play");
  assert.equal(g.messageText(), "You make the first move.");
  await g.offer();
  assert.match(g.messageText(), /You offered a draw/);
  // The offer says what it waits for: Blue's answer, until the end of Blue's turn.
  assert.match(g.messageText(), /Blue may accept or decline your draw offer until the end of their next turn/);
  const [from, targets] = Object.entries(g.view.dests.moves)[0];
  await g.tap(from);
  await g.tap(targets[0].to);
  assert.equal(g.ui, "moved");
  assert.equal(g.controls().changeTurn.shown, true);
  await g.changeTurn();
  assert.equal(g.ui, "curtain");
  assert.deepEqual(secret(), []);
  await g.openCurtain();
  assert.equal(g.viewer, 1);
  assert.ok(g.offerPending());
  const text = g.messageText();
  assert.equal(text.split("offers a draw").length - 1, 1, text);
  assert.match(text, /accept or decline it, or move on and the offer lapses/);
  assert.equal(g.controls().accept.shown, true);
  await g.answer(false);
  assert.equal(g.offerPending(), false);
  assert.match(g.messageText(), /Blue declines the draw/);
  g.dispose();
});

test("resigning ends the game; the record and the rematch follow", async () => {
  const g = game({ variant: "classic", mode: "cpu", level: "easy", human: 0 });
  await g.start();
  await g.confirm();
  await until(g, "play");
  let ended = null;
  g.fx.end = (result) => (ended = result);
  await g.resign();
  await until(g, "over");
  assert.deepEqual(ended, { winner: 1, reason: "resignation" });
  assert.match(g.messageText(), /You resigned\./);
  assert.equal(g.controls().rematch.shown, true);
  assert.equal(g.controls().resign.shown, false);
  // Rematch: the same game with sides switched.
  assert.equal(g.nextOptions(true).human, 1);
  const record = await g.record();
  assert.equal(record.result.reason, "resignation");
  g.dispose();
});

test("Continue: the message says whose turn it is and what the last move was", async () => {
  const first = game({ variant: "classic", mode: "cpu", level: "easy", human: 0 });
  await first.start();
  await first.confirm();
  await until(first, "play");
  const [from, targets] = Object.entries(first.view.dests.moves)[0];
  await first.tap(from);
  await first.tap(targets[0].to);
  await until(first, "play", "over");
  assert.equal(first.ui, "play", "two moves end nothing");
  // The saved game as the worker's resume_game gives it back, opened on a new screen.
  const restored = { ok: true, game: first.session.gameId, view: first.view };
  const last = first.view.history.at(-1);
  assert.equal(last.player, 1, "the CPU moved last");
  const g = game({ variant: "classic", mode: "cpu", level: "easy", human: 0, restored });
  await g.start();
  assert.equal(g.ui, "play");
  assert.equal(g.messageText(), `Game continued: your turn. Last move: CPU moves ${last.from}–${last.to}.`
    + (last.combat ? ` ${words.combatText(last, g.ctx())}` : ""));
  useLanguage("ja");
  assert.ok(g.messageText().startsWith("対局を再開しました。あなたの手番です。"), g.messageText());
  useLanguage("en");
  g.dispose();
});

test("the message line follows a language change", async () => {
  const g = game({ variant: "classic", mode: "cpu", level: "easy", human: 0 });
  await g.start();
  assert.equal(g.messageText(), "Tap two of your pieces to swap them, then confirm.");
  useLanguage("es");
  assert.notEqual(g.messageText(), "Tap two of your pieces to swap them, then confirm.");
  assert.equal(g.messageText(), i18n.t("setup.hint"));
  useLanguage("en");
  g.dispose();
});

test("piece labels: characters or words, and rank numbers from the description", () => {
  let labels = "words";
  const g = game({ variant: "classic", mode: "cpu", level: "easy" }, { settings: () => ({ labels }) });
  assert.equal(g.label("field_marshal"), "Marshal");
  labels = "characters";
  assert.equal(g.label("field_marshal"), "司令");
  assert.equal(g.rank("field_marshal"), 9);
  assert.equal(g.rank("flag"), null);
});

test("hot-seat clock: deployment time-out confirms a random layout", async () => {
  const timers = fakeTimers();
  const g = game({ variant: "classic", mode: "hotseat", clock: true },
    { timers, setupSeconds: 2, clockSeconds: 2 });
  await g.start();
  await g.openCurtain();
  assert.equal(g.ui, "setup");
  assert.deepEqual(g.clock, { left: 2, setup: true, timeouts: 0, max: 3 });
  timers.advance(2100);
  await until(g, "curtain");
  assert.equal(g.curtainSeat, 1);
  assert.equal(g.clock, null);
  g.dispose();
});

test("a game left behind drops its late answers", async () => {
  const g = game({ variant: "classic", mode: "cpu", level: "easy" });
  await g.start();
  const pending = g.call({ op: "view", player: 0 });
  g.dispose();
  await assert.rejects(pending, Stale);
});

test("a layout confirmed as the first player is offered, turned round, when playing second", async () => {
  const store = memoryStore();
  const first = game({ variant: "classic", mode: "cpu", level: "easy", human: 0 }, { store });
  await first.start();
  const mine = Object.fromEntries(
    Object.entries(first.view.board).filter(([, p]) => p.owner === 0).map(([sq, p]) => [sq, p.kind]));
  store.saveLayout("classic", 0, mine);
  const second = game({ variant: "classic", mode: "cpu", level: "easy", human: 1 }, { store });
  await second.start();
  assert.ok(second.hasPrevious());
  await second.previous();
  const own = Object.entries(second.view.board).filter(([, p]) => p.owner === 1);
  assert.equal(own.length, 25);
  // the flag stood in b1 or d1; turned round it stands in Blue's headquarters, d12 or b12
  const flag = { b1: "d12", d1: "b12" }[Object.keys(mine).find((sq) => mine[sq] === "flag")];
  assert.equal(second.view.board[flag].kind, "flag");
});

test("setup Undo takes back each change in turn: swaps, random and mirrored layouts", async () => {
  const g = game({ variant: "classic", mode: "cpu", level: "easy", human: 0 });
  await g.start();
  const layout = () => JSON.stringify(g.ownLayout());
  assert.equal(g.controls().undo.shown, true);
  assert.equal(g.controls().undo.enabled, false, "nothing to undo yet");
  const first = layout();
  const own = Object.keys(g.ownLayout()).filter((sq) => sq.endsWith("3") && !sq.startsWith("hq"));
  await g.tap(own[0]);
  await g.tap(own[1]);
  const swapped = layout();
  assert.notEqual(swapped, first);
  await g.randomLayout();
  const random = layout();
  await g.mirror();
  assert.notEqual(layout(), random);
  assert.equal(g.controls().undo.enabled, true);
  assert.deepEqual(await callsDuring(() => g.undo()), ["setup_set"]);
  assert.equal(layout(), random, "the mirror is undone");
  assert.match(g.messageText(), /Undone: the left-right swap/);
  await g.undo();
  assert.equal(layout(), swapped, "the random layout is undone");
  await g.undo();
  assert.equal(layout(), first, "the swap is swapped back");
  assert.match(g.messageText(), new RegExp(`Undone: the swap of ${own[0]} and ${own[1]}`));
  assert.equal(g.controls().undo.enabled, false, "back at the start: nothing more to undo");
  assert.deepEqual(await callsDuring(() => g.undo()), [], "an Undo with nothing to undo asks nothing");
  // Confirmed: the setup is over, and so is its Undo.
  await g.tap(own[0]);
  await g.tap(own[1]);
  await g.confirm();
  await until(g, "play");
  assert.equal(g.controls().undo.shown, false);
  assert.equal(g.canUndo(), false);
  g.dispose();
});

test("hot seat: the curtain forgets the last player's undo steps", async () => {
  const g = game({ variant: "classic", mode: "hotseat" });
  await g.start();
  await g.openCurtain();
  assert.equal(g.ui, "setup");
  await g.randomLayout();
  assert.equal(g.canUndo(), true);
  await g.confirm();
  await until(g, "curtain");
  assert.deepEqual(g.undoStack, [], "no layout of the first player is kept under the curtain");
  await g.openCurtain();
  assert.equal(g.canUndo(), false);
  g.dispose();
});

test("hot-seat clock: a move time-out names who ran out of time", async () => {
  const timers = fakeTimers();
  const g = game({ variant: "classic", mode: "hotseat", clock: true },
    { timers, setupSeconds: 60, clockSeconds: 2 });
  await g.start();
  for (const seat of [0, 1]) {
    await g.openCurtain();
    assert.equal(g.viewer, seat);
    await g.confirm();
  }
  await g.openCurtain();
  assert.equal(g.ui, "play");
  timers.advance(2100);
  await until(g, "moved");
  assert.match(g.messageText(), /^Red ran out of time: the turn passes \(time-outs 1\/3\)/);
  g.dispose();
});

test("Blind on one device: 'You' and 'the other player' while a player looks", async () => {
  const g = game({ variant: "blind", mode: "hotseat" });
  await g.start();
  assert.equal(g.ui, "curtain");
  assert.equal(g.sideName(0), "First player", "at the curtain: the seats by their order");
  assert.match(g.curtainText().text, /First player/);
  await g.openCurtain();
  assert.equal(g.ui, "play");
  assert.equal(g.sideName(0), "You");
  assert.equal(g.sideName(1), "The other player");
  assert.equal(g.statusText(), "Your turn.");
  await g.tap(g.view.dests.flips[0]);
  assert.equal(g.ui, "moved");
  assert.match(g.sideName(0), /^You \((red|blue)\)$/);
  assert.match(g.sideName(1), /^The other player \((red|blue)\)$/);
  assert.match(g.sidesText(), /^You \(\w+\) · The other player \(\w+\)$/);
  await g.changeTurn();
  assert.match(g.sideName(1), /^Second player/, "the curtain again: the seats by their order");
  await g.openCurtain();
  // The second player reads the first one's flip in the same words.
  assert.equal(g.viewer, 1);
  assert.match(g.messageText(), /^The other player \(\w+\) flips /);
  const line = words.moveLine(g.view.history[0], g.ctx());
  assert.match(line, /^1\. The other player \(\w+\): flips/);
  // The button grid reads the other player's piece as theirs ("The other player (red) Flag").
  const theirs = Object.keys(g.view.board).filter((sq) => g.view.board[sq].owner === 0);
  const flipped = g.view.history[0].square;
  const labels = () => theirs.map((sq) => g.squareInfo(sq).label).join("\n");
  assert.doesNotMatch(labels(), /The other player/, labels());
  assert.equal(g.view.board[flipped].owner, 0, "the first flip turned up one of the first player's");
  assert.match(g.squareInfo(flipped).label, /^\w+: the other player's /);
  for (const [lang, wrong] of [["es", /de El otro/], ["pt", /de O outro/]]) {
    useLanguage(lang);
    assert.doesNotMatch(labels(), wrong, labels());
  }
  useLanguage("en");
  g.dispose();
});
