// Every saved game of this browser, behind one interface: `Saves`. No DOM. The start
// screen, the Continue box, the friend screens and the tab handling ask it, never a
// storage themselves.
//
// Two kinds of saved game, one of each at most:
// - The game against the CPU or on one device, kept by the engine's worker in IndexedDB
//   (docs/api.md, "The saved game"): the page asks `keep_game` after every change and gets
//   back only the public summary; the save itself, with the CPU's layout and seed, never
//   reaches the page. The page adds its own public data (`page`: the clock choice, the
//   player's marks). Beside it the page keeps that summary in local storage
//   (SavedSummary, `junqi.saved.v1`), so the start screen offers "Continue" before the
//   engine is up; the engine's own answer (`saved_game`) replaces it once it comes.
// - The friend game (FriendSaves, `junqi.friend.v1`): the fair-play peer's state, this
//   page's own secrets included, written before anything a call returned is sent. It never
//   leaves this browser.
//
//   const saves = new Saves({engine, variants});
//   saves.peek()                 // {saved, info} from the summary, at once (or null)
//   await saves.stored()         // whether IndexedDB holds a save, before the engine is up
//   await saves.check()          // {found: {saved, info}|null, refused}: as the engine has it
//   await saves.resume(info)     // {ok, options}: GameController options to go on with it
//   saves.keep(game, pageData)   // after every ply and setup change; forgotten at the end
//   saves.friend.load()          // the friend game's record (or null)

import { t } from "../i18n.js";
import { levelName, variantName } from "./gamescreen.js";

/** @typedef {import("./game.js").GameController} GameController */
/**
 * What a saved game's summary says, checked.
 * @typedef {{variant: string, mode: "cpu"|"hotseat", level: string|null, human: number,
 *   ply: number, phase: "setup"|"play", rules: any, clock: boolean}} SavedInfo
 */

/** What a saved game's summary says, checked (anything odd gives null).
 * @param {any} saved  {summary, page} @param {Record<string, any>|null} variants
 * @returns {SavedInfo|null} */
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

/** The saved game's summary in words: "Classic Junqi · against the CPU (Easy) · move 12".
 * @param {SavedInfo} info */
export function savedText(info) {
  const mode = info.mode === "cpu"
    ? t("mode.cpu", { level: levelName(info.level ?? "") }) + (info.human === 1 ? ` · ${t("mode.second")}` : "")
    : t("mode.hotseat");
  const when = info.phase === "setup" ? t("resume.setup") : t("resume.move", { n: info.ply });
  return [variantName(info.variant), mode, when].join(" · ");
}

/** The viewer a resumed game is opened for: the player against the CPU; on one device
 * nobody (the curtain comes down first). @param {SavedInfo} info */
export function resumeViewer(info) {
  return info.mode === "cpu" ? info.human : null;
}

/** GameController options for a saved game (the game's rules come back with it).
 * @param {SavedInfo} info */
export function resumeOptions(info) {
  /** @type {any} */
  const options = { variant: info.variant, mode: info.mode, human: info.human, clock: info.clock };
  if (info.mode === "cpu") options.level = info.level;
  const rules = info.rules;
  if (rules?.preset) options.preset = rules.preset;
  else if (rules?.options && typeof rules.options === "object") options.rules = rules.options;
  return options;
}

/** One JSON value in local storage: damaged reads as null; a full or private storage
 * keeps nothing (writes return false). */
export class Stored {
  /** @param {string} key @param {Storage|undefined} storage */
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

  /** @param {any} value */
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
 * choice. It says a saved game exists before the engine can. */
export class SavedSummary extends Stored {
  /** @param {Storage|undefined} storage */
  constructor(storage = globalThis.localStorage) {
    super(SUMMARY_KEY, storage);
  }

  /** {summary, page: {clock}} as describeSaved() takes it, or null. */
  read() {
    const data = this.readJSON();
    if (!data || data.v !== 1 || !data.summary || typeof data.summary !== "object") return null;
    return { summary: data.summary, page: { clock: data.clock === true }, at: data.at ?? null };
  }

  /** @param {any} summary @param {any} page */
  write(summary, page = null) {
    if (!summary) return this.clear();
    this.writeJSON({ v: 1, summary, clock: page?.clock === true, at: Date.now() });
  }

  clear() {
    this.remove();
  }
}

export const FRIEND_KEY = "junqi.friend.v1";
const FRIEND_CLOCK_KEY = `${FRIEND_KEY}.clock`;
/** The stages of a friend game under way (not an unanswered invitation, not decided). */
const UNDER_WAY = ["setup", "deal", "play", "ended"];

/** The browser's friend game in local storage (one at a time): the record FriendSession
 * writes ({match, role, net, variant, state, updated}) and its clock record apart (written
 * more often: {paused, since, alive, stage, offer}). */
export class FriendSaves {
  /** @param {Storage|undefined} storage */
  constructor(storage = globalThis.localStorage) {
    this.record = new Stored(FRIEND_KEY, storage);
    this.clock = new Stored(FRIEND_CLOCK_KEY, storage);
    this.storage = storage;
  }

  /** The record with its clock ({...record, clock}), or null. */
  load() {
    const record = this.record.readJSON();
    if (!record || record.v !== 1 || typeof record.state !== "string") return null;
    return { ...record, clock: this.clock.readJSON() || {} };
  }

  /** Throws when the storage is full (the game goes on; the page says a reload would lose it).
   * @param {object} record */
  save(record) {
    this.storage?.setItem(FRIEND_KEY, JSON.stringify({ v: 1, ...record }));
  }

  /** @param {object} clock */
  saveClock(clock) {
    this.storage?.setItem(FRIEND_CLOCK_KEY, JSON.stringify(clock));
  }

  clear() {
    this.record.remove();
    this.clock.remove();
  }

  /** The saved friend game if it is under way, else null. */
  underWay() {
    const saved = this.load();
    return UNDER_WAY.includes(saved?.clock?.stage) ? saved : null;
  }
}

// Where the worker keeps the save (worker.js; a worker is not bundled with the page, so
// the names are written twice).
const SAVE_DB = "junqi-saves";
const SAVE_STORE = "games";
const SAVE_KEY = "current";

/** Whether the browser's storage holds a saved game, told without the engine and without
 * reading the save (only its key is counted: the save itself never enters the page):
 * true, false, or null when the storage cannot say.
 * @param {IDBFactory|undefined} idb
 * @returns {Promise<boolean|null>} */
export function saveStored(idb = globalThis.indexedDB) {
  return new Promise((resolve) => {
    /** @type {IDBOpenDBRequest} */
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

export class Saves {
  /**
   * @param {object} deps
   * @param {any} deps.engine  {call(request)}: the worker's saved-game ops
   * @param {Record<string, any>|null} [deps.variants]  the static descriptions (a summary
   *   naming another variant is refused)
   * @param {Storage} [deps.storage]
   * @param {IDBFactory} [deps.idb]  where the worker keeps the save (stored())
   */
  constructor({ engine, variants = null, storage = globalThis.localStorage, idb = globalThis.indexedDB }) {
    this.engine = engine;
    this.variants = variants;
    this.idb = idb;
    this.summary = new SavedSummary(storage);
    this.friend = new FriendSaves(storage);
  }

  // --- the game the engine keeps (against the CPU, on one device) ------------------------

  /** The saved game as the summary in local storage tells it, at once (before the engine
   * is up): {saved, info} or null. */
  peek() {
    const saved = this.summary.read();
    const info = saved ? describeSaved(saved, this.variants) : null;
    return info ? { saved, info } : null;
  }

  /** Whether the browser's storage holds a save, before the engine can say what it is: a
   * save with no local summary (written by an earlier version of the page, or a summary
   * local storage would not keep) is found this way. true, false, or null (cannot say). */
  stored() {
    return saveStored(this.idb);
  }

  /** The saved game as the engine has it (checked), the summary brought in line:
   * {found: {saved, info}|null, refused: whether a damaged save was thrown away}. */
  async check() {
    try {
      const reply = await this.engine.call({ op: "saved_game" });
      const saved = reply?.ok ? reply.saved : null;
      const info = saved ? describeSaved(saved, this.variants) : null;
      if (saved && !info) {
        // Not a summary this page can read: refused like a damaged save.
        await this.forget();
        console.warn("saved game refused: its summary is damaged");
        return { found: null, refused: true };
      }
      if (reply?.ok) this.summary.write(saved?.summary ?? null, saved?.page);
      return { found: info ? { saved, info } : null, refused: false };
    } catch {
      return { found: null, refused: false };
    }
  }

  /** The saved game's `resume_game`: {ok: true, options} (GameController options with the
   * reply as `restored` and the page data as `page`) or {ok: false, kept} (`kept`: the save
   * is still there, refused for another reason than itself). @param {SavedInfo} info */
  async resume(info) {
    const reply = await this.engine.call({ op: "resume_game", viewer: resumeViewer(info) });
    if (!reply.ok) {
      console.warn("saved game refused:", reply.error?.message); // the engine's words, in English
      // damaged or from another version (the worker discarded it), or already gone
      const gone = ["bad_save", "no_save"].includes(reply.error?.code);
      if (gone) this.summary.clear();
      return { ok: false, kept: !gone };
    }
    // The game's own rules came back with it (the summary says which).
    const checked = describeSaved({ summary: reply.summary, page: reply.page }, this.variants) || info;
    return { ok: true, options: { ...resumeOptions(checked), restored: reply, page: reply.page } };
  }

  /** Forget the saved game, in the worker and in the summary. */
  forget() {
    this.summary.clear();
    return this.engine.call({ op: "forget_game" }).catch(() => {});
  }

  /** Keep the game on screen saved after every change (a ply, a setup change, the page's
   * own data changing), with its summary; forget it when the game is over. Returns a
   * function that stops it.
   * @param {GameController} game @param {() => object} pageData */
  keep(game, pageData = () => ({})) {
    let last = "";
    let over = false;
    const check = (/** @type {string} */ what) => {
      const id = game.session.gameId;
      if (what === "clock" || !id || !game.view || over) return;
      const v = game.view;
      if (v.phase === "over") {
        over = true;
        this.forget();
        return;
      }
      if (!["setup", "play"].includes(v.phase) || !Array.isArray(v.history)) return;
      if (game.ui === "loading" || game.ui === "engine") return;
      const page = pageData();
      const key = JSON.stringify([id, v.phase, v.ply, v.history.length, v.deployed,
        v.phase === "setup" && game.viewer !== null ? v.board : null, page]);
      if (key === last) return;
      last = key;
      this.engine.call({ op: "keep_game", game: id, page }).then((/** @type {any} */ reply) => {
        if (!reply?.ok) console.warn("the game was not saved:", reply?.error?.message);
        else if (!over) this.summary.write(reply.summary, page);
      }, () => {});
    };
    return game.subscribe(check);
  }
}
