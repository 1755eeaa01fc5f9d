// A game of more than two seats (Siguo: four seats in two teams), each seat played by a
// person at this screen or by the CPU at its own level. One person against CPUs is a game
// against the CPU (the person is "you"); two to four people share this screen as on one
// device, and the curtain comes down only between two different people's turns, never
// before a CPU's. The CPU seats move one at a time, at a pace a person can follow, each
// move said in the message line ("East moves Ec4–Sb5. Combat on Sb5: both pieces are
// removed."), the last few kept as a short log.
//
// What it shares with a game on one device (the curtain, the clock, the time-outs) comes
// from LocalSession (hotseat.js); the session interface: session.js.
//
// Hidden information: the CPU seats' moves are asked for the view of the person who looks
// (`cpu_act` with `viewer`), or the public view while nobody looks (the curtain is down
// or nobody has looked yet); the curtain replaces the view by the public one.

import { t } from "../i18n.js";
import { LocalSession, curtainSeat } from "./hotseat.js";
import { levelName, variantName } from "./gamescreen.js";
import { teamOpponent } from "./stats.js";

/** How long each CPU move stays on screen before the next seat's (ms). */
export const CPU_PACE_MS = 900;
/** How many of the last actions the message line keeps while the CPUs move. */
export const LOG_LINES = 3;

export class TableSession extends LocalSession {
  /**
   * @param {{people: number[], cpus: Record<string, string>, clock?: boolean, restored?: any,
   *   moveSeconds?: number, setupSeconds?: number, paceMs?: number}} options
   */
  constructor({ people, cpus, clock = false, restored = null, moveSeconds, setupSeconds, paceMs }) {
    super({ clock, restored, moveSeconds, setupSeconds });
    /** @type {number[]} the seats people play, in seat order */
    this.people = [...people].sort((a, b) => a - b);
    /** @type {Record<string, string>} seat -> the CPU's level */
    this.cpus = { ...cpus };
    this.shared = this.people.length > 1;
    this.mode = this.shared ? /** @type {const} */ ("hotseat") : /** @type {const} */ ("cpu");
    this.you = this.shared ? null : this.people[0] ?? null;
    this.rivalKey = this.shared ? "side.other" : "side.cpu";
    const seats = Math.max(4, ...this.people.map((p) => p + 1), ...Object.keys(this.cpus).map((p) => Number(p) + 1));
    const players = Array.from({ length: seats }, (_, seat) => this.cpus[String(seat)] ?? "human");
    // the statistics' opponent: the enemy team, as the statistics name it ("cpu:easy/medium")
    this.opponent = this.shared ? "hotseat" : teamOpponent(players, this.you ?? 0);
    this.keepsLayouts = !this.shared; // on a shared screen another player could load it
    this.paceMs = paceMs ?? CPU_PACE_MS;
    /** @type {number|null} the CPU seat whose move is being asked for */
    this.cpuSeat = null;
  }

  /** @param {number} seat */
  isCpu(seat) {
    return String(seat) in this.cpus;
  }

  /** @param {import("./game.js").GameController} game */
  attach(game) {
    super.attach(game);
    game.viewer = this.you;
    game.seat = this.you ?? this.people[0] ?? 0;
  }

  newGameRequest() {
    const request = super.newGameRequest();
    request.cpu = { ...this.cpus };
    request.viewer = this.you;
    return request;
  }

  /** The game is there: the person plays (or the CPUs move first); on a shared screen the
   * curtain comes down for the first person to act. */
  async begin() {
    return this.route();
  }

  async next() {
    return this.route();
  }

  async deployed() {
    if (!this.shared) this.game.setMessage(() => t("play.started"));
    return this.route();
  }

  /** The person who acts next: the first one still to deploy, else the seat to move. */
  actor() {
    const v = this.game.view;
    if (v?.phase === "setup") {
      const waiting = this.people.find((seat) => !v.deployed?.[seat]);
      return waiting ?? curtainSeat(v);
    }
    return v?.turn ?? null;
  }

  /** What comes next after the view changed: the end, a CPU's move, the person who looks
   * goes on, or the screen is handed over. */
  async route() {
    const game = this.game;
    const v = game.view;
    if (v.phase === "over") {
      this.stopClock();
      return game.finish();
    }
    const seat = this.actor();
    if (seat === null) return;
    if (v.phase === "play" && this.isCpu(seat)) return this.runCpu(seat);
    if (seat === game.viewer) return this.look();
    if (game.viewer === null || v.phase === "setup") return this.showCurtain(seat);
    // another person's turn: the one who looks hands the screen over ("Change turn")
    game.ui = "moved";
    game.changed();
    game.fx.focus("changeTurn");
  }

  /** The person who looks acts now: the setup or the turn, with the clock if chosen. */
  look() {
    const game = this.game;
    const setup = game.view.phase === "setup";
    game.ui = setup ? "setup" : "play";
    if (setup) {
      if (!game.lines.length) game.setMessage(() => t("setup.hint"));
      this.startClock(this.setupSeconds, () => this.setupTimeout());
    } else {
      this.startClock(this.moveSeconds, () => this.timeout());
    }
    game.changed();
    game.focusNext();
  }

  /** The curtain's next player: the one the view says acts next. */
  async changeTurn() {
    return this.showCurtain(this.actor() ?? 0);
  }

  /** One CPU move for `seat`, shown to whoever looks, then a pause so that a person can
   * follow it, then what comes after it. @param {number} seat */
  async runCpu(seat) {
    const game = this.game;
    this.stopClock();
    const keep = game.lines.slice(-(LOG_LINES - 1)); // the last actions stay as a short log
    game.ui = "wait";
    this.cpuSeat = seat;
    game.changed();
    const started = game.timers.now();
    const token = game.token;
    const reply = await game.call({ op: "cpu_act", player: seat, viewer: game.viewer });
    if (!reply.ok) {
      game.ui = "play";
      game.fail(reply);
      return;
    }
    await game.showEvents(reply.events || [], reply.view, false, keep);
    const left = this.paceMs - (game.timers.now() - started);
    if (left > 0) await new Promise((resolve) => game.timers.later(() => resolve(null), left));
    if (token !== game.token) return; // the game was left meanwhile
    this.cpuSeat = null;
    return this.route();
  }

  // --- words -------------------------------------------------------------------------

  /** A seat by its name, "(you)" for the person against the CPUs. @param {number} seat */
  seatName(seat) {
    const name = t(`side.${this.game.variant}.${seat}`);
    return !this.shared && seat === this.you ? t("side.seat_you", { side: name }) : name;
  }

  /** How many people share this screen. */
  lookers() {
    return this.people.length;
  }

  /** Who plays a seat: "you", "CPU (Medium)" or "person". @param {number} seat */
  seatPlayer(seat) {
    if (this.isCpu(seat)) return t("start.seat.cpu", { level: levelName(this.cpus[seat]) });
    return t("start.seat.person");
  }

  /** A team by its seats' names ("South and North"). @param {number} team */
  teamName(team) {
    const teams = this.game.desc?.teams || [];
    const seats = this.game.seats().filter((seat) => teams[seat] === team);
    return t("team.name", { a: t(`side.${this.game.variant}.${seats[0]}`),
      b: t(`side.${this.game.variant}.${seats[1]}`) });
  }

  /** The status line: whose turn, a CPU thinking, the result by teams. */
  statusText() {
    const game = this.game;
    const v = game.view;
    if (!v) return null;
    if (game.ui === "wait" && this.cpuSeat !== null) {
      return t("status.seat_thinking", { side: game.sideName(this.cpuSeat) });
    }
    if (game.ui === "over" && v.result) return this.resultText(v.result);
    if (game.ui === "play" && v.turn !== game.viewer) {
      const out = game.viewer !== null ? v.out?.[game.viewer] : null;
      if (out) return t("status.you_out", { why: t(`out.${out}`) });
      return t("status.seat_to_move", { side: game.sideName(v.turn) });
    }
    return null;
  }

  /** "Game over: South and North win. …" (or "Your team wins!"). @param {any} result */
  resultText(result) {
    const game = this.game;
    const v = game.view;
    const reason = result.reason;
    if (result.winner === null || result.winner === undefined) {
      return t("result.draw", { reason: t(`reason.${reason}`) });
    }
    const teams = game.desc?.teams || [];
    // the army whose going out ended the game, and why
    const last = [...(v.history || [])].reverse().find((/** @type {any} */ ev) => ev.out?.length);
    const gone = last ? last.out[last.out.length - 1] : null;
    const why = gone ? t("result.last_out", { side: game.sideName(gone.player), why: t(`out.${gone.reason}`) }) : "";
    const you = this.you;
    if (you !== null) {
      return t(teams[you] === result.winner ? "result.team_you_win" : "result.team_you_lose", { why });
    }
    return t("result.team_wins", { team: this.teamName(result.winner), why });
  }

  /** Every seat: its name, who plays it, its colour's letter, out or not; the teams. */
  sidesText() {
    const game = this.game;
    const v = game.view;
    if (!v || game.ui === "curtain") return "";
    return game.seats().map((seat) => {
      const parts = [t("sides.seat", { side: game.sideName(seat), who: this.seatPlayer(seat),
        colour: t(`colour.${game.colourClass({ owner: seat })}`) })];
      const out = v.out?.[seat];
      if (out) parts.push(t("sides.out", { why: t(`out.${out}`) }));
      else if (v.timeouts?.[seat]) parts.push(t("sides.skips", { n: v.timeouts[seat], max: game.desc?.rules?.max_timeouts }));
      return parts.join(" ");
    }).join(" · ") + " " + t("sides.teams", { a: this.teamName(0), b: this.teamName(1) });
  }

  title() {
    return `${variantName(this.game.variant)} · ${this.shared ? t("mode.table_shared", { n: this.people.length })
      : t("mode.table_cpu")}`;
  }

  // --- buttons ---------------------------------------------------------------------------

  /** Pass (where the rules allow it: it counts as a skipped turn). @param {Record<string, {shown: boolean, enabled: boolean}>} base */
  controls(base) {
    const game = this.game;
    const v = game.view;
    const can = game.ui === "play" && !game.busy && v?.turn === game.viewer && Boolean(v?.actions?.includes("pass"));
    const controls = { ...base, pass: { shown: Boolean(v?.actions?.includes("pass")) && game.ui === "play", enabled: can } };
    if (game.viewer !== null && v?.out?.[game.viewer] && v.phase !== "over") {
      // an army that went out watches its partner play on: nothing to offer or resign
      const none = { shown: false, enabled: false };
      Object.assign(controls, { offer: none, resign: none, accept: none, decline: none });
    }
    return controls;
  }

  /** The same seats again. */
  nextOptions() {
    const levels = Object.values(this.cpus);
    return { ...this.game.opts, mode: this.mode, people: this.people, cpus: this.cpus,
      human: this.people[0] ?? 0, level: levels[0] ?? null, clock: this.clockOn };
  }
}
