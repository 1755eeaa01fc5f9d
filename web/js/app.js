// The game UI, mounted by main.js: mount(root, engine).
// Python decides, JS draws: every rule, view and CPU move comes from junqi_core through
// engine.call(). ui/ctrl/ keeps state and actions (no DOM); ui/view/ draws them.

import { h, clear } from "./ui/view/dom.js";
import * as i18n from "./ui/i18n.js";
import * as prefs from "./ui/prefs.js";
import { renderStart } from "./ui/view/start.js";
import { GameController } from "./ui/ctrl/game.js";
import { GameView } from "./ui/view/game.js";
import { showRules, confirmDialog } from "./ui/view/dialogs.js";

// ?moveclock=N shortens the two-player clocks to N seconds (tests).
const CLOCK_TEST = Number(new URLSearchParams(location.search).get("moveclock")) || 0;

function loadStyles() {
  const href = new URL("../css/game.css", import.meta.url).href;
  if ([...document.styleSheets].some((sheet) => sheet.href === href)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = h("link", { rel: "stylesheet", href });
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    document.head.append(link);
    setTimeout(resolve, 3000);
  });
}

export async function mount(root, engine) {
  root.dataset.ui = "loading";
  const [, described] = await Promise.all([
    loadStyles(),
    engine.call({ op: "variants" }),
    i18n.setLanguage(i18n.detect(prefs.get("lang"))),
  ]);
  const app = new App(root, engine, described.variants);
  window.junqiUI = app; // for tests and the console: app.game.view is what the viewer knows
  app.showStart();
  root.dataset.ui = "ready";
}

class App {
  constructor(root, engine, variants) {
    this.root = root;
    this.engine = engine;
    this.info = engine.info;
    this.variants = variants;
    this.game = null; // the GameController on screen
    this.gameView = null;
    this.glyphs = Boolean(prefs.get("glyphs", false));

    const langSelect = h("select", { id: "lang-select" },
      ...i18n.LANGUAGES.map((code) => h("option", { value: code, selected: code === i18n.language() },
        i18n.t(`lang.${code}`))));
    langSelect.addEventListener("change", async () => {
      prefs.set("lang", langSelect.value);
      await i18n.setLanguage(langSelect.value);
      this.relabel();
    });
    const glyphBox = h("input", { type: "checkbox", id: "glyph-option", checked: this.glyphs });
    glyphBox.addEventListener("change", () => {
      this.glyphs = glyphBox.checked;
      prefs.set("glyphs", this.glyphs);
      if (this.gameView) this.gameView.render();
    });
    this.langLabel = h("label", { for: "lang-select" });
    this.glyphLabel = h("label", { for: "glyph-option" });
    this.toolbar = h("div", { class: "toolbar" },
      h("div", { class: "tool" }, this.langLabel, langSelect),
      h("div", { class: "tool" }, glyphBox, this.glyphLabel));
    this.screen = h("div", { class: "screen" });
    this.live = h("div", { class: "sr-only", id: "live", "aria-live": "polite", role: "status" });
    clear(root);
    root.append(this.toolbar, this.screen, this.live);
    this.labelToolbar();
  }

  labelToolbar() {
    this.langLabel.textContent = i18n.t("toolbar.language");
    this.glyphLabel.textContent = i18n.t("toolbar.glyphs");
    const subtitle = document.querySelector(".site-header .subtitle");
    if (subtitle) subtitle.textContent = i18n.t("title.subtitle");
    for (const option of this.toolbar.querySelectorAll("option")) {
      option.textContent = i18n.t(`lang.${option.value}`);
    }
  }

  relabel() {
    this.labelToolbar();
    if (this.gameView) this.gameView.relabel();
    else this.showStart();
  }

  say(text) {
    // Re-setting the same text is not announced; clear first, then set it a moment later.
    clearTimeout(this.sayTimer);
    this.live.textContent = "";
    if (text) this.sayTimer = setTimeout(() => (this.live.textContent = text), 30);
  }

  endGame() {
    if (this.gameView) this.gameView.dispose();
    this.game = null;
    this.gameView = null;
  }

  showStart() {
    const fromGame = Boolean(this.game);
    this.endGame();
    this.say("");
    clear(this.screen);
    this.screen.append(renderStart(this));
    document.title = i18n.t("title.site");
    const first = this.screen.querySelector('input[name="variant"]:checked');
    // Coming back from a game the focused button is gone: start again at the game choice.
    if (fromGame && first) first.focus({ preventScroll: true });
  }

  async startGame(options) {
    this.endGame();
    clear(this.screen);
    const game = new GameController({
      engine: { call: (r) => this.engine.call(r), ready: true, whenReady: Promise.resolve() },
      desc: this.variants[options.variant],
      options,
      store: prefs,
      settings: () => ({ labels: this.glyphs ? "characters" : "words" }),
      clockSeconds: CLOCK_TEST || undefined,
      setupSeconds: CLOCK_TEST || undefined,
      cpuMinMs: matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : undefined,
    });
    this.game = game;
    this.gameView = new GameView(this, game);
    this.screen.append(this.gameView.root);
    this.gameView.render();
    document.title = `${i18n.t(`variant.${options.variant}`)} — ${i18n.t("title.site")}`;
    await game.start();
  }

  async newGame() {
    const game = this.game;
    if (game.inProgress() && !(await this.confirm(i18n.t("confirm.new"), i18n.t("action.new")))) return;
    this.startGame(game.nextOptions());
  }

  rematch() {
    this.startGame(this.game.nextOptions(true));
  }

  async changeMode() {
    if (this.game.inProgress() && !(await this.confirm(i18n.t("confirm.mode"), i18n.t("action.mode")))) return;
    this.showStart();
  }

  rules(variant) {
    return showRules(this.root, variant);
  }

  confirm(message, yes) {
    return confirmDialog(this.root, message, yes);
  }
}
