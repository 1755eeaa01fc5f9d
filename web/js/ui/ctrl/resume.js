// The saved game and the statistics, for the page. No DOM.
//
// Games against the CPU and on one device are saved after every change by the engine's
// worker (docs/api.md, "The saved game"): the page asks `keep_game` and gets back only the
// public summary; the save itself, with the CPU's layout and seed, never reaches the page.
// The page adds its own public data (`page`: the clock choice, the player's marks).
//
// Beside it the page keeps that summary in local storage (SavedSummary), written whenever
// the worker keeps a save: the start screen reads it at once, before the engine is up, so
// it offers "Continue" and asks before a new game replaces the saved one even then.
//
//   keepSaving(ctrl, engine, () => ({marks}), summary)   // after every ply and setup change
//   const saved = (await engine.call({op: "saved_game"})).saved;   // {summary, page} | null
//   summary.read()           // the same {summary, page: {clock}} from local storage, or null
//   describeSaved(saved)     // {variant, mode, level, human, ply, phase} or null
//   resumeOptions(saved)     // GameController options (then `restored` = the resume reply)

/** What a saved game's summary says, checked (anything odd gives null). */
export function describeSaved(saved, variants = null) {
  const summary = saved?.summary;
  if (!summary || typeof summary !== "object") return null;
  const { variant, ply, phase, cpus, rules } = summary;
  if (typeof variant !== "string" || (variants && !variants[variant])) return null;
  if (!Number.isInteger(ply) || ply < 0 || !["setup", "play"].includes(phase)) return null;
  if (!cpus || typeof cpus !== "object") return null;
  const seats = Object.keys(cpus);
  if (seats.length > 1 || seats.some((s) => !["0", "1"].includes(s) || typeof cpus[s] !== "string")) return null;
  const cpu = seats.length === 1;
  return {
    variant,
    mode: cpu ? "cpu" : "hotseat",
    level: cpu ? cpus[seats[0]] : null,
    human: cpu ? 1 - Number(seats[0]) : 0,
    ply,
    phase,
    rules: rules && typeof rules === "object" ? rules : null,
    clock: !cpu && saved.page?.clock === true,
  };
}

/** The viewer a resumed game is opened for: the player against the CPU; on one device
 * nobody (the curtain comes down first). */
export function resumeViewer(info) {
  return info.mode === "cpu" ? info.human : null;
}

/** GameController options for a saved game (the game's rules come back with it). */
export function resumeOptions(info) {
  const options = { variant: info.variant, mode: info.mode, human: info.human, clock: info.clock };
  if (info.mode === "cpu") options.level = info.level;
  const rules = info.rules;
  if (rules?.preset) options.preset = rules.preset;
  else if (rules?.options && typeof rules.options === "object") options.rules = rules.options;
  return options;
}

/** Who is to look first at a resumed game on one device: the player still to set up,
 * else the player to move. */
export function curtainSeat(view) {
  if (view?.phase === "setup") return view.deployed?.[0] ? 1 : 0;
  return view?.turn ?? 0;
}

/** One JSON value in local storage: damaged reads as null; a full or private storage
 * keeps nothing (writes return false). */
class Stored {
  constructor(key, storage = globalThis.localStorage) {
    this.key = key;
    this.storage = storage;
  }

  readJSON() {
    try {
      return JSON.parse(this.storage?.getItem(this.key) || "null");
    } catch {
      return null;
    }
  }

  writeJSON(value) {
    try {
      this.storage?.setItem(this.key, JSON.stringify(value));
      return true;
    } catch {
      return false;
    }
  }

  remove() {
    try {
      this.storage?.removeItem(this.key);
    } catch {
      // nothing to forget
    }
  }
}

export const SUMMARY_KEY = "junqi.saved.v1";

/** The saved game's public summary in local storage: what the engine's `keep_game` answered
 * (variant, rules, mode, CPU level, move number; nothing hidden) and the page's clock
 * choice. It says a saved game exists before the engine can; the engine's own answer
 * (`saved_game`) replaces it once it comes. (Not kept: the start screen then learns of
 * the save from the engine.) */
export class SavedSummary extends Stored {
  constructor(storage = globalThis.localStorage) {
    super(SUMMARY_KEY, storage);
  }

  /** {summary, page: {clock}} as describeSaved() takes it, or null. */
  read() {
    const data = this.readJSON();
    if (!data || data.v !== 1 || !data.summary || typeof data.summary !== "object") return null;
    return { summary: data.summary, page: { clock: data.clock === true }, at: data.at ?? null };
  }

  write(summary, page = null) {
    if (!summary) return this.clear();
    this.writeJSON({ v: 1, summary, clock: page?.clock === true, at: Date.now() });
  }

  clear() {
    this.remove();
  }
}

// Where the worker keeps the save (worker.js; a worker is not bundled with the page, so
// the names are written twice).
const SAVE_DB = "junqi-saves";
const SAVE_STORE = "games";
const SAVE_KEY = "current";

/** Whether the browser's storage holds a saved game, told without the engine and without
 * reading the save (only its key is counted: the save itself never enters the page):
 * true, false, or null when the storage cannot say. A save with no local summary (written
 * by an earlier version of the page, or a summary local storage would not keep) is found
 * this way before the engine is up. */
export function saveStored(idb = globalThis.indexedDB) {
  return new Promise((resolve) => {
    let request;
    try {
      request = idb.open(SAVE_DB, 1);
    } catch {
      resolve(null);
      return;
    }
    request.onupgradeneeded = () => request.result.createObjectStore(SAVE_STORE); // as the worker
    request.onerror = () => resolve(null);
    request.onsuccess = () => {
      const db = request.result;
      try {
        const count = db.transaction(SAVE_STORE).objectStore(SAVE_STORE).count(SAVE_KEY);
        count.onsuccess = () => resolve(count.result > 0);
        count.onerror = () => resolve(null);
      } catch {
        resolve(null);
      } finally {
        db.close(); // (the count goes on: a close waits for its transaction)
      }
    };
  });
}

/** Forget the saved game, in the worker and in the summary. */
export function forgetSaved(engine, summary) {
  summary?.clear();
  return engine.call({ op: "forget_game" }).catch(() => {});
}

/** Save the game on screen after every change (a ply, a setup change, the page's own data
 * changing), and note its summary; forget it when the game is over. Returns a function
 * that stops it. */
export function keepSaving(ctrl, engine, pageData = () => ({}), summary = null) {
  let last = null;
  let over = false;
  const check = (what) => {
    if (what === "clock" || !ctrl.gameId || !ctrl.view || over) return;
    const v = ctrl.view;
    if (v.phase === "over") {
      over = true;
      forgetSaved(engine, summary);
      return;
    }
    if (!["setup", "play"].includes(v.phase) || !Array.isArray(v.history)) return;
    if (ctrl.ui === "loading" || ctrl.ui === "engine") return;
    const page = pageData();
    const key = JSON.stringify([ctrl.gameId, v.phase, v.ply, v.history.length, v.deployed,
      v.phase === "setup" && ctrl.viewer !== null ? v.board : null, page]);
    if (key === last) return;
    last = key;
    engine.call({ op: "keep_game", game: ctrl.gameId, page }).then((reply) => {
      if (!reply?.ok) console.warn("the game was not saved:", reply?.error?.message);
      else if (!over) summary?.write(reply.summary, page);
    }, () => {});
  };
  return ctrl.subscribe(check);
}

// --- statistics ----------------------------------------------------------------------------

export const STATS_KEY = "junqi.stats.v1";

/** Won / drawn / lost per variant and opponent ("cpu:easy", "hotseat", "friend"), in local
 * storage. On one device "won" counts the first player's wins, "lost" the second's. */
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

/** The opponent of a game for the statistics, and how the result counts. */
export function statsEntry(options, result, seat) {
  const opponent = options.mode === "cpu" ? `cpu:${options.level}` : options.mode === "friend" ? "friend" : "hotseat";
  const me = options.mode === "hotseat" ? 0 : seat;
  if (!result) return null;
  const outcome = result.winner === null || result.winner === undefined ? "drawn"
    : result.winner === me ? "won" : "lost";
  return { opponent, outcome };
}

/** Count the game when it ends (once). */
export function countAtEnd(ctrl, stats, mode) {
  let counted = false;
  return ctrl.subscribe((what) => {
    if (what === "clock") return;
    const v = ctrl.view;
    if (v?.phase !== "over") counted = false; // a friend's rematch goes on in the same screen
    if (counted || v?.phase !== "over" || !v.result || ctrl.ui !== "over") return;
    counted = true;
    const seat = mode === "cpu" ? ctrl.human : ctrl.seat;
    const entry = statsEntry({ ...ctrl.opts, mode }, v.result, seat);
    if (entry) stats.record(ctrl.variant, entry.opponent, entry.outcome);
  });
}
