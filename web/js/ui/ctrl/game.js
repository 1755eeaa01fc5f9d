// One game: setup, play, the hot-seat curtain, CPU turns, the end. State and actions only,
// no DOM: web/js/ui/view/game.js draws it and turns clicks into these actions, and
// tests/js/ drives it in Node.
//
// Python decides, this file keeps track: every rule comes from the engine. What a player
// may do now is the view's `dests` (every move and flip of the side to move), so a tap is
// looked up there; nothing here knows how pieces move.
//
// Hidden information: `this.view` is the only game state kept here, and it is always the
// view of `this.viewer` as the engine gave it (null = the public view, no ranks at all).
// When the hot-seat curtain comes down the view is replaced by the public one, and the
// message, selection and live region are cleared, so the page holds no ranks of the player
// who is not looking.
//
//   const game = new GameController({engine, desc, options, store});
//   game.subscribe((what) => render(game, what));   // what: "all" or "clock"
//   await game.start();
//   await game.tap("c4");

import { t, pieceName } from "../i18n.js";
import * as words from "./words.js";
import { curtainSeat } from "./resume.js";

export const MAX_TIMEOUTS = 3;
export const MOVE_SECONDS = 30;
export const SETUP_SECONDS = 90;
const CPU_MIN_MS = 450; // the "thinking" state stays visible at least this long

/** An answer that arrived for a game that is no longer on screen. */
export class Stale extends Error {}

/** What a game does besides drawing itself; the view passes its own (see the defaults).
 * @typedef {{move: (from: string, to: string) => Promise<void>,
 *   events: (events: object[], viewer: number | null) => void, say: (text: string) => void,
 *   focus: (what: string) => void, end: (result: object, viewer: number | null) => void}} Effects
 * @type {Effects} */
const NO_EFFECTS = {
  move: async () => {}, // slide a piece before the new view is drawn
  events: () => {}, // flashes and sounds for events, after the new view is drawn
  say: () => {}, // the live region
  focus: () => {}, // "changeTurn" | "rematch" | "curtain" | "board" | "next" (if focus was lost)
  end: () => {}, // the game just ended: {winner, reason}, viewer
};

const randomSeed = () => Math.floor(Math.random() * 2 ** 32);

export class GameController {
  /**
   * engine: {call(request) -> Promise<reply>, ready: bool, whenReady: Promise}
   * desc: the variant's description (static data; a new_game reply may replace it)
   * options: {variant, mode: "cpu"|"hotseat", level, human: 0|1, clock: bool,
   *           preset, rules: {option id: value}, restored: a saved game's resume_game reply}
   * store: {loadLayout(variant, seat), saveLayout(variant, seat, layout)}
   * settings: () => {labels: "characters"|"words"} (read at render time)
   * @param {{engine: any, desc: any, options: any, store?: any, effects?: Partial<Effects>,
   *   settings?: () => any, timers?: any, random?: (() => number) | null,
   *   clockSeconds?: number, setupSeconds?: number, cpuMinMs?: number}} args
   */
  constructor({ engine, desc, options, store, effects = {}, settings = () => ({}), timers,
    random = null, clockSeconds = MOVE_SECONDS, setupSeconds = SETUP_SECONDS,
    cpuMinMs = CPU_MIN_MS }) {
    this.engine = engine;
    this.desc = desc;
    this.opts = { human: 0, clock: false, ...options };
    this.variant = options.variant;
    this.store = store;
    this.fx = { ...NO_EFFECTS, ...effects };
    this.settings = settings;
    this.timers = timers || {
      now: () => performance.now(),
      every: (fn, ms) => setInterval(fn, ms),
      stop: (id) => clearInterval(id),
      later: (fn, ms) => setTimeout(fn, ms),
    };
    this.random = random || randomSeed;
    // A game's seed decides the CPU's layout and choices: the page sends one only when a
    // test asks for repeatable games (`random`); otherwise the engine draws it in secret.
    this.seeded = Boolean(random);
    this.clockSeconds = clockSeconds;
    this.setupSeconds = setupSeconds;
    this.cpuMinMs = cpuMinMs;

    this.cpu = this.opts.mode === "cpu";
    this.human = this.opts.human;
    this.cpuSeat = this.cpu ? 1 - this.human : null;
    this.token = 0;
    this.gameId = null;
    this.view = null;
    this.viewer = this.cpu ? this.human : null;
    this.seat = this.cpu ? this.human : 0; // whose side is at the bottom of the board
    this.curtainSeat = null;
    this.ui = "loading";
    this.busy = false;
    this.clock = null; // {left, setup: bool} while a hot-seat clock runs
    this.clockTimer = null;
    this.listeners = [];
    this.lines = []; // the message line: functions, so a language change re-translates it
    this.resetMarks();
    this.resetUndo();
  }

  resetMarks() {
    this.selected = null; // play: the piece whose destinations are shown
    this.pick = null; // setup: the first piece of a swap
    this.refused = null; // setup: the square a refused swap names
  }

  /** Setup: the layouts before each change, newest last (Undo goes back one at a time).
   * Only the looking seat's own pieces; emptied when the seat stops looking. */
  resetUndo() {
    this.undoStack = [];
  }

  subscribe(fn) {
    this.listeners.push(fn);
    return () => (this.listeners = this.listeners.filter((x) => x !== fn));
  }

  changed(what = "all") {
    for (const fn of this.listeners) fn(what);
  }

  /** The message line: say(() => t(...), ...) replaces it; each part is re-run at render. */
  setMessage(...parts) {
    this.lines = parts.filter(Boolean);
  }

  messageText() {
    const parts = this.lines.map((f) => f()).filter(Boolean);
    const other = this.viewer === null ? null : this.sideName(1 - this.viewer);
    if (this.offerPending()) parts.push(t("offer.pending", { side: other }));
    // The player's own offer: what it waits for, and until when.
    if (this.ownOfferPending()) parts.push(t("offer.waiting", { side: other }));
    return parts.join(" ");
  }

  // --- engine --------------------------------------------------------------------------

  async call(request) {
    const token = this.token;
    const reply = await this.engine.call({ game: this.gameId, ...request });
    if (token !== this.token) throw new Stale();
    return reply;
  }

  /** Run an action: stale answers dropped, failures shown. Returns false when it failed. */
  async guard(fn) {
    try {
      await fn();
      return true;
    } catch (err) {
      if (err instanceof Stale) return false;
      console.error(err);
      this.busy = false;
      const message = err.message || String(err);
      this.setMessage(() => t("error.engine", { message }));
      this.changed();
      return false;
    }
  }

  fail(reply) {
    const message = reply.error?.message || "?";
    this.setMessage(() => t("error.refused", { message }));
    this.changed();
    this.fx.say(this.messageText());
  }

  dispose() {
    this.token++;
    this.stopClock();
    if (this.gameId) this.engine.call({ op: "drop", game: this.gameId }).catch(() => {});
    this.gameId = null;
    this.listeners = [];
  }

  // --- flow ----------------------------------------------------------------------------

  /** The new_game request for these options (rule preset and options only when chosen). */
  newGameRequest() {
    const request = { op: "new_game", variant: this.variant };
    if (this.seeded) request.seed = this.random();
    if (this.opts.preset) request.preset = this.opts.preset;
    if (this.opts.rules && Object.keys(this.opts.rules).length) request.options = this.opts.rules;
    if (this.cpu) {
      request.cpu = { [this.cpuSeat]: this.opts.level };
      request.viewer = this.human;
    }
    return request;
  }

  start() {
    return this.guard(() => this._start());
  }

  async _start() {
    const token = ++this.token;
    if (!this.engine.ready) {
      // The start screen works before Python does; the game waits for it here.
      this.ui = "engine";
      this.setMessage(() => t("status.engine_progress", {
        percent: Math.round((this.engine.progress?.fraction || 0) * 100),
      }));
      this.changed();
      await this.engine.whenReady;
      if (token !== this.token) return;
    }
    this.ui = "loading";
    this.setMessage();
    this.changed();
    // A saved game goes on (opts.restored: the worker's resume_game reply, ctrl/resume.js).
    const restored = this.opts.restored;
    delete this.opts.restored;
    const reply = restored || await this.engine.call(this.newGameRequest());
    if (token !== this.token) {
      if (reply.ok) this.engine.call({ op: "drop", game: reply.game }).catch(() => {});
      return;
    }
    if (!reply.ok) {
      const message = reply.error?.message || "?";
      this.setMessage(() => t("error.refused", { message }));
      this.ui = "error";
      this.changed();
      return;
    }
    this.gameId = reply.game;
    if (reply.description) this.desc = reply.description; // these rules' board and pieces
    this.view = reply.view;
    if (this.cpu) return this.route();
    return this.showCurtain(restored ? curtainSeat(this.view) : 0);
  }

  /** Games against the CPU: what comes next after the view changed. */
  async route() {
    const v = this.view;
    if (v.phase === "over") return this.finish();
    if (v.phase === "setup") {
      this.ui = "setup";
      this.setMessage(() => t("setup.hint"));
      this.changed();
      this.focusNext();
      return;
    }
    if (v.turn === this.cpuSeat) return this.runCpu();
    this.ui = "play";
    if (!this.lines.length && this.variant === "blind") this.setMessage(() => t("play.blind_hint"));
    this.changed();
    this.focusNext();
  }

  /** The player acts on the board next: a new game puts focus there; later only when
   * focus was lost (its button went away), never away from where the player is. */
  focusNext() {
    this.fx.focus(this.focusedOnce ? "next" : "board");
    this.focusedOnce = true;
  }

  /** A tap (or Enter on the button grid) on a square. */
  tap(square) {
    if (this.busy) return Promise.resolve(false);
    if (this.ui === "setup") return this.guard(() => this.setupTap(square));
    if (this.ui === "play") return this.guard(() => this.playTap(square));
    return Promise.resolve(false);
  }

  // --- setup -----------------------------------------------------------------------------

  async setupTap(name) {
    const piece = this.view.board[name];
    const mine = Boolean(piece) && piece.owner === this.viewer;
    this.refused = null;
    if (!this.pick || !mine) {
      this.pick = mine && this.pick !== name ? name : null;
      if (mine) {
        const kind = piece.kind;
        this.setMessage(() => t("setup.picked", { sq: name, piece: this.pieceName(kind) }));
      } else {
        this.setMessage(() => t("setup.tap_own"));
      }
      this.changed();
      return;
    }
    if (this.pick === name) {
      this.pick = null;
      this.setMessage(() => t("setup.hint"));
      this.changed();
      return;
    }
    const a = this.pick;
    this.pick = null;
    this.busy = true;
    this.changed();
    const before = this.ownLayout();
    const reply = await this.call({ op: "setup_swap", player: this.viewer, a, b: name });
    this.busy = false;
    if (reply.ok) {
      this.view = reply.view;
      this.undoStack.push({ key: this.setupKey(), layout: before,
        what: () => t("setup.undo.swap", { a, b: name }) });
      this.setMessage(() => t("setup.swapped", { a, b: name }));
    } else {
      this.refused = reply.error.square || name;
      const error = reply.error;
      this.setMessage(() => this.refusal(error));
    }
    this.changed();
    this.fx.say(this.messageText());
  }

  refusal(error) {
    const key = `refuse.${error.code}`;
    const text = t(key, { sq: error.square || "" });
    return text === key ? error.message : t("setup.refused", { reason: text });
  }

  /** setup_random, setup_mirror or setup_set (extra: {layout}). */
  setupOp(op, extra = {}) {
    return this.guard(() => this._setupOp(op, extra));
  }

  async _setupOp(op, extra) {
    if (this.ui !== "setup" || this.busy) return;
    const before = this.ownLayout();
    await this.changeSetup({ op, seed: this.random(), ...extra }, () => {
      this.undoStack.push({ key: this.setupKey(), layout: before, what: () => t(`setup.undo.${op}`) });
      this.setMessage(() => t(`setup.done.${op}`));
    });
  }

  /** A change of this seat's layout asked of the engine: the new view and `done()`, or
   * the refusal said. Focus goes to the board if its button went out of use (Undo at the
   * start). */
  async changeSetup(request, done) {
    this.busy = true;
    this.changed();
    const reply = await this.call({ player: this.viewer, ...request });
    this.busy = false;
    this.resetMarks();
    if (!reply.ok) {
      const error = reply.error;
      this.setMessage(() => this.refusal(error));
    } else {
      this.view = reply.view;
      done();
    }
    this.changed();
    this.fx.say(this.messageText());
    this.fx.focus("next");
  }

  /** The looking seat's pieces as they stand: square -> kind. */
  ownLayout() {
    const seat = this.viewer;
    return Object.fromEntries(Object.entries(this.view?.board || {})
      .filter(([, p]) => p.owner === seat && p.kind).map(([sq, p]) => [sq, p.kind]));
  }

  /** Which setup a change belongs to (a friend's rematch is a new setup in the same game). */
  setupKey() {
    return [this.gameId, this.viewer, this.view?.fair?.game ?? ""].join("|");
  }

  /** Whether Undo has a change of this setup to take back. */
  canUndo() {
    const top = this.undoStack[this.undoStack.length - 1];
    return this.ui === "setup" && Boolean(top) && top.key === this.setupKey();
  }

  /** Setup: take back the last change (a swap is swapped back; a random, mirrored or
   * previous layout gives way to the one before it), one step at a time. */
  undo() {
    return this.guard(() => this._undo());
  }

  async _undo() {
    if (!this.canUndo() || this.busy) return;
    const step = this.undoStack[this.undoStack.length - 1];
    await this.changeSetup({ op: "setup_set", layout: step.layout }, () => {
      this.undoStack.pop();
      this.setMessage(() => t("setup.undone", { what: step.what() }));
    });
  }

  randomLayout() {
    return this.setupOp("setup_random");
  }

  mirror() {
    return this.setupOp("setup_mirror");
  }

  /** The last layout confirmed in this variant: this seat's, else the other seat's (the
   * engine turns that one round to this side: `from_player`). */
  previousLayout() {
    for (const seat of [this.viewer, 1 - this.viewer]) {
      const layout = this.store?.loadLayout(this.variant, seat);
      if (layout) return { layout, from_player: seat };
    }
    return null;
  }

  /** Whether "Previous layout" has something to load. */
  hasPrevious() {
    return Boolean(this.previousLayout());
  }

  previous() {
    const previous = this.previousLayout();
    if (!previous) {
      this.setMessage(() => t("setup.no_previous"));
      this.changed();
      return Promise.resolve(false);
    }
    return this.setupOp("setup_set", previous);
  }

  confirm() {
    return this.guard(() => this._confirm());
  }

  async _confirm() {
    if (this.ui !== "setup" || this.busy) return;
    this.busy = true;
    this.changed();
    const seat = this.viewer;
    const mine = Object.fromEntries(Object.entries(this.view.board)
      .filter(([, p]) => p.owner === seat).map(([sq, p]) => [sq, p.kind]));
    const reply = await this.call({ op: "deploy", player: seat });
    this.busy = false;
    if (!reply.ok) {
      const error = reply.error;
      this.setMessage(() => this.refusal(error));
      this.changed();
      return;
    }
    this.resetMarks();
    this.resetUndo();
    if (this.cpu) {
      // "Previous layout": the last layout confirmed on this seat in a game against the
      // CPU (never from two-player games, where the other player could load it).
      this.store?.saveLayout(this.variant, seat, mine);
      this.view = reply.view;
      this.setMessage(() => t("play.started"));
      return this.route();
    }
    const other = 1 - seat;
    const next = reply.view.deployed[other] ? reply.view.turn ?? 0 : other;
    return this.showCurtain(next);
  }

  // --- play ------------------------------------------------------------------------------

  /** Where the selected piece may go: [{to, attack}] from the view's dests. */
  get targets() {
    if (!this.selected) return [];
    return this.view?.dests?.moves?.[this.selected] || [];
  }

  async playTap(name) {
    const v = this.view;
    const dests = v.dests;
    if (!dests) return; // not this player's turn
    const target = this.targets.find((x) => x.to === name);
    if (target) return this.act(`${this.selected}-${name}`);
    const piece = v.board[name];
    if (dests.moves[name]) {
      if (this.selected === name) {
        this.selected = null;
        this.changed();
        return;
      }
      this.selected = name;
      const kind = piece?.kind;
      const n = dests.moves[name].length;
      this.setMessage(() => t("play.selected", { piece: this.pieceName(kind), sq: name, n }));
      this.changed();
      this.fx.say(this.messageText());
      return;
    }
    if (dests.flips?.includes(name)) return this.act(`flip:${name}`);
    if (piece && piece.owner === this.viewer && piece.kind && !piece.down) {
      const kind = piece.kind;
      this.selected = null;
      this.setMessage(() => t("play.cannot_move", { piece: this.pieceName(kind), sq: name }));
      this.changed();
      this.fx.say(this.messageText());
      return;
    }
    if (this.selected) {
      this.selected = null;
      this.changed();
    }
  }

  async act(action) {
    const meta = /^(offer|accept|decline|resign)/.test(action);
    if (!meta) this.stopClock();
    this.busy = true;
    this.changed();
    const reply = await this.call({ op: "act", player: this.viewer, action });
    this.busy = false;
    if (!reply.ok) {
      this.fail(reply);
      return false;
    }
    this.resetMarks();
    await this.showEvents(reply.events, reply.view, true);
    await this.afterAction();
    return true;
  }

  /** Show what happened: slide, replace the view, words, flashes and sounds. */
  async showEvents(events, view, own, keep = []) {
    const move = events.find((e) => e.type === "move");
    if (move) await this.fx.move(move.from, move.to);
    this.view = view;
    const texts = events.map((ev) => () => {
      const ctx = this.ctx();
      return own && ev.player === this.viewer
        ? words.ownText(ev, ctx, this.view.timeouts[ev.player], MAX_TIMEOUTS)
        : words.eventText(ev, ctx);
    });
    this.setMessage(...keep, ...texts);
    this.changed();
    this.fx.events(events, this.viewer);
    this.fx.say(texts.map((f) => f()).filter(Boolean).join(" "));
  }

  async afterAction() {
    const v = this.view;
    if (v.phase === "over") return this.finish();
    if (this.cpu) return this.route();
    if (v.turn !== this.viewer) {
      this.ui = "moved";
      this.changed();
      this.fx.focus("changeTurn");
      return;
    }
    this.ui = "play";
    this.changed();
  }

  async runCpu() {
    const keep = this.lines; // the result of the player's own move stays on screen
    this.ui = "wait";
    this.changed();
    const started = this.timers.now();
    const reply = await this.call({ op: "cpu_act", player: this.cpuSeat, viewer: this.human });
    const left = this.cpuMinMs - (this.timers.now() - started);
    if (left > 0) await new Promise((resolve) => this.timers.later(resolve, left));
    if (!reply.ok) {
      this.ui = "play";
      this.fail(reply);
      return;
    }
    await this.showEvents(reply.events, reply.view, false, keep);
    return this.afterAction();
  }

  /** The opponent's draw offer waits for this player's answer. */
  offerPending() {
    const v = this.view;
    return this.ui === "play" && Boolean(v) && this.viewer !== null
      && v.offer_by === 1 - this.viewer && v.actions.includes("accept");
  }

  /** This player's draw offer waits for the other's answer. */
  ownOfferPending() {
    const v = this.view;
    return ["play", "wait", "moved"].includes(this.ui) && Boolean(v) && this.viewer !== null
      && v.phase === "play" && v.offer_by === this.viewer;
  }

  offer() {
    if (this.viewer === null || this.busy || !this.view?.actions.includes("offer")) {
      return Promise.resolve(false);
    }
    return this.guard(() => this.act(`offer:${this.viewer}`));
  }

  answer(accept) {
    if (this.viewer === null || this.busy) return Promise.resolve(false);
    return this.guard(() => this.act(`${accept ? "accept" : "decline"}:${this.viewer}`));
  }

  /** Resign (the screen asks "are you sure?" first). */
  resign() {
    if (!this.canResign()) return Promise.resolve(false);
    return this.guard(() => this.act(`resign:${this.viewer}`));
  }

  canResign() {
    return this.viewer !== null && !this.busy && Boolean(this.view) && this.view.phase !== "over"
      && !["wait", "curtain", "engine", "loading"].includes(this.ui);
  }

  // --- hot-seat curtain ------------------------------------------------------------------

  async showCurtain(seat) {
    this.stopClock();
    // Forget everything the last player saw before asking for the public view.
    this.viewer = null;
    this.resetMarks();
    this.resetUndo();
    this.setMessage();
    this.fx.say("");
    this.curtainSeat = seat;
    this.seat = seat;
    this.ui = "curtain";
    // Until the public view arrives: nothing of the last player's, and busy, so that the
    // curtain cannot be opened on a view that is not the engine's.
    this.view = { ...this.view, player: null, actions: [], board: {}, history: [], dests: null,
      lost: [{ count: 0, kinds: null }, { count: 0, kinds: null }] };
    this.busy = true;
    this.changed();
    const reply = await this.call({ op: "view", player: null });
    this.busy = false;
    if (!reply.ok) return this.fail(reply);
    this.view = reply.view;
    this.changed();
    this.fx.focus("curtain");
  }

  openCurtain() {
    return this.guard(() => this._openCurtain());
  }

  async _openCurtain() {
    if (this.ui !== "curtain" || this.busy) return;
    const seat = this.curtainSeat;
    this.busy = true;
    this.changed();
    const reply = await this.call({ op: "view", player: seat });
    this.busy = false;
    if (!reply.ok) return this.fail(reply);
    this.viewer = seat;
    this.seat = seat;
    this.view = reply.view;
    if (this.view.phase === "setup") {
      this.ui = "setup";
      this.setMessage(() => t("setup.hint"));
      this.startClock(this.setupSeconds, () => this.setupTimeout());
    } else if (this.view.phase === "over") {
      return this.finish();
    } else {
      this.ui = "play";
      this.setMessage(...this.sinceLastTurn());
      this.startClock(this.clockSeconds, () => this.timeout());
    }
    this.changed();
    this.fx.say(`${this.statusText()} ${this.messageText()}`);
    this.fx.focus("board");
  }

  /** What the opponent did since this player's last action, in this player's terms. A
   * pending draw offer is left out: the offer line says it (messageText). */
  sinceLastTurn() {
    const history = this.view.history;
    let i = history.length;
    while (i > 0 && history[i - 1].player !== this.viewer) i--;
    const pending = this.offerPending();
    const events = history.slice(i).filter((ev) => !(pending && ev.type === "offer"));
    if (events.length) return events.map((ev) => () => words.eventText(ev, this.ctx()));
    if (pending) return [];
    return [() => t(this.variant === "blind" ? "play.blind_hint" : "play.first_move")];
  }

  changeTurn() {
    if (this.ui !== "moved" || this.busy) return Promise.resolve(false);
    return this.guard(() => this.showCurtain(this.view.turn));
  }

  // --- clock (two players on one device) ----------------------------------------------------

  startClock(seconds, expire) {
    this.stopClock();
    if (this.cpu || !this.opts.clock) return;
    const deadline = this.timers.now() + seconds * 1000;
    const setup = this.view.phase === "setup";
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - this.timers.now()) / 1000));
      this.clock = { left, setup, timeouts: this.view.timeouts[this.viewer], max: MAX_TIMEOUTS };
      this.changed("clock");
      if (left <= 0) {
        this.stopClock();
        this.guard(expire);
      }
    };
    this.clockTimer = this.timers.every(tick, 250);
    tick();
  }

  stopClock() {
    if (this.clockTimer !== null) this.timers.stop(this.clockTimer);
    this.clockTimer = null;
    if (this.clock) {
      this.clock = null;
      this.changed("clock");
    }
  }

  /** Deployment time is up: a random layout is confirmed for the player. */
  async setupTimeout() {
    if (this.ui !== "setup") return;
    if (this.busy) {
      this.timers.later(() => this.guard(() => this.setupTimeout()), 200);
      return;
    }
    await this._setupOp("setup_random", {});
    await this._confirm();
  }

  async timeout() {
    if (this.ui !== "play" || this.viewer === null) return;
    if (this.busy) {
      // an engine call is in flight: try again in a moment
      this.timers.later(() => this.guard(() => this.timeout()), 200);
      return;
    }
    await this.act("timeout");
  }

  // --- end -------------------------------------------------------------------------------

  async finish() {
    this.stopClock();
    this.resetMarks();
    if (this.viewer === null) this.viewer = this.cpu ? this.human : this.seat;
    const reply = await this.call({ op: "view", player: this.viewer });
    if (reply.ok) this.view = reply.view; // everything is revealed now
    this.ui = "over";
    const result = this.view.result;
    this.changed(); // the status line says the result; the message keeps the last events
    this.fx.end(result, this.cpu ? this.human : null);
    this.fx.say([this.statusText(), this.messageText()].filter(Boolean).join(" "));
    this.fx.focus("rematch");
  }

  /** The finished game's record (docs/api.md), or null (the message says why). */
  async record() {
    return this.finishedAs("record_export", "record");
  }

  /** The finished game as a readable move list, or null. */
  async recordText() {
    return this.finishedAs("record_text", "text");
  }

  /** The finished game as a share-link payload (docs/records.md), or null. */
  async recordLink() {
    return this.finishedAs("record_link", "link");
  }

  /** What the replay op needs for this finished game (a friend game gives its record).
   * @returns {Promise<{game?: string, record?: object} | null>} */
  async replaySource() {
    return this.gameId ? { game: this.gameId } : null;
  }

  async finishedAs(op, field) {
    let value = null;
    await this.guard(async () => {
      const reply = await this.call({ op });
      if (!reply.ok) return this.fail(reply);
      value = reply[field];
    });
    return value;
  }

  inProgress() {
    const v = this.view;
    return Boolean(v) && v.phase !== "over" && (v.phase === "play" || this.ui === "setup");
  }

  /** Options for the next game: the same, or (rematch) with sides switched. */
  nextOptions(rematch = false) {
    const human = rematch && this.cpu ? 1 - this.human : this.human;
    return { ...this.opts, human };
  }

  // --- words -----------------------------------------------------------------------------

  pieceName(kind) {
    return pieceName(this.variant, kind);
  }

  isYou(seat) {
    return (this.cpu && seat === this.human) || (this.blindLooking() && seat === this.viewer);
  }

  /** Blind Junqi on one device while a player looks: the seats have no colour of their
   * own, so they are "You" and "the other player", as against the CPU or a friend (at
   * the curtain and at the end, when both may look, the first and second player). */
  blindLooking() {
    return !this.cpu && this.variant === "blind" && this.viewer !== null
      && ["setup", "play", "moved", "wait"].includes(this.ui);
  }

  sideName(seat) {
    let name = this.cpu ? t(seat === this.human ? "side.you" : "side.cpu")
      : this.blindLooking() ? t(seat === this.viewer ? "side.you" : "side.other")
        : t(`side.${this.variant}.${seat}`);
    const colours = this.view?.colours;
    if (this.variant === "blind" && colours) {
      name = t("side.with_colour", { side: name, colour: t(`colour.${colours[seat]}`) });
    }
    return name;
  }

  ctx() {
    return words.wordContext(this, { viewer: this.viewer, you: this.cpu, isYou: (seat) => this.isYou(seat) });
  }

  /** What is written on a piece: its characters (司令) or a short word (Marshal). */
  label(kind) {
    return words.pieceLabel(this.desc, this.variant, this.settings().labels, kind);
  }

  rank(kind) {
    return words.pieceRank(this.desc, kind);
  }

  colourClass(piece) {
    return words.colourClass(this.variant, this.view?.colours, piece);
  }

  title() {
    const mode = this.cpu
      ? t("mode.cpu", { level: levelName(this.opts.level) }) + (this.human === 1 ? ` · ${t("mode.second")}` : "")
      : t("mode.hotseat");
    return `${t(`variant.${this.variant}`)} · ${mode}`;
  }

  statusText() {
    const v = this.view;
    switch (this.ui) {
      case "engine": return t("status.engine");
      case "loading": return t("status.loading");
      case "error": return t("status.error");
      case "curtain": return t("status.curtain", { side: this.sideName(this.curtainSeat) });
      case "setup": return this.cpu ? t("status.setup") : t("status.setup_side", { side: this.sideName(this.viewer) });
      case "wait": return t("status.thinking");
      case "moved": return t("status.moved");
      case "over": return v.result ? words.resultText(v.result, this.ctx()) : "";
      case "play":
        if (v.turn !== this.viewer) return t("status.waiting");
        return this.isYou(this.viewer) ? t("status.your_turn")
          : t("status.turn_side", { side: this.sideName(this.viewer) });
      default: return "";
    }
  }

  sidesText() {
    const v = this.view;
    if (!v || this.ui === "curtain") return "";
    if (this.variant === "blind") {
      return v.colours ? `${this.sideName(0)} · ${this.sideName(1)}` : t("sides.undecided");
    }
    if (this.variant === "classic" && !this.cpu) return "";
    return [0, 1].map((seat) => t("sides.entry", {
      side: this.sideName(seat), colour: t(`colour.${this.colourClass({ owner: seat })}`),
    })).join(" · ");
  }

  curtainText() {
    const phase = this.view?.phase === "setup" ? "setup" : "turn";
    const side = this.sideName(this.curtainSeat);
    return { text: t(`curtain.${phase}`, { side }), button: t(`curtain.open.${phase}`, { side }) };
  }

  // --- what the board shows --------------------------------------------------------------

  /** square -> {owner, kind, down}: exactly the view's board. */
  pieces() {
    return new Map(Object.entries(this.view?.board || {}));
  }

  /** The squares of the last move (origin and destination) or of the last flip. */
  lastMarks() {
    const history = this.view?.history || [];
    for (let i = history.length - 1; i >= 0; i--) {
      const ev = history[i];
      if (ev.type === "move") return [ev.from, ev.to];
      if (ev.type === "flip") return [ev.square];
    }
    return null;
  }

  /** Whether a tap does something now. */
  active() {
    return !this.busy && (this.ui === "setup" || (this.ui === "play" && Boolean(this.view?.dests)));
  }

  /** Everything the board and the button grid draw, in one object. */
  boardState() {
    return {
      pieces: this.pieces(),
      viewer: this.viewer,
      selected: this.selected,
      pick: this.pick,
      targets: this.targets,
      error: this.refused,
      lastMove: this.lastMarks(),
      active: this.active(),
    };
  }

  /** One square of the button grid: {text, label, classes}; `label` is what is read. */
  squareInfo(name, state = this.boardState(), type = "post") {
    const piece = state.pieces.get(name);
    const classes = [];
    let content;
    let text = "";
    if (!piece) {
      content = t(`grid.empty.${type}`);
      text = { camp: "○", hq: "⌂", station: "◇" }[type] || "";
      classes.push("empty");
    } else if (piece.down && !piece.kind) {
      content = t("grid.down");
      text = "▒";
      classes.push("down");
    } else if (piece.kind) {
      content = piece.owner === this.viewer
        ? t("grid.yours", { piece: this.pieceName(piece.kind) })
        : t("grid.known", { side: this.sideName(piece.owner), piece: this.pieceName(piece.kind) });
      text = this.label(piece.kind);
      classes.push("piece", this.colourClass(piece));
    } else {
      content = t("grid.hidden", { side: this.sideName(piece.owner) });
      text = "■";
      classes.push("piece", "blank", this.colourClass(piece));
    }
    const states = [];
    if (state.selected === name || state.pick === name) {
      states.push(t("grid.selected"));
      classes.push("selected");
    }
    const target = state.targets.find((x) => x.to === name);
    if (target) {
      states.push(t(target.attack ? "grid.attack" : "grid.dest"));
      classes.push(target.attack ? "attack" : "dest");
    } else if (this.ui === "play" && this.view?.dests?.flips?.includes(name)) {
      states.push(t("grid.flip"));
    }
    if (state.error === name) {
      states.push(t("grid.refused"));
      classes.push("refused");
    }
    if (state.lastMove?.includes(name)) {
      states.push(t("grid.last"));
      classes.push("last");
    }
    const label = [`${name}: ${content}`, ...states].join(", ");
    return { text, label, classes };
  }

  /** Which buttons the moment needs: name -> {shown, enabled}. */
  controls() {
    const v = this.view;
    const ui = this.ui;
    const busy = this.busy;
    const looking = this.viewer !== null && Boolean(v) && v.phase !== "over";
    const setup = ui === "setup";
    const offered = this.offerPending();
    const playing = looking && ["play", "wait", "moved"].includes(ui);
    const show = (shown, enabled = true) => ({ shown, enabled: shown && enabled && !busy });
    return {
      undo: show(setup, this.canUndo()),
      random: show(setup),
      mirror: show(setup),
      previous: show(setup, this.hasPrevious()),
      confirm: show(setup),
      changeTurn: show(ui === "moved"),
      accept: show(offered),
      decline: show(offered),
      offer: show(playing && !offered && this.desc.rules?.draw_offers !== false,
        ui === "play" && Boolean(v?.actions?.includes("offer"))),
      resign: show(playing && !offered, this.canResign()),
      rematch: show(ui === "over"),
      replay: show(ui === "over"),
      record: show(ui === "over"),
      curtain: show(ui === "curtain"),
    };
  }
}

/** A level's name in the page's language. */
export function levelName(level) {
  const key = `level.${level}`;
  const text = t(key);
  return text === key ? level : text;
}
