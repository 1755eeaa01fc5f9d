// Display settings: what pieces show follows the language until the player chooses.

import { test } from "node:test";
import assert from "node:assert/strict";
import { Settings, TILT } from "../../web/js/ui/ctrl/settings.js";
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
