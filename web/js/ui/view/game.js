// The game screen: builds the DOM once and redraws it from a GameController. Clicks become
// controller actions; the controller's effects (slides, flashes, sounds, the live region,
// focus) are carried out here. Each region has its own render function.
//
// Layout (web/css/game.css): a status line and a message area of fixed height, the board,
// and an action bar of fixed height with the buttons the moment needs, so the board never
// moves while you play. Portrait: those three fill the screen below the header and the
// panels follow below; landscape: the board on the left, the rest in a column beside it.
// New game, Change mode and Rules are in the header's menu (view/bar.js).

import { h, showMessage } from "./dom.js";
import { t } from "../i18n.js";
import * as prefs from "../prefs.js";
import { Board } from "./board.js";
import { ButtonGrid } from "./grid.js";
import { BoardZoom } from "./zoom.js";
import { icon } from "./icons.js";
import { renderLost, renderCombatTable, renderMoves } from "./panels.js";
import { quietText, combatOutcome } from "../ctrl/words.js";

// Buttons of the action bar: id, label key, action, class.
/** @type {Record<string, [string, string, (v: any) => any, string]>} */
const BUTTONS = {
  undo: ["btn-undo", "setup.undo", (v) => v.ctrl.undo(), ""],
  random: ["btn-random", "setup.random", (v) => v.ctrl.randomLayout(), ""],
  mirror: ["btn-mirror", "setup.mirror", (v) => v.ctrl.mirror(), ""],
  previous: ["btn-previous", "setup.previous", (v) => v.ctrl.previous(), ""],
  confirm: ["btn-confirm", "setup.confirm", (v) => v.ctrl.confirm(), "primary"],
  changeTurn: ["btn-change-turn", "action.change_turn", (v) => v.ctrl.changeTurn(), "primary"],
  accept: ["btn-accept", "action.accept", (v) => v.ctrl.answer(true), "primary"],
  decline: ["btn-decline", "action.decline", (v) => v.ctrl.answer(false), ""],
  offer: ["btn-offer", "action.offer", (v) => v.ctrl.offer(), ""],
  pass: ["btn-pass", "action.pass", (v) => v.ctrl.pass(), ""],
  resign: ["btn-resign", "action.resign", (v) => v.resign(), ""],
  rematch: ["btn-rematch", "action.rematch", (v) => v.app.flows.rematch(), "primary"],
  replay: ["btn-replay", "action.replay", (v) => v.app.flows.replayFinished(), ""],
  again: ["btn-again", "action.choose", (v) => v.app.flows.changeMode(), ""],
  curtain: ["btn-curtain", "curtain.open", (v) => v.ctrl.openCurtain(), "primary big"],
};

/** This page's address with a replay in its fragment (`#replay=`; docs/records.md). */
export function replayURL(payload) {
  const url = new URL(location.href);
  url.hash = `replay=${payload}`;
  return url.href;
}

export class GameView {
  /** app: the page: {say(text), confirm(), sound, settings, engine, bar, flows (ui/ctrl/app.js)};
   * ctrl: a GameController */
  constructor(app, ctrl) {
    this.app = app;
    this.ctrl = ctrl;
    this.build();
    Object.assign(ctrl.fx, this.effects());
    ctrl.subscribe((what) => (what === "clock" ? this.renderClock() : this.render()));
    // While the game waits for the engine, its progress shows in the message line.
    this.unlisten = app.engine.onChange(() => ctrl.ui === "engine" && this.renderStatus());
  }

  /** The controller's effects: what happens on screen besides redrawing. */
  effects() {
    return {
      move: (from, to) => this.board.animateMove(from, to),
      events: (events, viewer) => this.flash(events, viewer),
      say: (text) => this.app.say(text),
      focus: (what) => this.focus(what),
      end: (result, you) => this.app.sound?.end(result, you),
    };
  }

  build() {
    const ctrl = this.ctrl;
    this.b = {};
    /** @type {HTMLButtonElement|null} a focused button put out of use for a moment */
    this.heldFocus = null;
    for (const [name, [id, key, action, cls]] of Object.entries(BUTTONS)) {
      this.b[name] = h("button", { type: "button", id, class: cls || null, "data-i18n": key,
        on: { click: () => action(this) } }, t(key));
    }
    const b = this.b;
    this.title = h("h2", { class: "sr-only", id: "game-title" });
    this.status = h("p", { class: "status", id: "status", tabindex: "-1" });
    this.clockText = h("span", { class: "clock-text" });
    this.clockEl = h("span", { class: "clock", id: "clock", hidden: true }, icon("clock"), this.clockText);
    this.messageEl = h("p", { class: "message", id: "message" });
    this.statusBar = h("div", { class: "status-bar", id: "status-bar" },
      h("div", { class: "status-line" }, h("span", { class: "spinner", "aria-hidden": "true" }),
        this.status, this.clockEl),
      this.messageEl);
    this.actions = h("div", { class: "action-bar", id: "context-actions" },
      b.undo, b.random, b.mirror, b.previous, b.confirm, b.changeTurn, b.accept, b.decline,
      b.pass, b.offer, b.resign, b.rematch, b.replay, b.again);
    this.board = new Board(ctrl.desc, ctrl.seat, (sq) => ctrl.tap(sq), { keyboard: true });
    this.board.svg.setAttribute("aria-label", t("board.label"));
    this.board.svg.id = "board";
    this.board.onFocusMove = () => this.zoom?.reveal([this.board.focused]);
    this.stage = h("div", { class: "board-stage" }, this.board.svg);
    this.boardWrap = h("div", { class: "board-wrap", id: "board-wrap" }, this.stage);
    this.extras = new Map(); // square -> extra words for its label (marks, notes: guesses.js)
    this.zoom = new BoardZoom(this.board, this.boardWrap, this.stage, {
      bar: this.app.bar, onStretch: () => this.setAspect(),
    });
    this.zoom.wanted = () => this.inView();
    this.zoom.onMeasure = () => this.setupZoom();
    /** @type {{seat: number, level: number}|null} the zoom the setup opened with */
    this.autoZoom = null;
    this.shownSelection = null;
    this.grid = new ButtonGrid((sq) => ctrl.tap(sq));
    this.grid.build(this.board.geo, t("grid.label"));
    this.curtainText = h("p", { class: "curtain-text", id: "curtain-text" });
    this.curtain = h("div", { class: "curtain", id: "curtain", hidden: true, role: "dialog",
      "aria-modal": "false", "aria-labelledby": "curtain-text" },
    h("div", { class: "curtain-inner" }, this.curtainText, b.curtain));
    this.sidesEl = h("p", { class: "sides", id: "sides" });
    this.lostEl = h("div", { class: "lost", id: "lost" });
    this.quietEl = h("p", { class: "quiet", id: "quiet" });
    this.movesEl = h("ol", { class: "moves", id: "moves", tabindex: "0",
      "aria-labelledby": "moves-panel-summary" });
    this.tableEl = h("div", { class: "combat-table-wrap" });
    const details = (id, key, content, open, extra = {}) =>
      h("details", { id, class: "panel", open, ...extra },
        h("summary", { id: `${id}-summary`, "data-i18n": key }, t(key)), content);
    this.gridPanel = details("grid-panel", "panel.grid", this.grid.root, prefs.get("gridOpen", false));
    this.gridPanel.addEventListener("toggle", () => {
      prefs.set("gridOpen", this.gridPanel.open);
      this.grid.fit();
    });
    this.shareNote = h("p", { class: "share-note", id: "share-note", role: "status" });
    this.endPanel = h("section", { class: "panel end-panel", id: "end-panel", hidden: true,
      "aria-labelledby": "end-panel-title" },
    h("h3", { id: "end-panel-title", "data-i18n": "panel.keep" }, t("panel.keep")),
    h("div", { class: "row" },
      h("button", { type: "button", id: "btn-save-json", "data-i18n": "action.save_record",
        on: { click: () => this.saveRecord() } }, t("action.save_record")),
      h("button", { type: "button", id: "btn-save-text", "data-i18n": "action.save_text",
        on: { click: () => this.saveText() } }, t("action.save_text")),
      h("button", { type: "button", id: "btn-share", "data-i18n": "action.share_link",
        on: { click: () => this.shareLink() } }, t("action.share_link"))),
    this.shareNote);
    this.panels = h("aside", { class: "panels" },
      this.endPanel,
      h("section", { class: "panel", "aria-labelledby": "lost-title" },
        h("h3", { id: "lost-title", "data-i18n": "panel.lost" }, t("panel.lost")),
        this.sidesEl, this.lostEl, this.quietEl),
      this.gridPanel,
      details("moves-panel", "panel.moves", this.movesEl, true),
      details("table-panel", "panel.combat", this.tableEl, false, { "data-reference": "" }));
    this.playArea = h("div", { class: "play-area" }, this.statusBar, this.boardWrap, this.actions);
    this.root = h("section", { class: "game", "data-variant": ctrl.variant,
      "data-mode": ctrl.session.mode, "aria-labelledby": "game-title" },
    this.title, this.playArea, this.panels, this.curtain);
    this.zoom.screen = this.root;
    this.setAspect();
    renderCombatTable(this.tableEl, ctrl.desc, ctrl.ctx());
  }

  /** The board's proportions, for the layout (CSS sizes the board from them). */
  setAspect() {
    this.root.style.setProperty("--aspect", this.board.aspect.toFixed(4));
  }

  /** The language or a display setting changed: every text again. */
  relabel() {
    for (const node of this.root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    this.board.drawStatic();
    this.board.svg.setAttribute("aria-label", t("board.label"));
    this.grid.root.setAttribute("aria-label", t("grid.label"));
    renderCombatTable(this.tableEl, this.ctrl.desc, this.ctrl.ctx());
    this.render();
  }

  render() {
    const ctrl = this.ctrl;
    const v = ctrl.view;
    const root = this.root;
    if (!this.shown && root.isConnected) {
      this.shown = true;
      scrollTo(0, 0); // a new game screen from its top, wherever the screen before was scrolled
    }
    root.dataset.ui = ctrl.ui;
    root.dataset.phase = v?.phase || "";
    root.dataset.viewer = ctrl.viewer ?? "";
    root.dataset.turn = v?.turn ?? "";
    root.dataset.ply = v?.ply ?? "";
    root.dataset.busy = String(ctrl.busy);
    this.renderStatus();
    this.renderBoard();
    this.renderControls();
    this.renderCurtain();
    this.renderPanels();
    this.setupZoom();
  }

  /** Four armies on one board (the cross): a person's setup happens on their own posts,
   * a quarter of the board, whose posts a phone (or a touch screen) shows small. The setup opens zoomed on
   * them (to posts big enough to tap, as the zoom button would), once for each person;
   * when that setup ends, a zoom the person left as it was goes back to the whole board. */
  setupZoom() {
    const ctrl = this.ctrl;
    const zoom = this.zoom;
    const setup = ctrl.ui === "setup" && ctrl.viewer !== null && ctrl.view?.phase === "setup";
    if (!setup) {
      const auto = this.autoZoom;
      if (auto?.level && ctrl.ui !== "setup") {
        this.autoZoom = { seat: auto.seat, level: 0 }; // done for this seat
        if (Math.abs(zoom.level - auto.level) < 0.001) zoom.set(1);
      }
      return;
    }
    if ((ctrl.desc?.sides?.length ?? 2) <= 2 || this.autoZoom?.seat === ctrl.viewer) return;
    if (!this.root.isConnected || zoom.base === null || !zoom.useful || !handheld()) return;
    const own = Object.entries(ctrl.view.board || {})
      .filter(([, piece]) => piece.owner === ctrl.viewer).map(([square]) => square);
    if (!own.length) return;
    if (!zoom.zoomed) zoom.set(zoom.fitLevel());
    this.autoZoom = { seat: ctrl.viewer, level: zoom.level };
    zoom.reveal(own);
  }

  renderStatus() {
    const ctrl = this.ctrl;
    const title = ctrl.title();
    this.title.textContent = title;
    this.app.setTitle?.(title);
    this.status.textContent = ctrl.statusText();
    showMessage(this.messageEl, ctrl.messageText());
    this.renderClock();
  }

  renderClock() {
    const clock = this.ctrl.clock;
    this.clockEl.hidden = !clock;
    if (!clock) return;
    this.clockText.textContent = clock.setup ? t("clock.setup", { s: clock.left })
      : t("clock", { s: clock.left, n: clock.timeouts, max: clock.max });
    this.clockEl.classList.toggle("low", clock.left <= 10);
  }

  renderBoard() {
    const ctrl = this.ctrl;
    if (this.board.desc !== ctrl.desc) {
      this.board.setDesc(ctrl.desc);
      this.grid.build(this.board.geo, t("grid.label"));
      renderCombatTable(this.tableEl, ctrl.desc, ctrl.ctx());
      this.setAspect();
      this.zoom.resized();
    }
    if (this.board.seat !== ctrl.seat) {
      this.board.setSeat(ctrl.seat);
      this.grid.build(this.board.geo, t("grid.label"));
    }
    const state = ctrl.boardState();
    const settings = this.app.settings;
    this.board.render({
      ...state,
      colour: (p) => ctrl.colourClass(p),
      label: (kind) => ctrl.label(kind),
      rank: (kind) => ctrl.rank(kind),
      ranks: Boolean(settings?.ranks),
    });
    const infos = new Map();
    const info = (name) => {
      if (!infos.has(name)) {
        const base = ctrl.squareInfo(name, state, this.board.geo.pos(name)?.type);
        const extra = this.extras.get(name);
        infos.set(name, extra ? { ...base, label: `${base.label} — ${extra}` } : base);
      }
      return infos.get(name);
    };
    this.board.setLabels((name) => info(name).label);
    this.grid.render(info);
    // A new selection stays in view on a zoomed board, with where it may go.
    const selection = state.selected || state.pick || null;
    if (selection !== this.shownSelection) {
      this.shownSelection = selection;
      if (selection) this.zoom.reveal(this.inView());
    }
  }

  /** The squares a zoomed board keeps in view: the selection and its destinations. */
  inView() {
    const ctrl = this.ctrl;
    const selection = ctrl.selected || ctrl.pick;
    if (!selection) return this.board.hasFocus() ? [this.board.focused] : [];
    return [selection, ...ctrl.targets.map((x) => x.to)];
  }

  /** Marks and notes read with their squares (guesses.js): square -> words. */
  setExtras(extras) {
    this.extras = extras;
    this.renderBoard();
  }

  renderControls() {
    const controls = this.ctrl.controls();
    const over = Boolean(controls.record?.shown);
    if (this.endPanel.hidden === over) {
      this.endPanel.hidden = !over;
      this.shareNote.textContent = "";
    }
    for (const [name, button] of Object.entries(this.b)) {
      if (name === "curtain") continue;
      const control = name === "again" ? controls.rematch : controls[name];
      // a focused button put out of use while the engine works (Random, Mirror) loses
      // focus; it gets it back when it is usable again (Enter deals again)
      if (!control?.enabled && document.activeElement === button) this.heldFocus = button;
      button.hidden = !control?.shown;
      button.disabled = !control?.enabled;
    }
  }

  renderCurtain() {
    const ctrl = this.ctrl;
    const curtain = ctrl.ui === "curtain";
    this.curtain.hidden = !curtain;
    for (const part of [this.playArea, this.panels]) part.inert = curtain;
    if (curtain) {
      const { text, button } = ctrl.curtainText();
      this.curtainText.textContent = text;
      this.b.curtain.textContent = button;
      this.b.curtain.disabled = ctrl.busy;
    }
  }

  renderPanels() {
    const ctrl = this.ctrl;
    const v = ctrl.view;
    this.sidesEl.textContent = ctrl.sidesText();
    if (!v) return;
    const ctx = ctrl.ctx();
    renderLost(this.lostEl, v, ctx);
    this.quietEl.textContent = quietText(v);
    this.quietEl.hidden = !this.quietEl.textContent;
    renderMoves(this.movesEl, v, ctx);
  }

  /** Flashes and sounds for what just happened, after the new position is drawn. */
  flash(events, viewer) {
    const sound = this.app.sound;
    for (const ev of events) {
      if (ev.type === "move" && ev.combat) {
        const outcome = combatOutcome(ev, viewer);
        this.board.flash(ev.combat.square, "combat", outcome);
        sound?.play("combat", outcome);
      } else if (ev.type === "move") {
        sound?.play("move");
      } else if (ev.type === "flip") {
        this.board.flash(ev.square, "flip");
        sound?.play("flip");
      }
    }
  }

  async resign() {
    if (!this.ctrl.canResign()) return;
    if (await this.app.confirm(t("confirm.resign"), t("action.resign"))) await this.ctrl.resign();
  }

  /** The finished game's record as a JSON file the player can keep. */
  async saveRecord() {
    const record = await this.ctrl.record();
    if (record) this.download(JSON.stringify(record, null, 1), "json", "application/json");
  }

  /** The finished game as a move list people can read (a text file). */
  async saveText() {
    const text = await this.ctrl.recordText();
    if (text) this.download(text, "txt", "text/plain");
  }

  download(text, ext, type) {
    const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
    const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, "");
    const link = h("a", { href: url, download: `junqi-${this.ctrl.variant}-${stamp}.${ext}`, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  /** A link that opens this game's replay (the game in the fragment, never sent to a
   * server): shared through the system's share sheet on phones, else copied. */
  async shareLink() {
    const payload = await this.ctrl.recordLink();
    if (!payload) return;
    const url = replayURL(payload);
    this.shareNote.dataset.link = url;
    const title = t("share.title", { variant: t(`variant.${this.ctrl.variant}`) });
    const coarse = matchMedia("(pointer: coarse)").matches;
    if (coarse && navigator.share && navigator.canShare?.({ title, url })) {
      try {
        await navigator.share({ title, url });
        return;
      } catch (err) {
        if (err?.name === "AbortError") return;
      }
    }
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      copied = false;
    }
    if (copied) {
      this.shareNote.textContent = t("share.copied");
    } else {
      const field = h("input", { type: "text", id: "share-url", readonly: true, value: url,
        "aria-label": t("action.share_link") });
      this.shareNote.replaceChildren(h("span", {}, t("share.shown")), field);
      field.select();
    }
    this.app.say(this.shareNote.textContent);
  }

  /** Put keyboard focus where the player acts next, after the screen changed under it:
   * a button the moment calls for (Change turn, Rematch, the curtain's), else the board. */
  focus(what) {
    const preferred = { changeTurn: this.b.changeTurn, rematch: this.b.rematch, curtain: this.b.curtain }[what];
    const force = what === "curtain" || what === "board";
    const active = /** @type {HTMLButtonElement} */ (document.activeElement);
    const lost = !active || active === document.body || !active.isConnected || active.hidden
      || active.disabled || Boolean(active.closest("[hidden], [inert]"));
    const held = this.heldFocus;
    this.heldFocus = null;
    if (!lost && !force) return;
    if (!force && held?.isConnected && !held.hidden && !held.disabled) {
      held.focus({ preventScroll: true });
      return;
    }
    if (preferred && !preferred.hidden) {
      preferred.focus({ preventScroll: true });
      return;
    }
    if (this.gridPanel.open && this.grid.root.contains(active)) this.grid.focusSquare(this.grid.focused);
    else if (!this.root.isConnected || this.root.inert) return;
    else this.board.focusSquare();
  }

  /** The screen goes (the flows dispose of its controller). */
  dispose() {
    this.zoom.dispose();
    this.unlisten();
  }
}

/** A phone or a touch screen: a narrow window or a coarse pointer (a desktop's mouse
 * taps the cross's small posts well enough; its setup shows the whole board). */
function handheld() {
  return innerWidth < 600 || Boolean(globalThis.matchMedia?.("(any-pointer: coarse)").matches);
}
