#!/usr/bin/env python3
"""Friend-play computation in the page: Pyodide in headless Chromium, through the real
worker and the bridge's `fair_*` ops (docs/fair-play.md, "The page").

    python3 bench/fair_page.py [--combats 12] [--deals 3] [--ticks 30] [--no-build]

Two peers run in one page's engine (as two pages' engines would, one after the other: the
figures add up both pages' work, with no network). Each figure is wall time of the
`engine.call` round trips in the page (worker, JSON both ways, the peer's work, its view
and state): a combat is the attacker's move, the defender's answer, the attacker's rows and
the defender's check (a combat that ends the game is counted with the end: both
openings and both audits); the Blind deal is every call from the guest's hello until both play
(the host's encrypted shuffle, the guest's check and shuffle, the host's check); a flip is
the flipper's move and both answers. Targets: a combat <= 150 ms (95th percentile; the
maximum is printed too), the deal <= 3 s.

A tick is the page's once-a-second `fair` call `tick` late in a Classic game (`--tick-plies`
actions played, no clock: nothing happens), as the page makes it: its size is the length of
the reply's JSON text that crosses from the worker to the page.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

RUN_JS = """async ({variant, combats, deals, seed}) => {
  const engine = window.junqi.engine;
  let rnd = seed;
  const random = () => ((rnd = (rnd * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  async function timed(request) {
    const t0 = performance.now();
    const reply = await engine.call(request);
    const ms = performance.now() - t0;
    if (!reply.ok) {
      throw new Error(JSON.stringify(reply.error) + " for " +
                      JSON.stringify(request).slice(0, 200));
    }
    return [reply, ms];
  }
  async function pair() {
    const [h] = await timed({op: "fair_host", variant, clock: null});
    const [g] = await timed({op: "fair_guest"});
    const p = {peers: [h.peer, g.peer], inbox: [[], h.send], views: [h.view, g.view]};
    return p;
  }
  // deliver every waiting message; returns the ms spent
  async function deliver(p) {
    let spent = 0;
    for (;;) {
      const i = p.inbox.findIndex((box) => box.length);
      if (i < 0) return spent;
      const [reply, ms] = await timed({op: "fair", peer: p.peers[i], call: "receive",
                                       text: p.inbox[i].shift(), now: 0});
      spent += ms;
      if (reply.view) p.views[i] = reply.view;
      p.inbox[1 - i].push(...reply.send);
    }
  }
  async function act(p, i, fields) {
    const [reply, ms] = await timed({op: "fair", peer: p.peers[i], now: 0, ...fields});
    if (reply.view) p.views[i] = reply.view;
    p.inbox[1 - i].push(...reply.send);
    return ms;
  }
  const out = {combats: [], flips: [], deals: [], ends: [], plies: 0, games: 0};
  async function drop(p) {
    for (const peer of p.peers) await engine.call({op: "fair_drop", peer});
  }
  if (variant === "blind") {
    while (out.deals.length < deals) {
      const p = await pair();
      out.games += 1;
      // the host's hello reaches the guest, which answers with its own: from then on the
      // deal runs (the host shuffles, the guest checks and shuffles, the host checks)
      await act(p, 1, {call: "receive", text: p.inbox[1].shift()});
      const spent = await deliver(p);
      out.deals.push(spent);
      // a few flips
      for (let k = 0; k < 6; k++) {
        const i = p.views.findIndex(
          (v) => v.fair.stage === "play" && v.turn === v.player && v.dests);
        if (i < 0) break;
        const flips = p.views[i].dests.flips;
        if (!flips.length) break;
        let ms = await act(p, i, {call: "act", action: "flip:" + pick(flips)});
        ms += await deliver(p);
        out.flips.push(ms);
      }
      await drop(p);
    }
    return out;
  }
  while (out.combats.length < combats) {
    const p = await pair();
    out.games += 1;
    await deliver(p);
    for (const i of [0, 1]) await act(p, i, {call: "deploy"});
    await deliver(p);
    for (let n = 0; n < 400 && out.combats.length < combats; n++) {
      const i = p.views.findIndex((v) => v.fair.stage === "play" && !v.fair.pending &&
                                          v.turn === v.player && v.dests);
      if (i < 0) break;
      const moves = [], attacks = [];
      for (const [from, targets] of Object.entries(p.views[i].dests.moves)) {
        for (const t of targets) (t.attack ? attacks : moves).push(from + "-" + t.to);
      }
      const attack = attacks.length && random() < 0.6;
      let ms = await act(p, i, {call: "act", action: pick(attack ? attacks : moves)});
      ms += await deliver(p);
      out.plies += 1;
      const over = p.views.some((v) => v.fair.stage !== "play");
      if (over) out.ends.push(ms); // the last action, both openings and both audits
      else if (attack) out.combats.push(ms);
    }
    await drop(p);
  }
  return out;
}"""


TICK_JS = """async ({plies, count, seed}) => {
  const engine = window.junqi.engine;
  let rnd = seed;
  const random = () => ((rnd = (rnd * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const call = async (request) => {
    const reply = await engine.call(request);
    if (!reply.ok) throw new Error(JSON.stringify(reply.error));
    return reply;
  };
  const h = await call({op: "fair_host", variant: "classic", clock: null});
  const g = await call({op: "fair_guest"});
  const peers = [h.peer, g.peer], inbox = [[], h.send], views = [h.view, g.view];
  const take = (i, reply) => {
    if (reply.view) views[i] = reply.view;
    inbox[1 - i].push(...reply.send);
  };
  const deliver = async () => {
    for (;;) {
      const i = inbox.findIndex((box) => box.length);
      if (i < 0) return;
      take(i, await call({op: "fair", peer: peers[i], call: "receive", text: inbox[i].shift(),
                          now: 0}));
    }
  };
  await deliver();
  for (const i of [0, 1]) take(i, await call({op: "fair", peer: peers[i], call: "deploy", now: 0}));
  await deliver();
  let played = 0;
  while (played < plies) {
    const i = views.findIndex((v) => v.fair.stage === "play" && !v.fair.pending &&
                                     v.turn === v.player && v.dests);
    if (i < 0) break;
    const moves = [], attacks = [];
    for (const [from, targets] of Object.entries(views[i].dests.moves)) {
      for (const t of targets) (t.attack ? attacks : moves).push(from + "-" + t.to);
    }
    const list = attacks.length && (random() < 0.1 || !moves.length) ? attacks : moves;
    take(i, await call({op: "fair", peer: peers[i], call: "act", action: pick(list), now: 0}));
    await deliver();
    played += 1;
  }
  const out = {plies: played, stage: views[0].fair.stage, ms: [], chars: [], state: 0};
  const state = await call({op: "fair_state", peer: peers[0]});
  out.state = state.state.length;
  for (let k = 0; k < count; k++) {
    const t0 = performance.now();
    const reply = await engine.call({op: "fair", peer: peers[0], call: "tick", now: 0});
    out.ms.push(performance.now() - t0);
    out.chars.push(JSON.stringify(reply).length);
  }
  for (const peer of peers) await engine.call({op: "fair_drop", peer});
  return out;
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def stats(values: list[float]) -> str:
    if not values:
        return "n=0"
    p95 = percentile(values, 0.95)
    return (
        f"median {statistics.median(values):7.1f} ms  p95 {p95:7.1f} ms  "
        f"max {max(values):7.1f} ms  (n={len(values)})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--combats", type=int, default=12, help="measured combats per variant")
    parser.add_argument("--deals", type=int, default=3, help="measured Blind deals")
    parser.add_argument("--ticks", type=int, default=30, help="measured ticks late in a game")
    parser.add_argument("--tick-plies", type=int, default=150, help="actions before the ticks")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-build", action="store_true", help="use the existing dist/")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    if not args.no_build:
        build.build()
    load_before = os.getloadavg()[0]
    results = {}
    with build.SiteServer(build.DIST) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=build.find_chromium(), args=build.CHROMIUM_ARGS
        )
        page = browser.new_page()
        page.goto(server.url)
        page.wait_for_selector("html[data-ready]", state="attached", timeout=120_000)
        for variant in ("classic", "gunjin", "blind"):
            results[variant] = page.evaluate(
                RUN_JS,
                {
                    "variant": variant,
                    "combats": args.combats,
                    "deals": args.deals,
                    "seed": args.seed,
                },
            )
        ticks = page.evaluate(
            TICK_JS, {"plies": args.tick_plies, "count": args.ticks, "seed": args.seed}
        )
        browser.close()
    print(
        f"bench/fair_page.py  Pyodide {build.PYODIDE_VERSION} in headless Chromium; both "
        f"pages' calls in one page's worker, no network; load average {load_before:.1f} -> "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    verdicts = []
    for variant in ("classic", "gunjin"):
        times = results[variant]["combats"]
        ok = bool(times) and percentile(times, 0.95) <= 150
        verdicts.append(ok)
        print(
            f"combat round trip, {variant:<7} {stats(times)}  target <= 150 ms: "
            f"{'ok' if ok else 'OVER'} (p95)"
        )
    ends = results["classic"]["ends"] + results["gunjin"]["ends"]
    print(f"game end with both audits {stats(ends)}  (the last action, openings, replays)")
    deals = results["blind"]["deals"]
    ok = bool(deals) and max(deals) <= 3000
    verdicts.append(ok)
    print(f"blind deal                {stats(deals)}  target <= 3000 ms: {'ok' if ok else 'OVER'}")
    print(f"blind flip round trip     {stats(results['blind']['flips'])}")
    chars = statistics.median(ticks["chars"])
    print(
        f"tick after {ticks['plies']} plies  {stats(ticks['ms'])}  reply {chars:,.0f} characters"
        f" (the saved state: {ticks['state']:,} characters; stage {ticks['stage']})"
    )
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
