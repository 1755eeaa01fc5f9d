"""Siguo's cross board as data: 129 posts, their names, links and straight railway lines.

Four armies of 5x6 posts (each laid out as a Classic half) around nine centre posts.
A post of an army is named from its owner's seat (docs/notation.md): `Sb1` is South's
left headquarters, `Nc4` North's middle camp; the centre posts are `C11` .. `C33`, row
from North to South, column from West to East.  Everything here is worked out once, at
import, so that move generation only indexes tuples.
"""

from __future__ import annotations

import itertools

from junqi_core.topology import Board, Square

SEATS = "SENW"  # seat index 0..3: South, East, North, West (the counter-clockwise order)
FILES = "abcde"
RANKS = range(1, 7)
ARMY_HQS = ("b1", "d1")
ARMY_CAMPS = ("b3", "d3", "c4", "b5", "d5")
GRID = 17  # the drawing grid: 17 x 17 points, North at the top


def army_rail(file: str, rank: int) -> bool:
    """A railway post of an army: ranks 2 and 6, and files a and e between them."""
    return rank in (2, 6) or (file in "ae" and 2 <= rank <= 6)


def grid_point(name: str) -> tuple[int, int]:
    """A post's point on the drawing grid: (X to the right, Y down), North at the top."""
    if name[0] == "C":
        i, j = int(name[1]), int(name[2])
        return 2 * j + 4, 2 * i + 4
    seat, f, k = name[0], FILES.index(name[1]), int(name[2:])
    return {
        "S": (6 + f, 17 - k),
        "N": (10 - f, k - 1),
        "W": (k - 1, 6 + f),
        "E": (17 - k, 10 - f),
    }[seat]


def _lines() -> list[list[str]]:
    """The 18 straight railway lines a piece other than the Engineer may slide along."""
    lines: list[list[str]] = []
    for seat in SEATS:
        for rank in (6, 2):
            lines.append([f"{seat}{f}{rank}" for f in FILES])

    def side(seat: str, file: str, up: bool) -> list[str]:
        names = [f"{seat}{file}{r}" for r in range(2, 7)]
        return names if up else names[::-1]

    # four long lines through the centre, two middle lines, four arcs round the corners
    lines.append([*side("N", "e", True), "C11", "C21", "C31", *side("S", "a", False)])
    lines.append([*side("N", "a", True), "C13", "C23", "C33", *side("S", "e", False)])
    lines.append([*side("W", "a", True), "C11", "C12", "C13", *side("E", "e", False)])
    lines.append([*side("W", "e", True), "C31", "C32", "C33", *side("E", "a", False)])
    lines.append(["Nc6", "C12", "C22", "C32", "Sc6"])
    lines.append(["Wc6", "C21", "C22", "C23", "Ec6"])
    for seat, left in zip("SWNE", "WNES", strict=True):
        lines.append(side(seat, "a", True) + side(left, "e", False))
    return lines


LINES: tuple[tuple[str, ...], ...] = tuple(tuple(line) for line in _lines())
# The corner railways: each army's a6 to the e6 of the army on its left, passing by (not
# through) the centre post of that corner.
ARCS = (("Sa6", "We6", "C31"), ("Wa6", "Ne6", "C11"), ("Na6", "Ee6", "C13"), ("Ea6", "Se6", "C33"))


def _board() -> Board:
    names = [f"{seat}{f}{r}" for seat in SEATS for r in RANKS for f in FILES]
    names += [f"C{i}{j}" for i in (1, 2, 3) for j in (1, 2, 3)]
    index = {name: i for i, name in enumerate(names)}
    coords = tuple((float(x), float(GRID - 1 - y)) for x, y in (grid_point(name) for name in names))

    def edge(a: str, b: str) -> tuple[Square, Square]:
        x, y = index[a], index[b]
        return (x, y) if x < y else (y, x)

    rails = {edge(a, b) for line in LINES for a, b in itertools.pairwise(line)}
    links: set[tuple[Square, Square]] = set()
    for seat in SEATS:
        for r in RANKS:
            for fi, f in enumerate(FILES):
                if fi + 1 < len(FILES):
                    links.add(edge(f"{seat}{f}{r}", f"{seat}{FILES[fi + 1]}{r}"))
                if r < 6:
                    links.add(edge(f"{seat}{f}{r}", f"{seat}{f}{r + 1}"))
        for camp in ARMY_CAMPS:
            fi, r = FILES.index(camp[0]), int(camp[1])
            for df, dr in itertools.product((-1, 1), (-1, 1)):
                links.add(edge(f"{seat}{camp}", f"{seat}{FILES[fi + df]}{r + dr}"))
    roads = links - rails
    return Board(
        id="siguo",
        files=GRID,
        ranks=GRID,
        names=tuple(names),
        coords=coords,
        roads=tuple(sorted(roads)),
        rails=tuple(sorted(rails)),
        camps=frozenset(index[f"{seat}{c}"] for seat in SEATS for c in ARMY_CAMPS),
        hqs=tuple(tuple(index[f"{seat}{h}"] for h in ARMY_HQS) for seat in SEATS),
        home=tuple(tuple(index[f"{seat}{f}{r}"] for r in RANKS for f in FILES) for seat in SEATS),
        stations=tuple(index[n] for n in names if n[0] == "C"),
        curves=tuple(
            (index[a], index[b], *coords[index[around]])
            for a, b, around in ARCS  # drawn round the centre's corner post they pass by
        ),
    )


SIGUO_BOARD = _board()


def _slides(board: Board) -> tuple[tuple[tuple[tuple[Square, ...], tuple[Square, ...]], ...], ...]:
    """Per post, its straight slides as (prefix, ray): the ray's posts may be reached once
    every post of the prefix is empty.  Two lines can leave a post together (up file a,
    the long line and the arc share Sa3..Sa6), so a later ray starts where it leaves the
    earlier ones, and each destination is listed once."""
    rays: list[list[tuple[Square, ...]]] = [[] for _ in range(board.size)]
    for line in LINES:
        squares = [board.index[name] for name in line]
        for i, s in enumerate(squares):
            rays[s].append(tuple(squares[i + 1 :]))
            rays[s].append(tuple(reversed(squares[:i])))
    slides: list[tuple[tuple[tuple[Square, ...], tuple[Square, ...]], ...]] = []
    for own in rays:
        kept: list[tuple[Square, ...]] = []
        mine: list[tuple[tuple[Square, ...], tuple[Square, ...]]] = []
        for ray in sorted(filter(None, own), key=lambda r: (-len(r), r)):
            shared = max((_common(ray, k) for k in kept), default=0)
            if shared < len(ray):
                mine.append((ray[:shared], ray[shared:]))
            kept.append(ray)
        slides.append(tuple(mine))
    return tuple(slides)


def _common(a: tuple[Square, ...], b: tuple[Square, ...]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


SIGUO_SLIDES = _slides(SIGUO_BOARD)


def seat_of_square(board: Board, square: Square) -> int | None:
    """The seat whose army area holds the post (None for the centre)."""
    return board.owner_of_square(square)
