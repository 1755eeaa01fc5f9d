// Short screens between the start screen and a friend game: a message with a way back, the
// game played in another tab (move it here?), and an invitation to join. Drawn when the
// flows ask (ui/ctrl/app.js); their buttons report to the flows. Each returns the button
// that takes focus.

import { h } from "./dom.js";
import { t } from "../i18n.js";
import { stunList, stunHost } from "./friendopts.js";

/** One message and a way back. */
export function noticeScreen(app, text) {
  const back = h("button", { type: "button", class: "primary", id: "btn-notice-back",
    on: { click: () => app.flows.toStart() } }, t("friend.back_start"));
  app.replaceScreen(h("section", { class: "friend-notice", id: "friend-notice", role: "status" },
    h("p", {}, text), back));
  return back;
}

/** The game is played in another tab of this browser: say so, and offer to move it here
 * (that tab lets go; this one goes on from the saved state, as after a reload). */
export function elsewhereScreen(app, tag, text) {
  const state = h("p", { class: "hint", id: "friend-moving", role: "status" });
  const abort = new AbortController();
  const move = h("button", { type: "button", class: "primary", id: "btn-friend-move",
    on: { click: () => {
      move.disabled = true;
      state.textContent = t("friend.moving");
      app.flows.moveHere(tag, abort.signal);
    } } }, t("friend.move_here"));
  const back = h("button", { type: "button", id: "btn-notice-back",
    on: { click: () => {
      abort.abort();
      app.flows.toStart();
    } } }, t("friend.back_start"));
  app.replaceScreen(h("section", { class: "friend-notice", id: "friend-elsewhere", role: "status" },
    h("p", {}, text), h("div", { class: "row" }, move, back), state));
  return move;
}

/** The invitation: what joining means (and whom the page will contact), then Join.
 * about: {offer: the game offered in words (or null), replaces: a friend game under way
 * would be replaced}. */
export function joinScreen(app, signal, { offer, replaces }) {
  const stun = signal.net === "stun";
  const servers = stunList().map(stunHost).join(", ");
  const join = h("button", { type: "button", class: "primary big", id: "btn-join",
    disabled: stun && !servers,
    on: { click: () => app.flows.startFriend({ mode: "friend", role: "guest", signal }) } },
  t("friend.join"));
  // the game offered, before the player accepts (the host's claim: checked at the hello)
  app.replaceScreen(h("section", { class: "friend-notice friend-join", id: "friend-join",
    "aria-labelledby": "friend-join-title" },
  h("h2", { id: "friend-join-title" }, t("friend.title.join")),
  offer ? h("dl", { class: "friend-offer", id: "friend-offer" },
    h("dt", {}, t("friend.offer.game")), h("dd", { "data-offer": "variant" }, offer.variant),
    h("dt", {}, t("friend.offer.rules")), h("dd", { "data-offer": "rules" }, offer.rules),
    h("dt", {}, t("friend.offer.time")), h("dd", { "data-offer": "clock" }, offer.clock))
    : h("p", { id: "friend-offer" }, t("friend.offer.unknown")),
  h("p", {}, t(stun ? "friend.net.stun" : "friend.net.lan", { server: servers })),
  stun && !servers ? h("p", { role: "alert" }, t("friend.no_stun")) : null,
  replaces ? h("p", {}, t("friend.join_replaces")) : null,
  h("div", { class: "row" }, join,
    h("button", { type: "button", on: { click: () => app.flows.toStart() } }, t("friend.not_now")))));
  return join;
}
