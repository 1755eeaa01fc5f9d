"""What opening a share link costs, for honest links and for links made to cost.

Run: python bench/links.py [--repeat N]
Prints the best of N times (ms) of `share.decode_link` for: a short link that claims
65,535 actions (refused before decoding), links that claim the record's most actions,
and real games of growing length (decoding is linear in the actions; replaying them is
the engine's normal work).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from junqi_core.record import MAX_ACTIONS
from junqi_core.selfplay import random_game
from junqi_core.share import CHECK_BYTES, LINK_VERSION, LinkError, decode_link, encode_link
from junqi_core.variants import OPTIONS, VARIANT_IDS, find_variant


def claiming_link(count: int, zero_bits: int) -> str:
    """A Classic link (standard rules, nobody deployed) claiming `count` actions, then
    `zero_bits` zero bits and a closing 1 bit, packed as share.encode_link packs."""
    variant = find_variant("classic")
    fields = [(LINK_VERSION, 4), (VARIANT_IDS.index("classic"), 2)]
    fields += [(o.choices.index(variant.options[o.id]), 2) for o in OPTIONS["classic"]]
    fields += [(0, 1), (0, 1), (count, 16), (1 << zero_bits, zero_bits + 1)]
    value, size = 0, 0
    for number, bits in fields:
        value |= number << size
        size += bits
    body = value.to_bytes((size + 7) // 8, "little")
    packed = zlib.compress(hashlib.sha256(body).digest()[:CHECK_BYTES] + body, 9)[2:-4]
    return base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


def best_ms(link: str, repeat: int) -> tuple[float, str]:
    best, outcome = float("inf"), ""
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            record = decode_link(link)
            outcome = f"{len(record['actions'])} actions"
        except LinkError as error:
            outcome = f"refused: {error}"
        best = min(best, time.perf_counter() - start)
    return best * 1000, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cases = [
        ("claims 65,535 actions", claiming_link(65_535, 65_535 * 12)),
        (f"claims {MAX_ACTIONS + 1:,} actions", claiming_link(MAX_ACTIONS + 1, 12 * 20_001)),
        (f"claims {MAX_ACTIONS:,} actions", claiming_link(MAX_ACTIONS, 12 * MAX_ACTIONS)),
    ]
    for seed, plies in ((3, 150), (3, 2000)):
        game = random_game("classic", seed, max_plies=plies)
        cases.append((f"a real game, {len(game.history)} plies", encode_link(game)))
    for name, link in cases:
        ms, outcome = best_ms(link, args.repeat)
        print(f"{name:<28} {len(link):>6} chars {ms:>9.1f} ms  {outcome[:60]}")


if __name__ == "__main__":
    main()
