// The friend-game link codec and the QR path (web/js/net/), in Node: no DOM, no WebRTC.
// Run: node --test tests/js/

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  encodeSignal, decodeSignal, codeFrom, signalURL, fragmentCode, LinkError,
} from "../../web/js/net/link.js";
import { qrPath } from "../../web/js/net/qr.js";

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
  assert.match(code, /^J1[A-Za-z0-9_-]+$/);
  // deflate saves little on an SDP and base64 adds a third: about the SDP's own length
  assert.ok(code.length < SDP.length * 1.1 && code.length < 800, `code of ${code.length}`);
  assert.deepEqual(await decodeSignal(code), signal);
  const url = signalURL("http://127.0.0.1:8000/junqi/?moveclock=5#old", code);
  assert.equal(url, `http://127.0.0.1:8000/junqi/#friend=${code}`, "the query and old fragment go");
  assert.deepEqual(await decodeSignal(url), signal);
  assert.equal(fragmentCode(new URL(url).hash), code);
  assert.equal(codeFrom(`  ${code.slice(0, 40)}\n ${code.slice(40)} `), code, "line breaks of a paste");
  const answer = { kind: "answer", net: "stun", game: "", sdp: SDP.replace("actpass", "active"), about: null };
  assert.deepEqual(await decodeSignal(await encodeSignal(answer)), answer);
});

test("an invitation names the game it offers: rules and clock, checked both ways", async () => {
  const about = {
    rules: { variant: "classic", preset: "chinese", options: { flag_shown: true, quiet_limit: 100 } },
    clock: { deploy: 90, move: 30 },
  };
  const signal = { kind: "offer", net: "lan", game: "0123456789abcdef", sdp: SDP, about };
  const code = await encodeSignal(signal);
  assert.ok(code.length < 900, `code of ${code.length}`);
  assert.deepEqual(await decodeSignal(code), signal);
  const none = { ...signal, about: { ...about, clock: null } };
  assert.deepEqual(await decodeSignal(await encodeSignal(none)), none);
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
  const code = await encodeSignal({ kind: "offer", net: "lan", game: "0123456789abcdef", sdp: SDP });
  const url = signalURL("http://127.0.0.1:8000/", code);
  const { size, path } = qrPath(url);
  assert.ok(size >= 21 && size <= 177 && (size - 17) % 4 === 0, `size ${size}`);
  assert.ok(size <= 97, `a phone reads version ${(size - 17) / 4} from a screen`);
  assert.match(path, /^M0 0h7v1h-7z/, "the finder pattern's top row is one run of 7");
  assert.deepEqual(qrPath(url), { size, path }, "the same link, the same code");
});
