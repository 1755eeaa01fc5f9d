// Service worker (template: build.py fills in the version and the precache list).
// After the first visit every file of this build is in a cache named after the build, so
// the game starts and plays with the network off. URLs under assets/<build>/ and
// pyodide/<version>/ never change content, so they are served cache-first and copied
// from an older build's cache instead of being downloaded again; the page itself
// ("./") is network-first so a new deploy shows up as soon as the network is there.
// Requests for other URLs are not intercepted at all.

const VERSION = "%%VERSION%%";
const PREFIX = "junqi-";
const CACHE = PREFIX + VERSION;
const PRECACHE = %%PRECACHE%%;

const scoped = (rel) => new URL(rel, self.registration.scope).href;
const PAGE = scoped("./");
const PRECACHED = new Set(PRECACHE.map(scoped));
let ownCache = null; // this build's cache, opened once: caches.match would search them all
const cache = () => (ownCache ??= caches.open(CACHE));

self.addEventListener("install", (event) => {
  // Static routes (where the browser has them): this build's files come straight from its
  // cache, without running this script for each request, which on a return visit makes the
  // start screen ready sooner (bench/page.py). The runtime's wasm keeps its own rule below,
  // and a file missing from the cache falls back to the network.
  const under = (rel) => new URL(scoped(rel)).pathname;
  const routes = event.addRoutes?.([
    { condition: { urlPattern: { pathname: under("pyodide/*.wasm") } }, source: "fetch-event" },
    { condition: { urlPattern: { pathname: under("assets/*") } }, source: { cacheName: CACHE } },
    { condition: { urlPattern: { pathname: under("pyodide/*") } }, source: { cacheName: CACHE } },
  ]);
  routes?.catch((err) => console.warn("static routes not added:", err));
  event.waitUntil(
    (async () => {
      const own = await cache();
      const older = (await caches.keys()).filter((k) => k.startsWith(PREFIX) && k !== CACHE);
      await Promise.all(
        PRECACHE.map(async (rel) => {
          const url = scoped(rel);
          if (url !== PAGE) {
            if (await own.match(url)) return;
            for (const name of older) {
              const hit = await (await caches.open(name)).match(url);
              if (hit) return own.put(url, hit);
            }
          }
          const response = await fetch(url, { cache: url === PAGE ? "no-cache" : "default" });
          if (!response.ok) throw new Error(`precache: HTTP ${response.status} for ${url}`);
          await own.put(url, response);
        }),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      // The page request starts while this worker wakes up, instead of after.
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(self.registration.scope)) return;
  if (request.mode === "navigate") {
    event.respondWith(
      (async () => {
        try {
          return (await event.preloadResponse) || (await fetch(request));
        } catch {
          return (await (await cache()).match(PAGE)) || Response.error();
        }
      })(),
    );
    return;
  }
  // Only this build's files; anything else (build.json, tools, tests) goes to the network
  // untouched.
  if (!PRECACHED.has(request.url)) return;
  if (request.url.endsWith(".wasm")) {
    // The runtime from the browser's HTTP cache when it can: V8 keeps compiled code for
    // WebAssembly only beside HTTP-cache entries, so this start is much faster than one
    // from Cache Storage, which is the fallback when the network is off.
    event.respondWith(
      fetch(request).catch(async () => (await (await cache()).match(request.url)) || Response.error()),
    );
    return;
  }
  event.respondWith(
    (async () => (await (await cache()).match(request.url)) || fetch(request))(),
  );
});
