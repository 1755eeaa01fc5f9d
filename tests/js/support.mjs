// Test helpers for the page's controllers in Node (node:test): the real engine in CPython
// behind the same call() the page uses, the page's strings, and fake timers.

import { spawn } from "node:child_process";
import { before, after } from "node:test";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import * as i18n from "../../web/js/ui/i18n.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const BRIDGE = `
import sys
from junqi_core.bridge import handle
for line in sys.stdin:
    sys.stdout.write(handle(line) + "\\n")
    sys.stdout.flush()
`;

/** junqi_core.bridge.handle in a CPython child process: {call, calls, close}. */
export function bridge() {
  const python = process.env.PYTHON || "python3";
  const child = spawn(python, ["-c", BRIDGE], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  lines.on("line", (line) => waiting.shift()(JSON.parse(line)));
  const engine = {
    ready: true,
    whenReady: Promise.resolve(),
    calls: [], // every request, in order
    call(request) {
      engine.calls.push(request);
      return new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(JSON.stringify(request) + "\n");
      });
    },
    close() {
      child.stdin.end();
      child.kill();
    },
  };
  return engine;
}

/** The engine for a test file, in English: started before its tests, closed after them.
 * Its `engine` and the static `variants` are there once the tests run. */
export function useEngine() {
  const ctx = { engine: null, variants: null };
  before(async () => {
    useLanguage("en");
    ctx.engine = bridge();
    ctx.variants = (await ctx.engine.call({ op: "variants" })).variants;
  });
  after(() => ctx.engine.close());
  return ctx;
}

/** The page's strings for a language (English as the fallback), as the page uses them. */
export function useLanguage(lang) {
  const read = (code) => JSON.parse(readFileSync(`${ROOT}web/i18n/${code}.json`, "utf-8"));
  const en = read("en");
  i18n.use(lang, lang === "en" ? en : read(lang), en);
}

/** Timers under the test's control: advance(ms) runs what falls due. */
export function fakeTimers() {
  let now = 0;
  let next = 1;
  const jobs = new Map(); // id -> {at, fn, every}
  return {
    now: () => now,
    every: (fn, ms) => (jobs.set(next, { at: now + ms, fn, every: ms }), next++),
    later: (fn, ms) => (jobs.set(next, { at: now + ms, fn, every: 0 }), next++),
    stop: (id) => jobs.delete(id),
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...jobs.entries()].filter(([, j]) => j.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        const [id, job] = due;
        now = job.at;
        if (job.every) job.at += job.every;
        else jobs.delete(id);
        job.fn();
      }
      now = end;
    },
  };
}

/** A store like prefs.js, in memory. */
export function memoryStore() {
  const data = {};
  return {
    data,
    get: (name, fallback) => (name in data ? data[name] : fallback),
    set: (name, value) => (data[name] = value),
    saveLayout: (variant, seat, layout) => (data[`layout:${variant}:${seat}`] = layout),
    loadLayout: (variant, seat) => data[`layout:${variant}:${seat}`] || null,
  };
}

/** Wait until the controller is idle in one of these states. */
export async function until(game, ...uis) {
  for (let i = 0; i < 2000; i++) {
    if (!game.busy && uis.includes(game.ui)) return game.ui;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`still ${game.ui} (busy ${game.busy}), wanted ${uis}`);
}

/** A deterministic "random" for seeds. */
export function counter(start = 1) {
  let n = start;
  return () => n++;
}

/** A Storage (localStorage's interface) in memory. */
export function memoryStorage() {
  const data = new Map();
  return {
    data,
    getItem: (key) => (data.has(key) ? data.get(key) : null),
    setItem: (key, value) => data.set(key, String(value)),
    removeItem: (key) => data.delete(key),
  };
}

/** The engine as the page's worker answers it: the saved-game ops (web/js/worker.js keeps
 * each save under its id in IndexedDB; here in memory, `store`, which several pages of one
 * browser may share) in front of the bridge. kept(id) is the save under `id`, or the
 * newest one. */
export function withSavedGame(engine, store = new Map()) {
  let clock = 0; // the order of the saves (the worker's `at`)
  const newest = () => [...store.entries()].sort((a, b) => b[1].at - a[1].at);
  const answer = async (request) => {
    const id = request.id;
    switch (request.op) {
      case "keep_game": {
        const reply = await engine.call({ op: "save", game: request.game, text: true });
        if (!reply.ok) return reply;
        store.set(id, { save: reply.save, summary: reply.summary, page: request.page ?? null, at: ++clock });
        return { ok: true, summary: reply.summary };
      }
      case "saved_games":
        return { ok: true, games: newest().map(([key, kept]) => ({ id: key, summary: kept.summary,
          page: kept.page, at: kept.at })) };
      case "resume_game": {
        const kept = store.get(id);
        if (!kept) return { ok: false, error: { code: "no_save", message: "there is no saved game with this id" } };
        const reply = await engine.call({ op: "restore", save: kept.save, viewer: request.viewer ?? null });
        return reply.ok ? { ...reply, page: kept.page } : reply;
      }
      case "forget_game":
        store.delete(id);
        return { ok: true };
      default:
        return engine.call(request);
    }
  };
  return { ready: true, whenReady: Promise.resolve(), calls: engine.calls, call: answer, store,
    kept: (id = undefined) => (id === undefined ? newest()[0]?.[1] : store.get(id)) ?? null };
}
