"""Public rules data for the CPU players, read off one `Variant`.

Everything here is rules knowledge: the kinds and their counts, which kinds move, the
squares each side starts on and what the deployment rules allow there, ranks counted
from each side's back rank, and distances on the board.  `tables_for(variant)` builds it
on first use and keeps it for that Variant (Variants are singletons: the same rules give
the same object), so a board without stations or a changed combat table brings its own.
"""

from __future__ import annotations

import functools
import math
from collections import deque
from dataclasses import dataclass

from junqi_core.rules import Position
from junqi_core.topology import Board
from junqi_core.variants import Variant, find_variant


def mask_of(kinds) -> int:
    m = 0
    for k in kinds:
        m |= 1 << k
    return m


def kinds_of(mask: int) -> list[int]:
    out = []
    k = 0
    while mask:
        if mask & 1:
            out.append(k)
        mask >>= 1
        k += 1
    return out


Distances = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, eq=False)
class Tables:
    """The rules data of one Variant, as the CPU reads it (see `tables_for`)."""

    variant: Variant
    cls: type[Position]  # the variant's position class
    board: Board
    kinds: tuple[int, ...]  # kind ints, in the variant's order
    counts: dict[int, int]  # kind -> pieces of it per side
    kind_ids: dict[int, str]
    kind_by_id: dict[str, int]
    full_mask: int  # every kind
    movable: int  # the kinds that move
    # per player: the squares a layout fills (() for both without deployment: Blind)
    start_squares: tuple[tuple[int, ...], tuple[int, ...]]
    # per player: start square -> kinds the deployment rules allow there
    deploy_masks: tuple[dict[int, int], dict[int, int]]
    # rank[player][square]: 1 = that player's back rank (Junqi stations count as 7)
    rank: tuple[tuple[int, ...], tuple[int, ...]]
    # dist[a][b]: fewest moves of an ordinary piece from a to b on an empty board (a
    # straight railway run counts as one); steps[a][b]: steps along roads and railways
    dist: Distances
    steps: Distances


@functools.cache
def _tables(variant: Variant) -> Tables:
    cls = variant.position_class
    board = variant.board
    kinds = tuple(k.kind for k in variant.kinds)
    full = mask_of(kinds)
    movable = full & ~mask_of(k.kind for k in variant.kinds if not k.movable)
    rules = variant.deployment
    if rules is None:
        starts: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        masks: tuple[dict[int, int], dict[int, int]] = ({}, {})
    else:
        starts = (rules.squares(0), rules.squares(1))
        masks = tuple(  # type: ignore[assignment]
            {
                s: mask_of(k for k in kinds if rules.placement_error(p, k, s) is None)
                for s in starts[p]
            }
            for p in (0, 1)
        )
    return Tables(
        variant=variant,
        cls=cls,
        board=board,
        kinds=kinds,
        counts={k.kind: k.count for k in variant.kinds},
        kind_ids={k.kind: k.id for k in variant.kinds},
        kind_by_id={k.id: k.kind for k in variant.kinds},
        full_mask=full,
        movable=movable,
        start_squares=starts,
        deploy_masks=masks,
        rank=_ranks(board),
        dist=_move_distances(cls),
        steps=_step_distances(board),
    )


def tables_for(variant: Variant | str) -> Tables:
    """The rules data of a Variant (or of a variant id's standard rules), built once."""
    return _tables(find_variant(variant) if isinstance(variant, str) else variant)


@functools.cache
def _ranks(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per player and square, the rank counted from that player's back rank (1); a post
    drawn between two ranks (a Junqi station) counts as the further one."""
    out = []
    for player in (0, 1):
        row = []
        for _, y in board.coords:
            rank = y + 1 if player == 0 else board.ranks - y
            row.append(math.floor(rank + 0.5))
        out.append(tuple(row))
    return out[0], out[1]


@functools.cache
def _move_distances(cls: type[Position]) -> Distances:
    """dist[a][b]: fewest moves of an ordinary piece from a to b on an empty board (a
    straight railway run, where the rules have them, counts as one move); HQ freezing
    and camps ignored."""
    board = cls.spec
    one_move: list[set[int]] = [set(board.neighbours[s]) for s in range(board.size)]
    rail_rays = getattr(cls, "rail_rays", None)
    if rail_rays is not None:
        for s in range(board.size):
            for ray in rail_rays[s]:
                one_move[s].update(ray)
    return _all_distances(one_move)


@functools.cache
def _step_distances(board: Board) -> Distances:
    """Steps on the road and railway graph (one per edge): how close a piece is to a square."""
    return _all_distances([board.neighbours[s] for s in range(board.size)])


def _all_distances(links) -> Distances:
    """Breadth-first distances between every pair of squares (99: unreachable)."""
    n = len(links)
    out = []
    for a in range(n):
        d = [99] * n
        d[a] = 0
        queue = deque([a])
        while queue:
            s = queue.popleft()
            for t in links[s]:
                if d[t] == 99:
                    d[t] = d[s] + 1
                    queue.append(t)
        out.append(tuple(d))
    return tuple(out)
