// Won, drawn and lost games per variant and opponent, kept in local storage, and counted
// when a game on screen ends. No DOM: the start screen's Statistics box draws them.

import { Stored } from "./saves.js";

/** @typedef {import("./game.js").GameController} GameController */

export const STATS_KEY = "junqi.stats.v1";

/** Won / drawn / lost per variant and opponent ("cpu:easy", "hotseat", "friend"), in local
 * storage. On one device "won" counts the first player's wins, "lost" the second's. With
 * four seats in two teams (Siguo) a result is the team's: won when the team of the person at
 * the screen won (on one device: South and North's team); the opponent names the enemy
 * team's seats ("cpu:easy", "cpu:easy/medium", or "hotseat" when a person plays one). */
export class Stats extends Stored {
  constructor(storage = globalThis.localStorage) {
    super(STATS_KEY, storage);
  }

  load() {
    const data = this.readJSON(); // damaged: start again
    if (data && data.v === 1 && data.games && typeof data.games === "object") return data;
    return { v: 1, games: {} };
  }

  /** Count one finished game: outcome "won" | "drawn" | "lost" (not counted when the
   * storage is full or private). */
  record(variant, opponent, outcome) {
    if (!["won", "drawn", "lost"].includes(outcome)) return;
    const data = this.load();
    const key = `${variant}|${opponent}`;
    const row = { won: 0, drawn: 0, lost: 0, ...(data.games[key] || {}) };
    row[outcome] += 1;
    data.games[key] = row;
    this.writeJSON(data);
  }

  /** [{variant, opponent, won, drawn, lost}] in a stable order. */
  rows(variantOrder = []) {
    const rows = Object.entries(this.load().games).map(([key, row]) => {
      const [variant, opponent] = key.split("|");
      return { variant, opponent, won: row.won | 0, drawn: row.drawn | 0, lost: row.lost | 0 };
    });
    const rank = (v) => (variantOrder.includes(v) ? variantOrder.indexOf(v) : 99);
    return rows.sort((a, b) => rank(a.variant) - rank(b.variant) || a.variant.localeCompare(b.variant)
      || opponentOrder(a.opponent) - opponentOrder(b.opponent));
  }

  reset() {
    this.remove();
  }
}

const OPPONENTS = ["cpu:random", "cpu:easy", "cpu:medium", "cpu:hard", "hotseat", "friend"];
const opponentOrder = (o) => (OPPONENTS.includes(o) ? OPPONENTS.indexOf(o) : 50);

/** The opponent of a game for the statistics, and how the result counts. `options.opponent`
 * (the session's own name for it), when given, is the opponent. `seats`: the game's seats
 * (the view's); with more than two, the result's winner is a team, a seat's team its seat
 * modulo 2 (docs/api.md). */
export function statsEntry(options, result, seat, seats = 2) {
  const opponent = typeof options.opponent === "string" && options.opponent ? options.opponent
    : options.mode === "cpu" ? `cpu:${options.level}` : options.mode === "friend" ? "friend" : "hotseat";
  const me = options.mode === "hotseat" ? 0 : seat;
  const side = seats > 2 ? me % 2 : me;
  if (!result) return null;
  const outcome = result.winner === null || result.winner === undefined ? "drawn"
    : result.winner === side ? "won" : "lost";
  return { opponent, outcome };
}

/** With four seats: the statistics' name of the team against `you`, from what each seat
 * is (`players[seat]`: "human", or a CPU level): "hotseat" when a person plays an enemy
 * seat, else "cpu:" and the enemy levels in the levels' order ("cpu:easy/medium").
 * @param {string[]} players @param {number} you */
export function teamOpponent(players, you) {
  const enemies = players.filter((_, seat) => seat % 2 !== you % 2);
  if (!enemies.length || enemies.some((p) => p === "human")) return "hotseat";
  const levels = [...new Set(enemies)].sort((a, b) => opponentOrder(`cpu:${a}`) - opponentOrder(`cpu:${b}`));
  return `cpu:${levels.join("/")}`;
}

/** Count the game when it ends (once): against its session's opponent, from the seat of
 * the person at the screen (on one device "won" is the first player's).
 * @param {GameController} game @param {Stats} stats */
export function countAtEnd(game, stats) {
  let counted = false;
  return game.subscribe((what) => {
    if (what === "clock") return;
    const v = game.view;
    if (v?.phase !== "over") counted = false; // a friend's rematch goes on in the same screen
    if (counted || v?.phase !== "over" || !v.result || game.ui !== "over") return;
    counted = true;
    const session = game.session;
    const entry = statsEntry({ ...game.opts, mode: session.mode, opponent: session.opponent }, v.result,
      session.you ?? 0, v.seats ?? 2);
    if (entry) stats.record(game.variant, entry.opponent, entry.outcome);
  });
}
