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
    assert.equal(over(h, 0, "flag_captured"), "Game over: Red wins. Red captured the enemy flag.");
    assert.equal(over(h, 1, "occupation"), "Game over: Blue wins. Blue occupied the enemy headquarters.");
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

// Blind on one device: the seats' names carry the colour play gave them ("First player (red)").
const BLIND = { id: "blind", family: "junqi", sides: ["First", "Second"], colours: null,
  sides_are_colours: false, pieces: [], rules: { draw_offers: true, flips: true } };

test("a side's name with its colour reads right wherever it goes: never \"First player (red)'s\"", () => {
  for (const lang of i18n.LANGUAGES) {
    useLanguage(lang);
    const h = newGame({ engine: null, desc: BLIND, options: { variant: "blind", mode: "hotseat" },
      store: memoryStore() });
    h.view = { phase: "play", result: null, colours: ["red", "blue"], history: [] };
    h.ui = "curtain";
    h.curtainSeat = 1;
    const { text, button } = h.curtainText();
    const lines = [text, button, over(h, 0, "flag_captured"), over(h, 1, "occupation")];
    for (const line of lines) assert.doesNotMatch(line, /[)）]'s/, `${lang}: ${line}`);
    assert.ok(button.includes(h.sideName(1)), `${lang}: ${button}`);
    if (lang === "en") {
      assert.equal(button, "Second player (blue): start your turn");
      assert.equal(over(h, 0, "flag_captured"),
        "Game over: First player (red) wins. First player (red) captured the enemy flag.");
    }
  }
});

test("a refused setup names the square the piece would go to as such, not as the place it must stand", () => {
  for (const lang of i18n.LANGUAGES) {
    useLanguage(lang);
    const g = cpuGame();
    for (const code of ["flag_not_in_hq", "mine_not_in_back_ranks"]) {
      const text = g.refusal({ code, square: "c3", message: "(the engine's English)" });
      assert.ok(text.includes("c3") && !text.includes("engine's"), `${lang}: ${text}`);
      // "(c3)" right after "headquarters" reads as if c3 were one
      assert.doesNotMatch(text, /[(（]c3[)）]/, `${lang}: ${text}`);
    }
  }
  useLanguage("en");
  assert.equal(cpuGame().refusal({ code: "flag_not_in_hq", square: "c3" }),
    "Swap refused: the flag must stand in one of your two headquarters, not on c3.");
});

test("Spanish and Portuguese words agree with every piece's gender (the flag is feminine)", () => {
  for (const lang of ["es", "pt"]) {
    useLanguage(lang);
    const g = cpuGame();
    g.desc = { ...DESC, family: "junqi" };
    const ctx = g.ctx();
    const flag = i18n.pieceName("junqi", "flag");
    const engineer = i18n.pieceName("junqi", "engineer");
    const lines = [];
    for (const mine of ["flag", "engineer"]) {
      for (const result of ["attacker", "defender", "both"]) {
        lines.push(words.combatText({ player: 0, combat: { square: "b1", result, attacker: mine,
          defender: "field_marshal" } }, ctx));
      }
    }
    for (const piece of [flag, engineer]) {
      lines.push(i18n.t("setup.picked", { piece, sq: "b1" }), i18n.t("grid.yours", { piece }));
    }
    lines.push(i18n.t("setup.swapped", { a: engineer, b: flag }));
    lines.push(i18n.t("replay.combat.both", { side: "A", other: "B", attacker: engineer, defender: flag, sq: "b1" }));
    const text = lines.join("\n");
    // a masculine word before or after the flag, a feminine one after the engineer
    const wrong = lang === "pt"
      ? [new RegExp(`\\bseu ${flag}`, "i"), new RegExp(`${engineer} em b1 escolhida`),
        /são ambas removidas/]
      : [new RegExp(`${engineer} en b1 elegida`), new RegExp(`Tu ${engineer} y la pieza rival se eliminan las dos`),
        new RegExp(`${engineer} de A y ${flag} de B se eliminan las dos \\(`)];
    for (const pattern of wrong) assert.doesNotMatch(text, pattern, `${lang}: ${text}`);
  }
  useLanguage("en");
});
