// The engine's module worker: loads Pyodide and the game wheel, then answers calls.
//
// Protocol (all messages are plain objects; requests and responses stay JSON strings so
// no Python proxies cross threads):
//   page -> worker  {type: "init", config}        config: absolute URLs, see engine.js
//                   {type: "call", id, request}   request: JSON string for bridge.handle
//                   {type: "load", id, packages, imports}  load packages named in the app
//                                                 lock, then import `imports` to verify
//   worker -> page  {type: "progress", stage, fraction, detail}   fraction in 0..1
//                   {type: "ready", info, timings}   info: the bridge's "version" response
//                   {type: "fail", stage, message, detail}
//                   {type: "response", id, response}   response: JSON string
//                   {type: "loaded", id, ok, message}

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

// ---- download accounting -------------------------------------------------------------
// Pyodide fetches the wasm, the stdlib, the lock and the wheels with the global fetch.
// Wrapping it lets us (1) report real byte progress, (2) stop at once on a missing file
// or a .wasm served with the wrong type (Pyodide would otherwise hang forever on that).
// The original Response is returned untouched (so the browser's wasm code cache still
// works); bytes are counted on a clone.

// The bar: runtime downloads (wasm, stdlib) fill 0..0.6 by bytes; then Python compiles
// and boots (no signal inside, so the bar waits at 0.6 with a message); Pyodide fetches
// the wheel only once the interpreter is up, which starts the "engine" stage (0.75);
// the wheel downloaded 0.85; installed and imported 0.9; the page's UI takes the rest.
const timings = {}; // milestones in ms since the worker started, for bench/page.py
let runtimeLoaded = 0;
let runtimeTotal = 1;
let fraction = 0;
let lastReport = 0;

function report(detail, force = false, at = null) {
  if (at !== null) fraction = Math.max(fraction, at);
  const now = performance.now();
  if (!force && now - lastReport < 100) return;
  lastReport = now;
  post({ type: "progress", stage, fraction, detail });
}

let countWasmBytes = true; // from the page's config: false once our service worker serves it

function isRuntimeFile(name) {
  return name.endsWith(".zip") || (countWasmBytes && name.endsWith(".wasm"));
}

function shortName(url) {
  return new URL(url).pathname.split("/").pop();
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
  if (name.endsWith(".whl")) {
    timings.wheel_fetched ??= performance.now();
    stage = "engine";
    report(`Downloading ${name}`, true, 0.75);
  }
  if (response.body && isRuntimeFile(name)) {
    const reader = response.clone().body.getReader();
    report(`Downloading ${name}`, true);
    (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        runtimeLoaded += value.byteLength;
        const share = Math.min(runtimeLoaded, runtimeTotal) / runtimeTotal;
        report(`Downloading ${name}`, false, 0.6 * share);
      }
      const all = runtimeLoaded >= runtimeTotal;
      report(all ? "Starting Python (compiling WebAssembly)…" : `Downloaded ${name}`, true);
    })().catch(() => {});
  } else if (name.endsWith(".whl")) {
    response.clone().arrayBuffer().then(
      () => report("Installing the game engine", true, 0.85),
      () => {},
    );
  }
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
self.addEventListener("securitypolicyviolation", (event) => {
  problems.push(`Content-Security-Policy blocked ${event.blockedURI} (${event.violatedDirective})`);
});

// ---- boot ------------------------------------------------------------------------------

async function boot(config) {
  countWasmBytes = config.countWasmBytes !== false;
  runtimeTotal =
    Object.entries(config.downloads || {})
      .filter(([url]) => isRuntimeFile(url))
      .reduce((sum, [, size]) => sum + size, 0) || 1;
  stage = "runtime";
  report("Loading Python", true);
  const { loadPyodide } = await import(config.pyodideURL);
  if (failed) return;
  pyodide = await loadPyodide({
    lockFileURL: config.lockURL, // must be absolute (see TOOLCHAIN.md)
    packageBaseUrl: config.lockURL.replace(/[^/]*$/, ""),
    packages: config.packages,
    stdout: (line) => console.log(`[python] ${line}`),
    stderr: (line) => {
      problems.push(line);
      console.warn(`[python] ${line}`);
    },
  });
  if (failed) return;
  timings.python_and_wheel = performance.now();
  // loadPyodide({packages}) does not throw when a package fails: verify by importing.
  stage = "engine";
  report("Starting the game engine", true, 0.9);
  try {
    handle = pyodide.pyimport("junqi_core.bridge").handle;
  } catch (err) {
    fail("The game engine package did not load.", String(err.message || err));
    return;
  }
  timings.engine_import = performance.now();
  const info = JSON.parse(handle(JSON.stringify({ op: "version" })));
  if (!info.ok) {
    fail("The game engine did not answer its version request.", JSON.stringify(info));
    return;
  }
  stage = "ready";
  post({ type: "ready", info, timings });
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
    let response;
    if (!handle) {
      response = errorResponse("not_ready", "the engine is not loaded");
    } else {
      try {
        response = handle(msg.request);
      } catch (err) {
        // bridge.handle never raises; this is Pyodide itself failing (e.g. a fatal error).
        response = errorResponse("engine_crashed", String(err.message || err));
      }
    }
    post({ type: "response", id: msg.id, response });
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
