// The header's tools: quick toggles (perspective view, sound) and the menu (game actions
// that are not needed every move, and the settings). The menu is a disclosure: a button
// with aria-expanded and a panel; Escape or a click elsewhere closes it.

import { h } from "./dom.js";
import { icon } from "./icons.js";
import * as i18n from "../i18n.js";
import { TILT, THEMES } from "../ctrl/settings.js";

const t = i18n.t;

export class AppBar {
  /** app: the page {flows: {newGame(), changeMode()}, rules(variant), gameVariant(), setLanguage(lang)};
   *  settings: Settings */
  constructor(app, settings, host = document.getElementById("bar-tools")) {
    this.app = app;
    this.settings = settings;
    this.host = host;
    this.build();
    settings.subscribe(() => this.render());
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !this.panel.hidden) {
        this.close();
        this.toggle.focus();
      }
    });
    document.addEventListener("pointerdown", (event) => {
      if (!this.panel.hidden && !this.panel.contains(event.target) && !this.toggle.contains(event.target)) {
        this.close();
      }
    });
  }

  build() {
    const settings = this.settings;
    // The menu closes first; focus waits on its button, where a dialog gives it back.
    const item = (id, key, action) => h("button", { type: "button", id, class: "menu-item",
      "data-i18n": key, on: { click: () => {
        this.close();
        this.toggle.focus({ preventScroll: true });
        action();
      } } }, t(key));
    this.gameItems = h("div", { class: "menu-section", id: "menu-game" },
      item("btn-new", "action.new", () => this.app.flows.newGame()),
      item("btn-mode", "action.mode", () => this.app.flows.changeMode()),
      item("btn-rules", "action.rules", () => this.app.rules(this.app.gameVariant())));
    const select = (id, options, value, onChange) => {
      const el = h("select", { id }, ...options.map(([v, label]) =>
        h("option", { value: v, selected: v === value }, label)));
      el.addEventListener("change", () => onChange(el.value));
      return el;
    };
    this.langSelect = select("lang-select", i18n.LANGUAGES.map((c) => [c, t(`lang.${c}`)]),
      i18n.language(), (lang) => this.app.setLanguage(lang));
    this.labelsSelect = select("labels-select", [["characters", ""], ["words", ""]],
      settings.labels, (v) => settings.set("labels", v));
    this.labelsSelect.dataset.reference = ""; // its examples name a piece: public words
    this.themeSelect = select("theme-select", THEMES.map((v) => [v, t(`theme.${v}`)]),
      settings.theme, (v) => settings.set("theme", v));
    const check = (id, name) => {
      const box = h("input", { type: "checkbox", id, checked: settings[name] });
      box.addEventListener("change", () => settings.set(name, box.checked));
      return box;
    };
    this.checks = {
      ranks: check("ranks-option", "ranks"),
      sound: check("sound-option", "sound"),
      view3d: check("view3d-option", "view3d"),
      notes: check("notes-menu-option", "notes"),
    };
    // The perspective view's tilt, live while the slider moves.
    this.tiltRange = h("input", { type: "range", id: "tilt-option", min: TILT.min, max: TILT.max,
      step: TILT.step, value: settings.tilt });
    this.tiltRange.addEventListener("input", () => settings.set("tilt", Number(this.tiltRange.value)));
    const row = (control, labelKey) => {
      const label = h("label", { for: control.id, "data-i18n": labelKey }, t(labelKey));
      return h("div", { class: `menu-row ${control.type === "checkbox" ? "check" : ""}` },
        ...(control.type === "checkbox" ? [control, label] : [label, control]));
    };
    this.panel = h("div", { class: "menu-panel", id: "game-menu", hidden: true },
      this.gameItems,
      h("div", { class: "menu-section" },
        row(this.langSelect, "toolbar.language"),
        row(this.labelsSelect, "toolbar.labels"),
        row(this.themeSelect, "toolbar.theme"),
        row(this.checks.ranks, "toolbar.ranks"),
        row(this.checks.sound, "toolbar.sound"),
        row(this.checks.view3d, "toolbar.view3d"),
        row(this.tiltRange, "toolbar.tilt"),
        row(this.checks.notes, "toolbar.notes")));
    this.toggle = h("button", { type: "button", class: "icon-button", id: "game-menu-toggle",
      "aria-expanded": "false", "aria-controls": "game-menu",
      on: { click: () => (this.panel.hidden ? this.open() : this.close()) } }, icon("menu"));
    // Zoom the board (view/zoom.js): shown on a game screen whose squares are small.
    this.zoomToggle = h("button", { type: "button", class: "icon-button", id: "zoom-toggle", hidden: true,
      on: { click: () => this.zoom?.toggle() } });
    this.viewToggle = h("button", { type: "button", class: "icon-button", id: "view-toggle",
      on: { click: () => settings.set("view3d", !settings.view3d) } });
    this.soundToggle = h("button", { type: "button", class: "icon-button", id: "sound-toggle",
      on: { click: () => settings.set("sound", !settings.sound) } });
    this.host.replaceChildren(this.zoomToggle, this.viewToggle, this.soundToggle, this.toggle, this.panel);
    this.render();
  }

  /** How much room the floating tools take (short landscape screens). */
  measureTools() {
    const shown = [this.zoomToggle, this.viewToggle, this.soundToggle, this.toggle].filter((b) => !b.hidden).length;
    document.documentElement.style.setProperty("--tools-w", `${shown * 2.75 + 0.5}rem`);
  }

  /** The board zoom of the screen shown (a BoardZoom), or null: the zoom button follows it. */
  setZoom(zoom) {
    this.zoom = zoom;
    this.renderZoom();
  }

  renderZoom() {
    const zoom = this.zoom;
    const shown = Boolean(zoom?.useful);
    const zoomed = Boolean(zoom?.zoomed);
    if (this.zoomToggle.hidden === shown || this.zoomToggle.getAttribute("aria-pressed") !== String(zoomed)) {
      this.zoomToggle.hidden = !shown;
      this.zoomToggle.replaceChildren(icon(zoomed ? "zoomOut" : "zoomIn"));
      this.zoomToggle.setAttribute("aria-pressed", String(zoomed));
      this.measureTools();
    }
    this.zoomToggle.setAttribute("aria-label", t("toolbar.zoom"));
    this.zoomToggle.title = t("toolbar.zoom");
  }

  open() {
    this.panel.hidden = false;
    this.toggle.setAttribute("aria-expanded", "true");
    this.panel.querySelector("button:not([hidden]), select")?.focus();
  }

  close() {
    this.panel.hidden = true;
    this.toggle.setAttribute("aria-expanded", "false");
  }

  /** Game items only during a game. */
  setGame(inGame) {
    this.gameItems.hidden = !inGame;
  }

  render() {
    const settings = this.settings;
    for (const node of this.panel.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    for (const option of this.langSelect.options) option.textContent = t(`lang.${option.value}`);
    this.langSelect.value = i18n.language();
    const [chars, wordsOption] = this.labelsSelect.options;
    chars.textContent = t("labels.characters");
    wordsOption.textContent = t("labels.words");
    this.labelsSelect.value = settings.labels;
    for (const option of this.themeSelect.options) option.textContent = t(`theme.${option.value}`);
    this.themeSelect.value = settings.theme;
    for (const [name, box] of Object.entries(this.checks)) box.checked = settings[name];
    this.toggle.setAttribute("aria-label", t("menu.open"));
    const view3d = settings.view3d;
    this.tiltRange.value = String(settings.tilt);
    this.tiltRange.disabled = !view3d;
    this.tiltRange.setAttribute("aria-valuetext", t("toolbar.tilt_value", { n: settings.tilt }));
    applyTilt(settings.tilt);
    this.viewToggle.replaceChildren(icon(view3d ? "tilted" : "flat"));
    this.viewToggle.setAttribute("aria-pressed", String(view3d));
    this.viewToggle.setAttribute("aria-label", t("toolbar.view3d"));
    this.viewToggle.title = t("toolbar.view3d");
    const sound = settings.sound;
    this.soundToggle.replaceChildren(icon(sound ? "sound" : "mute"));
    this.soundToggle.setAttribute("aria-pressed", String(sound));
    this.soundToggle.setAttribute("aria-label", t("toolbar.sound"));
    this.soundToggle.title = t("toolbar.sound");
    this.renderZoom();
  }
}

/** The perspective view's tilt as CSS (web/css/game.css): the board's angle, how much each
 * piece is stood up again (the inverse of the tilt's foreshortening) and how far the board
 * is lifted so its far edge stays in its frame. */
function applyTilt(degrees) {
  const style = document.documentElement.style;
  const radians = (degrees * Math.PI) / 180;
  style.setProperty("--tilt", `${degrees}deg`);
  style.setProperty("--stand", (1 / Math.cos(radians)).toFixed(3));
  style.setProperty("--lift", `${(-9 * degrees / 33).toFixed(1)}%`);
}
