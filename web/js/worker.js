// The engine's module worker: loads Pyodide and the game wheel, then answers calls.
//
// Two ways up (docs/site.md, "Engine start"):
// - plain: the runtime boots while the wheel downloads in parallel (fetched here, checked
//   against the lock's sha256), the wheel is unpacked and the modules the bridge needs are
//   imported; the worker says "ready", then at once (before it takes any call, so it holds
//   a pristine engine) makes a memory snapshot of that interpreter, which Cache Storage
//   keeps under this build's id while the engine answers;
// - snapshot: a later visit of the same build restores that snapshot instead of booting
//   and importing, unpacks the wheel again (the file system is not in a snapshot) and
//   reseeds `random`. If the restore fails the worker deletes the snapshot and says
//   "snapshot_failed"; the page then starts a fresh worker that boots plainly and makes a
//   new snapshot (or, if this build's snapshot failed before, boots without one).
//
// Protocol (all messages are plain objects; requests and responses stay JSON strings so
// no Python proxies cross threads):
//   page -> worker  {type: "init", config}        config: absolute URLs, see engine.js
//                   {type: "call", id, request}   request: JSON string for bridge.handle
//                   {type: "load", id, packages, imports}  load packages named in the app
//                                                 lock, then import `imports` to verify
//   worker -> page  {type: "progress", stage, fraction, detail}   fraction in 0..1
//                   {type: "ready", info, timings, boot}   info: the bridge's "version"
//                                                 response; boot: "plain" | "snapshot"
//                   {type: "snapshot", stored, bytes, message, timings}   after ready:
//                                                 kept or not (timings: + snapshot_made)
//                   {type: "snapshot_failed", message, retry}   the restore failed: the
//                                                 page starts a new worker with
//                                                 config.snapshot = retry
//                                                 ("remake" once, then "off")
//                   {type: "fail", stage, message, detail}
//                   {type: "response", id, response}   response: JSON string
//                   {type: "loaded", id, ok, message}
// Requests for the saved games (ops `keep_game`, `saved_games`, `resume_game`, `forget_game`;
// docs/api.md, "The saved games") are answered here with the bridge's `save` and `restore`,
// and the bridge's `save` op itself is refused to the page: a save holds hidden things.

let pyodide = null;
let handle = null;
let stage = "runtime";
let failed = false;
const problems = []; // what went wrong while loading: HTTP errors, stderr, warnings

function post(msg) {
  self.postMessage(msg);
}

function fail(message, detail = "") {
  if (failed) return;
  failed = true;
  const extra = problems.length ? problems.join("\n") : "";
  post({ type: "fail", stage, message, detail: [detail, extra].filter(Boolean).join("\n") });
}

// ---- progress -------------------------------------------------------------------------
// Every progress message is a real sign that loading moves on; the page calls loading
// stuck only after a long time without one (docs/site.md, "Progress and failures"):
//   step "download"  bytes received of the runtime (wasm, stdlib) and of the game wheel
//   step "compile"   every runtime byte is in; the browser compiles the WebAssembly
//   step "python"    the WebAssembly is instantiated; Python boots (no signal inside)
//   step "wheel"     Python is up and waits for the rest of the game wheel (its bytes)
//   step "install"   the wheel is unpacked and the engine's modules imported, one by one
//   step "restore"   a returning visitor: the engine's memory snapshot is restored
//   step "answer"    the bridge is asked for its version: the last step before ready
// Pyodide fetches the wasm, the stdlib and the lock with the global fetch; the worker
// fetches the game wheel through it too. Wrapping it lets us (1) count bytes, (2) stop at
// once on a missing file or a .wasm served with the wrong type (Pyodide would otherwise
// hang forever on that). The original Response is returned untouched (so the browser's
// wasm code cache still works); bytes are counted on a clone.

// The bar: downloads fill 0..0.5 by bytes; compiling 0.55, Python booting 0.65; installing
// 0.7..0.9 by modules imported (from a snapshot: 0.6, restoring); 0.92 the bridge answers.
// milestones in ms since the worker started, for bench/page.py (origin: when that was,
// in ms since the epoch, so the bench can tell how long after the page it started)
const timings = { origin: performance.timeOrigin };
const bytes = { done: 0, total: 1, runtime: 0, runtimeTotal: 1, wheel: 0, wheelTotal: 1 };
let step = "download";
let fraction = 0;
let lastReport = 0;
let compiled = false;

/** Post where loading is: the step, the bar's fraction, and a count ({done, total, unit})
 * of bytes or modules for the page to put in words. */
function report(detail, { force = false, at = null, count = null, next = null } = {}) {
  if (next) step = next;
  if (at !== null) fraction = Math.max(fraction, at);
  const now = performance.now();
  if (!force && now - lastReport < 100) return;
  lastReport = now;
  post({ type: "progress", stage, step, fraction, detail, count });
}

/** The bytes to show: all downloads while downloading, the wheel's once Python waits. */
function byteCount() {
  return step === "wheel"
    ? { done: bytes.wheel, total: bytes.wheelTotal, unit: "bytes" }
    : { done: bytes.done, total: bytes.total, unit: "bytes" };
}

let countWasmBytes = true; // from the page's config: false once our service worker serves it

function isRuntimeFile(name) {
  return name.endsWith(".zip") || (countWasmBytes && name.endsWith(".wasm"));
}

function isCounted(name) {
  return isRuntimeFile(name) || name.endsWith(".whl");
}

function shortName(url) {
  return new URL(url).pathname.split("/").pop();
}

/** Count a response's bytes as they arrive (on a clone), reporting the chunks. */
function countBytes(response, name) {
  const reader = response.clone().body.getReader();
  const wheel = name.endsWith(".whl");
  const counting = () => (["download", "wheel"].includes(step) ? byteCount() : null);
  report(`Downloading ${name}`, { force: true, count: counting() });
  (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes.done += value.byteLength;
      bytes[wheel ? "wheel" : "runtime"] += value.byteLength;
      const at = step === "download" ? 0.5 * Math.min(1, bytes.done / bytes.total) : null;
      report(`Downloading ${name}`, { at, count: counting() });
    }
    if (step === "download" && bytes.runtime >= bytes.runtimeTotal && !compiled) {
      report("Compiling Python (WebAssembly)", { force: true, at: 0.55, next: "compile" });
    } else {
      report(`Downloaded ${name}`, { force: true, count: counting() });
    }
  })().catch(() => {});
}

// Python's WebAssembly compiled and instantiated: a real milestone, the last one before
// Python boots (which gives no signal from inside).
// (Only Python's own module counts: a big binary, or the streamed response.)
const BIG_WASM = 1_000_000;
for (const name of ["instantiateStreaming", "instantiate"]) {
  const real = WebAssembly[name]?.bind(WebAssembly);
  if (!real) continue;
  WebAssembly[name] = (...args) => {
    const result = real(...args);
    const python = name === "instantiateStreaming" || (args[0]?.byteLength ?? 0) > BIG_WASM;
    result.then(() => {
      if (!python) return;
      if (compiled || stage !== "runtime") return;
      compiled = true;
      timings.compiled = performance.now();
      report("Starting Python", { force: true, at: 0.65, next: "python" });
    }, () => {});
    return result;
  };
}

// A fetch with an `integrity` (Pyodide checks wheels against the lock's sha256) rejects
// with a bare "Failed to fetch" both when the file is missing and when its hash differs:
// ask again without the check to tell the user which.
async function whyFetchFailed(url, init, err) {
  const name = shortName(url);
  if (init && init.integrity) {
    try {
      const probe = await realFetch(url, { cache: "no-store" });
      if (!probe.ok) {
        return `A file of the game is missing on the server: ${name} (HTTP ${probe.status}).`;
      }
      return `${name} does not match the sha256 in app-lock.json (integrity check failed): ` +
        "the server has files from different builds.";
    } catch {
      // fall through: the network itself failed
    }
  }
  return `Could not download ${name}: ${err.message || err}`;
}

const realFetch = self.fetch.bind(self);
self.fetch = async (input, init) => {
  const url = typeof input === "string" || input instanceof URL ? String(input) : input.url;
  let response;
  try {
    response = await realFetch(input, init);
  } catch (err) {
    fail(await whyFetchFailed(url, init, err), url);
    throw err;
  }
  const name = shortName(url);
  if (!response.ok) {
    problems.push(`HTTP ${response.status} for ${url}`);
    fail(`A file of the game is missing on the server: ${name} (HTTP ${response.status}).`, url);
    return response;
  }
  const type = response.headers.get("content-type") || "";
  if (name.endsWith(".wasm") && !type.startsWith("application/wasm")) {
    fail(
      `The server sends ${name} as "${type || "no type"}" instead of "application/wasm"; ` +
        "the browser refuses to run it. Fix the server's MIME types (see docs/site.md).",
      url,
    );
    return response;
  }
  if (name.endsWith(".whl")) timings.wheel_fetched ??= performance.now();
  if (response.body && isCounted(name)) countBytes(response, name);
  return response;
};

// When WebAssembly.instantiate fails (wrong MIME type, a Content-Security-Policy without
// 'wasm-unsafe-eval', a corrupt file), Pyodide 314 only logs "wasm instantiation failed!"
// and its error with console.warn, and never settles: turn that into a failure now.
const realWarn = console.warn.bind(console);
let wasmFailed = false;
console.warn = (...args) => {
  realWarn(...args);
  if (args[0] === "wasm instantiation failed!") {
    wasmFailed = true;
  } else if (wasmFailed) {
    const reason = String(args[0]?.message || args[0]).replace(/\.$/, "");
    const csp = /Content Security Policy|wasm-unsafe-eval|WebAssembly\.instantiate/i.test(reason)
      ? " The site's Content-Security-Policy must allow 'wasm-unsafe-eval'."
      : "";
    fail(`The Python runtime (WebAssembly) could not start: ${reason}.${csp}`);
  }
};
self.addEventListener("securitypolicyviolation", (/** @type {SecurityPolicyViolationEvent} */ event) => {
  problems.push(`Content-Security-Policy blocked ${event.blockedURI} (${event.violatedDirective})`);
});

// ---- the saved games -----------------------------------------------------------------------
// Games against the CPU and on one device are saved after every change, in IndexedDB, by
// the worker itself: a save holds hidden things (the CPU's layout and seed, the Blind deal),
// so the page only ever gets its public `summary` (docs/api.md, "The saved games"). Each
// game under its own id, chosen by the page: {save, summary, page, at} (`page`: the page's
// own public data, e.g. the clock choice and the player's marks). The page decides how many
// it keeps (ui/ctrl/saves.js); the one save of earlier versions, under "current", is simply
// the game with that id.

const SAVE_DB = "junqi-saves";
const SAVE_STORE = "games";
const SAVED_OPS = new Set(["keep_game", "saved_games", "resume_game", "forget_game", "save"]);
const SAVE_ID = /^[A-Za-z0-9_-]{1,40}$/;
let saveDB = null;

function openSaves() {
  saveDB ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(SAVE_DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(SAVE_STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  saveDB.catch(() => (saveDB = null));
  return saveDB;
}

async function savedRecord(mode, work) {
  const db = await openSaves();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(SAVE_STORE, mode);
    const request = work(tx.objectStore(SAVE_STORE));
    let result;
    if (request) request.onsuccess = () => (result = request.result);
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** Every saved game with its id, newest first: [{id, record}]. */
async function savedList() {
  const db = await openSaves();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(SAVE_STORE);
    const list = [];
    const cursor = tx.objectStore(SAVE_STORE).openCursor();
    cursor.onsuccess = () => {
      const at = cursor.result;
      if (!at) return;
      list.push({ id: String(at.key), record: at.value });
      at.continue();
    };
    tx.oncomplete = () => resolve(list.sort((a, b) => (b.record?.at ?? 0) - (a.record?.at ?? 0)));
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** The request as an object when it is about the saved game, else null. Every request is
 * parsed (not matched as text): an escaped op name must not slip past to the bridge. */
function savedGameRequest(text) {
  if (typeof text !== "string") return null;
  try {
    const request = JSON.parse(text);
    return request && SAVED_OPS.has(request.op) ? request : null;
  } catch {
    return { op: "bad_json" }; // (Python would read NaN, say, where JavaScript refuses)
  }
}

const okResponse = (data) => JSON.stringify({ v: 1, ok: true, ...data });

/** Plain public data from the page (no functions, small): kept beside the save. */
function pageData(value) {
  try {
    const text = JSON.stringify(value ?? null);
    return text.length <= 200_000 ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

async function savedGameCall(request, bridge) {
  try {
    const id = request.id;
    if (request.op !== "saved_games" && request.op !== "save" && request.op !== "bad_json"
      && (typeof id !== "string" || !SAVE_ID.test(id))) {
      return errorResponse("bad_request", "id: a saved game's id (1 to 40 letters, digits, _ or -)");
    }
    switch (request.op) {
      case "save":
        return errorResponse("worker_only", "saves stay in the engine's worker; use keep_game");
      case "bad_json":
        // The bridge's own answer to text that is not JSON, to the letter.
        return JSON.stringify({ v: 1, error: { code: "bad_json", message: "the request is not valid JSON" } });
      case "keep_game": {
        // As text: a CPU's seed has up to 62 bits, which a JavaScript number would round.
        const reply = JSON.parse(bridge(JSON.stringify({ op: "save", game: request.game, text: true })));
        if (!reply.ok) return JSON.stringify(reply);
        const record = { save: reply.save, summary: reply.summary,
          page: pageData(request.page), at: Date.now() };
        await savedRecord("readwrite", (store) => store.put(record, id));
        return okResponse({ summary: reply.summary });
      }
      case "saved_games": {
        const list = await savedList();
        return okResponse({ games: list.map(({ id, record }) => ({ id,
          summary: record?.summary ?? null, page: record?.page ?? null, at: record?.at ?? null })) });
      }
      case "resume_game": {
        const record = await savedRecord("readonly", (store) => store.get(id));
        if (!record) return errorResponse("no_save", "there is no saved game with this id");
        const reply = JSON.parse(bridge(JSON.stringify({ op: "restore", save: record.save ?? null,
          viewer: request.viewer ?? null })));
        if (!reply.ok) {
          // Damaged or from another version: refused whole, and not offered again. (A
          // refused request, say a viewer that is no person's seat, leaves the save be.)
          if (reply.error?.code === "bad_save") {
            await savedRecord("readwrite", (store) => store.delete(id));
          }
          return JSON.stringify(reply);
        }
        return okResponse({ game: reply.game, view: reply.view, description: reply.description,
          summary: reply.summary, page: record.page ?? null });
      }
      case "forget_game":
        await savedRecord("readwrite", (store) => store.delete(id));
        return okResponse({});
      default:
        return errorResponse("unknown_op", "unknown op");
    }
  } catch (err) {
    return errorResponse("storage", `the browser's storage failed: ${err?.message || err}`);
  }
}

// ---- boot ------------------------------------------------------------------------------

// Not a "junqi-*" cache: the service worker deletes those of other builds on activate.
const SNAPSHOT_CACHE = "engine-snapshot";
let bootKind = "plain";

function snapshotKey(config) {
  return new URL(`__engine-snapshot__/${config.build}`, config.lockURL).href;
}

/** The stored snapshot of this build: {bytes} or {broken: why}; {failedBefore} when there
 * is none and one failed to restore before (then no new one is made); null otherwise. */
async function readSnapshot(config) {
  if (config.snapshot !== "on" || !self.caches) return null; // "off", or "remake"
  const cache = await caches.open(SNAPSHOT_CACHE);
  const hit = await cache.match(snapshotKey(config));
  if (!hit) return (await cache.match(`${snapshotKey(config)}/failed`)) ? { failedBefore: true } : null;
  const bytes = new Uint8Array(await hit.arrayBuffer());
  // Kept whole or not at all: a snapshot of another length is not this engine's.
  const expected = hit.headers.get("X-Snapshot-Bytes");
  if (String(bytes.length) !== expected) {
    return { broken: `the stored snapshot has ${bytes.length} bytes, not ${expected}` };
  }
  return { bytes };
}

async function storeSnapshot(config, bytes) {
  const cache = await caches.open(SNAPSHOT_CACHE);
  const keep = [snapshotKey(config), `${snapshotKey(config)}/failed`];
  for (const request of await cache.keys()) {
    if (!keep.includes(request.url)) await cache.delete(request); // other builds'
  }
  await cache.put(snapshotKey(config), new Response(bytes, {
    headers: { "Content-Type": "application/octet-stream", "X-Snapshot-Bytes": String(bytes.length) },
  }));
}

/** The snapshot did not restore: delete it. Returns how to boot now: make a new one
 * ("remake"), or, when this build's snapshot failed before, boot without ("off"). */
async function dropSnapshot(config) {
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    await cache.delete(snapshotKey(config));
    const marker = `${snapshotKey(config)}/failed`;
    if (await cache.match(marker)) return "off";
    await cache.put(marker, new Response("1"));
    return "remake";
  } catch {
    return "off";
  }
}

/** The game wheel, downloaded at once (in parallel with the runtime) and checked against
 * the sha256 of the lock. Checked here rather than with the fetch's `integrity`: a fetch
 * with `integrity` shows no byte until the whole file is in, and a slow network must show
 * its progress. (Without Web Crypto, outside a secure context, the browser checks it.) */
function fetchWheel(config) {
  const [algorithm, expected] = String(config.wheelIntegrity).split(/-(.*)/s);
  const subtle = algorithm === "sha256" ? self.crypto?.subtle : null;
  return self.fetch(config.wheelURL, subtle ? {} : { integrity: config.wheelIntegrity })
    .then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status} for ${config.wheelURL}`);
      return response.arrayBuffer();
    })
    .then(async (buffer) => {
      timings.wheel_downloaded = performance.now();
      if (subtle) {
        const digest = new Uint8Array(await subtle.digest("SHA-256", buffer));
        if (btoa(String.fromCharCode(...digest)) !== expected) {
          const message = `${shortName(config.wheelURL)} does not match the sha256 in app-lock.json ` +
            "(integrity check failed): the server has files from different builds.";
          fail(message, config.wheelURL);
          throw new Error(message);
        }
      }
      return new Uint8Array(buffer);
    });
}

function pyodideOptions(config, extra) {
  return {
    lockFileURL: config.lockURL, // must be absolute: with a relative one every package fails ("Invalid base URL")
    packageBaseUrl: config.lockURL.replace(/[^/]*$/, ""),
    stdout: (line) => console.log(`[python] ${line}`),
    stderr: (line) => {
      problems.push(line);
      console.warn(`[python] ${line}`);
    },
    ...extra,
  };
}

function unpackWheel(bytes) {
  const site = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  pyodide.unpackArchive(bytes, "wheel", { extractDir: site });
}

// The engine's modules that the bridge needs, in the order CPython finished importing them
// (build.py lists them): imported one by one so the page sees the count move. The rest
// (friend play, the deduction notes) are not in the wheel: they come after ready (below)
// and are imported when first used: half the import time is theirs, and most visits never
// use them. A module that cannot load
// here is skipped with a warning; the bridge itself is checked after.
function importEngine(config) {
  const names = config.engineModules?.length ? config.engineModules : ["junqi_core.bridge"];
  names.forEach((name, i) => {
    try {
      pyodide.pyimport(name).destroy?.();
    } catch (err) {
      console.warn(`not imported: ${name}: ${err.message || err}`);
    }
    const count = { done: i + 1, total: names.length, unit: "modules" };
    report(`Imported ${name}`, { at: 0.7 + (0.2 * (i + 1)) / names.length, count });
  });
}

// ---- the engine's other modules ---------------------------------------------------------
// The wheel holds only the modules the start imports (as bytecode); the rest (friend play,
// the deduction notes, ...) come as source in a second archive (build.py, docs/site.md),
// fetched once the engine is ready. A module imported before that archive is in (say a
// friend's link opened at once) is not refused: the last finder on Python's path fetches
// the archive there and then, with a synchronous request (a worker may make one).
const LATER_PY = `
import hashlib, importlib, importlib.machinery, io, sys, sysconfig, zipfile

def _junqi_later_install(data, sha256):
    global _junqi_later_in
    if _junqi_later_in:
        return
    data = data.to_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ImportError("the engine's other modules do not match their sha256")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(sysconfig.get_path("purelib"))
    _junqi_later_in = True
    importlib.invalidate_caches()

class _JunqiLater:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if _junqi_later_in or not name.startswith("junqi_core."):
            return None
        import js
        _junqi_later_install(js.junqiLaterSync(), _junqi_later_sha256)
        return importlib.machinery.PathFinder.find_spec(name, path, target)

_junqi_later_in = False
sys.meta_path.append(_JunqiLater)
`;

/** After ready (and after the snapshot, which must not hold this): the finder above, and
 * the archive fetched in the background. */
function fetchLater(config) {
  if (!config.laterURL) return;
  try {
    pyodide.globals.set("_junqi_later_sha256", config.laterSha256);
    pyodide.runPython(LATER_PY);
  } catch (err) {
    console.warn("engine's other modules: no finder:", err);
    return;
  }
  const install = (bytes) => {
    const installer = pyodide.globals.get("_junqi_later_install");
    try {
      installer(bytes, config.laterSha256);
    } finally {
      installer.destroy();
    }
  };
  /** @type {any} */ (self).junqiLaterSync = () => {
    const request = new XMLHttpRequest();
    request.open("GET", config.laterURL, false);
    request.responseType = "arraybuffer";
    request.send();
    if (request.status !== 200) throw new Error(`HTTP ${request.status} for ${config.laterURL}`);
    return new Uint8Array(request.response);
  };
  realFetch(config.laterURL)
    .then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status} for ${config.laterURL}`);
      return response.arrayBuffer();
    })
    .then((buffer) => install(new Uint8Array(buffer)))
    .catch((err) => console.warn("engine's other modules: fetched when first imported:", err));
}

/** Python up, then the engine's files and modules. */
async function bootPlain(loadPyodide, wheel, config) {
  const makeSnapshot = config.snapshot !== "off" && Boolean(self.caches);
  pyodide = await loadPyodide(pyodideOptions(config, makeSnapshot ? { _makeSnapshot: true } : {}));
  if (failed) return false;
  timings.python = performance.now();
  stage = "engine";
  if (bytes.wheel < bytes.wheelTotal) {
    step = "wheel";
    report("Downloading the game engine", { force: true, at: 0.7, count: byteCount() });
  }
  const wheelBytes = await wheel;
  if (failed) return false;
  report("Installing the game engine", { force: true, at: 0.7, next: "install" });
  try {
    unpackWheel(wheelBytes);
    importEngine(config);
  } catch (err) {
    fail("The game engine package did not load.", String(err.message || err));
    return false;
  }
  timings.engine_import = performance.now();
  return makeSnapshot;
}

/** A memory snapshot of the engine as it is now: made after ready but before any call
 * (the worker does nothing else in between), so it holds a pristine engine. */
function snapshotNow() {
  try {
    const snapshot = pyodide.makeMemorySnapshot();
    timings.snapshot_made = performance.now();
    return snapshot;
  } catch (err) {
    console.warn("no engine snapshot:", err);
    return null;
  }
}

async function bootFromSnapshot(loadPyodide, snapshot, wheel, config) {
  stage = "engine";
  report("Restoring the game engine", { force: true, at: 0.6, next: "restore" });
  pyodide = await loadPyodide(pyodideOptions(config, { _loadSnapshot: snapshot }));
  timings.python = performance.now();
  // A snapshot comes back with the same random state every time: reseed.
  pyodide.runPython("import random; random.seed()");
  timings.engine_import = performance.now();
}

async function boot(config) {
  countWasmBytes = config.countWasmBytes !== false;
  const sizes = Object.entries(config.downloads || {});
  const sum = (keep) => sizes.filter(([url]) => keep(url)).reduce((total, [, size]) => total + size, 0);
  bytes.runtimeTotal = sum(isRuntimeFile) || 1;
  bytes.wheelTotal = sum((url) => url.endsWith(".whl")) || 1;
  bytes.total = bytes.runtimeTotal + bytes.wheelTotal;
  stage = "runtime";
  report("Loading Python", { force: true, count: byteCount() });
  const wheel = fetchWheel(config);
  wheel.catch(() => {}); // reported by the fetch wrapper; awaited below
  const [{ loadPyodide }, saved] = await Promise.all([
    import(config.pyodideURL),
    readSnapshot(config).catch(() => null),
  ]);
  if (failed) return;
  timings.loader = performance.now(); // pyodide.mjs imported, the snapshot looked for
  timings.snapshot_read = saved?.bytes ? performance.now() : null;
  let snapshotWanted = false;
  if (saved?.bytes || saved?.broken) {
    try {
      if (saved.broken) throw new Error(saved.broken);
      await bootFromSnapshot(loadPyodide, saved.bytes, wheel, config);
      bootKind = "snapshot";
    } catch (err) {
      if (failed) return;
      const retry = await dropSnapshot(config);
      post({ type: "snapshot_failed", message: String(err.message || err), retry });
      return;
    }
  } else {
    snapshotWanted = await bootPlain(loadPyodide, wheel,
      saved?.failedBefore ? { ...config, snapshot: "off" } : config);
  }
  if (failed) return;
  report("Starting the game engine", { force: true, at: 0.92, next: "answer" });
  try {
    handle = pyodide.pyimport("junqi_core.bridge").handle;
  } catch (err) {
    fail("The game engine package did not load.", String(err.message || err));
    return;
  }
  const info = JSON.parse(handle(JSON.stringify({ op: "version" })));
  if (!info.ok) {
    fail("The game engine did not answer its version request.", JSON.stringify(info));
    return;
  }
  // From a snapshot: the engine's files, for the modules imported later (a snapshot holds
  // memory, not the file system); the wheel came in while the snapshot was restored.
  const wheelBytes = bootKind === "snapshot" ? await wheel.catch(() => null) : null;
  stage = "ready";
  timings.ready = performance.now();
  post({ type: "ready", info, timings, boot: bootKind });
  // Nothing below awaits: a call the page sends now is answered after it, so the files are
  // there and the snapshot holds an engine that has answered nothing yet.
  if (wheelBytes) {
    try {
      unpackWheel(wheelBytes);
    } catch (err) {
      console.warn("engine files not unpacked:", err);
    }
  }
  const made = snapshotWanted ? snapshotNow() : null;
  fetchLater(config);
  if (made) {
    // Kept off the critical path: Cache Storage writes it while the engine answers calls.
    storeSnapshot(config, made).then(
      () => post({ type: "snapshot", stored: true, bytes: made.length, timings }),
      (err) => post({ type: "snapshot", stored: false, message: String(err.message || err), timings }),
    );
  }
}

/** One request to the bridge (a JSON string in, one out). */
function call(request) {
  if (!handle) return errorResponse("not_ready", "the engine is not loaded");
  try {
    return handle(request);
  } catch (err) {
    // bridge.handle never raises; this is Pyodide itself failing (e.g. a fatal error).
    return errorResponse("engine_crashed", String(err.message || err));
  }
}

function errorResponse(code, message) {
  return JSON.stringify({ v: 1, ok: false, error: { code, message } });
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === "init") {
    try {
      await boot(msg.config);
    } catch (err) {
      fail(`Loading failed: ${err.message || err}`, String(err.stack || ""));
    }
  } else if (msg.type === "call") {
    const request = savedGameRequest(msg.request);
    if (request) {
      // The saved games: answered once the browser's storage has been read or written; the
      // save itself never leaves the worker.
      post({ type: "response", id: msg.id, response: await savedGameCall(request, call) });
      return;
    }
    post({ type: "response", id: msg.id, response: call(msg.request) });
  } else if (msg.type === "load") {
    try {
      await pyodide.loadPackage(msg.packages);
      // loadPackage does not throw when a package fails: verify by importing.
      for (const name of msg.imports || msg.packages) pyodide.pyimport(name);
      post({ type: "loaded", id: msg.id, ok: true });
    } catch (err) {
      post({ type: "loaded", id: msg.id, ok: false, message: String(err.message || err) });
    }
  }
};

self.addEventListener("unhandledrejection", (event) => {
  // While loading, a stray rejection means the load is broken; once ready, calls report
  // their own errors, so only log it.
  const reason = event.reason?.message || event.reason;
  if (stage === "ready") console.error("worker: unhandled rejection:", reason);
  else fail(`Loading failed: ${reason}`);
});
