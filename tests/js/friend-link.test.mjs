// The friend-game link codec and the QR path (web/js/net/), in Node: no DOM, no WebRTC.
// Run: node --test tests/js/

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  encodeSignal, decodeSignal, codeFrom, signalURL, fragmentCode, LinkError, toBase42, fromBase42,
} from "../../web/js/net/link.js";
import { compactSDP, expandSDP, essentials, SdpError } from "../../web/js/net/sdp.js";
import { qrPath, qrVersion } from "../../web/js/net/qr.js";

/** Descriptions as browsers wrote them (tests/data/sdp/). */
const sdpFile = (name) => readFileSync(new URL(`../data/sdp/${name}`, import.meta.url), "utf8");
const CHROMIUM = ["chromium-offer-mdns.sdp", "chromium-answer-mdns.sdp", "chromium-offer-plain.sdp",
  "chromium-offer-stun.sdp"];
/** What a decoded signal says, its description as the facts that matter. */
const said = (signal) => ({ about: null, ...signal, sdp: essentials(signal.sdp) });

// An offer as headless Chromium gathers it with iceServers: [] (plain addresses).
const SDP = [
  "v=0", "o=- 3503814501479680212 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
  "a=extmap-allow-mixed", "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
  "c=IN IP4 0.0.0.0",
  "a=candidate:1556370036 1 udp 2113937151 192.0.2.2 48688 typ host generation 0 network-cost 999",
  "a=ice-ufrag:qvaS", "a=ice-pwd:ICUWZVec39EQsds5kdHb831G", "a=ice-options:trickle",
  "a=fingerprint:sha-256 06:8C:99:30:93:18:D1:5C:94:14:30:87:39:94:97:C7:CF:45:AD:2D:0C:EF:0E:22:D2:18:09:DF:0E:E1:96:16",
  "a=setup:actpass", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144", "",
].join("\r\n");

test("a signal survives the round trip, as a code, a link or a fragment", async () => {
  const signal = { kind: "offer", net: "lan", game: "0123456789abcdef", sdp: SDP, about: null };
  const code = await encodeSignal(signal);
  assert.match(code, /^J2[0-9A-Z$*\-./:]+[0-9A-Z]$/, "compact: base 42, a letter or digit last");
  assert.ok(code.length < 160, `code of ${code.length}`);
  assert.deepEqual(said(await decodeSignal(code)), said(signal));
  const url = signalURL("http://127.0.0.1:8000/junqi/?moveclock=5#old", code);
  assert.equal(url, `http://127.0.0.1:8000/junqi/#friend=${code}`, "the query and old fragment go");
  assert.deepEqual(said(await decodeSignal(url)), said(signal));
  assert.equal(fragmentCode(new URL(url).hash), code);
  assert.equal(codeFrom(`  ${code.slice(0, 40)}\n ${code.slice(40)} `), code, "line breaks of a paste");
  assert.deepEqual(said(await decodeSignal(code.toLowerCase())), said(signal), "typed in small letters");
  const answer = { kind: "answer", net: "stun", game: "", sdp: SDP.replace("actpass", "active") };
  assert.deepEqual(said(await decodeSignal(await encodeSignal(answer))), said(answer));
  // The long form (a description with no compact form) still goes both ways, exactly.
  const long = await encodeSignal(signal, { compact: false });
  assert.match(long, /^J1[A-Za-z0-9_-]+$/);
  assert.deepEqual(await decodeSignal(long), signal);
});

test("a browser's description in a few bytes: nothing that matters lost", () => {
  for (const name of CHROMIUM) {
    const sdp = sdpFile(name);
    const bytes = compactSDP(sdp);
    assert.ok(bytes, `${name} has a compact form`);
    assert.ok(bytes.length < sdp.length / 5, `${name}: ${bytes.length} bytes for ${sdp.length}`);
    const again = expandSDP(bytes);
    assert.deepEqual(essentials(again), essentials(sdp), name);
    assert.deepEqual(compactSDP(again), bytes, `${name}: the expanded text compacts the same`);
    assert.equal(expandSDP(bytes), again, `${name}: the same bytes, the same text (pages compare it)`);
    assert.match(again, /^v=0\r\n/);
    assert.ok(again.endsWith("\r\n"));
  }
  const stun = essentials(expandSDP(compactSDP(sdpFile("chromium-offer-stun.sdp"))));
  assert.ok(stun.candidates.some((c) => c.includes("srflx 192.168.1.20 52014")), "related address kept");
  assert.ok(stun.candidates.some((c) => c.includes("tcp") && c.includes("active")), "TCP kept");
  assert.ok(stun.candidates.some((c) => c.includes("2001:db8:85a3::8a2e:370:7334")), "IPv6 kept");
});

test("a description with anything else has no compact form: the link carries it whole", async () => {
  const firefox = sdpFile("firefox-offer.sdp");
  assert.equal(compactSDP(firefox), null);
  const code = await encodeSignal({ kind: "offer", net: "lan", game: "", sdp: firefox });
  assert.match(code, /^J1/);
  assert.equal((await decodeSignal(code)).sdp, firefox);
  const chromium = sdpFile("chromium-offer-mdns.sdp");
  for (const odd of [
    chromium.replace("a=mid:0", "a=mid:data"),
    chromium.replace("a=sctp-port:5000", "a=sctp-port:5001"),
    chromium.replace("a=setup:actpass", "a=setup:actpass\r\na=something:new"),
    chromium.replace("sha-256", "sha-999"),
    chromium.replace(" 1 udp ", " 2 udp "), // an RTCP component
    chromium.replace("generation 0 network-cost", "generation 1 network-cost"),
    `${chromium}m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n`,
  ]) {
    assert.equal(compactSDP(odd), null, odd.slice(-120));
  }
});

test("a short invitation: ~200 characters, a QR code of version 8 or less (was ~700, version 18)", async () => {
  const page = "https://example.github.io/junqi/";
  for (const name of CHROMIUM) {
    for (const game of ["", "0123456789abcdef"]) {
      const kind = name.includes("answer") ? "answer" : "offer";
      const sdp = sdpFile(name);
      const url = signalURL(page, await encodeSignal({ kind, net: "lan", game, sdp }));
      const before = signalURL(page, await encodeSignal({ kind, net: "lan", game, sdp }, { compact: false }));
      const version = qrVersion(qrPath(url).size);
      const was = qrVersion(qrPath(before).size);
      const stun = name.includes("stun"); // four candidates
      assert.ok(url.length <= (stun ? 270 : 210), `${name}: ${url.length} characters`);
      assert.ok(version <= (stun ? 9 : 8), `${name}: version ${version} (was ${was})`);
      assert.ok(version < was - 6 && url.length < before.length / 3, `${name}: ${url.length} vs ${before.length}`);
    }
  }
});

test("base 42: two bytes in three characters, every length, only its own characters", () => {
  for (const length of [0, 1, 2, 3, 17, 100]) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 73 + 255) % 256);
    const text = toBase42(bytes);
    assert.equal(text.length, Math.floor(length / 2) * 3 + (length % 2) * 2);
    assert.match(text, /^[0-9A-Z$*\-./:]*$/);
    assert.deepEqual(fromBase42(text), bytes);
  }
  assert.deepEqual(fromBase42(toBase42(Uint8Array.from([255, 255, 255]))), Uint8Array.from([255, 255, 255]));
  for (const bad of ["A", "abc", "::::", "+AB", "%AB"]) assert.throws(() => fromBase42(bad), LinkError, bad);
});

test("a compact code cut short, mistyped or made up is refused with a reason, never a crash", async () => {
  const code = await encodeSignal({ kind: "offer", net: "lan", game: "", sdp: SDP });
  const flip = (text, at) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
  const bad = [code.slice(0, -1), code.slice(0, 60), code.slice(0, -4) + code.slice(-1), flip(code, 10),
    flip(code, code.length - 1), `${code}A`, "J2", "J20", "J2%%%"];
  for (const input of bad) {
    await assert.rejects(decodeSignal(input), LinkError, input.slice(0, 30));
  }
  // Made-up bytes with a right check character: refused by the description's own checks.
  let refused = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const length = 2 + (seed % 120);
    const bytes = Uint8Array.from({ length }, (_, i) => (seed * 7919 + i * 104729) % 256);
    bytes[0] &= 3;
    bytes[1] %= 9;
    const text = toBase42(bytes);
    for (const last of "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
      try {
        await decodeSignal(`J2${text}${last}`);
      } catch (err) {
        assert.ok(err instanceof LinkError, `${seed}: ${err}`);
        refused++;
      }
    }
  }
  assert.ok(refused > 300 * 35, "made-up codes are refused");
  assert.throws(() => expandSDP(Uint8Array.from([9])), SdpError);
});

test("an invitation names the game it offers: rules and clock, checked both ways", async () => {
  const about = {
    rules: { variant: "classic", preset: "chinese", options: { flag_shown: true, quiet_limit: 100 } },
    clock: { deploy: 90, move: 30 },
  };
  const signal = { kind: "offer", net: "lan", game: "0123456789abcdef", sdp: SDP, about };
  const code = await encodeSignal(signal);
  assert.match(code, /^J2/, "compact, with the game offered");
  assert.ok(code.length < 260, `code of ${code.length}`);
  assert.deepEqual(said(await decodeSignal(code)), said(signal));
  const none = { ...signal, about: { ...about, clock: null } };
  assert.deepEqual(said(await decodeSignal(await encodeSignal(none))), said(none));
  const long = await encodeSignal(signal, { compact: false });
  assert.match(long, /^J1/);
  assert.deepEqual(await decodeSignal(long), signal, "the long form carries it too");
  // Only plain, short ids and values; a reply names no game.
  const bad = [
    { ...about, rules: { ...about.rules, variant: "<b>classic</b>" } },
    { ...about, rules: { ...about.rules, options: { flag_shown: { x: 1 } } } },
    { ...about, clock: { deploy: 0, move: 30 } },
    { ...about, clock: { deploy: 90 } },
    { ...about, extra: 1 },
  ];
  for (const wrong of bad) {
    await assert.rejects(encodeSignal({ ...signal, about: wrong }), LinkError, JSON.stringify(wrong));
  }
  await assert.rejects(encodeSignal({ ...signal, kind: "answer" }), LinkError);
  // A forged code with a damaged game line is refused as a whole.
  const forged = `o\nlan\n\n{"rules":{"variant":"classic","preset":null,"options":[]},"clock":null}\n${SDP}`;
  const packed = new Blob([forged]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(packed).arrayBuffer());
  const b64 = Buffer.from(bytes).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  await assert.rejects(decodeSignal(`J1${b64}`), LinkError);
});

test("anything else is refused with a reason, never a crash", async () => {
  const code = await encodeSignal({ kind: "offer", net: "lan", game: "", sdp: SDP });
  const bad = [
    "", "hello", "J1", "J1!!!!", `X1${code.slice(2)}`, code.slice(0, 60),
    "J1" + "A".repeat(9000),
    await encodeSignal({ kind: "offer", net: "lan", game: "", sdp: "not an sdp" }),
    "http://127.0.0.1/#other=1",
  ];
  for (const input of bad) {
    await assert.rejects(decodeSignal(input), LinkError, JSON.stringify(input.slice(0, 30)));
  }
  await assert.rejects(encodeSignal({ kind: "offer", net: "relay", game: "", sdp: SDP }), LinkError);
  await assert.rejects(encodeSignal({ kind: "offer", net: "lan", game: "<script>", sdp: SDP }), LinkError);
  assert.equal(fragmentCode("#x=1"), null);
});

test("a link makes a QR code drawn from one path", async () => {
  const code = await encodeSignal({ kind: "offer", net: "lan", game: "0123456789abcdef", sdp: SDP },
    { compact: false });
  const url = signalURL("http://127.0.0.1:8000/", code);
  const { size, path } = qrPath(url);
  assert.ok(size >= 21 && size <= 177 && (size - 17) % 4 === 0, `size ${size}`);
  assert.ok(size <= 97, `a phone reads version ${(size - 17) / 4} from a screen`);
  assert.match(path, /^M0 0h7v1h-7z/, "the finder pattern's top row is one run of 7");
  assert.deepEqual(qrPath(url), { size, path }, "the same link, the same code");
});
