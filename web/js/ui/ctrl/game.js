// One game: setup, play, the end. State and actions only, no DOM: web/js/ui/view/game.js
// draws it (what it shows is in gamescreen.js) and turns clicks into these actions, and
// tests/js/ drives it in Node.
//
// One controller for every kind of game: its session (session.js) says who may act and
// where actions go: the engine against the CPU or on one device, the fair-play peer with a
// friend. Nothing here asks which kind of session it holds.
//
// Python decides, this file keeps track: every rule comes from the engine. What a player
// may do now is the view's `dests` (every move and flip of the side to move), so a tap is
// looked up there; nothing here knows how pieces move.
//
// Hidden information: `this.view` is the only game state kept here, and it is always the
// view of `this.viewer` as the engine gave it (null = the public view, no ranks at all).
//
//   const game = newGame({engine, desc, options, store});   // session.js
//   game.subscribe((what) => render(game, what));   // what: "all" or "clock"
//   await game.start();
//   await game.tap("c4");

import { t } from "../i18n.js";
import * as words from "./words.js";
import { GameScreen } from "./gamescreen.js";

export { levelName } from "./gamescreen.js";

/** @typedef {import("./session.js").Session} Session */
/** @typedef {import("./session.js").Reply} Reply */

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

/**
 * @typedef {object} Timers
 * @property {() => number} now
 * @property {(fn: () => void, ms: number) => any} every
 * @property {(id: any) => void} stop
 * @property {(fn: () => void, ms: number) => any} later
 */

export class GameController extends GameScreen {
  /**
   * @param {object} deps
   * @param {any} deps.engine  {call(request) -> Promise<reply>, ready: bool, whenReady: Promise}
   * @param {any} deps.desc  the variant's description (a reply may replace it)
   * @param {Session} deps.session  who plays and where actions go (session.js)
   * @param {any} deps.options  {variant, preset, rules: {option id: value}, ...} as chosen
   * @param {any} [deps.store]  {loadLayout(variant, seat), saveLayout(variant, seat, layout)}
   * @param {Partial<Effects>} [deps.effects]
   * @param {() => {labels?: string}} [deps.settings]  read at render time
   * @param {Timers} [deps.timers]
   * @param {(() => number)|null} [deps.random]  seeds (tests: repeatable games)
   */
  constructor({ engine, desc, session, options, store, effects = {}, settings = () => ({}), timers,
    random = null }) {
    super(desc, session, settings);
    this.engine = engine;
    const { restored, ...chosen } = options; // restored: for the session (session.js)
    /** @type {any} the choices this game was started with */
    this.opts = chosen;
    this.variant = options.variant ?? null;
    this.store = store;
    this.fx = { ...NO_EFFECTS, ...effects };
    /** @type {Timers} */
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
    this.token = 0;
    this.focusedOnce = false;
    /** @type {((what: string) => void)[]} */
    this.listeners = [];
    session.attach(this);
  }

  resetMarks() {
    this.selected = null;
    this.pick = null;
    this.refused = null;
  }

  /** Setup: Undo's steps are the looking seat's own; emptied when the seat stops looking. */
  resetUndo() {
    this.undoStack = [];
  }

  /** @param {(what: string) => void} fn */
  subscribe(fn) {
    this.listeners.push(fn);
    return () => (this.listeners = this.listeners.filter((x) => x !== fn));
  }

  changed(what = "all") {
    for (const fn of this.listeners) fn(what);
  }

  /** The message line: setMessage(() => t(...), ...) replaces it; each part is re-run at render.
   * @param {...(() => string)|null|undefined} parts */
  setMessage(...parts) {
    this.lines = /** @type {(() => string)[]} */ (parts.filter(Boolean));
  }

  // --- the session ---------------------------------------------------------------------

  /** Send a request where the session sends actions; an answer for a game left behind
   * throws Stale. @param {object} request @returns {Promise<Reply>} */
  async call(request) {
    const token = this.token;
    const reply = await this.session.submit(request);
    if (token !== this.token) throw new Stale();
    return reply;
  }

  /** Run an action: stale answers dropped, failures shown. Returns false when it failed.
   * @param {() => Promise<any>} fn */
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

  /** @param {Reply} reply */
  fail(reply) {
    const message = reply.error?.message || "?";
    this.setMessage(() => t("error.refused", { message }));
    this.changed();
    this.fx.say(this.messageText());
  }

  dispose() {
    this.token++;
    this.session.dispose();
    this.listeners = [];
  }

  // --- flow ----------------------------------------------------------------------------

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
    await this.session.open();
  }

  /** The player acts on the board next: a new game puts focus there; later only when
   * focus was lost (its button went away), never away from where the player is. */
  focusNext() {
    this.fx.focus(this.focusedOnce ? "next" : "board");
    this.focusedOnce = true;
  }

  /** A tap (or Enter on the button grid) on a square. @param {string} square */
  tap(square) {
    if (this.busy) return Promise.resolve(false);
    if (this.ui === "setup") return this.guard(() => this.setupTap(square));
    if (this.ui === "play") return this.guard(() => this.playTap(square));
    return Promise.resolve(false);
  }

  // --- setup -----------------------------------------------------------------------------

  /** @param {string} name */
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
      if (reply.view) this.view = reply.view;
      this.undoStack.push({ key: this.setupKey(), layout: before,
        what: () => t("setup.undo.swap", { a, b: name }) });
      this.setMessage(() => t("setup.swapped", { a, b: name }));
    } else {
      const error = reply.error;
      this.refused = error?.square || name;
      this.setMessage(() => this.refusal(error));
    }
    this.changed();
    this.fx.say(this.messageText());
  }

  /** @param {any} error */
  refusal(error) {
    const key = `refuse.${error.code}`;
    const text = t(key, { sq: error.square || "" });
    return text === key ? error.message : t("setup.refused", { reason: text });
  }

  /** setup_random, setup_mirror or setup_set (extra: {layout}).
   * @param {string} op @param {object} extra */
  setupOp(op, extra = {}) {
    return this.guard(() => this._setupOp(op, extra));
  }

  /** @param {string} op @param {object} extra */
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
   * start). @param {object} request @param {() => void} done */
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
      if (reply.view) this.view = reply.view;
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
    const seat = this.viewer ?? 0;
    const mine = this.ownLayout();
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
    // "Previous layout": kept where no other player could load it (session.keepsLayouts).
    if (this.session.keepsLayouts) this.store?.saveLayout(this.variant, seat, mine);
    if (reply.view) this.view = reply.view;
    await this.session.deployed(seat);
  }

  // --- play ------------------------------------------------------------------------------

  /** @param {string} name */
  async playTap(name) {
    const v = this.view;
    const dests = v.dests;
    if (!dests) return; // not this player's turn
    const target = this.targets.find((/** @type {any} */ x) => x.to === name);
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

  /** An action of the looking seat ("c3-c4", "flip:b2", "offer:0", "timeout", ...).
   * @param {string} action */
  async act(action) {
    this.session.acting(action);
    this.busy = true;
    this.changed();
    const reply = await this.call({ op: "act", player: this.viewer, action });
    this.busy = false;
    if (!reply.ok) {
      this.fail(reply);
      return false;
    }
    this.resetMarks();
    if (reply.view) await this.showEvents(reply.events || [], reply.view, true);
    else this.changed(); // the session showed it as it came
    await this.session.next();
    return true;
  }

  /** Show what happened: slide, replace the view, words, flashes and sounds.
   * @param {any[]} events @param {any} view @param {boolean} own  the events are this seat's
   * own actions' @param {(() => string)[]} keep  message lines to keep before them */
  async showEvents(events, view, own, keep = []) {
    const move = events.find((e) => e.type === "move");
    if (move) await this.fx.move(move.from, move.to);
    this.view = view;
    const max = this.desc?.rules?.max_timeouts;
    const texts = events.map((ev) => () => {
      const ctx = this.ctx();
      return own && ev.player === this.viewer
        ? words.ownText(ev, ctx, this.view.timeouts[ev.player], max)
        : words.eventText(ev, ctx);
    });
    this.setMessage(...keep, ...texts);
    this.changed();
    this.fx.events(events, this.viewer);
    this.fx.say(texts.map((f) => f()).filter(Boolean).join(" "));
  }

  offer() {
    if (this.viewer === null || this.busy || !this.view?.actions.includes("offer")) {
      return Promise.resolve(false);
    }
    return this.guard(() => this.act(`offer:${this.viewer}`));
  }

  /** Pass the turn (where the rules allow it: it counts as a skipped turn). */
  pass() {
    if (this.viewer === null || this.busy || this.ui !== "play" || !this.view?.actions?.includes("pass")) {
      return Promise.resolve(false);
    }
    return this.guard(() => this.act("pass"));
  }

  /** @param {boolean} accept */
  answer(accept) {
    if (this.viewer === null || this.busy) return Promise.resolve(false);
    return this.guard(() => this.act(`${accept ? "accept" : "decline"}:${this.viewer}`));
  }

  /** Resign (the screen asks "are you sure?" first). */
  resign() {
    if (!this.canResign()) return Promise.resolve(false);
    return this.guard(() => this.act(`resign:${this.viewer}`));
  }

  // --- handing the screen over (a session that shares it: the hot seat) -------------------

  /** The curtain's button: the player it waits for looks. */
  openCurtain() {
    if (this.ui !== "curtain" || this.busy || !this.session.openCurtain) return Promise.resolve(false);
    return this.guard(() => this.session.openCurtain?.() ?? Promise.resolve());
  }

  /** "Change turn": the curtain comes down for the next player. */
  changeTurn() {
    if (this.ui !== "moved" || this.busy || !this.session.changeTurn) return Promise.resolve(false);
    return this.guard(() => this.session.changeTurn?.() ?? Promise.resolve());
  }

  // --- end -------------------------------------------------------------------------------

  /** The game is over: everything is revealed to the seat that looks (or, when nobody
   * does, the seat at the bottom). */
  async finish() {
    this.resetMarks();
    if (this.viewer === null) this.viewer = this.session.you ?? this.seat;
    const reply = await this.call({ op: "view", player: this.viewer });
    if (reply.ok) this.view = reply.view; // everything is revealed now
    this.ui = "over";
    this.changed(); // the status line says the result; the message keeps the last events
    this.ended();
  }

  /** The game just ended (drawn already): sound, words for the live region, focus. */
  ended() {
    this.fx.end(this.view.result, this.session.you);
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

  /** What the replay op needs for this finished game ({game} or {record}).
   * @returns {Promise<{game?: string, record?: object} | null>} */
  replaySource() {
    return this.session.replaySource();
  }

  /** @param {string} op @param {string} field */
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
    return this.session.inProgress();
  }

  /** The engine's deduction notes for `seat` (the notes panel). @param {number} seat */
  notes(seat) {
    return this.call({ op: "notes", player: seat });
  }

  /** Options for the next game: the same, or (rematch) with sides switched. */
  nextOptions(rematch = false) {
    return this.session.nextOptions(rematch);
  }

  /** Rematch: the options of a new game to start, or null when it is played in this game. */
  rematch() {
    if (this.ui !== "over" || this.busy) return Promise.resolve(null);
    return this.session.rematch();
  }
}
