// The player's marks and the deduction notes on the game screen (ctrl/marks.js,
// ctrl/notes.js). Attached to a GameView: a tap on an enemy piece whose kind is unknown
// (and that is no destination of the selected piece) opens the mark chooser; marks and
// notes are drawn in their own layer above the pieces, read out in the button grid, and
// the notes panel lists the enemy pieces not yet accounted for (with four seats, army by
// army: each army still in whose ranks the seat does not see, named by seat and colour letter).
//
// Only the seat that looks sees anything: under the hot-seat curtain (viewer null) neither
// marks nor notes are drawn, and notes are asked for that seat's own view only.

import { h, s, clear } from "./dom.js";
import { t } from "../i18n.js";
import { fitText, textWidth } from "./board.js";
import { MarkBook, markable, markChoices, UNSURE } from "../ctrl/marks.js";
import { armyLines, notedPieces, noteArmies, noteText, unaccountedLines } from "../ctrl/notes.js";
import { keepFocusInside } from "./dialogs.js";

export class Guesses {
  /** view: the GameView; saved: {marks} from a resumed game's page data */
  constructor(view, saved = null) {
    this.view = view;
    this.ctrl = view.ctrl;
    this.app = view.app;
    this.book = new MarkBook(saved?.marks);
    this.notes = null; // {key, notes}: the last notes reply
    this.asking = null;
    // Taps go through here first: an enemy piece to mark opens the chooser.
    const tap = (square) => this.tap(square);
    view.board.onSquare = tap;
    view.grid.onSquare = tap;
    view.board.afterDraw.push(() => this.drawBoard(this.tags())); // a new drawing: tags again
    this.build();
    this.ctrl.subscribe((what) => what !== "clock" && this.update());
    this.unsettings = this.app.settings.subscribe((name) => name === "notes" && this.update());
  }

  /** The seat whose marks and notes show: the seat looking (none under the curtain). */
  get seat() {
    const ctrl = this.ctrl;
    return ctrl.ui === "curtain" ? null : ctrl.viewer;
  }

  pageData() {
    return { marks: this.book.toJSON() };
  }

  // --- the notes panel ---------------------------------------------------------------------

  build() {
    const settings = this.app.settings;
    this.toggle = h("input", { type: "checkbox", id: "notes-option", checked: settings.notes });
    this.toggle.addEventListener("change", () => settings.set("notes", this.toggle.checked));
    this.list = h("ul", { class: "notes-list", id: "notes-list" });
    this.hint = h("p", { class: "hint notes-hint", id: "notes-hint" });
    this.panel = h("section", { class: "panel notes-panel", id: "notes-panel", "aria-labelledby": "notes-title" },
      h("h3", { id: "notes-title", "data-i18n": "notes.title" }, t("notes.title")),
      h("div", { class: "option" }, this.toggle,
        h("label", { for: "notes-option", "data-i18n": "notes.show" }, t("notes.show"))),
      this.hint, this.list,
      // a game of flips has nothing to mark: a face-up piece is known to both
      this.ctrl.desc?.rules?.flips ? null : this.marksHint());
    const lost = this.view.panels.querySelector("section.panel");
    lost.after(this.panel);
  }

  /** How to mark: an enemy piece; with four seats, a piece of any other army not shown. */
  marksHint() {
    const key = (this.ctrl.desc?.sides?.length ?? 2) > 2 ? "marks.hint_armies" : "marks.hint";
    return h("p", { class: "hint marks-hint", "data-i18n": key }, t(key));
  }

  // --- following the game ---------------------------------------------------------------------

  update() {
    const v = this.ctrl.view;
    if (v) this.book.follow(v);
    this.askNotes();
    this.draw();
  }

  notesWanted() {
    const v = this.ctrl.view;
    return this.app.settings.notes && this.seat !== null && v?.phase === "play"
      && Boolean(this.ctrl.session.gameId);
  }

  notesKey() {
    const v = this.ctrl.view;
    return `${this.ctrl.session.gameId}|${this.seat}|${v?.ply}|${v?.history?.length}`;
  }

  askNotes() {
    if (!this.notesWanted()) return;
    const key = this.notesKey();
    if (this.notes?.key === key || this.asking === key) return;
    this.asking = key;
    this.ctrl.notes(this.seat).then((reply) => {
      if (this.asking === key) this.asking = null;
      if (!reply?.ok || key !== this.notesKey()) return;
      this.notes = { key, notes: reply.notes };
      this.draw();
    }, () => {});
  }

  /** The notes of the current view, when they are on and up to date. */
  currentNotes() {
    return this.notesWanted() && this.notes?.key === this.notesKey() ? this.notes.notes : null;
  }

  // --- drawing ---------------------------------------------------------------------------------

  name(kind) {
    return this.ctrl.label(kind);
  }

  /** square -> {mark, note}: what to draw on the pieces of the seat looking. */
  tags() {
    const tags = new Map();
    const seat = this.seat;
    if (seat === null || this.ctrl.view?.phase !== "play") return tags;
    for (const [square, tag] of this.book.forSeat(seat)) {
      tags.set(square, { mark: tag === UNSURE ? "?" : this.name(tag), note: "" });
    }
    const notes = this.currentNotes();
    for (const [square, note] of Object.entries(notedPieces(notes))) {
      const text = noteText(note.label, (k) => this.name(k), this.ctrl.desc, note.kinds);
      if (!text) continue;
      tags.set(square, { mark: tags.get(square)?.mark || "", note: text });
    }
    return tags;
  }

  draw() {
    const tags = this.tags();
    this.drawBoard(tags);
    this.drawGrid(tags);
    this.drawPanel();
  }

  drawBoard(tags) {
    const board = this.view.board;
    const svg = board.svg;
    let layer = svg.querySelector("g.layer-tags");
    if (!layer) {
      layer = s("g", { class: "layer-tags" });
      board.layers.fx.before(layer); // above the pieces, below the effects and the hits
    }
    clear(layer);
    const { geo } = board;
    const { cell } = geo;
    const w = cell.tileW;
    const hgt = cell.tileH;
    for (const [square, tag] of tags) {
      const sq = geo.pos(square);
      if (!sq) continue;
      const piece = this.ctrl.view.board[square];
      const colour = piece ? this.ctrl.colourClass(piece) : "none";
      const g = s("g", { class: `tag ${colour}`, transform: `translate(${sq.x},${sq.y})`, "data-tag": square });
      if (tag.note) {
        // One line, or two for a long note; a deduced kind reads "= Major".
        const room = w - 8;
        const { lines, size, squeeze } = noteLayout(tag.note, room);
        const lineHeight = Math.round(size * 1.05);
        const middle = geo.river ? (tag.mark ? 8 : 5) : 1; // below a mark's tag
        const first = middle + Math.round(size * 0.36) - ((lines.length - 1) * lineHeight) / 2;
        const single = lines.length === 1;
        const text = s("text", { x: 0, y: first, class: "note-text", "font-size": size,
          textLength: single && squeeze ? room : null,
          lengthAdjust: single && squeeze ? "spacingAndGlyphs" : null, "data-note": square });
        if (single) text.textContent = tag.note;
        else {
          lines.forEach((line, i) => {
            const wide = textWidth(line, size) > room;
            text.append(s("tspan", { x: 0, dy: i ? lineHeight : 0, textLength: wide ? room : null,
              lengthAdjust: wide ? "spacingAndGlyphs" : null }, line));
          });
        }
        g.append(text);
      }
      if (tag.mark) {
        // A dashed tag on the piece's top edge: the player's own guess.
        const { size } = fitText(tag.mark, w - 12, 14);
        const tw = Math.min(w + 6, Math.max(24, textWidth(tag.mark, size) + 14));
        const th = 20;
        const top = -hgt / 2 - (geo.river ? 6 : 10);
        g.append(
          s("rect", { x: -tw / 2, y: top, width: tw, height: th, rx: th / 2, class: "mark-pill" }),
          s("text", { x: 0, y: top + th / 2 + size * 0.36, class: "mark-text", "font-size": size,
            "data-mark-tag": square }, tag.mark));
      }
      layer.append(g);
    }
  }

  /** The board's squares and the button grid read the marks and notes too. */
  drawGrid(tags) {
    const extras = new Map();
    for (const [square, tag] of tags) {
      const extra = [];
      if (tag.mark) extra.push(t("marks.read", { mark: tag.mark }));
      if (tag.note) extra.push(t("notes.read", { note: tag.note }));
      if (extra.length) extras.set(square, extra.join(", "));
    }
    this.view.setExtras(extras);
    for (const [square, button] of this.view.grid.buttons) {
      button.classList.toggle("marked", Boolean(tags.get(square)?.mark));
    }
  }

  drawPanel() {
    const on = this.app.settings.notes;
    this.toggle.checked = on;
    clear(this.list);
    const notes = this.currentNotes();
    this.list.hidden = !notes;
    let hint = "";
    if (!on) hint = t("notes.off");
    else if (this.seat === null || this.ctrl.view?.phase !== "play") hint = t("notes.later");
    else if (!notes) hint = t("notes.working");
    else {
      const armies = noteArmies(notes);
      const name = (k) => this.ctrl.pieceName(k);
      if (Array.isArray(notes.armies)) hint = this.drawArmies(armies, name); // four seats
      else {
        const lines = unaccountedLines(armies[0]?.unaccounted, this.ctrl.desc, name, (c) => t(`colour.${c}`));
        hint = lines.length ? t(this.ctrl.desc?.rules?.flips ? "notes.pool" : "notes.unaccounted")
          : t("notes.all_known");
        for (const line of lines) this.list.append(h("li", {}, line.text));
      }
    }
    this.hint.textContent = hint;
  }

  /** Four seats: one line per army still hidden to the seat ("East (B) General ×1, …"). Gives
   * the hint above the list. */
  drawArmies(armies, name) {
    const lines = armyLines(armies, this.ctrl.desc, name);
    for (const line of lines) {
      this.list.append(h("li", { class: `notes-army army-${line.colour}`, "data-army": String(line.seat) },
        h("strong", { class: "notes-army-name" }, line.army), " ", line.text));
    }
    return lines.length ? t("notes.by_army") : t("notes.no_army");
  }

  // --- marking ---------------------------------------------------------------------------------

  tap(square) {
    const ctrl = this.ctrl;
    const seat = this.seat;
    const attack = ctrl.targets.some((x) => x.to === square);
    if (!attack && !ctrl.busy && markable(ctrl.view, seat, square)) return this.choose(square);
    return ctrl.tap(square);
  }

  /** The chooser: every kind of the variant, "?", and remove. */
  choose(square) {
    const seat = this.seat;
    const current = this.book.get(seat, square);
    const dialog = h("dialog", { class: "mark-chooser", id: "mark-chooser", "aria-labelledby": "mark-title",
      "data-reference": "" });
    const opener = /** @type {HTMLElement} */ (document.activeElement);
    const close = () => {
      dialog.close();
      dialog.remove();
      // focus goes back to the square's button, or to the square on the board
      if (opener?.isConnected && opener !== document.body) opener.focus({ preventScroll: true });
      else this.view.board.focusSquare(square);
    };
    const pick = (tag) => {
      this.book.set(seat, square, tag);
      close();
      this.draw();
      this.ctrl.changed(); // the saved game keeps the marks
      this.app.say(tag ? t("marks.said", { sq: square, mark: tag === UNSURE ? "?" : this.ctrl.pieceName(tag) })
        : t("marks.removed", { sq: square }));
    };
    const buttons = markChoices(this.ctrl.desc).map((tag) => {
      const label = tag === UNSURE ? t("marks.unsure") : this.ctrl.pieceName(tag);
      const short = tag === UNSURE ? "?" : this.name(tag);
      return h("button", { type: "button", class: `mark-choice${tag === current ? " current" : ""}`,
        "data-choice": tag, "aria-pressed": String(tag === current), "aria-label": label,
        on: { click: () => pick(tag) } },
      h("span", { class: "mark-short", "aria-hidden": "true" }, short),
      short !== label ? h("span", { class: "mark-long", "aria-hidden": "true" }, label) : null);
    });
    dialog.append(
      h("p", { id: "mark-title", class: "mark-title" }, t("marks.title", { sq: square })),
      h("div", { class: "mark-grid" }, ...buttons),
      h("div", { class: "row" },
        current ? h("button", { type: "button", "data-choice": "", on: { click: () => pick(null) } },
          t("marks.remove")) : null,
        h("button", { type: "button", "data-choice": "cancel", on: { click: close } }, t("action.cancel"))));
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      close();
    });
    keepFocusInside(dialog);
    this.app.root.append(dialog);
    dialog.showModal();
    dialog.querySelector(".mark-choice.current, .mark-choice")?.focus();
    return Promise.resolve(true);
  }

  dispose() {
    this.unsettings?.();
  }
}

/** A note on a tile: one line at 12 units or more, else two lines split where they come
 * out biggest (a note never shrinks below what a phone can read if two lines help). */
function noteLayout(text, room) {
  const one = fitText(text, room, 15);
  const words = text.split(" ");
  if (one.size >= 12 || words.length < 2) return { lines: [text], ...one };
  let best = null;
  for (let i = 1; i < words.length; i++) {
    const lines = [words.slice(0, i).join(" "), words.slice(i).join(" ")];
    const fits = lines.map((line) => fitText(line, room, 14));
    const size = Math.min(...fits.map((f) => f.size));
    const squeeze = lines.some((line) => textWidth(line, size) > room);
    if (!best || size > best.size) best = { lines, size, squeeze };
  }
  return best.size > one.size ? best : { lines: [text], ...one };
}
