// The friend-game screen: the link exchange (copy, share, a QR code drawn here, paste),
// the connection indicator, and the usual game screen (GameView) once the game has a board.
// The controller is a GameController whose session is a FriendSession (ui/ctrl/friend.js);
// the connection is its `session.connection` (ui/ctrl/friendlink.js); the bytes travel
// through js/net/. The start screen's part for a friend game is ui/view/friendopts.js.

import { h, s, clear } from "./dom.js";
import { t } from "../i18n.js";
import { GameView } from "./game.js";
import { qrPath } from "../../net/qr.js";
import { isSignalText } from "../../net/link.js";
import { scanDialog } from "./scanner.js";

// the start screen's part lives apart, so the start screen loads without this screen
import { stunHost } from "./friendopts.js";
export { stunList, stunHost, friendOptions } from "./friendopts.js";

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
  /** app: the page (say, settings, sound, flows, ...); ctrl: a GameController whose session
   * is a FriendSession */
  constructor(app, ctrl) {
    this.app = app;
    this.ctrl = ctrl;
    this.session = ctrl.session;
    this.link = ctrl.session.connection; // the links and the channel
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
    this.newLink = b("btn-reconnect", "friend.new_link", () => this.link.invite());
    this.cpuTab = b("btn-cpu-tab", "friend.cpu_tab", () => this.openCpuTab());
    this.cpuInstead = b("btn-cpu-instead", "friend.cpu_instead", () => this.playCpu());
    this.leave = b("btn-friend-leave", "friend.leave", () => this.app.flows.changeMode());
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
    const link = this.link;
    this.ensureGame();
    this.root.dataset.conn = link.conn;
    this.root.dataset.ui = this.ctrl.ui;
    this.renderPanel();
    this.renderIndicator();
    if (this.game) {
      // the overlay sits over the board while the connection is not up
      const host = this.game.boardWrap;
      if (this.panel.parentNode !== host) host.append(this.panel);
      this.panel.classList.add("overlay");
      this.game.render();
      this.game.root.dataset.conn = link.conn;
      this.panel.hidden = !this.session.panelShown();
    }
  }

  renderClock() {
    this.game?.renderClock();
    this.renderIndicator();
    if (this.link.conn === "lost") this.renderState();
  }

  renderIndicator() {
    const link = this.link;
    const their = link.theirClock;
    const parts = [link.connText()];
    if (their !== null && link.conn === "open") parts.push(t("friend.their_clock", { s: their }));
    this.indicator.textContent = parts.join(" · ");
    this.indicator.dataset.conn = link.conn;
  }

  renderState() {
    const ctrl = this.ctrl;
    const link = this.link;
    let text = "";
    if (link.conn === "lost") {
      const left = link.holdLeft();
      text = left === null || left > 0
        ? t("friend.lost_wait", { s: Math.ceil((left ?? 0) / 1000) }) : t("friend.lost_running");
    } else if (link.conn === "failed") {
      text = t(link.connError === "no_route" ? "friend.failed.no_route" : "friend.failed.other");
    } else if (link.conn === "gathering") {
      text = link.netMode === "stun"
        ? t("friend.gathering.stun", { server: this.stunNames() }) : t("friend.gathering");
    } else if (link.conn === "connecting") {
      text = t("friend.connecting");
    } else if (link.conn === "invite") {
      text = t("friend.waiting_reply");
    } else if (link.conn === "reply") {
      text = t("friend.waiting_open");
    } else if (ctrl.ui === "error") {
      text = ctrl.messageText(); // why the game could not go on (no board to show it under)
    } else if (ctrl.ui === "engine") {
      text = t("status.engine");
    } else if (link.conn === "open" && ctrl.ui === "link") {
      text = t("friend.hello");
    }
    if (this.session.saveFailed) text += ` ${t("friend.save_failed")}`;
    this.state.textContent = text;
  }

  stunNames() {
    return this.link.stun.map(stunHost).join(", ");
  }

  renderPanel() {
    const ctrl = this.ctrl;
    const conn = this.link;
    const link = conn.link;
    const inGame = Boolean(this.game);
    let title = "";
    let explain = "";
    if (link?.kind === "offer") {
      title = t(inGame ? "friend.title.reinvite" : "friend.title.invite");
      explain = t(conn.netMode === "stun" ? "friend.net.stun" : "friend.net.lan", { server: this.stunNames() });
    } else if (link?.kind === "answer") {
      title = t("friend.title.reply");
      explain = t("friend.explain.reply");
    } else if (conn.conn === "lost" || conn.conn === "failed") {
      title = t(conn.conn === "lost" ? "friend.title.lost" : "friend.title.failed");
      explain = conn.conn === "lost" ? t("friend.explain.lost") : "";
      // a new link asks the STUN server again: say so before the button is pressed
      if (conn.netMode === "stun") explain += ` ${t("friend.net.stun", { server: this.stunNames() })}`;
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
    const pasting = conn.conn === "invite" || conn.conn === "lost" || conn.conn === "failed";
    this.pasteBox.hidden = !pasting;
    this.pasteLabel.textContent = t(conn.conn === "invite" ? "friend.paste.reply" : "friend.paste.invite");
    this.pasteError.textContent = conn.linkError ? t("friend.bad_code", { why: conn.linkError }) : "";
    this.pasteButton.disabled = ctrl.busy;
    const stage = ctrl.view?.fair?.stage;
    this.newLink.hidden = !(conn.conn === "lost" || conn.conn === "failed") || stage === "done";
    this.newLink.textContent = t(conn.conn === "failed" ? "friend.try_again" : "friend.new_link");
    this.cpuTab.hidden = !(conn.conn === "invite" || conn.conn === "reply");
    this.cpuInstead.hidden = conn.conn !== "failed" || inGame;
    this.leave.hidden = inGame;
  }

  async takePaste() {
    const text = this.paste.value;
    if (await this.link.takeSignal(text)) this.paste.value = "";
  }

  /** The other screen's QR code, read by this device's camera (view/scanner.js). */
  async scan() {
    const text = await scanDialog(this.app.root, { title: this.pasteLabel.textContent, wanted: isSignalText });
    if (text) await this.link.takeSignal(text);
  }

  async copy() {
    const url = this.link.link?.url;
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
    const url = this.link.link?.url;
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
    const variant = this.ctrl.variant || this.ctrl.opts.variant || this.app.start.variant;
    this.app.flows.play({ variant, mode: "cpu", level: "easy", human: 0, clock: false });
  }

  relabel() {
    for (const node of this.panel.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    this.shownLink = null;
    if (this.game) this.game.relabel();
    this.render();
  }

  dispose() {
    this.game?.dispose();
  }
}
