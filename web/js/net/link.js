// Signalling by link: one side's WebRTC description (gathered whole, no trickle) packed
// into a URL fragment, which browsers never send to a server. Knows no game rules.
//
//   const code = await encodeSignal({kind: "offer", net: "lan", game: "", sdp, about});
//   const url = signalURL(location.href, code);      // the page address, #friend=J2…
//   const signal = await decodeSignal(textOrURL);     // {kind, net, game, sdp, about}; throws LinkError
//
// Two forms of code, both read:
// - "J2" (made whenever it can be): the description's few facts that matter (net/sdp.js:
//   ICE credentials, fingerprint, role, candidates) with the kind, net, game tag and the
//   game offered, about 100-130 bytes, written in base 42: digits, capital letters and
//   $ * - . / : (two bytes in three characters), which a QR code stores in its
//   alphanumeric mode at 5.5 bits a character; a last check character (0-9, A-Z) catches a
//   code cut short or mistyped. A link of ~200-250 characters: a QR code of version 8 or 9.
// - "J1": base64url(deflate-raw(UTF-8 of "kind\nnet\ngame\n" [+ about + "\n"] + the whole
//   SDP)), ~700-900 characters, for a description with no compact form (another browser's,
//   an unusual one).
// `game` is a short public tag of the game a reconnection belongs to; `net` is "lan" (no
// outside server) or "stun" (the page asks its own build's STUN server; a link never names
// a server to contact). `about` (optional, offers only) is the game offered, as JSON
// {rules: {variant, preset, options}, clock: null | {deploy, move}}: what the Join screen
// shows before the player accepts (null when the link has none). It is the sender's claim:
// the page that joins checks it against the game the other page then starts.

import { compactSDP, expandSDP, essentials, SdpError } from "./sdp.js";

export const FRAGMENT_KEY = "friend";
const PREFIX = "J1";
const COMPACT = "J2";
// Base 42: the QR alphanumeric characters that need no escaping in a URL fragment (not the
// space, "%" or "+", which a fragment parser turns into a space).
export const BASE42 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ$*-./:";
const CHECK = BASE42.slice(0, 36); // the check character: a letter or a digit, never punctuation
const KINDS = { o: "offer", a: "answer" };
const NETS = ["lan", "stun"];
const MAX_CODE = 8000; // characters of a code we accept (a real one is ~700-900)
const MAX_SDP = 16000;
const MAX_ABOUT = 2000;
const ID = /^[a-z][a-z0-9_]{0,31}$/;

export class LinkError extends Error {
  constructor(message) {
    super(message);
    this.name = "LinkError";
  }
}

function toBase64url(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new LinkError("the code has characters a code never has");
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  let binary;
  try {
    binary = atob(padded);
  } catch {
    throw new LinkError("the code is cut short or damaged");
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream, limit = Infinity) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  const chunks = [];
  let size = 0;
  for await (const chunk of out) {
    size += chunk.length;
    if (size > limit) throw new LinkError("the code holds too much");
    chunks.push(chunk);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/** The game an offer names, checked: {rules: {variant, preset, options}, clock}, or a
 * LinkError. Ids are short lowercase names, option values plain, clock times whole seconds. */
export function checkAbout(about) {
  const bad = () => new LinkError("the code names a game this page cannot read");
  if (!about || typeof about !== "object" || Array.isArray(about)) throw bad();
  const { rules, clock } = about;
  if (Object.keys(about).some((k) => !["rules", "clock"].includes(k))) throw bad();
  if (!rules || typeof rules !== "object" || !ID.test(rules.variant)) throw bad();
  if (rules.preset !== null && !ID.test(rules.preset)) throw bad();
  const options = rules.options;
  if (!options || typeof options !== "object" || Array.isArray(options)) throw bad();
  const entries = Object.entries(options);
  if (entries.length > 32) throw bad();
  for (const [id, value] of entries) {
    const plain = typeof value === "boolean" || (typeof value === "string" && value.length <= 32)
      || Number.isInteger(value);
    if (!ID.test(id) || !plain) throw bad();
  }
  if (clock !== null) {
    const seconds = (x) => Number.isInteger(x) && x >= 1 && x <= 3600;
    if (!clock || typeof clock !== "object" || Object.keys(clock).sort().join() !== "deploy,move"
      || !seconds(clock.deploy) || !seconds(clock.move)) throw bad();
  }
  return { rules: { variant: rules.variant, preset: rules.preset, options }, clock };
}

/** {kind: "offer"|"answer", net: "lan"|"stun", game: tag or "", sdp, about} -> the code:
 * the compact form when the description has one (`compact: false` forces the long form). */
export async function encodeSignal({ kind, net, game = "", sdp, about = null }, { compact = true } = {}) {
  const letter = Object.keys(KINDS).find((k) => KINDS[k] === kind);
  if (!letter || !NETS.includes(net)) throw new LinkError("not a signal");
  if (!/^[0-9a-f]{0,32}$/.test(game)) throw new LinkError("a game tag is short hex");
  const line = about ? `${JSON.stringify(checkAbout(about))}\n` : "";
  if (line.length > MAX_ABOUT || (line && kind !== "offer")) throw new LinkError("not a signal");
  const short = compact ? compactCode(letter, net, game, sdp, about) : null;
  if (short) return short;
  const text = `${letter}\n${net}\n${game}\n${line}${sdp}`;
  const packed = await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw"));
  return PREFIX + toBase64url(packed);
}

/** The J2 code, or null when the description (or the game offered) has no compact form.
 * Bytes: flags (answer, stun, a game offered), the game tag's length and bytes, the game
 * offered as a short JSON array [variant, preset, options, [deploy, move] | null] with its
 * length, then the description's bytes (net/sdp.js). */
function compactCode(letter, net, game, sdp, about) {
  if (game.length % 2) return null;
  const short = compactSDP(sdp);
  // Never send a compact form that lost something: its description must say the same.
  if (!short || JSON.stringify(essentials(expandSDP(short, "0"))) !== JSON.stringify(essentials(sdp))) return null;
  const tag = hexBytes(game);
  let offered = [];
  if (about) {
    const { rules, clock } = about;
    const json = JSON.stringify([rules.variant, rules.preset, rules.options, clock && [clock.deploy, clock.move]]);
    offered = [...new TextEncoder().encode(json)];
    if (offered.length > 255) return null;
    offered.unshift(offered.length);
  }
  const flags = (letter === "a" ? 1 : 0) | (net === "stun" ? 2 : 0) | (about ? 4 : 0);
  const bytes = Uint8Array.from([flags, tag.length, ...tag, ...offered, ...short]);
  return COMPACT + toBase42(bytes) + checkChar(bytes);
}

/** bytes -> base 42, two bytes in three characters (the last odd byte in two). */
export function toBase42(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 2) {
    let n = i + 1 < bytes.length ? bytes[i] * 256 + bytes[i + 1] : bytes[i];
    const width = i + 1 < bytes.length ? 3 : 2;
    for (let k = 0; k < width; k++) {
      out += BASE42[n % 42];
      n = Math.floor(n / 42);
    }
  }
  return out;
}

/** base 42 -> bytes; LinkError on a character or a length no code has. */
export function fromBase42(text) {
  if (text.length % 3 === 1) throw new LinkError("the code is cut short or damaged");
  const out = [];
  for (let i = 0; i < text.length; i += 3) {
    const chunk = text.slice(i, i + 3);
    let n = 0;
    for (let k = chunk.length - 1; k >= 0; k--) {
      const digit = BASE42.indexOf(chunk[k]);
      if (digit < 0) throw new LinkError("the code has characters a code never has");
      n = n * 42 + digit;
    }
    if (chunk.length === 3) {
      if (n > 0xffff) throw new LinkError("the code is damaged");
      out.push(n >> 8, n & 255);
    } else {
      if (n > 0xff) throw new LinkError("the code is damaged");
      out.push(n);
    }
  }
  return Uint8Array.from(out);
}

/** One character (0-9, A-Z) from a CRC-8 of the bytes. */
function checkChar(bytes) {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return CHECK[crc % 36];
}

function hexBytes(text) {
  const out = [];
  for (let i = 0; i < text.length; i += 2) out.push(parseInt(text.slice(i, i + 2), 16));
  return out;
}

/** A compact code's body -> {kind, net, game, sdp, about}. */
function decodeCompact(body) {
  if (body.length < 2) throw new LinkError("the code is cut short or damaged");
  const bytes = fromBase42(body.slice(0, -1));
  if (checkChar(bytes) !== body.slice(-1)) throw new LinkError("the code is cut short or damaged");
  const damaged = () => new LinkError("the code is damaged");
  const [flags, length] = bytes;
  if (bytes.length < 2 || flags & ~7 || length > 16 || bytes.length < 2 + length) throw damaged();
  const game = Array.from(bytes.subarray(2, 2 + length), (b) => b.toString(16).padStart(2, "0")).join("");
  let at = 2 + length;
  let about = null;
  if (flags & 4) {
    if (flags & 1) throw damaged(); // only an offer names a game
    const size = bytes[at];
    if (size === undefined || at + 1 + size > bytes.length) throw damaged();
    let fields;
    try {
      fields = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(at + 1, at + 1 + size)));
    } catch {
      throw damaged();
    }
    if (!Array.isArray(fields) || fields.length !== 4) throw damaged();
    const [variant, preset, options, clock] = fields;
    const time = Array.isArray(clock) && clock.length === 2 ? { deploy: clock[0], move: clock[1] } : clock;
    about = checkAbout({ rules: { variant, preset, options }, clock: time });
    at += 1 + size;
  }
  let sdp;
  try {
    sdp = expandSDP(bytes.subarray(at));
  } catch (err) {
    if (err instanceof SdpError) throw new LinkError("the code holds no connection description");
    throw err;
  }
  return { kind: flags & 1 ? "answer" : "offer", net: flags & 2 ? "stun" : "lan", game, sdp, about };
}

/** The code inside a pasted link, a fragment or a bare code (spaces and line breaks in a
 * pasted code are ignored). */
export function codeFrom(input) {
  let text = String(input ?? "").trim();
  const hash = text.indexOf("#");
  if (hash >= 0) text = text.slice(hash + 1);
  const params = new URLSearchParams(text.includes("=") ? text : "");
  if (params.has(FRAGMENT_KEY)) text = params.get(FRAGMENT_KEY);
  return text.replace(/\s+/g, "");
}

/** Whether a text (a scanned QR code, a paste) holds a friend-game code at all. */
export function isSignalText(text) {
  return /^J[12]/i.test(codeFrom(text));
}

/** A pasted link or code -> {kind, net, game, sdp, about}; LinkError says what is wrong. */
export async function decodeSignal(input) {
  const code = codeFrom(input);
  if (!code) throw new LinkError("there is no code");
  if (code.length > MAX_CODE) throw new LinkError("the code is far too long");
  // (a compact code has no small letters: one typed in small letters is read all the same)
  if (code.toUpperCase().startsWith(COMPACT)) return decodeCompact(code.slice(COMPACT.length).toUpperCase());
  if (!code.startsWith(PREFIX)) throw new LinkError("this is not a friend-game code");
  let bytes;
  try {
    bytes = await pipe(fromBase64url(code.slice(PREFIX.length)), new DecompressionStream("deflate-raw"), MAX_SDP);
  } catch (err) {
    throw err instanceof LinkError ? err : new LinkError("the code is cut short or damaged");
  }
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new LinkError("the code is damaged");
  }
  const [letter, net, game, ...rest] = text.split("\n");
  if (!KINDS[letter] || !NETS.includes(net) || !/^[0-9a-f]{0,32}$/.test(game)) {
    throw new LinkError("the code is damaged");
  }
  let about = null;
  if (KINDS[letter] === "offer" && rest[0]?.startsWith("{")) {
    const line = rest.shift();
    try {
      if (line.length > MAX_ABOUT) throw new Error();
      about = JSON.parse(line);
    } catch {
      throw new LinkError("the code is damaged");
    }
    about = checkAbout(about);
  }
  const sdp = rest.join("\n");
  if (!sdp.startsWith("v=0") || !/^a=fingerprint:/m.test(sdp)) {
    throw new LinkError("the code holds no connection description");
  }
  return { kind: KINDS[letter], net, game, sdp, about };
}

/** The page's own address with the code in its fragment (the query and old fragment
 * dropped: a test flag or another link never travels along). */
export function signalURL(pageURL, code) {
  const url = new URL(pageURL);
  url.search = "";
  url.hash = `${FRAGMENT_KEY}=${code}`;
  return url.href;
}

/** The code in a page's fragment, or null. */
export function fragmentCode(hash) {
  const text = String(hash || "").replace(/^#/, "");
  const params = new URLSearchParams(text);
  return params.get(FRAGMENT_KEY) || null;
}
