// The player's remembered choices, in localStorage (one JSON object). Never game secrets:
// only settings and the layouts this browser's player confirmed in games against the CPU.
// Without localStorage (Node tests, private mode) choices last until the page closes.

const KEY = "junqi.prefs.v1";
let cache = null;

function load() {
  if (cache) return cache;
  try {
    cache = JSON.parse(globalThis.localStorage?.getItem(KEY) || "{}") || {};
  } catch {
    cache = {};
  }
  if (typeof cache !== "object" || Array.isArray(cache)) cache = {};
  return cache;
}

export function get(name, fallback = undefined) {
  const value = load()[name];
  return value === undefined ? fallback : value;
}

export function set(name, value) {
  load()[name] = value;
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(cache));
  } catch {
    // private mode or storage full: the choice lasts until the page closes
  }
}

/** Forget everything (tests). */
export function reset() {
  cache = {};
}

// Layouts are kept per seat, exactly as the engine gave them: the page never turns a
// layout round (that would be rule knowledge), so each seat has its own "previous layout".

export function saveLayout(variant, seat, layout) {
  const all = get("layouts2", {});
  all[variant] = { ...(all[variant] || {}), [seat]: layout };
  set("layouts2", all);
}

export function loadLayout(variant, seat) {
  const saved = get("layouts2", {})[variant]?.[seat];
  if (saved) return saved;
  // Before per-seat layouts, the first seat's layout was kept under "layouts".
  return seat === 0 ? get("layouts", {})[variant] || null : null;
}
