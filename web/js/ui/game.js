// One game on screen: setup, play, the hot-seat curtain, CPU turns, the end.
//
// Hidden information: `this.view` is the only game state kept here, and it is always the
// view of `this.viewer` as the engine gave it (null = the public view, no ranks at all).
// When the hot-seat curtain comes down the view is replaced by the public one, and
// messages, selection and the live region are cleared, so the page holds no ranks of the
// player who is not looking.

import { h, sleep, reducedMotion } from "./dom.js";
import { t, pieceName, shortName } from "./i18n.js";
import * as prefs from "./prefs.js";
import { Board } from "./board.js";
import { ButtonGrid } from "./grid.js";
import { combatText, eventText, resultText } from "./messages.js";
import { renderLost, renderCombatTable, renderMoves, quietText } from "./panels.js";
import { levelName } from "./start.js";

// ?moveclock=N shortens the clocks to N seconds (tests); players get 30 s a move, 90 s to deploy.
const CLOCK_TEST = Number(new URLSearchParams(location.search).get("moveclock")) || 0;
const CLOCK_SECONDS = CLOCK_TEST || 30;
const SETUP_SECONDS = CLOCK_TEST || 90;
const MAX_TIMEOUTS = 3;
const CPU_MIN_MS = 450; // the "thinking" state stays visible at least this long

const randomSeed = () => crypto.getRandomValues(new Uint32Array(1))[0];

class Stale extends Error {}

/** Turn a square name of `seat`'s half into the same square seen from seat 0 (and back). */
function turnSquare(desc, name) {
  const { files, ranks } = desc.board;
  const hq = /^hq(\d+)$/.exec(name);
  if (hq) return `hq${ranks + 1 - Number(hq[1])}`;
  const m = /^([a-f])(\d+)$/.exec(name);
  if (!m) return name;
  const file = String.fromCharCode(97 + files - 1 - (m[1].charCodeAt(0) - 97));
  return `${file}${ranks + 1 - Number(m[2])}`;
}

export class GameScreen {
  constructor(app, options) {
    this.app = app;
    this.engine = app.engine;
    this.opts = { human: 0, clock: false, ...options };
    this.variant = options.variant;
    this.desc = app.variants[this.variant];
    this.cpu = options.mode === "cpu";
    this.human = this.opts.human;
    this.cpuSeat = this.cpu ? 1 - this.human : null;
    this.token = 0;
    this.gameId = null;
    this.view = null;
    this.viewer = this.cpu ? this.human : null;
    this.orient = this.cpu ? this.human : 0;
    this.ui = "loading";
    this.busy = false;
    this.resetMarks();
    this.message = "";
    this.clock = null;
    this.buildDom();
  }

  resetMarks() {
    this.sel = null;
    this.targets = [];
    this.pick = null;
    this.error = null;
  }

  // --- DOM ---------------------------------------------------------------------------

  buildDom() {
    const button = (id, key, fn, cls = "") =>
      h("button", { type: "button", id, class: cls, "data-i18n": key,
        on: { click: () => this.guard(fn) } }, t(key));
    this.b = {
      newGame: button("btn-new", "action.new", () => this.newGame()),
      resign: button("btn-resign", "action.resign", () => this.resign()),
      offer: button("btn-offer", "action.offer", () => this.offerDraw()),
      mode: button("btn-mode", "action.mode", () => this.changeMode()),
      rules: button("btn-rules", "action.rules", () => this.app.rules(this.variant)),
      random: button("btn-random", "setup.random", () => this.setupOp("setup_random")),
      mirror: button("btn-mirror", "setup.mirror", () => this.setupOp("setup_mirror")),
      previous: button("btn-previous", "setup.previous", () => this.setupPrevious()),
      confirm: button("btn-confirm", "setup.confirm", () => this.confirmSetup(), "primary"),
      changeTurn: button("btn-change-turn", "action.change_turn", () => this.changeTurn(), "primary"),
      accept: button("btn-accept", "action.accept", () => this.answerOffer(true), "primary"),
      decline: button("btn-decline", "action.decline", () => this.answerOffer(false)),
      rematch: button("btn-rematch", "action.rematch", () => this.rematch(), "primary"),
      record: button("btn-record", "action.save_record", () => this.saveRecord()),
      curtain: button("btn-curtain", "curtain.open", () => this.openCurtain(), "primary big"),
    };
    const b = this.b;
    if (!this.desc.rules.draw_offers) b.offer.hidden = true;
    this.title = h("h2", { class: "game-title", id: "game-title" });
    this.status = h("p", { class: "status", id: "status", tabindex: "-1" });
    this.clockEl = h("span", { class: "clock", id: "clock", hidden: true });
    this.sidesEl = h("p", { class: "sides", id: "sides" });
    this.messageEl = h("p", { class: "message", id: "message" });
    this.actions = h("div", { class: "context-actions row", id: "context-actions" },
      b.random, b.mirror, b.previous, b.confirm, b.changeTurn, b.accept, b.decline, b.rematch, b.record);
    this.board = new Board(this.desc, this.orient, (sq) => this.guard(() => this.tap(sq)));
    this.grid = new ButtonGrid((sq) => this.guard(() => this.tap(sq)));
    this.grid.build(this.board.geo, t("grid.label"));
    this.curtainText = h("p", { class: "curtain-text", id: "curtain-text" });
    this.curtain = h("div", { class: "curtain", id: "curtain", hidden: true, role: "dialog",
      "aria-modal": "false", "aria-labelledby": "curtain-text" },
    h("div", { class: "curtain-inner" }, this.curtainText, b.curtain));
    this.lostEl = h("div", { class: "lost", id: "lost" });
    this.quietEl = h("p", { class: "quiet", id: "quiet" });
    this.movesEl = h("ol", { class: "moves", id: "moves", tabindex: "0",
      "aria-labelledby": "moves-summary" });
    this.tableEl = h("div", { class: "combat-table-wrap" });
    renderCombatTable(this.tableEl, this.desc, this.ctx());
    const details = (id, key, content, open, extra = {}) => {
      const d = h("details", { id, class: "panel", open, ...extra },
        h("summary", { id: `${id}-summary`, "data-i18n": key }, t(key)), content);
      return d;
    };
    this.gridPanel = details("grid-panel", "panel.grid", this.grid.root, prefs.get("gridOpen", false));
    this.gridPanel.addEventListener("toggle", () => prefs.set("gridOpen", this.gridPanel.open));
    this.statusBar = h("div", { class: "status-bar" },
      h("div", { class: "status-line" }, h("span", { class: "spinner", "aria-hidden": "true" }),
        this.status, this.clockEl),
      this.sidesEl, this.messageEl, this.actions);
    this.boardWrap = h("div", { class: "board-wrap" }, this.board.svg);
    this.panels = h("aside", { class: "panels" },
      h("section", { class: "panel", "aria-labelledby": "lost-title" },
        h("h3", { id: "lost-title", "data-i18n": "panel.lost" }, t("panel.lost")), this.lostEl,
        this.quietEl),
      this.gridPanel,
      details("moves-panel", "panel.moves", this.movesEl, true),
      details("table-panel", "panel.combat", this.tableEl, false, { "data-reference": "" }));
    this.root = h("section", { class: "game", "data-variant": this.variant,
      "data-mode": this.opts.mode, "aria-labelledby": "game-title" },
    h("div", { class: "game-bar" },
      this.title,
      h("div", { class: "controls row" }, b.newGame, b.resign, b.offer, b.mode, b.rules)),
    h("div", { class: "game-area" }, this.statusBar, this.boardWrap, this.panels, this.curtain));
  }

  relabel() {
    for (const node of this.root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    this.board.drawStatic();
    this.grid.root.setAttribute("aria-label", t("grid.label"));
    renderCombatTable(this.tableEl, this.desc, this.ctx());
    this.render();
  }

  dispose() {
    this.token++;
    this.stopClock();
    if (this.gameId) this.engine.call({ op: "drop", game: this.gameId }).catch(() => {});
    this.gameId = null;
  }

  // --- engine ------------------------------------------------------------------------

  async call(request) {
    const token = this.token;
    const reply = await this.engine.call({ game: this.gameId, ...request });
    if (token !== this.token) throw new Stale();
    return reply;
  }

  /** Run an input handler: one at a time, stale results dropped, failures shown. */
  async guard(fn) {
    try {
      await fn();
    } catch (err) {
      if (err instanceof Stale) return;
      console.error(err);
      this.busy = false;
      this.message = t("error.engine", { message: err.message || String(err) });
      this.render();
    }
  }

  fail(reply) {
    this.message = t("error.refused", { message: reply.error?.message || "?" });
    this.render();
    this.app.say(this.message);
  }

  // --- flow ----------------------------------------------------------------------------

  async start() {
    this.token++;
    const request = { op: "new_game", variant: this.variant, seed: randomSeed() };
    if (this.cpu) {
      request.cpu = { [this.cpuSeat]: this.opts.level };
      request.viewer = this.human;
    }
    this.render();
    const token = this.token;
    const reply = await this.engine.call(request);
    if (token !== this.token) {
      if (reply.ok) this.engine.call({ op: "drop", game: reply.game }).catch(() => {});
      return;
    }
    if (!reply.ok) {
      this.message = t("error.refused", { message: reply.error.message });
      this.ui = "error";
      this.render();
      return;
    }
    this.gameId = reply.game;
    this.view = reply.view;
    document.title = `${t(`variant.${this.variant}`)} — ${t("title.site")}`;
    if (this.cpu) {
      await this.guard(() => this.route());
    } else {
      await this.guard(() => this.showCurtain(0));
    }
  }

  /** CPU games: what comes next after the view changed. */
  async route() {
    const v = this.view;
    if (v.phase === "over") return this.finish();
    if (v.phase === "setup") {
      this.ui = "setup";
      this.message = t("setup.hint");
      this.render();
      return;
    }
    if (v.turn === this.cpuSeat) return this.runCpu();
    this.ui = "play";
    if (!this.message && this.variant === "blind") this.message = t("play.blind_hint");
    this.render();
  }

  async tap(square) {
    if (this.busy) return;
    if (this.ui === "setup") return this.setupTap(square);
    if (this.ui === "play") return this.playTap(square);
  }

  // --- setup -----------------------------------------------------------------------------

  async setupTap(name) {
    const piece = this.view.board[name];
    const mine = Boolean(piece) && piece.owner === this.viewer;
    this.error = null;
    if (!this.pick || !mine) {
      this.pick = mine && this.pick !== name ? name : null;
      this.message = mine ? t("setup.picked", { sq: name, piece: this.pieceName(piece.kind) })
        : t("setup.tap_own");
      this.render();
      return;
    }
    if (this.pick === name) {
      this.pick = null;
      this.message = t("setup.hint");
      this.render();
      return;
    }
    const a = this.pick;
    this.pick = null;
    this.busy = true;
    const reply = await this.call({ op: "setup_swap", player: this.viewer, a, b: name });
    this.busy = false;
    if (reply.ok) {
      this.view = reply.view;
      this.message = t("setup.swapped", { a, b: name });
    } else {
      this.error = reply.error.square || name;
      this.message = this.refusal(reply.error);
    }
    this.render();
    this.app.say(this.message);
  }

  refusal(error) {
    const key = `refuse.${error.code}`;
    const text = t(key, { sq: error.square || "" });
    return text === key ? error.message : t("setup.refused", { reason: text });
  }

  async setupOp(op, extra = {}) {
    if (this.ui !== "setup" || this.busy) return;
    this.busy = true;
    const reply = await this.call({ op, player: this.viewer, seed: randomSeed(), ...extra });
    this.busy = false;
    this.resetMarks();
    if (!reply.ok) {
      this.message = this.refusal(reply.error);
    } else {
      this.view = reply.view;
      this.message = t(`setup.done.${op}`);
    }
    this.render();
    this.app.say(this.message);
  }

  async setupPrevious() {
    const saved = prefs.loadLayout(this.variant);
    if (!saved) {
      this.message = t("setup.no_previous");
      this.render();
      return;
    }
    const layout = {};
    for (const [square, kind] of Object.entries(saved)) {
      layout[this.viewer === 1 ? turnSquare(this.desc, square) : square] = kind;
    }
    await this.setupOp("setup_set", { layout });
  }

  async confirmSetup() {
    if (this.ui !== "setup" || this.busy) return;
    this.busy = true;
    const mine = Object.fromEntries(Object.entries(this.view.board)
      .filter(([, p]) => p.owner === this.viewer).map(([sq, p]) => [sq, p.kind]));
    const reply = await this.call({ op: "deploy", player: this.viewer });
    this.busy = false;
    if (!reply.ok) {
      this.message = this.refusal(reply.error);
      this.render();
      return;
    }
    this.resetMarks();
    if (this.cpu) {
      // "Previous layout": the last layout confirmed in a game against the CPU, as seen
      // from seat 0 (never from hot-seat games, where the other player could load it).
      const normal = {};
      for (const [sq, kind] of Object.entries(mine)) {
        normal[this.viewer === 1 ? turnSquare(this.desc, sq) : sq] = kind;
      }
      prefs.saveLayout(this.variant, normal);
      this.view = reply.view;
      this.message = t("play.started");
      return this.route();
    }
    const other = 1 - this.viewer;
    const next = reply.view.deployed[other] ? reply.view.turn ?? 0 : other;
    return this.showCurtain(next);
  }

  // --- play ------------------------------------------------------------------------------

  async playTap(name) {
    const piece = this.view.board[name];
    if (this.sel) {
      const target = this.targets.find((x) => x.to === name);
      if (target) return this.act(`${this.sel}-${name}`);
    }
    if (this.view.turn !== this.viewer) return;
    if (piece && piece.owner === this.viewer && piece.kind && !piece.down) {
      if (this.sel === name) {
        this.resetMarks();
        this.render();
        return;
      }
      this.busy = true;
      const reply = await this.call({ op: "legal", player: this.viewer, square: name });
      this.busy = false;
      this.sel = name;
      this.targets = reply.ok ? reply.targets : [];
      this.message = this.targets.length
        ? t("play.selected", { piece: this.pieceName(piece.kind), sq: name, n: this.targets.length })
        : t("play.cannot_move", { piece: this.pieceName(piece.kind), sq: name });
      this.render();
      this.app.say(this.message);
      return;
    }
    if (piece && piece.down && this.variant === "blind") return this.act(`flip:${name}`);
    if (this.sel) {
      this.resetMarks();
      this.render();
    }
  }

  async act(action) {
    const meta = /^(offer|accept|decline)/.test(action);
    if (!meta) this.stopClock();
    this.busy = true;
    this.render();
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

  async showEvents(events, view, own, keep = "") {
    const move = events.find((e) => e.type === "move");
    if (move) await this.board.animateMove(move.from, move.to);
    this.view = view;
    const ctx = this.ctx();
    const texts = events.map((ev) =>
      (own && ev.player === this.viewer ? this.ownText(ev, ctx) : eventText(ev, ctx)));
    const said = texts.filter(Boolean).join(" ");
    this.message = [keep, said].filter(Boolean).join(" ");
    this.render();
    if (move?.combat) this.board.flash(move.combat.square);
    const flip = events.find((e) => e.type === "flip");
    if (flip) this.board.flash(flip.square, "flip");
    this.app.say(said);
  }

  ownText(ev, ctx) {
    if (ev.type === "move") {
      return ev.combat ? combatText(ev, ctx) : t("say.own_move", { from: ev.from, to: ev.to });
    }
    if (ev.type === "flip") return t("say.own_flip", { sq: ev.square, piece: ctx.flipName(ev) });
    if (ev.type === "timeout") {
      return t("say.own_timeout", { n: this.view.timeouts[ev.player], max: MAX_TIMEOUTS });
    }
    const text = eventText(ev, ctx);
    return ev.type === "offer" ? t("say.own_offer") : text;
  }

  async afterAction() {
    const v = this.view;
    if (v.phase === "over") return this.finish();
    if (this.cpu) return this.route();
    if (v.turn !== this.viewer) {
      this.ui = "moved";
      this.render();
      this.refocus(this.b.changeTurn);
      return;
    }
    this.ui = "play";
    this.render();
  }

  async runCpu() {
    const keep = this.message; // the result of the player's own move stays on screen
    this.ui = "wait";
    this.render();
    const started = performance.now();
    const reply = await this.call({ op: "cpu_act", player: this.cpuSeat, viewer: this.human });
    const left = (reducedMotion() ? 0 : CPU_MIN_MS) - (performance.now() - started);
    if (left > 0) await sleep(left);
    if (!reply.ok) {
      this.ui = "play";
      this.fail(reply);
      return;
    }
    await this.showEvents(reply.events, reply.view, false, keep);
    return this.afterAction();
  }

  async offerDraw() {
    if (this.viewer === null || this.busy || !this.view.actions.includes("offer")) return;
    await this.act(`offer:${this.viewer}`);
  }

  async answerOffer(accept) {
    if (this.viewer === null || this.busy) return;
    await this.act(`${accept ? "accept" : "decline"}:${this.viewer}`);
  }

  async resign() {
    if (this.viewer === null || this.busy || !this.view || this.view.phase === "over") return;
    const ok = await this.app.confirm(t("confirm.resign"), t("action.resign"));
    if (ok) await this.act(`resign:${this.viewer}`);
  }

  // --- hot-seat curtain ------------------------------------------------------------------

  async showCurtain(seat) {
    this.stopClock();
    // Forget everything the last player saw before asking for the public view.
    this.viewer = null;
    this.resetMarks();
    this.message = "";
    this.app.say("");
    this.curtainSeat = seat;
    this.ui = "curtain";
    // Until the public view arrives: nothing of the last player's, and busy, so that the
    // curtain cannot be opened on a view that is not the engine's.
    this.view = { ...this.view, player: null, actions: [], board: {}, history: [],
      lost: [{ count: 0, kinds: null }, { count: 0, kinds: null }] };
    this.busy = true;
    this.render();
    const reply = await this.call({ op: "view", player: null });
    this.busy = false;
    if (!reply.ok) return this.fail(reply);
    this.view = reply.view;
    this.render();
    this.refocus(this.b.curtain, true);
  }

  async openCurtain() {
    if (this.ui !== "curtain" || this.busy) return;
    const seat = this.curtainSeat;
    this.busy = true;
    const reply = await this.call({ op: "view", player: seat });
    this.busy = false;
    if (!reply.ok) return this.fail(reply);
    this.viewer = seat;
    this.orient = seat;
    this.view = reply.view;
    if (this.view.phase === "setup") {
      this.ui = "setup";
      this.message = t("setup.hint");
      this.startClock(SETUP_SECONDS, () => this.setupTimeout());
    } else if (this.view.phase === "over") {
      return this.finish();
    } else {
      this.ui = "play";
      this.message = this.sinceLastTurn();
      this.startClock(CLOCK_SECONDS, () => this.timeout());
    }
    this.render();
    this.app.say(`${this.statusText()} ${this.message}`);
    this.refocus(null, true);
  }

  /** What the opponent did since this player's last action, in this player's terms. */
  sinceLastTurn() {
    const history = this.view.history;
    let i = history.length;
    while (i > 0 && history[i - 1].player !== this.viewer) i--;
    const ctx = this.ctx();
    const texts = history.slice(i).map((ev) => eventText(ev, ctx)).filter(Boolean);
    if (texts.length) return texts.join(" ");
    return t(this.variant === "blind" ? "play.blind_hint" : "play.first_move");
  }

  async changeTurn() {
    if (this.ui !== "moved" || this.busy) return;
    await this.showCurtain(this.view.turn);
  }

  // --- clock (two players on one device) ----------------------------------------------------

  startClock(seconds, expire) {
    this.stopClock();
    if (this.cpu || !this.opts.clock) return;
    const deadline = performance.now() + seconds * 1000;
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
      this.clockEl.hidden = false;
      this.clockEl.textContent = this.view.phase === "setup" ? t("clock.setup", { s: left })
        : t("clock", { s: left, n: this.view.timeouts[this.viewer], max: MAX_TIMEOUTS });
      this.clockEl.classList.toggle("low", left <= 10);
      if (left <= 0) {
        this.stopClock();
        this.guard(expire);
      }
    };
    this.clock = setInterval(tick, 250);
    tick();
  }

  stopClock() {
    if (this.clock) clearInterval(this.clock);
    this.clock = null;
    this.clockEl.hidden = true;
  }

  /** Deployment time is up: a random layout is confirmed for the player. */
  async setupTimeout() {
    if (this.ui !== "setup") return;
    if (this.busy) {
      setTimeout(() => this.guard(() => this.setupTimeout()), 200);
      return;
    }
    await this.setupOp("setup_random");
    await this.confirmSetup();
  }

  async timeout() {
    if (this.ui !== "play" || this.viewer === null) return;
    if (this.busy) {
      // an engine call is in flight: try again in a moment
      setTimeout(() => this.guard(() => this.timeout()), 200);
      return;
    }
    await this.act("timeout");
  }

  // --- end -------------------------------------------------------------------------------

  async finish() {
    this.stopClock();
    this.resetMarks();
    if (this.viewer === null) this.viewer = this.cpu ? this.human : this.orient;
    const reply = await this.call({ op: "view", player: this.viewer });
    if (reply.ok) this.view = reply.view; // everything is revealed now
    this.ui = "over";
    const result = resultText(this.view.result, this.ctx());
    this.message = [this.message, result].filter(Boolean).join(" ");
    this.render();
    this.app.say(this.message);
    this.refocus(this.b.rematch);
  }

  /** The finished game's record (docs/api.md) as a JSON file the player can keep. */
  async saveRecord() {
    const reply = await this.call({ op: "record_export" });
    if (!reply.ok) {
      this.message = t("error.refused", { message: reply.error.message });
      this.render();
      return;
    }
    const text = JSON.stringify(reply.record, null, 1);
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, "");
    const link = h("a", { href: url, download: `junqi-${this.variant}-${stamp}.json`, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  inProgress() {
    return this.view && this.view.phase !== "over" && (this.view.phase === "play" || this.ui === "setup");
  }

  async newGame() {
    if (this.inProgress() && !(await this.app.confirm(t("confirm.new"), t("action.new")))) return;
    this.app.startGame({ ...this.opts });
  }

  async rematch() {
    this.app.startGame({ ...this.opts, human: this.cpu ? 1 - this.human : this.human });
  }

  async changeMode() {
    if (this.inProgress() && !(await this.app.confirm(t("confirm.mode"), t("action.mode")))) return;
    this.app.showStart();
  }

  // --- words -----------------------------------------------------------------------------

  pieceName(kind) {
    return pieceName(this.variant, kind);
  }

  sideName(seat) {
    let name = this.cpu ? t(seat === this.human ? "side.you" : "side.cpu") : t(`side.${this.variant}.${seat}`);
    const colours = this.view?.colours;
    if (this.variant === "blind" && colours) {
      name = t("side.with_colour", { side: name, colour: t(`colour.${colours[seat]}`) });
    }
    return name;
  }

  ctx() {
    return {
      desc: this.desc,
      viewer: this.viewer,
      you: this.cpu,
      side: (seat) => this.sideName(seat),
      piece: (kind) => this.pieceName(kind),
      short: (kind) => this.label(kind),
      flipName: (ev) => t("flip.piece", { colour: t(`colour.${ev.colour}`), piece: this.pieceName(ev.kind) }),
    };
  }

  label(kind) {
    if (this.app.glyphs) {
      const piece = this.desc.pieces.find((p) => p.id === kind);
      if (piece) return piece.glyph;
    }
    return shortName(this.variant, kind);
  }

  colourClass(piece) {
    if ((piece.down && !piece.kind) || piece.owner === null || piece.owner === undefined) return "none";
    if (this.variant === "gunjin") return piece.owner === 0 ? "p1" : "p2";
    if (this.variant === "blind" && this.view.colours) return this.view.colours[piece.owner];
    return piece.owner === 0 ? "red" : "blue";
  }

  statusText() {
    const v = this.view;
    switch (this.ui) {
      case "loading": return t("status.loading");
      case "error": return t("status.error");
      case "curtain": return t("status.curtain", { side: this.sideName(this.curtainSeat) });
      case "setup": return this.cpu ? t("status.setup") : t("status.setup_side", { side: this.sideName(this.viewer) });
      case "wait": return t("status.thinking");
      case "moved": return t("status.moved");
      case "over": return v.result ? resultText(v.result, this.ctx()) : "";
      case "play":
        if (v.turn !== this.viewer) return t("status.waiting");
        return this.cpu ? t("status.your_turn") : t("status.turn_side", { side: this.sideName(this.viewer) });
      default: return "";
    }
  }

  sidesText() {
    const v = this.view;
    if (!v) return "";
    if (this.variant === "blind") {
      return v.colours ? `${this.sideName(0)} · ${this.sideName(1)}` : t("sides.undecided");
    }
    if (this.variant === "classic" && !this.cpu) return "";
    return [0, 1].map((seat) => t("sides.entry", {
      side: this.sideName(seat), colour: t(`colour.${this.colourClass({ owner: seat })}`),
    })).join(" · ");
  }

  // --- rendering ---------------------------------------------------------------------------

  pieces() {
    const v = this.view;
    const map = new Map(Object.entries(v?.board || {}));
    if (v && v.phase === "setup") {
      // The other side has deployed: its pieces stand there, face hidden.
      for (const seat of [0, 1]) {
        if (seat === this.viewer || !v.deployed[seat]) continue;
        for (const sq of this.desc.board.squares) {
          if (sq.half === seat && sq.type !== "camp" && !map.has(sq.name)) {
            map.set(sq.name, { owner: seat, kind: null, down: false });
          }
        }
      }
    }
    return map;
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

  squareInfo(name, pieces, marks) {
    const piece = pieces.get(name);
    const sq = this.board.geo.pos(name);
    const classes = [];
    let content;
    let text = "";
    if (!piece) {
      content = t(`grid.empty.${sq.type}`);
      text = { camp: "○", hq: "⌂", station: "◇" }[sq.type] || "";
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
    if (marks.selected === name) {
      states.push(t("grid.selected"));
      classes.push("selected");
    }
    const target = marks.targets.find((x) => x.to === name);
    if (target) {
      states.push(t(target.attack ? "grid.attack" : "grid.dest"));
      classes.push(target.attack ? "attack" : "dest");
    }
    if (marks.error === name) {
      states.push(t("grid.refused"));
      classes.push("refused");
    }
    if (marks.last?.includes(name)) {
      states.push(t("grid.last"));
      classes.push("last");
    }
    const label = [`${name}: ${content}`, ...states].join(", ");
    return { text, label, classes };
  }

  render() {
    const v = this.view;
    const ui = this.ui;
    const root = this.root;
    root.dataset.ui = ui;
    root.dataset.phase = v?.phase || "";
    root.dataset.viewer = this.viewer ?? "";
    root.dataset.turn = v?.turn ?? "";
    root.dataset.ply = v?.ply ?? "";
    root.dataset.busy = String(this.busy);
    const mode = this.cpu ? t("mode.cpu", { level: levelName(this.opts.level) })
      + (this.human === 1 ? ` · ${t("mode.second")}` : "") : t("mode.hotseat");
    this.title.textContent = `${t(`variant.${this.variant}`)} · ${mode}`;
    this.status.textContent = this.statusText();
    this.sidesEl.textContent = ui === "curtain" ? "" : this.sidesText();
    this.messageEl.textContent = this.message;
    this.messageEl.hidden = !this.message;

    // Orientation: your own side at the bottom.
    const seat = this.cpu ? this.human : this.viewer ?? this.curtainSeat ?? this.orient;
    if (this.board.seat !== seat) {
      this.board.setSeat(seat);
      this.grid.build(this.board.geo, t("grid.label"));
    }
    const pieces = this.pieces();
    const marks = {
      selected: this.sel || this.pick,
      targets: this.targets,
      error: this.error,
      last: this.lastMarks(),
    };
    const active = !this.busy && (ui === "setup" || (ui === "play" && v.turn === this.viewer));
    this.board.render({
      pieces,
      viewer: this.viewer,
      colour: (p) => this.colourClass(p),
      label: (kind) => this.label(kind),
      selected: this.sel,
      pick: this.pick,
      targets: this.targets,
      error: this.error,
      lastMove: marks.last,
      active,
    });
    this.grid.render((name) => this.squareInfo(name, pieces, marks));

    // Controls.
    const b = this.b;
    const looking = this.viewer !== null && v && v.phase !== "over";
    b.resign.disabled = !looking || this.busy || ui === "wait" || ui === "curtain";
    b.offer.disabled = !looking || this.busy || ui === "wait" || ui === "curtain" || !v.actions.includes("offer");
    const setup = ui === "setup";
    b.random.hidden = b.mirror.hidden = b.previous.hidden = b.confirm.hidden = !setup;
    b.previous.disabled = !prefs.loadLayout(this.variant);
    b.changeTurn.hidden = ui !== "moved";
    const offered = ui === "play" && v && v.offer_by === 1 - this.viewer && v.actions.includes("accept");
    b.accept.hidden = b.decline.hidden = !offered;
    b.rematch.hidden = b.record.hidden = ui !== "over";
    for (const key of ["random", "mirror", "previous", "confirm", "accept", "decline", "changeTurn"]) {
      if (this.busy) b[key].disabled = true;
      else if (key !== "previous") b[key].disabled = false;
    }
    if (offered) this.messageEl.textContent = [this.message, t("offer.pending", { side: this.sideName(1 - this.viewer) })].filter(Boolean).join(" ");
    this.messageEl.hidden = !this.messageEl.textContent;

    // Curtain: covers the board and the panels; what is under it is the public view.
    const curtain = ui === "curtain";
    this.curtain.hidden = !curtain;
    for (const part of [this.statusBar, this.boardWrap, this.panels]) part.inert = curtain;
    if (curtain) {
      const phase = v?.phase === "setup" ? "setup" : "turn";
      this.curtainText.textContent = t(`curtain.${phase}`, { side: this.sideName(this.curtainSeat) });
      b.curtain.textContent = t(`curtain.open.${phase}`, { side: this.sideName(this.curtainSeat) });
    }

    // Panels.
    if (v) {
      const ctx = this.ctx();
      renderLost(this.lostEl, v, ctx);
      this.quietEl.textContent = quietText(v);
      this.quietEl.hidden = !this.quietEl.textContent;
      renderMoves(this.movesEl, v, ctx);
    }
  }

  /** Put keyboard focus somewhere sensible after the screen changed under it. */
  refocus(preferred, force = false) {
    const active = document.activeElement;
    const lost = !active || active === document.body || active.hidden || active.closest("[hidden], [inert]");
    if (!lost && !force) return;
    if (preferred && !preferred.hidden) {
      preferred.focus();
      return;
    }
    if (this.gridPanel.open && this.grid.focused) this.grid.focusSquare(this.grid.focused);
    else this.status.focus();
  }
}
