// Links opened in a new tab reach the tab that waits for them: a friend's reply opened from
// a chat app lands in a new tab of this browser, while the game (and its half-open WebRTC
// connection) lives in another. BroadcastChannel talks to this origin's tabs only; the code
// never leaves the browser. Carries codes; knows no game rules.
//
//   const relay = new TabRelay();
//   relay.listen(async (code) => taken);          // a game tab: true when it took the code
//   const taken = await relay.pass(code);         // a new tab: did a game tab take it?

const NAME = "junqi-friend";
export const PASS_MS = 600;

export class TabRelay {
  constructor(BC = globalThis.BroadcastChannel) {
    this.bc = typeof BC === "function" ? new BC(NAME) : null;
    this.handler = null;
    this.waiting = new Map(); // id -> resolve
    this.bc?.addEventListener("message", (event) => this._onMessage(event.data));
  }

  get available() {
    return Boolean(this.bc);
  }

  /** handler(code) -> Promise<boolean>: this tab takes the code (true) or not. */
  listen(handler) {
    this.handler = handler;
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
      if (taken) this.bc.postMessage({ type: "taken", id: msg.id });
    } else if (msg.type === "taken" && this.waiting.has(msg.id)) {
      this.waiting.get(msg.id)(true);
      this.waiting.delete(msg.id);
    }
  }

  /** Offer a code to the other tabs; resolves true when one of them took it. */
  pass(code, ms = PASS_MS) {
    if (!this.bc) return Promise.resolve(false);
    const id = Math.random().toString(36).slice(2);
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.bc.postMessage({ type: "signal", id, code });
      setTimeout(() => {
        if (this.waiting.delete(id)) resolve(false);
      }, ms);
    });
  }

  close() {
    this.bc?.close();
    this.bc = null;
  }
}
