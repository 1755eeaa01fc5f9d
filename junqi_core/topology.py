"""Board topology as data: posts, names, connections and precomputed move tables.

Everything geometric is worked out once here, at import, so that move generation in
`rules` only indexes tuples.  Squares are small ints (indices into `Board.names`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from junqi_core.moves import MoveCode, move_code

Square = int

NORTH, SOUTH, EAST, WEST = 0, 1, 2, 3
DIRECTION_STEP = {NORTH: (0, 1), SOUTH: (0, -1), EAST: (1, 0), WEST: (-1, 0)}


@dataclass(frozen=True, eq=False)
class Board:
    """Static description of one board.  Shared by every game of a variant."""

    id: str
    files: int
    ranks: int
    names: tuple[str, ...]
    # Drawing position of each post: (x, y) with x = file index, y = rank index (0-based);
    # stations sit between ranks, Gunjin HQs between files c and d.
    coords: tuple[tuple[float, float], ...]
    roads: tuple[tuple[Square, Square], ...]
    rails: tuple[tuple[Square, Square], ...]
    camps: frozenset[Square]
    hqs: tuple[tuple[Square, ...], ...]  # per seat, its headquarters
    home: tuple[tuple[Square, ...], ...]  # per seat, the posts of its half (or army area)
    stations: tuple[Square, ...] = ()
    access: frozenset[Square] = frozenset()
    mountains: tuple[tuple[float, float], ...] = ()
    bridges: tuple[tuple[Square, Square], ...] = ()
    # Railway links drawn as quarter circles (Siguo's corners): (a, b, centre x, centre y)
    curves: tuple[tuple[Square, Square, float, float], ...] = ()
    index: dict[str, Square] = field(init=False)
    # One-step neighbours along any connection (road or railway).
    neighbours: tuple[tuple[Square, ...], ...] = field(init=False)
    # One-step neighbours along roads only.
    road_steps: tuple[tuple[Square, ...], ...] = field(init=False)
    # Railway graph neighbours (for the Engineer's turning paths).
    rail_neighbours: tuple[tuple[Square, ...], ...] = field(init=False)
    on_rail: tuple[bool, ...] = field(init=False)
    # How moves on this board are numbered (`junqi_core.moves`).
    move_code: MoveCode = field(init=False)

    def __post_init__(self) -> None:
        n = len(self.names)
        object.__setattr__(self, "index", {name: i for i, name in enumerate(self.names)})
        object.__setattr__(self, "neighbours", _adjacency(n, self.roads + self.rails))
        object.__setattr__(self, "road_steps", _adjacency(n, self.roads))
        object.__setattr__(self, "rail_neighbours", _adjacency(n, self.rails))
        object.__setattr__(self, "on_rail", tuple(bool(x) for x in self.rail_neighbours))
        object.__setattr__(self, "move_code", move_code(n))

    @property
    def size(self) -> int:
        return len(self.names)

    def square(self, name: str) -> Square:
        """Parse a square name; raises ValueError naming the bad input."""
        try:
            return self.index[name]
        except (KeyError, TypeError):
            raise ValueError(f"no square {name!r} on the {self.id} board") from None

    def owner_of_square(self, square: Square) -> int | None:
        """The player whose half holds the square (None for stations)."""
        for player in range(len(self.home)):
            if square in self.home[player]:
                return player
        return None


def _adjacency(n: int, edges: tuple[tuple[Square, Square], ...]) -> tuple[tuple[Square, ...], ...]:
    adjacent: list[list[Square]] = [[] for _ in range(n)]
    for a, b in edges:
        adjacent[a].append(b)
        adjacent[b].append(a)
    return tuple(tuple(sorted(x)) for x in adjacent)


# ---------------------------------------------------------------------------------------
# Junqi (classic and blind)

JUNQI_FILES = "abcde"
JUNQI_CAMPS = ("b3", "d3", "c4", "b5", "d5", "b10", "d10", "c9", "b8", "d8")
JUNQI_RAIL_RANKS = (2, 6, 7, 11)


def _junqi_board(board_id: str, with_stations: bool) -> tuple[Board, list[list[str]]]:
    names: list[str] = []
    coords: list[tuple[float, float]] = []
    for rank in range(1, 13):
        if rank == 7 and with_stations:
            for f in "ace":
                names.append("s" + f)
                coords.append((float(JUNQI_FILES.index(f)), 5.5))
        for fi, f in enumerate(JUNQI_FILES):
            names.append(f"{f}{rank}")
            coords.append((float(fi), float(rank - 1)))
    index = {name: i for i, name in enumerate(names)}

    def sq(name: str) -> Square:
        return index[name]

    # Straight railway lines, as ordered lists of posts.
    lines: list[list[str]] = [[f"{f}{r}" for f in JUNQI_FILES] for r in JUNQI_RAIL_RANKS]
    for f in "ae":
        lower = [f"{f}{r}" for r in range(2, 7)]
        upper = [f"{f}{r}" for r in range(7, 12)]
        lines.append(lower + (["s" + f] if with_stations else []) + upper)
    lines.append(["c6"] + (["sc"] if with_stations else []) + ["c7"])
    rails = {tuple(sorted((sq(a), sq(b)))) for line in lines for a, b in itertools.pairwise(line)}

    roads: set[tuple[int, int]] = set()
    for half in ((1, 6), (7, 12)):
        for rank in range(half[0], half[1] + 1):
            for fi, f in enumerate(JUNQI_FILES):
                here = sq(f"{f}{rank}")
                if fi + 1 < len(JUNQI_FILES):
                    roads.add((here, sq(f"{JUNQI_FILES[fi + 1]}{rank}")))
                if rank < half[1]:
                    roads.add((here, sq(f"{f}{rank + 1}")))
    for camp in JUNQI_CAMPS:
        fi, rank = JUNQI_FILES.index(camp[0]), int(camp[1:])
        for df in (-1, 1):
            for dr in (-1, 1):
                roads.add(tuple(sorted((sq(camp), sq(f"{JUNQI_FILES[fi + df]}{rank + dr}")))))
    roads = {tuple(sorted(e)) for e in roads} - rails

    home = tuple(
        tuple(sq(f"{f}{r}") for r in ranks for f in JUNQI_FILES)
        for ranks in (range(1, 7), range(7, 13))
    )
    return Board(
        id=board_id,
        files=5,
        ranks=12,
        names=tuple(names),
        coords=tuple(coords),
        roads=tuple(sorted(roads)),
        rails=tuple(sorted(rails)),
        camps=frozenset(sq(c) for c in JUNQI_CAMPS),
        hqs=((sq("b1"), sq("d1")), (sq("b12"), sq("d12"))),
        home=home,  # type: ignore[arg-type]
        stations=tuple(sq("s" + f) for f in "ace") if with_stations else (),
        mountains=((1.0, 5.5), (3.0, 5.5)),
    ), lines


def _straight_rays(
    board: Board, lines: list[list[str]]
) -> tuple[tuple[tuple[Square, ...], ...], ...]:
    """For every post, the railway rays leaving it along each straight line (both ways)."""
    rays: list[list[tuple[Square, ...]]] = [[] for _ in range(board.size)]
    for line in lines:
        squares = [board.index[name] for name in line]
        for i, s in enumerate(squares):
            if i + 1 < len(squares):
                rays[s].append(tuple(squares[i + 1 :]))
            if i > 0:
                rays[s].append(tuple(reversed(squares[:i])))
    return tuple(tuple(r) for r in rays)


CLASSIC_BOARD, _CLASSIC_LINES = _junqi_board("classic", with_stations=True)
BLIND_BOARD, _BLIND_LINES = _junqi_board("blind", with_stations=False)
# Classic played on the 60-post board (the "no front stations" rule option): the same
# geometry as Blind's, but a board of its own so that messages name the right game.
CLASSIC60_BOARD, _CLASSIC60_LINES = _junqi_board("classic", with_stations=False)
CLASSIC_RAIL_RAYS = _straight_rays(CLASSIC_BOARD, _CLASSIC_LINES)
BLIND_RAIL_RAYS = _straight_rays(BLIND_BOARD, _BLIND_LINES)
CLASSIC60_RAIL_RAYS = _straight_rays(CLASSIC60_BOARD, _CLASSIC60_LINES)


# ---------------------------------------------------------------------------------------
# Gunjin Shogi

GUNJIN_FILES = "abcdef"
GUNJIN_HQ_FILES = ("c", "d")


def _gunjin_name(file: str, rank: int) -> str:
    if file in GUNJIN_HQ_FILES and rank in (1, 8):
        return f"hq{rank}"
    return f"{file}{rank}"


@dataclass(frozen=True, eq=False)
class GunjinTables:
    """Direction-aware rays for Gunjin, where pieces move by direction, not along lines."""

    # ground_rays[square][direction] -> rays (tuple of squares) following adjacency;
    # a ray ends on entering an HQ.  The HQ has two forward rays (files c and d).
    ground_rays: tuple[tuple[tuple[tuple[Square, ...], ...], ...], ...]
    # flight_rays: as ground_rays but north/south rays jump the river (the Plane).
    flight_rays: tuple[tuple[tuple[tuple[Square, ...], ...], ...], ...]
    # behind[player][square]: the square one rank towards that player's back rank.
    behind: tuple[tuple[Square | None, ...], tuple[Square | None, ...]]
    forward: tuple[int, int]


def _gunjin_board() -> tuple[Board, GunjinTables]:
    names: list[str] = []
    coords: list[tuple[float, float]] = []
    for rank in range(1, 9):
        for fi, f in enumerate(GUNJIN_FILES):
            name = _gunjin_name(f, rank)
            if name in names:
                continue
            names.append(name)
            coords.append((2.5 if name.startswith("hq") else float(fi), float(rank - 1)))
    index = {name: i for i, name in enumerate(names)}

    def at(fi: int, rank: int) -> Square | None:
        if not (0 <= fi < 6 and 1 <= rank <= 8):
            return None
        return index[_gunjin_name(GUNJIN_FILES[fi], rank)]

    def crosses_river(rank_a: int, rank_b: int, fi: int) -> bool:
        return {rank_a, rank_b} == {4, 5} and GUNJIN_FILES[fi] not in "be"

    edges: set[tuple[int, int]] = set()
    for rank in range(1, 9):
        for fi in range(6):
            here = at(fi, rank)
            for dfi, dr in ((1, 0), (0, 1)):
                there = at(fi + dfi, rank + dr)
                if there is None or there == here or crosses_river(rank, rank + dr, fi):
                    continue
                edges.add(tuple(sorted((here, there))))  # type: ignore[arg-type]

    hq_squares = (index["hq1"], index["hq8"])

    def cells(square: Square) -> list[tuple[int, int]]:
        name = names[square]
        if name.startswith("hq"):
            rank = int(name[2:])
            return [(2, rank), (3, rank)]
        return [(GUNJIN_FILES.index(name[0]), int(name[1:]))]

    def rays_from(square: Square, direction: int, fly: bool) -> tuple[tuple[Square, ...], ...]:
        dfi, dr = DIRECTION_STEP[direction]
        starts = cells(square)
        if dfi:  # sideways from an HQ leaves from its outer cell
            starts = [max(starts) if dfi > 0 else min(starts)]
        rays = []
        seen: set[Square] = set()
        for fi, rank in starts:
            ray: list[Square] = []
            while True:
                nfi, nrank = fi + dfi, rank + dr
                nxt = at(nfi, nrank)
                if nxt is None or nxt == square:
                    break
                if (dr and crosses_river(rank, nrank, fi) and not fly) or nxt in seen:
                    break  # a second ray from an HQ never repeats the first one's squares
                ray.append(nxt)
                seen.add(nxt)
                if nxt in hq_squares:
                    break
                fi, rank = nfi, nrank
            if ray:
                rays.append(tuple(ray))
        return tuple(rays)

    n = len(names)
    ground = tuple(tuple(rays_from(s, d, False) for d in range(4)) for s in range(n))
    flight = tuple(tuple(rays_from(s, d, True) for d in range(4)) for s in range(n))
    behind = tuple(
        tuple(
            (
                ground[s][SOUTH if player == 0 else NORTH][0][0]
                if ground[s][SOUTH if player == 0 else NORTH]
                else None
            )
            for s in range(n)
        )
        for player in (0, 1)
    )
    home = (
        tuple(s for s in range(n) if int(names[s].lstrip("abcdefhq")) <= 4),
        tuple(s for s in range(n) if int(names[s].lstrip("abcdefhq")) >= 5),
    )
    board = Board(
        id="gunjin",
        files=6,
        ranks=8,
        names=tuple(names),
        coords=tuple(coords),
        roads=tuple(sorted(edges)),
        rails=(),
        camps=frozenset(),
        hqs=((hq_squares[0],), (hq_squares[1],)),
        home=home,
        access=frozenset(index[x] for x in ("b4", "e4", "b5", "e5")),
        bridges=((index["b4"], index["b5"]), (index["e4"], index["e5"])),
    )
    tables = GunjinTables(
        ground_rays=ground,
        flight_rays=flight,
        behind=behind,  # type: ignore[arg-type]
        forward=(NORTH, SOUTH),
    )
    return board, tables


GUNJIN_BOARD, GUNJIN_TABLES = _gunjin_board()
