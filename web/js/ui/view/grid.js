// "Play with buttons": one button per square, laid out like the board as the player sees
// it. Arrow keys move between squares (roving tabindex), Enter or Space taps the square.

import { h, clear } from "./dom.js";
import { neighbour } from "./geometry.js";

export class ButtonGrid {
  constructor(onSquare) {
    this.onSquare = onSquare;
    this.root = h("div", { class: "button-grid", role: "group" });
    this.root.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-sq]");
      if (button) {
        this.focused = button.dataset.sq;
        this.onSquare(button.dataset.sq);
      }
    });
    this.root.addEventListener("keydown", (event) => this.onKey(event));
    this.buttons = new Map();
    this.focused = null;
  }

  build(geo, label) {
    this.geo = geo;
    clear(this.root);
    this.buttons.clear();
    this.root.setAttribute("aria-label", label);
    this.root.style.setProperty("--files", geo.files);
    this.root.classList.toggle("cross", Boolean(geo.cross)); // 17 columns: scrolled, not squeezed
    const order = [...geo.cells.entries()].sort(
      ([, a], [, b]) => a.row - b.row || a.col - b.col);
    for (const [name, cell] of order) {
      const button = h("button", { type: "button", class: "sq", "data-sq": name, tabindex: "-1" });
      button.style.gridRow = String(cell.row + 1);
      button.style.gridColumn = `${cell.col + 1} / span ${cell.span}`;
      this.buttons.set(name, button);
      this.root.append(button);
    }
    if (!this.buttons.has(this.focused)) this.focused = order.length ? order[order.length - 1][0] : null;
    this.updateTabStop();
  }

  /** info(name) -> {text, label, classes[]}: `text` is what is drawn, `label` what is read. */
  render(info) {
    for (const [name, button] of this.buttons) {
      const { text, label, classes } = info(name);
      const [shown, spoken] = button.children.length ? button.children
        : [h("span", { "aria-hidden": "true" }), h("span", { class: "sr-only" })];
      if (!button.children.length) button.append(shown, spoken);
      if (shown.textContent !== text) shown.textContent = text;
      if (spoken.textContent !== label) spoken.textContent = label;
      button.className = ["sq", ...classes].join(" ");
    }
    this.fit();
  }

  /** A word wider than its square is drawn smaller (never cut): once the grid is shown. */
  fit() {
    if (!this.root.offsetParent) return; // closed panel: fitted when it opens
    for (const button of this.buttons.values()) {
      const shown = button.firstElementChild;
      if (!shown) continue;
      shown.style.fontSize = "";
      const room = button.clientWidth - 4;
      const need = shown.scrollWidth;
      if (need <= room) continue;
      const size = parseFloat(getComputedStyle(shown).fontSize);
      shown.style.fontSize = `${Math.max(7, Math.floor((size * room * 10) / need) / 10)}px`;
    }
  }

  updateTabStop() {
    for (const [name, button] of this.buttons) button.tabIndex = name === this.focused ? 0 : -1;
  }

  focusSquare(name) {
    const button = this.buttons.get(name);
    if (!button) return;
    this.focused = name;
    this.updateTabStop();
    button.focus();
  }

  onKey(event) {
    const dirs = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    const dir = dirs[event.key];
    const current = event.target.closest("button[data-sq]");
    if (!current) return;
    let next = null;
    if (dir) next = this.neighbour(current.dataset.sq, dir);
    else if (event.key === "Home" || event.key === "End") {
      const names = [...this.buttons.keys()];
      next = event.key === "Home" ? names[0] : names[names.length - 1];
    } else return;
    event.preventDefault();
    if (next) this.focusSquare(next);
  }

  /** The nearest square in a direction on the displayed grid. */
  neighbour(name, dir) {
    return neighbour(this.geo.cells, name, dir, this.geo.sideways);
  }
}
