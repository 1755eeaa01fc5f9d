// Signalling by link: one side's WebRTC description (its SDP, gathered whole, no trickle)
// packed into a URL fragment, which browsers never send to a server. Knows no game rules.
//
//   const code = await encodeSignal({kind: "offer", net: "lan", game: "", sdp, about});
//   const url = signalURL(location.href, code);      // the page address, #friend=J1…
//   const signal = await decodeSignal(textOrURL);     // {kind, net, game, sdp, about}; throws LinkError
//
// The code: "J1" + base64url(deflate-raw(UTF-8 of "kind\nnet\ngame\n" [+ about + "\n"] + sdp)).
// `game` is a short public tag of the game a reconnection belongs to; `net` is "lan" (no
// outside server) or "stun" (the page asks its own build's STUN server; a link never names
// a server to contact). `about` (optional, offers only) is the game offered, as JSON
// {rules: {variant, preset, options}, clock: null | {deploy, move}}: what the Join screen
// shows before the player accepts (null when the link has none). It is the sender's claim:
// the page that joins checks it against the game the other page then starts.

export const FRAGMENT_KEY = "friend";
const PREFIX = "J1";
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

/** {kind: "offer"|"answer", net: "lan"|"stun", game: tag or "", sdp, about} -> the code. */
export async function encodeSignal({ kind, net, game = "", sdp, about = null }) {
  const letter = Object.keys(KINDS).find((k) => KINDS[k] === kind);
  if (!letter || !NETS.includes(net)) throw new LinkError("not a signal");
  if (!/^[0-9a-f]{0,32}$/.test(game)) throw new LinkError("a game tag is short hex");
  const line = about ? `${JSON.stringify(checkAbout(about))}\n` : "";
  if (line.length > MAX_ABOUT || (line && kind !== "offer")) throw new LinkError("not a signal");
  const text = `${letter}\n${net}\n${game}\n${line}${sdp}`;
  const packed = await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw"));
  return PREFIX + toBase64url(packed);
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

/** A pasted link or code -> {kind, net, game, sdp}; LinkError says what is wrong. */
export async function decodeSignal(input) {
  const code = codeFrom(input);
  if (!code) throw new LinkError("there is no code");
  if (code.length > MAX_CODE) throw new LinkError("the code is far too long");
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
