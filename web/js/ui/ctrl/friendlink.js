// A friend game's connection (FriendLink, owned by FriendSession in friend.js): the
// invitation and reply links, the WebRTC channel and its events, and the page's game clock,
// which stops while the connection is down (up to PAUSE_MS) and ticks once a second. Also the words of an
// invitation (offerWords). No DOM; the bytes go through js/net/ (injected as `net`, so
// Node tests use a stand-in).

import { t, has } from "../i18n.js";

/** @typedef {import("./friend.js").FriendSession} FriendSession */

export const PAUSE_MS = 60_000; // a lost connection holds both clocks this long
export const TICK_MS = 1000;

/** JSON with sorted keys: two descriptions of a game compare equal whatever their order. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The game an invitation offers, in words for the Join screen: {variant, rules, clock}.
 * `about`: {rules: {variant, preset, options}, clock} (net/link.js); variants: the static
 * descriptions (presets and options with their names). */
export function offerWords(about, variants = {}) {
  const { variant, preset, options } = about.rules;
  const desc = variants[variant];
  const named = (key, fallback) => (has(key) ? t(key) : fallback);
  const presetDesc = desc?.presets?.find((p) => p.id === preset);
  let rules = presetDesc ? named(`rules.${variant}.${preset}`, presetDesc.name)
    : preset ? preset : t("rules.standard");
  // options that differ from the preset's (or the default): "customised", and which
  const changed = [];
  for (const option of desc?.options || []) {
    if (!(option.id in options)) continue;
    const base = presetDesc?.options && option.id in presetDesc.options
      ? presetDesc.options[option.id] : option.default;
    const value = options[option.id];
    if (value === base) continue;
    const key = `rule.${variant}.${option.id}`;
    const valueWords = typeof value === "boolean" ? t(value ? "friend.offer.on" : "friend.offer.off")
      : named(`${key}.${value}`, option.choice_names?.[option.choices?.indexOf(value)] ?? String(value));
    changed.push(`${named(key, option.name)}: ${valueWords}`);
  }
  if (changed.length) rules = `${t("rules.custom", { preset: rules })} (${changed.join("; ")})`;
  const clock = about.clock
    ? t("friend.offer.clock", { deploy: about.clock.deploy, move: about.clock.move })
    : t("friend.offer.no_clock");
  const name = named(`variant.${variant}`, variant);
  return { variant: name, rules, clock };
}

const hex = (/** @type {Uint8Array} */ bytes) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
export const randomTag = () => hex(globalThis.crypto.getRandomValues(new Uint8Array(8)));

/** What a link to send is: an invitation (`offer`) or a reply to one (`answer`). */
/** @typedef {{kind: "offer"|"answer", code: string, url: string}} LinkToSend */

export class FriendLink {
  /**
   * @param {object} deps
   * @param {FriendSession} deps.session  the game this connection serves
   * @param {any} deps.net  {Channel, encodeSignal, decodeSignal, signalURL} (js/net/)
   * @param {string[]} [deps.stun]  this build's STUN URLs
   * @param {string} [deps.pageURL]  the page's address (links are made from it)
   * @param {() => number} [deps.wall]  ms since the epoch
   * @param {"lan"|"stun"} [deps.netMode]
   */
  constructor({ session, net, stun = [], pageURL = "", wall = () => Date.now(), netMode = "lan" }) {
    this.session = session;
    this.net = net;
    this.stun = stun;
    this.pageURL = pageURL;
    this.wall = wall;
    this.netMode = netMode;
    /** @type {any} the WebRTC channel (net/rtc.js) */
    this.channel = null;
    this.conn = "none"; // none | gathering | invite | reply | connecting | open | lost | failed
    /** @type {string|null} why the last connection failed ("no_route", ...) */
    this.connError = null;
    /** @type {string|null} what was wrong with a pasted code */
    this.linkError = null;
    /** @type {LinkToSend|null} what this page asks to send */
    this.link = null;
    this.everOpen = false;
    /** @type {{paused: number, since: number|null}} the clock held while the connection is down */
    this.pause = { paused: 0, since: null };
    /** @type {string[]} texts sent over the channel (tests read it; never ranks) */
    this.sent = [];
    /** @type {{sdp: string, certificate: any}[]} this page's latest invitations */
    this.invitations = [];
    /** @type {string[]} invitations this page answered; replies it accepted */
    this.answered = [];
    /** @type {string[]} */
    this.accepted = [];
    /** @type {string|null} */
    this.lastOffer = null;
    /** @type {(() => string)|null} "make a new link to reconnect", until connected again */
    this.connNote = null;
    this.moving = false; // the game moves to another tab
    this.lastAlive = 0;
    /** @type {any} the once-a-second timer */
    this.ticking = null;
    this.tickQueued = false;
    /** @type {number|null} seconds left on the friend's clock */
    this.theirClock = null;
  }

  get game() {
    return this.session.game;
  }

  /** The game's public tag, which its links carry. */
  get match() {
    return this.session.match;
  }

  gameNow() {
    const now = this.wall();
    const held = this.pause.since === null ? 0 : Math.min(now - this.pause.since, PAUSE_MS);
    return now - this.pause.paused - held;
  }

  holdClock() {
    if (this.pause.since === null) this.pause.since = this.wall();
    this.saveClock();
  }

  releaseClock() {
    if (this.pause.since !== null) {
      this.pause.paused += Math.min(this.wall() - this.pause.since, PAUSE_MS);
      this.pause.since = null;
    }
    this.saveClock();
  }

  /** ms the clocks still wait for a reconnection (null when they are not waiting). */
  holdLeft() {
    if (this.pause.since === null) return null;
    return Math.max(0, PAUSE_MS - (this.wall() - this.pause.since));
  }

  saveClock() {
    try {
      this.session.saves?.saveClock({ ...this.pause, alive: this.conn === "open" ? this.wall() : null,
        stage: this.game.view?.fair?.stage || null, offer: this.lastOffer || null });
    } catch {
      // storage full: the clock record is small, the game record says so below
    }
  }

  // --- the clocks: a tick a second; the countdowns from the peer's deadlines ---------------

  startTicking() {
    if (this.ticking !== null) return;
    this.ticking = this.game.timers.every(() => this.tick(), TICK_MS);
  }

  stopTicking() {
    if (this.ticking !== null) this.game.timers.stop(this.ticking);
    this.ticking = null;
  }

  /** Every second: the countdowns redrawn, the clock record kept while connected, and the
   * peer's tick (its own time-outs, an undeployed side's draft), one at a time. */
  tick() {
    const session = this.session;
    this.updateClock();
    this.game.changed("clock");
    if (this.conn === "open" && this.wall() - (this.lastAlive || 0) > 5000) {
      this.lastAlive = this.wall();
      this.saveClock();
    }
    const stage = this.game.view?.fair?.stage;
    if (!session.peer || !stage || stage === "hello" || stage === "done" || this.tickQueued) return;
    this.tickQueued = true;
    session.peerCall({ call: "tick" }).catch(() => {}).finally(() => (this.tickQueued = false));
  }

  /** This seat's countdown (the game's `clock`) and the friend's, from the peer's deadlines. */
  updateClock() {
    const game = this.game;
    const d = game.view?.fair?.deadlines;
    const now = this.gameNow();
    const left = (/** @type {number} */ at) => Math.max(0, Math.ceil((at - now) / 1000));
    const stage = game.view?.fair?.stage;
    const running = stage === "setup" || stage === "play";
    game.clock = running && d?.mine ? {
      left: left(d.mine), setup: stage === "setup",
      timeouts: game.view.timeouts?.[game.viewer ?? 0] ?? 0, max: game.desc?.rules?.max_timeouts,
    } : null;
    this.theirClock = running && d?.theirs && d.waiting_for !== "reply" ? left(d.theirs) : null;
  }

  iceServers(net = this.netMode) {
    return net === "stun" ? this.stun.map((urls) => ({ urls })) : [];
  }

  /** This side makes the invitation (a new game, or a reconnection): a link to send. */
  invite() {
    return this.game.guard(async () => {
      this.closeChannel();
      this.conn = "gathering";
      this.link = null;
      this.linkError = null;
      this.connError = null;
      this.game.changed();
      const channel = await this.net.Channel.offer({ iceServers: this.iceServers() });
      this.useChannel(channel);
      // kept (in memory) so a late answer to this invitation can be told it was taken
      this.invitations = [{ sdp: channel.sdp, certificate: channel.certificate },
        ...this.invitations].slice(0, 4);
      const code = await this.net.encodeSignal({ kind: "offer", net: this.netMode, game: this.session.match,
        sdp: channel.sdp, about: this.offered() });
      this.link = { kind: "offer", code, url: this.net.signalURL(this.pageURL, code) };
      this.lastOffer = code; // a page that opens its own invitation can say so
      this.saveClock();
      this.conn = "invite";
      this.game.changed();
    });
  }

  /** The game this page offers, as an invitation names it: {rules, clock} (null before the
   * engine has said). */
  offered() {
    const fair = this.game.view?.fair;
    return fair?.rules ? { rules: fair.rules, clock: fair.clock ?? null } : null;
  }

  /** Whether the game the other page started is the one its invitation offered (the Join
   * screen showed that one). True when the invitation named none. */
  asOffered(/** @type {any} */ view) {
    const promised = this.session.signal?.about;
    const fair = view?.fair;
    if (!promised || this.session.role !== "guest" || !fair?.rules) return true;
    return canonical(promised) === canonical({ rules: fair.rules, clock: fair.clock ?? null });
  }

  /** Answer an invitation ({kind: "offer", net, game, sdp}): a reply link to send back. */
  answerInvite(signal) {
    return this.game.guard(async () => {
      this.closeChannel();
      this.netMode = signal.net;
      this.conn = "gathering";
      this.link = null;
      this.linkError = null;
      this.connError = null;
      this.game.changed();
      this.answered = [signal.sdp, ...this.answered].slice(0, 8);
      const channel = await this.net.Channel.answer(signal.sdp, { iceServers: this.iceServers(signal.net) });
      this.useChannel(channel);
      const code = await this.net.encodeSignal({ kind: "answer", net: signal.net, game: this.session.match, sdp: channel.sdp });
      this.link = { kind: "answer", code, url: this.net.signalURL(this.pageURL, code) };
      this.conn = "reply";
      this.game.changed();
    });
  }

  /** A link or code the player pasted (or another tab passed on): a reply to this page's
   * invitation, or an invitation to reconnect. Returns whether it was taken. */
  async takeSignal(text) {
    let signal;
    try {
      signal = typeof text === "string" ? await this.net.decodeSignal(text) : text;
    } catch (err) {
      this.linkError = err.message || String(err);
      this.game.changed();
      return false;
    }
    this.linkError = null;
    if (signal.game !== this.session.match) {
      this.linkError = t("friend.other_game");
      this.game.changed();
      return false;
    }
    if (signal.kind === "answer") {
      if (this.accepted.includes(signal.sdp)) {
        this.linkError = t("friend.reply_used");
        this.game.changed();
        return false;
      }
      if (this.conn !== "invite" || !this.channel) return this.refuseReply(signal);
      this.accepted = [signal.sdp, ...this.accepted].slice(0, 8);
      this.conn = "connecting";
      this.game.changed();
      await this.game.guard(() => this.channel.accept(signal.sdp));
      return true;
    }
    if (this.answered.includes(signal.sdp)) {
      this.linkError = t("friend.invitation_used");
      this.game.changed();
      return false;
    }
    if (this.invitations.some((invitation) => invitation.sdp === signal.sdp)) {
      this.linkError = t("friend.own_invitation"); // answering it would drop the connection it waits on
      this.game.changed();
      return false;
    }
    await this.answerInvite(signal);
    return true;
  }

  /** A reply to an invitation of this game that this page no longer waits for: someone
   * else answered it after it was used. That page would wait forever: it is told, on a
   * connection of its own, that the invitation was already taken (Channel.refuse). */
  async refuseReply(signal) {
    const invitations = this.invitations;
    if (!invitations.length || typeof this.net.Channel.refuse !== "function") {
      this.linkError = t("friend.no_invitation");
      this.game.changed();
      return false;
    }
    const reply = await this.game.engine.call({ op: "fair_taken" });
    if (!reply.ok) return false;
    this.game.setMessage(() => t("friend.told_taken"));
    this.game.changed();
    this.game.fx.say(this.game.messageText());
    for (const invitation of invitations) {
      this.net.Channel.refuse({ offer: invitation.sdp, certificate: invitation.certificate,
        answer: signal.sdp, text: reply.send[0], iceServers: this.iceServers(signal.net) })
        .catch(() => false);
    }
    return true;
  }

  /** A code passed on by another tab: taken when it is for this game and fits the moment
   * (a reply to this page's invitation, a late reply to refuse, an invitation to
   * reconnect this page has not answered yet). Decided at once; the work goes on after
   * (the other tab waits for the answer). */
  async takeCode(code) {
    let signal;
    try {
      signal = await this.net.decodeSignal(code);
    } catch {
      return false;
    }
    if (!this.session.peer || !signal.game || signal.game !== this.session.match) return false;
    if (signal.kind === "answer" && this.accepted?.includes(signal.sdp)) return false;
    if (signal.kind === "offer" && (this.conn === "invite" || this.answered.includes(signal.sdp))) {
      return false; // its own invitation is no invitation to it; an answered one is used
    }
    this.takeSignal(signal).catch(() => {});
    return true;
  }

  /** Another tab takes this game over: let go cleanly. The state is saved (write-ahead,
   * and the calls under way are awaited), the clocks wait as for a lost connection, and
   * the channel closes (the friend's page sees the connection go, as on a reload). The
   * screen then disposes of the game, keeping its save. */
  async letGo() {
    this.moving = true;
    await this.session.queue;
    this.holdClock();
    this.closeChannel();
  }

  useChannel(channel) {
    this.channel = channel;
    channel.on("open", () => channel === this.channel && this.opened());
    channel.on("message", (text) => channel === this.channel && this.received(text));
    channel.on("lost", () => channel === this.channel && this.lost());
    channel.on("failed", ({ reason }) => channel === this.channel && this.failed(reason));
  }

  closeChannel() {
    const old = this.channel;
    this.channel = null;
    old?.close();
  }

  /** Send a text to the other page (tests read `sent`). @param {string} text */
  transmit(text) {
    this.sent.push(text);
    if (this.sent.length > 500) this.sent.shift();
    this.channel?.send(text);
  }

  opened() {
    this.conn = "open";
    this.everOpen = true;
    this.link = null;
    this.linkError = null;
    // "make a new link to reconnect" is done with: say the game goes on instead
    if (this.connNote && this.game.lines.includes(this.connNote)) this.game.setMessage(() => t("friend.resumed"));
    this.connNote = null;
    this.releaseClock();
    this.game.changed();
    // First thing on every new channel (the first one too): each side says what it has,
    // and the other resends what is missing (the host's hello, moves made meanwhile).
    this.session.peerCall({ call: "reconnect" }).catch(() => {});
  }

  received(text) {
    this.session.peerCall({ call: "receive", text }).catch(() => {});
  }

  lost() {
    this.conn = "lost";
    this.holdClock();
    this.game.changed();
    this.game.fx.say(t("friend.conn.lost"));
  }

  failed(reason) {
    this.conn = "failed";
    this.connError = reason;
    this.game.changed();
    this.game.fx.say(t("friend.conn.failed"));
  }

  /** The connection in a few words (the indicator). */
  connText() {
    const key = {
      none: "friend.conn.none", gathering: "friend.conn.gathering", invite: "friend.conn.invite",
      reply: "friend.conn.reply", connecting: "friend.conn.connecting", open: "friend.conn.open",
      lost: "friend.conn.lost", failed: "friend.conn.failed",
    }[this.conn];
    return t(key);
  }
}
