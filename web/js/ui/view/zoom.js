// The board's frame on small screens. Two things make the squares bigger targets:
// - the rows stretch to fill a frame taller than the board (geometry.js), so a phone held
//   upright shows no empty bands above and below the board;
// - a zoom (the header's button, or a pinch on the board) enlarges the board inside its
//   frame, which then scrolls with one finger. The zoom button aims at squares of at least
//   FIT_PX on their smaller side; a selected piece and where it may go are kept in view.
//   A board of four armies (the cross) opens each person's setup zoomed on that person's
//   own posts, when they are small (GameView.setupZoom): the setup is all taps there.

import { stretchFor } from "./geometry.js";

export const TARGET_PX = 44; // the smallest comfortable touch target (WCAG 2.5.5)
const FIT_PX = 48; // what the zoom button aims at: a little above the minimum
const MAX_ZOOM = 3;
const MARGIN = 6; // px kept around squares brought into view

export class BoardZoom {
  /** board: Board; wrap: the frame (it scrolls when zoomed); stage: the board's box.
   * bar: the header (AppBar), whose zoom button follows the zoom of the screen shown
   * (`screen`: that screen's root). onStretch(): the board's proportions changed. */
  constructor(board, wrap, stage, { bar = null, screen = null, onStretch = () => {} } = {}) {
    this.board = board;
    this.wrap = wrap;
    this.stage = stage;
    this.bar = bar;
    this.screen = screen;
    this.onStretch = onStretch;
    this.level = 1;
    this.base = null; // the smallest square's smaller side at level 1, in CSS px
    this.pinch = null;
    this.wanted = () => []; // squares to keep in view when zooming in (the selection)
    this.onMeasure = () => {}; // the squares were measured (GameView: the setup's own zoom)
    this.observer = new ResizeObserver(() => this.resized());
    this.observer.observe(wrap);
    board.svg.addEventListener("transitionend", () => this.measure()); // a new tilt
    wrap.addEventListener("touchstart", (event) => this.touchStart(event), { passive: true });
    wrap.addEventListener("touchmove", (event) => this.touchMove(event), { passive: false });
    wrap.addEventListener("touchend", (event) => this.touchEnd(event));
    wrap.addEventListener("touchcancel", (event) => this.touchEnd(event));
  }

  /** The header's button follows this zoom while its screen is on the page. */
  onChange() {
    if (!this.bar) return;
    if (this.screen?.isConnected) this.bar.setZoom(this);
    else if (this.bar.zoom === this) this.bar.setZoom(null);
  }

  /** Whether zooming in would make the squares big enough to tap (or the board is zoomed). */
  get useful() {
    return this.level > 1 || (this.base !== null && this.base < TARGET_PX - 0.5);
  }

  get zoomed() {
    return this.level > 1;
  }

  /** The frame changed size: stretch the rows to fill it, measure the squares again. */
  resized() {
    const width = this.wrap.clientWidth;
    const height = this.wrap.clientHeight;
    if (!width || !height) {
      this.base = null;
      this.onChange();
      return;
    }
    if (!this.zoomed && this.board.setStretch(stretchFor(this.board.desc, width / height))) {
      this.onStretch();
    }
    requestAnimationFrame(() => this.measure());
  }

  /** The smallest square's smaller side on screen, at level 1. */
  measure() {
    let smallest = Infinity;
    for (const node of this.board.layers.hits.children) {
      const r = node.getBoundingClientRect();
      if (r.width && r.height) smallest = Math.min(smallest, r.width, r.height);
    }
    this.base = Number.isFinite(smallest) ? smallest / this.level : null;
    this.onChange();
    this.onMeasure();
    return this.base;
  }

  /** The zoom at which every square is at least FIT_PX. */
  fitLevel() {
    const base = this.base ?? this.measure();
    return base ? Math.min(MAX_ZOOM, Math.max(1, FIT_PX / base)) : 1;
  }

  /** The header's button: in to squares big enough to tap, or back to the whole board. */
  toggle() {
    if (this.zoomed) this.set(1);
    else {
      this.set(this.fitLevel());
      this.reveal(this.wanted(), true);
    }
  }

  /** Zoom to `level`, keeping the board point under `anchor` ({x, y} in the frame's
   * client coordinates; default its middle) where it is. */
  set(level, anchor = null) {
    level = Math.min(MAX_ZOOM, Math.max(1, level));
    if (Math.abs(level - this.level) < 0.001) return;
    const wrap = this.wrap;
    const ax = anchor ? anchor.x : wrap.clientWidth / 2;
    const ay = anchor ? anchor.y : wrap.clientHeight / 2;
    const fx = (wrap.scrollLeft + ax - this.stage.offsetLeft) / this.stage.offsetWidth;
    const fy = (wrap.scrollTop + ay - this.stage.offsetTop) / this.stage.offsetHeight;
    this.level = level;
    wrap.style.setProperty("--zoom", level.toFixed(3));
    wrap.classList.toggle("zoomed", level > 1);
    wrap.dataset.zoom = level.toFixed(2);
    wrap.scrollLeft = fx * this.stage.offsetWidth + this.stage.offsetLeft - ax;
    wrap.scrollTop = fy * this.stage.offsetHeight + this.stage.offsetTop - ay;
    this.onChange();
  }

  /** Scroll the zoomed board so these squares are in view (all of them when they fit,
   * else the first in the middle). `own`: none given, show the player's side. */
  reveal(names, own = false) {
    if (!this.zoomed) return;
    const wrap = this.wrap;
    const frame = wrap.getBoundingClientRect();
    const rects = names.map((name) => this.board.hit(name)?.getBoundingClientRect()).filter(Boolean);
    if (!rects.length) {
      if (own) wrap.scrollTop = wrap.scrollHeight; // the player's own side is at the bottom
      if (own) wrap.scrollLeft = (wrap.scrollWidth - wrap.clientWidth) / 2;
      return;
    }
    const box = {
      left: Math.min(...rects.map((r) => r.left)) - MARGIN,
      right: Math.max(...rects.map((r) => r.right)) + MARGIN,
      top: Math.min(...rects.map((r) => r.top)) - MARGIN,
      bottom: Math.max(...rects.map((r) => r.bottom)) + MARGIN,
    };
    const view = { width: wrap.clientWidth, height: wrap.clientHeight };
    const first = rects[0];
    const shift = (lo, hi, start, size, a, b) => {
      if (hi - lo > size) return (a + b) / 2 - (start + size / 2); // centre the first square
      if (lo < start) return lo - start;
      if (hi > start + size) return hi - (start + size);
      return 0;
    };
    wrap.scrollLeft += shift(box.left, box.right, frame.left, view.width, first.left, first.right);
    wrap.scrollTop += shift(box.top, box.bottom, frame.top, view.height, first.top, first.bottom);
  }

  // --- pinch --------------------------------------------------------------------------------

  touchStart(event) {
    if (event.touches.length !== 2) return;
    this.pinch = { distance: spread(event.touches), level: this.level };
  }

  touchMove(event) {
    if (!this.pinch || event.touches.length !== 2) return;
    event.preventDefault(); // our zoom, not the page's, and no scrolling meanwhile
    const [a, b] = event.touches;
    const frame = this.wrap.getBoundingClientRect();
    const anchor = { x: (a.clientX + b.clientX) / 2 - frame.left, y: (a.clientY + b.clientY) / 2 - frame.top };
    this.set(this.pinch.level * (spread(event.touches) / this.pinch.distance), anchor);
  }

  touchEnd(event) {
    if (!this.pinch || event.touches.length >= 2) return;
    this.pinch = null;
    if (this.level < 1.05) this.set(1);
  }

  dispose() {
    this.observer.disconnect();
    if (this.bar?.zoom === this) this.bar.setZoom(null);
  }
}

function spread(touches) {
  const [a, b] = touches;
  return Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY) || 1;
}
