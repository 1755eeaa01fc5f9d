// Display settings, remembered: what pieces show (Chinese/Japanese characters or words),
// rank numbers, sound, the perspective view and its tilt, deduction notes, the colours
// (light, dark, or the system's). No DOM.
//
// "labels" defaults to the characters in Chinese and Japanese and to words elsewhere, until
// the player chooses (then the choice stays, whatever the language).

const CHARACTER_LANGUAGES = ["zh", "ja"];

/** The perspective view's tilt in degrees: the player sets it between these. */
export const TILT = { min: 10, max: 50, step: 5, standard: 35 };

/** The page's colours: the system's setting (prefers-color-scheme), or always light or dark. */
export const THEMES = ["system", "light", "dark"];

export class Settings {
  /** store: {get(name, fallback), set(name, value)}; language: () => "en" | ... */
  constructor(store, language) {
    this.store = store;
    this.language = language;
    this.listeners = [];
  }

  /** "characters" (司令, 大将) or "words" (Marshal, General). */
  get labels() {
    const saved = this.store.get("labels");
    if (saved === "characters" || saved === "words") return saved;
    if (this.store.get("glyphs") === true) return "characters"; // the old checkbox
    return CHARACTER_LANGUAGES.includes(this.language()) ? "characters" : "words";
  }

  get ranks() {
    return Boolean(this.store.get("ranks", false));
  }

  get sound() {
    return this.store.get("sound", true) !== false;
  }

  /** Deduction notes on hidden enemy pieces (off until the player turns them on). */
  get notes() {
    return Boolean(this.store.get("notes", false));
  }

  get view3d() {
    return Boolean(this.store.get("view3d", false));
  }

  /** How far the perspective view tilts the board, in degrees. */
  get tilt() {
    const saved = Number(this.store.get("tilt", TILT.standard));
    return Number.isFinite(saved) ? clampTilt(saved) : TILT.standard;
  }

  /** "system" (follows the system's light or dark setting), "light" or "dark". */
  get theme() {
    const saved = this.store.get("theme");
    return THEMES.includes(saved) ? saved : "system";
  }

  set(name, value) {
    if (name === "labels" && !["characters", "words"].includes(value)) return;
    if (name === "theme" && !THEMES.includes(value)) return;
    if (name === "tilt" && !Number.isFinite(Number(value))) return;
    const stored = name === "labels" || name === "theme" ? value
      : name === "tilt" ? clampTilt(Number(value)) : Boolean(value);
    this.store.set(name, stored);
    for (const fn of this.listeners) fn(name);
  }

  subscribe(fn) {
    this.listeners.push(fn);
    return () => (this.listeners = this.listeners.filter((x) => x !== fn));
  }

  /** What the board needs to know. */
  snapshot() {
    return { labels: this.labels, ranks: this.ranks, view3d: this.view3d, sound: this.sound };
  }
}

function clampTilt(degrees) {
  const stepped = Math.round(degrees / TILT.step) * TILT.step;
  return Math.min(TILT.max, Math.max(TILT.min, stepped));
}
