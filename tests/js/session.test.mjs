// Sessions (web/js/ui/ctrl/session.js and its kinds) in Node: how a session plugs into the
// GameController, who may act in each kind, and words taken from the variant's
// description, never from its name. Run: node --test tests/js/

import { test } from "node:test";
import assert from "node:assert/strict";
import { GameController } from "../../web/js/ui/ctrl/game.js";
import { newGame } from "../../web/js/ui/ctrl/session.js";
import { CpuSession } from "../../web/js/ui/ctrl/cpu.js";
import { LocalSession, curtainSeat } from "../../web/js/ui/ctrl/hotseat.js";
import { FriendSession } from "../../web/js/ui/ctrl/friend.js";
import { useEngine, memoryStore, counter, until } from "./support.mjs";

const ready = useEngine();

/** A session of a kind GameController has never seen: the whole interface, answering
 * from a script (no engine), and noting what the controller asked. */
function scriptedSession(view) {
  const asked = [];
  const session = {
    mode: "cpu", shared: false, you: 0, rivalKey: "side.cpu", opponent: "test",
    engineGame: false, gameId: null, keepsLayouts: false,
    attach(game) {
      this.game = game;
      game.viewer = 0;
    },
    async open() {
      asked.push("open");
      this.game.view = view;
      this.game.ui = "setup";
      this.game.changed();
    },
    async submit(request) {
      asked.push(request);
      if (request.op === "setup_swap") {
        return { ok: false, error: { code: "odd", message: "not today", square: request.b } };
      }
      return { ok: true, view: { ...this.game.view, phase: "play", turn: 1, dests: null }, events: [] };
    },
    acting: (action) => asked.push(`acting ${action}`),
    async next() {
      asked.push("next");
    },
    async deployed(seat) {
      asked.push(`deployed ${seat}`);
      this.game.ui = "wait";
    },
    layoutSeats: (seat) => [seat],
    title: () => "a scripted game",
    statusText() {
      return this.game.ui === "wait" ? "the script waits" : null;
    },
    controls: (base) => ({ ...base, extra: { shown: true, enabled: true } }),
    canResign: () => false,
    inProgress: () => true,
    nextOptions: () => ({ variant: "classic", mode: "cpu" }),
    rematch: async () => null,
    replaySource: async () => null,
    dispose: () => asked.push("dispose"),
  };
  return { session, asked };
}

test("a session plugs into the controller: it opens the game, takes its actions, says what comes next", async () => {
  const board = { a1: { owner: 0, kind: "flag" }, b1: { owner: 0, kind: "general" },
    a12: { owner: 1, kind: null } };
  const view = { phase: "setup", board, history: [], deployed: [false, false], actions: [],
    timeouts: [0, 0] };
  const { session, asked } = scriptedSession(view);
  const store = memoryStore();
  const game = new GameController({ engine: { ready: true }, desc: ready.variants.classic, session,
    options: { variant: "classic" }, store });
  await game.start();
  assert.equal(game.ui, "setup");
  assert.equal(game.title(), "a scripted game");
  // A swap the session refuses: the refusal is shown, the square it names marked.
  await game.tap("a1");
  await game.tap("b1");
  assert.deepEqual(asked.at(-1), { op: "setup_swap", player: 0, a: "a1", b: "b1" });
  assert.equal(game.refused, "b1");
  assert.match(game.messageText(), /not today/);
  // Confirm: the session hears which seat deployed; no layout kept (keepsLayouts false).
  await game.confirm();
  assert.deepEqual(asked.slice(-2), [{ op: "deploy", player: 0 }, "deployed 0"]);
  assert.equal(game.statusText(), "the script waits", "the session's own status line");
  assert.equal(store.loadLayout("classic", 0), null);
  assert.equal(game.controls().extra.shown, true, "the session adds its own buttons");
  // An action: the session hears it before it goes, then says what comes next.
  game.ui = "play";
  await game.act("a1-a2");
  assert.deepEqual(asked.slice(-3), ["acting a1-a2", { op: "act", player: 0, action: "a1-a2" }, "next"]);
  assert.equal(game.view.turn, 1);
  // The curtain is no part of this session: its buttons do nothing.
  game.ui = "curtain";
  assert.equal(await game.openCurtain(), false);
  game.dispose();
  assert.equal(asked.at(-1), "dispose");
});

test("against the CPU: the player is 'you', every other seat is the CPU's", async () => {
  const session = new CpuSession({ level: "easy", human: 1, minMs: 0 });
  const game = new GameController({ engine: ready.engine, desc: ready.variants.gunjin, session,
    options: { variant: "gunjin" },
    random: counter(3) });
  assert.equal(game.viewer, 1, "the player's own view from the start");
  assert.equal(game.seat, 1, "the player's side at the bottom");
  assert.equal(session.you, 1);
  assert.equal(game.sideName(1), "You");
  assert.equal(game.sideName(0), "CPU");
  assert.equal(session.opponent, "cpu:easy");
  assert.deepEqual(session.newGameRequest().cpu, { 0: "easy" });
  assert.equal(session.newGameRequest().viewer, 1);
  assert.equal(session.nextOptions(true).human, 0, "a rematch switches seats");
  // Four seats (a later variant): the CPU plays all three others, seats go round on a rematch.
  const four = new CpuSession({ level: "hard", human: 2 });
  const desc = { ...ready.variants.classic, sides: ["S", "E", "N", "W"] };
  new GameController({ engine: ready.engine, desc, session: four,
    options: { variant: "classic" }, random: counter(1) });
  assert.deepEqual(four.cpuSeats(), [0, 1, 3]);
  assert.deepEqual(Object.keys(four.newGameRequest().cpu), ["0", "1", "3"]);
  assert.equal(four.nextOptions(true).human, 3);
});

test("on one device: nobody is 'you'; the curtain waits for the first seat still to deploy", async () => {
  assert.equal(curtainSeat({ phase: "setup", deployed: [true, true, false, false] }), 2);
  assert.equal(curtainSeat({ phase: "play", turn: 3, deployed: [true, true, true, true] }), 3);
  const game = newGame({ engine: ready.engine, desc: ready.variants.classic,
    options: { variant: "classic", mode: "hotseat" },
    store: memoryStore(), random: counter(5) });
  assert.ok(game.session instanceof LocalSession);
  assert.equal(game.session.shared, true);
  assert.equal(game.session.you, null);
  await game.start();
  assert.equal(game.ui, "curtain");
  assert.equal(game.sideName(0), "Red", "the seats by the variant's names");
  await game.openCurtain();
  await game.confirm();
  await until(game, "curtain");
  assert.equal(game.curtainSeat, 1, "the next seat to deploy");
  assert.equal(game.store.loadLayout("classic", 0), null, "no layout kept for the other player to load");
  game.dispose();
});

test("with a friend: actions go to the peer; this seat's own layouts only; no record of Blind", async () => {
  const session = new FriendSession({ options: { role: "host", variant: "blind" }, variants: ready.variants });
  const game = new GameController({ engine: ready.engine, desc: ready.variants.blind, session,
    options: { variant: "blind" } });
  assert.equal(game.ui, "link", "a friend game starts at its link");
  assert.equal(session.you, null, "the seat comes with the hello");
  assert.deepEqual(session.layoutSeats(1), [1]);
  await assert.rejects(session.submit({ op: "cpu_act" }), /not a friend-game request/);
  // The peer's view says whether the audited game can be kept: not for Blind yet.
  game.ui = "over";
  game.view = { phase: "over", result: { winner: 0, reason: "resignation" },
    fair: { stage: "done", record: false } };
  assert.deepEqual([game.controls().record.shown, game.controls().replay.shown], [false, false]);
  game.view = { ...game.view, fair: { stage: "done", record: true } };
  assert.equal(game.controls().record.shown, true);
  assert.equal(game.controls().reconnect.shown, false, "a decided game needs no new connection");
  game.dispose();
});

test("the words come from the variant's description, whatever the variant is called", () => {
  const session = new LocalSession();
  // Blind's facts under another name: the colours are decided in play, the game has flips.
  const desc = { ...ready.variants.blind, id: "zzz" };
  const game = new GameController({ engine: ready.engine, desc, session, options: { variant: "zzz" } });
  game.view = { phase: "play", turn: 0, colours: null, history: [], board: {}, actions: [] };
  game.ui = "play";
  game.viewer = 0;
  assert.equal(game.sidesText(), "Colours are decided by the first flip.");
  assert.equal(game.sideName(0), "You", "seats without colours of their own: 'You' while a player looks");
  game.view = { ...game.view, colours: ["blue", "red"] };
  assert.equal(game.sideName(1), "The other player (red)");
  assert.equal(game.colourClass({ owner: 0, kind: "bomb" }), "blue");
  assert.deepEqual(session.sinceLastTurn().map((f) => f()), [
    "Tap a face-down piece to flip it, or one of your face-up pieces to move it."]);
  // Classic's facts: the names are the colours, so one device shows no sides line.
  const classic = new GameController({ engine: ready.engine, desc: { ...ready.variants.classic, id: "yyy" },
    session: new LocalSession(), options: { variant: "classic" } });
  classic.view = { phase: "play", turn: 0, history: [], board: {}, actions: [] };
  classic.ui = "play";
  assert.equal(classic.sidesText(), "");
  assert.equal(classic.colourClass({ owner: 1, kind: "bomb" }), "blue");
  assert.equal(classic.pieceName("bomb"), "Bomb", "the piece family names the piece");
});
