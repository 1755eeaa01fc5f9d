// Every saved game of this browser, behind one interface: `Saves`. No DOM. The start
// screen, the Continue box, the friend screens and the tab handling ask it, never a
// storage themselves.
//
// Two kinds of saved game:
// - Games against the CPU or on one device, kept by the engine's worker in IndexedDB
//   (docs/api.md, "The saved games"), each under its own id: the page asks `keep_game`
//   after every change and gets back only the public summary; the save itself, with the
//   CPU's layout and seed, never reaches the page. The page adds its own public data
//   (`page`: the clock choice, the player's marks). Several are kept: the newest of each
//   kind (variant and mode) and the MAX_SAVES most recent; a new game beyond that ends the
//   oldest (Play asks first: `crowded()`). Beside them the page keeps their summaries in
//   local storage (SavedSummary, `junqi.saved.v2`), so the start screen offers "Continue"
//   before the engine is up; the engine's own answer (`saved_games`) replaces it once it
//   comes.
// - The friend game (FriendSaves, `junqi.friend.v1`): the fair-play peer's state, this
//   page's own secrets included, written before anything a call returned is sent. It never
//   leaves this browser. One at a time.
//
//   const saves = new Saves({engine, variants});
//   saves.peek()                 // [{id, saved, info}] from the summaries, at once, newest first
//   await saves.stored()         // whether IndexedDB holds a save, before the engine is up
//   await saves.check()          // {found: [{id, saved, info}] (null: the engine cannot say), refused}
//   await saves.resume(entry)    // {ok, options}: GameController options to go on with it
//   saves.keep(game, pageData, {id, holds})  // after every ply and setup change; forgotten at the end
//   saves.forget(id)
//   saves.friend.load()          // the friend game's record (or null)

import { t } from "../i18n.js";
import { levelName, variantName } from "./gamescreen.js";

/** @typedef {import("./game.js").GameController} GameController */
/**
 * What a saved game's summary says, checked.
 * @typedef {{variant: string, mode: "cpu"|"hotseat", level: string|null, human: number,
 *   ply: number, phase: "setup"|"play", rules: any, clock: boolean, people?: number[],
 *   cpus?: Record<string, string>}} SavedInfo  (people, cpus: a game of more than two seats)
 */
/**
 * A saved game of the worker: its id, the summary and page data, and what they say.
 * @typedef {{id: string, saved: any, info: SavedInfo}} SavedEntry
 */

/** How many unfinished games (against the CPU, on one device) this browser keeps at least:
 * the most recent ones, and besides them the newest of each kind (variant and mode). */
export const MAX_SAVES = 5;

/** The kind of a game, as the limit counts them: variant and mode.
 * @param {{variant: string, mode: string}} info */
export function kindOf(info) {
  return `${info.variant}/${info.mode}`;
}

/** The saved games a new game of `kind` would push out (oldest first): those beyond the
 * MAX_SAVES - 1 most recent that are not the newest of their kind (the new game is the
 * newest of its own kind from then on).
 * @param {SavedEntry[]} games  newest first @param {string} kind */
export function crowded(games, kind) {
  const newest = new Set([kind]);
  const out = [];
  games.forEach((entry, i) => {
    const k = kindOf(entry.info);
    if (i >= MAX_SAVES - 1 && newest.has(k)) out.push(entry);
    newest.add(k);
  });
  return out.reverse();
}

/** A new saved game's id: 16 random letters and digits. */
export function newSaveId(random = Math.random) {
  let id = "";
  while (id.length < 16) id += Math.floor(random() * 36).toString(36);
  return id;
}

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
  // a game of more than two seats (Siguo): each seat a person or a CPU level
  const count = variants?.[variant]?.sides?.length ?? (seats.some((s) => Number(s) > 1) ? 4 : 2);
  if (count > 2) {
    if (seats.some((s) => !/^\d$/.test(s) || Number(s) >= count || typeof cpus[s] !== "string")) return null;
    const people = [...Array(count).keys()].filter((seat) => !(String(seat) in cpus));
    if (!people.length) return null;
    return {
      variant,
      mode: people.length > 1 ? "hotseat" : "cpu",
      level: Object.values(cpus)[0] ?? null,
      human: people[0],
      people,
      cpus: { ...cpus },
      ply,
      phase,
      rules: rules && typeof rules === "object" ? rules : null,
      clock: saved.page?.clock === true,
    };
  }
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
  const table = info.people ? (info.people.length > 1 ? t("mode.table_shared", { n: info.people.length })
    : `${t("mode.table_cpu")} (${[...new Set(Object.values(info.cpus || {}))].map(levelName).join(", ")})`) : null;
  const mode = table ? table : info.mode === "cpu"
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
  if (info.people) {
    options.people = info.people;
    options.cpus = info.cpus;
    options.level = info.level;
  }
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

export const SUMMARY_KEY = "junqi.saved.v2";
/** Where earlier versions kept the one saved game's summary (its save is under the id
 * "current"): read as that game until the list is written. */
export const OLD_SUMMARY_KEY = "junqi.saved.v1";
export const OLD_SAVE_ID = "current";

/** The saved games' public summaries in local storage: what the engine's `keep_game`
 * answered (variant, rules, mode, CPU level, move number; nothing hidden) and the page's
 * clock choice, by id. It says which saved games exist before the engine can. */
export class SavedSummary extends Stored {
  /** @param {Storage|undefined} storage */
  constructor(storage = globalThis.localStorage) {
    super(SUMMARY_KEY, storage);
    this.old = new Stored(OLD_SUMMARY_KEY, storage);
  }

  /** [{id, summary, page: {clock}, at}], newest first, as describeSaved() takes them. */
  read() {
    const data = this.readJSON();
    let games;
    if (data?.v === 2 && Array.isArray(data.games)) games = data.games;
    else {
      const old = this.old.readJSON(); // an earlier version's one game
      games = old?.v === 1 ? [{ ...old, id: OLD_SAVE_ID }] : [];
    }
    return games.filter((g) => g && typeof g.id === "string" && g.summary && typeof g.summary === "object")
      .map((g) => ({ id: g.id, summary: g.summary, page: { clock: g.clock === true }, at: g.at ?? null }))
      .sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
  }

  /** @param {{id: string, summary: any, page: any, at?: any}[]} games */
  writeAll(games) {
    this.writeJSON({ v: 2, games: games.map((g) => ({ id: g.id, summary: g.summary,
      clock: g.page?.clock === true, at: g.at ?? null })) });
    this.old.remove();
  }

  /** One game's summary, now (null: forget it). @param {string} id @param {any} summary
   * @param {any} page */
  write(id, summary, page = null) {
    const games = this.read().filter((g) => g.id !== id);
    if (summary) games.unshift({ id, summary, page, at: Date.now() });
    this.writeAll(games);
  }

  /** @param {string} id */
  drop(id) {
    this.write(id, null);
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

// Where the worker keeps the saves (worker.js; a worker is not bundled with the page, so
// the names are written twice).
const SAVE_DB = "junqi-saves";
const SAVE_STORE = "games";

/** Whether the browser's storage holds a saved game, told without the engine and without
 * reading a save (only the keys are counted: a save itself never enters the page):
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
        const count = db.transaction(SAVE_STORE).objectStore(SAVE_STORE).count();
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

  // --- the games the engine keeps (against the CPU, on one device) -----------------------

  /** @param {any} saved  {id, summary, page, at} @returns {SavedEntry|null} */
  entry(saved) {
    const info = describeSaved(saved, this.variants);
    return info ? { id: saved.id, saved, info } : null;
  }

  /** The saved games as the summaries in local storage tell them, at once (before the
   * engine is up): [{id, saved, info}], newest first. */
  peek() {
    return /** @type {SavedEntry[]} */ (this.summary.read().map((saved) => this.entry(saved)).filter(Boolean));
  }

  /** Whether the browser's storage holds a save, before the engine can say what it is: a
   * save with no local summary (written by an earlier version of the page, or a summary
   * local storage would not keep) is found this way. true, false, or null (cannot say). */
  stored() {
    return saveStored(this.idb);
  }

  /** The saved games as the engine has them (checked), the summaries brought in line:
   * {found: [{id, saved, info}] newest first, refused: whether a damaged save was thrown
   * away}. When the engine cannot say (its storage failed, the worker is gone), `found` is
   * null and the summaries stay as they are: no answer is not "no saved game". */
  async check() {
    try {
      const reply = await this.engine.call({ op: "saved_games" });
      if (!reply?.ok || !Array.isArray(reply.games)) {
        console.warn("the saved games could not be listed:", reply?.error?.message);
        return { found: null, refused: false };
      }
      const found = [];
      let refused = false;
      for (const saved of reply.games) {
        const entry = saved && typeof saved.id === "string" ? this.entry(saved) : null;
        if (entry) found.push(entry);
        else if (typeof saved?.id === "string") {
          // Not a summary this page can read: refused like a damaged save.
          await this.engine.call({ op: "forget_game", id: saved.id }).catch(() => {});
          console.warn("saved game refused: its summary is damaged");
          refused = true;
        }
      }
      this.summary.writeAll(found.map((e) => e.saved));
      return { found, refused };
    } catch (err) {
      console.warn("the saved games could not be listed:", err);
      return { found: null, refused: false };
    }
  }

  /** The saved game's `resume_game`: {ok: true, options} (GameController options with the
   * reply as `restored` and the page data as `page`) or {ok: false, kept} (`kept`: the save
   * is still there, refused for another reason than itself). @param {SavedEntry} entry */
  async resume({ id, info }) {
    const reply = await this.engine.call({ op: "resume_game", id, viewer: resumeViewer(info) });
    if (!reply.ok) {
      console.warn("saved game refused:", reply.error?.message); // the engine's words, in English
      // damaged or from another version (the worker discarded it), or already gone
      const gone = ["bad_save", "no_save"].includes(reply.error?.code);
      if (gone) this.summary.drop(id);
      return { ok: false, kept: !gone };
    }
    // The game's own rules came back with it (the summary says which).
    const checked = describeSaved({ summary: reply.summary, page: reply.page }, this.variants) || info;
    return { ok: true, options: { ...resumeOptions(checked), restored: reply, page: reply.page } };
  }

  /** Forget a saved game, in the worker and in the summaries. @param {string} id */
  forget(id) {
    this.summary.drop(id);
    return this.engine.call({ op: "forget_game", id }).catch(() => {});
  }

  /** Keep the game on screen saved under `id` after every change (a ply, a setup change,
   * the page's own data changing), with its summary; forget it when the game is over.
   * Nothing is written while `holds()` is false (another tab plays this game now). Returns
   * stop(): no more saves; it resolves once the last one asked is written.
   * @param {GameController} game @param {() => object} pageData
   * @param {{id: string, holds?: () => boolean}} which */
  keep(game, pageData, { id, holds = () => true }) {
    let last = "";
    let over = false;
    let stopped = false;
    /** @type {Promise<unknown>} */
    let pending = Promise.resolve();
    const check = (/** @type {string} */ what) => {
      if (what === "clock" || stopped || over || !game.session.gameId || !game.view) return;
      if (!holds()) return; // (and the tab is told it lost the game)
      const v = game.view;
      if (v.phase === "over") {
        over = true;
        pending = this.forget(id);
        return;
      }
      if (!["setup", "play"].includes(v.phase) || !Array.isArray(v.history)) return;
      if (game.ui === "loading" || game.ui === "engine") return;
      const page = pageData();
      const key = JSON.stringify([game.session.gameId, v.phase, v.ply, v.history.length, v.deployed,
        v.phase === "setup" && game.viewer !== null ? v.board : null, page]);
      if (key === last) return;
      last = key;
      pending = this.engine.call({ op: "keep_game", id, game: game.session.gameId, page })
        .then((/** @type {any} */ reply) => {
          if (!reply?.ok) console.warn("the game was not saved:", reply?.error?.message);
          else if (!over) this.summary.write(id, reply.summary, page);
        }, () => {});
    };
    const unsubscribe = game.subscribe(check);
    return () => {
      stopped = true;
      unsubscribe();
      return pending;
    };
  }
}
