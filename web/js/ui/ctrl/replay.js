// A finished game (or a record), replayed position by position. State and actions only, no
// DOM: web/js/ui/view/replay.js draws it, tests/js/replay.test.mjs drives it in Node.
//
// Python decides what each position shows: the `replay` op gives every position as one seat
// saw it then (`viewer` a seat: 0 or 1, 0 to 3 in Siguo), or with everything shown (`"all"`, finished games only),
// and each action's event as seen then. This file only keeps the step and the viewpoint,
// so a seat's replay holds exactly what that seat knew, as the game did.
//
//   const r = new ReplayController({engine, variants, source: {record}});
//   r.subscribe(() => render(r));
//   await r.load();          // "all" for a finished game, else seat 0
//   r.forward(); r.goTo(12); r.key("End"); r.play(); await r.setViewer(1);

import { t, pieceName } from "../i18n.js";
import * as words from "./words.js";

/** Milliseconds per step of autoplay, slow to fast; SPEEDS[DEFAULT_SPEED] is "1×". */
export const SPEEDS = [2000, 1000, 500, 250];
export const SPEED_NAMES = ["0.5×", "1×", "2×", "4×"];
export const DEFAULT_SPEED = 1;
/** The viewpoints of a two-player game; a game of more seats has one per seat.
 * @type {(number | "all")[]} */
export const VIEWPOINTS = [0, 1, "all"];

const KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };

export class ReplayController {
  /**
   * engine: {call(request) -> Promise<reply>}
   * variants: the static variant descriptions (the reply's own description replaces them)
   * source: {game: id} (a finished game of this page) or {record: object or JSON text}
   * viewer: a seat (0, 1; 0 to 3 in Siguo), "all" or undefined ("all" when the game is finished, else 0)
   * settings: () => {labels} (read at render time); timers: {every, stop} (tests)
   * @param {{engine: any, variants?: object, source: object, viewer?: number | "all",
   *   settings?: () => any, timers?: any}} args
   */
  constructor({ engine, variants = {}, source, viewer, settings = () => ({}), timers }) {
    this.engine = engine;
    this.variants = variants;
    this.source = source;
    this.wanted = viewer;
    this.settings = settings;
    this.timers = timers || {
      every: (fn, ms) => setInterval(fn, ms),
      stop: (id) => clearInterval(id),
    };
    this.viewer = null; // 0, 1 or "all" once loaded
    this.frames = [];
    this.events = [];
    this.step = 0;
    this.desc = null;
    this.variant = null;
    this.finished = false;
    this.error = null; // the engine's reason when the replay could not be made
    this.busy = false;
    this.speed = DEFAULT_SPEED;
    this.timer = null;
    this.listeners = [];
  }

  subscribe(fn) {
    this.listeners.push(fn);
    return () => (this.listeners = this.listeners.filter((x) => x !== fn));
  }

  changed() {
    for (const fn of this.listeners) fn();
  }

  // --- loading ---------------------------------------------------------------------------

  /** Ask the engine for the replay; true when it came. The first time, the viewpoint is
   * "all" for a finished game and seat 0 otherwise (unless one was asked for). */
  async load(viewer = this.wanted) {
    this.busy = true;
    this.changed();
    let reply = await this.ask(viewer ?? "all");
    if (viewer === undefined && !reply.ok && reply.error?.code === "game_not_over") reply = await this.ask(0);
    this.busy = false;
    if (!reply.ok) {
      this.error = reply.error?.message || String(reply.error?.code || "?");
      this.changed();
      return false;
    }
    this.viewer = reply.viewer;
    this.frames = reply.frames;
    this.events = reply.events;
    this.desc = reply.description || this.variants[reply.variant];
    this.variant = reply.variant;
    this.rules = reply.rules;
    this.finished = Boolean(reply.result);
    this.error = null;
    // A first replay opens at the start; a new viewpoint keeps the step.
    this.step = Math.min(this.step, this.frames.length - 1);
    this.changed();
    return true;
  }

  ask(viewer) {
    return this.engine.call({ op: "replay", viewer, ...this.source });
  }

  /** The number of seats of the replayed game (2 before the engine answers). */
  get seats() {
    return this.frame?.seats ?? this.desc?.sides?.length ?? 2;
  }

  /** Another viewpoint (a seat or "all"), at the same step. */
  async setViewer(viewer) {
    if (!this.viewpointsAll().includes(viewer) || viewer === this.viewer || this.busy) return false;
    if (viewer === "all" && !this.finished) return false;
    return this.load(viewer);
  }

  viewpoints() {
    if (!this.variant) return []; // a link's replay before the engine answers: no sides yet
    return this.viewpointsAll().filter((v) => v !== "all" || this.finished);
  }

  /** Every seat, then "all". @returns {(number | "all")[]} */
  viewpointsAll() {
    if (this.seats === 2) return VIEWPOINTS;
    /** @type {(number | "all")[]} */
    const seats = Array.from({ length: this.seats }, (_, i) => i);
    return [...seats, "all"];
  }

  // --- moving through the game ----------------------------------------------------------

  get last() {
    return Math.max(0, this.frames.length - 1);
  }

  goTo(step, { keepPlaying = false } = {}) {
    const to = Math.max(0, Math.min(this.last, Math.round(Number(step) || 0)));
    if (!keepPlaying) this.pause();
    if (to === this.step) return this.changed();
    this.step = to;
    this.changed();
  }

  first() {
    this.goTo(0);
  }

  back() {
    this.goTo(this.step - 1);
  }

  forward() {
    this.goTo(this.step + 1);
  }

  toEnd() {
    this.goTo(this.last);
  }

  /** A key of the replay screen: true when it was one (Left, Right, Home, End). */
  key(name) {
    const action = KEYS[name];
    if (!action) return false;
    if (action === "last") this.toEnd();
    else this[action]();
    return true;
  }

  // --- autoplay ---------------------------------------------------------------------------

  get playing() {
    return this.timer !== null;
  }

  play() {
    if (this.playing || !this.frames.length) return;
    if (this.step >= this.last) this.step = 0; // from the start again
    this.timer = this.timers.every(() => this.tick(), SPEEDS[this.speed]);
    this.changed();
  }

  pause() {
    if (!this.playing) return;
    this.timers.stop(this.timer);
    this.timer = null;
    this.changed();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  tick() {
    if (this.step >= this.last) return this.pause();
    this.goTo(this.step + 1, { keepPlaying: true });
    if (this.step >= this.last) this.pause();
  }

  setSpeed(index) {
    const speed = Math.max(0, Math.min(SPEEDS.length - 1, Number(index) || 0));
    if (speed === this.speed) return;
    this.speed = speed;
    if (this.playing) {
      this.timers.stop(this.timer);
      this.timer = this.timers.every(() => this.tick(), SPEEDS[speed]);
    }
    this.changed();
  }

  dispose() {
    this.pause();
    this.listeners = [];
  }

  // --- what is on screen ------------------------------------------------------------------

  get frame() {
    return this.frames[this.step] || null;
  }

  /** The action that led to the position on screen (none at the start). */
  get event() {
    return this.step > 0 ? this.events[this.step - 1] : null;
  }

  /** Seat whose side is at the bottom of the board (seat 0 for "everything shown"). */
  get seat() {
    return typeof this.viewer === "number" ? this.viewer : 0;
  }

  /** The seat whose knowledge the words use (null: everything shown). */
  get seatViewer() {
    return this.viewer === "all" ? null : this.viewer;
  }

  sideName(seat) {
    // A replay retells the game: sides by their names (Red, Blue…), never "you"; sides
    // whose colours play decides (Blind) by the colour they turned out to play, once the
    // first flip decided it.
    const colours = this.frame?.colours;
    if (!this.desc?.colours && colours) return t(`side.by_colour.${colours[seat]}`);
    return t(`side.${this.variant}.${seat}`);
  }

  pieceName(kind) {
    return pieceName(this.desc?.family, kind);
  }

  ctx() {
    return words.wordContext(this, { viewer: this.seatViewer });
  }

  label(kind) {
    return words.pieceLabel(this.desc, this.settings().labels, kind);
  }

  rank(kind) {
    return words.pieceRank(this.desc, kind);
  }

  colourClass(piece) {
    return words.colourClass(this.desc, this.frame?.colours, piece);
  }

  title() {
    if (!this.variant) return t("replay.title"); // a link's replay before the engine answers
    return `${t(`variant.${this.variant}`)} · ${t("replay.title")}`;
  }

  /** "Move 12 of 80" (or the start), and the result on the last step. */
  statusText() {
    if (this.error) return t("replay.error", { message: this.error });
    if (!this.frame) return t("replay.loading");
    const where = this.step === 0 ? t("replay.start", { n: this.last })
      : t("replay.step", { n: this.step, total: this.last });
    const result = this.frame.result;
    if (result && this.seats > 2 && result.winner !== null) {
      // Siguo: the winner is a team (0: South and North, 1: East and West)
      const team = t("replay.team_wins", { side: this.sideName(result.winner),
        partner: this.sideName(result.winner + 2) });
      return `${where} · ${team}`;
    }
    return result ? `${where} · ${words.resultText(result, this.ctx())}` : where;
  }

  /** What the action leading here was, in the viewpoint's words (combats included). */
  messageText() {
    const ev = this.event;
    if (!ev) return this.frame?.phase === "setup" ? t("replay.setup") : "";
    if (ev.type === "move" && ev.combat) {
      // Told in the third person from every viewpoint; a rank the viewpoint was not shown
      // is "piece" (the event names only what the viewpoint knew then).
      const c = ev.combat;
      const name = (kind) => (kind ? this.pieceName(kind) : t("combat.piece"));
      const say = t("say.move", { side: this.sideName(ev.player), from: ev.from, to: ev.to });
      const how = t(`replay.combat.${c.result}`, {
        side: this.sideName(ev.player), other: this.sideName(c.against ?? 1 - ev.player), sq: c.square,
        attacker: name(c.attacker), defender: name(c.defender),
      });
      const lapsed = ev.offer_lapsed ? t("say.offer_lapsed") : "";
      return [say, how, ...words.outTexts(ev, this.ctx()), lapsed].filter(Boolean).join(" ");
    }
    return words.eventText(ev, this.ctx());
  }

  /** The move list: {step, text, current} per action (step k: the position after it). */
  moveList() {
    const ctx = this.ctx();
    return this.events.map((ev, i) => ({
      step: i + 1, text: words.moveLine(ev, ctx), current: i + 1 === this.step,
    }));
  }

  /** Everything the board draws: the frame's pieces and last move; nothing to tap. */
  boardState() {
    const frame = this.frame;
    return {
      pieces: new Map(Object.entries(frame?.board || {})),
      viewer: this.seatViewer,
      selected: null,
      pick: null,
      targets: [],
      error: null,
      lastMove: this.lastMarks(),
      active: false,
    };
  }

  lastMarks() {
    const ev = this.event;
    if (ev?.type === "flip") return [ev.square];
    return this.frame?.last_move || null;
  }

  /** The lost pieces of the frame, shaped like a view for panels.renderLost. */
  lostView() {
    return { lost: this.frame?.lost || Array.from({ length: this.seats }, () => ({ count: 0, kinds: [] })) };
  }

  /** Which buttons work now: name -> enabled. */
  controls() {
    const ready = this.frames.length > 0 && !this.busy;
    return {
      first: ready && this.step > 0,
      back: ready && this.step > 0,
      forward: ready && this.step < this.last,
      last: ready && this.step < this.last,
      play: ready && this.last > 0,
    };
  }
}
