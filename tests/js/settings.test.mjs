// Display settings: what pieces show follows the language until the player chooses; the
// theme follows the system's until the player chooses.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { Settings, TILT, THEMES } from "../../web/js/ui/ctrl/settings.js";
import { Theme, resolveTheme } from "../../web/js/ui/view/theme.js";
import { memoryStore } from "./support.mjs";

test("pieces show characters in Chinese and Japanese, words elsewhere, until chosen", () => {
  let lang = "en";
  const store = memoryStore();
  const settings = new Settings(store, () => lang);
  assert.equal(settings.labels, "words");
  for (const code of ["zh", "ja"]) {
    lang = code;
    assert.equal(settings.labels, "characters", code);
  }
  lang = "es";
  assert.equal(settings.labels, "words");
  settings.set("labels", "characters");
  assert.equal(settings.labels, "characters");
  lang = "ja";
  settings.set("labels", "words");
  assert.equal(settings.labels, "words", "a choice stays, whatever the language");
  settings.set("labels", "nonsense");
  assert.equal(settings.labels, "words");
});

test("the old 'traditional characters' checkbox carries over", () => {
  const store = memoryStore();
  store.set("glyphs", true);
  assert.equal(new Settings(store, () => "en").labels, "characters");
});

test("rank numbers, sound and the perspective view are remembered", () => {
  const store = memoryStore();
  const settings = new Settings(store, () => "en");
  assert.deepEqual(settings.snapshot(), { labels: "words", ranks: false, view3d: false, sound: true });
  const seen = [];
  settings.subscribe((name) => seen.push(name));
  settings.set("ranks", true);
  settings.set("sound", false);
  settings.set("view3d", true);
  assert.deepEqual(seen, ["ranks", "sound", "view3d"]);
  const again = new Settings(store, () => "en");
  assert.deepEqual(again.snapshot(), { labels: "words", ranks: true, view3d: true, sound: false });
});

test("the perspective view's tilt is the player's, kept within its range and steps", () => {
  const store = memoryStore();
  const settings = new Settings(store, () => "en");
  assert.equal(settings.tilt, TILT.standard);
  settings.set("tilt", 20);
  assert.equal(new Settings(store, () => "en").tilt, 20, "remembered");
  settings.set("tilt", 90);
  assert.equal(settings.tilt, TILT.max);
  settings.set("tilt", -5);
  assert.equal(settings.tilt, TILT.min);
  settings.set("tilt", 27);
  assert.equal(settings.tilt, 25, "in steps of five degrees");
  settings.set("tilt", "nonsense");
  assert.equal(settings.tilt, 25, "a value that is no number is refused");
  store.set("tilt", "garbage");
  assert.equal(settings.tilt, TILT.standard, "a damaged saved value falls back");
});

test("the theme follows the system until the player chooses light or dark, and is remembered", () => {
  const store = memoryStore();
  const settings = new Settings(store, () => "en");
  assert.equal(settings.theme, "system");
  const seen = [];
  settings.subscribe((name) => seen.push(name));
  settings.set("theme", "dark");
  assert.equal(new Settings(store, () => "en").theme, "dark", "remembered");
  settings.set("theme", "purple");
  assert.equal(settings.theme, "dark", "an unknown theme is refused");
  settings.set("theme", "light");
  assert.deepEqual(seen, ["theme", "theme"]);
  store.set("theme", 7);
  assert.equal(settings.theme, "system", "a damaged saved value falls back to the system's");
  assert.deepEqual(THEMES, ["system", "light", "dark"]);
});

/** A stand-in for matchMedia("(prefers-color-scheme: dark)") whose answer the test sets. */
function fakeMedia(matches) {
  const listeners = [];
  return {
    matches,
    addEventListener: (type, fn) => listeners.push(fn),
    change(now) {
      this.matches = now;
      for (const fn of listeners) fn();
    },
  };
}

test("the page shows the chosen theme, and the system's as it changes while the choice is System", () => {
  const store = memoryStore();
  const settings = new Settings(store, () => "en");
  const root = { dataset: {} };
  const media = fakeMedia(false);
  const theme = new Theme(settings, /** @type {any} */ (root), media);
  assert.equal(root.dataset.theme, "light");
  media.change(true);
  assert.equal(root.dataset.theme, "dark", "System follows the system's setting");
  settings.set("theme", "light");
  theme.apply();
  assert.equal(root.dataset.theme, "light", "the choice wins over the system's");
  media.change(false);
  media.change(true);
  assert.equal(root.dataset.theme, "light");
  settings.set("theme", "dark");
  theme.apply();
  media.change(false);
  assert.equal(root.dataset.theme, "dark");
  for (const [choice, dark, shown] of [["system", true, "dark"], ["system", false, "light"],
    ["light", true, "light"], ["dark", false, "dark"], ["nonsense", true, "dark"]]) {
    assert.equal(resolveTheme(choice, dark), shown, `${choice} ${dark}`);
  }
});

test("before the first paint, js/theme.js shows what the menu's choice will show", () => {
  const script = readFileSync(new URL("../../web/js/theme.js", import.meta.url), "utf8");
  const paint = (saved, systemDark, storage = true) => {
    const root = { dataset: {} };
    const items = { "junqi.prefs.v1": saved === undefined ? null : JSON.stringify({ lang: "en", theme: saved }) };
    runInNewContext(script, {
      document: { documentElement: root },
      matchMedia: (query) => ({ matches: query === "(prefers-color-scheme: dark)" && systemDark }),
      localStorage: storage ? { getItem: (key) => items[key] ?? null }
        : { getItem() { throw new Error("no storage"); } },
    });
    return root.dataset.theme;
  };
  for (const [saved, systemDark] of [[undefined, false], [undefined, true], ["system", true],
    ["system", false], ["light", true], ["dark", false], ["garbage", true]]) {
    const store = memoryStore();
    if (saved !== undefined) store.set("theme", saved);
    const later = resolveTheme(new Settings(store, () => "en").theme, systemDark);
    assert.equal(paint(saved, systemDark), later, `${saved} ${systemDark}`);
  }
  assert.equal(paint(undefined, true, false), "dark", "without storage: the system's");
  // The key it reads is the one ui/prefs.js writes.
  const prefs = readFileSync(new URL("../../web/js/ui/prefs.js", import.meta.url), "utf8");
  assert.match(prefs, /const KEY = "junqi\.prefs\.v1";/);
});
