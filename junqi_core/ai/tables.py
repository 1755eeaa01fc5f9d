"""Static per-variant data for the CPU players: kind classes, piece values, move distances.

Everything here is public rules knowledge, computed once at import.
"""

from __future__ import annotations

from collections import deque

from junqi_core import pieces as pc
from junqi_core.deployment import DEPLOYMENTS
from junqi_core.rules import POSITION_CLASSES
from junqi_core.topology import BOARDS, Board

ALL_KINDS = {v: tuple(k.kind for k in POSITION_CLASSES[v].kinds) for v in POSITION_CLASSES}
COUNTS = {v: {k.kind: k.count for k in POSITION_CLASSES[v].kinds} for v in POSITION_CLASSES}
KIND_IDS = {v: {k.kind: k.id for k in POSITION_CLASSES[v].kinds} for v in POSITION_CLASSES}
KIND_BY_ID = {v: {k.id: k.kind for k in POSITION_CLASSES[v].kinds} for v in POSITION_CLASSES}


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


FULL_MASK = {v: mask_of(ALL_KINDS[v]) for v in ALL_KINDS}
IMMOBILE = {
    v: mask_of(k.kind for k in POSITION_CLASSES[v].kinds if not k.movable) for v in ALL_KINDS
}
MOVABLE = {v: FULL_MASK[v] & ~IMMOBILE[v] for v in ALL_KINDS}

# Movement classes: kinds that move alike (a representative kind for each class).
MOVE_CLASSES = {
    "classic": (
        (pc.LIEUTENANT, MOVABLE["classic"] & ~(1 << pc.ENGINEER)),
        (pc.ENGINEER, 1 << pc.ENGINEER),
    ),
    "blind": (
        (pc.LIEUTENANT, MOVABLE["blind"] & ~(1 << pc.ENGINEER)),
        (pc.ENGINEER, 1 << pc.ENGINEER),
    ),
    "gunjin": (
        (pc.SPY, MOVABLE["gunjin"] & ~mask_of((pc.TANK, pc.CAVALRY, pc.G_ENGINEER, pc.PLANE))),
        (pc.TANK, mask_of((pc.TANK, pc.CAVALRY))),
        (pc.G_ENGINEER, 1 << pc.G_ENGINEER),
        (pc.PLANE, 1 << pc.PLANE),
    ),
}

# Material values (an Engineer is worth more than its rank: it clears mines).
JUNQI_VALUES = {
    pc.ENGINEER: 20.0,
    pc.LIEUTENANT: 8.0,
    pc.CAPTAIN: 12.0,
    pc.MAJOR: 17.0,
    pc.COLONEL: 25.0,
    pc.BRIGADIER: 35.0,
    pc.MAJOR_GENERAL: 48.0,
    pc.GENERAL: 68.0,
    pc.FIELD_MARSHAL: 92.0,
    pc.BOMB: 42.0,
    pc.LANDMINE: 14.0,
    pc.FLAG: 0.0,
}
GUNJIN_VALUES = {
    pc.ARMY_GENERAL: 85.0,
    pc.LIEUTENANT_GENERAL: 68.0,
    pc.G_MAJOR_GENERAL: 54.0,
    pc.PLANE: 58.0,
    pc.TANK: 44.0,
    pc.G_COLONEL: 34.0,
    pc.LIEUTENANT_COLONEL: 28.0,
    pc.G_MAJOR: 23.0,
    pc.G_CAPTAIN: 15.0,
    pc.FIRST_LIEUTENANT: 11.0,
    pc.SECOND_LIEUTENANT: 8.0,
    pc.CAVALRY: 10.0,
    pc.G_ENGINEER: 14.0,
    pc.SPY: 26.0,
    pc.MINE: 18.0,
    pc.G_FLAG: 12.0,
}
VALUES = {"classic": JUNQI_VALUES, "blind": JUNQI_VALUES, "gunjin": GUNJIN_VALUES}


def _move_distances(variant: str) -> tuple[tuple[int, ...], ...]:
    """dist[a][b]: fewest moves of an ordinary piece from a to b on an empty board
    (a straight railway slide counts as one move); HQ freezing and camps ignored."""
    cls = POSITION_CLASSES[variant]
    board: Board = cls.spec
    n = board.size
    one_move: list[set[int]] = [set(board.neighbours[s]) for s in range(n)]
    if variant in ("classic", "blind"):
        for s in range(n):
            for ray in cls.rail_rays[s]:  # type: ignore[attr-defined]
                one_move[s].update(ray)
    return _all_distances(one_move)


def _all_distances(links) -> tuple[tuple[int, ...], ...]:
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


DIST = {v: _move_distances(v) for v in POSITION_CLASSES}


# Steps on the road/rail graph (one step per edge): how close a piece is to a square.
def _step_distances(board: Board) -> tuple[tuple[int, ...], ...]:
    return _all_distances([board.neighbours[s] for s in range(board.size)])


STEPS = {v: _step_distances(BOARDS[v]) for v in BOARDS}


def relative_rank(variant: str, player: int, square: int) -> int:
    """1 = the player's back rank (Junqi stations count as 6.5 -> 7 here)."""
    name = BOARDS[variant].names[square]
    if name.startswith("s"):
        return 7
    rank = int(name.lstrip("abcdefhqs"))
    top = 12 if variant != "gunjin" else 8
    return rank if player == 0 else top + 1 - rank


def deployment_mask(variant: str, player: int, square: int) -> int:
    """Kinds the deployment rules allow on a starting square (all kinds for blind)."""
    rules = DEPLOYMENTS.get(variant)
    if rules is None:
        return FULL_MASK[variant]
    return mask_of(
        k for k in ALL_KINDS[variant] if rules.placement_error(player, k, square) is None
    )


START_SQUARES = {v: tuple(DEPLOYMENTS[v].squares(p) for p in (0, 1)) for v in DEPLOYMENTS}
DEPLOY_MASKS = {
    v: tuple({s: deployment_mask(v, p, s) for s in START_SQUARES[v][p]} for p in (0, 1))
    for v in DEPLOYMENTS
}
