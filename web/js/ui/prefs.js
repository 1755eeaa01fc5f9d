// The player's remembered choices, in localStorage (one JSON object). Never game secrets:
// only settings and the layouts this browser's player confirmed in games against the CPU.

const KEY = "junqi.prefs.v1";
let cache = null;

function load() {
  if (cache) return cache;
  try {
    cache = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
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
    localStorage.setItem(KEY, JSON.stringify(cache));
  } catch {
    // private mode or storage full: the choice lasts until the page closes
  }
}

/** Layouts are stored as seen from seat 0 so either seat can load them. */
export function saveLayout(variant, layout) {
  const all = get("layouts", {});
  all[variant] = layout;
  set("layouts", all);
}

export function loadLayout(variant) {
  return get("layouts", {})[variant] || null;
}
