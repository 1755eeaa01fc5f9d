// Two players on one device (the hot seat): the screen is handed over between turns. A
// curtain comes down with nothing of the last player's on screen; the next player opens
// it and sees their own view; an optional clock gives each a time to deploy and to move.
// The session interface: session.js; what it shares with a game against the CPU:
// enginesession.js.
//
// Hidden information: when the curtain comes down the view is replaced by the public one,
// and the message, selection, Undo steps and live region are cleared, so the page holds no
// ranks of the player who is not looking.

import { t } from "../i18n.js";
import * as words from "./words.js";
import { EngineSession } from "./enginesession.js";
import { variantName } from "./gamescreen.js";

export const MOVE_SECONDS = 30;
export const SETUP_SECONDS = 90;

/** Who is to look first at a game on one device: the first seat still to deploy, else the
 * seat to move. @param {any} view */
export function curtainSeat(view) {
  if (view?.phase === "setup") {
    const waiting = (view.deployed || []).findIndex((/** @type {boolean} */ done) => !done);
    if (waiting >= 0) return waiting;
  }
  return view?.turn ?? 0;
}

export class LocalSession extends EngineSession {
  /** @param {{clock?: boolean, restored?: any, moveSeconds?: number, setupSeconds?: number}} options */
  constructor({ clock = false, restored = null, moveSeconds, setupSeconds } = {}) {
    super({ restored });
    /** @type {"cpu"|"hotseat"} */
    this.mode = "hotseat";
    this.shared = true;
    /** @type {number|null} */
    this.you = null;
    this.opponent = "hotseat";
    this.rivalKey = "side.other";
    this.keepsLayouts = false; // the other player could load it
    this.clockOn = clock;
    this.moveSeconds = moveSeconds || MOVE_SECONDS;
    this.setupSeconds = setupSeconds || SETUP_SECONDS;
    /** @type {any} */
    this.clockTimer = null;
  }

  async begin(/** @type {boolean} */ restored) {
    return this.showCurtain(restored ? curtainSeat(this.game.view) : 0);
  }

  /** After an action: the end, or "Change turn" once the turn passed to the other player. */
  async next() {
    const game = this.game;
    const v = game.view;
    if (v.phase === "over") {
      this.stopClock();
      return game.finish();
    }
    if (v.turn !== game.viewer) {
      game.ui = "moved";
      game.changed();
      game.fx.focus("changeTurn");
      return;
    }
    game.ui = "play";
    game.changed();
  }

  /** A layout confirmed: the next seat to deploy looks (else the seat to move). */
  async deployed() {
    return this.showCurtain(curtainSeat(this.game.view));
  }

  /** A move stops the clock (an offer or an answer does not end the turn). @param {string} action */
  acting(action) {
    if (!/^(offer|accept|decline|resign)/.test(action)) this.stopClock();
  }

  // --- the curtain -----------------------------------------------------------------------

  /** The curtain comes down for `seat`: nothing of the last player's stays on the page.
   * @param {number} seat */
  async showCurtain(seat) {
    const game = this.game;
    this.stopClock();
    // Forget everything the last player saw before asking for the public view.
    game.viewer = null;
    game.resetMarks();
    game.resetUndo();
    game.setMessage();
    game.fx.say("");
    game.curtainSeat = seat;
    game.seat = seat;
    game.ui = "curtain";
    // Until the public view arrives: nothing of the last player's, and busy, so that the
    // curtain cannot be opened on a view that is not the engine's.
    game.view = { ...game.view, player: null, actions: [], board: {}, history: [], dests: null,
      lost: game.seats().map(() => ({ count: 0, kinds: null })) };
    game.busy = true;
    game.changed();
    const reply = await game.call({ op: "view", player: null });
    game.busy = false;
    if (!reply.ok) return game.fail(reply);
    game.view = reply.view;
    game.changed();
    game.fx.focus("curtain");
  }

  async openCurtain() {
    const game = this.game;
    const seat = game.curtainSeat ?? 0;
    game.busy = true;
    game.changed();
    const reply = await game.call({ op: "view", player: seat });
    game.busy = false;
    if (!reply.ok) return game.fail(reply);
    game.viewer = seat;
    game.seat = seat;
    game.view = reply.view;
    if (game.view.phase === "setup") {
      game.ui = "setup";
      game.setMessage(() => t("setup.hint"));
      this.startClock(this.setupSeconds, () => this.setupTimeout());
    } else if (game.view.phase === "over") {
      return game.finish();
    } else {
      game.ui = "play";
      game.setMessage(...this.sinceLastTurn());
      this.startClock(this.moveSeconds, () => this.timeout());
    }
    game.changed();
    game.fx.say(`${game.statusText()} ${game.messageText()}`);
    game.fx.focus("board");
  }

  async changeTurn() {
    return this.showCurtain(this.game.view.turn);
  }

  /** What the others did since this player's last action, in this player's terms. A
   * pending draw offer is left out: the offer line says it (messageText). */
  sinceLastTurn() {
    const game = this.game;
    const history = game.view.history;
    let i = history.length;
    while (i > 0 && history[i - 1].player !== game.viewer) i--;
    const pending = game.offerPending();
    const events = history.slice(i).filter((/** @type {any} */ ev) => !(pending && ev.type === "offer"));
    if (events.length) return events.map((/** @type {any} */ ev) => () => words.eventText(ev, game.ctx()));
    if (pending) return [];
    return [() => t(game.desc?.rules?.flips ? "play.blind_hint" : "play.first_move")];
  }

  // --- the clock ---------------------------------------------------------------------------

  /** @param {number} seconds @param {() => Promise<void>} expire */
  startClock(seconds, expire) {
    const game = this.game;
    this.stopClock();
    if (!this.clockOn) return;
    const deadline = game.timers.now() + seconds * 1000;
    const setup = game.view.phase === "setup";
    const max = game.desc?.rules?.max_timeouts;
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - game.timers.now()) / 1000));
      game.clock = { left, setup, timeouts: game.view.timeouts[game.viewer ?? 0], max };
      game.changed("clock");
      if (left <= 0) {
        this.stopClock();
        game.guard(expire);
      }
    };
    this.clockTimer = game.timers.every(tick, 250);
    tick();
  }

  stopClock() {
    const game = this.game;
    if (this.clockTimer !== null) game.timers.stop(this.clockTimer);
    this.clockTimer = null;
    if (game?.clock) {
      game.clock = null;
      game.changed("clock");
    }
  }

  /** Deployment time is up: a random layout is confirmed for the player. */
  async setupTimeout() {
    const game = this.game;
    if (game.ui !== "setup") return;
    if (game.busy) {
      game.timers.later(() => game.guard(() => this.setupTimeout()), 200);
      return;
    }
    await game._setupOp("setup_random", {});
    await game._confirm();
  }

  async timeout() {
    const game = this.game;
    if (game.ui !== "play" || game.viewer === null) return;
    if (game.busy) {
      // an engine call is in flight: try again in a moment
      game.timers.later(() => game.guard(() => this.timeout()), 200);
      return;
    }
    await game.act("timeout");
  }

  // --- words and the next game -----------------------------------------------------------

  title() {
    return `${variantName(this.game.variant)} · ${t("mode.hotseat")}`;
  }

  /** The same game again (on one device the players switch chairs themselves). */
  nextOptions() {
    return { ...this.game.opts, mode: this.mode, clock: this.clockOn };
  }

  dispose() {
    this.stopClock();
    super.dispose();
  }
}
