// What the page puts on `window` for tests and the console (main.js, app.js).
export {};

declare global {
  interface Window {
    junqi: { link: unknown; build: typeof import("./build-info.js").BUILD; engine?: unknown };
    junqiUI: unknown;
  }
}
