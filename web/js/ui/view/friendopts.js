// The start screen's part for a friend game (friendOptions) and the STUN servers the page
// names: apart from the friend screen (view/friend.js, with the game screen, the QR code
// and the scanner), which is loaded on first use.

import { h } from "./dom.js";
import { t } from "../i18n.js";

/** This build's STUN URLs (build.py writes them). */
export const stunList = () => globalThis.window?.junqi?.build?.stun || [];

/** "stun:stun.example.org:3478" -> "stun.example.org" (what the page names to the player). */
export function stunHost(url) {
  return String(url).replace(/^stuns?:/, "").replace(/:\d+$/, "").replace(/\?.*$/, "");
}

// --- the start screen ------------------------------------------------------------------

/** One radio chip: a label holding its radio (invisible, over the whole chip: a tap on the
 * chip is one on the radio, and the radio's box is the chip's) and the chip's words. */
export function chipCell(input, text) {
  return h("label", { for: input.id, class: "chip-cell" }, input, h("span", { class: "chip" }, text));
}

/** The start screen's part for a friend game: how to connect, the clock, a pasted code, a
 * saved game. */
export function friendOptions(start, app) {
  const servers = stunList().map(stunHost).join(", ");
  const nets = h("fieldset", { class: "chips", id: "net-choice" },
    h("legend", {}, t("start.net")),
    h("div", { class: "chip-row" }, ...["lan", "stun"].flatMap((value) => {
      const input = h("input", { type: "radio", name: "net", value, id: `net-${value}`,
        checked: start.net === value, disabled: value === "stun" && !servers });
      input.addEventListener("change", () => input.checked && start.choose("net", value));
      return [chipCell(input, t(`start.net.${value}`))];
    })));
  const explain = h("p", { class: "hint", id: "net-explain" });
  const show = () => {
    explain.textContent = servers || start.net !== "stun"
      ? t(start.net === "stun" ? "friend.net.stun" : "friend.net.lan", { server: servers })
      : t("friend.no_stun");
  };
  start.subscribe(show);
  show();
  const clock = h("input", { type: "checkbox", id: "friend-clock-option", checked: start.clock });
  clock.addEventListener("change", () => start.choose("clock", clock.checked));
  start.subscribe(() => (clock.checked = start.clock));
  const paste = h("input", { type: "text", id: "friend-code", spellcheck: "false", autocomplete: "off",
    "aria-labelledby": "friend-code-label" });
  const go = h("button", { type: "button", id: "btn-friend-code",
    on: { click: () => paste.value.trim() && app.flows.openCode(paste.value) } }, t("friend.open_code"));
  const resume = app.saves.friend.underWay() ? h("div", { class: "friend-saved", id: "friend-saved" },
    h("p", { class: "hint" }, t("friend.saved")),
    h("div", { class: "row" },
      h("button", { type: "button", id: "btn-friend-resume", class: "primary",
        on: { click: () => app.flows.resumeFriend() } }, t("friend.resume")),
      h("button", { type: "button", id: "btn-friend-forget",
        on: { click: (event) => {
          app.flows.forgetFriend();
          event.target.closest(".friend-saved").remove();
        } } }, t("friend.forget")))) : null;
  return h("div", { class: "mode-options friend-options", id: "friend-options" },
    h("p", { class: "hint" }, t("start.friend.hint")),
    resume,
    nets, explain,
    h("div", { class: "option" }, clock, h("label", { for: "friend-clock-option" }, t("start.friend.clock"))),
    h("div", { class: "friend-code" },
      h("label", { id: "friend-code-label", for: "friend-code" }, t("friend.paste.invite")),
      h("div", { class: "row" }, paste, go)));
}
