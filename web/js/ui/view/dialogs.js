// Modal dialogs: a yes/no confirmation and the rules page of a variant.

import { h, clear } from "./dom.js";
import { t, language } from "../i18n.js";
import { assetURL } from "../assets.js";

export function confirmDialog(host, message, yes) {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-text" },
      h("p", { id: "confirm-text" }, message));
    const close = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    dialog.append(h("div", { class: "row" },
      h("button", { type: "button", class: "primary", "data-answer": "yes",
        on: { click: () => close(true) } }, yes),
      h("button", { type: "button", "data-answer": "no", on: { click: () => close(false) } },
        t("action.cancel"))));
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      close(false);
    });
    host.append(dialog);
    dialog.showModal();
  });
}

const rulesCache = new Map();

async function rulesHTML(lang) {
  if (!rulesCache.has(lang)) {
    const url = assetURL(`rules/${lang}.html`);
    rulesCache.set(lang, fetch(url).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.text();
    }).catch((err) => {
      rulesCache.delete(lang);
      throw err;
    }));
  }
  return rulesCache.get(lang);
}

/** The rules page of a variant in the page's language (texts are loaded on first use). */
export async function showRules(host, variant) {
  const body = h("div", { class: "rules-body", "data-reference": "" }, h("p", {}, t("rules.loading")));
  const dialog = h("dialog", { class: "rules", "aria-labelledby": "rules-title", "data-reference": "" },
    h("div", { class: "rules-head" },
      h("h2", { id: "rules-title" }, t("rules.title", { variant: t(`variant.${variant}`) })),
      h("button", { type: "button", class: "close", "aria-label": t("action.close"),
        on: { click: () => dialog.close() } }, "×")),
    body);
  dialog.addEventListener("close", () => dialog.remove());
  host.append(dialog);
  dialog.showModal();
  try {
    const html = await rulesHTML(language());
    const doc = new DOMParser().parseFromString(html, "text/html");
    const section = doc.getElementById(`rules-${variant}`);
    const controls = doc.getElementById("rules-controls");
    clear(body);
    for (const part of [section, controls]) {
      if (part) body.append(document.importNode(part, true));
    }
  } catch (err) {
    clear(body);
    body.append(h("p", { role: "alert" }, t("rules.failed")));
  }
}
