// Where the board puts each square: Siguo's cross turned for each seat (its army at the
// bottom, the others round it in turn order), every post at its own point inside the
// drawing, the corner railways joining the right posts, the arrow keys following the
// turned layout; the two-player boards as before.

import { test } from "node:test";
import assert from "node:assert/strict";
import { makeGeometry, neighbour, stretchFor, isCross } from "../../web/js/ui/view/geometry.js";
import { useEngine } from "./support.mjs";

const ctx = useEngine();
const LETTERS = ["S", "E", "N", "W"];

async function describe(variant) {
  return (await ctx.engine.call({ op: "describe", variant })).description;
}

/** The middle of a list of points. */
function middle(points) {
  const n = points.length;
  return { x: points.reduce((a, p) => a + p.x, 0) / n, y: points.reduce((a, p) => a + p.y, 0) / n };
}

/** Where a seat's army lies on screen, seen from the centre post C22. */
function sideOf(geo, seat) {
  const c = geo.pos("C22");
  const m = middle([...geo.squares.values()].filter((sq) => sq.half === seat));
  const dx = m.x - c.x;
  const dy = m.y - c.y;
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? "right" : "left";
  return dy > 0 ? "bottom" : "top";
}

test("each seat sees its own army at the bottom, the others round it in turn order", async () => {
  const desc = await describe("siguo");
  assert.ok(isCross(desc));
  for (let seat = 0; seat < 4; seat++) {
    const geo = makeGeometry(desc, seat);
    const sides = [0, 1, 2, 3].map((k) => sideOf(geo, (seat + k) % 4));
    assert.deepEqual(sides, ["bottom", "right", "top", "left"], `seat ${seat}`);
    // Its own army's back row is the lowest row of the drawing, a1 on the left, e1 on the right.
    const own = (file, rank) => geo.pos(`${LETTERS[seat]}${file}${rank}`);
    const lowest = Math.max(...[...geo.squares.values()].map((sq) => sq.y));
    for (const file of "abcde") assert.equal(own(file, 1).y, lowest, `seat ${seat} ${file}1`);
    assert.ok(own("a", 1).x < own("e", 1).x && own("a", 6).y < own("a", 1).y);
  }
});

test("all 129 posts at distinct points inside the drawing, with room for a tile", async () => {
  const desc = await describe("siguo");
  for (let seat = 0; seat < 4; seat++) {
    const geo = makeGeometry(desc, seat);
    const points = [...geo.squares.values()];
    assert.equal(points.length, 129);
    assert.equal(new Set(points.map((p) => `${p.x},${p.y}`)).size, 129);
    const { tileW, tileH } = geo.cell;
    for (const p of points) {
      assert.ok(p.x - tileW / 2 >= 0 && p.x + tileW / 2 <= geo.width, `${p.name} x ${p.x}`);
      assert.ok(p.y - tileH / 2 >= 0 && p.y + tileH / 2 <= geo.height, `${p.name} y ${p.y}`);
    }
    // the square board never stretches
    assert.equal(stretchFor(desc, 0.5), 1);
    // one grid cell per post for the button grid and the arrow keys
    assert.equal(new Set([...geo.cells.values()].map((c) => `${c.row},${c.col}`)).size, 129);
  }
});

test("the four corner railways join each army's a6 to the e6 of the army on its left, bulging outwards", async () => {
  const desc = await describe("siguo");
  const rails = new Set(desc.board.rails.map(([a, b]) => `${a}|${b}`));
  for (let seat = 0; seat < 4; seat++) {
    const geo = makeGeometry(desc, seat);
    const pairs = geo.curves.map(([a, b]) => `${a}-${b}`).sort();
    assert.deepEqual(pairs, ["Ea6-Se6", "Na6-Ee6", "Sa6-We6", "Wa6-Ne6"]);
    const centre = geo.pos("C22");
    for (const [a, b, d] of geo.curves) {
      assert.ok(rails.has(`${a}|${b}`) || rails.has(`${b}|${a}`), `${a}-${b} is a railway`);
      const nums = d.match(/-?\d+(\.\d+)?/g).map(Number);
      const [x0, y0, x1, y1, x2, y2, x3, y3] = nums;
      const p = geo.pos(a);
      const q = geo.pos(b);
      assert.ok(Math.hypot(x0 - p.x, y0 - p.y) < 0.2 && Math.hypot(x3 - q.x, y3 - q.y) < 0.2, d);
      // the curve's middle lies farther from the centre than its ends: round the corner
      const mid = { x: (x0 + 3 * x1 + 3 * x2 + x3) / 8, y: (y0 + 3 * y1 + 3 * y2 + y3) / 8 };
      const far = (pt) => Math.hypot(pt.x - centre.x, pt.y - centre.y);
      assert.ok(far(mid) > far(p) && far(mid) > far(q), `${a}-${b} bulges outwards`);
      // a quarter circle round the corner centre post: its middle is one pitch from it
      const corner = [...geo.squares.values()].filter((sq) => sq.type === "station")
        .reduce((best, sq) => (Math.hypot(sq.x - p.x, sq.y - p.y) < Math.hypot(best.x - p.x, best.y - p.y) ? sq : best));
      assert.ok(Math.abs(Math.hypot(mid.x - corner.x, mid.y - corner.y) - geo.cell.w) < 1, `${a}-${b} radius`);
    }
  }
});

test("the arrow keys follow the turned layout", async () => {
  const desc = await describe("siguo");
  const up = [0, -1];
  const down = [0, 1];
  const left = [-1, 0];
  const right = [1, 0];
  for (let seat = 0; seat < 4; seat++) {
    const { cells, sideways } = makeGeometry(desc, seat);
    const me = LETTERS[seat];
    const go = (from, dir) => neighbour(cells, from, dir, sideways);
    assert.equal(go(`${me}c1`, up), `${me}c2`, `seat ${seat}`);
    assert.equal(go(`${me}c2`, down), `${me}c1`);
    assert.equal(go(`${me}a1`, right), `${me}b1`);
    assert.equal(go(`${me}e1`, left), `${me}d1`);
    assert.equal(go(`${me}c6`, up), "C" + { 0: "32", 1: "23", 2: "12", 3: "21" }[seat]);
    // the partner's army is straight ahead, across the centre
    const partner = LETTERS[(seat + 2) % 4];
    let at = `${me}c1`;
    for (let i = 0; i < 9; i++) at = go(at, up);
    assert.ok(at.startsWith(partner), `seat ${seat}: up nine times from c1 reaches ${at}`);
  }
});

test("the two-player boards keep their layout", async () => {
  for (const variant of ["classic", "blind", "gunjin"]) {
    const desc = await describe(variant);
    assert.equal(isCross(desc), false);
    const geo = makeGeometry(desc, 0);
    const turned = makeGeometry(desc, 1);
    assert.ok(!geo.cross && !turned.cross);
    // seat 1 sees the board half a turn round, seat 0's a1 at the bottom left
    const a1 = geo.pos("a1");
    assert.equal(a1.x, geo.cell.pad);
    assert.equal(turned.pos("a1").x, geo.width - geo.cell.pad);
    assert.ok(a1.y > geo.pos("a2").y);
  }
  // the standard sizes, as drawn before the cross came
  const classic = makeGeometry(await describe("classic"), 0);
  assert.deepEqual([classic.width, classic.height, classic.cell.w, classic.cell.h], [488, 692, 92, 50]);
  const gunjin = makeGeometry(await describe("gunjin"), 1);
  assert.deepEqual([gunjin.width, gunjin.height, gunjin.cell.w, gunjin.cell.h], [504, 574, 80, 62]);
});
