// Signalling by link: one side's WebRTC description (its SDP, gathered whole, no trickle)
// packed into a URL fragment, which browsers never send to a server. Knows no game rules.
//
//   const code = await encodeSignal({kind: "offer", net: "lan", game: "", sdp});
//   const url = signalURL(location.href, code);      // the page address, #friend=J1…
//   const signal = await decodeSignal(textOrURL);     // {kind, net, game, sdp}; throws LinkError
//
// The code: "J1" + base64url(deflate-raw(UTF-8 of "kind\nnet\ngame\n" + sdp)). `game` is a
// short public tag of the game a reconnection belongs to ("" for a new game); `net` is
// "lan" (no outside server) or "stun" (the page asks its own build's STUN server; a link
// never names a server to contact).

export const FRAGMENT_KEY = "friend";
const PREFIX = "J1";
const KINDS = { o: "offer", a: "answer" };
const NETS = ["lan", "stun"];
const MAX_CODE = 8000; // characters of a code we accept (a real one is ~700)
const MAX_SDP = 16000;

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

/** {kind: "offer"|"answer", net: "lan"|"stun", game: tag or "", sdp} -> the code. */
export async function encodeSignal({ kind, net, game = "", sdp }) {
  const letter = Object.keys(KINDS).find((k) => KINDS[k] === kind);
  if (!letter || !NETS.includes(net)) throw new LinkError("not a signal");
  if (!/^[0-9a-f]{0,32}$/.test(game)) throw new LinkError("a game tag is short hex");
  const text = `${letter}\n${net}\n${game}\n${sdp}`;
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
  const sdp = rest.join("\n");
  if (!KINDS[letter] || !NETS.includes(net) || !/^[0-9a-f]{0,32}$/.test(game)) {
    throw new LinkError("the code is damaged");
  }
  if (!sdp.startsWith("v=0") || !/^a=fingerprint:/m.test(sdp)) {
    throw new LinkError("the code holds no connection description");
  }
  return { kind: KINDS[letter], net, game, sdp };
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
