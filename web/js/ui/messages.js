// Words for what happened, always in the viewer's terms: a player's own pieces are named,
// an enemy piece only when the viewer's view names it (Blind face-up pieces, game over).

import { t } from "./i18n.js";

/**
 * ctx: {viewer: seat|null, side(seat) -> name, piece(kind) -> name}
 * Returns the combat sentence for a move event with a combat, from the viewer's side.
 */
export function combatText(ev, ctx) {
  const c = ev.combat;
  const sq = c.square;
  const viewer = ctx.viewer;
  if (viewer === null || viewer === undefined) {
    const who = c.result === "attacker" ? "attacker" : c.result === "defender" ? "defender" : "both";
    return t(`combat.public.${who}`, { sq, side: ctx.side(ev.player) });
  }
  const attacking = ev.player === viewer;
  const mine = attacking ? c.attacker : c.defender;
  const theirs = attacking ? c.defender : c.attacker;
  let outcome;
  if (c.result === "both") outcome = "both";
  else if ((c.result === "attacker") === attacking) outcome = "win";
  else outcome = "lose";
  const params = {
    sq,
    mine: mine ? ctx.piece(mine) : t("combat.piece"),
    theirs: theirs ? ctx.piece(theirs) : "",
  };
  return t(`combat.${outcome}${theirs ? "_vs" : ""}`, params);
}

/** One line of the move list (no hidden ranks: only flips name a piece, and flips are public). */
export function moveLine(ev, ctx) {
  const side = ctx.side(ev.player);
  const n = ev.ply + 1;
  switch (ev.type) {
    case "move": {
      let text = t("list.move", { n, side, from: ev.from, to: ev.to });
      if (ev.combat) text += " " + t(`list.combat.${ev.combat.result}`);
      return text;
    }
    case "flip":
      return t("list.flip", { n, side, sq: ev.square, piece: ctx.flipName(ev) });
    case "offer":
    case "accept":
    case "decline":
    case "resign":
      return t(`list.${ev.type}`, { side });
    case "timeout":
      return t("list.timeout", { n, side });
    default:
      return `${side}: ${ev.action}`;
  }
}

/** A sentence for the live region and the message line about an opponent's action. */
export function eventText(ev, ctx) {
  const side = ctx.side(ev.player);
  const parts = [];
  if (ev.type === "move") {
    parts.push(t("say.move", { side, from: ev.from, to: ev.to }));
    if (ev.combat) parts.push(combatText(ev, ctx));
  } else if (ev.type === "flip") {
    parts.push(t("say.flip", { side, sq: ev.square, piece: ctx.flipName(ev) }));
  } else if (ev.type === "timeout") {
    parts.push(t("say.timeout", { side }));
  } else if (["offer", "accept", "decline", "resign"].includes(ev.type)) {
    parts.push(t(`say.${ev.type}`, { side }));
  }
  if (ev.offer_lapsed) parts.push(t("say.offer_lapsed"));
  return parts.join(" ");
}

export function resultText(result, ctx) {
  const reason = t(`reason.${result.reason}`, {
    winner: result.winner === null ? "" : ctx.side(result.winner),
    loser: result.winner === null ? "" : ctx.side(1 - result.winner),
  });
  if (result.winner === null) return t("result.draw", { reason });
  if (ctx.viewer !== null && ctx.you) {
    return t(result.winner === ctx.viewer ? "result.you_win" : "result.you_lose", { reason });
  }
  return t("result.wins", { side: ctx.side(result.winner), reason });
}
