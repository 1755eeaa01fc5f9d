"""Static evaluation as piece-square tables, so search can score moves incrementally.

`pst[p][s]` is the value of piece int `p` standing on square `s`, positive for colour 0
and negative for colour 1.  A table is built for one (sampled or public) world: it knows
where each flag stands there, which enemy pieces are left, and so on.  The score of a
position is the sum over its pieces; a move changes it by `move_delta` (which the search
calls as `Searcher.delta`).  The board, distances and rule flags come from the rules'
`Tables` (`tables.tables_for`); which builder applies is the family strategy's choice.
"""

from __future__ import annotations

from collections.abc import Iterable

from junqi_core import pieces as pc
from junqi_core.ai.tables import Tables
from junqi_core.pieces import ATTACKER_WINS, BOTH_REMOVED, COLOUR_BIT, FACE_DOWN, KIND_MASK
from junqi_core.rules import Position

WIN = 10_000.0
N_PIECES = 128  # piece ints: 5 kind bits, colour bit, face-down bit

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

CLASSIC_ATTRACT = {  # weight of closeness to the enemy flag, per kind
    pc.ENGINEER: 1.6,
    pc.LIEUTENANT: 1.0,
    pc.CAPTAIN: 1.0,
    pc.MAJOR: 1.0,
    pc.COLONEL: 1.1,
    pc.BRIGADIER: 1.1,
    pc.MAJOR_GENERAL: 1.0,
    pc.GENERAL: 0.9,
    pc.FIELD_MARSHAL: 0.9,
    pc.BOMB: 0.8,
}
GUNJIN_ATTRACT = {
    pc.ARMY_GENERAL: 2.0,
    pc.LIEUTENANT_GENERAL: 2.2,
    pc.G_MAJOR_GENERAL: 2.4,
    pc.G_COLONEL: 2.4,
    pc.LIEUTENANT_COLONEL: 2.4,
    pc.G_MAJOR: 2.4,
    pc.PLANE: 1.2,
    pc.TANK: 1.2,
    pc.G_CAPTAIN: 0.8,
    pc.FIRST_LIEUTENANT: 0.8,
    pc.SECOND_LIEUTENANT: 0.8,
    pc.CAVALRY: 0.8,
    pc.G_ENGINEER: 0.8,
    pc.SPY: 0.4,
}
OCCUPIER_ATTRACT = 2.0  # at least this for a piece whose entry into the enemy HQ wins


NEAR = {1: 8.0, 2: 3.0}  # extra pull at one and two steps from the target
RACE = {
    1: 30.0,
    2: 16.0,
    3: 8.0,
    4: 4.0,
    5: 2.0,
    6: 1.0,
}  # Gunjin: an occupier closing in on the HQ
SPY_HOME = {0: 4.0, 1: 10.0, 2: 8.0, 3: 4.0}  # Gunjin: the Spy by its distance to home
# Gunjin: an occupier nothing can stop in time, by its distance to the enemy HQ
RUSH = {1: 300.0, 2: 150.0, 3: 75.0, 4: 35.0, 5: 15.0, 6: 6.0}


class Weights:
    """Tunable evaluation weights (levels differ in a few of them)."""

    def __init__(self, **kw: float) -> None:
        self.attract = 1.0  # closeness of attackers to the enemy flag / HQ
        self.guard = 0.6  # own pieces near own flag / HQ
        self.enemy_half = 1.5  # a movable piece in the enemy half
        self.rail = 0.6  # a non-engineer on the railway (mobility)
        self.camp = 1.5  # a movable piece resting in a camp (cannot be attacked)
        self.dynamic = 1.0  # value officers by what they can still beat
        self.near = 1.0  # extra pull right next to the enemy flag / HQ
        self.exposed_flag = 15.0  # Blind: the own flag lying face up
        self.race = 1.0  # Gunjin: how much an occupier's distance to the HQ counts
        self.rush = 0.0  # Gunjin: the same for an occupier nothing can stop in time
        self.fish = 0.0  # Blind: a piece placed to take what turning a piece reveals
        self.spy_home = 0.0  # Gunjin: the Spy kept near its own HQ
        self.gate = 10.0  # an own piece on a square next to the own flag (Gunjin: HQ)
        for k, v in kw.items():
            if not hasattr(self, k):
                raise TypeError(f"unknown weight {k}")
            setattr(self, k, float(v))

    def key(self) -> tuple:
        return tuple(sorted(vars(self).items()))

    def pressed(self, urgency: float) -> Weights:
        """Weights for a side that is ahead while the quiet-move draw draws near:
        attack more, guard less (urgency 0..1)."""
        out = Weights(**vars(self))
        out.attract *= 1.0 + 2.0 * urgency
        out.race *= 1.0 + 2.0 * urgency
        out.near *= 1.0 + urgency
        out.enemy_half *= 1.0 + 2.0 * urgency
        out.gate *= 1.0 - 0.6 * urgency
        out.guard *= 1.0 - 0.6 * urgency
        return out


def _junqi_dynamic_values(
    kinds_left: tuple[list[int], list[int]], w: Weights
) -> tuple[dict[int, float], dict[int, float]]:
    """Per colour, the value of each kind given what the other side still has."""
    base = JUNQI_VALUES
    out = []
    for colour in (0, 1):
        enemy = kinds_left[1 - colour]
        values = dict(base)
        if w.dynamic:
            officers = [k for k in enemy if k <= pc.FIELD_MARSHAL]
            top = max(officers) if officers else 0
            for k in range(pc.LIEUTENANT, pc.FIELD_MARSHAL + 1):
                if k > top:  # nothing left that beats it but bombs and mines
                    values[k] = base[k] + 0.3 * w.dynamic * (base[pc.FIELD_MARSHAL] - base[k])
            mines = sum(1 for k in enemy if k == pc.LANDMINE)
            values[pc.ENGINEER] = base[pc.ENGINEER] + 4.0 * w.dynamic * mines
            if top < pc.MAJOR_GENERAL:  # bombs lose their best targets
                values[pc.BOMB] = base[pc.BOMB] * 0.6
        out.append(values)
    return out[0], out[1]


_POSITIONAL: dict[tuple, dict[tuple[int, int], list[float]]] = {}


def _pair(w: Weights | tuple[Weights, Weights]) -> tuple[Weights, Weights]:
    return w if isinstance(w, tuple) else (w, w)


def _junqi_positional(
    t: Tables,
    enemy_half: bool,
    flags: tuple[int | None, int | None],
    ws: tuple[Weights, Weights],
) -> dict[tuple[int, int], list[float]]:
    """(colour, kind) -> positional bonus per square, unsigned (no material).
    `enemy_half`: whether a movable piece gains by standing in the enemy half."""
    key = (t, enemy_half, flags, ws[0].key(), ws[1].key())
    cached = _POSITIONAL.get(key)
    if cached is not None:
        return cached
    board = t.board
    n = board.size
    dist = t.dist
    steps = t.steps
    camps = board.camps
    on_rail = board.on_rail
    out: dict[tuple[int, int], list[float]] = {}
    # squares from which a piece could step onto each flag (its "gates")
    gates = [
        set(board.road_steps[f]) | set(board.rail_neighbours[f]) if f is not None else set()
        for f in flags
    ]
    for colour in (0, 1):
        w = ws[colour]
        target = flags[1 - colour]
        own_flag = flags[colour]
        rank = t.rank[colour]
        half = [enemy_half and rank[s] >= 7 for s in range(n)]
        for kind in range(1, pc.FLAG):
            row = [0.0] * n
            movable = kind < pc.LANDMINE
            attract = CLASSIC_ATTRACT.get(kind, 1.0) * w.attract
            for s in range(n):
                v = 0.0
                if own_flag is not None and s in gates[colour]:
                    v += w.gate  # mines and bombs too: a hole by the flag is a danger
                if not movable:
                    row[s] = v
                    continue
                if half[s]:
                    v += w.enemy_half
                if target is not None:
                    st = steps[s][target]
                    v += attract * max(0, 7 - dist[s][target]) * 0.8
                    v += attract * max(0, 4 - st) * 0.8
                    v += attract * w.near * NEAR.get(st, 0.0)
                if own_flag is not None and kind != pc.ENGINEER:
                    d = steps[s][own_flag]
                    if d <= 2:
                        v += w.guard * (3 - d) * (1.0 if kind >= pc.CAPTAIN else 0.5)
                if on_rail[s] and kind != pc.FIELD_MARSHAL:
                    v += w.rail * (1.5 if kind == pc.ENGINEER else 1.0)
                if s in camps:
                    v += w.camp * (1.0 + (kind >= pc.COLONEL))
                row[s] = v
            out[(colour, kind)] = row
    if len(_POSITIONAL) > 256:
        _POSITIONAL.clear()
    _POSITIONAL[key] = out
    return out


def junqi_tables(
    t: Tables,
    flags: tuple[int | None, int | None],
    kinds_left: tuple[list[int], list[int]],
    w: Weights | tuple[Weights, Weights],
    fish: tuple[tuple[float, ...], tuple[float, ...]] | None = None,
    *,
    enemy_half: bool = True,
    face_up_flag: bool = False,
) -> tuple[list[list[float]], tuple[float, ...]]:
    """PSTs for Junqi (Classic, Blind); flags[c] = square of colour c's flag (None:
    unknown).  `w` may give each colour its own weights; `fish` (Blind) a bonus per
    square for each colour's movable pieces; `enemy_half` (Classic) a bonus for a movable
    piece in the enemy half; `face_up_flag` (Blind) a cost for a flag lying face up.
    Also returns each piece int's material."""
    n = t.board.size
    ws = _pair(w)
    values = _junqi_dynamic_values(kinds_left, ws[0])
    positional = _junqi_positional(t, enemy_half, flags, ws)
    zero = [0.0] * n
    pst = [zero] * N_PIECES
    for colour in (0, 1):
        vals = values[colour]
        colour_bit = COLOUR_BIT if colour else 0
        for kind in range(1, 13):
            base = vals[kind]
            if kind == pc.FLAG and face_up_flag:
                base = -ws[colour].exposed_flag  # face up, anyone may walk onto it
            pos_row = positional.get((colour, kind))
            row = [base] * n if pos_row is None else [base + x for x in pos_row]
            if fish is not None and kind < pc.LANDMINE and ws[colour].fish:
                f = ws[colour].fish
                row = [v + f * b for v, b in zip(row, fish[colour], strict=True)]
            if colour:
                row = [-x for x in row]
            pst[kind | colour_bit] = row
    return pst, _material(values)


def fishing(pos: Position, lines: tuple[tuple[tuple[int, ...], ...], ...]):
    """Blind: per colour and square, how many face-down posts a piece there could attack
    once they are turned (from a camp, where it cannot be attacked, it counts more; a
    post no enemy piece can reach counts more: turning up one's own flag there is safe)."""
    board = pos.board
    spec = pos.spec
    n = spec.size
    out = []
    for colour in (0, 1):
        enemy_bits = pc.colour_bits(colour ^ 1)
        bonus = [0.0] * n
        for t in range(n):
            if not board[t] & FACE_DOWN:
                continue
            exposed = False
            zone = []
            for line in lines[t]:
                for s in line:
                    q = board[s]
                    zone.append(s)
                    if q:
                        if (
                            not q & FACE_DOWN
                            and q & COLOUR_BIT == enemy_bits
                            and q & KIND_MASK < pc.LANDMINE
                        ):
                            exposed = True
                        break
            weight = 0.4 if exposed else 1.0
            for s in zone:
                bonus[s] += weight * (1.5 if s in spec.camps else 1.0)
        out.append(tuple(bonus))
    return out[0], out[1]


def _material(values: tuple[dict[int, float], dict[int, float]]) -> tuple[float, ...]:
    out = [0.0] * N_PIECES
    for colour in (0, 1):
        for kind, v in values[colour].items():
            out[kind | (COLOUR_BIT if colour else 0)] = v
    return tuple(out)


def _gunjin_positional(
    t: Tables, ws: tuple[Weights, Weights]
) -> dict[tuple[int, int], list[float]]:
    key = (t, ws[0].key(), ws[1].key())
    cached = _POSITIONAL.get(key)
    if cached is not None:
        return cached
    board = t.board
    n = board.size
    steps = t.steps
    occupiers = t.variant.occupiers
    hqs = (board.hqs[0][0], board.hqs[1][0])
    out: dict[tuple[int, int], list[float]] = {}
    for colour in (0, 1):
        w = ws[colour]
        target = hqs[1 - colour]
        home = hqs[colour]
        gates = set(board.neighbours[home]) | {home}
        rank = t.rank[colour]
        for kind in range(1, pc.G_FLAG):
            row = [0.0] * n
            attract = GUNJIN_ATTRACT.get(kind, 0.5)
            if kind in occupiers:
                attract = max(attract, OCCUPIER_ATTRACT)
            attract *= w.attract
            for s in range(n):
                v = w.gate if s in gates else 0.0
                if kind == pc.MINE:
                    row[s] = v
                    continue
                if rank[s] >= 5:
                    v += w.enemy_half
                v += attract * max(0, 8 - steps[s][target])
                if kind in occupiers:
                    v += w.near * 1.5 * NEAR.get(steps[s][target], 0.0)
                    v += w.race * RACE.get(steps[s][target], 0.0)
                d = steps[s][home]
                if d <= 2 and kind != pc.SPY:
                    v += w.guard * (3 - d)
                if kind == pc.SPY:  # at home, to meet an Army General rushing the HQ
                    v += w.spy_home * SPY_HOME.get(d, 0.0)
                row[s] = v
            out[(colour, kind)] = row
    if len(_POSITIONAL) > 256:
        _POSITIONAL.clear()
    _POSITIONAL[key] = out
    return out


def gunjin_values(
    kinds_left: tuple[list[int], list[int]], w: Weights
) -> tuple[dict[int, float], dict[int, float]]:
    per_colour = []
    for colour in (0, 1):
        enemy = kinds_left[1 - colour]
        values = dict(GUNJIN_VALUES)
        if pc.ARMY_GENERAL not in enemy:
            values[pc.SPY] = 5.0
        if w.dynamic:
            strong = [k for k in enemy if k <= pc.TANK]
            top = min(strong) if strong else 99
            for k in (pc.ARMY_GENERAL, pc.LIEUTENANT_GENERAL, pc.G_MAJOR_GENERAL):
                if k < top:
                    values[k] += 0.25 * w.dynamic * (values[pc.ARMY_GENERAL] - values[k] + 20)
        per_colour.append(values)
    return per_colour[0], per_colour[1]


def unstoppable(t: Tables, pos: Position) -> tuple[frozenset[int], frozenset[int]]:
    """Gunjin: per colour, its occupiers that no enemy piece able to beat them can reach
    before they reach the enemy HQ (step distances on the current board)."""
    board = pos.board
    steps = t.steps
    spec = t.board
    occupiers = t.variant.occupiers
    hqs = (spec.hqs[0][0], spec.hqs[1][0])
    combat = pos.combat
    out: list[frozenset[int]] = []
    for colour in (0, 1):
        target = hqs[1 - colour]
        found = set()
        for x, p in enumerate(board):
            if not p or pc.colour_of(p) != colour or p & 31 not in occupiers:
                continue
            kind = p & 31
            reach = steps[x][target]
            stopped = False
            for y, q in enumerate(board):
                if not q or pc.colour_of(q) == colour or q & 31 >= pc.MINE:
                    continue
                beats = combat[q & 31][kind] == ATTACKER_WINS
                holds = combat[kind][q & 31] != ATTACKER_WINS
                if (beats or holds) and min(steps[y][x], steps[y][target]) <= reach:
                    stopped = True
                    break
            if not stopped:
                found.add(kind)
        out.append(frozenset(found))
    return out[0], out[1]


def gunjin_tables(
    t: Tables,
    kinds_left: tuple[list[int], list[int]],
    w: Weights | tuple[Weights, Weights],
    rushing: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset()),
) -> tuple[list[list[float]], tuple[float, ...]]:
    """PSTs for Gunjin; `rushing` per colour the occupiers nothing can stop in time."""
    n = t.board.size
    ws = _pair(w)
    values = gunjin_values(kinds_left, ws[0])
    positional = _gunjin_positional(t, ws)
    steps = t.steps
    spec = t.board
    hqs = (spec.hqs[0][0], spec.hqs[1][0])
    zero = [0.0] * n
    pst = [zero] * N_PIECES
    for colour in (0, 1):
        vals = values[colour]
        colour_bit = COLOUR_BIT if colour else 0
        for kind in range(1, 17):
            base = vals[kind]
            pos_row = positional.get((colour, kind))
            row = [base] * n if pos_row is None else [base + x for x in pos_row]
            if kind in rushing[colour] and ws[colour].rush:
                target = hqs[1 - colour]
                rush = ws[colour].rush
                row = [v + rush * RUSH.get(steps[s][target], 0.0) for s, v in enumerate(row)]
            if colour:
                row = [-x for x in row]
            pst[kind | colour_bit] = row
    return pst, _material(values)


def junqi_value_key(kinds_left: tuple[list[int], list[int]]) -> tuple:
    """What Junqi's dynamic piece values depend on (for caching tables)."""
    out = []
    for ks in kinds_left:
        officers = [k for k in ks if k <= pc.FIELD_MARSHAL]
        out.append((max(officers) if officers else 0, ks.count(pc.LANDMINE)))
    return tuple(out)


def gunjin_value_key(kinds_left: tuple[list[int], list[int]]) -> tuple:
    """What Gunjin's dynamic piece values depend on (for caching tables)."""
    out = []
    for ks in kinds_left:
        strong = [k for k in ks if k <= pc.TANK]
        out.append((min(strong) if strong else 99, pc.ARMY_GENERAL in ks))
    return tuple(out)


def score_of(pos: Position, pst: list[list[float]]) -> float:
    """Sum of the table over the board (colour 0's point of view)."""
    total = 0.0
    for s, p in enumerate(pos.board):
        if p:
            total += pst[p][s]
    return total


def kinds_left(pos: Position) -> tuple[list[int], list[int]]:
    """Face-up kinds per colour on the board."""
    out: tuple[list[int], list[int]] = ([], [])
    for p in pos.board:
        if p and not p & FACE_DOWN:
            out[pc.colour_of(p)].append(p & KIND_MASK)
    return out


def flag_squares(pos: Position) -> tuple[int | None, int | None]:
    flags: list[int | None] = [None, None]
    fk = pos.flag_kind
    for s, p in enumerate(pos.board):
        if p and not p & FACE_DOWN and p & KIND_MASK == fk:
            flags[pc.colour_of(p)] = s
    return flags[0], flags[1]


def move_delta(pos: Position, pst: list[list[float]], move: int) -> float:
    """Change of the score (colour 0's view) made by a move (not a flip)."""
    return move_deltas(pos, pst, (move,))[0]


def move_deltas(pos: Position, pst: list[list[float]], moves: Iterable[int]) -> list[float]:
    """`move_delta` of each move (one call for a node's moves: the search's ordering)."""
    board = pos.board
    combat_result = pos.combat_result
    frm_of, to_of = pos.move_code.frm, pos.move_code.to
    out = []
    append = out.append
    for move in moves:
        frm = frm_of[move]
        to = to_of[move]
        row = pst[board[frm]]
        q = board[to]
        if not q:
            append(row[to] - row[frm])
            continue
        r = combat_result(frm, to)
        if r == ATTACKER_WINS:
            append(row[to] - row[frm] - pst[q][to])
        elif r == BOTH_REMOVED:
            append(-row[frm] - pst[q][to])
        else:
            append(-row[frm])
    return out
