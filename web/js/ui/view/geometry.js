// Where each square sits on screen, from the topology the engine sends (x = file index,
// y = rank index; stations at y = 5.5, the Gunjin HQ at x = 2.5). Seat 1 sees the board
// turned half a turn, so each player's own side is at the bottom. The drawing style follows
// the description: a board with a river is drawn shogi-style (cells, a river, bridges),
// the others with posts, railways and a front line.
//
// `stretch` (1 or more) makes the rows taller than the standard pitch: on a tall narrow
// screen the board then fills the height it is given instead of leaving bands above and
// below it, and every square is a bigger target. Tiles keep their size.

// Sizes in SVG units: cell pitch (w, h), the gap between the halves, the margins (pad: the
// sides', room for a two-digit rank beside a piece; padB: the bottom one, which holds the
// file letters below the bottom row's pieces), the tiles.
const FRONT = { w: 92, h: 50, gap: 56, pad: 60, padY: 40, padB: 46, tileW: 78, tileH: 36, font: 17 };
const RIVER = { w: 80, h: 62, gap: 44, pad: 52, padY: 44, padB: 52, tileW: 68, tileH: 52, font: 16 };

/** The most a row may be stretched: beyond it the board looks like a ladder. */
export const MAX_STRETCH = 1.4;

export function makeGeometry(desc, seat, stretch = 1) {
  const board = desc.board;
  if (isCross(desc)) return makeCross(desc, seat);
  const river = Boolean(board.river);
  const base = river ? RIVER : FRONT;
  const g = { ...base, h: base.h * Math.min(MAX_STRETCH, Math.max(1, stretch)) };
  // The front line / the river lies between the two halves.
  const top0 = Math.max(...board.squares.filter((sq) => sq.half === 0).map((sq) => sq.y));
  const low1 = Math.min(...board.squares.filter((sq) => sq.half === 1).map((sq) => sq.y));
  const front = (top0 + low1) / 2;
  const rawY = (y) => y * g.h + (y > front ? g.gap : y === front ? g.gap / 2 : 0);
  const span = rawY(board.ranks - 1);
  const width = (board.files - 1) * g.w + 2 * g.pad;
  const height = span + g.padY + g.padB;
  const flipped = seat === 1;
  const point = (x, y) => {
    // rank 1 at the bottom; seat 1 sees the board turned, its own rank at the bottom
    const px = g.pad + x * g.w;
    return flipped ? { x: width - px, y: g.padY + rawY(y) } : { x: px, y: g.padY + (span - rawY(y)) };
  };
  const squares = new Map(board.squares.map((sq) => [sq.name, { ...sq, ...point(sq.x, sq.y) }]));
  // Display grid position for the button grid: column by file, one row per distinct y.
  const ys = [...new Set(board.squares.map((sq) => sq.y))].sort((a, b) => b - a);
  if (flipped) ys.reverse();
  const cells = new Map();
  for (const sq of board.squares) {
    const row = ys.indexOf(sq.y);
    const wide = !Number.isInteger(sq.x); // a square between two files (Gunjin's HQ)
    let col = wide ? Math.floor(sq.x) : Math.round(sq.x);
    if (flipped) col = board.files - 1 - col - (wide ? 1 : 0);
    cells.set(sq.name, { row, col, span: wide ? 2 : 1 });
  }
  return {
    river, flipped, stretch: g.h / base.h, width, height, cell: g, squares, cells, rows: ys.length,
    files: board.files, front: point(0, front).y, point,
    pos: (name) => squares.get(name),
    /** The width of a square's cell: two files for a square between files. */
    cellWidth: (sq) => (Number.isInteger(sq.x) ? g.w : g.w * 2),
  };
}

/** The row stretch that makes a board of this description fill a box of `ratio` = width /
 * height (1 when the box is as wide as the board or wider). */
export function stretchFor(desc, ratio) {
  if (isCross(desc)) return 1; // a square board: its rows never stretch
  const plain = makeGeometry(desc, 0);
  const wanted = plain.width / ratio; // the height that fills the box at the board's width
  if (!(wanted > plain.height)) return 1;
  const fixed = plain.cell.padY + plain.cell.padB + plain.cell.gap; // margins and the gap between halves
  const stretch = (wanted - fixed) / (plain.height - fixed);
  return Math.min(MAX_STRETCH, Math.max(1, stretch));
}

/** The nearest square from `name` in a direction [dx, dy] on the displayed grid (arrow
 * keys on the board and in the button grid). `sideways`: what a column aside costs against
 * a row ahead (the cross, whose centre posts are two rows apart, keeps to its column). */
export function neighbour(cells, name, [dx, dy], sideways = 3) {
  const here = cells.get(name);
  const centre = (c) => c.col + (c.span - 1) / 2;
  let best = null;
  let bestScore = Infinity;
  for (const [other, c] of cells) {
    if (other === name) continue;
    const ddx = centre(c) - centre(here);
    const ddy = c.row - here.row;
    const along = dx ? ddx * dx : ddy * dy;
    const across = dx ? Math.abs(ddy) : Math.abs(ddx);
    if (along <= 0 || (dx && across > 0)) continue;
    const score = along * 10 + across * sideways;
    if (score < bestScore) {
      bestScore = score;
      best = other;
    }
  }
  return best;
}

// --- the cross (Siguo): four army areas round nine centre posts --------------------------
//
// The engine's grid is 17 x 17 with South's area at the bottom (y = 0..5), East's on the
// right, North's at the top, West's on the left. Seat k sees it turned a quarter turn
// clockwise k times, so its own area is at the bottom. Every post sits on a square pitch;
// the four corner railways are quarter circles round the corner centre posts.

const CROSS = { w: 64, h: 64, gap: 0, pad: 30, padY: 30, padB: 30, tileW: 58, tileH: 40, font: 15 };

/** Whether a description is a cross board (four seats round a centre). */
export function isCross(desc) {
  return (desc.sides?.length ?? 2) > 2 || Boolean(desc.board.curves?.length);
}

/** (x, y) of the engine's grid turned so that `seat`'s area is at the bottom. */
export function turnPoint(x, y, seat, size) {
  const c = (size - 1) / 2;
  let dx = x - c;
  let dy = y - c;
  for (let i = 0; i < ((seat % 4) + 4) % 4; i++) [dx, dy] = [dy, -dx]; // a quarter turn clockwise
  return [c + dx, c + dy];
}

function makeCross(desc, seat) {
  const board = desc.board;
  const g = { ...CROSS };
  const size = Math.max(board.files, board.ranks);
  const width = (size - 1) * g.w + 2 * g.pad;
  const height = (size - 1) * g.h + g.padY + g.padB;
  const point = (x, y) => {
    const [tx, ty] = turnPoint(x, y, seat, size);
    return { x: g.pad + tx * g.w, y: g.padY + (size - 1 - ty) * g.h };
  };
  const squares = new Map(board.squares.map((sq) => [sq.name, { ...sq, ...point(sq.x, sq.y) }]));
  const cells = new Map();
  for (const sq of board.squares) {
    const [tx, ty] = turnPoint(sq.x, sq.y, seat, size);
    cells.set(sq.name, { row: size - 1 - Math.round(ty), col: Math.round(tx), span: 1 });
  }
  // The corner railways: [from, to, SVG path] (quarter circles round the given centre).
  const curves = (board.curves || []).map(([a, b, cx, cy]) => {
    const p = squares.get(a);
    const q = squares.get(b);
    const c = point(cx, cy);
    const k = 0.5523; // a cubic Bézier's handle for a quarter circle
    const c1 = { x: p.x + k * (q.x - c.x), y: p.y + k * (q.y - c.y) };
    const c2 = { x: q.x + k * (p.x - c.x), y: q.y + k * (p.y - c.y) };
    const f = (n) => Math.round(n * 10) / 10;
    return [a, b, `M${f(p.x)},${f(p.y)} C${f(c1.x)},${f(c1.y)} ${f(c2.x)},${f(c2.y)} ${f(q.x)},${f(q.y)}`];
  });
  return {
    river: false, cross: true, seat, flipped: seat !== 0, stretch: 1, width, height, cell: g, squares,
    cells, rows: size, files: size, front: null, point, curves, sideways: 12,
    pos: (name) => squares.get(name),
    cellWidth: () => g.w,
  };
}
