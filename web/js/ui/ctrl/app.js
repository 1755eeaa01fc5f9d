// The page's flows, from one screen to the next: a new game, a saved game to go on with,
// a friend's invitation to join, a replay to open, a rematch, back to the start. No DOM:
// it asks the engine and the saves, makes the controllers (a GameController with its
// session, a ReplayController) and tells `screens` (web/js/app.js) which screen to draw;
// the views report clicks to it. tests/js/app.test.mjs drives it in Node.
//
//   const flows = new AppController({engine, variants, screens, saves, stats, store, ...});
//   await flows.play(start.gameOptions());   // the start screen's Play
//   await flows.openCode(code);               // a friend's link
//   await flows.openChangedCode(code);        // one put into the address of the open page
//   await flows.openReplayLink(payload);      // #replay=...

import { t } from "../i18n.js";
import { newGame } from "./session.js";
import { ReplayController } from "./replay.js";
import { countAtEnd } from "./stats.js";
import { offerWords } from "./friendlink.js";
import { MAX_SAVES, crowded, kindOf, newSaveId, savedText } from "./saves.js";
import { ASK_MS, PASS_MS } from "../../net/tabs.js";

/** @typedef {import("./game.js").GameController} GameController */
/** @typedef {import("./saves.js").Saves} Saves */
/** @typedef {import("./saves.js").SavedEntry} SavedEntry */
/** @typedef {import("./stats.js").Stats} Stats */

/**
 * What the app controller asks of the page (web/js/app.js draws these screens).
 * @typedef {object} Screens
 * @property {(notice?: string) => void} showStart  the start screen (notice: a link or file refused)
 * @property {(game: GameController, options: {page?: any, title: string}) =>
 *   {pageData: () => object}} showGame
 *   the game screen for a controller (page: a resumed game's page data, the marks); gives
 *   the page data to save with the game
 * @property {() => void} closeGame  the game screen goes (its controller is disposed apart)
 * @property {(replay: ReplayController) => void} showReplay  over the game's end screen, if any
 * @property {() => void} closeReplay  the replay screen goes
 * @property {() => void} backToGame  the game's end screen again, after its replay
 * @property {(text: string) => void} showNotice  one message and a way back
 * @property {(tag: string, text: string) => void} showElsewhere  the game is played in another tab
 * @property {(signal: any, about: {offer: any, replaces: boolean}) => void} showJoin  an invitation to join
 * @property {(text: string, error?: boolean, where?: string) => void} startNotice  a line on the start screen
 * @property {(message: string, yes: string) => Promise<boolean>} confirm
 */

/**
 * The tabs of this browser (net/tabs.js TabRelay, or a stand-in).
 * @typedef {{listen(fn: (code: string) => Promise<boolean>): void, onLetGo(fn: (tag: string) => void): void,
 *   hold(tag: string): Promise<boolean>, holds(tag: string): boolean, isHeld(tag: string): Promise<boolean|null>,
 *   pass(code: string, ms: number, tag: string): Promise<boolean>,
 *   take(tag: string, abort?: AbortSignal): Promise<boolean>, release(): void}} Tabs
 */

export const MAX_FILE_BYTES = 1_500_000; // the engine refuses records over 1,000,000 characters
const RECENT_MS = 15 * 60_000; // a saved friend game this fresh is opened again after a reload
const SAVED_TAG = "saved-"; // a saved game's tag among the tabs: this prefix and its id

/** The tabs' tag of the saved game `id`. @param {string} id */
export function savedTag(id) {
  return SAVED_TAG + id;
}

export class AppController {
  /**
   * @param {object} deps
   * @param {any} deps.engine  EngineLink: calls wait until Python is up
   * @param {Record<string, any>} deps.variants  the static descriptions
   * @param {Screens} deps.screens
   * @param {Saves} deps.saves
   * @param {Stats} deps.stats
   * @param {any} deps.store  prefs: {loadLayout, saveLayout}
   * @param {() => any} [deps.settings]  {labels, ...} at render time
   * @param {() => Tabs} [deps.tabs]  made when first needed
   * @param {any} [deps.net]  {Channel, encodeSignal, decodeSignal, signalURL}
   * @param {string[]} [deps.stun]  this build's STUN URLs
   * @param {() => string} [deps.pageURL]  the page's address, when a link is made
   * @param {object} [deps.gameDeps]  more for newGame(): clockSeconds, setupSeconds, cpuMinMs, timers, random
   * @param {() => number} [deps.now]
   */
  constructor({ engine, variants, screens, saves, stats, store, settings = () => ({}),
    tabs = () => /** @type {any} */ (null), net = null, stun = [], pageURL = () => "", gameDeps = {},
    now = () => Date.now() }) {
    this.engine = engine;
    this.variants = variants;
    this.screens = screens;
    this.saves = saves;
    this.stats = stats;
    this.store = store;
    this.settings = settings;
    this.makeTabs = tabs;
    /** @type {Tabs|null} */
    this.relay = null;
    this.net = net;
    this.stun = stun;
    this.pageURL = pageURL;
    this.gameDeps = gameDeps;
    this.now = now;
    /** @type {GameController|null} the game on screen */
    this.game = null;
    /** @type {ReplayController|null} the replay on screen (over the game's end screen, if any) */
    this.replay = null;
    /** @type {string|null} the saved game on screen's id (against the CPU, on one device) */
    this.saveId = null;
    /** @type {(() => Promise<unknown>)|null} stops saving the game on screen */
    this.stopKeeping = null;
    /** @type {string|null} why a saved game was refused (the start screen says it once) */
    this.resumeNotice = null;
    this.shown = 0; // screens shown so far: a flow that waited can tell whether its screen is still up
  }

  // --- screens ---------------------------------------------------------------------------

  /** The game on screen goes (and its replay): its controller is disposed. */
  endGame() {
    this.endReplay();
    const game = this.game;
    this.game = null;
    this.stopKeeping?.();
    this.stopKeeping = null;
    this.saveId = null;
    if (game) {
      this.screens.closeGame();
      game.dispose();
    }
    this.relay?.release(); // another tab may play that game now
  }

  /** @param {string} notice  why a link or file was refused */
  toStart(notice = "") {
    this.endGame();
    this.shown++;
    this.screens.showStart(notice);
  }

  /** A short screen with one message and a way back. @param {string} text */
  notice(text) {
    this.endGame();
    this.shown++;
    this.screens.showNotice(text);
  }

  // --- a game on screen --------------------------------------------------------------------

  /** A controller with the session the options ask for. @param {any} options */
  makeGame(options) {
    return newGame({ engine: this.engine, variants: this.variants, options, store: this.store,
      settings: this.settings, saves: this.saves.friend, net: this.net, stun: this.stun,
      pageURL: this.pageURL(), ...this.gameDeps });
  }

  /** The start screen's Play: a new game (asked first when it would end the oldest saved
   * game, beyond the ones this browser keeps; a friend game replaces this browser's
   * unfinished friend game). @param {any} options */
  async play(options) {
    const friend = options.mode === "friend";
    if (!(await (friend ? this.replaceFriend() : this.makeRoom(options)))) return;
    return this.start(options);
  }

  /** A new game on screen: against the CPU, on one device (saved under a new id, which
   * this tab holds), or with a friend.
   * @param {any} options  the start screen's or nextOptions() */
  async start(options) {
    if (options.mode === "friend") return this.startFriend(options);
    this.endGame();
    const id = newSaveId();
    await this.tabs().hold(savedTag(id)); // a new id: no other tab has it
    return this.show(options, id);
  }

  /** The game against the CPU or on one device, saved as `id` (held by this tab) on
   * screen. @param {any} options  with `page`: a resumed game's page data (marks)
   * @param {string} id */
  async show(options, id) {
    const { page = null, ...rest } = options;
    const game = this.makeGame(rest);
    this.game = game;
    this.saveId = id;
    this.shown++;
    const { pageData } = this.screens.showGame(game, { page, title: t(`variant.${rest.variant}`) });
    countAtEnd(game, this.stats);
    // saved after every change, with the clock choice and the marks, while this tab holds it
    const tag = savedTag(id);
    this.stopKeeping = this.saves.keep(game, () => ({ clock: Boolean(game.opts.clock), ...pageData() }),
      { id, holds: () => !this.relay || this.relay.holds(tag) });
    await game.start();
  }

  /** "New game" from the menu: the same choices (a game under way is abandoned: asked). */
  async newGame() {
    const game = this.game;
    if (!game) return;
    if (game.inProgress()) {
      if (!(await this.screens.confirm(t("confirm.new"), t("action.new")))) return;
      this.abandon(game);
    }
    return this.start(game.nextOptions());
  }

  /** Rematch: a new game with seats switched, or (a friend's) asked for in this game. */
  async rematch() {
    const next = await this.game?.rematch();
    if (next) return this.start(next);
  }

  /** "Change mode": back to the start screen (a game under way is abandoned: asked). */
  async changeMode() {
    if (this.game?.inProgress()) {
      if (!(await this.screens.confirm(t("confirm.mode"), t("action.mode")))) return;
      this.abandon(this.game);
    }
    this.toStart();
  }

  /** The player abandoned the game: its save goes too (a friend game keeps its own; a
   * game this tab no longer holds is another tab's). @param {GameController} game */
  abandon(game) {
    const id = game === this.game ? this.saveId : null;
    if (id && game.session.gameId && this.relay?.holds(savedTag(id)) !== false) this.saves.forget(id);
  }

  // --- the saved games (against the CPU, on one device) ----------------------------------

  /** The saved games as the engine has them, newest first (a refused one is said on the
   * start screen: `resumeNotice`); when the engine cannot say, as the local summaries tell
   * them (a storage that failed once does not hide the games they list).
   * @returns {Promise<SavedEntry[]>} */
  async checkSaved() {
    const { found, refused } = await this.saves.check();
    if (refused) this.resumeNotice = t("resume.refused");
    return found ?? this.saves.peek();
  }

  /** The saved games a new game would join: as the engine has them; before the engine is
   * up, as the local summaries tell them. No summary is not taken for no save: when the
   * browser's storage holds one all the same (or cannot say), the engine is waited for. */
  async savedBeforeNewGame() {
    if (this.engine.ready) return this.checkSaved();
    const local = this.saves.peek();
    if (local.length) return local;
    return (await this.saves.stored()) === false ? [] : this.checkSaved();
  }

  /** Before a new game pushes the oldest saved games out (beyond the ones this browser
   * keeps; never one another tab plays): ask. True to go on. An early Play (before the
   * engine is up) asks too. @param {{variant: string, mode: string}} options */
  async makeRoom(options) {
    const games = await this.savedBeforeNewGame();
    const out = [];
    for (const entry of crowded(games, kindOf(options))) {
      if (!(await this.tabs().isHeld(savedTag(entry.id)))) out.push(entry);
    }
    if (!out.length) return true;
    const question = t("resume.replace", { game: out.map((e) => savedText(e.info)).join("; "), n: MAX_SAVES });
    if (!(await this.screens.confirm(question, t("resume.replace_yes")))) return false;
    await Promise.all(out.map((e) => this.saves.forget(e.id)));
    return true;
  }

  /** Continue a saved game: here, unless another tab plays it (then say so, and offer to
   * move it here). A refused save goes back to the start screen with a message that says
   * whether the save is still there. @param {SavedEntry} entry */
  async continueSaved(entry) {
    if (this.game) this.endGame();
    const tag = savedTag(entry.id);
    if (!(await this.tabs().hold(tag))) return this.elsewhere(tag);
    const resumed = await this.saves.resume(entry);
    if (!resumed.ok) {
      this.resumeNotice = t(resumed.kept ? "resume.kept" : "resume.refused");
      return this.toStart();
    }
    return this.show(resumed.options, entry.id);
  }

  /** Whether another tab of this browser plays the saved game `id` now (the start screen
   * says so beside it). @param {string} id */
  async playedElsewhere(id) {
    return (await this.tabs().isHeld(savedTag(id))) === true;
  }

  /** Discard a saved game from the start screen; one another tab plays is not discarded
   * under it (it says so instead). @param {string} id */
  async forgetSaved(id) {
    if (await this.tabs().isHeld(savedTag(id))) {
      this.elsewhere(savedTag(id));
      return false;
    }
    await this.saves.forget(id);
    return true;
  }

  /** The refused save's message, once. */
  takeNotice() {
    const notice = this.resumeNotice;
    this.resumeNotice = null;
    return notice;
  }

  // --- replays -------------------------------------------------------------------------------

  /** The finished game on screen, replayed from its end screen (Close comes back to it). */
  async replayFinished() {
    const game = this.game;
    const source = await game?.replaySource();
    if (!game || !source || game !== this.game) return;
    const error = await this.openReplay(source);
    if (error && game === this.game) {
      game.setMessage(() => t("replay.error", { message: error }));
      game.changed();
    }
  }

  /** A record from a file: refused with the engine's reason on the start screen.
   * @param {{size: number, text(): Promise<string>}|null} file */
  async openRecordFile(file) {
    if (!file) return false;
    const refuse = (/** @type {string} */ message) =>
      this.screens.startNotice(t("start.bad_file", { message }), true, "open");
    if (file.size > MAX_FILE_BYTES) {
      refuse(t("start.too_large"));
      return false;
    }
    this.screens.startNotice(t("replay.loading"), false, "open");
    let text;
    try {
      text = await file.text();
    } catch (err) {
      refuse(/** @type {any} */ (err).message || String(err));
      return false;
    }
    const error = await this.openReplay({ record: text });
    if (error) refuse(error);
    return !error;
  }

  /** A shared replay's link (#replay=…): the replay screen at once ("Preparing the
   * replay…"), filled in when the engine answers; a link the engine refuses goes to the
   * start screen with its reason. (With no game under way nothing is awaited before the
   * screen shows: at the page's start the start screen never shows first.)
   * @param {string} payload  the record_link payload */
  async openReplayLink(payload) {
    const game = this.game;
    if (game?.inProgress() && !(await this.screens.confirm(t("confirm.replay"), t("replay.title")))) return;
    if (this.game) this.endGame();
    const replay = this.replayController({ link: payload });
    this.showReplay(replay);
    const loaded = await replay.load();
    if (this.replay !== replay) return; // closed before the engine answered
    if (!loaded) this.toStart(t("start.bad_link", { message: replay.error || "?" }));
  }

  /** Ask the engine for the replay and show it; returns null, or the engine's reason.
   * @param {object} source  {game} | {record} | {link} */
  async openReplay(source) {
    const replay = this.replayController(source);
    if (!(await replay.load())) return replay.error || "?";
    this.showReplay(replay);
    return null;
  }

  /** @param {object} source  {game} | {record} | {link} */
  replayController(source) {
    return new ReplayController({ engine: this.engine, variants: this.variants, source,
      settings: this.settings });
  }

  /** The replay screen of this controller (over the game's end screen, if any), loaded or
   * still waiting for the engine.
   * @param {ReplayController} replay */
  showReplay(replay) {
    this.endReplay();
    this.replay = replay;
    this.shown++;
    this.screens.showReplay(replay);
  }

  endReplay() {
    const replay = this.replay;
    if (!replay) return;
    this.replay = null;
    this.screens.closeReplay();
    replay.dispose();
  }

  /** Close: back to the game's end screen it came from, else to the start screen. */
  closeReplay() {
    if (!this.game) return this.toStart();
    this.endReplay();
    this.shown++;
    this.screens.backToGame();
  }

  // --- friend games: codes, invitations, tabs --------------------------------------------------

  /** The tabs of this browser, listened to once a game is in question. */
  tabs() {
    if (this.relay) return this.relay;
    const relay = this.makeTabs();
    this.relay = relay;
    // A code opened in another tab of this browser: the friend game on screen takes it
    // when it is for this game (a reply to its invitation, or an invitation to reconnect).
    relay.listen(async (code) => Boolean(await this.game?.session.connection?.takeCode(code)));
    // Another tab moves this game there: let go cleanly (a saved game's last save written,
    // then no more), then say where it went.
    relay.onLetGo(async (tag) => {
      const game = this.game;
      if (game && this.saveId && tag === savedTag(this.saveId)) {
        const stop = this.stopKeeping;
        this.stopKeeping = null;
        await stop?.();
        if (this.game === game) this.notice(t("friend.moved"));
        else relay.release();
        return;
      }
      const session = game?.session;
      if (!session?.connection || session.connection.match !== tag) return relay.release();
      await session.connection.letGo();
      if (this.game === game) this.notice(t("friend.moved"));
      else relay.release();
    });
    return relay;
  }

  /** The friend-game screen: a new game to host, an invitation to answer, or a saved game
   * to go on with (options.saved). One live copy per browser: a game another tab plays is
   * not opened again here. @param {any} options */
  async startFriend(options) {
    this.endGame();
    const tabs = this.tabs();
    const tag = options.saved?.match || options.signal?.game || "";
    if (tag && !(await tabs.hold(tag))) return this.elsewhere(tag);
    // This browser keeps one friend game (one save): a new one would end the one another
    // tab plays. Say so instead, and offer to move that one here.
    const current = options.saved ? null : this.saves.friend.underWay();
    if (current && current.match !== tag && (await tabs.isHeld(current.match))) {
      tabs.release();
      return this.elsewhere(current.match, t("friend.elsewhere_other"));
    }
    const game = this.makeGame({ ...options, mode: "friend" });
    this.game = game;
    this.shown++;
    this.screens.showGame(game, { title: t("friend.title") });
    countAtEnd(game, this.stats); // a friend game saves itself as it goes (FriendSession)
    await game.start();
    // a new game's tag is made as it starts: held from then on
    const match = game.session.connection?.match;
    if (!tag && match && this.game === game) await tabs.hold(match);
  }

  /** The game is played in another tab of this browser: say so, and offer to move it here.
   * @param {string} tag @param {string} text */
  elsewhere(tag, text = t("friend.elsewhere")) {
    this.endGame();
    this.shown++;
    this.screens.showElsewhere(tag, text);
  }

  /** Move the game `tag` here (that tab lets go; this one goes on from the saved state, as
   * after a reload). @param {string} tag @param {AbortSignal} [abort]  Back was pressed */
  async moveHere(tag, abort) {
    const at = this.shown;
    if (!(await this.tabs().take(tag, abort))) return;
    if (at !== this.shown) return this.tabs().release(); // this screen was left meanwhile
    if (tag.startsWith(SAVED_TAG)) {
      const entry = (await this.checkSaved()).find((e) => savedTag(e.id) === tag);
      if (entry && at === this.shown) return this.continueSaved(entry);
      this.tabs().release();
      return this.toStart();
    }
    const saved = this.saves.friend.load();
    if (saved?.match === tag) return this.startFriend({ mode: "friend", saved });
    this.tabs().release();
    this.toStart();
  }

  /** The invitation: what joining means, then Join. @param {any} signal */
  join(signal) {
    this.endGame();
    this.shown++;
    const offer = signal.about ? offerWords(signal.about, this.variants) : null;
    this.screens.showJoin(signal, { offer, replaces: Boolean(this.saves.friend.underWay()) });
  }

  /** A code from the address (or pasted on the start screen): answer it, hand it to the tab
   * that waits for it, or say why nothing can be done with it here. @param {string} code */
  async openCode(code) {
    let signal;
    try {
      signal = await this.net.decodeSignal(code);
    } catch (err) {
      return this.notice(t("friend.bad_code", { why: /** @type {any} */ (err).message }));
    }
    if (this.saves.friend.load()?.clock?.offer === code) return this.notice(t("friend.own_link"));
    // A tab of this browser that plays this game (Web Locks say so) gets the code, and time
    // to answer; if it does not take it, the game is not opened here a second time.
    const tabs = this.tabs();
    const held = await tabs.isHeld(signal.game);
    if (held !== false && (await tabs.pass(code, held ? ASK_MS : PASS_MS, signal.game))) {
      return this.notice(t("friend.passed"));
    }
    if (held) return this.elsewhere(signal.game);
    const saved = this.saves.friend.load();
    if (saved && signal.game && saved.match === signal.game) {
      if (signal.kind === "offer") return this.startFriend({ mode: "friend", saved, then: signal });
      await this.startFriend({ mode: "friend", saved });
      await this.game?.session.connection?.takeSignal(signal);
      return;
    }
    if (signal.kind === "answer") return this.notice(t("friend.orphan_reply"));
    this.join(signal);
  }

  /** A code put into this tab's address while the page is open (only the fragment
   * changed: no reload). The friend game on screen takes a code for it, as from another
   * tab: the reply its invitation waits for, an invitation to reconnect; a code for it
   * that does not fit the moment is refused in its panel (used, its own invitation). Any
   * other code is opened as at the page's start, asked first where a game is under way.
   * @param {string} code */
  async openChangedCode(code) {
    const game = this.game;
    const connection = game?.session.connection;
    if (connection) {
      if (await connection.takeCode(code)) return;
      const signal = await this.net.decodeSignal(code).catch(() => null);
      if (signal?.game && signal.game === connection.match) {
        await connection.takeSignal(signal);
        return;
      }
    }
    if (game !== this.game) return; // the screen changed meanwhile
    if (game?.inProgress() && !(await this.screens.confirm(t("confirm.friend"), t("friend.open_code")))) return;
    if (game && game === this.game) this.endGame(); // its save stays (Continue, or the friend game's own)
    return this.openCode(code);
  }

  /** After a reload: a recent friend game under way goes on. */
  openRecent() {
    const saved = this.saves.friend.underWay();
    if (saved && this.now() - (saved.updated || 0) < RECENT_MS) {
      return this.startFriend({ mode: "friend", saved });
    }
    return null;
  }

  /** Before a new friend game hosted from the start screen replaces this browser's
   * unfinished one (one friend game per browser): ask. True to go on. (A game another tab
   * plays is not replaced at all: startFriend says so.) */
  async replaceFriend() {
    const saved = this.saves.friend.underWay();
    if (!saved || (await this.tabs().isHeld(saved.match))) return true;
    return this.screens.confirm(t("friend.host_replaces"), t("resume.replace_yes"));
  }

  /** The start screen's saved friend game: go on with it. */
  resumeFriend() {
    return this.startFriend({ mode: "friend", saved: this.saves.friend.load() });
  }

  forgetFriend() {
    this.saves.friend.clear();
  }
}
