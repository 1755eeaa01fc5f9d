// Marks follow their piece by the engine's events, vanish with it, belong to one seat;
// notes and saved-game summaries in words; statistics.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { MarkBook, markable, markChoices } from "../../web/js/ui/ctrl/marks.js";
import { noteText, unaccountedLines } from "../../web/js/ui/ctrl/notes.js";
import { describeSaved, resumeOptions, resumeViewer } from "../../web/js/ui/ctrl/saves.js";
import { curtainSeat } from "../../web/js/ui/ctrl/hotseat.js";
import { Stats, statsEntry } from "../../web/js/ui/ctrl/stats.js";
import { Settings } from "../../web/js/ui/ctrl/settings.js";
import { bridge, useLanguage, memoryStore } from "./support.mjs";

const engine = bridge();
after(() => engine.close());

const move = (from, to, result = null) => ({ type: "move", from, to, player: 0, combat: result && { result } });

test("a mark follows its piece, and goes when the piece is removed", () => {
  const book = new MarkBook();
  book.set(0, "c7", "major");
  book.set(1, "c6", "mine");
  const view = (history, board) => ({ phase: "play", history, board });
  const board = { c5: { owner: 1, kind: null }, c6: { owner: 0, kind: null } };
  book.follow(view([move("c7", "c5")], board));
  assert.equal(book.get(0, "c5"), "major");
  assert.equal(book.get(0, "c7"), null);
  assert.equal(book.get(1, "c6"), "mine"); // the other seat's mark stays where it was
  // The marked piece attacks and loses: its mark goes; the defender's stays.
  book.set(1, "c4", "?");
  book.follow(view([move("c7", "c5"), move("c5", "c4", "defender")], { c4: { owner: 0, kind: null } }));
  assert.equal(book.get(0, "c5"), null);
  assert.equal(book.get(1, "c4"), "?");
  // Won: the attacker's mark moves in, the defender's goes.
  const won = new MarkBook();
  won.set(0, "a1", "general");
  won.set(0, "a2", "bomb");
  won.apply(move("a1", "a2", "attacker"));
  assert.deepEqual([...won.forSeat(0)], [["a2", "general"]]);
  // Both removed.
  won.set(0, "a3", "captain");
  won.apply(move("a2", "a3", "both"));
  assert.equal(won.forSeat(0).size, 0);
});

test("a mark goes when the view names the piece, or a flip turns it over", () => {
  const book = new MarkBook();
  book.set(0, "b2", "flag");
  book.set(0, "b3", "?");
  book.follow({ phase: "play", history: [], board: { b2: { owner: 1, kind: "flag" }, b3: { owner: 1, kind: null } } });
  assert.equal(book.get(0, "b2"), null);
  assert.equal(book.get(0, "b3"), "?");
  book.follow({ phase: "play", history: [{ type: "flip", square: "b3" }], board: { b3: { owner: 1, kind: null } } });
  assert.equal(book.get(0, "b3"), null);
});

test("a blank board while the curtain comes down changes nothing; a saved book comes back", () => {
  const book = new MarkBook();
  book.follow({ phase: "play", history: [move("a1", "a2")], board: { a2: { owner: 1, kind: null } } });
  book.set(0, "a2", "engineer");
  book.follow({ phase: "play", history: [], board: {} });
  assert.equal(book.get(0, "a2"), "engineer");
  const again = new MarkBook(JSON.parse(JSON.stringify(book.toJSON())));
  assert.equal(again.get(0, "a2"), "engineer");
  assert.equal(again.seen, 1);
  assert.equal(new MarkBook({ marks: "x", seen: "y" }).forSeat(0).size, 0);
  assert.equal(new MarkBook({ seen: 0, marks: [{ "<img>": "x" }, {}] }).forSeat(0).size, 0);
});

test("only unknown enemy pieces are markable, by the seat that looks", () => {
  const view = { phase: "play", board: { a1: { owner: 0, kind: "major" }, a9: { owner: 1, kind: null },
    a8: { owner: 1, kind: "flag" }, c3: { owner: null, kind: null, down: true } } };
  assert.equal(markable(view, 0, "a9"), true);
  assert.equal(markable(view, 1, "a9"), false);
  assert.equal(markable(view, 0, "a8"), false);
  assert.equal(markable(view, 0, "a1"), false);
  assert.equal(markable(view, 0, "c3"), false);
  assert.equal(markable(view, null, "a9"), false);
  assert.equal(markable({ ...view, phase: "setup" }, 0, "a9"), false);
  assert.deepEqual(markChoices({ pieces: [{ id: "major" }, { id: "mine" }] }), ["major", "mine", "?"]);
});

test("note labels in words, and the unaccounted list", () => {
  useLanguage("en");
  const name = (k) => k[0].toUpperCase() + k.slice(1);
  assert.equal(noteText({ min: "major" }, name), "≥ Major");
  assert.equal(noteText({ max: "captain", also: ["bomb"] }, name), "≤ Captain / Bomb");
  assert.equal(noteText({ min: "colonel", max: "general" }, name), "Colonel–General");
  assert.equal(noteText({ not: ["mine"] }, name), "not Mine");
  assert.equal(noteText({ one_of: ["bomb", "mine"] }, name), "Bomb / Mine");
  assert.equal(noteText({ is: "flag" }, name), "= Flag");
  const pieces = { pieces: [{ id: "major", rank: 4, movable: true }, { id: "bomb", rank: null, movable: true },
    { id: "mine", rank: null, movable: false }, { id: "flag", rank: null, movable: false }] };
  assert.equal(noteText({ not: ["mine", "flag"] }, name, pieces), "mobile");
  assert.equal(noteText({ not: ["bomb", "mine", "flag"] }, name, pieces), "ranked");
  assert.equal(noteText({ not: ["mine"] }, name, pieces), "not Mine");
  // The few kinds it cannot be, when that is shorter than the label.
  assert.equal(noteText({ max: "major", also: ["bomb", "mine"] }, name, pieces, ["major", "bomb", "mine"]), "not Flag");
  assert.equal(noteText({ min: "major" }, name, pieces, ["major"]), "≥ Major");
  assert.equal(noteText({}, name), "");
  assert.equal(noteText({ not: [] }, name), ""); // anything at all: nothing to say
  const desc = { pieces: [{ id: "general" }, { id: "mine" }] };
  assert.deepEqual(unaccountedLines([{ kind: "mine", count: 3 }, { kind: "general", count: 1 }, { kind: "flag", count: 0 }],
    desc, name).map((l) => l.text), ["General ×1", "Mine ×3"]);
});

test("the engine's notes name only hidden enemy pieces, and words for each label", async () => {
  useLanguage("en");
  const reply = await engine.call({ op: "new_game", variant: "classic", seed: 4, cpu: { 1: "easy" }, viewer: 0 });
  await engine.call({ op: "deploy", game: reply.game, player: 0 });
  const notes = (await engine.call({ op: "notes", game: reply.game, player: 0 })).notes;
  const view = (await engine.call({ op: "view", game: reply.game, player: 0 })).view;
  for (const square of Object.keys(notes.pieces)) {
    assert.equal(view.board[square].owner, 1);
    assert.equal(view.board[square].kind, null);
  }
  const texts = Object.values(notes.pieces).map((n) => noteText(n.label, (k) => k));
  assert.ok(texts.some((text) => text.startsWith("not")), texts.join(", ")); // e.g. the front rank: not a mine
});

test("a saved game's summary, read and checked", () => {
  const cpu = describeSaved({ summary: { variant: "gunjin", ply: 12, phase: "play", cpus: { 0: "hard" },
    rules: { variant: "gunjin", preset: "standard", options: {} } } });
  assert.deepEqual([cpu.mode, cpu.level, cpu.human, cpu.ply], ["cpu", "hard", 1, 12]);
  assert.equal(resumeViewer(cpu), 1);
  assert.deepEqual(resumeOptions(cpu), { variant: "gunjin", mode: "cpu", human: 1, clock: false, level: "hard",
    preset: "standard" });
  const two = describeSaved({ summary: { variant: "classic", ply: 0, phase: "setup", cpus: {}, rules: null },
    page: { clock: true } });
  assert.deepEqual([two.mode, two.clock, resumeViewer(two)], ["hotseat", true, null]);
  for (const bad of [null, {}, { summary: { variant: "classic", ply: -1, phase: "play", cpus: {} } },
    { summary: { variant: "classic", ply: 1, phase: "over", cpus: {} } },
    { summary: { variant: "classic", ply: 1, phase: "play", cpus: { 0: "easy", 1: "easy" } } }]) {
    assert.equal(describeSaved(bad), null, JSON.stringify(bad));
  }
  assert.equal(describeSaved({ summary: { variant: "chess", ply: 1, phase: "play", cpus: {} } }, { classic: {} }), null);
  assert.equal(curtainSeat({ phase: "setup", deployed: [true, false] }), 1);
  assert.equal(curtainSeat({ phase: "play", turn: 1 }), 1);
});

test("statistics count won, drawn and lost per variant and opponent", () => {
  const data = new Map();
  const storage = { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => data.set(k, v), removeItem: (k) => data.delete(k) };
  const stats = new Stats(storage);
  assert.deepEqual(statsEntry({ mode: "cpu", level: "easy" }, { winner: 1 }, 1), { opponent: "cpu:easy", outcome: "won" });
  assert.deepEqual(statsEntry({ mode: "hotseat" }, { winner: 1 }, 1), { opponent: "hotseat", outcome: "lost" });
  assert.deepEqual(statsEntry({ mode: "friend" }, { winner: null }, 0), { opponent: "friend", outcome: "drawn" });
  stats.record("classic", "cpu:easy", "won");
  stats.record("classic", "cpu:easy", "lost");
  stats.record("gunjin", "hotseat", "drawn");
  stats.record("classic", "friend", "nonsense");
  assert.deepEqual(stats.rows(["classic", "blind", "gunjin"]), [
    { variant: "classic", opponent: "cpu:easy", won: 1, drawn: 0, lost: 1 },
    { variant: "gunjin", opponent: "hotseat", won: 0, drawn: 1, lost: 0 },
  ]);
  stats.reset();
  assert.deepEqual(stats.rows(), []);
  data.set("junqi.stats.v1", "{broken");
  assert.deepEqual(stats.rows(), []);
});

test("deduction notes are off until turned on, then remembered", () => {
  const store = memoryStore();
  assert.equal(new Settings(store, () => "en").notes, false);
  new Settings(store, () => "en").set("notes", true);
  assert.equal(new Settings(store, () => "en").notes, true);
});
