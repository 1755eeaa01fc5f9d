// Words from the right seat, in every language: "You resigned." (never "You resigns."),
// and an end that reads right from the winner's and from the loser's side.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { newGame } from "../../web/js/ui/ctrl/session.js";
import * as words from "../../web/js/ui/ctrl/words.js";
import * as i18n from "../../web/js/ui/i18n.js";
import { useLanguage, memoryStore } from "./support.mjs";

after(() => useLanguage("en"));

const DESC = { id: "classic", family: "junqi", sides: ["Red", "Blue"], colours: ["red", "blue"],
  sides_are_colours: true, pieces: [], rules: { draw_offers: true } };

function game(options) {
  const g = newGame({ engine: null, desc: DESC, options, store: memoryStore() });
  g.view = { result: null, colours: null, history: [] };
  return g;
}

const cpuGame = () => game({ variant: "classic", mode: "cpu", level: "easy", human: 0 });
const over = (g, winner, reason) => {
  g.ui = "over";
  g.view.result = { winner, reason };
  return g.statusText();
};

test("a result reads right from the winner's and from the loser's seat", () => {
  useLanguage("en");
  const g = cpuGame();
  assert.equal(over(g, 1, "occupation"), "Game over: you lose. CPU occupied your headquarters.");
  assert.equal(over(g, 0, "occupation"), "Game over: you win! You occupied the enemy headquarters.");
  assert.equal(over(g, 1, "flag_captured"), "Game over: you lose. CPU captured your flag.");
  assert.equal(over(g, 1, "immobilised"), "Game over: you lose. You have no legal move.");
  assert.equal(over(g, 0, "immobilised"), "Game over: you win! CPU has no legal move.");
  assert.equal(over(g, 1, "resignation"), "Game over: you lose. You resigned.");
  assert.equal(over(g, null, "agreed_draw"), "Game over: draw — agreed by both players.");
  // Two players on one device: names, not "you", from either seat.
  const h = game({ variant: "classic", mode: "hotseat" });
  for (const viewer of [0, 1]) {
    h.viewer = viewer;
    assert.equal(over(h, 0, "flag_captured"), "Game over: Red wins. Red captured Blue's flag.");
    assert.equal(over(h, 1, "occupation"), "Game over: Blue wins. Blue occupied Red's headquarters.");
  }
});

test("the player at the screen is never a third person", () => {
  useLanguage("en");
  const g = cpuGame();
  const ctx = g.ctx();
  const ev = (type, player) => ({ type, player, ply: 4, action: `${type}:${player}` });
  assert.equal(words.eventText(ev("offer", 0), ctx), "You offer a draw.");
  assert.equal(words.eventText(ev("resign", 0), ctx), "You resign.");
  assert.equal(words.eventText(ev("decline", 1), ctx), "CPU declines the draw.");
  assert.equal(words.moveLine(ev("resign", 0), ctx), "You resign");
  assert.equal(words.moveLine(ev("offer", 1), ctx), "CPU offers a draw");
  assert.equal(words.ownText(ev("resign", 0), ctx), "You resigned.");
  assert.equal(words.ownText(ev("offer", 0), ctx), "You offered a draw.");
});

test("every language has the 'you' forms", () => {
  const forms = [];
  for (const reason of ["immobilised", "resignation", "timeouts", "flag_captured", "occupation"]) {
    forms.push(`reason.${reason}.you_win`, `reason.${reason}.you_lose`);
  }
  for (const key of ["say.offer", "say.accept", "say.decline", "say.resign", "say.timeout",
    "say.move", "say.flip", "list.offer", "list.accept", "list.decline", "list.resign"]) {
    forms.push(`${key}.you`);
  }
  for (const lang of i18n.LANGUAGES) {
    useLanguage(lang);
    const g = cpuGame();
    for (const key of forms) assert.ok(i18n.has(key) && i18n.t(key) !== key, `${lang}: ${key}`);
    // The loser's and the winner's line differ: the same end is told from each seat.
    assert.notEqual(over(g, 1, "occupation"), over(g, 0, "occupation"));
    const you = i18n.t("side.you");
    if (lang === "en" || lang === "es") {
      // No third-person verb after "You"/"Tú" anywhere the player is the subject.
      const text = [over(g, 1, "immobilised"), over(g, 1, "resignation"),
        words.eventText({ type: "offer", player: 0, ply: 1 }, g.ctx())].join(" ");
      assert.doesNotMatch(text, new RegExp(`${you} (has|resigns|offers|tiene|ofrece|se rinde)`), text);
    }
  }
});
