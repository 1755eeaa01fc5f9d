// The engine: junqi_core.bridge.handle running in a module Web Worker.
//
//   import { Engine } from "./engine.js";
//   const engine = await Engine.start(config, { onProgress });   // rejects with LoadError
//   const response = await engine.call({ op: "new_game", variant: "classic", seed: 1 });
//
// `call` sends one JSON request and resolves with the parsed JSON response, including
// error responses ({ok: false, error: {code, message}}): those are answers, not failures.
// It rejects only when the worker is gone (EngineCrashed). Calls carry request ids, so
// several may be in flight at once.

const now = () => performance.now();

export class LoadError extends Error {
  constructor(stage, message, detail = "") {
    super(message);
    this.name = "LoadError";
    this.stage = stage;
    this.detail = detail;
  }
}

export class EngineCrashed extends Error {
  constructor(message) {
    super(message);
    this.name = "EngineCrashed";
  }
}

/** Loading progress: `fraction` in 0..1, `step` what happens now, `count` how far it is.
 * @typedef {{stage: string, step?: string, fraction: number, detail?: string,
 *   count?: {done: number, total: number, unit: string} | null}} Progress */

// Loading is called stuck only after this long without any sign of progress from the
// worker (bytes received, Python compiled or up, a module imported, ...; worker.js). A slow
// device keeps sending them; the one quiet phase, Python booting, takes seconds.
export const DEFAULT_STALL_MS = 120_000;

export class Engine {
  constructor(worker) {
    this.worker = worker;
    this.info = null; // the bridge's "version" response
    this.timings = null;
    this.pending = new Map(); // id -> {resolve, reject}
    this.nextId = 1;
    this.dead = null; // an EngineCrashed once the worker is gone
    this.crashListeners = [];
    this.boot = null; // how the engine came up: "plain" or "snapshot"
    this.snapshot = null; // after a plain boot: whether a snapshot was kept for next time
    this.snapshotListeners = [];
  }

  /**
   * Start the worker and load the engine.
   * config: {workerURL, pyodideURL, lockURL, wheelURL, wheelIntegrity, laterURL,
   *   laterSha256, build, downloads,
   *   snapshot: "off" to boot without engine snapshots} with absolute URLs.
   * onProgress({stage, step, fraction, detail, count}) is called as loading goes; stages
   * are "runtime" (Pyodide), "engine" (the game package), "ready" (at 0.95: the caller
   * mounts its UI, then hides the loader); `step` names what happens now and `count`
   * ({done, total, unit: "bytes"|"modules"}, or null) how far it is (worker.js).
   * @param {Record<string, any>} config
   * @param {{onProgress?: (p: Progress) => void, stallMs?: number}} [hooks]
   */
  static start(config, { onProgress = () => {}, stallMs = DEFAULT_STALL_MS } = {}) {
    let worker;
    try {
      worker = new Worker(config.workerURL, { type: "module", name: "junqi-engine" });
    } catch (err) {
      return Promise.reject(new LoadError("runtime", `Could not start the engine worker: ${err}`));
    }
    const engine = new Engine(worker);
    return new Promise((resolve, reject) => {
      let stage = "runtime";
      let step = "download";
      let timer = null;
      const finish = (err) => {
        clearTimeout(timer);
        worker.onmessage = (event) => engine._onMessage(event.data);
        worker.onerror = (event) => {
          event.preventDefault();
          engine._crash(`The engine stopped: ${event.message || "worker error"}`);
        };
        if (err) {
          worker.terminate();
          reject(err);
        } else {
          resolve(engine);
        }
      };
      const watchdog = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          finish(new LoadError(stage,
            `Loading stalled: no progress at all for ${Math.round(stallMs / 1000)} s (last step: ${step}).`,
            "The server stopped sending a file, or the network is down."));
        }, stallMs);
      };
      watchdog();
      onProgress({ stage, step, fraction: 0, detail: "Starting the engine worker", count: null });
      worker.onmessage = (event) => {
        const msg = event.data;
        watchdog();
        if (msg.type === "progress") {
          stage = msg.stage;
          step = msg.step || step;
          onProgress({ stage, step, fraction: msg.fraction, detail: msg.detail, count: msg.count || null });
        } else if (msg.type === "ready") {
          engine.info = msg.info;
          engine.timings = msg.timings; // worker-side milestones (ms since worker start)
          engine.boot = msg.boot; // "plain" or "snapshot"
          onProgress({ stage: "ready", step: "ready", fraction: 0.95, detail: "Opening the game", count: null });
          finish(null);
        } else if (msg.type === "snapshot_failed") {
          // A stored engine snapshot could not be restored (it is deleted): boot plainly.
          clearTimeout(timer);
          worker.terminate();
          console.warn("engine snapshot not restored, booting normally:", msg.message);
          Engine.start({ ...config, snapshot: msg.retry || "off" }, { onProgress, stallMs }).then((e) => {
            e.snapshotFailed = msg.message;
            resolve(e);
          }, reject);
        } else if (msg.type === "fail") {
          finish(new LoadError(msg.stage, msg.message, msg.detail));
        }
      };
      worker.onerror = (event) => {
        event.preventDefault();
        const what = event.message || "the worker script could not be loaded or crashed";
        finish(new LoadError(stage, `The engine worker failed: ${what}`,
          event.filename ? `${event.filename}:${event.lineno}` : config.workerURL));
      };
      worker.postMessage({ type: "init", config });
    });
  }

  /** Send one request (an object or a JSON string); resolves with the parsed response. */
  call(request) {
    const text = typeof request === "string" ? request : JSON.stringify(request);
    return this._send({ type: "call", request: text }).then((msg) => JSON.parse(msg.response));
  }

  /** Load packages named in the app lock (e.g. ["micropip"]) and verify they import. */
  loadPackages(packages, imports = packages) {
    return this._send({ type: "load", packages, imports }).then((msg) => {
      if (!msg.ok) throw new Error(msg.message);
    });
  }

  /** Register a callback for when a snapshot of this engine has been kept (or not). */
  onSnapshot(callback) {
    this.snapshotListeners.push(callback);
  }

  /** Register a callback for when the worker dies after it was ready. */
  onCrash(callback) {
    this.crashListeners.push(callback);
  }

  terminate() {
    this.worker.terminate();
    this._crash("The engine was stopped.", false);
  }

  _send(msg) {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...msg, id });
    });
  }

  _onMessage(msg) {
    if (msg.type === "snapshot") {
      this.snapshot = msg; // {stored, bytes, message}: a snapshot of this engine was kept
      Object.assign(this.timings ?? {}, msg.timings); // + when it was made (after ready)
      for (const callback of this.snapshotListeners) callback(msg);
    } else if (msg.type === "response" || msg.type === "loaded") {
      const waiter = this.pending.get(msg.id);
      if (waiter) {
        this.pending.delete(msg.id);
        waiter.resolve(msg);
      }
    } else if (msg.type === "fail") {
      this._crash(msg.message);
    }
  }

  _crash(message, notify = true) {
    if (this.dead) return;
    this.dead = new EngineCrashed(message);
    for (const { reject } of this.pending.values()) reject(this.dead);
    this.pending.clear();
    if (notify) for (const callback of this.crashListeners) callback(this.dead);
  }
}

/**
 * What the page holds before and after the engine is up: call() works at once (calls wait
 * for the engine), `ready` says whether it is up, `progress` how far loading is (with `at`,
 * when it last moved: quietSeconds() says how long ago), and onChange(fn) tells the screens
 * when any of these changes (every second while loading, so a quiet step shows its time).
 */
export class EngineLink {
  constructor() {
    this.engine = null;
    this.ready = false;
    this.error = null;
    this.progress = { stage: "runtime", step: "download", fraction: 0, detail: "", count: null,
      at: now() };
    this.listeners = [];
    this.ticker = null;
    this.whenReady = new Promise((resolve, reject) => {
      this._resolve = resolve;
      this._reject = reject;
    });
    this.whenReady.catch(() => {}); // the page shows the error screen
  }

  /** Follow an Engine.start() promise. */
  attach(started) {
    this.ticker ??= setInterval(() => this._emit(), 1000);
    const settled = () => {
      clearInterval(this.ticker);
      this.ticker = null;
    };
    started.then(
      (engine) => {
        settled();
        this.engine = engine;
        this.ready = true;
        this._resolve(engine);
        this._emit();
      },
      (err) => {
        settled();
        this.error = err;
        this._reject(err);
        this._emit();
      },
    );
    return this;
  }

  setProgress(progress) {
    this.progress = { ...progress, at: now() };
    this._emit();
  }

  /** Whole seconds since loading last moved. */
  quietSeconds() {
    return Math.floor((now() - this.progress.at) / 1000);
  }

  call(request) {
    return this.ready ? this.engine.call(request) : this.whenReady.then((e) => e.call(request));
  }

  onChange(fn) {
    this.listeners.push(fn);
    return () => (this.listeners = this.listeners.filter((x) => x !== fn));
  }

  _emit() {
    for (const fn of this.listeners) fn(this);
  }
}
