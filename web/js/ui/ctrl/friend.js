// A game with a friend on another device: the link exchange, the data channel, and the
// game around the fair-play peer that runs in the engine (docs/fair-play.md). No DOM:
// web/js/ui/view/friend.js draws it (the board through the usual GameView); the link
// exchange and the channel are in friendlink.js.
//
// Python decides: the peer (`fair_*` bridge ops) checks every message, keeps this page's
// own secrets and gives this seat's view; this file moves texts between the peer and the
// channel without looking inside, keeps the page's copy of the peer's state in local
// storage (written BEFORE anything a call returned is sent), and runs the clock ticks.
//
//   const game = new FriendGame({engine, variants, options: {mode: "friend", role: "host",
//     variant, preset, rules, clock: true, net: "lan"}, store, saves, net});
//   await game.start();            // host: an invitation link in game.link
//   await game.takeSignal(text);   // the friend's reply (or, to reconnect, an invitation)

import { t, has } from "../i18n.js";
import { GameController, MAX_TIMEOUTS, MOVE_SECONDS, SETUP_SECONDS, Stale } from "./game.js";
import { resultText } from "./words.js";
import { linkMethods, randomTag } from "./friendlink.js";

export { PAUSE_MS, SAVE_KEY, localSaves } from "./friendlink.js";
export const TICK_MS = 1000;

/** GameController as the type checker sees it with friendlink.js's methods, which the
 * Object.assign at the end of this file adds (the same class at run time).
 * @type {new (args: any) => GameController & typeof linkMethods & {moving?: boolean}} */
const LinkedController = /** @type {any} */ (GameController);

export class FriendGame extends LinkedController {
  /**
   * options: {mode: "friend", role: "host"|"guest", variant, preset, rules, clock: bool,
   *   net: "lan"|"stun", signal (guest: the invitation {kind, net, game, sdp}),
   *   saved (a record from saves.load(), to go on after a reload)}
   * variants: static descriptions by variant id; saves: localSaves(); net: {Channel,
   *   encodeSignal, decodeSignal, signalURL}; stun: this build's STUN URLs; pageURL: the
   *   page's address (links are made from it); wall: () => ms since the epoch.
   */
  constructor({ variants, saves, net, stun = [], pageURL = "", wall = () => Date.now(), ...rest }) {
    const options = { ...rest.options };
    super({ ...rest, desc: variants?.[options.variant] || null, options: { ...options, mode: "friend" } });
    this.friend = true;
    this.variants = variants || {};
    this.saves = saves;
    this.net = net;
    this.stun = stun;
    this.pageURL = pageURL;
    this.wall = wall;
    this.role = options.role || "host";
    this.netMode = options.net === "stun" ? "stun" : "lan";
    this.peer = null;
    this.match = options.saved?.match || options.signal?.game || "";
    this.queue = Promise.resolve();
    this.channel = null;
    this.conn = "none"; // none | gathering | invite | reply | connecting | open | lost | failed
    this.connError = null; // why the last connection failed ("no_route", ...)
    this.linkError = null; // what was wrong with a pasted code
    this.link = null; // {kind: "offer"|"answer", code, url}: what this page asks to send
    this.everOpen = false;
    this.pause = { paused: 0, since: null };
    this.notes = []; // lines about the connection and the game around it, for the message
    this.saveFailed = false;
    this.ticking = null;
    this.tickQueued = false;
    this.theirClock = null;
    this.sent = []; // texts sent over the channel (tests read it; never ranks)
    this.ui = "link";
  }

  // --- the peer in the engine: one call at a time, in order ---------------------------

  /** Run a call of the peer (fields of the `fair` op) after the calls before it. */
  peerCall(fields) {
    const run = () => this._peerCall(fields);
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }

  async _peerCall(fields) {
    const token = this.token;
    if (!this.peer) return { ok: false, error: { code: "no_game", message: "no friend game" } };
    const reply = await this.engine.call({ op: "fair", peer: this.peer, now: this.gameNow(), ...fields });
    if (token !== this.token) throw new Stale();
    if (!reply.ok) {
      if (fields.call === "receive") {
        // A message the peer refused changed nothing; the other page is out of step until
        // a resume. Say so (the reason is the engine's).
        const message = reply.error?.message || "?";
        this.note(() => t("friend.refused", { message }));
        this.changed();
      }
      return reply;
    }
    if (!this.asOffered(reply.view)) {
      // The host's page started another game than its invitation offered (and the Join
      // screen showed): nothing is answered, the game stops here.
      this.cannotJoin(() => t("friend.not_as_offered"));
      return { ok: false, error: { code: "not_as_offered", message: "not the game offered" } };
    }
    if (reply.events.some((ev) => ev.type === "taken")) {
      // The invitation this page answered was used by someone else: its host's page said so.
      this.cannotJoin(() => t("friend.taken"));
      return { ok: false, error: { code: "taken", message: "the invitation was already taken" } };
    }
    this.persist(reply.state); // the write-ahead rule: saved before anything is sent
    for (const text of reply.send) this.transmit(text);
    // `view` and `state` come only when the peer's state changed or there are events to
    // show (a quiet tick has neither)
    if (reply.view || reply.events.length) await this.apply(reply.view ?? this.view, reply.events);
    return { ok: true, events: [], view: this.view };
  }

  /** This page cannot join the game (another game than offered, or the invitation was
   * taken): say why and stop; nothing of it is kept. */
  cannotJoin(why) {
    this.token++;
    this.closeChannel();
    this.conn = "none";
    this.link = null;
    this.ui = "error";
    this.saves?.clear();
    if (this.peer) this.engine.call({ op: "fair_drop", peer: this.peer }).catch(() => {});
    this.peer = null;
    this.setMessage(why);
    this.changed();
    this.fx.say(this.messageText());
  }

  persist(state) {
    if (state === undefined) return;
    try {
      this.saves?.save({
        match: this.match, role: this.role, net: this.netMode, variant: this.variant || null,
        state, updated: this.wall(),
      });
      this.saveFailed = false;
    } catch {
      this.saveFailed = true; // the game goes on; a reload would lose it
    }
  }

  transmit(text) {
    this.sent.push(text);
    if (this.sent.length > 500) this.sent.shift();
    this.channel?.send(text);
  }

  // --- what the peer said ------------------------------------------------------------

  /** A new view and the events of one call: words, flashes, the state of the screen. */
  async apply(view, events) {
    const before = this.view;
    const text = JSON.stringify(view);
    if (!events.length && text === this.viewText) return; // a quiet tick: nothing to redraw
    this.viewText = text;
    if (view.variant && (!this.desc || this.rulesKey !== JSON.stringify(view.rules))) {
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
      this.viewer = view.fair.seat;
      this.seat = view.fair.seat;
    }
    if (actions.length) {
      await this.showEvents(actions, view, true, lines);
    } else {
      this.view = view;
      if (lines.length) this.setMessage(...lines);
    }
    const wasOver = this.ui === "over";
    if (before?.fair?.stage !== view.fair?.stage) this.saveClock();
    this.syncUi();
    if (this.ui === "setup" && before?.fair?.game !== view.fair?.game) this.resetMarks();
    this.updateClock();
    // The audit's word goes on the message line before the redraw, so the screen shows it.
    const ending = this.ui === "over" && (!wasOver || verdict);
    if (ending) this.verdictMessage();
    this.changed();
    if (ending) this.ended();
    else if (lines.length && !actions.length) this.fx.say(this.messageText());
  }

  async describe(view) {
    const rules = view.rules || {};
    this.variant = view.variant;
    this.desc = this.variants[view.variant] || this.desc;
    const request = { op: "describe", variant: view.variant };
    if (rules.preset) request.preset = rules.preset;
    if (rules.options) request.options = rules.options;
    const reply = await this.engine.call(request);
    if (reply.ok) this.desc = reply.description;
    this.rulesKey = JSON.stringify(view.rules);
  }

  /** The screen's state from the peer's stage. */
  syncUi() {
    const fair = this.view?.fair;
    if (!fair || fair.stage === "hello") {
      this.ui = "link";
      return;
    }
    const deployed = this.view.deployed?.[this.viewer];
    this.ui = {
      setup: deployed ? "wait" : "setup",
      deal: "wait",
      play: "play",
      ended: "audit",
      done: "over",
    }[fair.stage] || "wait";
  }

  /** The audit's verdict on the message line: who broke the rules at which move, and how;
   * or that everything was checked. */
  verdictMessage() {
    this.resetMarks();
    const verdict = this.view.fair?.verdict;
    if (verdict?.fault) this.setMessage(() => this.faultText(verdict.fault));
    else if (verdict?.ok) this.setMessage(() => t("friend.audit_ok"));
  }

  /** The game just ended (drawn already): sound, words for the live region, focus. */
  ended() {
    this.fx.end(this.view.result, this.viewer);
    this.fx.say([this.statusText(), this.messageText()].filter(Boolean).join(" "));
    this.fx.focus("rematch");
    if (this.view.fair?.stage === "done") this.saveClock();
  }

  faultText(fault) {
    const n = fault.action ?? null;
    const key = fault.player === this.viewer ? "friend.fault.mine" : "friend.fault.theirs";
    // what was wrong, in the page's language (`fault.<code>`), else the engine's words
    const how = has(`fault.${fault.code}`) ? t(`fault.${fault.code}`) : fault.message || "";
    return t(n === null ? `${key}.setup` : key, { n, message: how });
  }

  /** Whether the connection panel lies over the board: while a link is to be sent, or the
   * connection is down during a game; never over a decided game's final board. */
  panelShown() {
    if (this.link) return true;
    if (this.view?.fair?.stage === "done") return false;
    return this.conn !== "open";
  }

  note(...lines) {
    this.setMessage(...lines);
  }

  // --- flow ------------------------------------------------------------------------

  start() {
    return this.guard(() => this._startFriend());
  }

  async _startFriend() {
    const token = ++this.token;
    if (!this.engine.ready) {
      this.ui = "engine";
      this.changed();
      await this.engine.whenReady;
      if (token !== this.token) return;
    }
    const saved = this.opts.saved;
    let reply;
    if (saved) {
      reply = await this.engine.call({ op: "fair_restore", state: saved.state });
      this.pause = { paused: saved.clock?.paused || 0, since: saved.clock?.since ?? saved.clock?.alive ?? this.wall() };
      this.netMode = saved.net === "stun" ? "stun" : "lan";
      this.role = saved.role;
    } else if (this.role === "host") {
      this.match = randomTag();
      const request = { op: "fair_host", variant: this.variant, clock: this.clockRules() };
      if (this.opts.preset) request.preset = this.opts.preset;
      if (this.opts.rules && Object.keys(this.opts.rules).length) request.options = this.opts.rules;
      reply = await this.engine.call(request);
    } else {
      reply = await this.engine.call({ op: "fair_guest" });
    }
    if (token !== this.token) {
      if (reply.ok) this.engine.call({ op: "fair_drop", peer: reply.peer }).catch(() => {});
      return;
    }
    if (!reply.ok) {
      const message = reply.error?.message || "?";
      this.setMessage(() => t(saved ? "friend.restore_failed" : "error.refused", { message }));
      this.ui = "error";
      this.changed();
      return;
    }
    this.peer = reply.peer;
    if (saved) {
      this.conn = "lost";
      this.persist(saved.state);
    } else {
      this.persist(reply.state);
    }
    await this.apply(reply.view, reply.events || []);
    this.startTicking();
    if (saved && this.opts.then) {
      await this.answerInvite(this.opts.then); // the friend's invitation to reconnect
    } else if (saved) {
      this.connNote = () => t("friend.reload"); // goes once the connection is back
      this.setMessage(this.connNote);
      this.changed();
    } else if (this.role === "host") {
      await this.invite();
    } else {
      await this.answerInvite(this.opts.signal);
    }
  }

  /** The clock rules the host proposes: null (no clock) or {deploy, move} in seconds. */
  clockRules() {
    if (!this.opts.clock) return null;
    return { deploy: this.setupSeconds || SETUP_SECONDS, move: this.clockSeconds || MOVE_SECONDS };
  }

  // --- clocks ----------------------------------------------------------------------

  startTicking() {
    if (this.ticking !== null) return;
    this.ticking = this.timers.every(() => this.tick(), TICK_MS);
  }

  tick() {
    this.updateClock();
    this.changed("clock");
    if (this.conn === "open" && this.wall() - (this.lastAlive || 0) > 5000) {
      this.lastAlive = this.wall();
      this.saveClock();
    }
    const stage = this.view?.fair?.stage;
    if (!this.peer || !stage || stage === "hello" || stage === "done" || this.tickQueued) return;
    this.tickQueued = true;
    this.peerCall({ call: "tick" }).catch(() => {}).finally(() => (this.tickQueued = false));
  }

  updateClock() {
    const d = this.view?.fair?.deadlines;
    const now = this.gameNow();
    const left = (at) => Math.max(0, Math.ceil((at - now) / 1000));
    const stage = this.view?.fair?.stage;
    const running = stage === "setup" || stage === "play";
    this.clock = running && d?.mine ? {
      left: left(d.mine), setup: stage === "setup",
      timeouts: this.view.timeouts?.[this.viewer] ?? 0, max: MAX_TIMEOUTS,
    } : null;
    this.theirClock = running && d?.theirs && d.waiting_for !== "reply" ? left(d.theirs) : null;
  }

  // Own time-outs are the peer's (its tick sends them); the base class's clock stays off.
  startClock() {}

  stopClock() {}

  // --- this player's actions -----------------------------------------------------------

  /** The base class's engine requests, as calls of the peer. */
  async call(request) {
    const token = this.token;
    const fields = {
      setup_swap: { call: "setup", setup: "swap", a: request.a, b: request.b },
      setup_random: { call: "setup", setup: "random" },
      setup_mirror: { call: "setup", setup: "mirror" },
      setup_set: { call: "setup", setup: "set", layout: request.layout },
      deploy: { call: "deploy" },
      act: { call: "act", action: request.action },
      view: { call: "view" },
      record_export: { call: "record" },
    }[request.op];
    if (!fields) throw new Error(`not a friend-game request: ${request.op}`);
    if (fields.call === "record") {
      const reply = await this.engine.call({ op: "fair", peer: this.peer, call: "record" });
      if (token !== this.token) throw new Stale();
      return reply;
    }
    const reply = await this.peerCall(fields);
    if (token !== this.token) throw new Stale();
    return reply;
  }

  async act(action) {
    this.busy = true;
    this.changed();
    const reply = await this.call({ op: "act", action });
    this.busy = false;
    if (!reply.ok) {
      this.fail(reply);
      return false;
    }
    this.resetMarks();
    this.changed();
    return true;
  }

  async _confirm() {
    if (this.ui !== "setup" || this.busy) return;
    this.busy = true;
    this.changed();
    const seat = this.viewer;
    const mine = Object.fromEntries(Object.entries(this.view.board)
      .filter(([, p]) => p.owner === seat).map(([sq, p]) => [sq, p.kind]));
    const reply = await this.call({ op: "deploy" });
    this.busy = false;
    if (!reply.ok) {
      const error = reply.error;
      this.setMessage(() => this.refusal(error));
      this.changed();
      return;
    }
    this.resetMarks();
    this.store?.saveLayout(this.variant, seat, mine); // this player's own, on this device
    // (`this.ui` changed during the await: the cast keeps tsc from assuming "setup")
    if (/** @type {string} */ (this.ui) === "wait") this.setMessage(() => t("friend.wait_deploy"));
    this.changed();
  }

  /** "Previous layout": this seat's own only (the peer takes a layout as it stands on
   * this seat's squares; it turns nothing round). */
  hasPrevious() {
    return Boolean(this.store?.loadLayout(this.variant, this.viewer));
  }

  previous() {
    const layout = this.store?.loadLayout(this.variant, this.viewer);
    if (!layout) {
      this.setMessage(() => t("setup.no_previous"));
      this.changed();
      return Promise.resolve(false);
    }
    return this.setupOp("setup_set", { layout });
  }

  /** "New game" from the menu: host a new one with the same choices. */
  nextOptions() {
    const { signal, saved, then, ...options } = this.opts;
    return { ...options, variant: this.variant || options.variant, role: "host" };
  }

  async setupTimeout() {}

  async timeout() {}

  /** Ask for a rematch (seats switched); it starts when both have asked. */
  rematch() {
    if (this.ui !== "over" || this.busy) return Promise.resolve(false);
    return this.guard(async () => {
      this.busy = true;
      this.changed();
      const reply = await this.call({ op: "act", action: "rematch" });
      this.busy = false;
      if (!reply.ok) return this.fail(reply);
      if (this.ui === "over") this.setMessage(() => t("friend.rematch_asked"));
      this.changed();
    });
  }

  async finish() {}

  afterAction() {}

  inProgress() {
    const stage = this.view?.fair?.stage;
    return Boolean(this.peer) && stage !== "done";
  }

  canResign() {
    return !this.busy && this.view?.fair?.stage === "play" && Boolean(this.view.actions?.includes("resign"));
  }

  dispose() {
    if (this.ticking !== null) this.timers.stop(this.ticking);
    this.ticking = null;
    this.closeChannel();
    if (this.peer) this.engine.call({ op: "fair_drop", peer: this.peer }).catch(() => {});
    // nothing to go back to: a game decided, or an invitation nobody answered (unless the
    // game moves to another tab, which goes on from the save)
    if (!this.moving && ["done", "hello", undefined].includes(this.view?.fair?.stage)) this.saves?.clear();
    this.peer = null;
    this.token++;
    this.listeners = [];
  }

  // --- words -----------------------------------------------------------------------

  isYou(seat) {
    return seat === this.viewer;
  }

  sideName(seat) {
    let name = t(seat === this.viewer ? "side.you" : "side.friend");
    const colours = this.view?.colours;
    if (this.variant === "blind" && colours) {
      name = t("side.with_colour", { side: name, colour: t(`colour.${colours[seat]}`) });
    }
    return name;
  }

  ctx() {
    return { ...super.ctx(), you: true };
  }

  title() {
    const variant = this.variant ? t(`variant.${this.variant}`) : t("friend.title");
    const seat = this.viewer === 1 ? ` · ${t("mode.second")}` : "";
    return `${variant} · ${t("mode.friend")}${seat}`;
  }

  statusText() {
    const v = this.view;
    switch (this.ui) {
      case "engine": return t("status.engine");
      case "error": return t("status.error");
      case "link": return t("friend.status.link");
      case "setup": return t("status.setup");
      case "wait": return t(v?.fair?.stage === "deal" ? "friend.status.deal" : "friend.wait_deploy");
      case "audit": return t("friend.checking");
      case "over": return v?.result ? resultText(v.result, this.ctx()) : "";
      case "play":
        if (v.fair?.pending) return t("friend.status.exchange");
        return v.turn === this.viewer ? t("status.your_turn") : t("friend.status.their_turn");
      default: return "";
    }
  }

  // --- the finished game: replay, move list, link (from the audited record) ---------------

  async replaySource() {
    const record = await this.record();
    return record ? { record } : null;
  }

  async recordText() {
    return this.fromRecord("record_text", "text");
  }

  async recordLink() {
    return this.fromRecord("record_link", "link");
  }

  /** An op on the finished game's record, imported for a moment as a game of this page. */
  async fromRecord(op, field) {
    const record = await this.record();
    if (!record) return null;
    const imported = await this.engine.call({ op: "record_import", record });
    if (!imported.ok) {
      this.fail(imported);
      return null;
    }
    const reply = await this.engine.call({ op, game: imported.game });
    await this.engine.call({ op: "drop", game: imported.game });
    if (!reply.ok) {
      this.fail(reply);
      return null;
    }
    return reply[field];
  }

  controls() {
    const base = super.controls();
    const over = this.ui === "over";
    const fair = this.view?.fair;
    return {
      ...base,
      changeTurn: { shown: false, enabled: false },
      curtain: { shown: false, enabled: false },
      rematch: { shown: over, enabled: over && !this.busy && !fair?.rematch?.mine },
      record: { shown: over && this.variant !== "blind", enabled: over && !this.busy },
      replay: { shown: over && this.variant !== "blind", enabled: over && !this.busy },
      reconnect: { shown: ["lost", "failed"].includes(this.conn) && fair?.stage !== "done", enabled: true },
    };
  }
}

// The connection: links, the channel, the clock held while it is down (friendlink.js).
Object.assign(FriendGame.prototype, linkMethods);
