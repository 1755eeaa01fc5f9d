// The tabs of this browser and its games: one live copy of a game per browser.
//
// - A link opened in a new tab reaches the tab that waits for it: a friend's reply opened
//   from a chat app lands in a new tab, while the game (and its half-open WebRTC
//   connection) lives in another. BroadcastChannel talks to this origin's tabs only.
// - The tab that plays a game holds a Web Lock named after it (a friend game's public tag,
//   a saved game's id). A second tab that opens the same game or invitation, or Continues
//   the same saved game, finds it held: it says the game is open elsewhere and can ask the
//   holder to let go, then takes the lock (and the game's saved state) once the holder has.
//   Only the holder saves the game.
// Carries codes and tags; knows no game rules. Without Web Locks (an old browser, or a page
// that is not a secure context) only the relay works, and every tab holds what it plays.
//
//   const relay = new TabRelay();
//   relay.listen(async (code) => taken);          // a game tab: true when it takes the code
//   const taken = await relay.pass(code, ms, tag); // a new tab: did a game tab take it?
//   await relay.hold(tag);                        // false: another tab plays that game
//   relay.holds(tag);                             // this tab still plays it (it may save it)
//   relay.onLetGo((tag) => ...);                  // another tab asks to move the game there
//   await relay.take(tag);                        // ask the holder, wait until it let go

const NAME = "junqi-friend";
const LOCK = "junqi-game:";
export const PASS_MS = 600; // no tab is known to hold the game: a short wait
export const ASK_MS = 5000; // a tab holds it: it answers within this (even a busy one)
const HOLD_WAIT_MS = 1500;

export class TabRelay {
  constructor(BC = globalThis.BroadcastChannel, locks = globalThis.navigator?.locks) {
    this.bc = typeof BC === "function" ? new BC(NAME) : null;
    this.locks = locks && typeof locks.request === "function" ? locks : null;
    this.handler = null;
    this.letGo = null;
    /** @type {{tag: string, release: (value?: unknown) => void} | null} */
    this.held = null; // {tag, release}: the game this tab plays
    this.waiting = new Map(); // id -> resolve
    this.bc?.addEventListener("message", (event) => this._onMessage(event.data));
  }

  get available() {
    return Boolean(this.bc);
  }

  /** handler(code) -> Promise<boolean>: this tab takes the code (true) or not. It should
   * decide at once and do the work afterwards: the other tab waits for the answer. */
  listen(handler) {
    this.handler = handler;
  }

  /** handler(tag): another tab asks this one to let go of the game `tag`. */
  onLetGo(handler) {
    this.letGo = handler;
  }

  async _onMessage(msg) {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "signal" && typeof msg.code === "string" && this.handler) {
      let taken = false;
      try {
        taken = await this.handler(msg.code);
      } catch {
        taken = false;
      }
      if (taken) this.bc?.postMessage({ type: "taken", id: msg.id });
      // the tab that plays the game says no at once, so the other need not wait
      else if (msg.tag && this.held?.tag === msg.tag) this.bc?.postMessage({ type: "declined", id: msg.id });
    } else if ((msg.type === "taken" || msg.type === "declined") && this.waiting.has(msg.id)) {
      this.waiting.get(msg.id)(msg.type === "taken");
      this.waiting.delete(msg.id);
    } else if (msg.type === "let_go" && this.held && msg.tag === this.held.tag) {
      this.letGo?.(msg.tag);
    }
  }

  /** Offer a code (for the game `tag`) to the other tabs; resolves true when one of them
   * took it, false when the tab that plays that game declined it or nobody answered. */
  pass(code, ms = PASS_MS, tag = "") {
    if (!this.bc) return Promise.resolve(false);
    const id = Math.random().toString(36).slice(2);
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.bc.postMessage({ type: "signal", id, code, tag });
      setTimeout(() => {
        if (this.waiting.delete(id)) resolve(false);
      }, ms);
    });
  }

  /** Whether a tab of this browser plays the game `tag` (this one included); null when
   * the browser cannot tell (no Web Locks). */
  async isHeld(tag) {
    if (!this.locks || !tag) return null;
    try {
      const { held = [] } = await this.locks.query();
      return held.some((lock) => lock.name === LOCK + tag);
    } catch {
      return null;
    }
  }

  /** This tab plays the game `tag` from now on; false when another tab does. It waits a
   * moment for the lock: a page reloaded in this tab may still hold it while it goes. */
  hold(tag, waitMs = HOLD_WAIT_MS) {
    if (!this.locks || !tag) return Promise.resolve(true);
    if (this.held?.tag === tag) return Promise.resolve(true);
    this.release();
    return new Promise((resolve) => {
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), waitMs);
      this.locks.request(LOCK + tag, { signal: abort.signal }, () => {
        clearTimeout(timer);
        return new Promise((release) => {
          this.held = { tag, release };
          resolve(true);
        });
      }).catch(() => resolve(false));
    });
  }

  /** Whether this tab plays the game `tag` now (it has not let go of it); true when the
   * browser has no Web Locks (every tab plays what it shows, as before them). */
  holds(tag) {
    return !this.locks || this.held?.tag === tag;
  }

  /** Move the game `tag` to this tab: the tab that plays it is asked to let go; resolves
   * true once this tab holds it, false when `abort` (an AbortSignal) fired first. */
  take(tag, abort = undefined) {
    if (!this.locks || !tag) return Promise.resolve(true);
    this.release();
    return new Promise((resolve) => {
      this.locks.request(LOCK + tag, { signal: abort }, () => new Promise((release) => {
        this.held = { tag, release };
        resolve(true);
      })).catch(() => resolve(false));
      this.bc?.postMessage({ type: "let_go", tag });
    });
  }

  /** This tab no longer plays its game: another tab may. */
  release() {
    this.held?.release();
    this.held = null;
  }

  close() {
    this.release();
    this.bc?.close();
    this.bc = null;
  }
}
