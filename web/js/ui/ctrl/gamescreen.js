// What the game screen shows of one game: the title, the status and message lines, the
// sides, the curtain's words, each square as the button grid reads it, and which buttons
// the moment needs. Read-only: GameController (game.js) extends it with the actions, and
// its session (session.js) says what differs between a game against the CPU, on one device
// and with a friend. No DOM: web/js/ui/view/game.js draws it.
//
// The variant is never asked by name: its description (`desc`, the engine's `describe`)
// says what the words need (its piece family, its colours, its rules).

import { t, pieceName } from "../i18n.js";
import * as words from "./words.js";

/** @typedef {import("./session.js").Session} Session */
/** @typedef {{shown: boolean, enabled: boolean}} Control */
/**
 * @typedef {object} BoardState  everything the board and the button grid draw
 * @property {Map<string, any>} pieces  square -> {owner, kind, down}
 * @property {number|null} viewer
 * @property {string|null} selected
 * @property {string|null} pick
 * @property {{to: string, attack: boolean}[]} targets
 * @property {string|null} error
 * @property {string[]|null} lastMove
 * @property {boolean} active
 */

export class GameScreen {
  /**
   * @param {object} desc  the variant's description (the engine's `describe`)
   * @param {Session} session
   * @param {() => {labels?: string}} settings  read at render time
   */
  constructor(desc, session, settings) {
    /** @type {any} */
    this.desc = desc;
    /** @type {Session} */
    this.session = session;
    this.settings = settings;
    /** @type {string|null} */
    this.variant = null;
    /** @type {any} the view of `viewer` as the engine gave it (null before the game) */
    this.view = null;
    /** @type {number|null} whose view this is (null: the public view) */
    this.viewer = null;
    /** @type {number} whose side is at the bottom of the board */
    this.seat = 0;
    /** @type {number|null} the seat the hot-seat curtain waits for */
    this.curtainSeat = null;
    /** @type {string} engine|loading|link|curtain|setup|play|wait|moved|audit|over|error */
    this.ui = "loading";
    this.busy = false;
    /** @type {{left: number, setup: boolean, timeouts: number, max: number}|null} */
    this.clock = null;
    /** @type {(() => string)[]} the message line: re-run at render, so a language change re-translates it */
    this.lines = [];
    /** @type {string|null} play: the piece whose destinations are shown */
    this.selected = null;
    /** @type {string|null} setup: the first piece of a swap */
    this.pick = null;
    /** @type {string|null} setup: the square a refused swap names */
    this.refused = null;
    /** @type {{key: string, layout: object, what: () => string}[]} setup: layouts before each change */
    this.undoStack = [];
    /** @type {any} {loadLayout(variant, seat)} */
    this.store = null;
  }

  // --- seats and words -----------------------------------------------------------------

  /** Every seat of the variant, in turn order. */
  seats() {
    return (this.desc?.sides || []).map((/** @type {string} */ _, seat) => seat);
  }

  /** @param {number|null} seat  @returns {number[]} the other seats */
  others(seat) {
    return this.seats().filter((s) => s !== seat);
  }

  /** @param {string} kind */
  pieceName(kind) {
    return pieceName(this.desc?.family, kind);
  }

  /** Whether `seat` is "you": the person at this screen (against the CPU or a friend), or
   * on one device the player who looks when the seats have no names of their own.
   * @param {number|null} seat */
  isYou(seat) {
    if (!this.session.shared) return seat === this.session.you;
    return this.unnamedLooking() && seat === this.viewer;
  }

  /** On one device, while a player looks at a game whose seats have no colour of their own
   * (Blind: the first flip decides them): the seats are "You" and "the other player"
   * (at the curtain and at the end, when both may look, the first and second player). */
  unnamedLooking() {
    return this.session.shared && !this.desc?.colours && this.viewer !== null
      && ["setup", "play", "moved", "wait"].includes(this.ui);
  }

  /** @param {number} seat */
  sideName(seat) {
    const own = this.session.seatName?.(seat);
    if (own) return own;
    let name;
    if (!this.session.shared) name = t(seat === this.session.you ? "side.you" : this.session.rivalKey);
    else if (this.unnamedLooking()) name = t(seat === this.viewer ? "side.you" : this.session.rivalKey);
    else name = t(`side.${this.variant}.${seat}`);
    const colours = this.view?.colours; // decided in play: said with the name
    if (!this.desc?.colours && colours) {
      name = t("side.with_colour", { side: name, colour: t(`colour.${colours[seat]}`) });
    }
    return name;
  }

  /** The words context of this screen (words.js). */
  ctx() {
    return words.wordContext(this, { viewer: this.viewer, you: !this.session.shared,
      isYou: (/** @type {number} */ seat) => this.isYou(seat) });
  }

  /** What is written on a piece: its characters (司令) or a short word (Marshal).
   * @param {string} kind */
  label(kind) {
    return words.pieceLabel(this.desc, this.settings().labels, kind);
  }

  /** @param {string} kind */
  rank(kind) {
    return words.pieceRank(this.desc, kind);
  }

  /** @param {{owner: number|null, kind?: string|null, down?: boolean}} piece */
  colourClass(piece) {
    return words.colourClass(this.desc, this.view?.colours, piece);
  }

  title() {
    return this.session.title();
  }

  // --- the status, message and sides lines -------------------------------------------

  statusText() {
    const own = this.session.statusText();
    if (own !== null) return own;
    const v = this.view;
    switch (this.ui) {
      case "engine": return t("status.engine");
      case "loading": return t("status.loading");
      case "error": return t("status.error");
      case "curtain": return t("status.curtain", { side: this.sideName(this.curtainSeat ?? 0) });
      case "setup": return this.session.shared
        ? t("status.setup_side", { side: this.sideName(this.viewer ?? 0) }) : t("status.setup");
      case "wait": return t("status.thinking");
      case "moved": return t("status.moved");
      case "over": return v?.result ? words.resultText(v.result, this.ctx()) : "";
      case "play":
        if (v.turn !== this.viewer) return t("status.waiting");
        return this.isYou(this.viewer) ? t("status.your_turn")
          : t("status.turn_side", { side: this.sideName(this.viewer ?? 0) });
      default: return "";
    }
  }

  /** The message line, with what a draw offer waits for. */
  messageText() {
    const parts = this.lines.map((f) => f()).filter(Boolean);
    if (this.offerPending()) parts.push(t("offer.pending", { side: this.sideName(this.view.offer_by) }));
    // The player's own offer: what it waits for, and until when.
    if (this.ownOfferPending()) {
      parts.push(t("offer.waiting", { side: this.others(this.viewer).map((s) => this.sideName(s)).join(", ") }));
    }
    return parts.join(" ");
  }

  /** A saved game opened again (Continue): whose turn it is and what the last move was,
   * in this seat's words. */
  resumedLines() {
    const v = this.view;
    if (v?.phase !== "play") return [];
    const last = [...(v.history || [])].reverse()
      .find((/** @type {any} */ ev) => ["move", "flip", "timeout"].includes(ev.type));
    return [
      () => (this.isYou(v.turn) ? t("play.resumed.you") : t("play.resumed", { side: this.sideName(v.turn) })),
      last ? () => t("play.last_move", { move: words.eventText(last, this.ctx()) }) : null,
    ].filter((line) => line !== null);
  }

  /** Which side is which colour; nothing where the names say it (Red, Blue) on one device. */
  sidesText() {
    const own = this.session.sidesText?.();
    if (own !== undefined) return own;
    const v = this.view;
    if (!v || this.ui === "curtain") return "";
    const names = () => this.seats().map((seat) => this.sideName(seat));
    if (!this.desc?.colours) return v.colours ? names().join(" · ") : t("sides.undecided");
    if (this.desc.sides_are_colours && this.session.shared) return "";
    return this.seats().map((seat) => t("sides.entry", {
      side: this.sideName(seat), colour: t(`colour.${this.colourClass({ owner: seat })}`),
    })).join(" · ");
  }

  curtainText() {
    const phase = this.view?.phase === "setup" ? "setup" : "turn";
    const side = this.sideName(this.curtainSeat ?? 0);
    // more than two people share the screen: "the others look away"
    const text = this.session.lookers?.() > 2 ? `curtain.${phase}.others` : `curtain.${phase}`;
    return { text: t(text, { side }), button: t(`curtain.open.${phase}`, { side }) };
  }

  // --- offers, undo, resigning: what is open now -------------------------------------

  /** Another player's draw offer waits for this player's answer. */
  offerPending() {
    const v = this.view;
    return this.ui === "play" && Boolean(v) && this.viewer !== null && v.offer_by !== null
      && v.offer_by !== undefined && v.offer_by !== this.viewer && v.actions.includes("accept");
  }

  /** This player's draw offer waits for the other's answer. */
  ownOfferPending() {
    const v = this.view;
    return ["play", "wait", "moved"].includes(this.ui) && Boolean(v) && this.viewer !== null
      && v.phase === "play" && v.offer_by === this.viewer;
  }

  canResign() {
    return this.session.canResign();
  }

  /** Which setup a change belongs to (a friend's rematch is a new setup in the same game). */
  setupKey() {
    return [this.session.gameId ?? "", this.viewer, this.view?.fair?.game ?? ""].join("|");
  }

  /** Whether Undo has a change of this setup to take back. */
  canUndo() {
    const top = this.undoStack[this.undoStack.length - 1];
    return this.ui === "setup" && Boolean(top) && top.key === this.setupKey();
  }

  /** The last layout kept for "Previous layout": this seat's, else (where the session
   * allows it) another seat's, which the engine turns round to this side (`from_player`). */
  previousLayout() {
    for (const seat of this.session.layoutSeats(this.viewer ?? 0)) {
      const layout = this.store?.loadLayout(this.variant, seat);
      if (layout) return { layout, from_player: seat };
    }
    return null;
  }

  /** Whether "Previous layout" has something to load. */
  hasPrevious() {
    return Boolean(this.previousLayout());
  }

  // --- what the board shows -----------------------------------------------------------

  /** Where the selected piece may go: [{to, attack}] from the view's dests. */
  get targets() {
    if (!this.selected) return [];
    return this.view?.dests?.moves?.[this.selected] || [];
  }

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

  /** @returns {BoardState} */
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

  /** One square of the button grid: {text, label, classes}; `label` is what is read.
   * @param {string} name  @param {BoardState} state  @param {string} type */
  squareInfo(name, state = this.boardState(), type = "post") {
    const piece = state.pieces.get(name);
    // "the other player's" (never "The other player Engineer", "de El otro jugador")
    const other = this.unnamedLooking() && piece && piece.owner !== this.viewer;
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
        : other ? t("grid.known.other", { piece: this.pieceName(piece.kind) })
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

  /** Which buttons the moment needs: name -> {shown, enabled} (the session adds its own).
   * @returns {Record<string, Control>} */
  controls() {
    const v = this.view;
    const ui = this.ui;
    const busy = this.busy;
    const looking = this.viewer !== null && Boolean(v) && v.phase !== "over";
    const setup = ui === "setup";
    const offered = this.offerPending();
    const playing = looking && ["play", "wait", "moved"].includes(ui);
    const show = (/** @type {boolean} */ shown, enabled = true) => ({ shown, enabled: shown && enabled && !busy });
    return this.session.controls({
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
      pass: show(false),
    });
  }
}

/** A level's name in the page's language. @param {string} level */
export function levelName(level) {
  const key = `level.${level}`;
  const text = t(key);
  return text === key ? level : text;
}

/** The variant's name in the page's language. @param {string|null} variant */
export function variantName(variant) {
  return t(`variant.${variant}`);
}
