"""An independent, deliberately plain model of four-player Junqi (Siguo) for checking the engine.

Nothing here comes from `junqi_core`: the board, the moves, combat and the course of a game are
written out again from the rules, so that comparing the two over many positions finds the
places where either one is wrong. Clarity comes before speed.

The rules modelled (with the default options):

Board. Four armies of 5 x 6 posts sit around a 3 x 3 block of nine centre stations. Seats, in
turn order, are South, East, North, West (indices 0-3). South and North are partners (team 0),
East and West are partners (team 1). An army's post is named by its seat letter, a file `a`-`e`
counted from the owner's left as the owner faces the centre, and a rank `1` (the owner's back
row) to `6` (the front row next to the centre). Centre stations are `C<row><column>`, rows 1-3
from North to South, columns 1-3 from West to East.

Inside an army: the headquarters are b1 and d1; the camps are b3, d3, c4, b5 and d5; ranks 2
and 6 and files a and e from rank 2 to rank 6 are railway posts; the remaining posts (a1, c1,
e1, c3, b4, d4, c5) are plain road posts. The centre stations are all railway posts.

Links: posts next to each other in the same rank or file of an army are linked (a railway link
when both ends are railway posts, otherwise a road); every camp is also linked to its four
diagonal neighbours; the centre stations form a 3 x 3 grid of railway links; each army's front
posts a6, c6 and e6 (not b6 or d6) have a railway link into the centre block; and the front
corner a6 of each army is joined by a curved railway to the front corner e6 of the army on its
left. Nothing else joins two armies.

Moving: a piece steps one link (road or railway). A piece starting on a railway post may
instead slide any distance along one straight railway line through empty posts; the curved
corner railway counts as straight, but a slide along a front row ends at the corner post. An
Engineer on a railway post may run along any chain of railway links through empty posts. Only
the final post may be occupied, and then only by an enemy that is not in a camp (an attack).
Partners' pieces are never moved onto or attacked. Landmines, flags, and any piece standing in
any headquarters never move. A piece in any camp cannot be attacked.

Combat, checked in this order: a Bomb on either side removes both; an attacked flag is taken
(the attacker moves in); an attacked Landmine is cleared by an Engineer (which moves in) but
removes any other attacker and stays; otherwise the higher rank wins and equal ranks both go.

The course of the game: a seat whose flag is taken is out and its whole army leaves the board
at once. After every move the turn goes to the next seat still in; a seat that has no legal
move when its turn comes is out too, and the next seat is checked the same way. A seat may skip
its turn (a pass or a time-out); its fifth skip puts it out. A seat may surrender at any time
and is out at once. A team wins as soon as both of the other team's seats are out. The game is
drawn after 200 plies in a row (skips included) in which no piece left the board.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

SEATS = "SENW"
KINDS = (
    "field_marshal",
    "general",
    "major_general",
    "brigadier",
    "colonel",
    "major",
    "captain",
    "lieutenant",
    "engineer",
    "bomb",
    "landmine",
    "flag",
)
# How many of each kind one army has, in the order of KINDS (25 pieces).
ARMY = (1, 1, 2, 2, 2, 2, 3, 3, 3, 2, 3, 1)

QUIET_LIMIT = 200
SKIP_LIMIT = 5

FILES = "abcde"
RANKS = range(1, 7)
HQ_SPOTS = {"b1", "d1"}
CAMP_SPOTS = {"b3", "d3", "c4", "b5", "d5"}
CENTRE = [f"C{i}{j}" for i in (1, 2, 3) for j in (1, 2, 3)]

# The army on each seat's left as that seat faces the centre.
LEFT_OF = {"S": "W", "W": "N", "N": "E", "E": "S"}

# Which centre station each army's front posts a6, c6 and e6 lead to.
FRONT_TO_CENTRE = {
    "S": {"a": "C31", "c": "C32", "e": "C33"},
    "E": {"a": "C33", "c": "C23", "e": "C13"},
    "N": {"a": "C13", "c": "C12", "e": "C11"},
    "W": {"a": "C11", "c": "C21", "e": "C31"},
}


def _spot(name: str) -> str:
    """The part of an army post's name after the seat letter ('Sb3' -> 'b3')."""
    return name[1:]


def _army_kind(spot: str) -> str:
    file, rank = spot[0], int(spot[1])
    if spot in HQ_SPOTS:
        return "hq"
    if spot in CAMP_SPOTS:
        return "camp"
    if rank in (2, 6) or (file in "ae" and 2 <= rank <= 6):
        return "rail"
    return "road"


def posts() -> list[str]:
    """All 129 post names: each army's 30 posts (seat, then file, then rank), then the centre."""
    return [f"{s}{f}{r}" for s in SEATS for f in FILES for r in RANKS] + list(CENTRE)


def post_kind(name: str) -> str:
    """'hq', 'camp', 'rail' (an army's railway post), 'road' (plain post) or 'centre'."""
    if name[0] == "C":
        return "centre"
    return _army_kind(_spot(name))


def is_railway_post(name: str) -> bool:
    return post_kind(name) in ("rail", "centre")


def grid_xy(name: str) -> tuple[int, int]:
    """Where a post is drawn on a 17 x 17 grid (x to the right, y down, North at the top)."""
    if name[0] == "C":
        return 2 * int(name[2]) + 4, 2 * int(name[1]) + 4
    seat, f, k = name[0], FILES.index(name[1]), int(name[2])
    return {
        "S": (6 + f, 17 - k),
        "N": (10 - f, k - 1),
        "W": (k - 1, 6 + f),
        "E": (17 - k, 10 - f),
    }[seat]


def _build_links() -> tuple[set[frozenset[str]], set[frozenset[str]]]:
    every: set[frozenset[str]] = set()
    rail: set[frozenset[str]] = set()

    def link(a: str, b: str, railway: bool) -> None:
        pair = frozenset((a, b))
        every.add(pair)
        if railway:
            rail.add(pair)

    for s in SEATS:
        for fi, f in enumerate(FILES):
            for r in RANKS:
                here = f"{s}{f}{r}"
                # Orthogonal neighbours to the right and forward (each pair once).
                ahead = []
                if fi + 1 < len(FILES):
                    ahead.append(f"{s}{FILES[fi + 1]}{r}")
                if r + 1 <= 6:
                    ahead.append(f"{s}{f}{r + 1}")
                for there in ahead:
                    link(here, there, is_railway_post(here) and is_railway_post(there))
                # Diagonals of a camp (a set, so camp-to-camp diagonals count once).
                if f"{f}{r}" in CAMP_SPOTS:
                    for df in (-1, 1):
                        for dr in (-1, 1):
                            link(here, f"{s}{FILES[fi + df]}{r + dr}", False)
        for f, station in FRONT_TO_CENTRE[s].items():
            link(f"{s}{f}6", station, True)
        link(f"{s}a6", f"{LEFT_OF[s]}e6", True)
    for i in (1, 2, 3):
        for j in (1, 2, 3):
            if j < 3:
                link(f"C{i}{j}", f"C{i}{j + 1}", True)
            if i < 3:
                link(f"C{i}{j}", f"C{i + 1}{j}", True)
    return every, rail


_LINKS, _RAIL_LINKS = _build_links()


def links() -> set[frozenset[str]]:
    """All 288 links (roads and railways)."""
    return set(_LINKS)


def rail_links() -> set[frozenset[str]]:
    """The 92 railway links."""
    return set(_RAIL_LINKS)


def _column(seat: str, file: str, ranks: range) -> list[str]:
    return [f"{seat}{file}{r}" for r in ranks]


def _build_lines() -> list[list[str]]:
    """The 18 straight railway lines, each an ordered list of posts."""
    up, down = range(2, 7), range(6, 1, -1)
    lines: list[list[str]] = []
    for s in SEATS:
        lines.append([f"{s}{f}6" for f in FILES])
        lines.append([f"{s}{f}2" for f in FILES])
    # Long lines through the centre: one army's side file, three stations, the opposite
    # army's side file.
    lines.append([*_column("N", "e", up), "C11", "C21", "C31", *_column("S", "a", down)])
    lines.append([*_column("N", "a", up), "C13", "C23", "C33", *_column("S", "e", down)])
    lines.append([*_column("W", "a", up), "C11", "C12", "C13", *_column("E", "e", down)])
    lines.append([*_column("W", "e", up), "C31", "C32", "C33", *_column("E", "a", down)])
    # Middle lines from c6 to c6 through C22.
    lines.append(["Nc6", "C12", "C22", "C32", "Sc6"])
    lines.append(["Wc6", "C21", "C22", "C23", "Ec6"])
    # Lines round each corner arc: up one army's file a, down the left army's file e.
    for s in SEATS:
        lines.append(_column(s, "a", up) + _column(LEFT_OF[s], "e", down))
    return lines


LINES = _build_lines()


def _build_rays() -> dict[str, list[tuple[str, ...]]]:
    """For each railway post, the distinct runs of posts leading away from it along a line."""
    rays: dict[str, set[tuple[str, ...]]] = {}
    for line in LINES:
        for i, post in enumerate(line):
            found = rays.setdefault(post, set())
            if i + 1 < len(line):
                found.add(tuple(line[i + 1 :]))
            if i > 0:
                found.add(tuple(reversed(line[:i])))
    return {post: sorted(runs) for post, runs in rays.items()}


_RAYS = _build_rays()
_NEIGHBOURS: dict[str, set[str]] = {p: set() for p in posts()}
_RAIL_NEIGHBOURS: dict[str, set[str]] = {p: set() for p in posts()}
for _a, _b in map(tuple, _LINKS):
    _NEIGHBOURS[_a].add(_b)
    _NEIGHBOURS[_b].add(_a)
for _a, _b in map(tuple, _RAIL_LINKS):
    _RAIL_NEIGHBOURS[_a].add(_b)
    _RAIL_NEIGHBOURS[_b].add(_a)


def neighbours(name: str) -> set[str]:
    """Posts one link away (road or railway)."""
    return set(_NEIGHBOURS[name])


def team(seat: int) -> int:
    """0 for South and North, 1 for East and West."""
    return seat % 2


@dataclass
class State:
    """A position: pieces by post, the seat to move, the seats out, per-seat skip counts, the
    number of plies in a row with no piece removed, plies played, and the result once over."""

    pieces: dict[str, tuple[int, str]]
    turn: int = 0
    out: set[int] = field(default_factory=set)
    skips: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    quiet: int = 0
    ply: int = 0
    result: tuple[int | None, str] | None = None

    def copy(self) -> State:
        return State(
            dict(self.pieces),
            self.turn,
            set(self.out),
            list(self.skips),
            self.quiet,
            self.ply,
            self.result,
        )


# --- moves -------------------------------------------------------------------------------------


def _can_enter(state: State, seat: int, post: str) -> bool:
    """Whether a piece of `seat` may end its move on `post` (empty, or an attackable enemy)."""
    other = state.pieces.get(post)
    if other is None:
        return True
    return team(other[0]) != team(seat) and post_kind(post) != "camp"


def can_move(kind: str, post: str) -> bool:
    """Landmines and flags never move; nothing standing in a headquarters moves."""
    return kind not in ("landmine", "flag") and post_kind(post) != "hq"


def destinations(state: State, post: str) -> set[str]:
    """Every post the piece on `post` may move to or attack now, whoever's turn it is (an empty
    set for an empty post or a piece that cannot move)."""
    if post not in state.pieces:
        return set()
    seat, kind = state.pieces[post]
    if not can_move(kind, post):
        return set()
    found = {p for p in _NEIGHBOURS[post] if _can_enter(state, seat, p)}
    if not is_railway_post(post):
        return found
    if kind == "engineer":
        # Any chain of railway links through empty posts; the last post may be an enemy.
        seen = {post}
        queue = deque([post])
        while queue:
            here = queue.popleft()
            for there in _RAIL_NEIGHBOURS[here]:
                if there in seen:
                    continue
                if there in state.pieces:
                    if _can_enter(state, seat, there):
                        found.add(there)
                    continue
                seen.add(there)
                found.add(there)
                queue.append(there)
        return found
    for ray in _RAYS[post]:
        for there in ray:
            if there in state.pieces:
                if _can_enter(state, seat, there):
                    found.add(there)
                break
            found.add(there)
    return found


def legal_moves(state: State) -> set[tuple[str, str]]:
    """(from, to) pairs for the seat to move; none once the game is over."""
    if state.result is not None:
        return set()
    return {
        (post, to)
        for post, (seat, _) in state.pieces.items()
        if seat == state.turn
        for to in destinations(state, post)
    }


def has_legal_move(state: State, seat: int) -> bool:
    return any(s == seat and destinations(state, p) for p, (s, _) in state.pieces.items())


# --- combat ------------------------------------------------------------------------------------


def combat(attacker_kind: str, defender_kind: str) -> str:
    """Who stays on the board: 'attacker' (it moves in), 'defender', or 'both' removed."""
    if attacker_kind in ("landmine", "flag"):
        raise ValueError(f"a {attacker_kind} never attacks")
    if "bomb" in (attacker_kind, defender_kind):
        return "both"
    if defender_kind == "flag":
        return "attacker"
    if defender_kind == "landmine":
        return "attacker" if attacker_kind == "engineer" else "defender"
    a, d = KINDS.index(attacker_kind), KINDS.index(defender_kind)
    if a == d:
        return "both"
    return "attacker" if a < d else "defender"


# --- the course of the game -------------------------------------------------------------------


def _put_out(state: State, seat: int, reason: str) -> None:
    """Take `seat` out: its pieces leave the board, the quiet count restarts, and the other
    team wins if both of this seat's team are now out."""
    state.out.add(seat)
    for post in [p for p, (s, _) in state.pieces.items() if s == seat]:
        del state.pieces[post]
    state.quiet = 0
    if all(s in state.out for s in range(4) if team(s) == team(seat)):
        state.result = (1 - team(seat), reason)


def _pass_turn(state: State) -> None:
    """Give the turn to the next seat still in; a seat with no legal move then goes out and the
    next one is checked, until a seat can move or the game is over."""
    while state.result is None:
        nxt = (state.turn + 1) % 4
        while nxt in state.out:
            nxt = (nxt + 1) % 4
        state.turn = nxt
        if has_legal_move(state, nxt):
            return
        _put_out(state, nxt, "immobilised")


def _end_of_ply(state: State, removed: bool) -> None:
    state.ply += 1
    if removed:
        state.quiet = 0
    else:
        state.quiet += 1
    if state.result is None:
        _pass_turn(state)
    if state.result is None and state.quiet >= QUIET_LIMIT:
        state.result = (None, "quiet_moves")


def apply_move(state: State, frm: str, to: str) -> State:
    """The position after the seat to move plays `frm` -> `to` (ValueError if not legal)."""
    if state.result is not None:
        raise ValueError("the game is over")
    if (frm, to) not in legal_moves(state):
        raise ValueError(f"illegal move {frm}-{to}")
    new = state.copy()
    mover = new.pieces.pop(frm)
    defender = new.pieces.get(to)
    removed = False
    if defender is None:
        new.pieces[to] = mover
    else:
        removed = True
        winner = combat(mover[1], defender[1])
        if winner == "attacker":
            new.pieces[to] = mover
        elif winner == "both":
            del new.pieces[to]
        if defender[1] == "flag":
            _put_out(new, defender[0], "flag_captured")
    _end_of_ply(new, removed)
    return new


def apply_pass(state: State) -> State:
    """The position after the seat to move skips its turn (a pass or a time-out)."""
    if state.result is not None:
        raise ValueError("the game is over")
    new = state.copy()
    new.skips[new.turn] += 1
    removed = False
    if new.skips[new.turn] >= SKIP_LIMIT:
        _put_out(new, new.turn, "timeouts")
        removed = True
    _end_of_ply(new, removed)
    return new


def apply_surrender(state: State, seat: int) -> State:
    """The position after `seat` surrenders (at any time; it is not a ply)."""
    if state.result is not None:
        raise ValueError("the game is over")
    if seat in state.out:
        raise ValueError(f"seat {SEATS[seat]} is already out")
    new = state.copy()
    _put_out(new, seat, "resignation")
    if new.result is None and new.turn == seat:
        _pass_turn(new)
    return new


def outcome(state: State) -> tuple[int | None, str] | None:
    """(winning team, reason) or (None, 'quiet_moves') once the game is over, else None."""
    return state.result


# --- deployments, for building test positions -------------------------------------------------


def deployable_posts(seat: int) -> list[str]:
    """The 25 posts of a seat's army where pieces start (everything but the camps)."""
    s = SEATS[seat]
    return [f"{s}{f}{r}" for f in FILES for r in RANKS if f"{f}{r}" not in CAMP_SPOTS]


def random_layout(seat: int, rng: random.Random) -> dict[str, str]:
    """A random legal starting layout: the flag in a headquarters, landmines on ranks 1-2
    (the other headquarters allowed), Bombs off the front row, the rest anywhere."""
    free = deployable_posts(seat)
    layout: dict[str, str] = {}

    def place(kind: str, allowed: list[str]) -> None:
        post = rng.choice(allowed)
        layout[post] = kind
        free.remove(post)

    s = SEATS[seat]
    place("flag", [f"{s}b1", f"{s}d1"])
    for _ in range(3):
        place("landmine", [p for p in free if p[2] in "12"])
    for _ in range(2):
        place("bomb", [p for p in free if p[2] != "6"])
    rest = [k for k, n in zip(KINDS, ARMY, strict=True) for _ in range(n)]
    rest = [k for k in rest if k not in ("flag", "landmine", "bomb")]
    rng.shuffle(rest)
    for post, kind in zip(sorted(free), rest, strict=True):
        layout[post] = kind
    return layout


def initial_state(rng: random.Random, first: int = 0) -> State:
    """A start of game: four random legal layouts, `first` to move."""
    pieces = {
        post: (seat, kind) for seat in range(4) for post, kind in random_layout(seat, rng).items()
    }
    return State(pieces, turn=first)
