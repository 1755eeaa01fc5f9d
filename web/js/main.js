// Entry point: start the engine in its worker and the game UI. The start screen is drawn
// from static data (the engine's answers to "version" and "variants" and the English
// strings, written by build.py into start-data.js), so it is usable at once while Python
// loads behind it; a game started before the engine is up waits for it ("Starting the
// engine…").
//
// Page state on <html>: data-ui="ready" once the start screen can be used (mark
// "junqi-interactive"); data-state="loading|ready|error", and data-ready once the engine
// answers with the UI mounted (mark "junqi-ready"; tests and bench/page.py wait for it).

import { BUILD } from "./build-info.js";
import { Engine, EngineLink } from "./engine.js";
import { Loader } from "./loader.js";

const root = document.documentElement;
const loader = new Loader(document);
const appRoot = document.getElementById("app");

function siteURL(rel) {
  // Paths in BUILD are relative to the site root, which is where index.html is.
  return new URL(rel, document.baseURI).href;
}

function engineConfig() {
  const downloads = {};
  for (const [rel, size] of Object.entries(BUILD.downloads)) downloads[siteURL(rel)] = size;
  return {
    workerURL: new URL("./worker.js", import.meta.url).href,
    pyodideURL: siteURL(BUILD.pyodideURL),
    lockURL: siteURL(BUILD.lockURL), // Pyodide needs an absolute lock URL
    wheelURL: siteURL(BUILD.wheelURL),
    wheelIntegrity: BUILD.wheelIntegrity,
    engineModules: BUILD.engineModules, // what the bridge imports, in order (build.py)
    laterURL: siteURL(BUILD.laterURL), // the engine's other modules, fetched after ready
    laterSha256: BUILD.laterSha256,
    build: BUILD.version, // engine snapshots are kept per build
    // ?snapshot=off boots without engine snapshots (tests, bench/page.py)
    snapshot: new URLSearchParams(location.search).get("snapshot") === "off" ? "off" : "on",
    downloads,
    // A page our service worker controls has the wasm locally: the worker then leaves its
    // Response alone (no byte counting on a clone), which keeps V8's compiled-code cache
    // for it usable. On a first visit the bytes are counted for the progress bar.
    countWasmBytes: !navigator.serviceWorker?.controller,
  };
}

/** Resolves in a task of its own after `ms` (0: after the current task, once the page
 * could render). */
function later(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function setState(state) {
  root.dataset.state = state;
  if (state === "ready") root.dataset.ready = "true";
  else delete root.dataset.ready;
}

let failed = false;

function showError(message, detail) {
  failed = true;
  setState("error");
  appRoot.hidden = true;
  loader.error(message, detail, () => location.reload());
}

function boot() {
  setState("loading");
  const params = new URLSearchParams(location.search);
  const stallMs = Number(params.get("stall")) || undefined; // tests shorten the watchdog
  const link = new EngineLink();
  window.junqi = { link, build: BUILD }; // for tests and the console
  // The header's indicator follows the link: each step, and every second of a quiet one.
  link.onChange(() => !link.ready && !link.error && loader.progress(link.progress, link.quietSeconds()));
  // app.js by URL: the build bundles it apart from this shell, so a broken UI module shows
  // the error screen instead of a blank page. start-data.js (written by build.py) beside
  // it, not imported by this shell, so a first visit starts the engine without waiting for
  // it (index.html preloads both).
  const assets = new URL("../", import.meta.url).href;
  const here = (file) => new URL(file, import.meta.url).href;
  const mounted = Promise.all([import(here("./app.js")), import(here("./start-data.js"))])
    .then(([{ mount }, { ENGINE, ENGLISH }]) =>
      mount(appRoot, link, ENGINE, { loader, assets, english: ENGLISH }));

  // A first visit starts the engine at once: its download is most of the wait. On a return
  // visit (our service worker has every file here) the start screen comes first and the
  // engine right after it (at the latest after a second), so Python's boot does not
  // compete for the cores with the screen the player sees first (bench/page.py: warm
  // interactive start).
  const uiFirst = Boolean(navigator.serviceWorker?.controller);
  const first = Promise.race([mounted, later(1000)]);
  const turn = uiFirst ? first.then(() => later(0), () => later(0)) : Promise.resolve();
  const started = turn.then(() =>
    Engine.start(engineConfig(), { onProgress: (p) => link.setProgress(p), stallMs }));
  link.attach(started);
  mounted.then(
    () => performance.mark("junqi-interactive"), // bench/page.py: navigation -> here
    (err) => {
      console.error(err);
      showError(`The game screen could not be loaded: ${err.message}`, String(err.stack || ""));
    },
  );

  started.then(
    async (engine) => {
      performance.mark("junqi-engine"); // engine answered
      root.dataset.boot = engine.boot; // "plain" or "snapshot" (tests, bench/page.py)
      engine.onSnapshot((s) => (root.dataset.snapshot = s.stored ? "stored" : "failed"));
      engine.onCrash((err) => showError(err.message, "The engine worker stopped."));
      window.junqi.engine = engine;
      try {
        await mounted;
      } catch {
        return; // the error screen is up
      }
      if (failed) return;
      loader.hide();
      performance.mark("junqi-ready"); // bench/page.py measures navigation -> here
      setState("ready");
      registerServiceWorker();
    },
    (err) => {
      console.error(err);
      showError(err.message, err.detail);
    },
  );
}

function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  // Relative to the page, so the scope is the folder the site is served from.
  navigator.serviceWorker.register("./sw.js").then(
    (registration) => {
      const done = () => (root.dataset.offline = "true");
      if (registration.active) done();
      navigator.serviceWorker.ready.then(done);
    },
    (err) => console.warn("service worker registration failed:", err),
  );
}

boot();
