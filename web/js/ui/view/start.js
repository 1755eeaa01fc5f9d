// The start screen: game, rules, opponent, level, seat, clock, then Play. Drawn from a
// StartController (static data only: it works before the engine is up). Built once per
// language; a choice updates the parts that depend on it, so keyboard focus stays put.

import { h, clear } from "./dom.js";
import { t } from "../i18n.js";
import { levelName } from "../ctrl/gamescreen.js";
import { Board } from "./board.js";
import { makeGeometry } from "./geometry.js";
import { chipCell, friendOptions } from "./friendopts.js";
import { STEP_LABELS, progressText } from "../../loader.js";
import { PERSON } from "../ctrl/start.js";

/** A game of more than two seats in words: "South: person · East: CPU (Medium) · …".
 * @param {{variant: string, people: number[], cpus: Record<string, string>}} options */
export function tableText(options) {
  const seats = [...options.people, ...Object.keys(options.cpus).map(Number)].sort((a, b) => a - b);
  return seats.map((seat) => t("start.seat.entry", { side: t(`side.${options.variant}.${seat}`),
    who: options.cpus[seat] ? t("start.seat.cpu", { level: levelName(options.cpus[seat]) })
      : t("start.seat.person") })).join(" · ");
}

/** The engine's loading steps in the page's language (loader.js fills in the numbers). */
export function stepLabels() {
  return Object.fromEntries(Object.keys(STEP_LABELS).map((key) => [key, t(`engine.step.${key}`)]));
}

/** Where the engine's start is, in words: "Downloading Python: 4.2 of 12.3 MB". */
export function engineText(link) {
  return progressText(link.progress, link.quietSeconds?.() ?? 0, stepLabels());
}

/** Radio "chips": a fieldset of radios styled as buttons. Each radio sits under its own
 * chip (`chipCell`): a tap on the chip is one on it, and its box is the chip's, where a
 * screen reader's touch exploration and a magnifier that follows the focus look for it. */
function chips(name, legend, items, checked, onChange, extra = {}) {
  return h("fieldset", { class: "chips", id: `${name}-choice`, ...extra },
    h("legend", {}, legend),
    h("div", { class: "chip-row" }, ...items.flatMap(({ value, label, attrs = {} }) => {
      const id = `${name}-${value}`;
      const input = h("input", { type: "radio", name, value: String(value), id,
        checked: String(value) === String(checked), ...attrs });
      input.addEventListener("change", () => input.checked && onChange(value));
      return [chipCell(input, label)];
    })));
}

export class StartView {
  /** start: StartController; app: the page {rules(variant), engine: EngineLink, flows, ...} */
  constructor(start, app) {
    this.start = start;
    this.app = app;
    this.root = h("section", { class: "start", "aria-labelledby": "start-title" });
    this.previewDesc = null; // the board the preview is for
    this.previewShown = false; // the layout gives the preview a size
    /** @type {ResizeObserver | null} */
    this.previewSized = null;
    this.build();
    const unsubscribe = start.subscribe(() => this.update());
    const unlisten = app.engine.onChange(() => this.renderEngine());
    const undrop = this.listenForDrops();
    this.unlisten = () => {
      unsubscribe();
      unlisten();
      undrop();
    };
  }

  /** A record file dropped anywhere on the start screen opens its replay. */
  listenForDrops() {
    const files = (event) => [...(event.dataTransfer?.types || [])].includes("Files");
    let depth = 0;
    const show = (on) => this.root.classList.toggle("dropping", on);
    const handlers = {
      dragenter: (event) => {
        if (!files(event)) return;
        depth++;
        show(true);
      },
      dragover: (event) => {
        if (!files(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "copy";
      },
      dragleave: (event) => {
        if (files(event) && --depth <= 0) {
          depth = 0;
          show(false);
        }
      },
      drop: (event) => {
        if (!files(event)) return;
        event.preventDefault();
        depth = 0;
        show(false);
        this.app.flows.openRecordFile(event.dataTransfer.files[0]);
      },
    };
    for (const [name, fn] of Object.entries(handlers)) document.addEventListener(name, fn);
    return () => {
      for (const [name, fn] of Object.entries(handlers)) document.removeEventListener(name, fn);
    };
  }

  /** A line about a record or link: "Preparing…", or why it was refused. `where`: "top"
   * (a link, opened with the page) or "open" (a file: beside the button that chose it). */
  setNotice(text, error = false, where = "top") {
    if (where === "open") this.openBox.append(this.notice);
    else this.title.before(this.notice);
    this.notice.textContent = text || "";
    this.notice.hidden = !text;
    this.notice.classList.toggle("error", Boolean(error));
    if (error) this.notice.setAttribute("role", "alert");
    else this.notice.setAttribute("role", "status");
    if (text && error && where === "open") this.notice.scrollIntoView?.({ block: "nearest" });
  }

  build() {
    const start = this.start;
    clear(this.root);
    const cards = start.variantIds().map((id) => {
      const input = h("input", { type: "radio", name: "variant", value: id, id: `variant-${id}`,
        checked: id === start.variant });
      input.addEventListener("change", () => input.checked && start.choose("variant", id));
      return h("div", { class: "variant-card" },
        input,
        h("label", { for: `variant-${id}` },
          h("span", { class: "variant-name" }, t(`variant.${id}`)),
          h("span", { class: "variant-desc" }, t(`variant.${id}.desc`))),
        h("button", { type: "button", class: "link rules-link", "data-rules": id,
          "aria-label": t("start.rules", { variant: t(`variant.${id}`) }),
          on: { click: () => this.app.rules(id) } }, t("action.rules")));
    });
    this.rulesBox = h("div", { class: "rules-choice", id: "rules-choice" });
    const mode = this.modeBox = chips("mode", t("start.opponent"), [
      { value: "cpu", label: t("start.vs_cpu") },
      { value: "hotseat", label: t("start.vs_human") },
      { value: "friend", label: t("start.vs_friend") },
    ], start.mode, (v) => start.choose("mode", v));
    const levels = chips("level", t("start.level"), start.levels().map((level) => ({
      value: level, label: levelName(level),
    })), start.level, (v) => start.choose("level", v));
    const seat = chips("seat", t("start.seat"), [
      { value: 0, label: t("start.first") },
      { value: 1, label: t("start.second_seat") },
    ], start.seat, (v) => start.choose("seat", v));
    this.cpuBox = h("div", { class: "mode-options", id: "cpu-options" }, levels, seat);
    const clock = h("input", { type: "checkbox", id: "clock-option", checked: start.clock });
    clock.addEventListener("change", () => start.choose("clock", clock.checked));
    this.hotseatBox = h("div", { class: "mode-options", id: "hotseat-options" },
      h("p", { class: "hint" }, t("start.hotseat.hint")),
      h("div", { class: "option" }, clock, h("label", { for: "clock-option" }, t("start.clock"))));
    this.friendBox = friendOptions(start, this.app); // a friend on another device
    this.tableBox = h("div", { class: "mode-options table-options", id: "table-options" });
    this.summary = h("p", { class: "start-summary", id: "start-summary" });
    this.engineNote = h("p", { class: "engine-note", id: "start-engine" });
    this.playButton = h("button", { type: "button", id: "btn-play", class: "primary big",
      "aria-describedby": "start-summary start-engine",
      on: { click: () => this.app.flows.play(this.start.gameOptions()) } }, t("start.play"));
    // A saved record: a file chosen here or dropped anywhere on the screen.
    this.fileInput = h("input", { type: "file", id: "record-file", accept: ".json,application/json",
      class: "sr-only", tabindex: "-1", "aria-hidden": "true" });
    this.fileInput.addEventListener("change", () => {
      const file = this.fileInput.files[0];
      this.fileInput.value = "";
      if (file) this.app.flows.openRecordFile(file);
    });
    const open = this.openBox = h("div", { class: "start-open", id: "start-open" },
      h("button", { type: "button", id: "btn-open-record", "aria-describedby": "open-hint",
        on: { click: () => this.fileInput.click() } }, t("start.open_record")),
      h("p", { class: "hint", id: "open-hint" }, t("start.open_hint")),
      this.fileInput,
      h("p", { class: "drop-note", "aria-hidden": "true" }, t("start.drop")));
    this.notice = h("p", { class: "start-notice", id: "start-notice", role: "status", hidden: true });
    // The chosen game's board, drawn from the static description (wide screens only).
    this.preview = h("div", { class: "start-preview", "aria-hidden": "true" });
    const extras = this.app.startExtras?.() || {}; // view/resume.js: Continue, statistics
    this.root.append(
      h("div", { class: "start-form" },
        this.notice,
        extras.resume || null,
        this.title = h("h2", { id: "start-title" }, t("start.title")),
        h("fieldset", { class: "variants" }, h("legend", {}, t("start.variant")), ...cards),
        this.rulesBox,
        mode, this.cpuBox, this.hotseatBox, this.friendBox, this.tableBox,
        h("div", { class: "start-go" }, this.playButton, this.summary, this.engineNote),
        open,
        extras.stats || null),
      this.preview);
    if (this.app.notice) this.setNotice(this.app.notice, true);
    this.renderRules();
    this.renderTable();
    this.update();
  }

  /** The rules chooser of the chosen variant: presets, and "customise" with every option. */
  renderRules() {
    const start = this.start;
    const box = this.rulesBox;
    clear(box);
    this.rulesVariant = start.variant;
    this.ruleControls = new Map();
    this.rulesName = null;
    const presets = start.presets();
    box.hidden = !presets.length;
    if (!presets.length) return;
    const list = chips("preset", t("start.rules_choice"), presets.map((p) => ({
      value: p.id, label: p.name, attrs: { title: p.description || "" },
    })), start.preset(), (v) => start.choosePreset(v));
    this.presetDesc = h("p", { class: "hint preset-desc" });
    const options = start.options().map((option) => {
      const id = `rule-${option.id}`;
      let control;
      if (option.type === "bool") {
        control = h("input", { type: "checkbox", id });
        control.addEventListener("change", () => start.setOption(option.id, control.checked));
      } else {
        control = h("select", { id }, ...(option.choices || []).map((c, i) =>
          h("option", { value: String(c?.id ?? c) },
            c?.name ?? option.choice_names?.[i] ?? String(c))));
        control.addEventListener("change", () => {
          const c = (option.choices || []).find((x) => String(x?.id ?? x) === control.value);
          start.setOption(option.id, c?.id ?? c);
        });
      }
      this.ruleControls.set(option.id, control);
      const label = h("label", { for: id }, h("span", { class: "option-name" }, option.name),
        option.description ? h("span", { class: "option-desc" }, option.description) : null);
      return h("div", { class: `rule-option rule-${option.type}`, "data-option": option.id },
        option.type === "bool" ? [control, label] : [label, control]);
    });
    this.rulesName = h("span", { class: "rules-name", id: "rules-name" });
    const customise = options.length ? h("details", { class: "customise", id: "rules-customise" },
      h("summary", {}, t("start.customise"), " · ", this.rulesName),
      h("div", { class: "rule-options" }, ...options)) : null;
    box.append(list, this.presetDesc, customise);
  }

  /** A game of more than two seats (Siguo): each seat a person or a CPU level, the teams,
   * and the move clock for the people. */
  renderTable() {
    const start = this.start;
    const box = this.tableBox;
    clear(box);
    this.tableVariant = start.variant;
    this.seatControls = [];
    const seats = start.tableSeats();
    if (!seats) return;
    const variant = start.variant;
    const colours = start.variants[variant]?.colours || [];
    const rows = seats.map((seat) => {
      const id = `seat-choice-${seat}`;
      const select = h("select", { id, "data-seat": String(seat) },
        h("option", { value: PERSON }, t("start.seat.person")),
        ...start.tableLevels().map((level) => h("option", { value: level },
          t("start.seat.cpu", { level: levelName(level) }))));
      select.addEventListener("change", () => start.chooseSeat(seat, select.value));
      this.seatControls.push(select);
      return h("div", { class: "seat-row", "data-seat": String(seat) },
        h("label", { for: id },
          h("span", { class: `seat-mark ${colours[seat] || "none"}`, "aria-hidden": "true" },
            t(`side.${variant}.letter.${seat}`)),
          h("span", { class: "seat-name" }, t(`side.${variant}.${seat}`),
            h("span", { class: "seat-colour" }, ` (${t(`colour.${colours[seat] || "none"}`)})`))),
        select);
    });
    const clock = h("input", { type: "checkbox", id: "table-clock", checked: start.clock });
    clock.addEventListener("change", () => start.choose("clock", clock.checked));
    this.tableNote = h("p", { class: "hint", id: "table-note" });
    box.append(
      h("fieldset", { class: "seats" }, h("legend", {}, t("start.seats")), ...rows),
      h("p", { class: "hint" }, t(`start.teams.${variant}`)),
      h("div", { class: "option" }, clock, h("label", { for: "table-clock" }, t("start.table_clock"))),
      this.tableNote);
  }

  /** Each seat's choice, and who shares the screen. */
  updateTable() {
    const start = this.start;
    if (!start.tableSeats()) return;
    const table = start.table();
    this.seatControls.forEach((select, seat) => (select.value = table[seat]));
    const clock = /** @type {HTMLInputElement|null} */ (this.tableBox.querySelector("#table-clock"));
    if (clock) clock.checked = start.clock;
    const people = start.people().length;
    this.tableNote.textContent = people === 0 ? t("start.table.nobody")
      : people === 1 ? t("start.table.one") : t("start.table.shared", { n: people });
    this.tableNote.classList.toggle("error", people === 0);
  }

  /** Show the chosen preset, its description and every option's value. */
  updateRules() {
    const start = this.start;
    if (!this.rulesName) return;
    const chosen = start.preset();
    const preset = start.presets().find((p) => p.id === chosen);
    const radio = this.rulesBox.querySelector(`input[name="preset"][value="${chosen}"]`);
    if (radio) radio.checked = true;
    this.presetDesc.textContent = preset?.description || "";
    this.presetDesc.hidden = !preset?.description;
    const values = start.values();
    for (const [id, control] of this.ruleControls) {
      if (control.type === "checkbox") control.checked = Boolean(values[id]);
      else control.value = String(values[id]);
    }
    this.rulesName.textContent = start.rulesName();
  }

  /** A choice changed: show what depends on it. */
  update() {
    const start = this.start;
    if (this.rulesVariant !== start.variant) this.renderRules();
    if (this.tableVariant !== start.variant) this.renderTable();
    this.updateRules();
    this.updateTable();
    this.renderPreview();
    const table = Boolean(start.tableSeats()); // each seat chosen on its own
    this.modeBox.hidden = table;
    this.cpuBox.hidden = table || start.mode !== "cpu";
    this.hotseatBox.hidden = table || start.mode !== "hotseat";
    this.friendBox.hidden = table || start.mode !== "friend";
    this.tableBox.hidden = !table;
    const options = start.gameOptions();
    this.playButton.disabled = table && !options.people.length;
    const parts = [t(`variant.${options.variant}`)];
    if (start.presets().length) parts.push(start.rulesName());
    if (table) parts.push(tableText(options));
    else parts.push(options.mode === "cpu"
      ? t("mode.cpu", { level: levelName(options.level) }) + (options.human === 1 ? ` · ${t("mode.second")}` : "")
      : options.mode === "friend" ? t("mode.friend") : t("mode.hotseat"));
    this.summary.textContent = parts.join(" · ");
    this.renderEngine();
  }

  /** The chosen game's board, drawn only where the layout shows it (wide screens: the box
   * has a size) and after the form, so a phone never pays for it and the choices come
   * first. Its proportions are set at once, so nothing moves when it is drawn. */
  renderPreview() {
    const desc = this.start.variants[this.start.variant];
    if (this.previewDesc === desc) return;
    this.previewDesc = desc;
    const geo = makeGeometry(desc, 0, 1);
    this.preview.style.setProperty("--aspect", (geo.width / geo.height).toFixed(4));
    this.previewSized ??= this.watchPreview();
    if (this.previewShown) this.drawPreview();
  }

  watchPreview() {
    if (typeof ResizeObserver !== "function") return null;
    const observer = new ResizeObserver(([entry]) => {
      this.previewShown = entry.contentRect.width > 0;
      if (this.previewShown) this.drawPreview();
    });
    observer.observe(this.preview);
    return observer;
  }

  drawPreview() {
    const desc = this.previewDesc;
    if (!desc || this.previewBoard?.desc === desc) return;
    this.previewBoard = new Board(desc, 0, () => {});
    this.previewBoard.render({ pieces: new Map(), targets: [], active: false });
    clear(this.preview);
    this.preview.append(this.previewBoard.svg);
  }

  renderEngine() {
    const link = this.app.engine;
    this.root.dataset.engine = link.ready ? "ready" : "loading";
    this.engineNote.textContent = link.ready ? ""
      : t("start.engine_loading", { percent: Math.round((link.progress.fraction || 0) * 100),
        step: engineText(link) });
    this.engineNote.hidden = link.ready;
  }

  /** Focus the chosen game (coming back from a game, the focused button is gone). */
  focusFirst() {
    this.root.querySelector('input[name="variant"]:checked')?.focus({ preventScroll: true });
  }

  dispose() {
    this.unlisten();
    this.previewSized?.disconnect();
  }
}
