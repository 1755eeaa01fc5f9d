// The replay screen: the board (the game screen's renderer), the step's action and combat
// message, first / back / play-pause / forward / last, a slider to any step, the speed, the
// viewpoint (either seat, or everything for a finished game) and a move list to click.
// Keys: Left / Right step, Home / End jump. Drawn from a ReplayController (ctrl/replay.js).
//
// Layout: the game screen's (web/css/game.css): a status line and message of fixed height,
// the board, then the controls in two rows of fixed height; the move list and the lost
// pieces follow below (portrait) or beside (landscape).

import { h, clear, showMessage } from "./dom.js";
import { t } from "../i18n.js";
import { Board } from "./board.js";
import { BoardZoom } from "./zoom.js";
import { icon } from "./icons.js";
import { renderLost } from "./panels.js";
import { SPEED_NAMES } from "../ctrl/replay.js";
import { engineText } from "./start.js";

/** [name, i18n key, action] @type {[string, string, (r: any) => any][]} */
const TRANSPORT = [
  ["first", "replay.first", (r) => r.first()],
  ["back", "replay.back", (r) => r.back()],
  ["play", "replay.play", (r) => r.toggle()],
  ["forward", "replay.forward", (r) => r.forward()],
  ["last", "replay.last", (r) => r.toEnd()],
];

export class ReplayView {
  /** app: the page {say(text), settings, bar, flows: {closeReplay()}} */
  constructor(app, ctrl) {
    this.app = app;
    this.ctrl = ctrl;
    this.shownStep = null;
    this.listFor = null;
    this.build();
    this.unsubscribe = ctrl.subscribe(() => this.render());
    this.unlisten = app.engine?.onChange(() => !ctrl.frame && this.render()) ?? (() => {});
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
  }

  build() {
    const r = this.ctrl;
    this.title = h("h2", { class: "sr-only", id: "replay-title" });
    this.status = h("p", { class: "status", id: "replay-status", tabindex: "-1" });
    this.close = h("button", { type: "button", class: "icon-button replay-close", id: "replay-close",
      "aria-label": t("replay.close"), title: t("replay.close"),
      on: { click: () => this.app.flows.closeReplay() } }, icon("close"));
    this.message = h("p", { class: "message", id: "replay-message" });
    const statusBar = h("div", { class: "status-bar" },
      h("div", { class: "status-line" }, this.status, this.close), this.message);
    this.stage = h("div", { class: "board-stage" });
    const boardWrap = h("div", { class: "board-wrap", id: "replay-board-wrap" }, this.stage);
    this.boardWrap = boardWrap;
    this.board = null; // drawn once the replay's variant is known (a link: when the engine answers)
    this.zoom = null;
    this.buttons = {};
    for (const [name, key, action] of TRANSPORT) {
      this.buttons[name] = h("button", { type: "button", id: `replay-${name}`, class: "transport",
        "aria-label": t(key), title: t(key), on: { click: () => action(r) } }, icon(name));
    }
    this.speed = h("select", { id: "replay-speed", "aria-label": t("replay.speed"), title: t("replay.speed") },
      ...SPEED_NAMES.map((name, i) => h("option", { value: String(i) }, name)));
    this.speed.addEventListener("change", () => r.setSpeed(Number(this.speed.value)));
    this.slider = h("input", { type: "range", id: "replay-slider", min: "0", max: "0", step: "1",
      value: "0", "aria-label": t("replay.slider") });
    this.slider.addEventListener("input", () => r.goTo(Number(this.slider.value)));
    this.viewer = h("select", { id: "replay-viewer", "aria-label": t("replay.view"), title: t("replay.view") });
    this.viewer.addEventListener("change", () => {
      const value = this.viewer.value === "all" ? "all" : Number(this.viewer.value);
      r.setViewer(value);
    });
    const controls = h("div", { class: "replay-controls", id: "replay-controls" },
      h("div", { class: "replay-scrub" }, this.slider, this.viewer),
      h("div", { class: "replay-transport" }, ...Object.values(this.buttons), this.speed));
    this.lostEl = h("div", { class: "lost", id: "replay-lost" });
    this.movesEl = h("ol", { class: "moves replay-moves", id: "replay-moves", "aria-labelledby": "replay-moves-title" });
    this.panels = h("aside", { class: "panels" },
      h("section", { class: "panel", "aria-labelledby": "replay-moves-title" },
        h("h3", { id: "replay-moves-title" }, t("panel.moves")), this.movesEl,
        h("p", { class: "legend" }, t("replay.keys"))),
      h("section", { class: "panel", "aria-labelledby": "replay-lost-title" },
        h("h3", { id: "replay-lost-title" }, t("panel.lost")), this.lostEl));
    this.playArea = h("div", { class: "play-area" }, statusBar, boardWrap, controls);
    this.root = h("section", { class: "game replay", id: "replay", "data-variant": r.variant ?? "",
      "aria-labelledby": "replay-title" }, this.title, this.playArea, this.panels);
    if (r.desc) this.makeBoard();
  }

  makeBoard() {
    this.board = new Board(this.ctrl.desc, this.ctrl.seat, () => {});
    this.stage.append(this.board.svg);
    // The board fills its frame (rows stretch) and zooms like the game's (view/zoom.js).
    this.zoom = new BoardZoom(this.board, this.boardWrap, this.stage, {
      bar: this.app.bar, screen: this.root,
      onStretch: () => this.root.style.setProperty("--aspect", this.board.aspect.toFixed(4)),
    });
    this.root.style.setProperty("--aspect", this.board.aspect.toFixed(4));
  }

  render() {
    const r = this.ctrl;
    const root = this.root;
    root.dataset.step = String(r.step);
    root.dataset.last = String(r.last);
    root.dataset.viewer = String(r.viewer ?? "");
    root.dataset.playing = String(r.playing);
    root.dataset.busy = String(r.busy);
    if (r.variant) root.dataset.variant = r.variant;
    this.title.textContent = r.title();
    this.app.setTitle?.(r.title());
    this.status.textContent = r.statusText();
    showMessage(this.message, r.frame || r.error ? r.messageText() : this.engineText());
    this.renderBoard();
    this.renderControls();
    this.renderPanels();
    if (this.shownStep !== r.step && this.shownStep !== null && !r.playing) {
      this.app.say([r.statusText(), r.messageText()].filter(Boolean).join(" "));
    }
    this.shownStep = r.step;
  }

  renderBoard() {
    const r = this.ctrl;
    if (!r.desc) return;
    if (!this.board) this.makeBoard();
    else if (this.board.desc !== r.desc) {
      this.board.setDesc(r.desc);
      this.root.style.setProperty("--aspect", this.board.aspect.toFixed(4));
      this.zoom.resized();
    }
    if (this.board.seat !== r.seat) this.board.setSeat(r.seat);
    const settings = this.app.settings;
    this.board.render({
      ...r.boardState(),
      colour: (p) => r.colourClass(p),
      label: (kind) => r.label(kind),
      rank: (kind) => r.rank(kind),
      ranks: Boolean(settings?.ranks),
    });
    const ev = r.event;
    if (ev?.type === "move" && ev.combat && this.flashed !== r.step) this.board.flash(ev.combat.square, "combat");
    this.flashed = r.step;
  }

  renderControls() {
    const r = this.ctrl;
    const enabled = r.controls();
    for (const [name, button] of Object.entries(this.buttons)) button.disabled = !enabled[name];
    const play = this.buttons.play;
    const key = r.playing ? "replay.pause" : "replay.play";
    play.replaceChildren(icon(r.playing ? "pause" : "play"));
    play.setAttribute("aria-label", t(key));
    play.title = t(key);
    play.setAttribute("aria-pressed", String(r.playing));
    this.slider.max = String(r.last);
    this.slider.value = String(r.step);
    this.slider.disabled = !r.frames.length;
    this.slider.setAttribute("aria-valuetext", r.frames.length ? r.statusText() : "");
    this.speed.value = String(r.speed);
    const views = r.viewpoints();
    const names = views.map((v) => (v === "all" ? t("replay.view.all") : t("replay.view.seat", { side: r.sideName(v) })));
    const key2 = views.join("|") + names.join("|");
    if (this.viewerKey !== key2) {
      clear(this.viewer);
      views.forEach((v, i) => this.viewer.append(h("option", { value: String(v) }, names[i])));
      this.viewerKey = key2;
    }
    this.viewer.value = String(r.viewer);
    this.viewer.disabled = r.busy || views.length < 2;
    this.viewer.hidden = !views.length;
  }

  renderPanels() {
    const r = this.ctrl;
    if (!r.frame) return;
    renderLost(this.lostEl, r.lostView(), r.ctx());
    if (this.listFor !== r.events) {
      clear(this.movesEl);
      const items = r.moveList().map((move) => h("li", {},
        h("button", { type: "button", class: "move-link", "data-step": String(move.step),
          on: { click: () => r.goTo(move.step) } }, move.text)));
      this.movesEl.append(h("li", {}, h("button", { type: "button", class: "move-link", "data-step": "0",
        on: { click: () => r.goTo(0) } }, t("replay.first"))), ...items);
      this.listFor = r.events;
    }
    for (const button of this.movesEl.querySelectorAll(".move-link")) {
      const current = Number(button.dataset.step) === r.step;
      button.classList.toggle("current", current);
      if (current) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    }
    const current = this.movesEl.querySelector(".current");
    if (current && this.scrolledTo !== r.step) {
      const list = this.movesEl;
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
      this.scrolledTo = r.step;
    }
  }

  /** Left / Right / Home / End anywhere on the screen, except where a control uses them. */
  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const target = event.target;
    if (target?.closest?.("select, textarea, input, dialog, .menu-panel")) return;
    if (this.ctrl.key(event.key)) event.preventDefault();
  }

  relabel() {
    const root = this.root;
    this.zoom?.dispose();
    this.build();
    root.replaceWith(this.root);
    this.listFor = null;
    this.viewerKey = null;
    this.render();
  }

  /** While a link's replay waits for the engine: how far the engine's start is. */
  engineText() {
    const link = this.app.engine;
    if (!link || link.ready) return "";
    return t("replay.engine", { percent: Math.round((link.progress.fraction || 0) * 100),
      step: engineText(link) });
  }

  dispose() {
    this.unlisten();
    this.zoom?.dispose();
    document.removeEventListener("keydown", this.onKey);
    this.unsubscribe(); // the flows dispose of the controller
  }
}
