// Marks: a player's own guesses on enemy pieces ("that one is a Major", "a mine?"). No DOM.
//
// A mark belongs to one seat and sits on a square; it follows its piece by the moves the
// engine reports (each history event's from -> to and combat result, which every viewer
// sees) and goes when the piece is removed, flipped or named by the view (an army that goes
// out leaves the board in the view that says so, and its marks go with that view). Marks are the
// player's own words, not hidden information, so the page keeps them (with the saved game);
// in a game on one device each seat has its own, shown only while that seat looks. With four
// seats (Siguo) a seat may mark a piece of any other army whose ranks it does not see (its
// partner's too, where the partner's ranks are hidden).
//
//   const book = new MarkBook(saved);       // saved: book.toJSON() of an earlier page
//   book.follow(view);                      // after every new view
//   book.set(seat, "c9", "major");          // a piece id of the variant, or "?"
//   book.forSeat(seat)                      // Map square -> tag

export const UNSURE = "?";

/** The tags a player may put on a piece: every kind of the variant, then "?". */
export function markChoices(desc) {
  return [...(desc?.pieces || []).map((p) => p.id), UNSURE];
}

/** Whether `seat` may mark the piece on `square` of its view: a piece of another army whose
 * kind the view does not name, during play (Blind has none: a face-up piece is known to both;
 * a face-down one belongs to nobody yet). */
export function markable(view, seat, square) {
  if (!Number.isInteger(seat) || view?.phase !== "play") return false;
  const piece = view.board?.[square];
  return Boolean(piece) && !piece.kind && !piece.down && Number.isInteger(piece.owner) && piece.owner !== seat;
}

const SQUARE = /^(?:[a-z]{1,3}\d{0,2}|[SENW][a-e][1-6]|C[1-3][1-3])$/;
export const MAX_SEATS = 4;
const isSeat = (seat) => Number.isInteger(seat) && seat >= 0 && seat < MAX_SEATS;

export class MarkBook {
  /** data: an earlier book's toJSON() (anything else gives an empty book). */
  constructor(data = null) {
    this.marks = [{}, {}];
    this.seen = 0; // history events already followed
    this.version = 0; // bumped on every change (the page saves when it moves)
    if (data && typeof data === "object" && Array.isArray(data.marks) && Number.isInteger(data.seen)) {
      this.seen = Math.max(0, data.seen);
      data.marks.slice(0, MAX_SEATS).forEach((marks, seat) => {
        this.marks[seat] ??= {};
        for (const [square, tag] of Object.entries(marks && typeof marks === "object" ? marks : {})) {
          if (SQUARE.test(square) && typeof tag === "string" && tag.length <= 40) this.marks[seat][square] = tag;
        }
      });
    }
  }

  toJSON() {
    return { v: 1, seen: this.seen, marks: this.marks };
  }

  get(seat, square) {
    return this.marks[seat]?.[square] ?? null;
  }

  /** Put a tag on a square (null removes it); `seat` 0 to 3 (a two-player game uses 0 and 1). */
  set(seat, square, tag) {
    if (!isSeat(seat)) return;
    for (let s = this.marks.length; s <= seat; s++) this.marks[s] = {};
    if (tag) this.marks[seat][square] = tag;
    else delete this.marks[seat][square];
    this.version++;
  }

  forSeat(seat) {
    return new Map(isSeat(seat) && this.marks[seat] ? Object.entries(this.marks[seat]) : []);
  }

  /** Follow the events of `view.history` not seen yet, then (in play) drop marks that no
   * longer sit on an unnamed piece. A view with a shorter history is not the engine's whole
   * view (the page's blank board while the curtain comes down): it changes nothing. */
  follow(view) {
    const history = view?.history || [];
    if (history.length < this.seen) return;
    for (const ev of history.slice(this.seen)) this.apply(ev);
    this.seen = history.length;
    if (view.phase === "play") this.prune(view);
  }

  /** One event: a move carries the marks on its piece; a combat removes the losers'. */
  apply(ev) {
    const before = JSON.stringify(this.marks);
    for (const marks of this.marks) {
      if (ev.type === "flip") {
        delete marks[ev.square];
        continue;
      }
      if (ev.type !== "move" || !ev.from || !ev.to) continue;
      const moving = marks[ev.from];
      delete marks[ev.from];
      const result = ev.combat?.result;
      if (result === "defender") continue; // the attacker was removed; the defender stays
      delete marks[ev.to]; // "attacker": the defender is gone; "both": both are
      if (moving && result !== "both") marks[ev.to] = moving;
    }
    if (JSON.stringify(this.marks) !== before) this.version++;
  }

  /** Marks only stay on pieces that are there and whose kind the view does not name. */
  prune(view) {
    const board = view?.board;
    if (!board || !Object.keys(board).length) return; // no real board to check against
    for (const marks of this.marks) {
      for (const square of Object.keys(marks)) {
        const piece = board[square];
        if (!piece || piece.kind) {
          delete marks[square];
          this.version++;
        }
      }
    }
  }
}
