"""Piece kinds and combat tables for each variant, as data.

A piece on the board is one small int: bits 0-4 its kind, bit 5 its colour (0 red /
player 1 of Gunjin, 1 blue / player 2), bit 6 set while it lies face down (Blind).
Siguo's four seats keep bit 5 as the team (South and North 0, East and West 1) and add
bit 7 for the second seat of a team (`seat_piece`), so a team reads like a colour.
Combat is precomputed into `table[attacker_kind][defender_kind]`.
"""

from __future__ import annotations

from dataclasses import dataclass

KIND_MASK = 31
COLOUR_BIT = 32
FACE_DOWN = 64
EMPTY = 0

# Combat outcomes, seen from the attacker.
ATTACKER_WINS = 1  # the defender is removed and the attacker moves in
DEFENDER_WINS = 2  # the attacker is removed, the defender stays
BOTH_REMOVED = 3  # both removed (for a Gunjin flag: flag and attacker, never the piece behind)

OUTCOME_NAMES = {ATTACKER_WINS: "attacker", DEFENDER_WINS: "defender", BOTH_REMOVED: "both"}


@dataclass(frozen=True)
class PieceKind:
    kind: int
    id: str
    name: str
    letter: str
    glyph: str
    count: int
    rank: int | None  # the printed rank / strength (None for specials)
    movable: bool = True


def piece(kind: int, colour: int, face_down: bool = False) -> int:
    return kind | (COLOUR_BIT if colour else 0) | (FACE_DOWN if face_down else 0)


def colour_of(p: int) -> int:
    """The colour of piece int p (0 or 1); also of a colour's bits (`colour_bits`)."""
    return (p >> 5) & 1


def colour_bits(colour: int) -> int:
    """What a piece of `colour` carries in its colour bit (`piece(kind, colour)` has it)."""
    return COLOUR_BIT if colour else 0


# For loops over many pieces: the same as look-ups, by piece int and by colour.
COLOUR_OF: tuple[int, ...] = tuple(colour_of(p) for p in range(128))
COLOUR_BITS: tuple[int, int] = (colour_bits(0), colour_bits(1))
# A piece int without its face-down bit: its kind and colour.
SIDE_AND_KIND = COLOUR_BIT | KIND_MASK

# Four seats (Siguo): seat = team | half << 1, where the team is the colour bit.
HALF_BIT = 128
SEAT_BITS = COLOUR_BIT | HALF_BIT


def seat_piece(kind: int, seat: int) -> int:
    """The piece int of a `kind` belonging to Siguo seat 0..3 (S, E, N, W)."""
    return kind | (COLOUR_BIT if seat & 1 else 0) | (HALF_BIT if seat & 2 else 0)


def seat_of(p: int) -> int:
    """The Siguo seat (0..3) of piece int p; its team is `seat & 1`."""
    return (p >> 5) & 1 | (p >> 6) & 2


SEAT_OF: tuple[int, ...] = tuple(seat_of(p) for p in range(256))


# ---------------------------------------------------------------------------------------
# Junqi (classic and blind share the pieces; the rank is the kind number for officers)

ENGINEER, LIEUTENANT, CAPTAIN, MAJOR, COLONEL = 1, 2, 3, 4, 5
BRIGADIER, MAJOR_GENERAL, GENERAL, FIELD_MARSHAL = 6, 7, 8, 9
BOMB, LANDMINE, FLAG = 10, 11, 12

JUNQI_KINDS: tuple[PieceKind, ...] = (
    PieceKind(FIELD_MARSHAL, "field_marshal", "Field Marshal", "M", "司令", 1, 9),
    PieceKind(GENERAL, "general", "General", "G", "军长", 1, 8),
    PieceKind(MAJOR_GENERAL, "major_general", "Major General", "D", "师长", 2, 7),
    PieceKind(BRIGADIER, "brigadier", "Brigadier", "B", "旅长", 2, 6),
    PieceKind(COLONEL, "colonel", "Colonel", "C", "团长", 2, 5),
    PieceKind(MAJOR, "major", "Major", "J", "营长", 2, 4),
    PieceKind(CAPTAIN, "captain", "Captain", "K", "连长", 3, 3),
    PieceKind(LIEUTENANT, "lieutenant", "Lieutenant", "L", "排长", 3, 2),
    PieceKind(ENGINEER, "engineer", "Engineer", "E", "工兵", 3, 1),
    PieceKind(BOMB, "bomb", "Bomb", "X", "炸弹", 2, None),
    PieceKind(LANDMINE, "landmine", "Landmine", "N", "地雷", 3, None, movable=False),
    PieceKind(FLAG, "flag", "Flag", "F", "军旗", 1, None, movable=False),
)


def _junqi_table(mine_stays: bool) -> tuple[tuple[int, ...], ...]:
    table = [[0] * 32 for _ in range(32)]
    kinds = [k.kind for k in JUNQI_KINDS]
    for a in kinds:
        for d in kinds:
            if BOMB in (a, d):
                result = BOTH_REMOVED
            elif d == FLAG:
                result = ATTACKER_WINS
            elif d == LANDMINE:
                if a == ENGINEER:
                    result = ATTACKER_WINS
                else:
                    result = DEFENDER_WINS if mine_stays else BOTH_REMOVED
            elif a == d:
                result = BOTH_REMOVED
            else:
                result = ATTACKER_WINS if a > d else DEFENDER_WINS
            table[a][d] = result
    return tuple(tuple(row) for row in table)


CLASSIC_COMBAT = _junqi_table(mine_stays=False)
BLIND_COMBAT = _junqi_table(mine_stays=True)

# ---------------------------------------------------------------------------------------
# Gunjin Shogi (kinds numbered strongest first; Spy, Mine and Flag are special)

(
    ARMY_GENERAL,
    LIEUTENANT_GENERAL,
    G_MAJOR_GENERAL,
    PLANE,
    TANK,
    G_COLONEL,
    LIEUTENANT_COLONEL,
    G_MAJOR,
    G_CAPTAIN,
    FIRST_LIEUTENANT,
    SECOND_LIEUTENANT,
    CAVALRY,
    G_ENGINEER,
    SPY,
    MINE,
    G_FLAG,
) = range(1, 17)

GUNJIN_KINDS: tuple[PieceKind, ...] = (
    PieceKind(ARMY_GENERAL, "army_general", "Army General", "A", "大将", 1, 14),
    PieceKind(LIEUTENANT_GENERAL, "lieutenant_general", "Lieutenant General", "L", "中将", 1, 13),
    PieceKind(G_MAJOR_GENERAL, "major_general", "Major General", "M", "少将", 1, 12),
    PieceKind(PLANE, "plane", "Plane", "P", "飛行機", 2, 11),
    PieceKind(TANK, "tank", "Tank", "T", "タンク", 2, 10),
    PieceKind(G_COLONEL, "colonel", "Colonel", "C", "大佐", 1, 9),
    PieceKind(LIEUTENANT_COLONEL, "lieutenant_colonel", "Lieutenant Colonel", "O", "中佐", 1, 8),
    PieceKind(G_MAJOR, "major", "Major", "J", "少佐", 1, 7),
    PieceKind(G_CAPTAIN, "captain", "Captain", "K", "大尉", 2, 6),
    PieceKind(FIRST_LIEUTENANT, "first_lieutenant", "First Lieutenant", "I", "中尉", 2, 5),
    PieceKind(SECOND_LIEUTENANT, "second_lieutenant", "Second Lieutenant", "U", "少尉", 2, 4),
    PieceKind(CAVALRY, "cavalry", "Cavalry", "V", "騎兵", 1, 3),
    PieceKind(G_ENGINEER, "engineer", "Engineer", "E", "工兵", 2, 2),
    PieceKind(SPY, "spy", "Spy", "S", "スパイ", 1, 1),
    PieceKind(MINE, "mine", "Mine", "N", "地雷", 2, None, movable=False),
    PieceKind(G_FLAG, "flag", "Flag", "F", "軍旗", 1, None, movable=False),
)

# Pieces whose entry into the enemy HQ wins the game: generals and field officers, and
# under the "any officer occupies" rule option the company officers too.
GUNJIN_OCCUPIERS = frozenset(
    {ARMY_GENERAL, LIEUTENANT_GENERAL, G_MAJOR_GENERAL, G_COLONEL, LIEUTENANT_COLONEL, G_MAJOR}
)
GUNJIN_OFFICERS = GUNJIN_OCCUPIERS | {G_CAPTAIN, FIRST_LIEUTENANT, SECOND_LIEUTENANT}


def gunjin_table(
    tank_clears_mines: bool = False,
    plane_clears_mines: bool = True,
    engineer_beats_tank: bool = False,
    spy_wins_defending: bool = True,
) -> tuple[tuple[int, ...], ...]:
    """Outcomes between movers and against a mine, under the Gunjin rule options (the
    defaults are the standard rules).  A flag defends with the strength of the piece
    behind it, so rules.py looks up `table[attacker][piece_behind]` instead."""
    table = [[0] * 32 for _ in range(32)]
    movers = [k.kind for k in GUNJIN_KINDS if k.movable]
    clears = {G_ENGINEER}
    if plane_clears_mines:
        clears.add(PLANE)
    if tank_clears_mines:
        clears.add(TANK)
    for a in movers:
        for d in movers:
            if a == d:
                result = BOTH_REMOVED
            elif a == SPY and d == ARMY_GENERAL:
                result = ATTACKER_WINS
            elif a == ARMY_GENERAL and d == SPY:
                result = DEFENDER_WINS if spy_wins_defending else ATTACKER_WINS
            elif engineer_beats_tank and {a, d} == {G_ENGINEER, TANK}:
                result = ATTACKER_WINS if a == G_ENGINEER else DEFENDER_WINS
            else:
                result = ATTACKER_WINS if a < d else DEFENDER_WINS
            table[a][d] = result
        table[a][MINE] = ATTACKER_WINS if a in clears else BOTH_REMOVED
        table[a][G_FLAG] = ATTACKER_WINS  # a flag with no own piece behind loses to all
    return tuple(tuple(row) for row in table)


GUNJIN_COMBAT = gunjin_table()
