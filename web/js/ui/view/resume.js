// The start screen's "Continue" (the saved game) and "Statistics", and what a game on
// screen needs for them: saved after every change, counted when it ends (ctrl/resume.js).

import { h, clear } from "./dom.js";
import { t } from "../i18n.js";
import { levelName } from "../ctrl/game.js";
import { Stats, SavedSummary, describeSaved, forgetSaved, resumeOptions, resumeViewer, keepSaving,
  countAtEnd, saveStored } from "../ctrl/resume.js";
import { Guesses } from "./guesses.js";

const stats = new Stats();
const summary = new SavedSummary();

/** A game on screen: marks and notes, saved after every change (against the CPU and on
 * one device), counted when it ends. */
export function watchGame(app, ctrl, view, saved = null) {
  const mode = ctrl.friend ? "friend" : ctrl.opts.mode;
  countAtEnd(ctrl, stats, mode);
  if (mode === "friend") return;
  const guesses = new Guesses(view, saved);
  keepSaving(ctrl, app.engine, () => ({ clock: Boolean(ctrl.opts.clock), ...guesses.pageData() }), summary);
}

/** The saved game's summary in words: "Classic Junqi · against the CPU (Easy) · move 12". */
export function savedText(info) {
  const mode = info.mode === "cpu"
    ? t("mode.cpu", { level: levelName(info.level) }) + (info.human === 1 ? ` · ${t("mode.second")}` : "")
    : t("mode.hotseat");
  const when = info.phase === "setup" ? t("resume.setup") : t("resume.move", { n: info.ply });
  return [t(`variant.${info.variant}`), mode, when].join(" · ");
}

/** The saved game as the summary in local storage tells it, at once (before the engine
 * is up): {saved, info} or null. */
export function localSaved(app) {
  const saved = summary.read();
  const info = saved ? describeSaved(saved, app.variants) : null;
  return info ? { saved, info } : null;
}

/** The saved game, if any, as the engine has it (checked): {saved, info} or null. The
 * local summary is brought in line with it. */
export async function loadSaved(app) {
  try {
    const reply = await app.engine.call({ op: "saved_game" });
    const saved = reply?.ok ? reply.saved : null;
    const info = saved ? describeSaved(saved, app.variants) : null;
    if (saved && !info) {
      // Not a summary this page can read: refused like a damaged save.
      await forgetSaved(app.engine, summary);
      console.warn("saved game refused: its summary is damaged");
      app.resumeNotice = t("resume.refused");
      return null;
    }
    if (reply?.ok) summary.write(saved?.summary ?? null, saved?.page);
    return info ? { saved, info } : null;
  } catch {
    return null;
  }
}

/** Continue the saved game; a refused save goes back to the start screen with a message. */
export async function continueGame(app, info) {
  const reply = await app.engine.call({ op: "resume_game", viewer: resumeViewer(info) });
  if (!reply.ok) {
    console.warn("saved game refused:", reply.error?.message); // the engine's words, in English
    summary.clear(); // the worker discarded it
    app.resumeNotice = t("resume.refused");
    app.showStart();
    return;
  }
  // The game's own rules came back with it (the summary says which).
  const checked = describeSaved({ summary: reply.summary, page: reply.page }, app.variants) || info;
  await app.startGame({ ...resumeOptions(checked), restored: reply, saved: reply.page });
}

/** The saved game a new game would replace: as the engine has it; before the engine is up,
 * as the local summary tells it. No summary is not taken for no save: when the browser's
 * storage holds one all the same (or cannot say), the engine is waited for. */
async function savedBeforeNewGame(app) {
  if (app.engine.ready) return loadSaved(app);
  const local = localSaved(app);
  if (local) return local;
  return (await saveStored()) === false ? null : loadSaved(app);
}

/** Before a new game replaces the saved game: ask. True to go on. An early Play (before
 * the engine is up) asks too. */
export async function replaceSaved(app, options) {
  if (options.mode === "friend") return true;
  const found = await savedBeforeNewGame(app);
  if (!found) return true;
  if (!(await app.confirm(t("resume.replace", { game: savedText(found.info) }), t("resume.replace_yes")))) {
    return false;
  }
  await forgetSaved(app.engine, summary);
  return true;
}

/** The player abandoned the game on screen (New game, Change mode): its save goes too. */
export function abandonSaved(app, ctrl) {
  if (ctrl?.friend || !ctrl?.gameId) return; // a friend game keeps its own save
  forgetSaved(app.engine, summary);
}

/** The start screen's box for the saved game: from the local summary at once, then as the
 * engine has it. */
export function continueBox(app) {
  const box = h("div", { class: "continue-box", id: "continue-box", hidden: true });
  const notice = app.resumeNotice;
  app.resumeNotice = null;
  let going = false; // Continue was pressed: the box waits for the engine
  const show = (found, message) => {
    clear(box);
    if (message) box.append(h("p", { class: "resume-notice", id: "resume-notice", role: "alert" }, message));
    if (found) {
      const waiting = h("p", { class: "hint", id: "continue-waiting", role: "status", hidden: true });
      const go = h("button", { type: "button", class: "primary", id: "btn-continue",
        on: { click: () => {
          going = true;
          go.disabled = true;
          if (!app.engine.ready) {
            waiting.textContent = t("resume.waiting");
            waiting.hidden = false;
          }
          continueGame(app, found.info);
        } } }, t("resume.continue"));
      const forget = h("button", { type: "button", id: "btn-forget-saved",
        on: { click: async () => {
          if (!(await app.confirm(t("resume.forget_confirm"), t("resume.forget")))) return;
          await forgetSaved(app.engine, summary);
          show(null, "");
        } } }, t("resume.forget"));
      box.append(h("h3", { id: "continue-title" }, t("resume.title")),
        h("p", { class: "continue-what", id: "continue-what" }, savedText(found.info)),
        h("div", { class: "row" }, go, forget), waiting);
    }
    box.hidden = !found && !message;
  };
  show(localSaved(app), notice);
  loadSaved(app).then((found) => {
    if (!box.isConnected || going) return; // the start screen was left, or Continue pressed
    const message = notice || app.resumeNotice || "";
    app.resumeNotice = null;
    show(found, message);
  });
  return box;
}

// --- statistics ----------------------------------------------------------------------------

function opponentName(opponent) {
  if (opponent === "hotseat") return t("stats.hotseat");
  if (opponent === "friend") return t("stats.friend");
  return t("stats.cpu", { level: levelName(opponent.replace(/^cpu:/, "")) });
}

/** The start screen's statistics: a table per variant and opponent, and Reset. */
export function statsBox(app) {
  const body = h("div", { class: "stats-body" });
  const box = h("details", { class: "stats", id: "stats-panel" },
    h("summary", { id: "stats-summary" }, t("stats.title")), body);
  const render = () => {
    clear(body);
    const rows = stats.rows(app.info.variants || []);
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
      stats.reset();
      render();
    } } }, t("stats.reset"));
    body.append(h("table", { class: "stats-table", id: "stats-table" }, h("thead", {}, head),
      h("tbody", {}, ...lines)),
    h("p", { class: "hint" }, t("stats.hotseat_note")), reset);
  };
  box.addEventListener("toggle", () => box.open && render());
  render();
  return box;
}
