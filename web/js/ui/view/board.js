// The SVG board. It knows no rules: it draws the topology, the pieces and the marks it is
// given, and reports which square was tapped. All look and feel is CSS (web/css/game.css).

import { s, clear, reducedMotion } from "./dom.js";
import { makeGeometry } from "./geometry.js";
import { t } from "../i18n.js";

const HQ_LABEL = { junqi: "board.hq", gunjin: "board.hq_gunjin" };

export class Board {
  constructor(desc, seat, onSquare) {
    this.desc = desc;
    this.onSquare = onSquare;
    this.svg = s("svg", {
      class: `board board-${desc.id}`,
      "aria-hidden": "true",
      focusable: "false",
      "data-variant": desc.id,
    });
    this.svg.addEventListener("click", (event) => {
      const hit = event.target.closest("[data-hit]");
      if (hit) this.onSquare(hit.dataset.hit);
    });
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
    this.geo = makeGeometry(this.desc, seat);
    this.drawStatic();
  }

  drawStatic() {
    const { geo, desc, svg } = this;
    const { width, height, cell } = geo;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.dataset.seat = this.seat;
    clear(svg);
    const defs = s("defs", {},
      s("pattern", { id: "hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse",
        patternTransform: "rotate(45)" },
      s("rect", { width: 6, height: 6, class: "hatch-bg" }),
      s("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "hatch-line" })));
    this.layers = {};
    for (const name of ["ground", "lines", "posts", "labels", "pieces", "marks", "hits"]) {
      this.layers[name] = s("g", { class: `layer-${name}` });
    }
    svg.append(defs, ...Object.values(this.layers));
    this.layers.ground.append(s("rect", { x: 0, y: 0, width, height, rx: 10, class: "ground" }));
    if (geo.gunjin) this.drawGunjin();
    else this.drawJunqi();
    // Coordinates: files along the bottom edge, ranks along the left edge.
    const labels = this.layers.labels;
    const seenFile = new Set();
    const seenRank = new Set();
    for (const sq of geo.squares.values()) {
      const m = /^([a-f])(\d+)$/.exec(sq.name);
      if (!m) continue;
      if (!seenFile.has(m[1])) {
        seenFile.add(m[1]);
        labels.append(s("text", { x: sq.x, y: height - 10, class: "coord" }, m[1]));
      }
      if (!seenRank.has(m[2])) {
        seenRank.add(m[2]);
        labels.append(s("text", { x: 13, y: sq.y + 4, class: "coord" }, m[2]));
      }
    }
    for (const sq of geo.squares.values()) {
      const w = sq.type === "hq" && geo.gunjin ? cell.w * 2 : cell.w;
      this.layers.hits.append(s("rect", {
        x: sq.x - w / 2, y: sq.y - cell.h / 2, width: w, height: cell.h,
        class: "hit", "data-hit": sq.name,
      }));
    }
  }

  drawJunqi() {
    const { geo, desc, layers } = this;
    const { width, cell } = geo;
    // The front: a band between the two halves, with the mountains on files b and d.
    layers.ground.append(s("rect", {
      x: 6, y: geo.front - cell.gap / 2 + 2, width: width - 12, height: cell.gap - 4, class: "front",
    }));
    for (const [x, y] of desc.board.mountains) {
      const p = geo.point(x, y);
      layers.posts.append(s("path", {
        class: "mountain",
        d: `M${p.x - 30},${p.y + 12} L${p.x - 12},${p.y - 14} L${p.x},${p.y + 2} L${p.x + 10},${p.y - 10} L${p.x + 30},${p.y + 12} Z`,
      }));
    }
    const line = (a, b, cls) => {
      const p = geo.pos(a);
      const q = geo.pos(b);
      return s("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: cls });
    };
    for (const [a, b] of desc.board.roads) layers.lines.append(line(a, b, "road"));
    for (const [a, b] of desc.board.rails) layers.lines.append(line(a, b, "rail"));
    for (const [a, b] of desc.board.rails) layers.lines.append(line(a, b, "rail-ties"));
    const pw = 46;
    const ph = 24;
    for (const sq of geo.squares.values()) {
      const { x, y } = sq;
      if (sq.type === "camp") {
        layers.posts.append(s("circle", { cx: x, cy: y, r: 21, class: "camp" }));
      } else if (sq.type === "hq") {
        layers.posts.append(
          s("rect", { x: x - 42, y: y - 23, width: 84, height: 46, rx: 20, class: "hq" }),
          s("text", { x, y: y + 5, class: "square-label" }, t(HQ_LABEL.junqi)));
      } else if (sq.type === "station") {
        layers.posts.append(s("rect", {
          x: x - pw / 2, y: y - ph / 2, width: pw, height: ph, rx: 2, class: "post station",
        }));
      } else {
        layers.posts.append(s("rect", {
          x: x - pw / 2, y: y - ph / 2, width: pw, height: ph, rx: 2,
          class: sq.rail ? "post on-rail" : "post",
        }));
      }
    }
  }

  drawGunjin() {
    const { geo, desc, layers } = this;
    const { width, cell } = geo;
    // The two camps, the river between them and its two bridges.
    layers.ground.append(s("rect", {
      x: 6, y: geo.front - cell.gap / 2, width: width - 12, height: cell.gap, class: "river",
    }));
    const ry = geo.front;
    for (let x = 18; x < width - 30; x += 36) {
      layers.ground.append(s("path", { class: "wave",
        d: `M${x},${ry} q6,-5 12,0 t12,0` }));
    }
    for (const [a, b] of desc.board.bridges) {
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
      const w = sq.type === "hq" ? cell.w * 2 : cell.w;
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
          t(HQ_LABEL.gunjin)));
      }
    }
  }

  /**
   * state: {pieces: Map(square -> {owner, kind, down}), colour(owner) -> css class,
   *   label(kind) -> text, selected, targets [{to, attack}], lastMove [from, to],
   *   pick (setup), error (square), active (bool: input accepted)}
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
      const w = (geo.gunjin && sq.type === "hq" ? cell.w * 2 : cell.w) - 2 * pad;
      const hgt = cell.h - 2 * pad;
      const tw = geo.gunjin ? w : Math.min(w, cell.tileW + 10);
      const th = geo.gunjin ? hgt : Math.min(hgt, cell.tileH + 10);
      layers.marks.append(s("rect", {
        x: sq.x - tw / 2, y: sq.y - th / 2, width: tw, height: th, rx: 6, class: `mark ${cls}`,
        "data-mark": cls, "data-sq": name,
      }));
    };
    if (state.lastMove) for (const name of state.lastMove) frame(name, "last", 2);
    if (state.selected) frame(state.selected, "selected", 1);
    if (state.pick) frame(state.pick, "selected", 1);
    if (state.error) frame(state.error, "refused", 1);
    for (const target of state.targets || []) {
      const sq = geo.pos(target.to);
      if (!sq) continue;
      if (target.attack) frame(target.to, "attack", 3);
      else layers.marks.append(s("circle", { cx: sq.x, cy: sq.y, r: 9, class: "mark dest",
        "data-mark": "dest", "data-sq": target.to }));
    }
    this.svg.classList.toggle("active", Boolean(state.active));
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
    if (geo.gunjin) {
      const w = cell.tileW / 2;
      const hgt = cell.tileH / 2;
      // A shogi-style pentagon pointing at the opponent.
      const up = piece.owner === null || piece.owner === (geo.flipped ? 1 : 0);
      const d = `M0,${-hgt} L${w * 0.8},${-hgt * 0.6} L${w},${hgt} L${-w},${hgt} L${-w * 0.8},${-hgt * 0.6} Z`;
      g.append(s("path", { d, class: "tile", transform: up ? null : "rotate(180)" }));
    } else {
      g.append(s("rect", { x: -cell.tileW / 2, y: -cell.tileH / 2, width: cell.tileW,
        height: cell.tileH, rx: 5, class: "tile" }));
    }
    if (piece.down && !known) {
      g.append(s("rect", { x: -cell.tileW / 2 + 5, y: -cell.tileH / 2 + 5, width: cell.tileW - 10,
        height: cell.tileH - 10, rx: 3, class: "back", fill: "url(#hatch)" }));
    } else if (known) {
      const text = state.label(piece.kind);
      const size = geo.gunjin ? 14 : 15;
      const cjk = /[\u3000-\u9fff]/.test(text);
      const estimate = text.length * size * (cjk ? 1.0 : 0.56);
      const max = cell.tileW - 8;
      g.append(s("text", {
        x: 0, y: geo.gunjin ? 8 : 5, class: "name",
        textLength: estimate > max ? max : null,
        lengthAdjust: estimate > max ? "spacingAndGlyphs" : null,
      }, text));
    }
    return g;
  }

  pieceAt(name) {
    return this.layers.pieces.querySelector(`[data-sq="${name}"]`);
  }

  /** Slide the piece on `from` to `to` (before the new position is drawn). */
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

  /** A short burst on a square where a combat happened (or a flip). */
  flash(name, cls = "combat") {
    const sq = this.geo.pos(name);
    if (!sq) return;
    const ring = s("circle", { cx: sq.x, cy: sq.y, r: 26, class: `burst ${cls}` });
    this.layers.marks.append(ring);
    setTimeout(() => ring.remove(), 900);
  }
}
