// Four seats (Siguo) in the page's controllers, against the real engine (CPython): the
// start screen's seats, a person against three CPUs (one CPU move at a time, a short
// log), people sharing the screen (the curtain only between two people), saved games.
// Run: node --test tests/js/

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { newGame } from "../../web/js/ui/ctrl/session.js";
import { StartController, PERSON } from "../../web/js/ui/ctrl/start.js";
import { describeSaved, resumeOptions, savedText } from "../../web/js/ui/ctrl/saves.js";
import { LOG_LINES } from "../../web/js/ui/ctrl/table.js";
import * as words from "../../web/js/ui/ctrl/words.js";
import { bridge, useLanguage, memoryStore, until, counter, fakeTimers } from "./support.mjs";

let engine;
let variants;
let info;

before(async () => {
  useLanguage("en");
  engine = bridge();
  variants = (await engine.call({ op: "variants" })).variants;
  info = await engine.call({ op: "version" });
});

after(() => engine.close());

function game(options, extra = {}) {
  return newGame({ engine, desc: variants[options.variant], options, store: memoryStore(),
    random: counter(11), cpuPaceMs: 0, ...extra });
}

/** Every rank the view shows of a seat other than `seat` (none may be shown before the
 * end, but a flag shown to all). */
function foreignRanks(view, seat) {
  return Object.entries(view.board).filter(([, p]) => p.owner !== seat && p.kind
    && !(p.kind === "flag" && view.flags_shown[p.owner])).map(([sq, p]) => `${sq}=${p.kind}`);
}

test("the start screen offers Siguo's four seats: you South, Medium CPUs elsewhere, no Hard", () => {
  const start = new StartController({ info, variants, store: memoryStore() });
  assert.ok(start.variantIds().includes("siguo"));
  start.choose("variant", "siguo");
  assert.deepEqual(start.tableSeats(), [0, 1, 2, 3]);
  assert.ok(!start.tableLevels().includes("hard"), "Hard does not play Siguo yet");
  assert.deepEqual(start.table(), [PERSON, "medium", "medium", "medium"]);
  let options = start.gameOptions();
  assert.equal(options.mode, "cpu");
  assert.deepEqual(options.people, [0]);
  assert.deepEqual(options.cpus, { 1: "medium", 2: "medium", 3: "medium" });
  start.chooseSeat(2, PERSON);
  start.chooseSeat(1, "hard"); // refused: not offered
  options = start.gameOptions();
  assert.equal(options.mode, "hotseat");
  assert.deepEqual(options.people, [0, 2]);
  assert.deepEqual(options.cpus, { 1: "medium", 3: "medium" });
  start.choose("variant", "classic");
  assert.equal(start.tableSeats(), null, "two-seat games keep their opponent choice");
  assert.equal(start.gameOptions().people, undefined);
});

test("a person against three CPUs: the CPUs move one at a time and the log keeps the last moves", async () => {
  const g = game({ variant: "siguo", mode: "cpu", people: [0], cpus: { 1: "easy", 2: "easy", 3: "easy" } });
  const cpuCalls = [];
  const logs = [];
  g.subscribe(() => {
    if (g.view) assert.deepEqual(foreignRanks(g.view, 0), [], "no other seat's rank on screen");
    if (g.ui === "curtain") assert.fail("no curtain with one person");
    logs.push(g.lines.length);
  });
  const call = engine.call;
  engine.call = (request) => {
    if (request.op === "cpu_act") cpuCalls.push(request);
    return call(request);
  };
  try {
    await g.start();
    assert.equal(g.ui, "setup");
    assert.equal(g.viewer, 0);
    assert.match(g.title(), /Siguo/);
    await g.confirm();
    await until(g, "play", "over");
    for (let i = 0; i < 4 && g.ui === "play"; i++) {
      assert.equal(g.view.turn, 0);
      assert.equal(g.statusText(), "Your turn.");
      const [from, targets] = Object.entries(g.view.dests.moves)[0];
      await g.tap(from);
      await g.tap(targets[0].to);
      await until(g, "play", "over");
    }
  } finally {
    engine.call = call;
  }
  assert.ok(cpuCalls.length >= 3, "the CPU seats moved");
  for (const request of cpuCalls) {
    assert.notEqual(request.player, 0);
    assert.equal(request.viewer, 0, "each CPU move comes in the person's view");
  }
  assert.ok(Math.max(...logs) <= LOG_LINES, "the message line keeps a short log");
  // the sides line names every seat and who plays it
  assert.match(g.sidesText(), /South \(you\): Person, red · East: CPU \(Easy\), blue · North: CPU \(Easy\), orange · West: CPU \(Easy\), teal Teams: South and North against East and West\./);
});

test("two people and two CPUs on one device: the curtain falls only between the two people", async () => {
  const g = game({ variant: "siguo", mode: "hotseat", people: [0, 2], cpus: { 1: "easy", 3: "easy" },
    rules: { first_player: "S" }, preset: "standard" });
  const curtains = [];
  g.subscribe(() => {
    if (g.ui === "curtain" && curtains[curtains.length - 1] !== g.curtainSeat) curtains.push(g.curtainSeat);
    if (g.ui === "curtain") {
      assert.equal(g.viewer, null);
      assert.deepEqual(foreignRanks(g.view, -1), [], "no rank at all under the curtain");
    }
  });
  await g.start();
  assert.equal(g.ui, "curtain");
  assert.equal(g.curtainSeat, 0);
  assert.match(g.curtainText().text, /South/);
  await g.openCurtain();
  assert.equal(g.ui, "setup");
  await g.confirm();
  await until(g, "curtain");
  assert.equal(g.curtainSeat, 2, "North deploys next");
  await g.openCurtain();
  await g.confirm();
  await until(g, "curtain", "moved", "play");
  for (let turn = 0; turn < 4 && g.view.phase === "play"; turn++) {
    if (g.ui === "moved") await g.changeTurn();
    if (g.ui === "curtain") await g.openCurtain();
    await until(g, "play", "over");
    if (g.ui === "over") break;
    const seat = g.viewer;
    assert.ok([0, 2].includes(seat));
    assert.equal(g.view.turn, seat);
    assert.deepEqual(foreignRanks(g.view, seat), []);
    const [from, targets] = Object.entries(g.view.dests.moves)[0];
    await g.tap(from);
    await g.tap(targets[0].to);
    await until(g, "moved", "play", "over");
  }
  assert.ok(g.view.ply >= 6, `plies: ${g.view.ply}`);
  assert.ok(curtains.length >= 4, `curtains: ${curtains}`);
  assert.ok(curtains.every((seat) => seat === 0 || seat === 2), `a curtain only for people: ${curtains}`);
});

test("a saved Siguo game says who plays each seat and goes on with the same seats", () => {
  const summary = { variant: "siguo", rules: { variant: "siguo", preset: "standard", options: {} },
    phase: "play", ply: 12, cpus: { 1: "medium", 2: "easy", 3: "medium" } };
  const one = describeSaved({ summary, page: { clock: true } }, variants);
  assert.equal(one.mode, "cpu");
  assert.equal(one.human, 0);
  assert.deepEqual(one.people, [0]);
  assert.equal(one.clock, true);
  assert.equal(savedText(one), "Siguo (four players) · you with the CPUs (Medium, Easy) · move 12");
  const options = resumeOptions(one);
  assert.deepEqual(options.people, [0]);
  assert.deepEqual(options.cpus, summary.cpus);
  const two = describeSaved({ summary: { ...summary, cpus: { 1: "easy", 3: "easy" } }, page: {} }, variants);
  assert.equal(two.mode, "hotseat");
  assert.deepEqual(two.people, [0, 2]);
  assert.equal(savedText(two), "Siguo (four players) · 2 players on one device · move 12");
  assert.equal(describeSaved({ summary: { ...summary, cpus: { 0: "easy", 1: "easy", 2: "easy", 3: "easy" } } }, variants),
    null, "a game nobody plays here is not offered");
  // two-seat games as before
  const classic = describeSaved({ summary: { ...summary, variant: "classic", cpus: { 1: "easy" } } }, variants);
  assert.equal(classic.mode, "cpu");
  assert.equal(classic.people, undefined);
});

test("the log says a combat between two other armies in one short line, and who went out", () => {
  const g = game({ variant: "siguo", mode: "cpu", people: [0], cpus: { 1: "easy", 2: "easy", 3: "easy" } });
  g.variant = "siguo";
  g.viewer = 0;
  const ctx = g.ctx();
  const combat = (result, against) => ({ ply: 5, player: 1, type: "move", from: "Ec4", to: "Sb5",
    combat: { square: "Sb5", result, attacker: null, defender: null, against } });
  assert.equal(words.eventText(combat("both", 2), ctx), "East: Ec4 took Sb5 — both removed.");
  assert.equal(words.eventText(combat("defender", 2), ctx), "East: Ec4 attacked Sb5 and lost.");
  const mine = { ...combat("attacker", 0), combat: { ...combat("attacker", 0).combat, defender: "major" } };
  assert.equal(words.eventText(mine, ctx), "East moves Ec4–Sb5. Your Major loses (Sb5).");
  const out = { ...combat("attacker", 2), out: [{ player: 2, reason: "flag_captured" }] };
  assert.equal(words.eventText(out, ctx), "East: Ec4 took Sb5. North is out: flag captured.");
  assert.equal(words.moveLine(out, ctx), "6. East: Ec4–Sb5 ⚔ attacker wins — North out");
});

test("a person who resigns goes out; the CPUs play on to the end, which names the winning team", async () => {
  const g = game({ variant: "siguo", mode: "cpu", people: [0], cpus: { 1: "easy", 2: "easy", 3: "easy" },
    preset: "standard", rules: { quiet_limit: 70 } });
  const outControls = [];
  g.subscribe(() => {
    if (g.view?.out?.[0] && g.view.phase === "play") outControls.push(g.controls().resign.shown || g.controls().offer.shown);
  });
  await g.start();
  await g.confirm();
  await until(g, "play", "over");
  await g.resign();
  await until(g, "over");
  assert.equal(g.view.out[0], "surrender");
  assert.ok(outControls.length > 0 && outControls.every((shown) => !shown), "no Resign or Offer once out");
  const status = g.statusText();
  assert.match(status, /^Game over: (your team (wins|loses)|draw)/, status);
  assert.ok(Object.values(g.view.board).every((p) => p.kind), "everything is shown at the end");
});

test("the person's move clock: 30 s, then the turn is skipped and counted; Pass counts too", async () => {
  const timers = fakeTimers();
  const g = game({ variant: "siguo", mode: "cpu", people: [0], cpus: { 1: "easy", 2: "easy", 3: "easy" },
    clock: true }, { timers });
  await g.start();
  await g.confirm();
  await until(g, "play");
  assert.equal(g.clock.left, 30);
  assert.equal(g.clock.max, 5);
  timers.advance(29_000);
  assert.equal(g.view.timeouts[0], 0, "not yet");
  timers.advance(1_500);
  await until(g, "wait", "play");
  await until(g, "play");
  assert.equal(g.view.timeouts[0], 1, "the time-out skipped the turn");
  assert.ok(g.view.history.some((ev) => ev.type === "timeout" && ev.player === 0));
  assert.ok(g.controls().pass.shown && g.controls().pass.enabled);
  await g.pass();
  await until(g, "play");
  assert.equal(g.view.timeouts[0], 2, "a pass counts as a skipped turn");
  assert.match(g.sidesText(), /South \(you\): Person, red \(skipped 2\/5\)/);
});

test("three people: the curtain tells the others to look away", async () => {
  const g = game({ variant: "siguo", mode: "hotseat", people: [0, 1, 2], cpus: { 3: "easy" } });
  await g.start();
  assert.equal(g.ui, "curtain");
  assert.equal(g.curtainText().text, "South: set up your pieces. The others look away.");
  const two = game({ variant: "siguo", mode: "hotseat", people: [0, 2], cpus: { 1: "easy", 3: "easy" } });
  await two.start();
  assert.equal(two.curtainText().text, "South: set up your pieces. The other player looks away.");
});
