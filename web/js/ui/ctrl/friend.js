// A game with a friend on another device: the game around the fair-play peer that runs in
// the engine (docs/fair-play.md). The session interface: session.js; the link exchange and
// the data channel: friendlink.js (FriendLink, `session.connection`). No DOM:
// web/js/ui/view/friend.js draws the connection panel, the board is the usual GameView.
//
// Python decides: the peer (`fair_*` bridge ops) checks every message, keeps this page's
// own secrets and gives this seat's view; this file moves texts between the peer and the
// channel without looking inside, keeps the page's copy of the peer's state in local
// storage (written BEFORE anything a call returned is sent), and runs the clock ticks.
//
//   const game = newGame({engine, variants, options: {mode: "friend", role: "host",
//     variant, preset, rules, clock: true, net: "lan"}, store, saves, net});   // session.js
//   await game.start();                                // host: an invitation link
//   game.session.connection.link                       // {kind: "offer", code, url}
//   await game.session.connection.takeSignal(text);    // the friend's reply

import { t, has } from "../i18n.js";
import { Stale } from "./game.js";
import { resultText } from "./words.js";
import { FriendLink, randomTag } from "./friendlink.js";
import { variantName } from "./gamescreen.js";
import { MOVE_SECONDS, SETUP_SECONDS } from "./hotseat.js";

/** @typedef {import("./game.js").GameController} GameController */
/** @typedef {import("./session.js").Reply} Reply */
/**
 * The browser's saved friend game (saves.js, FriendSaves): one at a time.
 * @typedef {{load(): any, save(record: object): void, saveClock(clock: object): void,
 *   clear(): void}} FriendStore
 */

export { PAUSE_MS, TICK_MS } from "./friendlink.js";

/** The page's requests as calls of the peer (the `fair` op's fields). */
const PEER_CALLS = {
  setup_swap: (/** @type {any} */ r) => ({ call: "setup", setup: "swap", a: r.a, b: r.b }),
  setup_random: () => ({ call: "setup", setup: "random" }),
  setup_mirror: () => ({ call: "setup", setup: "mirror" }),
  setup_set: (/** @type {any} */ r) => ({ call: "setup", setup: "set", layout: r.layout }),
  deploy: () => ({ call: "deploy" }),
  act: (/** @type {any} */ r) => ({ call: "act", action: r.action }),
  view: () => ({ call: "view" }),
};

/** The screen's state from the peer's stage (a seat that deployed waits for the other). */
const STAGE_UI = { setup: "setup", deal: "wait", play: "play", ended: "audit", done: "over" };

export class FriendSession {
  /**
   * @param {object} deps
   * @param {any} deps.options  {role: "host"|"guest", variant, preset, rules, clock: bool,
   *   net: "lan"|"stun", signal (guest: the invitation {kind, net, game, sdp, about}),
   *   saved (a record of saves.load(), to go on after a reload), then (an invitation to
   *   answer once the saved game is back)}
   * @param {Record<string, any>} [deps.variants]  static descriptions by variant id
   * @param {FriendStore} [deps.saves]
   * @param {any} [deps.net]  {Channel, encodeSignal, decodeSignal, signalURL}
   * @param {string[]} [deps.stun]  this build's STUN URLs
   * @param {string} [deps.pageURL]  the page's address (links are made from it)
   * @param {() => number} [deps.wall]  ms since the epoch
   * @param {number} [deps.moveSeconds]  @param {number} [deps.setupSeconds]  the clock the host proposes
   */
  constructor({ options, variants = {}, saves, net, stun = [], pageURL = "", wall = () => Date.now(),
    moveSeconds, setupSeconds }) {
    /** @type {"friend"} */
    this.mode = "friend";
    this.shared = false;
    this.opponent = "friend";
    this.rivalKey = "side.friend";
    this.keepsLayouts = true; // this player's own, on this device
    this.engineGame = false; // the game lives in the peer, which saves itself as it goes
    this.gameId = null;
    /** @type {GameController} */
    this.game = /** @type {any} */ (null);
    this.variants = variants || {};
    this.saves = saves;
    this.clockOn = Boolean(options.clock);
    this.moveSeconds = moveSeconds || MOVE_SECONDS;
    this.setupSeconds = setupSeconds || SETUP_SECONDS;
    this.role = options.role || "host";
    this.signal = options.signal || null;
    this.saved = options.saved || null;
    this.then = options.then || null;
    /** @type {string|null} the peer's id in the engine */
    this.peer = null;
    this.match = options.saved?.match || options.signal?.game || "";
    /** @type {Promise<any>} the peer's calls, one at a time, in order */
    this.queue = Promise.resolve();
    this.connection = new FriendLink({ session: this, net, stun, pageURL, wall,
      netMode: options.net === "stun" ? "stun" : "lan" });
    this.saveFailed = false;
    this.everResumed = false;
    /** @type {string|null} */
    this.viewText = null;
    /** @type {string|null} */
    this.rulesKey = null;
  }

  /** @param {GameController} game */
  attach(game) {
    this.game = game;
    game.ui = "link";
  }

  /** The person at this screen plays the seat the hello gave (null before it). */
  get you() {
    return this.game.viewer;
  }

  // --- the peer in the engine: one call at a time, in order ---------------------------

  /** Run a call of the peer (fields of the `fair` op) after the calls before it.
   * @param {object} fields @returns {Promise<Reply>} */
  peerCall(fields) {
    const run = () => this._peerCall(fields);
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }

  /** @param {any} fields @returns {Promise<Reply>} */
  async _peerCall(fields) {
    const game = this.game;
    const token = game.token;
    if (!this.peer) return { ok: false, error: { code: "no_game", message: "no friend game" } };
    const reply = await game.engine.call({ op: "fair", peer: this.peer,
      now: this.connection.gameNow(), ...fields });
    if (token !== game.token) throw new Stale();
    if (!reply.ok) {
      if (fields.call === "receive") {
        // A message the peer refused changed nothing; the other page is out of step until
        // a resume. Say so (the reason is the engine's).
        const message = reply.error?.message || "?";
        game.setMessage(() => t("friend.refused", { message }));
        game.changed();
      }
      return reply;
    }
    if (!this.connection.asOffered(reply.view)) {
      // The host's page started another game than its invitation offered (and the Join
      // screen showed): nothing is answered, the game stops here.
      this.cannotJoin(() => t("friend.not_as_offered"));
      return { ok: false, error: { code: "not_as_offered", message: "not the game offered" } };
    }
    if (reply.events.some((/** @type {any} */ ev) => ev.type === "taken")) {
      // The invitation this page answered was used by someone else: its host's page said so.
      this.cannotJoin(() => t("friend.taken"));
      return { ok: false, error: { code: "taken", message: "the invitation was already taken" } };
    }
    this.persist(reply.state); // the write-ahead rule: saved before anything is sent
    for (const text of reply.send) this.connection.transmit(text);
    // `view` and `state` come only when the peer's state changed or there are events to
    // show (a quiet tick has neither)
    if (reply.view || reply.events.length) await this.apply(reply.view ?? game.view, reply.events);
    return { ok: true }; // shown already: no view for the controller to show again
  }

  /** Where the controller's requests go: calls of the peer (records: its audited record).
   * @param {any} request @returns {Promise<Reply>} */
  async submit(request) {
    if (request.op === "record_export") return this.record();
    if (request.op === "record_text" || request.op === "record_link") return this.fromRecord(request.op);
    const fields = PEER_CALLS[/** @type {keyof typeof PEER_CALLS} */ (request.op)];
    if (!fields) throw new Error(`not a friend-game request: ${request.op}`);
    return this.peerCall(fields(request));
  }

  /** The audited game's record (not through the queue: it changes nothing). */
  async record() {
    const token = this.game.token;
    const reply = await this.game.engine.call({ op: "fair", peer: this.peer, call: "record" });
    if (token !== this.game.token) throw new Stale();
    return reply;
  }

  /** An op on the finished game's record, imported for a moment as a game of this page.
   * @param {string} op */
  async fromRecord(op) {
    const engine = this.game.engine;
    const record = await this.record();
    if (!record.ok) return record;
    const imported = await engine.call({ op: "record_import", record: record.record });
    if (!imported.ok) return imported;
    const reply = await engine.call({ op, game: imported.game });
    await engine.call({ op: "drop", game: imported.game });
    return reply;
  }

  /** This page cannot join the game (another game than offered, or the invitation was
   * taken): say why and stop; nothing of it is kept. @param {() => string} why */
  cannotJoin(why) {
    const game = this.game;
    game.token++;
    this.connection.closeChannel();
    this.connection.conn = "none";
    this.connection.link = null;
    game.ui = "error";
    this.saves?.clear();
    if (this.peer) game.engine.call({ op: "fair_drop", peer: this.peer }).catch(() => {});
    this.peer = null;
    game.setMessage(why);
    game.changed();
    game.fx.say(game.messageText());
  }

  /** @param {string|undefined} state  the peer's state, kept before anything is sent */
  persist(state) {
    if (state === undefined) return;
    try {
      this.saves?.save({
        match: this.match, role: this.role, net: this.connection.netMode,
        variant: this.game.variant || null, state, updated: this.connection.wall(),
      });
      this.saveFailed = false;
    } catch {
      this.saveFailed = true; // the game goes on; a reload would lose it
    }
  }

  // --- what the peer said ------------------------------------------------------------

  /** A new view and the events of one call: words, flashes, the state of the screen.
   * @param {any} view @param {any[]} events */
  async apply(view, events) {
    const game = this.game;
    const before = game.view;
    const text = JSON.stringify(view);
    if (!events.length && text === this.viewText) return; // a quiet tick: nothing to redraw
    this.viewText = text;
    if (view.variant && (!game.desc || this.rulesKey !== JSON.stringify(view.rules))) {
      await this.describe(view);
    }
    const actions = [];
    const lines = [];
    let verdict = null;
    for (const ev of events) {
      if (ev.type === "action") actions.push(ev.event);
      else if (ev.type === "deployed" && ev.player !== view.player) lines.push(() => t("friend.deployed"));
      else if (ev.type === "play") lines.push(() => t("play.started"));
      else if (ev.type === "game_over") lines.push(() => t("friend.checking"));
      else if (ev.type === "verdict") verdict = ev.verdict;
      else if (ev.type === "new_game") lines.push(() => t("friend.rematch_started"));
      else if (ev.type === "dispute") lines.push(() => t("friend.dispute"));
      else if (ev.type === "resumed" && this.everResumed) lines.push(() => t("friend.resumed"));
      if (ev.type === "resumed") this.everResumed = true;
    }
    if (view.fair?.seat !== undefined) {
      game.viewer = view.fair.seat;
      game.seat = view.fair.seat;
    }
    if (actions.length) {
      await game.showEvents(actions, view, true, lines);
    } else {
      game.view = view;
      if (lines.length) game.setMessage(...lines);
    }
    const wasOver = game.ui === "over";
    if (before?.fair?.stage !== view.fair?.stage) this.connection.saveClock();
    this.syncUi();
    if (game.ui === "setup" && before?.fair?.game !== view.fair?.game) game.resetMarks();
    this.connection.updateClock();
    // The audit's word goes on the message line before the redraw, so the screen shows it.
    const ending = game.ui === "over" && (!wasOver || verdict);
    if (ending) this.verdictMessage();
    game.changed();
    if (ending) this.ended();
    else if (lines.length && !actions.length) game.fx.say(game.messageText());
  }

  /** The rules came with the view: the variant's description under them. @param {any} view */
  async describe(view) {
    const game = this.game;
    const rules = view.rules || {};
    game.variant = view.variant;
    game.desc = this.variants[view.variant] || game.desc;
    /** @type {any} */
    const request = { op: "describe", variant: view.variant };
    if (rules.preset) request.preset = rules.preset;
    if (rules.options) request.options = rules.options;
    const reply = await game.engine.call(request);
    if (reply.ok) game.desc = reply.description;
    this.rulesKey = JSON.stringify(view.rules);
  }

  /** The screen's state from the peer's stage. */
  syncUi() {
    const game = this.game;
    const fair = game.view?.fair;
    if (!fair || fair.stage === "hello") {
      game.ui = "link";
      return;
    }
    const deployed = game.view.deployed?.[game.viewer ?? 0];
    game.ui = fair.stage === "setup" && deployed ? "wait"
      : STAGE_UI[/** @type {keyof typeof STAGE_UI} */ (fair.stage)] || "wait";
  }

  /** The audit's verdict on the message line: who broke the rules at which move, and how;
   * or that everything was checked. */
  verdictMessage() {
    const game = this.game;
    game.resetMarks();
    const verdict = game.view.fair?.verdict;
    if (verdict?.fault) game.setMessage(() => this.faultText(verdict.fault));
    else if (verdict?.ok) game.setMessage(() => t("friend.audit_ok"));
  }

  ended() {
    this.game.ended();
    if (this.game.view.fair?.stage === "done") this.connection.saveClock();
  }

  /** @param {{player: number, action?: number|null, code: string, message?: string}} fault */
  faultText(fault) {
    const n = fault.action ?? null;
    const key = fault.player === this.game.viewer ? "friend.fault.mine" : "friend.fault.theirs";
    // what was wrong, in the page's language (`fault.<code>`), else the engine's words
    const how = has(`fault.${fault.code}`) ? t(`fault.${fault.code}`) : fault.message || "";
    return t(n === null ? `${key}.setup` : key, { n, message: how });
  }

  /** Whether the connection panel lies over the board: while a link is to be sent, or the
   * connection is down during a game; never over a decided game's final board. */
  panelShown() {
    if (this.connection.link) return true;
    if (this.game.view?.fair?.stage === "done") return false;
    return this.connection.conn !== "open";
  }

  // --- flow ------------------------------------------------------------------------

  /** Host a game, join one, or go on with the saved one; then the links. */
  async open() {
    const game = this.game;
    const token = game.token;
    const saved = this.saved;
    const link = this.connection;
    game.setMessage();
    let reply;
    if (saved) {
      reply = await game.engine.call({ op: "fair_restore", state: saved.state });
      link.pause = { paused: saved.clock?.paused || 0,
        since: saved.clock?.since ?? saved.clock?.alive ?? link.wall() };
      link.netMode = saved.net === "stun" ? "stun" : "lan";
      this.role = saved.role;
    } else if (this.role === "host") {
      this.match = randomTag();
      /** @type {any} */
      const request = { op: "fair_host", variant: game.variant, clock: this.clockRules() };
      if (game.opts.preset) request.preset = game.opts.preset;
      if (game.opts.rules && Object.keys(game.opts.rules).length) request.options = game.opts.rules;
      reply = await game.engine.call(request);
    } else {
      reply = await game.engine.call({ op: "fair_guest" });
    }
    if (token !== game.token) {
      if (reply.ok) game.engine.call({ op: "fair_drop", peer: reply.peer }).catch(() => {});
      return;
    }
    if (!reply.ok) {
      const message = reply.error?.message || "?";
      game.setMessage(() => t(saved ? "friend.restore_failed" : "error.refused", { message }));
      game.ui = "error";
      game.changed();
      return;
    }
    this.peer = reply.peer;
    if (saved) {
      link.conn = "lost";
      this.persist(saved.state);
    } else {
      this.persist(reply.state);
    }
    await this.apply(reply.view, reply.events || []);
    link.startTicking();
    if (saved && this.then) {
      await link.answerInvite(this.then); // the friend's invitation to reconnect
    } else if (saved) {
      link.connNote = () => t("friend.reload"); // goes once the connection is back
      game.setMessage(link.connNote);
      game.changed();
    } else if (this.role === "host") {
      await link.invite();
    } else {
      await link.answerInvite(this.signal);
    }
  }

  /** The clock rules the host proposes: null (no clock) or {deploy, move} in seconds. */
  clockRules() {
    if (!this.clockOn) return null;
    return { deploy: this.setupSeconds, move: this.moveSeconds };
  }

  /** @param {string} _action */
  acting(_action) {} // the clocks are the peer's: its tick sends this seat's time-outs

  /** The peer's view already says what comes next (apply). */
  async next() {}

  async deployed() {
    const game = this.game;
    if (game.ui === "wait") game.setMessage(() => t("friend.wait_deploy"));
    game.changed();
  }

  /** "Previous layout": this seat's own only (the peer takes a layout as it stands on this
   * seat's squares; it turns nothing round). @param {number} seat */
  layoutSeats(seat) {
    return [seat];
  }

  // --- the game around the board ---------------------------------------------------------

  title() {
    const variant = this.game.variant ? variantName(this.game.variant) : t("friend.title");
    const seat = this.game.viewer === 1 ? ` · ${t("mode.second")}` : "";
    return `${variant} · ${t("mode.friend")}${seat}`;
  }

  statusText() {
    const v = this.game.view;
    switch (this.game.ui) {
      case "link": return t("friend.status.link");
      case "wait": return t(v?.fair?.stage === "deal" ? "friend.status.deal" : "friend.wait_deploy");
      case "audit": return t("friend.checking");
      case "over": return v?.result ? resultText(v.result, this.game.ctx()) : "";
      case "play":
        if (v.fair?.pending) return t("friend.status.exchange");
        return v.turn === this.game.viewer ? t("status.your_turn") : t("friend.status.their_turn");
      default: return null;
    }
  }

  /** @param {Record<string, {shown: boolean, enabled: boolean}>} base */
  controls(base) {
    const game = this.game;
    const over = game.ui === "over";
    const fair = game.view?.fair;
    const record = over && fair?.record !== false; // Blind friend games keep no record yet
    const conn = this.connection.conn;
    return {
      ...base,
      rematch: { shown: over, enabled: over && !game.busy && !fair?.rematch?.mine },
      record: { shown: record, enabled: record && !game.busy },
      replay: { shown: record, enabled: record && !game.busy },
      reconnect: { shown: ["lost", "failed"].includes(conn) && fair?.stage !== "done", enabled: true },
    };
  }

  canResign() {
    const game = this.game;
    return !game.busy && game.view?.fair?.stage === "play" && Boolean(game.view.actions?.includes("resign"));
  }

  inProgress() {
    const stage = this.game.view?.fair?.stage;
    return Boolean(this.peer) && stage !== "done";
  }

  /** "New game" from the menu: host a new one with the same choices. */
  nextOptions() {
    const { signal, saved, then, ...options } = this.game.opts;
    return { ...options, mode: this.mode, variant: this.game.variant || options.variant, role: "host" };
  }

  /** Ask for a rematch (seats switched); it starts in this game when both have asked. */
  async rematch() {
    const game = this.game;
    await game.guard(async () => {
      game.busy = true;
      game.changed();
      const reply = await game.call({ op: "act", action: "rematch" });
      game.busy = false;
      if (!reply.ok) return game.fail(reply);
      if (game.ui === "over") game.setMessage(() => t("friend.rematch_asked"));
      game.changed();
    });
    return null;
  }

  /** The finished game's replay is made from its audited record. */
  async replaySource() {
    const record = await this.game.record();
    return record ? { record } : null;
  }

  dispose() {
    const game = this.game;
    this.connection.stopTicking();
    this.connection.closeChannel();
    if (this.peer) game.engine.call({ op: "fair_drop", peer: this.peer }).catch(() => {});
    // nothing to go back to: a game decided, or an invitation nobody answered (unless the
    // game moves to another tab, which goes on from the save)
    const stage = game.view?.fair?.stage;
    if (!this.connection.moving && ["done", "hello", undefined].includes(stage)) this.saves?.clear();
    this.peer = null;
  }
}
