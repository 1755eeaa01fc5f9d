// The start screen's "Continue" (the unfinished games) and "Statistics" boxes. The saved
// games and their flows are the app controller's (ui/ctrl/app.js, ui/ctrl/saves.js); the
// statistics are counted when a game ends (ui/ctrl/stats.js).

import { h, clear } from "./dom.js";
import { t } from "../i18n.js";
import { levelName } from "../ctrl/gamescreen.js";
import { savedText } from "../ctrl/saves.js";

/** The start screen's box for the unfinished games, newest first, each with Continue and
 * Discard (and a word when another tab plays it): from the local summaries at once, then
 * as the engine has them. */
export function continueBox(app) {
  const flows = app.flows;
  const box = h("div", { class: "continue-box", id: "continue-box", hidden: true });
  const notice = flows.takeNotice();
  let going = false; // Continue was pressed: the box waits for the engine
  /** @param {any[]} found @param {string} message */
  const show = (found, message) => {
    clear(box);
    if (message) box.append(h("p", { class: "resume-notice", id: "resume-notice", role: "alert" }, message));
    if (found.length) {
      const waiting = h("p", { class: "hint", id: "continue-waiting", role: "status", hidden: true });
      const games = found.map((entry) => {
        const what = h("p", { class: "continue-what" }, savedText(entry.info));
        const go = h("button", { type: "button", class: "primary continue-go",
          "aria-describedby": `continue-what-${entry.id}`,
          on: { click: () => {
            going = true;
            for (const button of box.querySelectorAll("button")) button.disabled = true;
            if (!app.engine.ready) {
              waiting.textContent = t("resume.waiting");
              waiting.hidden = false;
            }
            flows.continueSaved(entry);
          } } }, t("resume.continue"));
        what.id = `continue-what-${entry.id}`;
        const forget = h("button", { type: "button", class: "continue-forget",
          "aria-describedby": `continue-what-${entry.id}`,
          on: { click: async () => {
            if (!(await app.confirm(t("resume.forget_confirm"), t("resume.forget")))) return;
            if (await flows.forgetSaved(entry.id)) show(found.filter((e) => e !== entry), "");
          } } }, t("resume.forget"));
        const elsewhere = h("p", { class: "hint continue-elsewhere", hidden: true }, t("friend.elsewhere"));
        flows.playedElsewhere(entry.id).then((/** @type {boolean} */ held) => (elsewhere.hidden = !held));
        return h("li", { class: "continue-game", "data-save": entry.id }, what, elsewhere,
          h("div", { class: "row" }, go, forget));
      });
      box.append(h("h3", { id: "continue-title" }, t(found.length > 1 ? "resume.title_many" : "resume.title")),
        h("ul", { class: "continue-list", "aria-labelledby": "continue-title" }, ...games), waiting);
    }
    box.hidden = !found.length && !message;
  };
  show(flows.saves.peek(), notice);
  flows.checkSaved().then((found) => {
    if (!box.isConnected || going) return; // the start screen was left, or Continue pressed
    const message = notice || flows.takeNotice() || "";
    show(found, message);
  });
  return box;
}

// --- statistics ----------------------------------------------------------------------------

function opponentName(opponent) {
  if (opponent === "hotseat") return t("stats.hotseat");
  if (opponent === "friend") return t("stats.friend");
  // a team of CPUs (Siguo) may mix levels: "cpu:easy/medium"
  const levels = opponent.replace(/^cpu:/, "").split("/").map(levelName);
  return t("stats.cpu", { level: levels.join(", ") });
}

/** The start screen's statistics: a table per variant and opponent, and Reset. */
export function statsBox(app) {
  const body = h("div", { class: "stats-body" });
  const box = h("details", { class: "stats", id: "stats-panel" },
    h("summary", { id: "stats-summary" }, t("stats.title")), body);
  const render = () => {
    clear(body);
    const rows = app.stats.rows(app.info.variants || []);
    if (!rows.length) {
      body.append(h("p", { class: "hint", id: "stats-empty" }, t("stats.none")));
      return;
    }
    const head = h("tr", {}, h("th", { scope: "col" }, t("stats.game")),
      h("th", { scope: "col" }, t("stats.opponent")),
      h("th", { scope: "col", class: "num" }, t("stats.won")),
      h("th", { scope: "col", class: "num" }, t("stats.drawn")),
      h("th", { scope: "col", class: "num" }, t("stats.lost")));
    const lines = rows.map((row) => h("tr", { "data-row": `${row.variant}|${row.opponent}` },
      h("th", { scope: "row" }, t(`variant.${row.variant}`)),
      h("td", {}, opponentName(row.opponent)),
      h("td", { class: "num", "data-count": "won" }, String(row.won)),
      h("td", { class: "num", "data-count": "drawn" }, String(row.drawn)),
      h("td", { class: "num", "data-count": "lost" }, String(row.lost))));
    const reset = h("button", { type: "button", id: "btn-stats-reset", on: { click: async () => {
      if (!(await app.confirm(t("stats.reset_confirm"), t("stats.reset")))) return;
      app.stats.reset();
      render();
    } } }, t("stats.reset"));
    body.append(h("table", { class: "stats-table", id: "stats-table" }, h("thead", {}, head),
      h("tbody", {}, ...lines)),
    h("p", { class: "hint" }, t("stats.hotseat_note")),
    // four seats in two teams (Siguo): a result is the team's
    rows.some((row) => (app.variants?.[row.variant]?.sides?.length ?? 2) > 2)
      ? h("p", { class: "hint", id: "stats-team-note" }, t("stats.team_note")) : null,
    reset);
  };
  box.addEventListener("toggle", () => box.open && render());
  render();
  return box;
}
