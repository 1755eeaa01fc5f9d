// Deduction notes in words (the engine's `notes` op says what each hidden enemy piece can
// still be, from the player's own view only: docs/api.md). No DOM.

import { t } from "../i18n.js";

/** A note's compact label in words: "≥ Major", "≤ Captain", "Colonel–General",
 * "not Mine", "Bomb / Mine"; "" when the label says nothing. `name(kind)` is the short
 * name drawn on pieces. */
export function noteText(label, name) {
  if (!label || typeof label !== "object") return "";
  const list = (ids) => ids.map(name).join(" / ");
  let text = "";
  if (label.is) return name(label.is);
  if (label.min && label.max) text = t("notes.range", { low: name(label.min), high: name(label.max) });
  else if (label.min) text = t("notes.min", { piece: name(label.min) });
  else if (label.max) text = t("notes.max", { piece: name(label.max) });
  else if (label.not) return t("notes.not", { pieces: label.not.map(name).join(", ") });
  else if (label.one_of) return list(label.one_of);
  if (text && label.also?.length) text = `${text} / ${list(label.also)}`;
  return text;
}

/** The enemy pieces not yet accounted for: [{kind, count, colour?}] -> one line each,
 * in the variant's order. */
export function unaccountedLines(list, desc, name, colourName = null) {
  const order = (desc?.pieces || []).map((p) => p.id);
  return [...(list || [])]
    .filter((u) => u.count > 0)
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind)
      || String(a.colour || "").localeCompare(String(b.colour || "")))
    .map((u) => ({
      kind: u.kind,
      colour: u.colour || null,
      text: `${u.colour && colourName ? `${colourName(u.colour)} ` : ""}${name(u.kind)} ×${u.count}`,
    }));
}
