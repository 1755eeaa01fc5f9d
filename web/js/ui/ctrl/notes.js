// Deduction notes in words (the engine's `notes` op says what each hidden enemy piece can
// still be, from the player's own view only: docs/api.md). No DOM.

import { t } from "../i18n.js";

/** A note in words, as short as it can be said: the engine's label ("= Major", "≥ Major",
 * "≤ Captain", "Colonel–General", "Bomb / Mine", "not Mine"), or, when shorter, "not …"
 * the few kinds the piece cannot be (`kinds`: the note's list). "mobile" is anything but
 * the pieces that never move, "ranked" anything but the pieces without a rank; "" when
 * the label says nothing. `name(kind)` is the short name drawn on pieces; `desc` the
 * variant's static description. */
export function noteText(label, name, desc = null, kinds = null) {
  const main = labelText(label, name, desc);
  if (!desc?.pieces || !Array.isArray(kinds) || kinds.length < 2) return main;
  const missing = desc.pieces.map((p) => p.id).filter((id) => !kinds.includes(id));
  if (!missing.length || missing.length > 3) return main;
  const other = notText(missing, name, desc);
  return !main || other.length < main.length ? other : main;
}

function labelText(label, name, desc) {
  if (!label || typeof label !== "object") return "";
  const list = (ids) => ids.map(name).join(" / ");
  let text = "";
  if (label.is) return t("notes.is", { piece: name(label.is) });
  if (label.min && label.max) text = t("notes.range", { low: name(label.min), high: name(label.max) });
  else if (label.min) text = t("notes.min", { piece: name(label.min) });
  else if (label.max) text = t("notes.max", { piece: name(label.max) });
  else if (label.not) return notText(label.not, name, desc);
  else if (label.one_of) return list(label.one_of);
  if (text && label.also?.length) text = `${text} / ${list(label.also)}`;
  return text;
}

function notText(ids, name, desc) {
  if (!ids?.length) return ""; // "not" nothing: the engine knows nothing of this piece yet
  const same = (kinds) => kinds.length === ids.length && kinds.every((id) => ids.includes(id));
  const pieces = desc?.pieces || [];
  if (pieces.length) {
    if (same(pieces.filter((p) => p.movable === false).map((p) => p.id))) return t("notes.mobile");
    if (same(pieces.filter((p) => p.rank === null || p.rank === undefined).map((p) => p.id))) {
      return t("notes.ranked");
    }
  }
  return t("notes.not", { pieces: ids.map(name).join(", ") });
}

/** The enemy pieces not yet accounted for: [{kind, count, colour?}] -> one line each,
 * by colour (Blind's face-down pool), then in the variant's order. */
export function unaccountedLines(list, desc, name, colourName = null) {
  const order = (desc?.pieces || []).map((p) => p.id);
  return [...(list || [])]
    .filter((u) => u.count > 0)
    .sort((a, b) => String(a.colour || "").localeCompare(String(b.colour || ""))
      || order.indexOf(a.kind) - order.indexOf(b.kind))
    .map((u) => ({
      kind: u.kind,
      colour: u.colour || null,
      text: `${u.colour && colourName ? `${colourName(u.colour)} ` : ""}${name(u.kind)} ×${u.count}`,
    }));
}

/** The notes army by army: [{seat, pieces, unaccounted}]. Four seats (Siguo) have one entry
 * per army still in whose ranks the seat does not see (`notes.armies`); two players one, the
 * enemy's (seat null: the notes do not name it). */
export function noteArmies(notes) {
  if (!notes || typeof notes !== "object") return [];
  if (Array.isArray(notes.armies)) {
    return notes.armies.map((a) => ({ seat: a.seat, pieces: a.pieces || {}, unaccounted: a.unaccounted || [] }));
  }
  return [{ seat: null, pieces: notes.pieces || {}, unaccounted: notes.unaccounted || [] }];
}

/** Every noted piece of every army: square -> note. */
export function notedPieces(notes) {
  return Object.assign({}, ...noteArmies(notes).map((a) => a.pieces));
}

/** An army's name in the notes: its seat's name, whose initial (or character) is the letter its
 * pieces carry on the board, so that it reads without telling the colours apart. */
export function armyName(desc, seat) {
  return t(`side.${desc?.id || "siguo"}.${seat}`);
}

/** Four seats: the notes panel's line per army ("East (B)" and "General ×1, Bomb ×2" or "all
 * accounted for"), in the armies' order. `name(kind)`: a piece's name.
 * @returns {{seat: number, colour: string, army: string, text: string}[]} */
export function armyLines(armies, desc, name) {
  return armies.filter((a) => a.seat !== null).map((a) => {
    const lines = unaccountedLines(a.unaccounted, desc, name);
    return {
      seat: a.seat,
      colour: desc?.colours?.[a.seat] || "none",
      army: armyName(desc, a.seat),
      text: lines.length ? lines.map((line) => line.text).join(", ") : t("notes.army_known"),
    };
  });
}
