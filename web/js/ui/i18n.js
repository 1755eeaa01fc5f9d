// Strings: one JSON file per language in web/i18n/. t("key", {param}) fills {param}.
// English is the fallback for a key a translation lacks.

import { assetURL } from "./assets.js";

export const LANGUAGES = ["en", "es", "pt", "zh", "ja"];

let strings = {};
let fallback = {};
let current = "en";
const listeners = [];
const loaded = new Map(); // lang -> Promise of its strings

function fetchStrings(lang) {
  if (!loaded.has(lang)) {
    const url = assetURL(`i18n/${lang}.json`);
    const promise = fetch(url).then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
      return response.json();
    });
    promise.catch(() => loaded.delete(lang));
    loaded.set(lang, promise);
  }
  return loaded.get(lang);
}

/** Strings the page already holds (English, from the build): setLanguage uses them as
 * they are instead of downloading them. */
export function provide(lang, table) {
  loaded.set(lang, Promise.resolve(table));
}

/** The language to start in: the saved choice, else the browser's first supported one. */
export function detect(saved) {
  if (LANGUAGES.includes(saved)) return saved;
  /** @type {{languages?: readonly string[], language?: string}} */
  const nav = globalThis.navigator || {};
  for (const tag of nav.languages || [nav.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

/** Start downloading a language's strings (and English, the fallback) without using them. */
export function prefetch(lang) {
  fetchStrings("en").catch(() => {});
  if (LANGUAGES.includes(lang) && lang !== "en") fetchStrings(lang).catch(() => {});
}

export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  const [en, own] = await Promise.all([
    fetchStrings("en"),
    lang === "en" ? null : fetchStrings(lang).catch(() => null),
  ]);
  use(lang, own || en, en);
}

/** Use these strings now (setLanguage after the download; Node tests directly). */
export function use(lang, own, en = own) {
  fallback = en;
  strings = own;
  current = own === en && lang !== "en" ? "en" : lang;
  if (globalThis.document) document.documentElement.lang = current === "zh" ? "zh-CN" : current;
  for (const fn of listeners) fn(current);
}

export const language = () => current;

export function onLanguage(fn) {
  listeners.push(fn);
}

export function has(key) {
  return key in strings || key in fallback;
}

export function t(key, params) {
  let text = strings[key] ?? fallback[key] ?? key;
  if (params) text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? params[name] : m));
  return text;
}

/** Piece names by the variant's piece family (its description's `family`: "junqi" for
 * Classic and Blind, "gunjin"). */
export function pieceName(family, kind) {
  return t(`piece.${family}.${kind}`);
}

export function shortName(family, kind) {
  // A short form only from the same language (never an English one in another language).
  const key = `short.${family}.${kind}`;
  return key in strings ? strings[key] : pieceName(family, kind);
}
