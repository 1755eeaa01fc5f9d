"""CPU deployments: guarded flags, sensible mines and bombs, varied by the seed.

Pieces are placed one kind at a time, most constrained first, each on a free legal square
drawn with a weight that says how good that square is for that kind.  The weights come
from common practice (flag in a corner headquarters ringed by mines, bombs behind the
front guarding the approach, engineers on the railway, small pieces on the front rank).
The board, the placement rules and the ranks come from the variant's `Tables`, so a
board without stations or bombs allowed on the front rank are placed for as well; the
result is always checked against the variant's deployment rules.  The family strategy
(`strategy.Strategy.layout`) chooses the function.
"""

from __future__ import annotations

import functools
import random

from junqi_core import pieces as pc
from junqi_core.ai.tables import Tables
from junqi_core.deployment import DeploymentRules, Layout
from junqi_core.topology import Board


def _file(board: Board, square: int) -> str:
    name = board.names[square]
    return "c" if name.startswith("hq") else name[0]


def _rules(t: Tables) -> DeploymentRules:
    rules = t.variant.deployment
    if rules is None:
        raise ValueError(f"{t.variant.name} has no deployment")
    return rules


def _pick(rng: random.Random, squares: list[int], weights: list[float]) -> int:
    total = sum(weights)
    r = rng.random() * total
    for s, w in zip(squares, weights, strict=True):
        r -= w
        if r < 0:
            return s
    return squares[-1]


def _place(
    rules: DeploymentRules,
    player: int,
    rng: random.Random,
    order: list[tuple[int, int]],
    weight,
    fixed: Layout | None = None,
) -> Layout:
    layout: Layout = dict(fixed or {})
    free = [s for s in rules.squares(player) if s not in layout]
    for kind, count in order:
        for _ in range(count):
            legal = [s for s in free if rules.placement_error(player, kind, s) is None]
            ws = [max(0.0, weight(kind, s, layout)) for s in legal]
            s = _pick(rng, legal, ws)
            layout[s] = kind
            free.remove(s)
    rules.validate(player, layout)
    return layout


@functools.cache
def rush_lanes(t: Tables, player: int) -> tuple[frozenset[int], frozenset[int]]:
    """Where an opening rush strikes `player`'s full layout: the squares an enemy piece
    can strike with its first move (the front posts at the railway crossings), and
    those a piece that took one of them strikes from there next."""
    cls = t.cls
    enemy = 1 - player
    board = [0] * t.board.size
    for p in (player, enemy):
        for s in t.start_squares[p]:
            board[s] = pc.piece(pc.LIEUTENANT, p)

    def struck(b: list[int], frm: int | None = None) -> set[int]:
        pos = cls(b, turn=enemy, swap=0)
        moves, code = pos.legal_moves(enemy), pos.move_code
        return {code.to[m] for m in moves if b[code.to[m]] and frm in (None, code.frm[m])}

    first = struck(board)
    second: set[int] = set()
    for s in first:
        taken = list(board)
        taken[s] = pc.piece(pc.LIEUTENANT, enemy)
        second |= struck(taken, s)
    return frozenset(first), frozenset(second - first)


def junqi_layout(t: Tables, player: int, rng: random.Random, fortified: bool = False) -> Layout:
    """A Classic layout: the flag in a headquarters with mines at its gates."""
    rules = _rules(t)
    board = t.board
    rank = t.rank[player]
    hq_frozen = t.variant.hq_frozen
    steps = board.neighbours
    hq_pair = board.hqs[player]
    flag_hq = rng.choice(hq_pair)
    spare_hq = hq_pair[1] if flag_hq == hq_pair[0] else hq_pair[0]
    ring = sorted(steps[flag_hq])
    # two or three of the flag's three gates are mined (fortified: always three); a third
    # mine may go elsewhere.  The draw is made either way, so the seed gives the same
    # layout elsewhere.
    mined = ring if rng.random() < 0.6 or fortified else rng.sample(ring, 2)
    fixed: Layout = {flag_hq: pc.FLAG}
    for s in mined:
        fixed[s] = pc.LANDMINE

    first, second = rush_lanes(t, player)

    def weight(kind: int, s: int, layout: Layout) -> float:
        rr = rank[s]
        f = _file(board, s)
        rail = board.on_rail[s]
        near_flag = s in ring
        if kind == pc.LANDMINE:
            return 1.0 + (rr == 1)
        if fortified and kind in (pc.FIELD_MARSHAL, pc.GENERAL, pc.BOMB):
            return rush_weight(kind, s, rr, rail)
        if s == spare_hq and hq_frozen:  # pieces there never move: keep something small
            return {pc.LIEUTENANT: 6.0, pc.ENGINEER: 2.0, pc.CAPTAIN: 3.0}.get(kind, 0.05)
        if kind == pc.BOMB:
            if near_flag:
                return 12.0
            return {2: 2.0, 3: 4.0, 4: 3.0, 5: 1.5}.get(rr, 0.3)
        if kind == pc.ENGINEER:
            return (3.0 if rail else 1.0) * {1: 0.3, 2: 1.0, 3: 1.5, 4: 1.5, 5: 1.5, 6: 0.8}[rr]
        if kind == pc.FIELD_MARSHAL or kind == pc.GENERAL:
            return {3: 2.0, 4: 3.0, 5: 3.0, 6: 1.0, 2: 1.0}.get(rr, 0.1) * (2.0 if rail else 1.0)
        if kind in (pc.MAJOR_GENERAL, pc.BRIGADIER):
            return {6: 2.0, 5: 2.5, 4: 2.0, 3: 1.5, 2: 1.0}.get(rr, 0.2) * (1.5 if rail else 1.0)
        if kind in (pc.COLONEL, pc.MAJOR):
            return {6: 2.0, 5: 2.0, 4: 1.5, 3: 1.0, 2: 1.5}.get(rr, 0.5) * (
                1.3 if f in "ace" else 1.0
            )
        if kind in (pc.CAPTAIN, pc.LIEUTENANT):
            return {6: 3.0, 5: 1.5, 4: 1.0, 3: 1.0, 2: 1.5}.get(rr, 1.5)
        return 1.0

    def rush_weight(kind: int, s: int, rr: int, rail: bool) -> float:
        """Hard: the Marshal and the General off the rush lanes (an enemy piece's first
        move, or its next along the railway), the Bombs on them, where a rushing piece
        arrives once it has taken the front post."""
        if kind == pc.BOMB:
            if s in second:
                return 4.0
            return 3.0 if s in ring else {3: 1.0, 4: 1.0, 5: 1.0}.get(rr, 0.3)
        if s in first:
            return 0.0
        if s in second or s == spare_hq:
            return 0.1
        return {3: 3.0, 4: 3.0, 5: 3.0, 6: 1.5, 2: 1.0}.get(rr, 0.2) * (0.3 if rail else 1.0)

    order = [
        (pc.LANDMINE, 3 - len(mined)),
        (pc.BOMB, 2),
        (pc.FIELD_MARSHAL, 1),
        (pc.GENERAL, 1),
        (pc.ENGINEER, 3),
        (pc.MAJOR_GENERAL, 2),
        (pc.BRIGADIER, 2),
        (pc.COLONEL, 2),
        (pc.MAJOR, 2),
        (pc.CAPTAIN, 3),
        (pc.LIEUTENANT, 3),
    ]
    return _place(rules, player, rng, order, weight, fixed)


def gunjin_layout(
    t: Tables,
    player: int,
    rng: random.Random,
    hq_mine: float | None = None,
    fortified: bool = False,
) -> Layout:
    """A Gunjin layout.  `hq_mine`, if given, is how often it puts a mine in its
    headquarters when the HQ is not the square behind the flag (that square holds the
    flag's guard); `fortified`: a mine in the HQ always."""
    rules = _rules(t)
    board = t.board
    rank = t.rank[player]
    hq = board.hqs[player][0]
    behind = t.cls.tables.behind[player]  # type: ignore[attr-defined]
    # The flag fights with the strength of the piece behind it: choose that piece first.
    spots = [
        s
        for s in rules.squares(player)
        if rules.placement_error(player, pc.G_FLAG, s) is None
        and rank[s] <= 3
        and behind[s] is not None
    ]
    weights = [6.0 if behind[s] == hq else 1.0 for s in spots]
    flag = _pick(rng, spots, weights)
    guard: int | None = rng.choice(
        [pc.MINE, pc.MINE, pc.LIEUTENANT_GENERAL, pc.G_MAJOR_GENERAL, pc.G_COLONEL, pc.TANK]
    )
    if fortified:
        hq_mine = 1.0
        if behind[flag] == hq:
            guard = pc.MINE  # the HQ holds a mine even when it is the flag's guard square
    fixed: Layout = {flag: pc.G_FLAG}
    if t.variant.flag_behind:
        fixed[behind[flag]] = guard
    else:
        guard = None  # rule option: the flag has no strength of its own, nothing guards it
    if hq_mine is None:
        hq_mine = guard != pc.MINE and rng.random() < 0.35
    else:
        # a mine in the headquarters stops every occupier (only planes and engineers
        # clear it, and they cannot occupy)
        if hq not in fixed and rng.random() < hq_mine:
            fixed[hq] = pc.MINE
        hq_mine = False

    def weight(kind: int, s: int, layout: Layout) -> float:
        rr = rank[s]
        f = _file(board, s)
        access = s in board.access
        if kind == pc.MINE:
            if s == hq:
                return 20.0 if hq_mine else 0.5
            if s in board.neighbours[flag]:
                return 3.0
            if rr == 1:
                return 1.5
            if rr == 3 and f in "be":
                return 2.0
            return 0.6
        if kind in (pc.ARMY_GENERAL, pc.LIEUTENANT_GENERAL, pc.G_MAJOR_GENERAL):
            if s == hq:
                return 1.5 if kind != pc.ARMY_GENERAL else 0.5
            return {1: 0.3, 2: 1.5, 3: 2.5, 4: 2.0 + 2.0 * access}[rr]
        if kind in (pc.TANK, pc.PLANE):
            return {1: 0.3, 2: 0.8, 3: 1.5, 4: 2.0 + 2.5 * access}[rr]
        if kind == pc.SPY:
            return {1: 0.5, 2: 2.0, 3: 2.0, 4: 0.5}[rr]
        if kind in (pc.CAVALRY, pc.G_ENGINEER):
            return {1: 0.5, 2: 1.0, 3: 1.5, 4: 2.0}[rr]
        if s == hq:
            return 2.0 if kind in (pc.G_COLONEL, pc.LIEUTENANT_COLONEL, pc.G_MAJOR) else 0.6
        return {1: 1.2, 2: 1.0, 3: 1.0, 4: 1.2}[rr]

    counts = {k.kind: k.count for k in rules.kinds}
    for k in fixed.values():
        counts[k] -= 1
    order_kinds = [
        pc.MINE,
        pc.ARMY_GENERAL,
        pc.LIEUTENANT_GENERAL,
        pc.G_MAJOR_GENERAL,
        pc.PLANE,
        pc.TANK,
        pc.SPY,
        pc.G_COLONEL,
        pc.LIEUTENANT_COLONEL,
        pc.G_MAJOR,
        pc.CAVALRY,
        pc.G_ENGINEER,
        pc.G_CAPTAIN,
        pc.FIRST_LIEUTENANT,
        pc.SECOND_LIEUTENANT,
    ]
    order = [(k, counts[k]) for k in order_kinds if counts[k]]
    return _place(rules, player, rng, order, weight, fixed)
