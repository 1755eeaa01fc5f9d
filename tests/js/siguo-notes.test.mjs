// Four seats (Siguo): marks on any other hidden army, kept per seat; the deduction notes army
// by army in words; results counted for the team. Run: node --test tests/js/

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { MarkBook, markable } from "../../web/js/ui/ctrl/marks.js";
import { armyLines, armyName, notedPieces, noteArmies } from "../../web/js/ui/ctrl/notes.js";
import { Stats, statsEntry, teamOpponent } from "../../web/js/ui/ctrl/stats.js";
import * as i18n from "../../web/js/ui/i18n.js";
import { bridge, useLanguage } from "./support.mjs";

const engine = bridge();
after(() => engine.close());

const DESC = { colours: ["red", "blue", "orange", "teal"], pieces: [{ id: "general" }, { id: "bomb" }] };

/** A Siguo game with CPUs at East and West, both people deployed: South's and North's views. */
async function siguoGame(visibility = "dark4") {
  const reply = await engine.call({ op: "new_game", variant: "siguo", seed: 7, options: { visibility },
    cpu: { 1: "easy", 3: "easy" }, viewer: 0 });
  assert.ok(reply.ok, JSON.stringify(reply.error));
  for (const player of [0, 2]) await engine.call({ op: "deploy", game: reply.game, player });
  const view = async (player) => (await engine.call({ op: "view", game: reply.game, player })).view;
  const notes = async (player) => (await engine.call({ op: "notes", game: reply.game, player })).notes;
  return { game: reply.game, view, notes };
}

test("with four seats a seat marks any other army whose ranks it does not see", async () => {
  const dark = await siguoGame("dark4");
  const south = await dark.view(0);
  assert.equal(south.phase, "play");
  const owners = (view, seat) => new Set(Object.keys(view.board).filter((sq) => markable(view, seat, sq))
    .map((sq) => view.board[sq].owner));
  assert.deepEqual([...owners(south, 0)].sort(), [1, 2, 3]); // the partner's pieces too, under dark4
  assert.equal(markable(south, 0, Object.keys(south.board).find((sq) => south.board[sq].owner === 0)), false);
  const open = await siguoGame("team_open");
  const north = await open.view(2);
  assert.deepEqual([...owners(north, 2)].sort(), [1, 3]); // the partner's ranks are shown: nothing to guess
});

test("marks on the cross board are kept per seat, follow their piece and come back with the save", () => {
  const book = new MarkBook();
  book.set(0, "Ec6", "general");
  book.set(2, "Ec6", "bomb");
  book.set(3, "Sa6", "?");
  book.set(4, "Sa6", "?"); // no fifth seat
  const move = (from, to, result = null) => ({ type: "move", from, to, player: 1, combat: result && { result } });
  const board = { C23: { owner: 1, kind: null }, Sa6: { owner: 0, kind: null } };
  book.follow({ phase: "play", history: [move("Ec6", "C23")], board });
  assert.equal(book.get(0, "C23"), "general");
  assert.equal(book.get(2, "C23"), "bomb");
  assert.equal(book.get(3, "Sa6"), "?");
  assert.equal(book.forSeat(4).size, 0);
  const again = new MarkBook(JSON.parse(JSON.stringify(book.toJSON())));
  assert.deepEqual([...again.forSeat(2)], [["C23", "bomb"]]);
  assert.deepEqual([...again.forSeat(3)], [["Sa6", "?"]]);
  // An army that goes out leaves the board: its marks go with it.
  again.follow({ phase: "play", history: [move("Ec6", "C23"), { type: "resign", player: 1,
    out: [{ player: 1, reason: "surrender" }] }], board: { Sa6: { owner: 0, kind: null } } });
  assert.equal(again.get(0, "C23"), null);
  assert.equal(again.get(3, "Sa6"), "?");
});

test("the notes come army by army, each named by seat and colour letter in every language", async () => {
  useLanguage("en");
  const dark = await siguoGame("dark4");
  const notes = await dark.notes(0);
  const armies = noteArmies(notes);
  assert.deepEqual(armies.map((a) => a.seat), [1, 2, 3]);
  assert.equal(Object.keys(notedPieces(notes)).length, 75); // every piece of the three others
  const lines = armyLines(armies, DESC, (k) => k);
  assert.deepEqual(lines.map((l) => l.army), ["East", "North", "West"]);
  assert.match(lines[0].text, /field_marshal ×1/);
  assert.deepEqual(armyLines([{ seat: 1, pieces: {}, unaccounted: [] }], DESC, (k) => k)[0].text,
    "all accounted for");
  for (const lang of i18n.LANGUAGES) {
    useLanguage(lang);
    const names = [0, 1, 2, 3].map((seat) => armyName(DESC, seat));
    assert.equal(new Set(names).size, 4, lang);
    for (const name of names) assert.ok(!name.includes("side."), `${lang}: ${name}`);
  }
  useLanguage("en");
  // two players: one army, the enemy's, as before
  const two = noteArmies({ pieces: { a9: { kinds: ["bomb"] } }, unaccounted: [] });
  assert.deepEqual(two, [{ seat: null, pieces: { a9: { kinds: ["bomb"] } }, unaccounted: [] }]);
  assert.deepEqual(Object.keys(notedPieces({ pieces: { a9: {} } })), ["a9"]);
});

test("a four-seat result counts for the team of the person at the screen", () => {
  assert.deepEqual(statsEntry({ mode: "cpu", opponent: "cpu:easy" }, { winner: 0 }, 2, 4),
    { opponent: "cpu:easy", outcome: "won" }); // North won with South
  assert.deepEqual(statsEntry({ mode: "cpu", opponent: "cpu:easy" }, { winner: 1 }, 2, 4).outcome, "lost");
  assert.deepEqual(statsEntry({ mode: "cpu", level: "easy" }, { winner: 1 }, 3, 4).outcome, "won");
  assert.equal(statsEntry({ mode: "hotseat" }, { winner: 0 }, null, 4).outcome, "won"); // South and North's
  assert.equal(statsEntry({ mode: "cpu", opponent: "cpu:easy" }, { winner: null }, 0, 4).outcome, "drawn");
  assert.equal(teamOpponent(["human", "medium", "easy", "easy"], 0), "cpu:easy/medium");
  assert.equal(teamOpponent(["human", "easy", "human", "easy"], 2), "cpu:easy");
  assert.equal(teamOpponent(["human", "human", "easy", "easy"], 0), "hotseat");
  const data = new Map();
  const stats = new Stats({ getItem: (k) => data.get(k) ?? null, setItem: (k, v) => data.set(k, v),
    removeItem: (k) => data.delete(k) });
  stats.record("siguo", "cpu:easy/medium", "won");
  stats.record("classic", "cpu:easy", "lost");
  assert.deepEqual(stats.rows(["classic", "blind", "gunjin", "siguo"]).map((r) => [r.variant, r.opponent, r.won]),
    [["classic", "cpu:easy", 0], ["siguo", "cpu:easy/medium", 1]]);
});
