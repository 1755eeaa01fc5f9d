// The start screen's choices: game, opponent, level, seat, clock and rules. No DOM and no
// engine: it works from the static variant descriptions build.py writes (the bridge's
// "version" and "variants" answers), so the start screen is usable before Python is.
//
// Rules: a variant may describe `presets` [{id, name, description, options}] and
// `options` [{id, name, description, type: "bool"|"choice", choices, default}] with a
// `default_preset`. The chooser shows the presets, and "customise" toggles every option;
// changing one from the preset's value makes the rules "custom" (the preset plus the
// changed options are sent to new_game). A variant without presets has standard rules.

import { t } from "../i18n.js";

const LEVEL_ORDER = ["easy", "medium", "hard", "random"];

/** A seat of a game of more than two seats: played by a person at this screen, or by the
 * CPU at a level. */
export const PERSON = "person";

/** The levels to offer: Easy/Medium/Hard as the engine has them; Random only without Easy. */
export function offeredLevels(levels) {
  const named = LEVEL_ORDER.filter((l) => l !== "random" && levels.includes(l));
  const extra = levels.filter((l) => !LEVEL_ORDER.includes(l));
  if (!levels.includes("easy") && levels.includes("random")) named.unshift("random");
  return [...named, ...extra];
}

export class StartController {
  /**
   * info: the bridge's "version" answer ({variants, levels}); variants: id -> description;
   * store: {get(name, fallback), set(name, value)}
   */
  constructor({ info, variants, store }) {
    this.info = info;
    this.variants = variants;
    this.store = store;
    this.listeners = [];
    const ids = this.variantIds();
    const saved = store.get("variant");
    this.variant = ids.includes(saved) ? saved : ids[0];
    this.mode = ["hotseat", "friend"].includes(store.get("mode")) ? store.get("mode") : "cpu";
    this.net = store.get("net") === "stun" ? "stun" : "lan"; // friend games: how to connect
    const levels = this.levels();
    const level = store.get("level");
    this.level = levels.includes(level) ? level : levels.includes("easy") ? "easy" : levels[0];
    this.seat = store.get("seat") === 1 ? 1 : 0;
    this.clock = Boolean(store.get("clock", false));
    this.rules = store.get("rules", {}); // variant -> {preset, options: {id: value}}
    /** @type {Record<string, string[]>} variant -> each seat's choice (games of more than two seats) */
    this.tables = store.get("tables", {}) || {};
  }

  subscribe(fn) {
    this.listeners.push(fn);
    return () => (this.listeners = this.listeners.filter((x) => x !== fn));
  }

  changed() {
    for (const fn of this.listeners) fn();
  }

  variantIds() {
    return this.info.variants.filter((id) => this.variants[id]);
  }

  levels() {
    return offeredLevels(this.info.levels || []);
  }

  // --- a game of more than two seats (Siguo): each seat a person or a CPU level ----------

  /** The chosen variant's seats when it has more than two (else null): each seat is
   * chosen on its own, and the mode follows from how many people play. */
  tableSeats(variant = this.variant) {
    const sides = this.variants[variant]?.sides || [];
    return sides.length > 2 ? sides.map((/** @type {string} */ _, seat) => seat) : null;
  }

  /** The CPU levels that play this variant's seats (its description's `levels`). */
  tableLevels(variant = this.variant) {
    const own = this.variants[variant]?.levels;
    return offeredLevels(own || this.info.levels || []);
  }

  /** Each seat's choice: PERSON or a level. The default: you at the first seat, the CPU
   * at Medium (else the strongest offered) everywhere else. */
  table(variant = this.variant) {
    const seats = this.tableSeats(variant) || [];
    const levels = this.tableLevels(variant);
    const fallback = levels.includes("medium") ? "medium" : levels[levels.length - 1];
    const saved = this.tables[variant] || [];
    return seats.map((seat) => {
      const choice = saved[seat];
      if (choice === PERSON || levels.includes(choice)) return choice;
      return seat === 0 ? PERSON : fallback;
    });
  }

  /** @param {number} seat @param {string} choice  PERSON or a level */
  chooseSeat(seat, choice, variant = this.variant) {
    const table = this.table(variant);
    if (!(seat in table) || !(choice === PERSON || this.tableLevels(variant).includes(choice))) return;
    table[seat] = choice;
    this.tables = { ...this.tables, [variant]: table };
    this.store.set("tables", this.tables);
    this.changed();
  }

  /** The seats people play (at least one is needed to play). */
  people(variant = this.variant) {
    return this.table(variant).flatMap((choice, seat) => (choice === PERSON ? [seat] : []));
  }

  choose(field, value) {
    if (field === "variant" && !this.variantIds().includes(value)) return;
    if (field === "level" && !this.levels().includes(value)) return;
    if (field === "mode" && !["cpu", "hotseat", "friend"].includes(value)) return;
    if (field === "net" && !["lan", "stun"].includes(value)) return;
    if (field === "seat") value = Number(value) === 1 ? 1 : 0;
    if (field === "clock") value = Boolean(value);
    this[field] = value;
    this.store.set(field, value);
    this.changed();
  }

  // --- rules --------------------------------------------------------------------------

  /** The variant's presets, named in the page's language (the engine's English where a
   * translation lacks one: keys `rules.<variant>.<preset>` and `…<preset>.desc`). */
  presets(variant = this.variant) {
    return (this.variants[variant]?.presets || []).map((p) => ({
      ...p,
      name: translated(`rules.${variant}.${p.id}`, p.name),
      description: translated(`rules.${variant}.${p.id}.desc`, p.description),
    }));
  }

  /** The variant's options, in words of the page's language (`rule.<variant>.<option>`,
   * `….desc`, `….<choice>`). */
  options(variant = this.variant) {
    return (this.variants[variant]?.options || []).map((o) => {
      const key = `rule.${variant}.${o.id}`;
      return {
        ...o,
        name: translated(key, o.name),
        description: translated(`${key}.desc`, o.description),
        choice_names: o.choice_names &&
          o.choices.map((c, i) => translated(`${key}.${c}`, o.choice_names[i])),
      };
    });
  }

  /** The preset the player chose for a variant (null when the variant has none). */
  preset(variant = this.variant) {
    const presets = this.presets(variant);
    if (!presets.length) return null;
    const saved = this.rules[variant]?.preset;
    if (presets.some((p) => p.id === saved)) return saved;
    const standard = this.variants[variant].default_preset;
    return presets.some((p) => p.id === standard) ? standard : presets[0].id;
  }

  /** Every option's value under the chosen preset and the player's changes. */
  values(variant = this.variant) {
    const preset = this.presets(variant).find((p) => p.id === this.preset(variant));
    const changed = this.rules[variant]?.options || {};
    const values = {};
    for (const option of this.options(variant)) {
      let value = option.default;
      if (preset?.options && option.id in preset.options) value = preset.options[option.id];
      if (option.id in changed && this.valid(option, changed[option.id])) value = changed[option.id];
      values[option.id] = value;
    }
    return values;
  }

  valid(option, value) {
    if (option.type === "bool") return typeof value === "boolean";
    if (option.type === "choice") {
      return (option.choices || []).some((c) => (c?.id ?? c) === value);
    }
    return value !== undefined;
  }

  /** The options that differ from the chosen preset: what makes the rules "custom". */
  changes(variant = this.variant) {
    const preset = this.presets(variant).find((p) => p.id === this.preset(variant));
    const values = this.values(variant);
    const base = {};
    for (const option of this.options(variant)) {
      base[option.id] = preset?.options && option.id in preset.options
        ? preset.options[option.id] : option.default;
    }
    return Object.fromEntries(Object.entries(values).filter(([id, v]) => base[id] !== v));
  }

  choosePreset(id, variant = this.variant) {
    if (!this.presets(variant).some((p) => p.id === id)) return;
    this.rules = { ...this.rules, [variant]: { preset: id, options: {} } };
    this.store.set("rules", this.rules);
    this.changed();
  }

  setOption(id, value, variant = this.variant) {
    const option = this.options(variant).find((o) => o.id === id);
    if (!option || !this.valid(option, value)) return;
    const current = this.rules[variant] || { preset: this.preset(variant), options: {} };
    const options = { ...current.options, [id]: value };
    this.rules = { ...this.rules, [variant]: { preset: this.preset(variant), options } };
    this.store.set("rules", this.rules);
    this.changed();
  }

  /** The rules in words: the preset's name, or "Custom" when options were changed. */
  rulesName(variant = this.variant) {
    const preset = this.presets(variant).find((p) => p.id === this.preset(variant));
    if (!preset) return t("rules.standard");
    const name = preset.name;
    return Object.keys(this.changes(variant)).length ? t("rules.custom", { preset: name }) : name;
  }

  // --- the game ------------------------------------------------------------------------

  /** The options GameController takes for the chosen game. */
  gameOptions() {
    const options = { variant: this.variant, mode: this.mode, human: 0, clock: false };
    const table = this.tableSeats() ? this.table() : null;
    if (table) {
      // one person against the CPUs is a game against the CPU; more share this screen
      const people = this.people();
      const cpus = Object.fromEntries(table.flatMap((c, seat) => (c === PERSON ? [] : [[seat, c]])));
      options.mode = people.length > 1 ? "hotseat" : "cpu";
      options.people = people;
      options.cpus = cpus;
      options.human = people[0] ?? 0;
      options.level = Object.values(cpus)[0] ?? null;
      options.clock = this.clock;
    } else if (this.mode === "cpu") {
      options.level = this.level;
      options.human = this.seat;
    } else if (this.mode === "friend") {
      options.clock = this.clock; // the host picks the clock; it plays first
      options.net = this.net;
      options.role = "host";
    } else {
      options.clock = this.clock;
    }
    const preset = this.preset();
    if (preset) {
      options.preset = preset;
      const changes = this.changes();
      if (Object.keys(changes).length) options.rules = this.values();
    }
    return options;
  }
}

/** t(key), or `fallback` when no language has the key. */
function translated(key, fallback) {
  const text = t(key);
  return text === key ? fallback : text;
}
