// Words for what happened, always in the viewer's terms: a player's own pieces are named,
// an enemy piece only when the viewer's view names it (Blind face-up pieces, game over).
// No DOM: these are called at render time, so a language change re-translates everything.
//
// ctx (GameController.ctx()): {desc, viewer: seat|null, you: bool (a game against the CPU),
//   isYou(seat), side(seat) -> name, piece(kind) -> name, flipName(ev) -> words}
//
// Grammar: a sentence whose subject is a player has a ".you" form ("You resigned.", not
// "You resigns."), used when that player is the person at this screen in a game against
// the CPU. A result reason has ".you_win" / ".you_lose" forms: the same end reads "You
// occupied the CPU's headquarters." from the winner's seat and "The CPU occupied your
// headquarters." from the loser's.

import { t, has, pieceName, shortName } from "../i18n.js";

/** t(key) with the ".you" form when the subject `seat` is the person at this screen. */
export function subject(key, seat, params, ctx) {
  if (ctx.isYou(seat) && has(`${key}.you`)) return t(`${key}.you`, params);
  return t(key, params);
}

/** The combat sentence for a move event with a combat, from the viewer's side. */
export function combatText(ev, ctx) {
  const c = ev.combat;
  const sq = c.square;
  const viewer = ctx.viewer;
  // four seats: a combat between two other armies is told as the public sees it
  const other = c.against !== undefined && ev.player !== viewer && c.against !== viewer;
  if (viewer === null || viewer === undefined || other) {
    const who = c.result === "attacker" ? "attacker" : c.result === "defender" ? "defender" : "both";
    return t(`combat.public.${who}`, { sq, side: ctx.side(ev.player) });
  }
  const attacking = ev.player === viewer;
  const mine = attacking ? c.attacker : c.defender;
  const theirs = attacking ? c.defender : c.attacker;
  const params = {
    sq,
    mine: mine ? ctx.piece(mine) : t("combat.piece"),
    theirs: theirs ? ctx.piece(theirs) : "",
  };
  return t(`combat.${combatOutcome(ev, viewer)}${theirs ? "_vs" : ""}`, params);
}

/** "win", "lose" or "both": how a combat went for `viewer` (the public sees "both" or null). */
export function combatOutcome(ev, viewer) {
  const result = ev.combat?.result;
  if (!result) return null;
  if (result === "both") return "both";
  if (viewer === null || viewer === undefined) return null;
  return (result === "attacker") === (ev.player === viewer) ? "win" : "lose";
}

/** One line of the move list (no hidden ranks: only flips name a piece, and flips are public). */
export function moveLine(ev, ctx) {
  const side = ctx.side(ev.player);
  const n = ev.ply + 1;
  switch (ev.type) {
    case "move": {
      let text = t("list.move", { n, side, from: ev.from, to: ev.to });
      if (ev.combat) text += " " + t(`list.combat.${ev.combat.result}`);
      return text + outMarks(ev, ctx);
    }
    case "flip":
      return t("list.flip", { n, side, sq: ev.square, piece: ctx.flipName(ev) });
    case "offer":
    case "accept":
    case "decline":
    case "resign":
      return subject(`list.${ev.type}`, ev.player, { side }, ctx);
    case "timeout":
      return t("list.timeout", { n, side }) + outMarks(ev, ctx);
    case "pass":
      return t("list.pass", { n, side }) + outMarks(ev, ctx);
    default:
      return `${side}: ${ev.action}`;
  }
}

/** A sentence for the live region and the message line about a player's action. */
export function eventText(ev, ctx) {
  const side = ctx.side(ev.player);
  const parts = [];
  const c = ev.combat;
  if (ev.type === "move" && c?.against !== undefined && ev.player !== ctx.viewer && c.against !== ctx.viewer) {
    // four seats: a combat the viewer had no piece in, in one short line
    parts.push(t(`say.took.${c.result}`, { side, from: ev.from, to: ev.to }));
  } else if (ev.type === "move") {
    parts.push(subject("say.move", ev.player, { side, from: ev.from, to: ev.to }, ctx));
    if (ev.combat) parts.push(combatText(ev, ctx));
  } else if (ev.type === "flip") {
    parts.push(subject("say.flip", ev.player, { side, sq: ev.square, piece: ctx.flipName(ev) }, ctx));
  } else if (ev.type === "timeout") {
    parts.push(subject("say.timeout", ev.player, { side }, ctx));
  } else if (ev.type === "pass") {
    parts.push(subject("say.pass", ev.player, { side }, ctx));
  } else if (["offer", "accept", "decline", "resign"].includes(ev.type)) {
    parts.push(subject(`say.${ev.type}`, ev.player, { side }, ctx));
  }
  if (ev.offer_lapsed) parts.push(t("say.offer_lapsed"));
  parts.push(...outTexts(ev, ctx));
  return parts.join(" ");
}

/** The move list: the armies an action took off the board (" — West out"). */
function outMarks(ev, ctx) {
  return (ev.out || []).map((gone) => " " + t("list.out", { side: ctx.side(gone.player) })).join("");
}

/** Four seats: the armies an action took off the board, and why ("West is out: its flag
 * was captured."); a flag shown to all. */
export function outTexts(ev, ctx) {
  const parts = (ev.out || [])
    .filter((gone) => !(ev.type === "resign" && gone.player === ev.player)) // "East resigns." says it
    .map((gone) => subject("say.out", gone.player, { side: ctx.side(gone.player), why: t(`out.${gone.reason}`) }, ctx));
  if (ev.flag_shown && ctx.desc?.sides?.length > 2) {
    parts.push(...ev.flag_shown.map((f) => t("say.flag_shown", { side: ctx.side(f.player), sq: f.square })));
  }
  return parts;
}

/** What the player at this screen did, in their own words ("Moved a6–a7."). */
export function ownText(ev, ctx, timeouts, maxTimeouts) {
  if (ev.type === "move") {
    const text = ev.combat ? combatText(ev, ctx) : t("say.own_move", { from: ev.from, to: ev.to });
    return [text, ev.offer_lapsed ? t("say.offer_lapsed") : "", ...outTexts(ev, ctx)].filter(Boolean).join(" ");
  }
  if (ev.type === "flip") return t("say.own_flip", { sq: ev.square, piece: ctx.flipName(ev) });
  if (ev.type === "timeout") {
    return [subject("say.own_timeout", ev.player, { side: ctx.side(ev.player), n: timeouts, max: maxTimeouts }, ctx),
      ...outTexts(ev, ctx)].join(" ");
  }
  if (ev.type === "offer") return t("say.own_offer");
  if (ev.type === "pass") return [t("say.own_pass", { n: timeouts, max: maxTimeouts }), ...outTexts(ev, ctx)].join(" ");
  if (ev.type === "resign") return t("say.own_resign");
  return eventText(ev, ctx);
}

/** Why the game ended, from the viewer's seat when it is a game against the CPU. */
export function reasonText(result, ctx) {
  const base = `reason.${result.reason}`;
  let key = base;
  if (result.winner !== null && ctx.you && ctx.viewer !== null && ctx.viewer !== undefined) {
    const form = `${base}.${result.winner === ctx.viewer ? "you_win" : "you_lose"}`;
    if (has(form)) key = form;
  }
  return t(key, {
    winner: result.winner === null ? "" : ctx.side(result.winner),
    loser: result.winner === null ? "" : ctx.side(1 - result.winner),
  });
}

export function resultText(result, ctx) {
  const reason = reasonText(result, ctx);
  if (result.winner === null) return t("result.draw", { reason });
  if (ctx.viewer !== null && ctx.viewer !== undefined && ctx.you) {
    return t(result.winner === ctx.viewer ? "result.you_win" : "result.you_lose", { reason });
  }
  return t("result.wins", { side: ctx.side(result.winner), reason });
}

/** The quiet-move counter, once it matters. */
export function quietText(view) {
  if (view.phase !== "play" || view.quiet < Math.min(20, view.quiet_limit / 4)) return "";
  return t("quiet", { n: view.quiet, limit: view.quiet_limit });
}

// --- pieces as a screen shows them (the game and the replay draw boards alike) -------------

/** The words context of a screen that draws a game (`ctrl`: desc, sideName, settings).
 * @param {any} ctrl
 * @param {{viewer: number | null, you?: boolean, isYou?: (seat: number) => boolean}} who */
export function wordContext(ctrl, { viewer, you = false, isYou = () => false }) {
  const piece = (kind) => pieceName(ctrl.desc?.family, kind);
  return {
    desc: ctrl.desc,
    viewer,
    you,
    isYou,
    side: (seat) => ctrl.sideName(seat),
    piece,
    short: (kind) => pieceLabel(ctrl.desc, ctrl.settings().labels, kind),
    flipName: (ev) => t("flip.piece", { colour: t(`colour.${ev.colour}`), piece: piece(ev.kind) }),
  };
}

/** What is written on a piece: its characters (司令) or a short word (Marshal). */
export function pieceLabel(desc, labels, kind) {
  if (labels === "characters") {
    const piece = desc?.pieces.find((p) => p.id === kind);
    if (piece) return piece.glyph;
  }
  return shortName(desc?.family, kind);
}

/** The rank number of a kind (null for pieces without one: bomb, mine, flag). */
export function pieceRank(desc, kind) {
  return desc?.pieces.find((p) => p.id === kind)?.rank ?? null;
}

/** The colour a piece is drawn in, a CSS class: the seat's colour in the description, or
 * (where play decides them: Blind's first flip) in the view's `colours`, else "none". */
export function colourClass(desc, colours, piece) {
  if ((piece.down && !piece.kind) || piece.owner === null || piece.owner === undefined) return "none";
  const chosen = desc?.colours || colours;
  return chosen ? chosen[piece.owner] : "none";
}
