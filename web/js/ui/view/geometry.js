// Where each square sits on screen, from the topology the engine sends (x = file index,
// y = rank index; stations at y = 5.5, the Gunjin HQ at x = 2.5). Seat 1 sees the board
// turned half a turn, so each player's own side is at the bottom. The drawing style follows
// the description: a board with a river is drawn shogi-style (cells, a river, bridges),
// the others with posts, railways and a front line.

// Sizes in SVG units: cell pitch (w, h), the gap between the halves, the margins, the tiles.
const FRONT = { w: 92, h: 50, gap: 56, pad: 54, padY: 40, tileW: 78, tileH: 36, font: 17 };
const RIVER = { w: 80, h: 62, gap: 44, pad: 52, padY: 44, tileW: 68, tileH: 52, font: 16 };

export function makeGeometry(desc, seat) {
  const board = desc.board;
  const river = Boolean(board.river);
  const g = river ? RIVER : FRONT;
  // The front line / the river lies between the two halves.
  const top0 = Math.max(...board.squares.filter((sq) => sq.half === 0).map((sq) => sq.y));
  const low1 = Math.min(...board.squares.filter((sq) => sq.half === 1).map((sq) => sq.y));
  const front = (top0 + low1) / 2;
  const rawY = (y) => y * g.h + (y > front ? g.gap : y === front ? g.gap / 2 : 0);
  const span = rawY(board.ranks - 1);
  const width = (board.files - 1) * g.w + 2 * g.pad;
  const height = span + 2 * g.padY;
  const flipped = seat === 1;
  const point = (x, y) => {
    let px = g.pad + x * g.w;
    let py = g.padY + (span - rawY(y)); // rank 1 at the bottom
    if (flipped) {
      px = width - px;
      py = height - py;
    }
    return { x: px, y: py };
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
    river, flipped, width, height, cell: g, squares, cells, rows: ys.length,
    files: board.files, front: point(0, front).y, point,
    pos: (name) => squares.get(name),
    /** The width of a square's cell: two files for a square between files. */
    cellWidth: (sq) => (Number.isInteger(sq.x) ? g.w : g.w * 2),
  };
}
