// Entry point: start the engine behind the loading screen, then mount the app.
// The page state is on <html data-state="loading|ready|error">; data-ready is set once
// the engine answers and the app is mounted (tests wait for it).
//
// Only the shell's own small modules are imported statically. The game UI (app.js and
// what it imports) is loaded with a dynamic import that runs while the engine boots, so
// the engine starts at once, and a broken UI module shows the error screen instead of
// leaving the page on "Starting…".

import { BUILD } from "./build-info.js";
import { Engine } from "./engine.js";
import { Loader } from "./loader.js";

const root = document.documentElement;
const loader = new Loader(document.getElementById("loader"));
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
    packages: BUILD.packages,
    downloads,
    // A page our service worker controls has the wasm locally: the worker then leaves its
    // Response alone (no byte counting on a clone), which keeps V8's compiled-code cache
    // for it usable. On a first visit the bytes are counted for the progress bar.
    countWasmBytes: !navigator.serviceWorker?.controller,
  };
}

function setState(state) {
  root.dataset.state = state;
  if (state === "ready") root.dataset.ready = "true";
  else delete root.dataset.ready;
}

function showError(message, detail) {
  setState("error");
  appRoot.hidden = true;
  loader.error(message, detail, () => location.reload());
}

async function boot() {
  setState("loading");
  const app = import("./app.js");
  app.catch(() => {}); // handled below, after the engine
  const params = new URLSearchParams(location.search);
  const stallMs = Number(params.get("stall")) || undefined; // tests shorten the watchdog
  let engine;
  try {
    engine = await Engine.start(engineConfig(), {
      onProgress: (p) => loader.progress(p),
      stallMs,
    });
  } catch (err) {
    console.error(err);
    showError(err.message, err.detail);
    return;
  }
  performance.mark("junqi-engine"); // engine answered; the UI mounts next
  engine.onCrash((err) => showError(err.message, "The engine worker stopped."));
  window.junqi = { engine, build: BUILD }; // for tests, the console and later screens
  try {
    const { mount } = await app;
    appRoot.hidden = false;
    await mount(appRoot, engine);
  } catch (err) {
    console.error(err);
    showError(`The game screen could not be loaded: ${err.message}`, String(err.stack || ""));
    return;
  }
  loader.hide();
  performance.mark("junqi-ready"); // bench/page.py measures navigation -> here
  setState("ready");
  registerServiceWorker();
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
