"""Friend-play (junqi_core.fair) computation times: a combat round trip, the Blind deal.

Run: python bench/fair.py [--combats N] [--deals N] [--tick-plies N]

Two in-memory peers play seeded random games; every figure is CPU time (process_time) of
both pages together, with no network: a combat is the attacker's move, the defender's
answer, the attacker's rows and the defender's check (both oblivious transfers, both
sides); the deal is the host's encrypted shuffle, the guest's check and shuffle, and the
host's check.  The page's tick (once a second) is timed through the bridge's JSON door as
the worker calls it, late in a Classic game: wall time and the reply's length.  Targets in
the page (Pyodide; pure Python up to ~2.2x slower than CPython
here, big-integer pow about the same): <= 150 ms per combat, <= 3 s for the deal.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from junqi_core.fair import FairPeer
from junqi_core.fair.group import G, P, random_exponent
from junqi_core.fair.ot import choose, decrypt_row, encrypt_rows, new_key

PAGE_FACTOR = 2.2  # the slowest pure-Python ratio measured for the page


class Pair:
    """Two peers and the messages between them, with the CPU time of every call."""

    def __init__(self, variant: str, seed: int) -> None:
        self.rng = random.Random(seed)
        self.peers = {"host": FairPeer.host(variant), "guest": FairPeer.guest()}
        self.inbox: dict[str, list[str]] = {"host": [], "guest": []}
        self.post("host", self.peers["host"].flush())

    def post(self, name: str, reply: dict) -> None:
        assert reply["ok"], reply
        self.inbox["guest" if name == "host" else "host"].extend(reply["send"])

    def call(self, name: str, method: str, *args) -> float:
        start = time.process_time()
        reply = getattr(self.peers[name], method)(*args)
        spent = time.process_time() - start
        self.post(name, reply)
        return spent

    def next_message(self) -> tuple[str, dict] | None:
        name = next((n for n in ("host", "guest") if self.inbox[n]), None)
        return None if name is None else (name, json.loads(self.inbox[name][0]))

    def deliver_one(self) -> float:
        name, _ = self.next_message()  # type: ignore[misc]
        return self.call(name, "receive", self.inbox[name].pop(0))

    def deliver(self) -> None:
        while self.next_message():
            self.deliver_one()

    def to_move(self) -> str | None:
        for name, peer in self.peers.items():
            s = peer.game
            if s and s.stage == "play" and not s.pending and s.shadow.turn == s.seat:
                return name
        return None


def combats(variant: str, wanted: int, seed: int) -> list[float]:
    """CPU seconds of each combat round trip, over seeded random games."""
    times: list[float] = []
    while len(times) < wanted:
        pair = Pair(variant, seed)
        seed += 1
        pair.deliver()
        for name in ("host", "guest"):
            pair.post(name, pair.peers[name].deploy())
        pair.deliver()
        while len(times) < wanted and (name := pair.to_move()):
            dests = pair.peers[name].view()["dests"]
            moves = [(f, t) for f, ts in dests["moves"].items() for t in ts]
            fights = [(f, t) for f, t in moves if t["attack"]]
            frm, to = pair.rng.choice(fights or moves)
            spent = pair.call(name, "act", f"{frm}-{to['to']}")
            if fights:
                for _ in range(3):  # the answer, the rows, the check
                    spent += pair.deliver_one()
                times.append(spent)
            pair.deliver()
    return times


def deals(wanted: int) -> list[float]:
    times = []
    for seed in range(wanted):
        pair = Pair("blind", seed)
        pair.deliver_one()  # the guest takes the hello and answers
        spent = 0.0
        while (message := pair.next_message()) is not None:
            spent += pair.deliver_one()  # host: deck 1; guest: deck 2; host: check
            if message[1]["type"] == "deck" and message[0] == "host":
                break
        times.append(spent)
    return times


def flips_and_audit(seed: int) -> tuple[list[float], list[float]]:
    """CPU seconds of each Blind flip round trip, and of each page's audit at the end."""
    pair = Pair("blind", seed)
    pair.deliver()
    flips: list[float] = []
    audits: list[float] = []
    while name := pair.to_move():
        dests = pair.peers[name].view()["dests"]
        moves = [f"{f}-{t['to']}" for f, ts in dests["moves"].items() for t in ts]
        flip = [f"flip:{s}" for s in dests["flips"]]
        action = pair.rng.choice(flip if flip and pair.rng.random() < 0.5 else moves or flip)
        spent = pair.call(name, "act", action)
        if action.startswith("flip:"):
            spent += pair.deliver_one() + pair.deliver_one()
            flips.append(spent)
        while (message := pair.next_message()) is not None:
            spent = pair.deliver_one()
            if message[1]["type"] == "open":
                audits.append(spent)
    return flips, audits


def ticks(plies: int, seed: int = 1, count: int = 30) -> str:
    """The page's `tick` call through `bridge.handle` after `plies` actions of a Classic game
    with a clock (nothing is due): median wall time and reply length, and the saved state's."""
    from junqi_core import bridge
    from junqi_core.variants import find_variant

    def call(**request) -> tuple[dict, int, float]:
        text = json.dumps(request)
        start = time.perf_counter()
        out = bridge.handle(text)
        return json.loads(out), len(out), time.perf_counter() - start

    rng = random.Random(seed)
    clock = {"deploy": 3600, "move": 3600}
    host, _, _ = call(op="fair_host", variant="classic", clock=clock)
    guest, _, _ = call(op="fair_guest")
    peers = [host["peer"], guest["peer"]]
    inbox: list[list[str]] = [[], list(host["send"])]
    views = [host["view"], guest["view"]]

    def take(i: int, reply: dict) -> None:
        assert reply["ok"], reply
        views[i] = reply.get("view", views[i])
        inbox[1 - i].extend(reply["send"])

    def deliver() -> None:
        while any(inbox):
            i = 0 if inbox[0] else 1
            take(i, call(op="fair", peer=peers[i], call="receive", text=inbox[i].pop(0), now=0)[0])

    deliver()
    variant = find_variant("classic")
    letters = {k.kind: k.letter for k in variant.kinds}
    for i in (0, 1):  # seeded layouts: the same game every run
        layout = variant.deployment.random_layout(i, rng)
        named = {variant.board.names[q]: letters[k] for q, k in layout.items()}
        take(i, call(op="fair", peer=peers[i], call="deploy", layout=named, now=0)[0])
    deliver()
    played = 0
    while played < plies:
        mover = [
            i
            for i, v in enumerate(views)
            if v["fair"]["stage"] == "play" and not v["fair"]["pending"] and v["turn"] == i
        ]
        mover = [i for i in mover if views[i]["player"] == i and views[i]["dests"]]
        if not mover:
            break
        i = mover[0]
        moves = [(f, t) for f, ts in views[i]["dests"]["moves"].items() for t in ts]
        fights = [(f, t) for f, t in moves if t["attack"]]
        frm, to = rng.choice(fights if fights and rng.random() < 0.1 else moves)
        take(i, call(op="fair", peer=peers[i], call="act", action=f"{frm}-{to['to']}", now=0)[0])
        deliver()
        played += 1
    state = call(op="fair_state", peer=peers[0])[0]["state"]
    sizes, times = [], []
    for _ in range(count):
        _, size, spent = call(op="fair", peer=peers[0], call="tick", now=1000)
        sizes.append(size)
        times.append(spent)
    for peer in peers:
        call(op="fair_drop", peer=peer)
    return (
        f"page tick after {played} plies ({views[0]['fair']['stage']}): median "
        f"{1000 * statistics.median(times):.2f} ms, reply {statistics.median(sizes):,.0f} "
        f"characters (n={count}); the saved state: {len(state):,} characters"
    )


def kernel(n: int = 13) -> float:
    """CPU seconds of the exponentiations of one combat alone (both transfers, both sides)."""
    start = time.process_time()
    for _ in range(2):  # up (the attacker learns) and down (the defender learns)
        a, big_a = new_key()
        b, big_b = choose(big_a, 5)
        rows = encrypt_rows("sid", "ctx", a, big_a, big_b, list(range(n)))
        decrypt_row("sid", "ctx", b, big_a, big_b, rows, 5)
    return time.process_time() - start


def pow_times() -> tuple[float, float]:
    x = pow(G, random_exponent(), P)
    start = time.process_time()
    for _ in range(20):
        pow(x, random_exponent(), P)
    short = (time.process_time() - start) / 20
    start = time.process_time()
    for _ in range(5):
        pow(x, P - 3, P)
    return short, (time.process_time() - start) / 5


def summary(label: str, seconds: list[float], target_ms: float) -> str:
    ms = [1000 * s for s in seconds]
    median, worst = statistics.median(ms), max(ms)
    page = median * PAGE_FACTOR
    verdict = "within" if worst * PAGE_FACTOR <= target_ms else "OVER"
    return (
        f"{label:<22} median {median:8.1f} ms  max {worst:8.1f} ms  (n={len(ms)})"
        f"  page <= {page:7.1f} ms median, {worst * PAGE_FACTOR:7.1f} ms max: "
        f"{verdict} the {target_ms:,.0f} ms target"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--combats", type=int, default=20)
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--tick-plies", type=int, default=200)
    parser.add_argument("--ticks-only", action="store_true", help="only the page's tick")
    args = parser.parse_args()
    if args.ticks_only:
        print(ticks(args.tick_plies))
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    short, full = pow_times()
    print(f"CPython {sys.version.split()[0]}, load average {load:.1f}, CPU time of both pages")
    print(f"pow mod P: 256-bit exponent {1000 * short:.1f} ms, 2048-bit {1000 * full:.1f} ms")
    alone = statistics.median(kernel() for _ in range(5))
    print(f"combat exponentiations alone: {1000 * alone:.1f} ms (median of 5)")
    print(summary("combat, classic", combats("classic", args.combats, 1), 150))
    print(summary("combat, gunjin", combats("gunjin", args.combats, 1), 150))
    print(summary("blind deal", deals(args.deals), 3000))
    flips, audits = flips_and_audit(1)
    print(
        f"blind flip round trip: median {1000 * statistics.median(flips):.1f} ms (n={len(flips)})"
    )
    print(f"blind audit, per page: {', '.join(f'{s:.2f} s' for s in audits)}")
    classic = Pair("classic", 2)
    classic.deliver()
    for name in ("host", "guest"):
        classic.post(name, classic.peers[name].deploy())
    classic.deliver()
    audits = []
    while name := classic.to_move():
        dests = classic.peers[name].view()["dests"]
        moves = [f"{f}-{t['to']}" for f, ts in dests["moves"].items() for t in ts]
        classic.call(name, "act", classic.rng.choice(moves))
        while (message := classic.next_message()) is not None:
            spent = classic.deliver_one()
            if message[1]["type"] == "open":
                audits.append(spent)
    records = classic.peers["host"].game.records
    fights = sum(r.outcome is not None for r in records)
    print(
        f"classic audit ({len(records)} actions, {fights} combats), per page: "
        + ", ".join(f"{s:.2f} s" for s in audits)
    )
    print(ticks(args.tick_plies))


if __name__ == "__main__":
    main()
