// The start screen: pick the variant and the mode. Choices are remembered.

import { h } from "./dom.js";
import { t } from "../i18n.js";
import * as prefs from "../prefs.js";
import { offeredLevels } from "../ctrl/start.js";
import { levelName } from "../ctrl/game.js";

function secondLevel(levels) {
  return levels.includes("medium") ? "medium" : offeredLevels(levels)[0];
}

export function renderStart(app) {
  const variants = app.info.variants;
  let variant = prefs.get("variant");
  if (!variants.includes(variant)) variant = variants[0];
  const levels = app.info.levels || [];
  const offered = offeredLevels(levels);

  const cards = variants.map((id) => {
    const input = h("input", { type: "radio", name: "variant", value: id, id: `variant-${id}`,
      checked: id === variant });
    input.addEventListener("change", () => prefs.set("variant", id));
    return h("div", { class: "variant-card" },
      input,
      h("label", { for: `variant-${id}` },
        h("span", { class: "variant-name" }, t(`variant.${id}`)),
        h("span", { class: "variant-desc" }, t(`variant.${id}.desc`))),
      h("button", { type: "button", class: "link rules-link", "data-rules": id,
        on: { click: () => app.rules(id) } }, t("start.rules", { variant: t(`variant.${id}`) })));
  });
  let section = null;
  const chosen = () => section?.querySelector('input[name="variant"]:checked')?.value || variant;
  const go = (options, key) => {
    prefs.set("variant", chosen());
    prefs.set("start", key);
    if (options.level) prefs.set("level", options.level);
    app.startGame({ variant: chosen(), ...options });
  };
  const last = prefs.get("start");
  const mark = (key) => (key === last ? "last-choice" : null);
  const levelButtons = offered.map((level) => h("button", {
    type: "button", class: ["level", mark(`cpu:${level}`)].filter(Boolean).join(" "),
    "data-start": "cpu", "data-level": level,
    on: { click: () => go({ mode: "cpu", level, human: 0 }, `cpu:${level}`) },
  }, levelName(level)));
  const second = secondLevel(levels);
  const clock = h("input", { type: "checkbox", id: "clock-option", checked: prefs.get("clock", false) });
  clock.addEventListener("change", () => prefs.set("clock", clock.checked));

  section = h("section", { class: "start", "aria-labelledby": "start-title" },
    h("h2", { id: "start-title" }, t("start.title")),
    h("fieldset", { class: "variants" },
      h("legend", {}, t("start.variant")),
      ...cards),
    h("div", { class: "modes" },
      h("section", { class: "mode", "aria-labelledby": "mode-cpu" },
        h("h3", { id: "mode-cpu" }, t("start.cpu")),
        h("p", { class: "hint" }, t("start.cpu.hint")),
        h("div", { class: "row" }, ...levelButtons),
        second ? h("div", { class: "row" }, h("button", {
          type: "button", "data-start": "cpu-second", "data-level": second, class: mark("second"),
          on: { click: () => go({ mode: "cpu", level: second, human: 1 }, "second") },
        }, t("start.second", { level: levelName(second) }))) : null),
      h("section", { class: "mode", "aria-labelledby": "mode-hotseat" },
        h("h3", { id: "mode-hotseat" }, t("start.hotseat")),
        h("p", { class: "hint" }, t("start.hotseat.hint")),
        h("div", { class: "row" },
          h("button", { type: "button", "data-start": "hotseat", class: mark("hotseat"),
            on: { click: () => go({ mode: "hotseat", human: 0, clock: clock.checked }, "hotseat") } },
          t("start.hotseat.go"))),
        h("div", { class: "row option" }, clock, h("label", { for: "clock-option" }, t("start.clock"))))),
  );
  return section;
}
