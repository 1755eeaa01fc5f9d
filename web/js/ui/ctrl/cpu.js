// A game against the CPU: the person at this screen plays one seat (`human`), the engine's
// CPU player every other; after each of the player's actions the CPU moves until the
// player's turn comes again. The CPU gets its own view only (the engine's `cpu_act`).
// The session interface: session.js; what it shares with a game on one device:
// enginesession.js.

import { t } from "../i18n.js";
import { EngineSession } from "./enginesession.js";
import { levelName, variantName } from "./gamescreen.js";

const CPU_MIN_MS = 450; // the "thinking" state stays visible at least this long

export class CpuSession extends EngineSession {
  /** @param {{level: string, human?: number, restored?: any, minMs?: number}} options */
  constructor({ level, human = 0, restored = null, minMs = CPU_MIN_MS }) {
    super({ restored });
    /** @type {"cpu"} */
    this.mode = "cpu";
    this.level = level;
    this.human = human;
    this.minMs = minMs ?? CPU_MIN_MS;
    this.rivalKey = "side.cpu";
    this.keepsLayouts = true; // "Previous layout": nobody else can load it here
  }

  /** The person at this screen plays `human`. */
  get you() {
    return this.human;
  }

  get opponent() {
    return `cpu:${this.level}`;
  }

  /** The seats the CPU plays. */
  cpuSeats() {
    return this.game.others(this.human);
  }

  /** @param {import("./game.js").GameController} game */
  attach(game) {
    super.attach(game);
    game.viewer = this.human;
    game.seat = this.human;
  }

  newGameRequest() {
    const request = super.newGameRequest();
    request.cpu = Object.fromEntries(this.cpuSeats().map((seat) => [seat, this.level]));
    request.viewer = this.human;
    return request;
  }

  async begin() {
    return this.route();
  }

  async next() {
    return this.route();
  }

  async deployed() {
    this.game.setMessage(() => t("play.started"));
    return this.route();
  }

  /** What comes next after the view changed: the end, the setup, the CPU's move or the
   * player's. */
  async route() {
    const game = this.game;
    const v = game.view;
    if (v.phase === "over") return game.finish();
    if (v.phase === "setup") {
      game.ui = "setup";
      game.setMessage(() => t("setup.hint"));
      game.changed();
      game.focusNext();
      return;
    }
    if (this.cpuSeats().includes(v.turn)) return this.runCpu(v.turn);
    game.ui = "play";
    // the first hint for a game of flips: what a tap does
    if (!game.lines.length && game.desc?.rules?.flips) game.setMessage(() => t("play.blind_hint"));
    game.changed();
    game.focusNext();
  }

  /** The CPU's move for `seat`, then what comes after it. @param {number} seat */
  async runCpu(seat) {
    const game = this.game;
    const keep = game.lines; // the result of the player's own move stays on screen
    game.ui = "wait";
    game.changed();
    const started = game.timers.now();
    const reply = await game.call({ op: "cpu_act", player: seat, viewer: this.human });
    const left = this.minMs - (game.timers.now() - started);
    if (left > 0) await new Promise((resolve) => game.timers.later(() => resolve(null), left));
    if (!reply.ok) {
      game.ui = "play";
      game.fail(reply);
      return;
    }
    await game.showEvents(reply.events || [], reply.view, false, keep);
    return this.route();
  }

  title() {
    const second = this.human !== 0 ? ` · ${t("mode.second")}` : "";
    return `${variantName(this.game.variant)} · ${t("mode.cpu", { level: levelName(this.level) })}${second}`;
  }

  /** The same game again; a rematch switches seats. */
  nextOptions(rematch = false) {
    const seats = this.game.seats();
    const human = rematch ? seats[(seats.indexOf(this.human) + 1) % seats.length] : this.human;
    return { ...this.game.opts, mode: this.mode, level: this.level, human };
  }
}
