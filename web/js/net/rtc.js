// A WebRTC data channel between two pages, with the descriptions passed by hand (links):
// no signalling server, no trickle (the description is sent once, with every candidate
// gathered), no TURN relay. Carries text; knows no game rules.
//
//   const ch = await Channel.offer({iceServers: []});   // ch.sdp: send it to the other page
//   const other = await Channel.answer(offerSdp, {iceServers: []});  // other.sdp goes back
//   await ch.accept(answerSdp);
//   ch.on("open", () => ...); ch.on("message", (text) => ...);
//   ch.on("lost", ({reason}) => ...);   // closed, or the network went away
//   ch.on("failed", ({reason}) => ...); // never opened
//   await Channel.refuse({offer: ch.sdp, certificate: ch.certificate, answer, text});
//                                       // a late answer to an offer already used: one text
//
// `iceServers: []` ("same network") contacts nobody: the candidates are this device's own
// addresses (Chromium hides them behind mDNS names). With a STUN server ("over the
// internet") the browser asks that server for the public address. Without a relay, two
// networks that allow no direct path cannot connect: "failed" says so.

export const GATHER_MS = 6000; // a STUN server that does not answer: go on without it
export const OPEN_MS = 20000; // both descriptions set, still no channel: it failed
export const LOST_MS = 5000; // "disconnected" this long: the connection is lost
const LABEL = "junqi";

/** iceServers: [] for "same network"; RTC: another RTCPeerConnection (tests).
 * @typedef {{iceServers?: RTCIceServer[], RTC?: typeof RTCPeerConnection}} ChannelOptions */

/** Resolves once ICE gathering is complete, or after `ms`.
 * @returns {Promise<void>} */
function gathered(pc, ms) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const timer = setTimeout(resolve, ms);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

export class Channel {
  constructor(pc) {
    this.pc = pc;
    this.dc = null;
    this.sdp = null;
    this.state = "new"; // new -> waiting -> open -> lost | failed | closed
    /** @type {RTCCertificate | null} the first side's DTLS certificate (offer) */
    this.certificate = null;
    this.listeners = {};
    this.timers = [];
    pc.addEventListener("connectionstatechange", () => this._onState());
  }

  static create(iceServers, RTC = globalThis.RTCPeerConnection, certificate = null) {
    if (typeof RTC !== "function") throw new Error("this browser has no WebRTC");
    const config = { iceServers: iceServers || [] };
    if (certificate) config.certificates = [certificate];
    const ch = new Channel(new RTC(config));
    ch.certificate = certificate;
    return ch;
  }

  /** The first side: a data channel and an offer with every candidate. Its DTLS
   * certificate is made here and kept (`certificate`), so that a late answer to this
   * offer can still be reached (refuse).
   * @param {ChannelOptions} [opts] */
  static async offer({ iceServers = [], RTC = globalThis.RTCPeerConnection } = {}) {
    let certificate = null;
    try {
      const ecdsa = /** @type {EcKeyGenParams} */ ({ name: "ECDSA", namedCurve: "P-256" });
      certificate = await RTC.generateCertificate(ecdsa);
    } catch {
      // without it, a late answer cannot be told anything
    }
    const ch = Channel.create(iceServers, RTC, certificate);
    ch._attach(ch.pc.createDataChannel(LABEL, { ordered: true }));
    await ch.pc.setLocalDescription(await ch.pc.createOffer());
    await gathered(ch.pc, GATHER_MS);
    ch.sdp = ch.pc.localDescription.sdp;
    ch.state = "waiting";
    return ch;
  }

  /** The second side: answer an offer. The channel opens once the first side accepts.
   * @param {string} offerSdp
   * @param {ChannelOptions} [opts] */
  static async answer(offerSdp, { iceServers = [], RTC } = {}) {
    const ch = Channel.create(iceServers, RTC);
    ch.pc.addEventListener("datachannel", (event) => ch._attach(event.channel));
    await ch.pc.setRemoteDescription({ type: "offer", sdp: offerSdp });
    await ch.pc.setLocalDescription(await ch.pc.createAnswer());
    await gathered(ch.pc, GATHER_MS);
    ch.sdp = ch.pc.localDescription.sdp;
    ch.state = "waiting";
    return ch;
  }

  /** The first side takes the answer; the channel should open within OPEN_MS. */
  async accept(answerSdp) {
    if (this.state !== "waiting" || this.pc.remoteDescription) throw new Error("not waiting for an answer");
    await this.pc.setRemoteDescription({ type: "answer", sdp: answerSdp });
    this._later(() => this.state === "waiting" && this._fail("no_route"), OPEN_MS);
  }

  /**
   * Send one text to the page that sent `answer` to our `offer` after the offer was used
   * (its page waits for a connection that will never come), then close. Its answer expects
   * the offer's ICE credentials and DTLS certificate: a new connection made with both (the
   * credentials set in the new offer's description) reaches it. Resolves whether the text
   * was sent.
   */
  static async refuse({ offer, certificate, answer, text, iceServers = [], RTC = globalThis.RTCPeerConnection,
    ms = OPEN_MS }) {
    const ufrag = /^a=ice-ufrag:(\S+)/m.exec(offer || "")?.[1];
    const pwd = /^a=ice-pwd:(\S+)/m.exec(offer || "")?.[1];
    if (!certificate || !ufrag || !pwd || typeof RTC !== "function") return false;
    const pc = new RTC({ iceServers, certificates: [certificate] });
    try {
      const dc = pc.createDataChannel(LABEL, { ordered: true });
      const opened = new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        dc.addEventListener("open", () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      const local = (await pc.createOffer()).sdp
        .replace(/^a=ice-ufrag:\S+/gm, `a=ice-ufrag:${ufrag}`)
        .replace(/^a=ice-pwd:\S+/gm, `a=ice-pwd:${pwd}`);
      await pc.setLocalDescription({ type: "offer", sdp: local });
      await pc.setRemoteDescription({ type: "answer", sdp: answer });
      if (!(await opened)) return false;
      dc.send(text);
      return true;
    } catch {
      return false;
    } finally {
      setTimeout(() => pc.close(), 2000); // time for the text to leave
    }
  }

  on(event, fn) {
    (this.listeners[event] ||= []).push(fn);
    return this;
  }

  _emit(event, arg) {
    for (const fn of this.listeners[event] || []) fn(arg);
  }

  _later(fn, ms) {
    this.timers.push(setTimeout(fn, ms));
  }

  _attach(dc) {
    if (dc.label !== LABEL || this.dc) return;
    this.dc = dc;
    dc.addEventListener("open", () => {
      if (this.state !== "waiting") return;
      this.state = "open";
      this._emit("open");
    });
    dc.addEventListener("message", (event) => {
      if (this.state === "open" && typeof event.data === "string") this._emit("message", event.data);
    });
    dc.addEventListener("close", () => this._lose("closed"));
  }

  _onState() {
    const s = this.pc.connectionState;
    if (s === "failed" || s === "closed") {
      if (this.state === "open") this._lose(s);
      else this._fail(s === "failed" ? "no_route" : "closed");
    } else if (s === "disconnected" && this.state === "open") {
      this._later(() => this.pc.connectionState === "disconnected" && this._lose("disconnected"), LOST_MS);
    }
  }

  _fail(reason) {
    if (this.state !== "waiting" && this.state !== "new") return;
    this.state = "failed";
    this._shut();
    this._emit("failed", { reason });
  }

  _lose(reason) {
    if (this.state !== "open") return;
    this.state = "lost";
    this._shut();
    this._emit("lost", { reason });
  }

  _shut() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    try {
      this.dc?.close();
      this.pc.close();
    } catch {
      // already closed
    }
  }

  /** Send one text; false when the channel is not open (the text is not lost for the
   * game: a resume on the next channel resends what the other side lacks). */
  send(text) {
    if (this.state !== "open" || this.dc?.readyState !== "open") return false;
    try {
      this.dc.send(text);
      return true;
    } catch {
      return false;
    }
  }

  /** End this channel on purpose (no "lost" event). */
  close() {
    if (this.state === "closed") return;
    this.state = "closed";
    this._shut();
  }
}
