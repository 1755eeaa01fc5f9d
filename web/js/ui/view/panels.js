// Side panels: lost pieces, the combat table, the move list.

import { h, clear } from "./dom.js";
import { t } from "../i18n.js";
import { moveLine } from "../ctrl/words.js";

function grouped(kinds, order, name) {
  const counts = new Map();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) || 0) + 1);
  return order
    .filter((kind) => counts.has(kind))
    .map((kind) => (counts.get(kind) > 1 ? `${name(kind)} ×${counts.get(kind)}` : name(kind)));
}

/** Lost pieces: by name where the view names them, else a count. */
export function renderLost(root, view, ctx) {
  clear(root);
  const order = ctx.desc.pieces.map((p) => p.id);
  const all = (ctx.desc.sides || [0, 1]).map((_, seat) => seat);
  const seats = ctx.viewer === null ? all : [ctx.viewer, ...all.filter((seat) => seat !== ctx.viewer)];
  for (const seat of seats) {
    const lost = view.lost[seat];
    const title = ctx.viewer === seat ? t("lost.yours") : t("lost.side", { side: ctx.side(seat) });
    let body;
    if (!lost.count) body = t("lost.none");
    else if (lost.kinds) body = grouped(lost.kinds, order, ctx.piece).join(", ");
    else body = t("lost.count", { n: lost.count });
    root.append(h("div", { class: "lost-row", "data-seat": seat },
      h("span", { class: "lost-title" }, title + ": "),
      h("span", { class: "lost-body" }, body)));
  }
}

const SYMBOL = { attacker: "✓", defender: "✗", both: "=", behind: "⚑" };

/** Who beats whom: rows are attackers, columns defenders (public reference data). */
export function renderCombatTable(root, desc, ctx) {
  clear(root);
  const movers = Object.keys(desc.combat);
  const all = desc.pieces.map((p) => p.id);
  const head = h("tr", {}, h("th", { scope: "col", class: "corner", title: t("table.corner") },
    h("span", { "aria-hidden": "true" }, "⚔"), h("span", { class: "sr-only" }, t("table.corner"))),
    ...all.map((d) => h("th", { scope: "col", title: ctx.piece(d) }, h("span", {}, ctx.short(d)))));
  const name = (kind) => (ctx.short(kind) === ctx.piece(kind) ? ctx.piece(kind)
    : [h("span", { "aria-hidden": "true" }, ctx.short(kind)), h("span", { class: "sr-only" }, ctx.piece(kind))]);
  const rows = movers.map((a) => h("tr", {},
    h("th", { scope: "row", title: ctx.piece(a) }, name(a)),
    ...all.map((d) => {
      const r = desc.combat[a][d];
      const label = t(`table.${r}`, { a: ctx.piece(a), d: ctx.piece(d) });
      return h("td", { class: `r-${r}`, title: label },
        h("span", { "aria-hidden": "true" }, SYMBOL[r] || "?"),
        h("span", { class: "sr-only" }, label));
    })));
  root.append(...[
    // The caption's words above the table, so they wrap in the panel while the table scrolls.
    h("p", { class: "legend table-caption", "aria-hidden": "true" }, t("table.caption")),
    h("div", { class: "table-scroll", tabindex: "0", role: "region",
      "aria-label": t("panel.combat") },
    h("table", { class: "combat-table" },
      h("caption", { class: "sr-only" }, t("table.caption")),
      h("thead", {}, head), h("tbody", {}, ...rows))),
    h("p", { class: "legend" }, t("table.legend")),
    desc.rules?.flag_behind ? h("p", { class: "legend" }, t("table.flag_note")) : null,
    desc.rules?.mine_stays ? h("p", { class: "legend" }, t("table.blind_note")) : null,
  ].filter(Boolean));
}

export function renderMoves(root, view, ctx) {
  clear(root);
  const items = view.history.map((ev) => h("li", {}, moveLine(ev, ctx)));
  if (!items.length) root.append(h("li", { class: "empty" }, t("list.empty")));
  root.append(...items);
  root.scrollTop = root.scrollHeight;
}
