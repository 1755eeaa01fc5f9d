// Display settings: what pieces show follows the language until the player chooses.

import { test } from "node:test";
import assert from "node:assert/strict";
import { Settings } from "../../web/js/ui/ctrl/settings.js";
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
