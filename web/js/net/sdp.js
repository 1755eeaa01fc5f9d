// A data channel's session description in a few bytes, for a short invitation link and a
// small QR code. Of the ~700 characters of SDP only a few facts differ between two
// descriptions: the ICE credentials, the DTLS fingerprint, the DTLS role and the
// candidates (address, port, priority). `compactSDP` keeps exactly those, as bytes;
// `expandSDP` writes a full description around them again, the way a browser writes one
// for a lone data channel. A description with anything else in it (more media, another
// protocol, an unusual attribute) has no compact form: `compactSDP` returns null and the
// caller sends the whole text instead (net/link.js). Knows no game rules.
//
//   const bytes = compactSDP(sdp);          // Uint8Array, or null
//   const again = expandSDP(bytes);         // a description to hand to setRemoteDescription
//
// Bytes: one role byte, ICE ufrag and password (6 bits a character), the fingerprint
// (hash id, digest), max-message-size when not the usual one, then the candidates: one
// flag byte each (type, protocol, address form, how its priority is kept), the address
// (an mDNS name's UUID in 16 bytes, IPv4 in 4, IPv6 in 16), the port, the priority, and a
// related address for reflexive and relayed candidates. Throws SdpError on bytes that are
// not such a description.

export class SdpError extends Error {
  constructor(message) {
    super(message);
    this.name = "SdpError";
  }
}

const SETUPS = ["actpass", "active", "passive"];
const HASHES = { "sha-256": [1, 32], "sha-384": [2, 48], "sha-512": [3, 64], "sha-1": [4, 20] };
const TYPES = ["host", "srflx", "prflx", "relay"];
const TYPE_PREF = { host: 126, prflx: 110, srflx: 100, relay: 0 };
const TCP_TYPES = ["active", "passive", "so"];
const ICE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const USUAL_MAX_MESSAGE = 262144;
const MDNS = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MAX_CANDIDATES = 16;

// The lines every browser-made data-channel description has, in order; `{…}` are filled.
const SESSION = ["v=0", "o=- {session} 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
  "a=extmap-allow-mixed", "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
  "c=IN IP4 0.0.0.0"];
// Lines a compact form may drop, because expandSDP writes them back as they were.
const KNOWN = [/^v=0$/, /^o=/, /^s=-$/, /^t=0 0$/, /^a=group:BUNDLE 0$/, /^a=extmap-allow-mixed$/,
  /^a=msid-semantic: ?WMS\s*$/, /^m=application \d+ UDP\/DTLS\/SCTP webrtc-datachannel$/,
  /^c=IN IP[46] \S+$/, /^a=ice-options:trickle$/, /^a=mid:0$/, /^a=sctp-port:5000$/];

// --- bytes ---------------------------------------------------------------------------------

class Writer {
  constructor() {
    this.bytes = [];
  }

  byte(n) {
    this.bytes.push(n & 0xff);
  }

  u16(n) {
    this.byte(n >> 8);
    this.byte(n);
  }

  u32(n) {
    this.u16(Math.floor(n / 65536));
    this.u16(n % 65536);
  }

  all(list) {
    for (const n of list) this.byte(n);
  }

  done() {
    return Uint8Array.from(this.bytes);
  }
}

class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.at = 0;
  }

  byte() {
    if (this.at >= this.bytes.length) throw new SdpError("the description is cut short");
    return this.bytes[this.at++];
  }

  u16() {
    return this.byte() * 256 + this.byte();
  }

  u32() {
    return this.u16() * 65536 + this.u16();
  }

  take(n) {
    if (this.at + n > this.bytes.length) throw new SdpError("the description is cut short");
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  end() {
    if (this.at !== this.bytes.length) throw new SdpError("the description has bytes left over");
  }
}

/** ICE characters (letters, digits, + and /) six bits each; null when `text` has others. */
function packIce(w, text) {
  if (!text || text.length > 255 || [...text].some((c) => !ICE_CHARS.includes(c))) return false;
  w.byte(text.length);
  let acc = 0;
  let bits = 0;
  for (const c of text) {
    acc = (acc << 6) | ICE_CHARS.indexOf(c);
    bits += 6;
    while (bits >= 8) {
      bits -= 8;
      w.byte(acc >> bits);
      acc &= (1 << bits) - 1;
    }
  }
  if (bits) w.byte(acc << (8 - bits));
  return true;
}

function unpackIce(r) {
  const length = r.byte();
  if (!length) throw new SdpError("an ICE credential is empty");
  const bytes = r.take(Math.ceil((length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let text = "";
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 6 && text.length < length) {
      bits -= 6;
      text += ICE_CHARS[(acc >> bits) & 63];
      acc &= (1 << bits) - 1;
    }
  }
  return text;
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

// Address forms: 0 an mDNS name (UUID.local), 1 IPv4, 2 IPv6.
/** @returns {[number, ArrayLike<number>] | null} [form, bytes] */
function packAddress(address) {
  const mdns = MDNS.exec(address);
  if (mdns) return [0, hexBytes(mdns.slice(1).join(""))];
  const v4 = IPV4.exec(address);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    return parts.every((n) => n <= 255) && parts.join(".") === address ? [1, parts] : null;
  }
  const v6 = ipv6Bytes(address);
  return v6 ? [2, v6] : null;
}

function unpackAddress(form, r) {
  if (form === 0) {
    const h = hex(r.take(16));
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}.local`;
  }
  if (form === 1) return Array.from(r.take(4)).join(".");
  if (form === 2) return ipv6Text(r.take(16));
  throw new SdpError("an address of no known form");
}

function hexBytes(text) {
  const out = [];
  for (let i = 0; i < text.length; i += 2) out.push(parseInt(text.slice(i, i + 2), 16));
  return out;
}

/** "fd00::2" -> 16 bytes; null for anything that is not a plain IPv6 address (a zone,
 * an embedded IPv4 form). The text written back is the canonical one, so only addresses
 * already written canonically (as browsers write them) have a compact form. */
function ipv6Bytes(text) {
  if (!/^[0-9a-f:]+$/.test(text) || text.length < 2) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (part) => (part ? part.split(":") : []);
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? head.length !== 8 : missing < 1) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (all.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  const bytes = all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 255]);
  return ipv6Text(Uint8Array.from(bytes)) === text ? bytes : null;
}

/** 16 bytes -> the canonical text form (RFC 5952: the longest run of zero groups as ::). */
function ipv6Text(bytes) {
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i] << 8) | bytes[i + 1]);
  let best = [-1, 0];
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best[1] && j - i > 1) best = [i, j - i];
    i = j;
  }
  const text = groups.map((g) => g.toString(16));
  if (best[0] < 0) return text.join(":");
  return `${text.slice(0, best[0]).join(":")}::${text.slice(best[0] + best[1]).join(":")}`;
}

// --- SDP -> bytes --------------------------------------------------------------------------

/** The lines of an SDP text, without the final empty one. */
const linesOf = (sdp) => String(sdp).replace(/\r\n/g, "\n").split("\n").filter((l, i, all) => l || i < all.length - 1);

/** A candidate line -> its fields, or null when it has anything a compact form drops. */
function parseCandidate(value) {
  const parts = value.split(" ");
  const [foundation, component, protocol, priority, address, port, typ, type, ...rest] = parts;
  if (!/^\d+$/.test(foundation) || component !== "1" || typ !== "typ" || !TYPES.includes(type)) return null;
  const proto = protocol.toLowerCase();
  if (proto !== "udp" && proto !== "tcp") return null;
  const cand = { protocol: proto, priority: Number(priority), address, port: Number(port), type };
  if (!Number.isInteger(cand.priority) || cand.priority < 0 || cand.priority > 0xffffffff) return null;
  if (!Number.isInteger(cand.port) || cand.port < 0 || cand.port > 65535 || String(cand.port) !== port) return null;
  for (let i = 0; i < rest.length; i += 2) {
    const [key, val] = [rest[i], rest[i + 1]];
    if (val === undefined) return null;
    if (key === "raddr") cand.raddr = val;
    else if (key === "rport") cand.rport = Number(val);
    else if (key === "tcptype" && TCP_TYPES.includes(val)) cand.tcptype = val;
    else if (!["generation", "network-id", "network-cost", "ufrag"].includes(key)) return null;
    else if (key === "generation" && val !== "0") return null;
  }
  if (proto === "tcp" && !cand.tcptype) return null;
  if ((cand.raddr === undefined) !== (cand.rport === undefined)) return null;
  return cand;
}

/** The bytes of a data channel's description, or null when it has no compact form. */
export function compactSDP(sdp) {
  const lines = linesOf(sdp);
  const facts = { candidates: [], maxMessage: USUAL_MAX_MESSAGE };
  let media = 0;
  for (const line of lines) {
    if (line.startsWith("m=")) media++;
    if (KNOWN.some((re) => re.test(line))) continue;
    const [, key, value] = /^a=([a-z-]+):?(.*)$/.exec(line) || [];
    if (key === "candidate") {
      const cand = parseCandidate(value);
      if (!cand) return null;
      facts.candidates.push(cand);
    } else if (key === "ice-ufrag" && facts.ufrag === undefined) facts.ufrag = value;
    else if (key === "ice-pwd" && facts.pwd === undefined) facts.pwd = value;
    else if (key === "fingerprint" && facts.fingerprint === undefined) facts.fingerprint = value;
    else if (key === "setup" && SETUPS.includes(value)) facts.setup = value;
    else if (key === "max-message-size" && /^\d+$/.test(value)) facts.maxMessage = Number(value);
    else return null; // something a compact form would lose
  }
  if (media !== 1 || !facts.ufrag || !facts.pwd || !facts.fingerprint || !facts.setup) return null;
  if (facts.candidates.length > MAX_CANDIDATES || facts.maxMessage > 0xffffffff) return null;
  const [algorithm, digest] = facts.fingerprint.split(" ");
  const hash = HASHES[algorithm?.toLowerCase()];
  const fp = (digest || "").split(":");
  if (!hash || fp.length !== hash[1] || fp.some((b) => !/^[0-9A-F]{2}$/.test(b)) || algorithm !== algorithm.toLowerCase()) {
    return null;
  }
  const w = new Writer();
  const usual = facts.maxMessage === USUAL_MAX_MESSAGE;
  w.byte(SETUPS.indexOf(facts.setup) | (usual ? 0 : 4));
  if (!packIce(w, facts.ufrag) || !packIce(w, facts.pwd)) return null;
  w.byte(hash[0]);
  w.all(fp.map((b) => parseInt(b, 16)));
  if (!usual) w.u32(facts.maxMessage);
  w.byte(facts.candidates.length);
  for (const cand of facts.candidates) {
    const address = packAddress(cand.address);
    if (!address) return null;
    // The priority as browsers compute it (type preference, local preference, component
    // 1): kept as the local preference in two bytes; any other priority in four.
    const base = TYPE_PREF[cand.type] * 2 ** 24 + 255;
    const local = (cand.priority - base) / 256;
    const formula = Number.isInteger(local) && local >= 0 && local <= 65535;
    const related = cand.raddr !== undefined ? packAddress(cand.raddr) : null;
    if (cand.raddr !== undefined && (!related || !Number.isInteger(cand.rport) || cand.rport > 65535)) return null;
    w.byte(TYPES.indexOf(cand.type) | (cand.protocol === "tcp" ? 4 : 0) | (address[0] << 3)
      | (formula ? 32 : 0) | (related ? 64 : 0));
    w.all(address[1]);
    w.u16(cand.port);
    if (formula) w.u16(local);
    else w.u32(cand.priority);
    if (related) {
      w.byte(related[0]);
      w.all(related[1]);
      w.u16(cand.rport);
    }
    if (cand.protocol === "tcp") w.byte(TCP_TYPES.indexOf(cand.tcptype));
  }
  return w.done();
}

// --- bytes -> SDP --------------------------------------------------------------------------

/** The description again, as a browser writes one (CRLF lines). `session`: the o= line's
 * session id (any number; by default one made from the bytes, so the same bytes always
 * give the same text, which pages compare to know a code they have seen). */
export function expandSDP(bytes, session = null) {
  const r = new Reader(bytes);
  const head = r.byte();
  if (head & ~7 || (head & 3) === 3) throw new SdpError("the description's first byte is unknown");
  const setup = SETUPS[head & 3];
  const ufrag = unpackIce(r);
  const pwd = unpackIce(r);
  if (pwd.length < 22 || ufrag.length < 4) throw new SdpError("ICE credentials too short");
  const hashId = r.byte();
  const hash = Object.entries(HASHES).find(([, [id]]) => id === hashId);
  if (!hash) throw new SdpError("a fingerprint of no known hash");
  const fingerprint = `${hash[0]} ${Array.from(r.take(hash[1][1]), (b) => b.toString(16).toUpperCase().padStart(2, "0")).join(":")}`;
  const maxMessage = head & 4 ? r.u32() : USUAL_MAX_MESSAGE;
  const count = r.byte();
  if (count > MAX_CANDIDATES) throw new SdpError("too many candidates");
  const candidates = [];
  for (let i = 0; i < count; i++) {
    const flags = r.byte();
    if (flags & 128) throw new SdpError("a candidate of no known form");
    const type = TYPES[flags & 3];
    const tcp = Boolean(flags & 4);
    const address = unpackAddress((flags >> 3) & 3, r);
    const port = r.u16();
    const priority = flags & 32 ? TYPE_PREF[type] * 2 ** 24 + r.u16() * 256 + 255 : r.u32();
    let related = "";
    if (flags & 64) {
      const form = r.byte();
      related = ` raddr ${unpackAddress(form, r)} rport ${r.u16()}`;
    }
    let tcptype = "";
    if (tcp) {
      const kind = TCP_TYPES[r.byte()];
      if (!kind) throw new SdpError("a TCP candidate of no known kind");
      tcptype = ` tcptype ${kind}`;
    }
    candidates.push(`a=candidate:${i + 1} 1 ${tcp ? "tcp" : "udp"} ${priority} ${address} ${port} typ ${type}`
      + `${related}${tcptype} generation 0`);
  }
  r.end();
  let fnv = 0x811c9dc5; // FNV-1a of the bytes
  for (const b of bytes) fnv = Math.imul(fnv ^ b, 0x01000193) >>> 0;
  const id = session ?? String(fnv);
  return [...SESSION.map((l) => l.replace("{session}", id)), ...candidates,
    `a=ice-ufrag:${ufrag}`, `a=ice-pwd:${pwd}`, "a=ice-options:trickle", `a=fingerprint:${fingerprint}`,
    `a=setup:${setup}`, "a=mid:0", "a=sctp-port:5000", `a=max-message-size:${maxMessage}`, ""].join("\r\n");
}

/** What a description says that matters to a connection: to check a compact form lost
 * nothing (tests, and net/link.js before it sends one). */
export function essentials(sdp) {
  const lines = linesOf(sdp);
  const get = (key) => lines.find((l) => l.startsWith(`a=${key}:`))?.slice(key.length + 3) ?? null;
  const candidates = lines.filter((l) => l.startsWith("a=candidate:")).map((l) => {
    const c = parseCandidate(l.slice(12));
    return c && `${c.protocol} ${c.priority} ${c.address} ${c.port} ${c.type} ${c.raddr ?? ""} ${c.rport ?? ""} ${c.tcptype ?? ""}`;
  });
  return { ufrag: get("ice-ufrag"), pwd: get("ice-pwd"), fingerprint: get("fingerprint"), setup: get("setup"),
    maxMessage: get("max-message-size") ?? String(USUAL_MAX_MESSAGE), candidates };
}
