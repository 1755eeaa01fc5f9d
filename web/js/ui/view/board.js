// The SVG board. It knows no rules: it draws the topology, the pieces and the marks it is
// given, and reports which square was tapped. All look and feel is CSS (web/css/game.css).
//
// Each piece is <g class="pc" transform="translate(x,y)"><g class="face">tile, name</g></g>:
// the perspective view tilts the whole board (CSS 3D) and stands every .face up again, so
// the names stay legible.

import { s, clear, reducedMotion } from "./dom.js";
import { makeGeometry, neighbour } from "./geometry.js";
import { t } from "../i18n.js";

const FONT = 'system-ui, "Noto Sans CJK SC", "Noto Sans CJK JP", sans-serif';
const MIN_FONT = 10;

// Text widths, measured once per text and size (a canvas measures like the SVG draws).
const widths = new Map();
let measurer = null;

export function textWidth(text, size) {
  const key = `${size}|${text}`;
  if (!widths.has(key)) {
    measurer ??= globalThis.OffscreenCanvas
      ? new OffscreenCanvas(1, 1).getContext("2d") : document.createElement("canvas").getContext("2d");
    measurer.font = `700 ${size}px ${FONT}`;
    widths.set(key, measurer.measureText(text).width);
  }
  return widths.get(key);
}

/** The font size at which `text` fits `room` (shrunk, never squeezed), and whether it
 * still needs squeezing at the smallest size. */
export function fitText(text, room, base) {
  const width = textWidth(text, base);
  if (width <= room) return { size: base, squeeze: false };
  const size = Math.max(MIN_FONT, Math.floor((base * room) / width * 10) / 10);
  return { size, squeeze: textWidth(text, size) > room };
}

/** A piece name laid out in its tile: one line, or two when a long name of several words
 * would otherwise get too small. {lines, size, squeeze} */
export function fitLabel(text, room, base, height) {
  const one = fitText(text, room, base);
  const words = text.split(" ");
  if (one.size >= base * 0.85 || words.length < 2) return { lines: [text], ...one };
  // Split where the two lines come out most even.
  let best = null;
  for (let i = 1; i < words.length; i++) {
    const lines = [words.slice(0, i).join(" "), words.slice(i).join(" ")];
    const longer = lines.reduce((a, b) => (textWidth(a, base) >= textWidth(b, base) ? a : b));
    const fit = fitText(longer, room, Math.min(base, Math.floor(height / 2.15)));
    if (!best || fit.size > best.size) best = { lines, ...fit };
  }
  return best.size > one.size ? best : { lines: [text], ...one };
}

export class Board {
  /** onSquare(name): a square was tapped (or Enter / Space on it). keyboard: the board is
   * one tab stop whose squares are buttons, walked with the arrow keys (not for a board
   * that only shows, like the replay's). */
  constructor(desc, seat, onSquare, { keyboard = false } = {}) {
    this.desc = desc;
    this.onSquare = onSquare;
    this.keyboard = keyboard;
    this.stretch = 1;
    this.focused = null; // the square that holds the board's tab stop
    this.labels = null; // name -> what a screen reader says for the square
    this.afterDraw = []; // called when the board was drawn again (other layers re-attach)
    /** @type {((square: string) => void) | null} the keyboard moved the focus (the view's) */
    this.onFocusMove = null;
    this.svg = s("svg", {
      class: `board board-${desc.id}`,
      "aria-hidden": keyboard ? null : "true",
      focusable: "false",
      role: keyboard ? "group" : null,
      // Not a tab stop itself (Chromium would make the drawing one): its squares are.
      tabindex: keyboard ? "-1" : null,
      "data-variant": desc.id,
    });
    this.svg.addEventListener("click", (event) => {
      const hit = event.target.closest("[data-hit]");
      if (hit) {
        if (this.keyboard) this.setFocused(hit.dataset.hit);
        this.onSquare(hit.dataset.hit);
      }
    });
    if (keyboard) {
      this.svg.addEventListener("keydown", (event) => this.onKey(event));
      this.svg.addEventListener("focusin", () => this.drawFocus());
      this.svg.addEventListener("focusout", () => this.drawFocus());
    }
    this.setSeat(seat);
  }

  /** Other rules, other board (a new_game reply may describe the game's own board). */
  setDesc(desc) {
    this.desc = desc;
    this.svg.setAttribute("class", `board board-${desc.id}`);
    this.geo = null;
    this.setSeat(this.seat);
  }

  setSeat(seat) {
    if (this.geo && this.seat === seat) return;
    this.seat = seat;
    this.geo = makeGeometry(this.desc, seat, this.stretch);
    this.drawStatic();
  }

  /** Rows taller by this factor (geometry.js); true when the drawing changed. */
  setStretch(stretch) {
    if (Math.abs(stretch - this.stretch) < 0.005) return false;
    this.stretch = stretch;
    this.geo = makeGeometry(this.desc, this.seat, stretch);
    this.drawStatic();
    if (this.state) this.render(this.state);
    return true;
  }

  /** width / height of the drawing, for sizing it on screen. */
  get aspect() {
    return this.geo.width / this.geo.height;
  }

  drawStatic() {
    const { geo, svg } = this;
    const { width, height } = geo;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.dataset.seat = this.seat;
    svg.dataset.style = geo.river ? "river" : geo.cross ? "cross" : "front";
    const hadFocus = this.keyboard && this.layers && this.hasFocus(); // kept through a redraw
    clear(svg);
    const defs = s("defs", {},
      s("pattern", { id: "hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse",
        patternTransform: "rotate(45)" },
      s("rect", { width: 6, height: 6, class: "hatch-bg" }),
      s("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "hatch-line" })),
      ...["win", "lose", "both", "unknown"].map((outcome) =>
        s("radialGradient", { id: `glow-${outcome}`, class: `glow-${outcome}` },
          s("stop", { offset: "0%", class: "glow-core" }),
          s("stop", { offset: "40%", class: "glow-mid" }),
          s("stop", { offset: "100%", class: "glow-edge" }))));
    this.layers = {};
    for (const name of ["ground", "lines", "posts", "labels", "marks", "pieces", "fx", "focus", "hits"]) {
      // Only the squares speak (their labels say what is on them); the drawing is silent.
      this.layers[name] = s("g", { class: `layer-${name}`, "aria-hidden": name === "hits" ? null : "true" });
    }
    svg.append(defs, ...Object.values(this.layers));
    this.layers.ground.append(s("rect", { x: 0, y: 0, width, height, rx: 12, class: "ground" }));
    if (geo.river) this.drawRiver();
    else if (geo.cross) this.drawCross();
    else this.drawFront();
    // Coordinates: files along the bottom edge, ranks along the left edge.
    const labels = this.layers.labels;
    const seenFile = new Set();
    const seenRank = new Set();
    const left = geo.cell.pad - geo.cell.tileW / 2 - 10; // the ranks' centre, clear of the pieces
    for (const sq of geo.squares.values()) {
      const m = /^([a-z])(\d+)$/.exec(sq.name);
      if (!m) continue;
      if (!seenFile.has(m[1])) {
        seenFile.add(m[1]);
        labels.append(s("text", { x: sq.x, y: height - 8, class: "coord" }, m[1]));
      }
      if (!seenRank.has(m[2])) {
        seenRank.add(m[2]);
        labels.append(s("text", { x: Math.max(8, left), y: sq.y + 4, class: "coord" }, m[2]));
      }
    }
    for (const sq of geo.squares.values()) {
      const w = geo.cellWidth(sq);
      this.layers.hits.append(s("rect", {
        x: sq.x - w / 2, y: sq.y - geo.cell.h / 2, width: w, height: geo.cell.h,
        class: "hit", "data-hit": sq.name,
        role: this.keyboard ? "button" : null, tabindex: this.keyboard ? "-1" : null,
      }));
    }
    if (this.keyboard) {
      if (!geo.squares.has(this.focused)) this.focused = this.defaultSquare();
      this.updateTabStop();
      this.applyLabels();
      if (hadFocus) this.focusSquare();
    }
    for (const fn of this.afterDraw) fn();
  }

  // --- the keyboard: one tab stop, arrows between squares, Enter / Space taps -------------

  /** Where the tab stop starts: the middle of the player's own back rows. */
  defaultSquare() {
    const order = [...this.geo.cells.entries()].sort(([, a], [, b]) => b.row - a.row || a.col - b.col);
    const row = order.length ? order[0][1].row : 0;
    const last = order.filter(([, c]) => c.row === row);
    return last.length ? last[Math.floor((last.length - 1) / 2)][0] : null;
  }

  hit(name) {
    return this.layers.hits.querySelector(`[data-hit="${name}"]`);
  }

  setFocused(name) {
    if (!this.geo.squares.has(name)) return;
    this.focused = name;
    this.updateTabStop();
  }

  updateTabStop() {
    for (const node of this.layers.hits.children) {
      node.setAttribute("tabindex", node.dataset.hit === this.focused ? "0" : "-1");
    }
  }

  /** Move keyboard focus to a square (default: the one holding the tab stop). */
  focusSquare(name = this.focused) {
    if (!this.keyboard) return;
    this.setFocused(name);
    this.hit(this.focused)?.focus({ preventScroll: true });
    this.drawFocus();
  }

  hasFocus() {
    return this.svg.contains(document.activeElement) && document.activeElement !== this.svg;
  }

  /** labels(name) -> text: what is read for each square (set before each render). */
  setLabels(labels) {
    this.labels = labels;
    this.applyLabels();
  }

  applyLabels() {
    if (!this.labels) return;
    for (const node of this.layers.hits.children) {
      const text = this.labels(node.dataset.hit);
      if (node.getAttribute("aria-label") !== text) node.setAttribute("aria-label", text);
    }
  }

  onKey(event) {
    const current = event.target.closest?.("[data-hit]");
    if (!current) return;
    const dirs = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    const name = current.dataset.hit;
    let next = null;
    if (dirs[event.key]) next = neighbour(this.geo.cells, name, dirs[event.key], this.geo.sideways);
    else if (event.key === "Home" || event.key === "End") {
      const order = [...this.geo.cells.entries()].sort(([, a], [, b]) => a.row - b.row || a.col - b.col);
      next = (event.key === "Home" ? order[0] : order[order.length - 1])[0];
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.onSquare(name);
      return;
    } else return;
    event.preventDefault();
    if (next) {
      this.focusSquare(next);
      this.onFocusMove?.(next);
    }
  }

  /** A frame around the square that has keyboard focus (drawn, so it tilts with the board). */
  drawFocus() {
    const layer = this.layers.focus;
    clear(layer);
    // As :focus-visible: for the keyboard, not for a tap or a click.
    if (!this.hasFocus() || !document.activeElement.matches(":focus-visible")) return;
    const sq = this.geo.pos(this.focused);
    if (!sq) return;
    const w = this.geo.cellWidth(sq) - 2;
    const hgt = this.geo.cell.h - 2;
    layer.append(s("rect", { x: sq.x - w / 2, y: sq.y - hgt / 2, width: w, height: hgt, rx: 6,
      class: "focus-ring", "data-focus": this.focused }));
  }

  /** A straight road or railway between two squares. */
  segment(a, b, cls) {
    const p = this.geo.pos(a);
    const q = this.geo.pos(b);
    return s("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: cls });
  }

  /** Every square's mark: camps as circles, headquarters as pills, posts and stations as
   * small boxes (`campR`: a camp's radius; `inset`: how much lower a post is than a tile).
   * @param {number} campR @param {number} inset */
  drawPosts(campR, inset) {
    const { geo, layers } = this;
    const { cell } = geo;
    const pw = cell.tileW - 24;
    const ph = cell.tileH - inset;
    for (const sq of geo.squares.values()) {
      const { x, y } = sq;
      if (sq.type === "camp") {
        layers.posts.append(s("circle", { cx: x, cy: y, r: campR, class: "camp" }));
      } else if (sq.type === "hq") {
        // A pill exactly the size of a tile: a piece standing on it covers it, so the
        // headquarters shows one outline (the piece's), not two.
        layers.posts.append(
          s("rect", { x: x - cell.tileW / 2, y: y - cell.tileH / 2, width: cell.tileW, height: cell.tileH,
            rx: cell.tileH / 2, class: "hq" }),
          s("text", { x, y: y + 5, class: "square-label" }, t("board.hq")));
      } else {
        layers.posts.append(s("rect", {
          x: x - pw / 2, y: y - ph / 2, width: pw, height: ph, rx: 2,
          class: sq.type === "station" ? "post station" : sq.rail ? "post on-rail" : "post",
        }));
      }
    }
  }

  /** Posts, railways, camps, a front line with mountains (Classic and Blind Junqi). */
  drawFront() {
    const { geo, desc, layers } = this;
    const { width, cell } = geo;
    layers.ground.append(s("rect", {
      x: 6, y: geo.front - cell.gap / 2 + 2, width: width - 12, height: cell.gap - 4, class: "front",
    }));
    for (const [x, y] of desc.board.mountains || []) {
      const p = geo.point(x, y);
      layers.posts.append(s("path", {
        class: "mountain",
        d: `M${p.x - 30},${p.y + 12} L${p.x - 12},${p.y - 14} L${p.x},${p.y + 2} L${p.x + 10},${p.y - 10} L${p.x + 30},${p.y + 12} Z`,
      }));
    }
    const line = (a, b, cls) => this.segment(a, b, cls);
    for (const [a, b] of desc.board.roads) layers.lines.append(line(a, b, "road"));
    for (const [a, b] of desc.board.rails) layers.lines.append(line(a, b, "rail"));
    for (const [a, b] of desc.board.rails) layers.lines.append(line(a, b, "rail-ties"));
    this.drawPosts(22, 10);
  }

  /** The cross (Siguo): four army areas tinted in their seat's colour, the nine centre
   * posts, roads, straight railways and the four corner railways as quarter circles. */
  drawCross() {
    const { geo, desc, layers } = this;
    const { cell } = geo;
    const colours = desc.colours || [];
    const half = cell.w / 2;
    for (let seat = 0; seat < (desc.sides?.length ?? 0); seat++) {
      const posts = [...geo.squares.values()].filter((sq) => sq.half === seat);
      if (!posts.length) continue;
      const xs = posts.map((sq) => sq.x);
      const ys = posts.map((sq) => sq.y);
      const x = Math.min(...xs) - half + 3;
      const y = Math.min(...ys) - half + 3;
      layers.ground.append(s("rect", { x, y, width: Math.max(...xs) + half - 3 - x,
        height: Math.max(...ys) + half - 3 - y, rx: 10,
        class: `area ${colours[seat] || ""}`, "data-area": seat }));
    }
    const curved = new Set(geo.curves.flatMap(([a, b]) => [`${a}|${b}`, `${b}|${a}`]));
    const line = (a, b, cls) => this.segment(a, b, cls);
    const rails = desc.board.rails.filter(([a, b]) => !curved.has(`${a}|${b}`));
    for (const [a, b] of desc.board.roads) layers.lines.append(line(a, b, "road"));
    for (const cls of ["rail", "rail-ties"]) {
      for (const [a, b] of rails) layers.lines.append(line(a, b, cls));
      for (const [a, b, d] of geo.curves) {
        layers.lines.append(s("path", { d, class: `${cls} curve`, "data-curve": `${a}-${b}` }));
      }
    }
    // Each army's name in the empty corner beside its a1 post (a1 on its owner's left).
    for (let seat = 0; seat < (desc.sides?.length ?? 0); seat++) {
      const a = geo.pos(`${desc.board.squares.find((sq) => sq.half === seat)?.name.slice(0, 1)}a1`);
      const b = geo.pos(`${a?.name.slice(0, 1)}b1`);
      if (!a || !b) continue;
      const ux = Math.sign(a.x - b.x);
      const uy = Math.sign(a.y - b.y);
      // left of a1: ends there; right of it: starts there; below or above it: kept inside
      // the drawing (it reaches from a1 towards the centre of the board)
      const anchor = ux < 0 || uy > 0 ? "end" : "start";
      const shift = ux ? ux * cell.w * 0.55 : (uy > 0 ? 1 : -1) * (cell.tileW / 2);
      layers.labels.append(s("text", {
        x: a.x + shift, y: a.y + uy * (cell.h * 0.7) + 6,
        class: `seat-name ${colours[seat] || ""}`, "text-anchor": anchor, "data-seat": seat,
      }, t(`side.${desc.id}.${seat}`)));
    }
    this.drawPosts(21, 12);
  }

  /** Cells, a river with bridges (Gunjin Shogi). */
  drawRiver() {
    const { geo, desc, layers } = this;
    const { width, cell } = geo;
    layers.ground.append(s("rect", {
      x: 6, y: geo.front - cell.gap / 2, width: width - 12, height: cell.gap, class: "river",
    }));
    const ry = geo.front;
    for (let x = 18; x < width - 30; x += 36) {
      layers.ground.append(s("path", { class: "wave", d: `M${x},${ry} q6,-5 12,0 t12,0` }));
    }
    for (const [a, b] of desc.board.bridges || []) {
      const p = geo.pos(a);
      const q = geo.pos(b);
      const top = Math.min(p.y, q.y) + cell.h / 2 - 6;
      const bottom = Math.max(p.y, q.y) - cell.h / 2 + 6;
      const half = cell.w * 0.34;
      layers.ground.append(s("rect", { x: p.x - half, y: top, width: 2 * half, height: bottom - top,
        class: "bridge" }));
      for (let y = top + 6; y < bottom - 2; y += 8) {
        layers.ground.append(s("line", { x1: p.x - half, y1: y, x2: p.x + half, y2: y, class: "plank" }));
      }
      for (const x of [p.x - half, p.x + half]) {
        layers.ground.append(s("line", { x1: x, y1: top, x2: x, y2: bottom, class: "bridge-rail" }));
      }
    }
    for (const sq of geo.squares.values()) {
      const w = geo.cellWidth(sq);
      const cls = ["cell", sq.half === this.seat ? "own-half" : "other-half"];
      if (sq.type === "hq") cls.push("hq");
      if (sq.access) cls.push("access");
      layers.posts.append(s("rect", {
        x: sq.x - w / 2, y: sq.y - cell.h / 2, width: w, height: cell.h, class: cls.join(" "),
      }));
      if (sq.access) {
        layers.posts.append(s("rect", {
          x: sq.x - w / 2 + 5, y: sq.y - cell.h / 2 + 5, width: w - 10, height: cell.h - 10,
          class: "access-mark",
        }));
      }
      if (sq.type === "hq") {
        layers.posts.append(s("text", { x: sq.x, y: sq.y + 5, class: "square-label" },
          t("board.hq_gunjin")));
      }
    }
  }

  /**
   * state: {pieces: Map(square -> {owner, kind, down}), colour(piece) -> css class,
   *   label(kind) -> text, rank(kind) -> number|null, ranks (bool: show rank numbers),
   *   selected, targets [{to, attack}], lastMove [from, to], pick (setup), error (square),
   *   active (bool: input accepted)}
   */
  render(state) {
    this.state = state;
    const { geo, layers } = this;
    const { cell } = geo;
    clear(layers.pieces);
    for (const [name, piece] of state.pieces) {
      const sq = geo.pos(name);
      if (sq) layers.pieces.append(this.pieceNode(name, piece, sq, state));
    }
    clear(layers.marks);
    const frame = (name, cls, pad = 4) => {
      const sq = geo.pos(name);
      if (!sq) return;
      const w = geo.cellWidth(sq) - 2 * pad;
      const hgt = cell.h - 2 * pad;
      const tw = geo.river ? w : Math.min(w, cell.tileW + 10);
      const th = geo.river ? hgt : Math.min(hgt, cell.tileH + 10);
      layers.marks.append(s("rect", {
        x: sq.x - tw / 2, y: sq.y - th / 2, width: tw, height: th, rx: 7, class: `mark ${cls}`,
        "data-mark": cls, "data-sq": name,
      }));
    };
    if (state.lastMove) for (const name of state.lastMove) frame(name, "last", 1);
    if (state.selected) frame(state.selected, "selected", 0);
    if (state.pick) frame(state.pick, "selected", 0);
    if (state.error) frame(state.error, "refused", 0);
    // Destinations above the pieces (an attack ring must show over the enemy piece).
    const above = [];
    for (const target of state.targets || []) {
      const sq = geo.pos(target.to);
      if (!sq) continue;
      if (target.attack) {
        const w = Math.min(geo.cellWidth(sq) - 4, cell.tileW + 8);
        const hgt = Math.min(cell.h - 4, cell.tileH + 8);
        above.push(s("rect", { x: sq.x - w / 2, y: sq.y - hgt / 2, width: w, height: hgt, rx: 8,
          class: "mark attack", "data-mark": "attack", "data-sq": target.to }));
      } else {
        above.push(s("circle", { cx: sq.x, cy: sq.y, r: 10, class: "mark dest",
          "data-mark": "dest", "data-sq": target.to }));
      }
    }
    layers.pieces.append(...above);
    this.svg.classList.toggle("active", Boolean(state.active));
    if (this.keyboard) this.drawFocus();
  }

  pieceNode(name, piece, sq, state) {
    const { geo } = this;
    const { cell } = geo;
    const known = Boolean(piece.kind);
    const cls = ["pc", state.colour(piece)];
    if (piece.down && !known) cls.push("down");
    else cls.push(known ? "known" : "blank");
    if (piece.down && known) cls.push("revealed"); // face down until the end of the game
    if (piece.owner === state.viewer && piece.owner !== null) cls.push("own");
    const g = s("g", {
      class: cls.join(" "), transform: `translate(${sq.x},${sq.y})`, "data-sq": name,
      "data-owner": piece.owner === null ? "" : piece.owner,
      "data-kind": known ? piece.kind : null,
    });
    const face = s("g", { class: "face" });
    g.append(face);
    const w = cell.tileW / 2;
    const hgt = cell.tileH / 2;
    if (geo.river) {
      // A shogi-style pentagon pointing at the opponent.
      const up = piece.owner === null || piece.owner === undefined || piece.owner === (geo.flipped ? 1 : 0);
      const d = `M0,${-hgt} L${w * 0.82},${-hgt * 0.58} L${w},${hgt} L${-w},${hgt} L${-w * 0.82},${-hgt * 0.58} Z`;
      const turn = up ? null : "rotate(180)";
      face.append(s("path", { d, class: "edge", transform: `translate(0,3)${turn ? ` ${turn}` : ""}` }),
        s("path", { d, class: "tile", transform: turn }));
    } else {
      face.append(
        s("rect", { x: -w, y: -hgt + 3, width: 2 * w, height: 2 * hgt, rx: 6, class: "edge" }),
        s("rect", { x: -w, y: -hgt, width: 2 * w, height: 2 * hgt, rx: 6, class: "tile" }));
    }
    // Four seats: each piece also carries its seat's letter, so that no one needs the colours
    // to tell the armies apart (in the middle of a hidden piece, in a corner of a known one).
    const letter = geo.cross && piece.owner !== null && piece.owner !== undefined
      ? t(`side.${this.desc.id}.letter.${piece.owner}`) : null;
    if (piece.down && !known) {
      face.append(s("rect", { x: -w + 5, y: -hgt + 5, width: 2 * w - 10, height: 2 * hgt - 10,
        rx: 3, class: "back", fill: "url(#hatch)" }));
      if (letter) face.append(s("text", { x: 0, y: 6, class: "seat-letter big" }, letter));
      return g;
    }
    if (!known) {
      if (letter) face.append(s("text", { x: 0, y: 6, class: "seat-letter big" }, letter));
      return g;
    }
    if (letter) face.append(s("text", { x: w - 4, y: -hgt + 10, class: "seat-letter" }, letter));
    const text = state.label(piece.kind);
    const rank = state.ranks ? state.rank(piece.kind) : null;
    const room = 2 * w - (geo.river ? 14 : 10);
    const { lines, size, squeeze } = fitLabel(text, room, cell.font, 2 * hgt - 8);
    const lineHeight = Math.round(size * 1.05);
    const middle = geo.river ? 4 : 0; // the pentagon's body sits low
    const shift = rank === null && !letter ? 0 : geo.river ? 3 : geo.cross ? 4 : 2;
    const first = middle + shift + Math.round(size * 0.36) - ((lines.length - 1) * lineHeight) / 2;
    const label = s("text", {
      x: 0, y: first, class: "name", "font-size": size,
      textLength: squeeze ? room : null, lengthAdjust: squeeze ? "spacingAndGlyphs" : null,
    });
    if (lines.length === 1) label.textContent = text;
    else {
      lines.forEach((line, i) => label.append(s("tspan", { x: 0, dy: i ? lineHeight : 0 }, line)));
    }
    face.append(label);
    if (rank !== null) {
      face.append(s("text", {
        x: geo.river ? 0 : -w + 4, y: geo.river ? -hgt + 13 : -hgt + 9,
        class: `rank-no${geo.river ? " middle" : ""}`,
      }, String(rank)));
    }
    return g;
  }

  pieceAt(name) {
    return this.layers.pieces.querySelector(`g.pc[data-sq="${name}"]`);
  }

  /** Slide the piece on `from` to `to` (before the new position is drawn).
   * @returns {Promise<void>} */
  animateMove(from, to, ms = 260) {
    const node = this.pieceAt(from);
    const a = this.geo.pos(from);
    const b = this.geo.pos(to);
    if (!node || !a || !b || reducedMotion() || document.hidden) return Promise.resolve();
    this.layers.pieces.append(node); // on top of the others
    node.classList.add("moving");
    return new Promise((resolve) => {
      const start = performance.now();
      const step = (now) => {
        const k = Math.min(1, (now - start) / ms);
        const e = k < 0.5 ? 2 * k * k : 1 - (-2 * k + 2) ** 2 / 2;
        node.setAttribute("transform", `translate(${a.x + (b.x - a.x) * e},${a.y + (b.y - a.y) * e})`);
        if (k < 1) requestAnimationFrame(step);
        else resolve();
      };
      requestAnimationFrame(step);
      setTimeout(resolve, ms + 200); // rAF pauses in background tabs
    });
  }

  /**
   * A combat (or a flip) on a square: a glow, two rings and a burst of rays, coloured by how
   * it went for the viewer ("win", "lose", "both", or null when unknown); a short flash of
   * the whole board for a combat. Nothing moves but the effect itself.
   */
  flash(name, kind = "combat", outcome = null) {
    const sq = this.geo.pos(name);
    if (!sq) return;
    const still = reducedMotion();
    const cls = ["burst", kind, outcome || "unknown", still ? "still" : ""].join(" ");
    const group = s("g", { class: cls, transform: `translate(${sq.x},${sq.y})`, "data-fx": kind });
    if (kind === "combat") {
      group.append(s("circle", { r: 58, class: "glow", fill: `url(#glow-${outcome || "unknown"})` }));
      const rays = [];
      for (let i = 0; i < 12; i++) {
        const angle = (Math.PI * 2 * i) / 12;
        const r1 = i % 2 ? 20 : 16;
        const r2 = i % 2 ? 40 : 54;
        rays.push(`M${(Math.cos(angle) * r1).toFixed(1)},${(Math.sin(angle) * r1).toFixed(1)}` +
          `L${(Math.cos(angle) * r2).toFixed(1)},${(Math.sin(angle) * r2).toFixed(1)}`);
      }
      group.append(s("path", { d: rays.join(""), class: "rays" }));
      group.append(s("circle", { r: 20, class: "ring one" }), s("circle", { r: 20, class: "ring two" }));
      this.svg.classList.remove("impact");
      if (!still) {
        void this.svg.getBoundingClientRect(); // restart the board flash
        this.svg.classList.add("impact");
        setTimeout(() => this.svg.classList.remove("impact"), 500);
      }
    } else {
      group.append(s("circle", { r: 20, class: "ring one" }));
    }
    this.layers.fx.append(group);
    setTimeout(() => group.remove(), still ? 1200 : 1000);
  }
}
