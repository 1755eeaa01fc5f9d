// The replay controller against the real engine: steps, keys, autoplay, viewpoints, and
// that a seat's replay names no enemy rank the seat had not been shown.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { ReplayController, SPEEDS } from "../../web/js/ui/ctrl/replay.js";
import * as i18n from "../../web/js/ui/i18n.js";
import { execFileSync } from "node:child_process";
import { bridge, useLanguage, fakeTimers, ROOT } from "./support.mjs";

const engine = bridge();
after(() => engine.close());
useLanguage("en");

/** A short finished hot-seat game: `plies` moves from the dests, then a resignation. */
async function finishedGame(variant, plies = 12) {
  const reply = await engine.call({ op: "new_game", variant, seed: 7, viewer: 0 });
  const game = reply.game;
  if (reply.view.phase === "setup") {
    await engine.call({ op: "deploy", game, player: 0 });
    await engine.call({ op: "deploy", game, player: 1 });
  }
  for (let i = 0; i < plies; i++) {
    const view = (await engine.call({ op: "view", game, player: i % 2 })).view;
    if (view.phase !== "play") break;
    const all = Object.entries(view.dests.moves).flatMap(([from, ts]) => ts.map((x) => [`${from}-${x.to}`, x.attack]));
    const attacks = all.filter(([, attack]) => attack).map(([m]) => m);
    const moves = attacks.length ? attacks : all.map(([m]) => m); // combats, where there are any
    const action = view.dests.flips.length && (i % 3 === 0 || !moves.length)
      ? `flip:${view.dests.flips[0]}` : moves[(i * 7) % moves.length];
    const acted = await engine.call({ op: "act", game, player: view.turn, action });
    assert.ok(acted.ok, JSON.stringify(acted));
  }
  const view = (await engine.call({ op: "view", game, player: 0 })).view;
  if (view.phase !== "over") await engine.call({ op: "act", game, player: view.turn, action: `resign:${view.turn}` });
  const record = (await engine.call({ op: "record_export", game })).record;
  return { game, record };
}

test("a finished game opens at the start, everything shown; buttons and keys step through it", async () => {
  const { game, record } = await finishedGame("classic");
  const timers = fakeTimers();
  const r = new ReplayController({ engine, source: { game }, timers });
  let renders = 0;
  r.subscribe(() => renders++);
  // Before the engine answers (a link's replay while the engine starts): no viewpoint to
  // choose, so no side named before the variant is known ("As side.null.0 saw it").
  assert.deepEqual(r.viewpoints(), []);
  assert.equal(await r.load(), true);
  assert.equal(r.viewer, "all");
  assert.deepEqual(r.viewpoints(), [0, 1, "all"]);
  assert.equal(r.step, 0);
  assert.equal(r.last, record.actions.length);
  assert.equal(r.event, null);
  assert.match(r.statusText(), /^Start position · \d+ moves$/);
  assert.deepEqual(r.controls(), { first: false, back: false, forward: true, last: true, play: true });
  r.forward();
  assert.equal(r.step, 1);
  assert.equal(r.event.action, record.actions[0]);
  assert.equal(r.statusText(), `Move 1 of ${r.last}`);
  assert.ok(r.messageText().startsWith(`Red moves ${r.event.from}–${r.event.to}.`), r.messageText());
  if (r.event.combat) assert.match(r.messageText(), /Red's \S.* (beats|loses to|and) Blue's /);
  assert.deepEqual(r.boardState().lastMove, [r.event.from, r.event.to]);
  assert.equal(r.boardState().active, false);
  assert.ok(r.key("End"));
  assert.equal(r.step, r.last);
  assert.match(r.statusText(), /Game over: .* resigned\.$/);
  assert.ok(r.key("ArrowLeft"));
  assert.equal(r.step, r.last - 1);
  assert.ok(r.key("Home"));
  assert.equal(r.step, 0);
  assert.ok(r.key("ArrowRight"));
  assert.equal(r.step, 1);
  assert.equal(r.key("a"), false);
  r.goTo(999);
  assert.equal(r.step, r.last);
  r.goTo(-4);
  assert.equal(r.step, 0);
  const list = r.moveList();
  assert.equal(list.length, record.actions.length);
  assert.match(list[0].text, /^1\. Red: /);
  r.goTo(3);
  assert.deepEqual(list.length && r.moveList().filter((m) => m.current).map((m) => m.step), [3]);
  // every piece is named at every step
  for (let step = 0; step <= r.last; step++) {
    r.goTo(step);
    for (const cell of r.boardState().pieces.values()) assert.ok(cell.kind, `step ${step}`);
  }
  assert.ok(renders > 5);
});

test("autoplay steps at the chosen speed and stops at the end; any step pauses it", async () => {
  const { record } = await finishedGame("gunjin", 6);
  const timers = fakeTimers();
  const r = new ReplayController({ engine, source: { record }, timers });
  await r.load();
  r.play();
  assert.ok(r.playing);
  timers.advance(SPEEDS[r.speed] * 2);
  assert.equal(r.step, 2);
  r.setSpeed(3);
  timers.advance(SPEEDS[3]);
  assert.equal(r.step, 3);
  r.back();
  assert.equal(r.playing, false);
  assert.equal(r.step, 2);
  r.play();
  timers.advance(SPEEDS[3] * 100);
  assert.equal(r.step, r.last);
  assert.equal(r.playing, false);
  r.play(); // from the end: from the start again
  assert.equal(r.step, 0);
  r.toggle();
  assert.equal(r.playing, false);
  r.dispose();
});

test("a seat's view keeps the step and names no enemy rank before the end", async () => {
  const { record } = await finishedGame("classic", 30);
  const r = new ReplayController({ engine, source: { record: JSON.stringify(record) }, timers: fakeTimers() });
  await r.load();
  r.goTo(20);
  assert.equal(await r.setViewer(1), true);
  assert.equal(r.viewer, 1);
  assert.equal(r.seat, 1);
  assert.equal(r.step, 20);
  for (let step = 0; step < r.last; step++) {
    r.goTo(step);
    for (const cell of r.boardState().pieces.values()) {
      if (cell.owner !== 1) assert.equal(cell.kind, null, `step ${step}`);
    }
    const combat = r.event?.combat;
    if (combat) assert.equal(r.event.player === 1 ? combat.defender : combat.attacker, null);
  }
  // a combat told from the seat: the enemy's rank is "piece"
  const combat = r.events.findIndex((ev) => ev.combat && ev.combat.result !== "both");
  assert.ok(combat >= 0 && combat + 1 < r.last, "a combat before the end");
  {
    r.goTo(combat + 1);
    const enemy = "Red's piece"; // the viewpoint is Blue's
    assert.ok(r.messageText().includes(enemy), r.messageText());
  }
  r.toEnd();
  assert.ok([...r.boardState().pieces.values()].every((cell) => cell.kind), "the end shows everything");
  assert.equal(await r.setViewer("everything"), false);
});

test("an unfinished record replays from seat 0 only; a bad one says why", async () => {
  const { record } = await finishedGame("blind", 8);
  const cut = { ...record, actions: record.actions.slice(0, 5), result: null };
  const r = new ReplayController({ engine, source: { record: cut }, timers: fakeTimers() });
  assert.equal(await r.load(), true);
  assert.equal(r.viewer, 0);
  assert.deepEqual(r.viewpoints(), [0, 1]);
  assert.equal(await r.setViewer("all"), false);
  const bad = new ReplayController({ engine, source: { record: { ...record, actions: ["a1-a9"] } } });
  assert.equal(await bad.load(), false);
  assert.match(bad.error, /action 1/);
  assert.match(bad.statusText(), /^The replay could not be shown: /);
});

test("every language has the replay's strings", () => {
  const keys = ["replay.title", "replay.step", "replay.start", "replay.combat.attacker", "replay.combat.defender",
    "replay.combat.both", "replay.view.all", "replay.view.seat", "action.replay", "action.share_link",
    "action.save_text", "start.open_record", "start.bad_file", "start.bad_link", "share.copied"];
  for (const lang of i18n.LANGUAGES) {
    useLanguage(lang);
    for (const key of keys) assert.ok(i18n.has(key) && i18n.t(key) !== key, `${lang}: ${key}`);
  }
  useLanguage("en");
});

/** A finished Siguo record made by CPython: `plies` seeded random plies, then East and
 * West resign (those still in). */
function siguoRecord(seed = 5, plies = 40) {
  const script = `
import json
from junqi_core.notation import move_text
from junqi_core.record import export_record
from junqi_core.selfplay import random_game
game = random_game("siguo", ${seed}, max_plies=${plies})
while game.result is None:
    seat = game.turn
    if seat in (1, 3):
        game.apply(seat, f"resign:{seat}")
    else:
        game.apply(seat, move_text(game.board_spec, game.legal_moves()[0]))
print(json.dumps(export_record(game)))
`;
  const out = execFileSync(process.env.PYTHON || "python3", ["-c", script], { cwd: ROOT, encoding: "utf8" });
  return JSON.parse(out);
}

test("a Siguo record: any of the four seats' views or everything; each combat names the seat attacked", async () => {
  const record = siguoRecord();
  const r = new ReplayController({ engine, source: { record }, timers: fakeTimers() });
  assert.equal(await r.load(), true);
  assert.equal(r.viewer, "all");
  assert.equal(r.seats, 4);
  assert.deepEqual(r.viewpoints(), [0, 1, 2, 3, "all"]);
  assert.equal(r.seat, 0);
  assert.equal(r.lostView().lost.length, 4);
  // a combat against another seat than "the other player": told with that seat's name
  const names = ["South", "East", "North", "West"];
  const step = r.events.findIndex((ev) => ev.combat && ev.combat.against !== 1 - ev.player) + 1;
  assert.ok(step > 0, "the record has a combat between seats other than 0 and 1");
  r.goTo(step);
  const ev = r.event;
  assert.ok(r.messageText().includes(names[ev.combat.against]), r.messageText());
  for (const seat of [3, 2, 1]) {
    assert.equal(await r.setViewer(seat), true);
    assert.equal(r.viewer, seat);
    assert.equal(r.seat, seat); // that seat's army at the bottom of the board
    assert.equal(r.step, step); // a new viewpoint keeps the step
    // no rank of another army in what the board is given (the flag shown aside)
    for (const piece of r.boardState().pieces.values()) {
      if (piece.owner !== seat) assert.ok(piece.kind === null || piece.kind === "flag", JSON.stringify(piece));
    }
  }
  assert.equal(await r.setViewer(4), false); // no fifth seat
  // the end: the team wins; a resignation said once
  r.toEnd();
  assert.equal(r.statusText(), `Move ${r.last} of ${r.last} · Game over: South and North win.`);
  assert.equal(r.messageText(), "East resigns.");
  r.dispose();
});

test("a Siguo replay says who left the board and why", async () => {
  // seed 1: West has no legal move at ply 470
  const r = new ReplayController({ engine, source: { record: siguoRecord(1, 480) }, timers: fakeTimers() });
  assert.equal(await r.load(), true);
  const step = r.events.findIndex((ev) => ev.out?.some((o) => o.reason === "no_legal_move")) + 1;
  assert.ok(step > 0);
  r.goTo(step);
  assert.ok(r.messageText().endsWith("West is out: no legal move."), r.messageText());
  r.dispose();
});
