// Where each square sits on screen, from the topology the engine sends (x = file index,
// y = rank index; stations at y = 5.5, the Gunjin HQ at x = 2.5). Seat 1 sees the board
// turned half a turn, so each player's own side is at the bottom.

const JUNQI = { w: 92, h: 50, gap: 56, pad: 62, padY: 40, tileW: 72, tileH: 34 };
const GUNJIN = { w: 80, h: 62, gap: 46, pad: 64, padY: 56, tileW: 60, tileH: 50 };

export function makeGeometry(desc, seat) {
  const board = desc.board;
  const gunjin = desc.id === "gunjin";
  const g = gunjin ? GUNJIN : JUNQI;
  const front = gunjin ? 3.5 : 5.5; // the river / the front line lies between these ranks
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
    const wide = gunjin && sq.type === "hq";
    let col = wide ? 2 : Math.round(sq.x);
    if (flipped) col = board.files - 1 - col - (wide ? 1 : 0);
    cells.set(sq.name, { row, col, span: wide ? 2 : 1 });
  }
  return {
    gunjin, flipped, width, height, cell: g, squares, cells, rows: ys.length,
    files: board.files, front: point(0, front).y, point,
    pos: (name) => squares.get(name),
  };
}
