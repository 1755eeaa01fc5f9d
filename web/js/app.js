// The game UI, mounted by main.js at once: mount(root, engine, data).
// `engine` is an EngineLink (calls wait until Python is up); `data` holds the engine's
// static answers ({version, variants}) that build.py wrote, so the start screen and the
// boards are drawn before the engine answers anything.
//
// Python decides, JS draws: every rule, view and CPU move comes from junqi_core through
// engine.call(). ui/ctrl/ keeps state and actions (no DOM): the flows from screen to screen
// are ui/ctrl/app.js (AppController, `app.flows`); this file is the page around them: it
// draws the screen the flows ask for (the `Screens` they take), the header and the live
// region, and applies the settings.

import { h, clear } from "./ui/view/dom.js";
import * as i18n from "./ui/i18n.js";
import { setBase } from "./ui/assets.js";
import * as prefs from "./ui/prefs.js";
import { StartController } from "./ui/ctrl/start.js";
import { StartView, stepLabels } from "./ui/view/start.js";
import { showRules, confirmDialog } from "./ui/view/dialogs.js";
import { Settings } from "./ui/ctrl/settings.js";
import { AppBar } from "./ui/view/bar.js";
import { Theme } from "./ui/view/theme.js";
import { Sound } from "./ui/view/sound.js";
import { stunList } from "./ui/view/friendopts.js";
import { noticeScreen, elsewhereScreen, joinScreen } from "./ui/view/notices.js";
import { continueBox, statsBox } from "./ui/view/resume.js";
import { AppController } from "./ui/ctrl/app.js";
import { Saves } from "./ui/ctrl/saves.js";
import { Stats } from "./ui/ctrl/stats.js";
import { Channel } from "./net/rtc.js";
import { TabRelay } from "./net/tabs.js";
import { decodeSignal, encodeSignal, fragmentCode, signalURL } from "./net/link.js";

// The address of a shared replay: #replay=<record_link payload> (docs/records.md).
const REPLAY_KEY = "replay";

/** The replay payload in a page's fragment, or null. @param {string} hash */
export function replayFragment(hash) {
  const text = String(hash || "").replace(/^#/, "");
  return text ? new URLSearchParams(text).get(REPLAY_KEY) : null;
}

/** @typedef {typeof import("./ui/view/screens.js")} ScreensModule */
/** @type {Promise<ScreensModule> | null} */
let screensLoading = null;
/** @type {ScreensModule | null} */
let screensLoaded = null;

/** The game, replay and friend screens' code (ui/view/screens.js), loaded once, on first
 * use or when the start screen is idle: the start screen does not wait for it. */
export function loadScreens() {
  screensLoading ??= import("./ui/view/screens.js").then((module) => (screensLoaded = module));
  return screensLoading;
}

/** `fn` once the page is idle (soon after the start screen has drawn). */
function whenIdle(fn) {
  if ("requestIdleCallback" in globalThis) requestIdleCallback(fn, { timeout: 2000 });
  else setTimeout(fn, 200);
}

// ?moveclock=N shortens the two-player clocks to N seconds (tests).
const CLOCK_TEST = Number(new URLSearchParams(location.search).get("moveclock")) || 0;
// ?cpupace=N: tests only (each CPU seat's move of a four-seat game stays N ms on screen)
const PACE_TEST = new URLSearchParams(location.search).get("cpupace");

/** Draw the start screen in `root` and keep the app on `window.junqiUI`.
 * @param {HTMLElement} root
 * @param {any} engine the Engine (or its link, while it starts)
 * @param {{version: any, variants: any}} data the engine's static answers (build time)
 * @param {{loader?: any, assets?: string, english?: Record<string, string>}} [parts] the loading
 *   indicator, the assets' URL, the English strings (built into start-data.js) */
export async function mount(root, engine, data, { loader, assets, english } = {}) {
  root.dataset.ui = "loading";
  if (assets) setBase(assets);
  if (english) i18n.provide("en", english); // from the build: no request for them
  await i18n.setLanguage(i18n.detect(prefs.get("lang")));
  const app = new App(root, engine, data, loader);
  window.junqiUI = app; // for tests and the console: app.game.view is what the viewer knows
  // A shared replay in the address opens straight into it (the start screen never shows
  // first); else the start screen, and a friend's invitation or reply, or a game to go on with.
  if (!app.openReplayLink()) {
    app.flows.toStart();
    app.openFriendLink();
  }
  addEventListener("hashchange", () => app.openChangedLink());
  root.dataset.ui = "ready";
  // the other screens' code, fetched while the player looks at the start screen, so the
  // first game opens as fast as when it was part of this file
  whenIdle(() => loadScreens().catch(() => {})); // a failure shows when a screen is opened
  return app;
}

/** The address without its fragment (a link is used once). */
function dropFragment() {
  history.replaceState(null, "", location.pathname + location.search);
}

class App {
  constructor(root, engine, data, loader) {
    this.root = root;
    this.engine = engine;
    this.info = data.version;
    this.variants = data.variants;
    this.loader = loader;
    this.settings = new Settings(prefs, () => i18n.language());
    this.theme = new Theme(this.settings); // light or dark colours
    this.start = new StartController({ info: this.info, variants: this.variants, store: prefs });
    this.saves = new Saves({ engine, variants: this.variants });
    this.stats = new Stats();
    this.flows = new AppController({
      engine, variants: this.variants, screens: this, saves: this.saves, stats: this.stats,
      store: prefs, settings: () => this.settings.snapshot(), tabs: () => new TabRelay(),
      net: { Channel, encodeSignal, decodeSignal, signalURL }, stun: stunList(),
      pageURL: () => location.href,
      gameDeps: {
        clockSeconds: CLOCK_TEST || undefined, // ?moveclock=N: tests only
        setupSeconds: CLOCK_TEST || undefined,
        cpuPaceMs: PACE_TEST === null ? undefined : Number(PACE_TEST) || 0,
        // read at each new game: a player who asks for less motion (now or since the page
        // opened) gets the CPU's move without the "thinking" pause
        get cpuMinMs() {
          return matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : undefined;
        },
      },
    });
    this.gameView = null; // the game screen (a GameView, or a FriendView around one)
    this.replayView = null; // the replay screen (over the game's end screen, if any)
    this.pending = null; // a screen waiting for its code (loadScreens), until it is drawn
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

  /** The game on screen (its GameController), for the views, tests and the console. */
  get game() {
    return this.flows.game;
  }

  /** What changes outside #app with the language: the header and the loading indicator. */
  labelShell() {
    this.setTitle(this.gameView ? this.game?.title() : null);
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
    if (name === "theme") this.theme.apply();
    if (name === "labels" || name === "ranks") {
      this.gameView?.render();
      this.replayView?.render();
    }
  }

  gameVariant() {
    return this.game?.variant;
  }

  relabel() {
    this.labelShell();
    this.bar.render();
    if (this.replayView) this.replayView.relabel();
    if (this.gameView) this.gameView.relabel();
    else if (!this.replayView && !this.pending) this.flows.toStart();
  }

  say(text) {
    // Re-setting the same text is not announced; clear first, then set it a moment later.
    clearTimeout(this.sayTimer);
    this.live.textContent = "";
    if (text) this.sayTimer = setTimeout(() => (this.live.textContent = text), 30);
  }

  rules(variant) {
    return showRules(this.root, variant);
  }

  confirm(message, yes) {
    return confirmDialog(this.root, message, yes);
  }

  // --- links in the address ----------------------------------------------------------

  /** #replay=… in the address: opens that replay (its screen at once, filled in when the
   * engine answers). False: none. */
  openReplayLink() {
    const payload = replayFragment(location.hash);
    if (payload === null) return false;
    dropFragment();
    this.flows.openReplayLink(payload);
    return true;
  }

  /** A link put into the address of this open page (only its fragment changed, so the
   * page was not loaded again): a shared replay, or a friend's code (the game on screen
   * takes its reply; else as at the page's start, asked first where a game is under way). */
  openChangedLink() {
    if (this.openReplayLink()) return;
    const code = fragmentCode(location.hash);
    if (!code) return;
    dropFragment();
    this.flows.openChangedCode(code);
  }

  /** At mount: a friend's code in the address (used once, then removed from it), or a
   * recent saved friend game to go on with after a reload. */
  openFriendLink() {
    const code = fragmentCode(location.hash);
    if (!code) return this.flows.openRecent();
    dropFragment();
    return this.flows.openCode(code);
  }

  // --- the screens the flows ask for (ui/ctrl/app.js: Screens) -----------------------

  /** Whatever is on screen goes; the new screen's root goes in (`kind`: start, game or
   * replay, for the page's layout; a notice keeps the layout it came from). */
  replaceScreen(node, kind = null) {
    this.startView?.dispose();
    this.startView = null;
    this.pending = null; // a screen still loading is not drawn over this one
    clear(this.screen);
    if (node) this.screen.append(node);
    if (kind) document.documentElement.dataset.screen = kind;
    this.leftGame = false;
  }

  showStart(notice = "") {
    const fromGame = this.leftGame; // straight from a game: focus goes to the first choice
    this.say("");
    this.replaceScreen(null, "start");
    this.notice = notice;
    this.startView = new StartView(this.start, this);
    this.screen.append(this.startView.root);
    this.bar.setGame(false);
    this.setTitle(null);
    document.title = i18n.t("title.site");
    if (fromGame) this.startView.focusFirst();
  }

  /** The start screen's extra boxes: the saved game to continue, the statistics. */
  startExtras() {
    return { resume: continueBox(this), stats: statsBox(this) };
  }

  /** A line on the start screen (a record or link being opened, or refused). */
  startNotice(text, error = false, where = "top") {
    this.startView?.setNotice(text, error, where);
  }

  /** Draw a screen with `draw(screens module)`: at once when its code is loaded, else
   * once it is (the screen before goes at once), unless another screen came meanwhile.
   * @param {string} kind @param {(module: ScreensModule) => void} draw */
  whenScreens(kind, draw) {
    if (screensLoaded) return draw(screensLoaded);
    this.replaceScreen(null, kind);
    const token = (this.pending = {});
    loadScreens().then(
      (module) => this.pending === token && draw(module),
      (err) => {
        console.error(err);
        if (this.pending === token) this.showNotice(i18n.t("error.engine", { message: err.message }));
      },
    );
  }

  showGame(game, { page = null, title }) {
    let guesses = null;
    this.whenScreens("game", ({ GameView, FriendView, Guesses }) => {
      // a game with a connection (a friend's) has its panel around the board
      const view = game.session.connection ? new FriendView(this, game) : new GameView(this, game);
      // marks and notes: for a game the engine holds (the notes are its deductions; the
      // marks are saved with the game)
      guesses = game.session.engineGame ? new Guesses(view, page) : null;
      this.gameView = view;
      this.replaceScreen(view.root, "game");
      this.bar.setGame(true);
      view.render();
      document.title = `${title} — ${i18n.t("title.site")}`;
    });
    return { pageData: () => guesses?.pageData() ?? {} };
  }

  closeGame() {
    this.pending = null;
    this.gameView?.dispose();
    this.gameView = null;
    this.leftGame = true;
  }

  showReplay(replay) {
    this.titleBefore = document.title;
    if (this.gameView) {
      this.gameView.root.remove(); // kept: Close comes back to the end screen
      this.startView?.dispose();
      this.startView = null;
    }
    this.whenScreens("replay", ({ ReplayView }) => {
      this.replayView = new ReplayView(this, replay);
      this.replaceScreen(this.replayView.root, "replay");
      this.bar.setGame(false);
      // the page's title follows the replay's (a link's names its game once the engine answers)
      const titled = () => (document.title = `${replay.title()} — ${i18n.t("title.site")}`);
      titled();
      replay.subscribe(titled);
      this.replayView.render();
      scrollTo(0, 0); // the board from its top, wherever the screen before was scrolled
      this.replayView.status.focus({ preventScroll: true });
    });
  }

  closeReplay() {
    this.pending = null;
    if (!this.replayView) return;
    this.replayView.dispose();
    this.replayView.root.remove();
    this.replayView = null;
  }

  backToGame() {
    this.replaceScreen(this.gameView.root, "game");
    this.bar.setGame(true);
    document.title = this.titleBefore || document.title;
    this.gameView.render();
    this.gameView.root.querySelector("#btn-replay")?.focus({ preventScroll: true });
  }

  showNotice(text) {
    const back = noticeScreen(this, text);
    back.focus();
  }

  showElsewhere(tag, text) {
    elsewhereScreen(this, tag, text).focus();
  }

  showJoin(signal, about) {
    joinScreen(this, signal, about).focus();
    // the header (on a phone too) and the tab name the game offered, not only the site
    document.documentElement.dataset.screen = "join";
    const title = about.offer ? `${about.offer.variant} · ${i18n.t("mode.friend")}` : i18n.t("friend.title");
    this.setTitle(title);
    document.title = `${title} — ${i18n.t("title.site")}`;
  }
}
