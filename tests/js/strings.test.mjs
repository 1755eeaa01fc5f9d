// The page's strings: English comes with the start data (no request for it), another
// language is downloaded once, and a key it lacks falls back to English.

import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import * as i18n from "../../web/js/ui/i18n.js";
import { setBase } from "../../web/js/ui/assets.js";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** A fetch that serves one table per language file and counts what was asked. */
function fakeFetch(tables) {
  const asked = [];
  globalThis.fetch = async (url) => {
    const lang = /i18n\/(\w+)\.json$/.exec(String(url))?.[1];
    asked.push(lang);
    const table = tables[lang];
    return { ok: Boolean(table), status: table ? 200 : 404, json: async () => table };
  };
  return asked;
}

test("English given with the start data is used without a download; Spanish is fetched once", async () => {
  setBase("https://example.test/assets/b1/");
  const asked = fakeFetch({ es: { "start.title": "Nueva partida" } });
  i18n.provide("en", { "start.title": "New game", "start.play": "Play" });
  await i18n.setLanguage("en");
  assert.deepEqual(asked, []);
  assert.equal(i18n.t("start.title"), "New game");

  await i18n.setLanguage("es");
  await i18n.setLanguage("es");
  assert.deepEqual(asked, ["es"]); // English still not asked for, Spanish once
  assert.equal(i18n.language(), "es");
  assert.equal(i18n.t("start.title"), "Nueva partida");
  assert.equal(i18n.t("start.play"), "Play"); // the key Spanish lacks, in English
});
