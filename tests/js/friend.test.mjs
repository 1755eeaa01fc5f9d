// FriendGame (web/js/ui/ctrl/friend.js) in Node: two controllers, each with its own peer in
// the real engine (CPython), joined by an in-memory stand-in for the WebRTC channel, the
// real link codec in between. Run: node --test tests/js/

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { newGame } from "../../web/js/ui/ctrl/session.js";
import { PAUSE_MS } from "../../web/js/ui/ctrl/friend.js";
import { offerWords } from "../../web/js/ui/ctrl/friendlink.js";
import * as link from "../../web/js/net/link.js";
import { bridge, useLanguage, fakeTimers, memoryStore } from "./support.mjs";

let engine;
let variants;

before(async () => {
  useLanguage("en");
  engine = bridge();
  variants = (await engine.call({ op: "variants" })).variants;
});

after(() => engine.close());

const FINGERPRINT = "a=fingerprint:sha-256 00:11";

/** Channels that pass texts between two controllers in this process. */
function fakeNet(log) {
  const offers = new Map();
  let next = 1;
  class FakeChannel {
    constructor() {
      this.listeners = {};
      this.state = "waiting";
      this.other = null;
    }
    static async offer() {
      const ch = new FakeChannel();
      ch.sdp = `v=0\r\n${FINGERPRINT}\r\nx-offer ${next}`;
      offers.set(String(next++), ch);
      return ch;
    }
    static async answer(sdp) {
      const ch = new FakeChannel();
      const offer = offers.get(sdp.split("x-offer ")[1]);
      ch.sdp = `v=0\r\n${FINGERPRINT}\r\nx-answer`;
      ch.other = offer;
      offer.pendingAnswer = ch;
      return ch;
    }
    async accept() {
      const other = this.pendingAnswer;
      this.other = other;
      setTimeout(() => {
        for (const ch of [this, other]) {
          ch.state = "open";
          ch.emit("open");
        }
      }, 1);
    }
    on(event, fn) {
      (this.listeners[event] ||= []).push(fn);
      return this;
    }
    emit(event, arg) {
      for (const fn of this.listeners[event] || []) fn(arg);
    }
    send(text) {
      if (this.state !== "open") return false;
      log.push(["send", this.name, text]);
      const other = this.other;
      const sent = net.tamper ? net.tamper(this.name, text) : text; // a modified page
      setTimeout(() => other.state === "open" && other.emit("message", sent), 1);
      return true;
    }
    close() {
      this.state = "closed";
    }
    /** The network goes away: both ends lose the channel. */
    drop() {
      for (const ch of [this, this.other]) {
        ch.state = "lost";
        ch.emit("lost", { reason: "closed" });
      }
    }
  }
  const net = { Channel: FakeChannel, ...link, tamper: null };
  return net;
}

function memorySaves(log, name) {
  let record = null;
  let clock = {};
  return {
    load: () => (record ? { ...record, clock } : null),
    save: (r) => {
      log.push(["save", name, r.state]);
      record = { v: 1, ...r };
    },
    saveClock: (c) => (clock = c),
    clear: () => (record = null),
  };
}

function friend(name, options, log, extra = {}) {
  const game = newGame({
    engine, variants, options: { mode: "friend", ...options }, store: memoryStore(),
    saves: extra.saves || memorySaves(log, name), net: extra.net, pageURL: "http://127.0.0.1:8000/",
    timers: extra.timers || fakeTimers(), wall: extra.wall,
  });
  game.name = name;
  return game;
}

async function until(fn, what = "condition") {
  for (let i = 0; i < 3000; i++) {
    if (fn()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A friend game's connection: links, channel, the clock held while it is down. */
const wire = (game) => game.session.connection;

/** Name channels as they are made, so the log says who sent what. */
function named(game) {
  const link = wire(game);
  const use = link.useChannel.bind(link);
  link.useChannel = (channel) => {
    channel.name = game.name;
    use(channel);
  };
  return game;
}

async function connect(variant, log, extra = {}) {
  const net = fakeNet(log);
  const host = named(friend("host", { role: "host", variant, clock: true }, log, { net, ...extra.host }));
  await host.start();
  await until(() => wire(host).conn === "invite", "the invitation");
  assert.equal(host.ui, "link");
  assert.match(wire(host).link.url, /^http:\/\/127\.0\.0\.1:8000\/#friend=J1/);
  const signal = await link.decodeSignal(wire(host).link.url);
  assert.equal(signal.game, host.session.match, "the invitation names this game");
  const guest = named(friend("guest", { role: "guest", signal }, log, { net, ...extra.guest }));
  await guest.start();
  await until(() => wire(guest).conn === "reply", "the reply");
  assert.equal(await wire(host).takeSignal(wire(guest).link.code), true);
  await until(() => wire(host).conn === "open" && wire(guest).conn === "open", "the channel");
  await until(() => host.view?.fair?.stage === "setup" || host.view?.fair?.stage === "play", "the hello");
  await until(() => guest.view?.fair?.stage === host.view.fair.stage, "the guest's hello");
  return { host, guest, net };
}

async function settle(...games) {
  for (let i = 0; i < 5; i++) {
    await Promise.all(games.map((g) => g.session.queue));
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

test("a friend game: links, hello, deployment, moves, resignation, the audit", async () => {
  const log = [];
  const { host, guest } = await connect("classic", log);
  assert.equal(host.viewer, 0);
  assert.equal(guest.viewer, 1);
  assert.equal(host.ui, "setup");
  assert.equal(guest.desc.id, "classic", "the guest learns the game from the hello");
  assert.equal(host.controls().confirm.shown, true);
  await host.mirror();
  await host.confirm();
  assert.equal(host.ui, "wait");
  assert.match(host.statusText(), /Waiting for your friend to deploy/);
  await guest.confirm();
  await settle(host, guest);
  await until(() => host.ui === "play" && guest.ui === "play", "play");
  assert.equal(host.statusText(), "Your turn.");
  assert.equal(guest.statusText(), "Your friend's turn.");
  for (const [game, other] of [[host, 1], [guest, 0]]) {
    const hidden = Object.values(game.view.board).filter((p) => p.owner === other);
    assert.equal(hidden.length, 25);
    assert.ok(hidden.every((p) => p.kind === null), "no rank of the other side");
  }
  const [from, targets] = Object.entries(host.view.dests.moves)[0];
  await host.tap(from);
  await host.tap(targets[0].to);
  await settle(host, guest);
  await until(() => guest.view.ply === 1, "the move arrives");
  assert.match(guest.messageText(), /Your friend moves/);
  assert.equal(guest.view.turn, 1);
  // a draw offer on the guest's turn; the host declines it
  await guest.offer();
  await settle(host, guest);
  await until(() => host.offerPending(), "the offer arrives");
  assert.equal(host.controls().accept.shown, true);
  assert.match(host.messageText(), /Your friend offers a draw/);
  assert.equal(await host.answer(false), true);
  await settle(host, guest);
  await until(() => guest.view.history.some((ev) => ev.type === "decline"), "the answer arrives");
  assert.equal(guest.view.result, null);
  assert.equal(guest.canResign(), true);
  await guest.resign();
  await settle(host, guest);
  await until(() => host.ui === "over" && guest.ui === "over", "the verdict");
  for (const game of [host, guest]) {
    assert.equal(game.view.fair.verdict.ok, true);
    assert.deepEqual(game.view.result, { winner: 0, reason: "resignation" });
    assert.match(game.messageText(), /Checked/);
    assert.ok(Object.values(game.view.board).every((p) => p.kind), "all revealed");
    assert.equal(game.controls().rematch.enabled, true);
  }
  assert.match(host.statusText(), /you win/);
  assert.match(guest.statusText(), /You resigned/);
  const record = await host.record();
  assert.equal(record.variant, "classic");
  // The finished game's replay, move list and share link come from that audited record.
  assert.deepEqual(await guest.replaySource(), { record });
  assert.equal(host.controls().replay.shown, true);
  assert.match(await host.recordText(), /^Classic Junqi/);
  const link = await guest.recordLink();
  const replay = await engine.call({ op: "replay", link, viewer: "all" });
  assert.equal(replay.ok, true);
  assert.deepEqual(replay.result, { winner: 0, reason: "resignation" });

  // Write-ahead: every message a page sent was in the state it had saved before.
  const saved = { host: null, guest: null };
  for (const [what, name, text] of log) {
    if (what === "save") saved[name] = JSON.parse(text);
    else if (JSON.parse(text).type !== "resume") {
      assert.ok(saved[name]?.conn.sent.includes(text), `${name} sent before saving: ${text.slice(0, 60)}`);
    }
  }
  // Nothing sent before the end names a layout or a secret.
  for (const [what, , text] of log) {
    if (what !== "send") continue;
    const type = JSON.parse(text).type;
    if (type === "open") break;
    for (const field of ['"layout"', '"salts"', '"secrets"']) assert.ok(!text.includes(field), type);
  }

  // A rematch: both ask, the seats switch.
  await host.rematch();
  assert.match(host.messageText(), /waiting for your friend/);
  await guest.rematch();
  await settle(host, guest);
  await until(() => host.ui === "setup" && guest.ui === "setup", "the rematch");
  assert.equal(host.viewer, 1);
  assert.equal(guest.viewer, 0);
  // "Previous layout" is this seat's own: none yet on the new seat
  assert.equal(host.hasPrevious(), false);
  assert.equal(await host.previous(), false);
  assert.match(host.messageText(), /No previous layout/);
  host.dispose();
  guest.dispose();
});

test("a lost connection: the clocks wait, a new link exchange, the game goes on", async () => {
  const log = [];
  let now = 1_000_000;
  const wall = () => now;
  const timers = fakeTimers();
  const { host, guest } = await connect("gunjin", log, { host: { wall, timers }, guest: { wall } });
  const before = wire(host).gameNow();
  wire(host).channel.drop();
  assert.equal(wire(host).conn, "lost");
  assert.equal(host.controls().reconnect.shown, true);
  now += 20_000;
  assert.equal(wire(host).gameNow(), before, "the clock waits while the connection is down");
  assert.equal(wire(host).holdLeft(), PAUSE_MS - 20_000);
  now += 60_000;
  assert.equal(wire(host).gameNow(), before + 20_000, "after 60 s it runs again");
  // the guest makes the new link, the host answers it
  await wire(guest).invite();
  assert.equal(wire(guest).link.kind, "offer");
  assert.equal(await wire(host).takeSignal("not a code"), false);
  assert.match(wire(host).linkError, /not a friend-game code/);
  const stranger = await link.encodeSignal({ kind: "offer", net: "lan", game: "ffffffffffffffff",
    sdp: `v=0\r\n${FINGERPRINT}\r\n` });
  assert.equal(await wire(host).takeSignal(stranger), false);
  assert.match(wire(host).linkError, /another game/);
  assert.equal(await wire(host).takeSignal(wire(guest).link.url), true);
  await until(() => wire(host).conn === "reply");
  assert.equal(await wire(guest).takeSignal(wire(host).link.code), true);
  await until(() => wire(host).conn === "open" && wire(guest).conn === "open", "the new channel");
  assert.equal(wire(host).gameNow(), before + 20_000, "the clock goes on from where it was held");
  await host.confirm();
  await guest.confirm();
  await settle(host, guest);
  await until(() => host.ui === "play" && guest.ui === "play", "play after the reconnection");
  assert.equal(host.view.fair.transcript, guest.view.fair.transcript);
  host.dispose();
  guest.dispose();
});

test("the clock's tick: a quiet one redraws and saves nothing, a late one passes the turn", async () => {
  const log = [];
  let now = 1_000_000;
  const wall = () => now;
  const { host, guest } = await connect("classic", log, { host: { wall }, guest: { wall } });
  await host.confirm();
  await guest.confirm();
  await settle(host, guest);
  await until(() => host.ui === "play" && guest.ui === "play", "play");
  const saves = () => log.filter(([what, name]) => what === "save" && name === "host").length;
  const [view, saved, sent] = [host.view, saves(), wire(host).sent.length];
  now += 1_000;
  await host.session.peerCall({ call: "tick" }); // the engine's reply has no view and no state
  assert.equal(host.view, view, "the same view: nothing to redraw");
  assert.equal(saves(), saved, "nothing to save");
  assert.equal(wire(host).sent.length, sent);
  now += 30_000; // the host's 30 s to move are over: its own tick passes the turn
  await host.session.peerCall({ call: "tick" });
  assert.deepEqual(host.view.timeouts, [1, 0]);
  assert.equal(saves(), saved + 1, "saved before the time-out was sent");
  assert.equal(JSON.parse(wire(host).sent.at(-1)).action, "timeout");
  host.dispose();
  guest.dispose();
});

test("a reloaded page goes on from its saved state", async () => {
  const log = [];
  const saves = memorySaves(log, "host");
  const { host, guest, net } = await connect("blind", log, { host: { saves } });
  await until(() => host.ui === "play" && guest.ui === "play", "the deal");
  const flip = host.view.dests.flips[0];
  await host.tap(flip);
  await settle(host, guest);
  await until(() => guest.view.ply === 1, "the flip arrives");
  const seen = host.view;
  host.dispose(); // the page is closed; its save stays
  wire(guest).channel.drop();
  const again = named(friend("host", { saved: saves.load() }, log, { saves, net }));
  await again.start();
  assert.equal(wire(again).conn, "lost");
  assert.equal(again.view.ply, seen.ply);
  assert.deepEqual(again.view.board, seen.board);
  assert.equal(again.session.match, host.session.match);
  await wire(again).invite();
  assert.equal(await wire(guest).takeSignal(wire(again).link.code), true);
  await until(() => wire(guest).conn === "reply");
  assert.equal(await wire(again).takeSignal(wire(guest).link.code), true);
  await until(() => wire(again).conn === "open" && wire(guest).conn === "open");
  await settle(again, guest);
  assert.equal(again.view.fair.transcript, guest.view.fair.transcript);
  assert.equal(guest.view.turn, guest.viewer);
  again.dispose();
  guest.dispose();
});

/** Random moves by whichever side is to move (`attacker` attacks when it can), until done(). */
async function playUntil(sides, done, attacker = null, limit = 300) {
  for (let i = 0; i < limit && !done(); i++) {
    await settle(...sides);
    const mover = sides.find((g) => g.ui === "play" && !g.busy && g.view.turn === g.viewer
      && !g.view.fair.pending && g.view.dests);
    if (!mover) continue;
    const moves = Object.entries(mover.view.dests.moves)
      .flatMap(([from, targets]) => targets.map((to) => ({ from, ...to })));
    const attacks = mover === attacker ? moves.filter((m) => m.attack) : [];
    const pick = (attacks.length ? attacks : moves)[(i * 7919) % (attacks.length || moves.length)];
    if (!pick) continue;
    await mover.tap(pick.from);
    await mover.tap(pick.to);
  }
  await settle(...sides);
  return done();
}

test("the audit proves a cheat: the cheated page says who, at which move, and the result shows it", async () => {
  const log = [];
  const { host, guest, net } = await connect("classic", log);
  // The host's page is modified: it announces every combat it starts the other way round.
  net.tamper = (from, text) => {
    const message = JSON.parse(text);
    if (from !== "host" || message.type !== "ot_rows") return text;
    const outcome = message.outcome & 3;
    message.outcome = (message.outcome & 4) | (outcome === 1 ? 2 : 1);
    return JSON.stringify(message);
  };
  await host.confirm();
  await guest.confirm();
  await until(() => host.ui === "play" && guest.ui === "play", "play");
  const shown = []; // what the guest's screen said at each redraw
  guest.subscribe((what) => what !== "clock" && shown.push([guest.statusText(), guest.messageText()]));
  assert.ok(await playUntil([host, guest], () => guest.ui === "over" && host.ui === "over", host),
    "the game ends");
  const fault = guest.view.fair.verdict.fault;
  assert.equal(fault.player, host.viewer);
  assert.equal(fault.code, "false_outcome");
  assert.deepEqual(guest.view.result, { winner: guest.viewer, reason: "rule_broken" });
  const [status, message] = shown.at(-1); // the last redraw, what stays on screen
  assert.equal(status, "Game over: you win! Your friend broke the rules.");
  assert.equal(message,
    `Your opponent broke the rules at move ${fault.action}: it announced a false combat outcome.`);
  host.dispose();
  guest.dispose();
});

test("a decided game's board is not hidden by a lost connection; a reconnection clears the reload note", async () => {
  const log = [];
  const saves = memorySaves(log, "host");
  const { host, guest, net } = await connect("gunjin", log, { host: { saves } });
  await host.confirm();
  await guest.confirm();
  await until(() => host.ui === "play" && guest.ui === "play", "play");
  // a reload of the host's page during play: "make a new link" until it is connected again
  host.dispose();
  wire(guest).channel.drop();
  const again = named(friend("host", { saved: saves.load() }, log, { saves, net }));
  await again.start();
  assert.match(again.messageText(), /Make a new link to reconnect/);
  await wire(again).invite();
  assert.equal(await wire(guest).takeSignal(wire(again).link.code), true);
  await until(() => wire(guest).conn === "reply");
  assert.equal(await wire(again).takeSignal(wire(guest).link.code), true);
  await until(() => wire(again).conn === "open" && wire(guest).conn === "open", "the new channel");
  await settle(again, guest);
  assert.doesNotMatch(again.messageText(), /new link/);
  assert.match(again.messageText(), /Connected again/);
  assert.equal(again.session.panelShown(), false);
  // the end, then the connection drops: the final board stays in view
  await guest.resign();
  await settle(again, guest);
  await until(() => again.ui === "over" && guest.ui === "over", "the verdict");
  wire(guest).channel.drop();
  assert.equal(wire(again).conn, "lost");
  assert.equal(again.session.panelShown(), false, "no connection layer over the final board");
  again.dispose();
  guest.dispose();
});

test("the invitation says which game is offered, and the guest joins only that game", async () => {
  const log = [];
  const net = fakeNet(log);
  const host = named(friend("host", { role: "host", variant: "classic", preset: "chinese", clock: true },
    log, { net }));
  await host.start();
  await until(() => wire(host).conn === "invite", "the invitation");
  const signal = await link.decodeSignal(wire(host).link.url);
  assert.deepEqual(signal.about, { rules: host.view.fair.rules, clock: { deploy: 90, move: 30 } });
  assert.deepEqual(offerWords(signal.about, variants),
    { variant: "Classic Junqi", rules: "Chinese sites", clock: "90 s to deploy, 30 s a move" });
  const custom = { rules: { ...signal.about.rules, options: { ...signal.about.rules.options, stations: true } },
    clock: null };
  assert.deepEqual(offerWords(custom, variants), { variant: "Classic Junqi",
    rules: "Chinese sites, customised (Front stations: on)", clock: "no clock" });

  // A guest whose invitation promised no clock meets a host that starts one: it does not join.
  const promise = { ...signal, about: { ...signal.about, clock: null } };
  const guest = named(friend("guest", { role: "guest", signal: promise }, log, { net }));
  await guest.start();
  await until(() => wire(guest).conn === "reply", "the reply");
  assert.equal(await wire(host).takeSignal(wire(guest).link.code), true);
  await until(() => guest.ui === "error", "the guest stops");
  assert.match(guest.messageText(), /started another game than its invitation offered/);
  assert.equal(guest.session.peer, null);
  const answered = log.filter(([what, name, text]) => what === "send" && name === "guest"
    && JSON.parse(text).type === "hello");
  assert.deepEqual(answered, [], "the guest did not answer the host's hello");
  host.dispose();
  guest.dispose();
});
