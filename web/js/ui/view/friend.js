// The friend-game screen: the link exchange (copy, share, a QR code drawn here, paste),
// the connection indicator, and the usual game screen (GameView) once the game has a board.
// The controller is ui/ctrl/friend.js; the bytes travel through js/net/.

import { h, s, clear } from "./dom.js";
import { t } from "../i18n.js";
import * as prefs from "../prefs.js";
import { GameView } from "./game.js";
import { FriendGame, localSaves } from "../ctrl/friend.js";
import { offerWords } from "../ctrl/friendlink.js";
import { qrPath } from "../../net/qr.js";
import { Channel } from "../../net/rtc.js";
import { ASK_MS, PASS_MS, TabRelay } from "../../net/tabs.js";
import { decodeSignal, encodeSignal, fragmentCode, isSignalText, signalURL } from "../../net/link.js";
import { scanDialog } from "./scanner.js";

const NET = { Channel, encodeSignal, decodeSignal, signalURL };
const RECENT_MS = 15 * 60_000; // a saved game this fresh is opened again after a reload
let relay = null;
let saves = null;

const stunList = () => globalThis.window?.junqi?.build?.stun || [];
const savedGames = () => (saves ??= localSaves());
/** A saved friend game that is under way (not an unanswered invitation, not decided). */
const unfinished = (saved) => ["setup", "deal", "play", "ended"].includes(saved?.clock?.stage);

/** "stun:stun.example.org:3478" -> "stun.example.org" (what the page names to the player). */
export function stunHost(url) {
  return String(url).replace(/^stuns?:/, "").replace(/:\d+$/, "").replace(/\?.*$/, "");
}

function qrFigure(text) {
  const { size, path } = qrPath(text);
  const quiet = 4;
  const full = size + 2 * quiet;
  return s("svg", { class: "qr", viewBox: `0 0 ${full} ${full}`, role: "img",
    "aria-label": t("friend.qr_label"), "shape-rendering": "crispEdges" },
  s("rect", { width: full, height: full, class: "qr-bg" }),
  s("path", { d: path, transform: `translate(${quiet} ${quiet})`, class: "qr-fg" }));
}

export class FriendView {
  /** app: the App (say, settings, sound, rematch, ...); ctrl: a FriendGame */
  constructor(app, ctrl) {
    this.app = app;
    this.ctrl = ctrl;
    this.game = null; // the GameView, once the game has a board
    this.shownLink = null;
    this.build();
    Object.assign(ctrl.fx, this.effects());
    ctrl.subscribe((what) => (what === "clock" ? this.renderClock() : this.render()));
  }

  effects() {
    return {
      say: (text) => this.app.say(text),
      focus: () => {},
      end: (result, you) => this.app.sound?.end(result, you),
    };
  }

  build() {
    const b = (id, key, action, cls = "") => h("button", { type: "button", id, class: cls || null,
      "data-i18n": key, on: { click: action } }, t(key));
    this.title = h("h2", { id: "friend-title", class: "friend-title" });
    this.explain = h("p", { class: "friend-explain", id: "friend-explain" });
    this.linkInput = h("input", { type: "text", id: "friend-link", readonly: true,
      "aria-labelledby": "friend-title", spellcheck: "false" });
    this.linkInput.addEventListener("focus", () => this.linkInput.select());
    this.copyButton = b("btn-copy-link", "friend.copy", () => this.copy(), "primary");
    this.shareButton = b("btn-share-link", "friend.share", () => this.share());
    this.shareButton.hidden = !navigator.share;
    this.copied = h("span", { class: "friend-copied", id: "friend-copied", role: "status" });
    this.qr = h("figure", { class: "friend-qr", id: "friend-qr" });
    this.linkBox = h("div", { class: "friend-linkbox", id: "friend-linkbox" },
      h("div", { class: "friend-linkrow" }, this.linkInput),
      h("div", { class: "row" }, this.copyButton, this.shareButton, this.copied),
      this.qr);
    this.pasteLabel = h("label", { for: "friend-paste", id: "friend-paste-label" });
    this.paste = h("textarea", { id: "friend-paste", rows: "2", spellcheck: "false",
      autocomplete: "off", "aria-describedby": "friend-paste-error" });
    this.pasteError = h("p", { class: "friend-error", id: "friend-paste-error", role: "alert" });
    this.pasteButton = b("btn-friend-connect", "friend.connect", () => this.takePaste(), "primary");
    this.scanButton = b("btn-friend-scan", "scan.open", () => this.scan());
    this.pasteBox = h("div", { class: "friend-paste", id: "friend-pastebox" },
      this.pasteLabel, this.paste, h("div", { class: "row" }, this.pasteButton, this.scanButton),
      this.pasteError);
    this.state = h("p", { class: "friend-state", id: "friend-state", role: "status" });
    this.newLink = b("btn-reconnect", "friend.new_link", () => this.ctrl.invite());
    this.cpuTab = b("btn-cpu-tab", "friend.cpu_tab", () => this.openCpuTab());
    this.cpuInstead = b("btn-cpu-instead", "friend.cpu_instead", () => this.playCpu());
    this.leave = b("btn-friend-leave", "friend.leave", () => this.app.changeMode());
    this.panel = h("section", { class: "friend-connect", id: "friend-connect",
      "aria-labelledby": "friend-title" },
    this.title, this.explain, this.state, this.linkBox, this.pasteBox,
    h("div", { class: "row friend-more" }, this.newLink, this.cpuTab, this.cpuInstead, this.leave));
    this.indicator = h("span", { class: "friend-conn", id: "friend-conn", role: "status" });
    this.root = h("section", { class: "friend", id: "friend", "data-variant": this.ctrl.variant || "" },
      this.panel);
  }

  /** The usual game screen, built once the game has a board (after the hello). */
  ensureGame() {
    const ctrl = this.ctrl;
    if (this.game || !ctrl.desc || !ctrl.view?.board) return;
    this.game = new GameView(this.app, ctrl);
    Object.assign(ctrl.fx, this.effects(), {
      move: (from, to) => this.game.board.animateMove(from, to),
      events: (events, viewer) => this.game.flash(events, viewer),
      focus: (what) => this.game.focus(what),
    });
    this.game.root.dataset.mode = "friend";
    this.game.statusBar.querySelector(".status-line").append(this.indicator);
    this.root.append(this.game.root);
    this.root.dataset.variant = ctrl.variant;
  }

  render() {
    const ctrl = this.ctrl;
    this.ensureGame();
    this.root.dataset.conn = ctrl.conn;
    this.root.dataset.ui = ctrl.ui;
    this.renderPanel();
    this.renderIndicator();
    if (this.game) {
      // the overlay sits over the board while the connection is not up
      const host = this.game.boardWrap;
      if (this.panel.parentNode !== host) host.append(this.panel);
      this.panel.classList.add("overlay");
      this.game.render();
      this.game.root.dataset.conn = ctrl.conn;
      this.panel.hidden = !ctrl.panelShown();
    }
  }

  renderClock() {
    this.game?.renderClock();
    this.renderIndicator();
    if (this.ctrl.conn === "lost") this.renderState();
  }

  renderIndicator() {
    const ctrl = this.ctrl;
    const their = ctrl.theirClock;
    const parts = [ctrl.connText()];
    if (their !== null && ctrl.conn === "open") parts.push(t("friend.their_clock", { s: their }));
    this.indicator.textContent = parts.join(" · ");
    this.indicator.dataset.conn = ctrl.conn;
  }

  renderState() {
    const ctrl = this.ctrl;
    let text = "";
    if (ctrl.conn === "lost") {
      const left = ctrl.holdLeft();
      text = left === null || left > 0
        ? t("friend.lost_wait", { s: Math.ceil((left ?? 0) / 1000) }) : t("friend.lost_running");
    } else if (ctrl.conn === "failed") {
      text = t(ctrl.connError === "no_route" ? "friend.failed.no_route" : "friend.failed.other");
    } else if (ctrl.conn === "gathering") {
      text = ctrl.netMode === "stun"
        ? t("friend.gathering.stun", { server: this.stunNames() }) : t("friend.gathering");
    } else if (ctrl.conn === "connecting") {
      text = t("friend.connecting");
    } else if (ctrl.conn === "invite") {
      text = t("friend.waiting_reply");
    } else if (ctrl.conn === "reply") {
      text = t("friend.waiting_open");
    } else if (ctrl.ui === "error") {
      text = ctrl.messageText(); // why the game could not go on (no board to show it under)
    } else if (ctrl.ui === "engine") {
      text = t("status.engine");
    } else if (ctrl.conn === "open" && ctrl.ui === "link") {
      text = t("friend.hello");
    }
    if (ctrl.saveFailed) text += ` ${t("friend.save_failed")}`;
    this.state.textContent = text;
  }

  stunNames() {
    return this.ctrl.stun.map(stunHost).join(", ");
  }

  renderPanel() {
    const ctrl = this.ctrl;
    const link = ctrl.link;
    const inGame = Boolean(this.game);
    let title = "";
    let explain = "";
    if (link?.kind === "offer") {
      title = t(inGame ? "friend.title.reinvite" : "friend.title.invite");
      explain = t(ctrl.netMode === "stun" ? "friend.net.stun" : "friend.net.lan", { server: this.stunNames() });
    } else if (link?.kind === "answer") {
      title = t("friend.title.reply");
      explain = t("friend.explain.reply");
    } else if (ctrl.conn === "lost" || ctrl.conn === "failed") {
      title = t(ctrl.conn === "lost" ? "friend.title.lost" : "friend.title.failed");
      explain = ctrl.conn === "lost" ? t("friend.explain.lost") : "";
      // a new link asks the STUN server again: say so before the button is pressed
      if (ctrl.netMode === "stun") explain += ` ${t("friend.net.stun", { server: this.stunNames() })}`;
    } else {
      title = t("friend.title");
    }
    this.title.textContent = title;
    this.explain.textContent = explain;
    this.explain.hidden = !explain;
    this.renderState();
    // the link to send
    this.linkBox.hidden = !link;
    if (link && this.shownLink !== link.url) {
      this.shownLink = link.url;
      this.linkInput.value = link.url;
      this.copied.textContent = "";
      clear(this.qr);
      this.qr.append(qrFigure(link.url), h("figcaption", {}, t("friend.qr_caption")));
    }
    // where a code from the friend goes: a reply to our invitation, or their invitation
    const pasting = ctrl.conn === "invite" || ctrl.conn === "lost" || ctrl.conn === "failed";
    this.pasteBox.hidden = !pasting;
    this.pasteLabel.textContent = t(ctrl.conn === "invite" ? "friend.paste.reply" : "friend.paste.invite");
    this.pasteError.textContent = ctrl.linkError ? t("friend.bad_code", { why: ctrl.linkError }) : "";
    this.pasteButton.disabled = ctrl.busy;
    const stage = ctrl.view?.fair?.stage;
    this.newLink.hidden = !(ctrl.conn === "lost" || ctrl.conn === "failed") || stage === "done";
    this.newLink.textContent = t(ctrl.conn === "failed" ? "friend.try_again" : "friend.new_link");
    this.cpuTab.hidden = !(ctrl.conn === "invite" || ctrl.conn === "reply");
    this.cpuInstead.hidden = ctrl.conn !== "failed" || inGame;
    this.leave.hidden = inGame;
  }

  async takePaste() {
    const text = this.paste.value;
    if (await this.ctrl.takeSignal(text)) this.paste.value = "";
  }

  /** The other screen's QR code, read by this device's camera (view/scanner.js). */
  async scan() {
    const text = await scanDialog(this.app.root, { title: this.pasteLabel.textContent, wanted: isSignalText });
    if (text) await this.ctrl.takeSignal(text);
  }

  async copy() {
    const url = this.ctrl.link?.url;
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      this.copied.textContent = t("friend.copied");
    } catch {
      this.linkInput.focus();
      this.linkInput.select();
      this.copied.textContent = t("friend.copy_by_hand");
    }
  }

  async share() {
    const url = this.ctrl.link?.url;
    if (!url || !navigator.share) return;
    try {
      await navigator.share({ title: t("title.site"), text: t("friend.share_text"), url });
    } catch {
      // the player closed the share sheet
    }
  }

  /** Wait in this tab, play the CPU in a new one (same site, own origin). */
  openCpuTab() {
    window.open(new URL("./", location.href).href, "_blank", "noopener");
  }

  playCpu() {
    const variant = this.ctrl.variant || this.ctrl.opts.variant || "classic";
    this.app.play({ variant, mode: "cpu", level: "easy", human: 0, clock: false });
  }

  relabel() {
    for (const node of this.panel.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    this.shownLink = null;
    if (this.game) this.game.relabel();
    this.render();
  }

  dispose() {
    if (this.game) this.game.dispose(); // disposes the controller too
    else this.ctrl.dispose();
    relay?.release(); // another tab may play this game now
  }
}

// --- wiring: the start screen, the address, other tabs ---------------------------------

function tabs(app) {
  if (!relay) {
    relay = new TabRelay();
    // A code opened in another tab of this browser: the friend game on screen takes it
    // when it is for this game (a reply to its invitation, or an invitation to reconnect).
    relay.listen(async (code) => Boolean(app.game?.friend) && app.game.takeCode(code));
    // Another tab moves this game there: let go cleanly, then say where it went.
    relay.onLetGo(async (tag) => {
      const game = app.game;
      if (!game?.friend || game.match !== tag) return relay.release();
      await game.letGo();
      if (app.game === game) notice(app, t("friend.moved"));
      else relay.release();
    });
  }
  return relay;
}

/** The game is played in another tab of this browser: say so, and offer to move it here
 * (that tab lets go; this one goes on from the saved state, as after a reload). */
function elsewhere(app, tag, text = t("friend.elsewhere")) {
  app.endGame();
  app.startView?.dispose();
  app.startView = null;
  clear(app.screen);
  const state = h("p", { class: "hint", id: "friend-moving", role: "status" });
  const abort = new AbortController();
  const move = h("button", { type: "button", class: "primary", id: "btn-friend-move",
    on: { click: async () => {
      move.disabled = true;
      state.textContent = t("friend.moving");
      if (!(await tabs(app).take(tag, abort.signal))) return;
      if (!section.isConnected) return relay.release(); // this screen was left meanwhile
      const saved = savedGames().load();
      if (saved?.match === tag) await startFriend(app, { mode: "friend", saved });
      else {
        relay.release();
        app.showStart();
      }
    } } }, t("friend.move_here"));
  const back = h("button", { type: "button", id: "btn-notice-back",
    on: { click: () => {
      abort.abort();
      app.showStart();
    } } }, t("friend.back_start"));
  const section = h("section", { class: "friend-notice", id: "friend-elsewhere", role: "status" },
    h("p", {}, text), h("div", { class: "row" }, move, back), state);
  app.screen.append(section);
  move.focus();
}

/** Open the friend-game screen: a new game to host, an invitation to answer, or a saved
 * game to go on with (options.saved). One live copy per browser: a game another tab plays
 * is not opened again here (elsewhere). */
export async function startFriend(app, options) {
  app.endGame();
  const tag = options.saved?.match || options.signal?.game || "";
  if (tag && !(await tabs(app).hold(tag))) return elsewhere(app, tag);
  // This browser keeps one friend game (one save): a new one would end the one another
  // tab plays. Say so instead, and offer to move that one here.
  const current = options.saved ? null : savedGames().load();
  if (unfinished(current) && current.match !== tag && (await tabs(app).isHeld(current.match))) {
    tabs(app).release();
    return elsewhere(app, current.match, t("friend.elsewhere_other"));
  }
  app.startView?.dispose();
  app.startView = null;
  clear(app.screen);
  const test = Number(new URLSearchParams(location.search).get("moveclock")) || 0;
  const ctrl = new FriendGame({
    engine: app.engine,
    variants: app.variants,
    options,
    store: prefs,
    saves: savedGames(),
    net: NET,
    stun: stunList(),
    pageURL: location.href,
    settings: () => app.settings.snapshot(),
    clockSeconds: test || undefined, // ?moveclock=N: tests only; the page's clock is 30 s
    setupSeconds: test || undefined,
  });
  const view = new FriendView(app, ctrl);
  app.watch?.(ctrl, view); // the statistics count the game when it ends
  app.game = ctrl;
  app.gameView = view;
  app.screen.append(view.root);
  app.bar.setGame(true);
  document.documentElement.dataset.screen = "game";
  view.render();
  document.title = `${t("friend.title")} — ${t("title.site")}`;
  tabs(app);
  await ctrl.start();
  // a new game's tag is made as it starts: held from then on
  if (!tag && ctrl.match && app.game === ctrl) await tabs(app).hold(ctrl.match);
}

/** Before a new friend game hosted from the start screen replaces this browser's
 * unfinished one (one friend game per browser): ask. True to go on. (A game another tab
 * plays is not replaced at all: startFriend says so.) */
export async function replaceFriendSaved(app) {
  const saved = savedGames().load();
  if (!unfinished(saved) || (await tabs(app).isHeld(saved.match))) return true;
  return app.confirm(t("friend.host_replaces"), t("resume.replace_yes"));
}

/** A short screen with one message and a way back. */
function notice(app, text) {
  app.endGame();
  app.startView?.dispose();
  app.startView = null;
  clear(app.screen);
  const back = h("button", { type: "button", class: "primary", id: "btn-notice-back",
    on: { click: () => app.showStart() } }, t("friend.back_start"));
  app.screen.append(h("section", { class: "friend-notice", id: "friend-notice", role: "status" },
    h("p", {}, text), back));
  back.focus();
}

/** The invitation: what joining means (and whom the page will contact), then Join. */
function joinScreen(app, signal) {
  app.endGame();
  app.startView?.dispose();
  app.startView = null;
  clear(app.screen);
  const saved = savedGames().load();
  const stun = signal.net === "stun";
  const servers = stunList().map(stunHost).join(", ");
  const join = h("button", { type: "button", class: "primary big", id: "btn-join",
    disabled: stun && !servers,
    on: { click: () => startFriend(app, { mode: "friend", role: "guest", signal }) } },
  t("friend.join"));
  // the game offered, before the player accepts (the host's claim: checked at the hello)
  const offer = signal.about ? offerWords(signal.about, app.variants) : null;
  app.screen.append(h("section", { class: "friend-notice friend-join", id: "friend-join",
    "aria-labelledby": "friend-join-title" },
  h("h2", { id: "friend-join-title" }, t("friend.title.join")),
  offer ? h("dl", { class: "friend-offer", id: "friend-offer" },
    h("dt", {}, t("friend.offer.game")), h("dd", { "data-offer": "variant" }, offer.variant),
    h("dt", {}, t("friend.offer.rules")), h("dd", { "data-offer": "rules" }, offer.rules),
    h("dt", {}, t("friend.offer.time")), h("dd", { "data-offer": "clock" }, offer.clock))
    : h("p", { id: "friend-offer" }, t("friend.offer.unknown")),
  h("p", {}, t(stun ? "friend.net.stun" : "friend.net.lan", { server: servers })),
  stun && !servers ? h("p", { role: "alert" }, t("friend.no_stun")) : null,
  unfinished(saved) ? h("p", {}, t("friend.join_replaces")) : null,
  h("div", { class: "row" }, join,
    h("button", { type: "button", on: { click: () => app.showStart() } }, t("friend.not_now")))));
  join.focus();
}

/** A code from the address (or pasted on the start screen): answer it, hand it to the tab
 * that waits for it, or say why nothing can be done with it here. */
export async function openFriendCode(app, code) {
  let signal;
  try {
    signal = await decodeSignal(code);
  } catch (err) {
    notice(app, t("friend.bad_code", { why: err.message }));
    return;
  }
  if (savedGames().load()?.clock?.offer === code) {
    notice(app, t("friend.own_link"));
    return;
  }
  // A tab of this browser that plays this game (Web Locks say so) gets the code, and time
  // to answer; if it does not take it, the game is not opened here a second time.
  const held = await tabs(app).isHeld(signal.game);
  if (held !== false && (await tabs(app).pass(code, held ? ASK_MS : PASS_MS, signal.game))) {
    notice(app, t("friend.passed"));
    return;
  }
  if (held) {
    elsewhere(app, signal.game);
    return;
  }
  const saved = savedGames().load();
  if (saved && signal.game && saved.match === signal.game) {
    if (signal.kind === "offer") {
      await startFriend(app, { mode: "friend", saved, then: signal });
    } else {
      await startFriend(app, { mode: "friend", saved });
      await app.game?.takeSignal(signal);
    }
    return;
  }
  if (signal.kind === "answer") {
    notice(app, t("friend.orphan_reply"));
    return;
  }
  joinScreen(app, signal);
}

/** At mount: a code in the address (used once, then removed from it), or a recent saved
 * friend game to go on with after a reload. */
export function openFriendLink(app) {
  const code = fragmentCode(location.hash);
  if (code) {
    history.replaceState(null, "", location.pathname + location.search);
    return openFriendCode(app, code);
  }
  const saved = savedGames().load();
  if (unfinished(saved) && Date.now() - (saved.updated || 0) < RECENT_MS) {
    return startFriend(app, { mode: "friend", saved });
  }
  return null;
}

/** The start screen's part for a friend game: how to connect, the clock, a pasted code, a
 * saved game. */
export function friendOptions(start, app) {
  const servers = stunList().map(stunHost).join(", ");
  const nets = h("fieldset", { class: "chips", id: "net-choice" },
    h("legend", {}, t("start.net")),
    h("div", { class: "chip-row" }, ...["lan", "stun"].flatMap((value) => {
      const input = h("input", { type: "radio", name: "net", value, id: `net-${value}`,
        checked: start.net === value, disabled: value === "stun" && !servers });
      input.addEventListener("change", () => input.checked && start.choose("net", value));
      return [input, h("label", { for: `net-${value}`, class: "chip" }, t(`start.net.${value}`))];
    })));
  const explain = h("p", { class: "hint", id: "net-explain" });
  const show = () => {
    explain.textContent = servers || start.net !== "stun"
      ? t(start.net === "stun" ? "friend.net.stun" : "friend.net.lan", { server: servers })
      : t("friend.no_stun");
  };
  start.subscribe(show);
  show();
  const clock = h("input", { type: "checkbox", id: "friend-clock-option", checked: start.clock });
  clock.addEventListener("change", () => start.choose("clock", clock.checked));
  start.subscribe(() => (clock.checked = start.clock));
  const paste = h("input", { type: "text", id: "friend-code", spellcheck: "false", autocomplete: "off",
    "aria-labelledby": "friend-code-label" });
  const go = h("button", { type: "button", id: "btn-friend-code",
    on: { click: () => paste.value.trim() && openFriendCode(app, paste.value) } }, t("friend.open_code"));
  const saved = savedGames().load();
  const resume = unfinished(saved) ? h("div", { class: "friend-saved", id: "friend-saved" },
    h("p", { class: "hint" }, t("friend.saved")),
    h("div", { class: "row" },
      h("button", { type: "button", id: "btn-friend-resume", class: "primary",
        on: { click: () => startFriend(app, { mode: "friend", saved: savedGames().load() }) } }, t("friend.resume")),
      h("button", { type: "button", id: "btn-friend-forget",
        on: { click: (event) => {
          savedGames().clear();
          event.target.closest(".friend-saved").remove();
        } } }, t("friend.forget")))) : null;
  return h("div", { class: "mode-options friend-options", id: "friend-options" },
    h("p", { class: "hint" }, t("start.friend.hint")),
    resume,
    nets, explain,
    h("div", { class: "option" }, clock, h("label", { for: "friend-clock-option" }, t("start.friend.clock"))),
    h("div", { class: "friend-code" },
      h("label", { id: "friend-code-label", for: "friend-code" }, t("friend.paste.invite")),
      h("div", { class: "row" }, paste, go)));
}
