// StartController: the start screen's choices from static data, remembered, and the rules
// chooser built from whatever presets and options a variant describes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { StartController, offeredLevels } from "../../web/js/ui/ctrl/start.js";
import { useLanguage, memoryStore } from "./support.mjs";

useLanguage("en");

const INFO = { variants: ["classic", "blind", "gunjin"], levels: ["random", "easy", "medium", "hard"] };
const RULES = {
  default_preset: "standard",
  presets: [
    { id: "standard", name: "Standard", options: { stations: true, quiet: "100" } },
    { id: "quick", name: "Quick", options: { stations: false, quiet: "50" } },
  ],
  options: [
    { id: "stations", name: "Front stations", type: "bool", default: true },
    { id: "quiet", name: "Quiet limit", type: "choice", choices: ["50", "100"], default: "100" },
  ],
};
const VARIANTS = { classic: { id: "classic", ...RULES }, blind: { id: "blind" }, gunjin: { id: "gunjin" } };

const make = (store = memoryStore()) => new StartController({ info: INFO, variants: VARIANTS, store });

test("levels: Easy, Medium, Hard; Random only without Easy", () => {
  assert.deepEqual(offeredLevels(INFO.levels), ["easy", "medium", "hard"]);
  assert.deepEqual(offeredLevels(["random", "medium"]), ["random", "medium"]);
});

test("defaults, then every choice is remembered", () => {
  const store = memoryStore();
  const s = make(store);
  assert.deepEqual(s.gameOptions(),
    { variant: "classic", mode: "cpu", human: 0, clock: false, level: "easy", preset: "standard" });
  s.choose("variant", "gunjin");
  s.choose("level", "hard");
  s.choose("seat", 1);
  s.choose("variant", "nonsense");
  const again = make(store);
  assert.equal(again.variant, "gunjin");
  assert.deepEqual(again.gameOptions(),
    { variant: "gunjin", mode: "cpu", human: 1, clock: false, level: "hard" });
  again.choose("mode", "hotseat");
  again.choose("clock", true);
  assert.deepEqual(again.gameOptions(), { variant: "gunjin", mode: "hotseat", human: 0, clock: true });
});

test("play first or second at every level", () => {
  const s = make();
  for (const level of s.levels()) {
    for (const seat of [0, 1]) {
      s.choose("level", level);
      s.choose("seat", seat);
      const o = s.gameOptions();
      assert.equal(o.level, level);
      assert.equal(o.human, seat);
    }
  }
});

test("rules: presets, options under a preset, customised", () => {
  const s = make();
  assert.equal(s.preset(), "standard");
  assert.deepEqual(s.values(), { stations: true, quiet: "100" });
  assert.equal(s.rulesName(), "Standard");
  s.choosePreset("quick");
  assert.deepEqual(s.values(), { stations: false, quiet: "50" });
  assert.deepEqual(s.changes(), {});
  assert.deepEqual(s.gameOptions().preset, "quick");
  assert.equal(s.gameOptions().rules, undefined, "a plain preset sends no options");
  s.setOption("stations", true);
  s.setOption("quiet", "75"); // not a choice: ignored
  assert.deepEqual(s.changes(), { stations: true });
  assert.equal(s.rulesName(), "Quick, customised");
  assert.deepEqual(s.gameOptions().rules, { stations: true, quiet: "50" });
  s.choosePreset("standard"); // a preset resets the changes
  assert.deepEqual(s.changes(), {});
  // Variants without presets: standard rules, nothing sent.
  s.choose("variant", "blind");
  assert.equal(s.preset(), null);
  assert.equal(s.rulesName(), "Standard rules");
  assert.equal("preset" in s.gameOptions(), false);
});
