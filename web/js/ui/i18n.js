// Strings: one JSON file per language in web/i18n/. t("key", {param}) fills {param}.
// English is the fallback for a key a translation lacks.

export const LANGUAGES = ["en", "es", "pt", "zh", "ja"];

let strings = {};
let fallback = {};
let current = "en";
const listeners = [];

async function fetchStrings(lang) {
  const url = new URL(`../../i18n/${lang}.json`, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
  return response.json();
}

/** The language to start in: the saved choice, else the browser's first supported one. */
export function detect(saved) {
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  if (!Object.keys(fallback).length) fallback = await fetchStrings("en");
  strings = lang === "en" ? fallback : await fetchStrings(lang).catch(() => fallback);
  current = lang;
  document.documentElement.lang = lang === "zh" ? "zh-CN" : lang;
  for (const fn of listeners) fn(lang);
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

/** Piece names: family is "junqi" (classic, blind) or "gunjin". */
export const family = (variant) => (variant === "gunjin" ? "gunjin" : "junqi");

export function pieceName(variant, kind) {
  return t(`piece.${family(variant)}.${kind}`);
}

export function shortName(variant, kind) {
  // A short form only from the same language (never an English one in another language).
  const key = `short.${family(variant)}.${kind}`;
  return key in strings ? strings[key] : pieceName(variant, kind);
}
