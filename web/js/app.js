// The game UI, mounted by main.js at once: mount(root, engine, data).
// `engine` is an EngineLink (calls wait until Python is up); `data` holds the engine's
// static answers ({version, variants}) that build.py wrote, so the start screen and the
// boards are drawn before the engine answers anything.
//
// Python decides, JS draws: every rule, view and CPU move comes from junqi_core through
// engine.call(). ui/ctrl/ keeps state and actions (no DOM); ui/view/ draws them.

import { h, clear } from "./ui/view/dom.js";
import * as i18n from "./ui/i18n.js";
import { t } from "./ui/i18n.js";
import { setBase } from "./ui/assets.js";
import * as prefs from "./ui/prefs.js";
import { StartController } from "./ui/ctrl/start.js";
import { StartView } from "./ui/view/start.js";
import { GameController } from "./ui/ctrl/game.js";
import { GameView } from "./ui/view/game.js";
import { showRules, confirmDialog } from "./ui/view/dialogs.js";
import { Settings } from "./ui/ctrl/settings.js";
import { AppBar } from "./ui/view/bar.js";
import { Sound } from "./ui/view/sound.js";
import { startFriend, openFriendLink, replaceFriendSaved } from "./ui/view/friend.js";
import { ReplayController } from "./ui/ctrl/replay.js";
import { ReplayView } from "./ui/view/replay.js";
import { watchGame, replaceSaved, abandonSaved, continueBox, statsBox } from "./ui/view/resume.js";
import { stepLabels } from "./ui/view/start.js";

// The address of a shared replay: #replay=<record_link payload> (docs/records.md).
const REPLAY_KEY = "replay";
const MAX_FILE_BYTES = 1_500_000; // the engine refuses records over 1,000,000 characters

/** The replay payload in a page's fragment, or null. */
export function replayFragment(hash) {
  const text = String(hash || "").replace(/^#/, "");
  return text ? new URLSearchParams(text).get(REPLAY_KEY) : null;
}

// ?moveclock=N shortens the two-player clocks to N seconds (tests).
const CLOCK_TEST = Number(new URLSearchParams(location.search).get("moveclock")) || 0;

/** Draw the start screen in `root` and keep the app on `window.junqiUI`.
 * @param {HTMLElement} root
 * @param {any} engine the Engine (or its link, while it starts)
 * @param {{version: any, variants: any}} data the engine's static answers (build time)
 * @param {{loader?: any, assets?: string}} [parts] the loading indicator, the assets' URL */
export async function mount(root, engine, data, { loader, assets } = {}) {
  root.dataset.ui = "loading";
  if (assets) setBase(assets);
  await i18n.setLanguage(i18n.detect(prefs.get("lang")));
  const app = new App(root, engine, data, loader);
  window.junqiUI = app; // for tests and the console: app.game.view is what the viewer knows
  // A shared replay in the address opens straight into it (the start screen never shows
  // first); else the start screen, and a friend's invitation or reply, or a game to go on with.
  if (!app.openReplayLink()) {
    app.showStart();
    openFriendLink(app);
  }
  addEventListener("hashchange", () => app.openReplayLink());
  root.dataset.ui = "ready";
  return app;
}

class App {
  constructor(root, engine, data, loader) {
    this.root = root;
    this.engine = engine;
    this.info = data.version;
    this.variants = data.variants;
    this.loader = loader;
    this.settings = new Settings(prefs, () => i18n.language());
    this.start = new StartController({ info: this.info, variants: this.variants, store: prefs });
    /** @type {GameController & {friend?: boolean, rematch?: () => any}} */
    this.game = null; // the GameController on screen (a FriendGame adds friend, rematch)
    this.gameView = null;
    this.replay = null; // the ReplayView on screen (over the game's end screen, if any)
    this.notice = ""; // a message for the start screen (a record or link that was refused)
    this.startView = null;
    this.sound = new Sound(this.settings);
    this.bar = new AppBar(this, this.settings);
    this.settings.subscribe((name) => this.applySetting(name));
    this.screen = h("div", { class: "screen" });
    this.live = h("div", { class: "sr-only", id: "live", "aria-live": "polite", role: "status" });
    clear(root);
    root.append(this.screen, this.live);
    this.labelShell();
    this.applySetting("view3d");
  }

  /** What changes outside #app with the language: the header and the loading indicator. */
  labelShell() {
    this.setTitle(this.gameView ? this.game.title() : null);
    this.loader?.setLabels(stepLabels());
  }

  /** The header's subtitle: the game on screen, or the site's. */
  setTitle(title) {
    const subtitle = document.querySelector(".site-header .subtitle");
    if (subtitle) subtitle.textContent = title || i18n.t("title.subtitle");
  }

  async setLanguage(lang) {
    prefs.set("lang", lang);
    await i18n.setLanguage(lang);
    this.relabel();
  }

  applySetting(name) {
    document.documentElement.dataset.view = this.settings.view3d ? "3d" : "flat";
    if (name === "labels" || name === "ranks") {
      this.gameView?.render();
      this.replay?.render();
    }
  }

  gameVariant() {
    return this.game?.variant;
  }

  relabel() {
    this.labelShell();
    this.bar.render();
    if (this.replay) this.replay.relabel();
    if (this.gameView) this.gameView.relabel();
    else if (!this.replay) this.showStart();
  }

  say(text) {
    // Re-setting the same text is not announced; clear first, then set it a moment later.
    clearTimeout(this.sayTimer);
    this.live.textContent = "";
    if (text) this.sayTimer = setTimeout(() => (this.live.textContent = text), 30);
  }

  endGame() {
    this.endReplay();
    if (this.gameView) this.gameView.dispose();
    this.game = null;
    this.gameView = null;
  }

  showStart(notice = "") {
    const fromGame = Boolean(this.game);
    this.endGame();
    this.startView?.dispose();
    this.say("");
    clear(this.screen);
    this.notice = notice;
    this.startView = new StartView(this.start, this);
    this.screen.append(this.startView.root);
    this.bar.setGame(false);
    document.documentElement.dataset.screen = "start";
    this.setTitle(null);
    document.title = i18n.t("title.site");
    if (fromGame) this.startView.focusFirst();
  }

  /** Play button of the start screen (a new game replaces the saved one: asked first). */
  async play(options) {
    const friend = options.mode === "friend";
    if (!(await (friend ? replaceFriendSaved(this) : replaceSaved(this, options)))) return;
    return this.startGame(options);
  }

  /** The start screen's extra boxes: the saved game to continue, the statistics. */
  startExtras() {
    return { resume: continueBox(this), stats: statsBox(this) };
  }

  /** A game screen was built: marks, notes, saving, statistics (view/resume.js). */
  watch(ctrl, view, saved = null) {
    watchGame(this, ctrl, view, saved);
  }

  async startGame(options) {
    if (options.mode === "friend") return startFriend(this, options);
    const { saved, ...rest } = options; // saved: a resumed game's page data (marks)
    options = rest;
    this.endGame();
    this.startView?.dispose();
    this.startView = null;
    clear(this.screen);
    const game = new GameController({
      engine: this.engine,
      desc: this.variants[options.variant],
      options,
      store: prefs,
      settings: () => this.settings.snapshot(),
      clockSeconds: CLOCK_TEST || undefined,
      setupSeconds: CLOCK_TEST || undefined,
      cpuMinMs: matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : undefined,
    });
    this.game = game;
    this.gameView = new GameView(this, game);
    this.watch(game, this.gameView, saved);
    this.screen.append(this.gameView.root);
    this.bar.setGame(true);
    document.documentElement.dataset.screen = "game";
    this.gameView.render();
    document.title = `${i18n.t(`variant.${options.variant}`)} — ${i18n.t("title.site")}`;
    await game.start();
  }

  async newGame() {
    const game = this.game;
    if (game.inProgress()) {
      if (!(await this.confirm(i18n.t("confirm.new"), i18n.t("action.new")))) return;
      abandonSaved(this, game); // abandoned: not offered to continue
    }
    this.startGame(game.nextOptions());
  }

  rematch() {
    if (this.game?.friend) return this.game.rematch(); // both ask; seats switch
    this.startGame(this.game.nextOptions(true));
  }

  async changeMode() {
    if (this.game.inProgress()) {
      if (!(await this.confirm(i18n.t("confirm.mode"), i18n.t("action.mode")))) return;
      abandonSaved(this, this.game); // abandoned: not offered to continue
    }
    this.showStart();
  }

  // --- replays -------------------------------------------------------------------------

  /** The finished game on screen, replayed from its end screen (Close comes back to it). */
  async replayGame() {
    const game = this.game;
    const source = await game?.replaySource();
    if (!source || game !== this.game) return;
    const error = await this.openReplay(source);
    if (error && game === this.game) {
      game.setMessage(() => t("replay.error", { message: error }));
      game.changed();
    }
  }

  /** A record from a file (its text): refused with the engine's reason on the start screen. */
  async openRecordFile(file) {
    if (!file) return false;
    if (file.size > MAX_FILE_BYTES) {
      this.startView?.setNotice(t("start.bad_file", { message: t("start.too_large") }), true, "open");
      return false;
    }
    this.startView?.setNotice(t("replay.loading"), false, "open");
    let text;
    try {
      text = await file.text();
    } catch (err) {
      this.startView?.setNotice(t("start.bad_file", { message: err.message || String(err) }), true, "open");
      return false;
    }
    const error = await this.openReplay({ record: text });
    if (error) this.startView?.setNotice(t("start.bad_file", { message: error }), true, "open");
    return !error;
  }

  /** #replay=… in the address: the replay screen at once ("Preparing the replay…"), filled
   * in when the engine answers; a link the engine refuses goes to the start screen with its
   * reason. False: no link. */
  openReplayLink() {
    const payload = replayFragment(location.hash);
    if (payload === null) return false;
    history.replaceState(null, "", location.pathname + location.search);
    (async () => {
      if (this.game?.inProgress() && !(await this.confirm(t("confirm.replay"), t("replay.title")))) return;
      if (this.gameView) this.endGame();
      const ctrl = this.replayController({ link: payload });
      this.showReplay(ctrl);
      const loaded = await ctrl.load();
      if (this.replay?.ctrl !== ctrl) return; // closed before the engine answered
      if (loaded) document.title = `${ctrl.title()} — ${i18n.t("title.site")}`;
      else this.showStart(t("start.bad_link", { message: ctrl.error || "?" }));
    })();
    return true;
  }

  replayController(source) {
    return new ReplayController({ engine: this.engine, variants: this.variants, source,
      settings: () => this.settings.snapshot() });
  }

  /** Ask the engine for the replay and show it; returns null, or the engine's reason. */
  async openReplay(source) {
    const ctrl = this.replayController(source);
    if (!(await ctrl.load())) return ctrl.error || "?";
    this.showReplay(ctrl);
    return null;
  }

  /** The replay screen of this controller (loaded or still waiting for the engine). */
  showReplay(ctrl) {
    this.endReplay();
    this.titleBefore = document.title;
    if (this.gameView) {
      this.gameView.root.remove(); // kept: Close comes back to the end screen
    } else {
      this.startView?.dispose();
      this.startView = null;
    }
    clear(this.screen);
    this.replay = new ReplayView(this, ctrl);
    this.screen.append(this.replay.root);
    this.bar.setGame(false);
    document.documentElement.dataset.screen = "replay";
    document.title = `${ctrl.title()} — ${i18n.t("title.site")}`;
    this.replay.render();
    scrollTo(0, 0); // the board from its top, wherever the screen before was scrolled
    this.replay.status.focus({ preventScroll: true });
  }

  endReplay() {
    if (!this.replay) return;
    this.replay.dispose();
    this.replay.root.remove();
    this.replay = null;
  }

  /** Close: back to the game's end screen it came from, else to the start screen. */
  closeReplay() {
    if (!this.gameView) return this.showStart();
    this.endReplay();
    clear(this.screen);
    this.screen.append(this.gameView.root);
    this.bar.setGame(true);
    document.documentElement.dataset.screen = "game";
    document.title = this.titleBefore || document.title;
    this.gameView.render();
    this.gameView.root.querySelector("#btn-replay")?.focus({ preventScroll: true });
  }

  rules(variant) {
    return showRules(this.root, variant);
  }

  confirm(message, yes) {
    return confirmDialog(this.root, message, yes);
  }
}
