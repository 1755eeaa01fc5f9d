// Modal dialogs: a yes/no confirmation and the rules page of a variant.

import { h, clear } from "./dom.js";
import { t, language } from "../i18n.js";
import { assetURL } from "../assets.js";

/** Focus goes back where it was before a dialog opened, or, if that is gone or hidden
 * now, to `fallback()` (an element). */
function restoreFocus(before, fallback) {
  const gone = !before || before === document.body || !before.isConnected
    || before.closest("[hidden], [inert]") || before.hidden;
  const target = gone ? fallback?.() : before;
  target?.focus?.({ preventScroll: true });
}

/** Tab and Shift+Tab go round the dialog's own controls: focus never leaves an open
 * dialog (the page behind it is inert; without this, Tab from the last control goes to
 * the browser's address bar). @param {HTMLDialogElement} dialog */
export function keepFocusInside(dialog) {
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
    const stops = [...dialog.querySelectorAll("button, [href], input, select, textarea, summary, [tabindex]")]
      .filter((el) => /** @type {any} */ (el).tabIndex >= 0 && !(/** @type {any} */ (el).disabled)
        && el.getClientRects().length > 0);
    if (!stops.length) return;
    const first = /** @type {HTMLElement} */ (stops[0]);
    const last = /** @type {HTMLElement} */ (stops[stops.length - 1]);
    const here = document.activeElement;
    if (event.shiftKey ? here === first || !dialog.contains(here) : here === last) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    }
  });
}

/** "Are you sure?": the safe answer (Cancel) has focus, so Enter never does the harm. */
export function confirmDialog(host, message, yes, fallback = null) {
  return new Promise((resolve) => {
    const before = document.activeElement;
    const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-text" },
      h("p", { id: "confirm-text" }, message));
    const close = (answer) => {
      dialog.close();
      dialog.remove();
      restoreFocus(before, fallback);
      resolve(answer);
    };
    const cancel = h("button", { type: "button", "data-answer": "no", on: { click: () => close(false) } },
      t("action.cancel"));
    dialog.append(h("div", { class: "row" },
      h("button", { type: "button", class: "primary", "data-answer": "yes",
        on: { click: () => close(true) } }, yes),
      cancel));
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      close(false);
    });
    keepFocusInside(dialog);
    host.append(dialog);
    dialog.showModal();
    cancel.focus();
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
export async function showRules(host, variant, fallback = null) {
  const before = document.activeElement;
  const body = h("div", { class: "rules-body", "data-reference": "" }, h("p", {}, t("rules.loading")));
  const dialog = h("dialog", { class: "rules", "aria-labelledby": "rules-title", "data-reference": "" },
    h("div", { class: "rules-head" },
      h("h2", { id: "rules-title" }, t("rules.title", { variant: t(`variant.${variant}`) })),
      h("button", { type: "button", class: "close", "aria-label": t("action.close"),
        on: { click: () => dialog.close() } }, "×")),
    body);
  dialog.addEventListener("close", () => {
    dialog.remove();
    restoreFocus(before, fallback);
  });
  keepFocusInside(dialog);
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
