"""Deployment: where each player's pieces may start, random layouts, swaps and mirrors.

A layout maps each square of a player's half to a piece kind.  Classic and Gunjin
have placement rules; Blind has none (all 50 pieces are shuffled face down).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable

from junqi_core import pieces as pc
from junqi_core.pieces import PieceKind
from junqi_core.topology import BLIND_BOARD, CLASSIC_BOARD, GUNJIN_BOARD, Board

Layout = dict[int, int]  # square -> piece kind


class DeploymentError(ValueError):
    """A layout breaks a deployment rule; `code` names the rule, `square` where."""

    def __init__(self, code: str, message: str, square: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.square = square


# A placement rule: (kind, square name, relative rank, square) -> (code, message) or None.
PlacementRule = Callable[[int, str, int, int], "tuple[str, str] | None"]


class DeploymentRules:
    """What a variant allows in a player's half at the start."""

    def __init__(
        self,
        board: Board,
        kinds: tuple[PieceKind, ...],
        rules: list[PlacementRule],
        relative_rank: Callable[[int, int], int],
    ) -> None:
        self.board = board
        self.kinds = kinds
        self.rules = rules
        self.relative_rank = relative_rank
        self.names = {k.kind: k.name for k in kinds}
        self.counts = {k.kind: k.count for k in kinds}

    def squares(self, player: int) -> tuple[int, ...]:
        """The squares a player fills (their half minus camps)."""
        return tuple(s for s in self.board.home[player] if s not in self.board.camps)

    def placement_error(self, player: int, kind: int, square: int) -> DeploymentError | None:
        name = self.board.names[square]
        rel = self.relative_rank(player, square)
        for rule in self.rules:
            broken = rule(kind, name, rel, square)
            if broken:
                return DeploymentError(broken[0], broken[1], name)
        return None

    def validate(self, player: int, layout: Layout) -> None:
        """Raise DeploymentError naming the first broken rule and its square."""
        expected = set(self.squares(player))
        given = set(layout)
        for square in sorted(given - expected):
            raise DeploymentError(
                "square_not_yours",
                f"{self.board.names[square]} is not a starting square of this player.",
                self.board.names[square],
            )
        for square in sorted(expected - given):
            raise DeploymentError(
                "square_empty",
                f"{self.board.names[square]} must hold a piece.",
                self.board.names[square],
            )
        have = Counter(layout.values())
        for kind, count in self.counts.items():
            if have.get(kind, 0) != count:
                raise DeploymentError(
                    "piece_count",
                    f"A layout has {count} {self.names[kind]} (found {have.get(kind, 0)}).",
                )
        for kind in have:
            if kind not in self.counts:
                raise DeploymentError("unknown_piece", f"Unknown piece kind {kind}.")
        for square in sorted(layout):
            error = self.placement_error(player, layout[square], square)
            if error:
                raise error

    def random_layout(self, player: int, rng: random.Random) -> Layout:
        """A random legal layout: the most constrained pieces are placed first."""
        free = list(self.squares(player))
        bag = [k for k, c in self.counts.items() for _ in range(c)]
        options = {
            k: [s for s in free if self.placement_error(player, k, s) is None] for k in self.counts
        }
        bag.sort(key=lambda k: (len(options[k]), k))
        layout: Layout = {}
        for kind in bag:
            allowed = [s for s in options[kind] if s not in layout]
            layout[rng.choice(allowed)] = kind
        return layout

    def swap(self, player: int, layout: Layout, a: int, b: int) -> Layout:
        """The layout with squares a and b exchanged; refused (DeploymentError) if illegal."""
        for square in (a, b):
            if square not in layout:
                raise DeploymentError(
                    "square_not_yours",
                    f"{self.board.names[square]} is not one of your starting squares.",
                    self.board.names[square],
                )
        swapped = dict(layout)
        swapped[a], swapped[b] = layout[b], layout[a]
        for square in (a, b):
            error = self.placement_error(player, swapped[square], square)
            if error:
                raise error
        return swapped

    def mirror(self, layout: Layout) -> Layout:
        """Left and right exchanged (every rule here is symmetric, so it stays legal)."""
        table = mirror_table(self.board)
        return {table[s]: kind for s, kind in layout.items()}

    def for_seat(self, layout: Layout, made_for: int, seat: int) -> Layout:
        """A layout made for seat `made_for`, placed as `seat` would see it from its side:
        each piece on the post of the same rank and file counted from that seat (half a
        turn round the board with two seats)."""
        if made_for == seat:
            return dict(layout)
        if len(self.board.home) == 2:
            turn = rotation_table(self.board)
            return {turn[square]: kind for square, kind in layout.items()}
        own = {square: i for i, square in enumerate(self.board.home[made_for])}
        theirs = self.board.home[seat]
        return {theirs[own[square]]: kind for square, kind in layout.items() if square in own}


@functools.cache
def mirror_table(board: Board) -> tuple[int, ...]:
    """Per square, the square with left and right exchanged."""
    last = chr(ord("a") + board.files - 1)

    def flip(name: str) -> str:
        if name.startswith(("hq", "s")):
            return name if name.startswith("hq") else "s" + chr(ord("a") + ord(last) - ord(name[1]))
        return chr(ord("a") + ord(last) - ord(name[0])) + name[1:]

    return tuple(board.index[flip(n)] for n in board.names)


@functools.cache
def rotation_table(board: Board) -> tuple[int, ...]:
    """Per square, the square half a turn round the board's centre: a layout turned so
    that the other player sees it from their side as this one did from theirs."""
    at = {xy: s for s, xy in enumerate(board.coords)}
    return tuple(at[(board.files - 1 - x, board.ranks - 1 - y)] for x, y in board.coords)


# --- classic -------------------------------------------------------------------------------


def _junqi_rank(board: Board) -> Callable[[int, int], int]:
    names = board.names

    def relative_rank(player: int, square: int) -> int:
        rank = int(names[square][1:])
        return rank if player == 0 else 13 - rank

    return relative_rank


def _classic_flag(kind: int, name: str, rel: int, square: int):
    if kind == pc.FLAG and not (rel == 1 and name[0] in "bd"):
        return (
            "flag_not_in_hq",
            f"The Flag must stand in one of your two headquarters, not on {name}.",
        )
    return None


def _classic_mine(kind: int, name: str, rel: int, square: int):
    if kind == pc.LANDMINE:
        if rel > 2:
            return (
                "mine_not_in_back_ranks",
                f"A Landmine must stand in your back two ranks, not on {name}.",
            )
        if rel == 1 and name[0] in "bd":
            return ("mine_in_hq", f"A Landmine may not stand in a headquarters ({name}).")
    return None


def _classic_bomb(kind: int, name: str, rel: int, square: int):
    if kind == pc.BOMB and rel == 6:
        return ("bomb_on_front_rank", f"A Bomb may not start on the front rank ({name}).")
    return None


def classic_deployment(board: Board, front_bombs: bool = False) -> DeploymentRules:
    """Classic's placement rules on a board (with or without stations); `front_bombs`
    is the rule option that lets Bombs start on the front rank."""
    rules: list[PlacementRule] = [_classic_flag, _classic_mine]
    if not front_bombs:
        rules.append(_classic_bomb)
    return DeploymentRules(board, pc.JUNQI_KINDS, rules, _junqi_rank(board))


CLASSIC_DEPLOYMENT = classic_deployment(CLASSIC_BOARD)


# --- gunjin --------------------------------------------------------------------------------


def _gunjin_rank(player: int, square: int) -> int:
    rank = int(GUNJIN_BOARD.names[square].lstrip("abcdefhq"))
    return rank if player == 0 else 9 - rank


def _gunjin_access(kind: int, name: str, rel: int, square: int):
    if kind in (pc.MINE, pc.G_FLAG) and square in GUNJIN_BOARD.access:
        what = "Mine" if kind == pc.MINE else "Flag"
        return (
            f"{what.lower()}_on_access",
            f"The {what} may not stand on an access square ({name}).",
        )
    return None


def _gunjin_flag_rank(kind: int, name: str, rel: int, square: int):
    if kind == pc.G_FLAG and rel == 1:
        return (
            "flag_on_back_rank",
            f"The Flag may not stand on your back rank or in the headquarters ({name}).",
        )
    return None


GUNJIN_DEPLOYMENT = DeploymentRules(
    GUNJIN_BOARD, pc.GUNJIN_KINDS, [_gunjin_access, _gunjin_flag_rank], _gunjin_rank
)


# --- blind ---------------------------------------------------------------------------------


def blind_shuffle(seed: int) -> list[int]:
    """The 50 pieces face down on the 50 non-camp posts, in an order fixed by the seed
    (tests and records; a game nobody may predict uses `blind_deal(secrets.SystemRandom())`)."""
    return blind_deal(random.Random(seed))


def blind_deal(rng: random.Random) -> list[int]:
    """The 50 pieces face down on the 50 non-camp posts, shuffled by `rng`."""
    squares = [s for s in range(BLIND_BOARD.size) if s not in BLIND_BOARD.camps]
    bag = [
        pc.piece(k.kind, colour, face_down=True)
        for colour in (0, 1)
        for k in pc.JUNQI_KINDS
        for _ in range(k.count)
    ]
    rng.shuffle(bag)
    board = [0] * BLIND_BOARD.size
    for square, p in zip(squares, bag, strict=True):
        board[square] = p
    return board
