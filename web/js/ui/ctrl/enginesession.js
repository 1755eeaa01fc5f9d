// What a game against the CPU and a game on one device share: the engine keeps the game
// (by its id), every action is an engine op on it, and a saved game goes on from the
// worker's `resume_game` reply. CpuSession (cpu.js) and LocalSession (hotseat.js) add who
// plays and what comes after each action. The session interface: session.js.

import { t } from "../i18n.js";

/** @typedef {import("./game.js").GameController} GameController */
/** @typedef {import("./session.js").Reply} Reply */

export class EngineSession {
  /** @param {{restored?: Reply|null}} options  restored: a saved game's resume_game reply */
  constructor({ restored = null } = {}) {
    this.shared = false;
    this.engineGame = true; // saved by the worker; marks and notes go with it
    /** @type {GameController} */
    this.game = /** @type {any} */ (null);
    /** @type {string|number|null} */
    this.gameId = null;
    this.restored = restored;
  }

  /** @param {GameController} game */
  attach(game) {
    this.game = game;
  }

  /** The new_game request for the game's options (rule preset and options only when chosen). */
  newGameRequest() {
    const game = this.game;
    /** @type {any} */
    const request = { op: "new_game", variant: game.variant };
    if (game.seeded) request.seed = game.random();
    if (game.opts.preset) request.preset = game.opts.preset;
    if (game.opts.rules && Object.keys(game.opts.rules).length) request.options = game.opts.rules;
    return request;
  }

  /** Start the game (or go on with a saved one), then `begin` it. */
  async open() {
    const game = this.game;
    const token = game.token;
    game.ui = "loading";
    game.setMessage();
    game.changed();
    const restored = this.restored;
    this.restored = null;
    const reply = restored || (await game.engine.call(this.newGameRequest()));
    if (token !== game.token) {
      if (reply.ok) game.engine.call({ op: "drop", game: reply.game }).catch(() => {});
      return;
    }
    if (!reply.ok) {
      const message = reply.error?.message || "?";
      game.setMessage(() => t("error.refused", { message }));
      game.ui = "error";
      game.changed();
      return;
    }
    this.gameId = reply.game;
    if (reply.description) game.desc = reply.description; // these rules' board and pieces
    game.view = reply.view;
    // a saved game goes on: the message says whose turn it is and the last move (on one
    // device the curtain comes down first, and the player who looks hears it then)
    if (restored && !this.shared) game.setMessage(...game.resumedLines());
    await this.begin(Boolean(restored));
  }

  /** The game is there: what the screen shows first. @param {boolean} _restored */
  async begin(_restored) {
    throw new Error("a session of the engine's games says how its game begins");
  }

  /** @param {object} request @returns {Promise<Reply>} */
  submit(request) {
    return this.game.engine.call({ game: this.gameId, ...request });
  }

  /** @param {string} _action */
  acting(_action) {}

  /** Every seat's kept layout may be loaded: this seat's first, then the others' (the
   * engine turns them round). @param {number} seat */
  layoutSeats(seat) {
    return [seat, ...this.game.others(seat)];
  }

  statusText() {
    return null;
  }

  /** @param {Record<string, {shown: boolean, enabled: boolean}>} base */
  controls(base) {
    return base;
  }

  canResign() {
    const game = this.game;
    return game.viewer !== null && !game.busy && Boolean(game.view) && game.view.phase !== "over"
      && !["wait", "curtain", "engine", "loading"].includes(game.ui);
  }

  inProgress() {
    const v = this.game.view;
    return Boolean(v) && v.phase !== "over" && (v.phase === "play" || this.game.ui === "setup");
  }

  /** The finished game is this page's: the replay op takes its id. */
  async replaySource() {
    return this.gameId ? { game: this.gameId } : null;
  }

  /** A rematch is a new game (with seats switched). */
  async rematch() {
    return this.game.nextOptions(true);
  }

  dispose() {
    const id = this.gameId;
    this.gameId = null;
    if (id) this.game.engine.call({ op: "drop", game: id }).catch(() => {});
  }
}
