"""The variant registry: one entry per variant, and its description for the page."""

from __future__ import annotations

from dataclasses import dataclass

from junqi_core.deployment import DEPLOYMENTS
from junqi_core.pieces import OUTCOME_NAMES
from junqi_core.rules import POSITION_CLASSES, Position
from junqi_core.topology import Board


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    position_class: type[Position]
    has_setup: bool
    draw_offers: bool
    hq_frozen: bool
    side_names: tuple[str, str]

    @property
    def board(self) -> Board:
        return self.position_class.spec


VARIANTS: dict[str, Variant] = {
    "classic": Variant(
        "classic", "Classic Junqi", POSITION_CLASSES["classic"], True, True, True, ("Red", "Blue")
    ),
    "blind": Variant(
        "blind",
        "Blind Junqi",
        POSITION_CLASSES["blind"],
        False,
        False,
        False,
        ("First player", "Second player"),
    ),
    "gunjin": Variant(
        "gunjin",
        "Gunjin Shogi",
        POSITION_CLASSES["gunjin"],
        True,
        False,
        False,
        ("Player 1", "Player 2"),
    ),
}


def find_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; variants: {', '.join(VARIANTS)}") from None


def _square_type(board: Board, square: int) -> str:
    if square in board.camps:
        return "camp"
    if square in board.hqs[0] or square in board.hqs[1]:
        return "hq"
    if square in board.stations:
        return "station"
    return "post"


def describe(variant_id: str) -> dict:
    """Everything the page needs to draw the board and explain the pieces (all public)."""
    variant = find_variant(variant_id)
    board = variant.board
    cls = variant.position_class
    names = board.names
    movers = [k for k in cls.kinds if k.movable]
    combat = {
        a.id: {d.id: OUTCOME_NAMES[cls.combat[a.kind][d.kind]] for d in cls.kinds} for a in movers
    }
    if variant_id == "gunjin":
        for row in combat.values():
            row["flag"] = "behind"  # the flag fights with the strength of the piece behind it
    return {
        "id": variant.id,
        "name": variant.name,
        "sides": list(variant.side_names),
        "board": {
            "files": board.files,
            "ranks": board.ranks,
            "squares": [
                {
                    "name": names[s],
                    "x": board.coords[s][0],
                    "y": board.coords[s][1],
                    "type": _square_type(board, s),
                    "half": board.owner_of_square(s),
                    "access": s in board.access,
                    "rail": board.on_rail[s],
                }
                for s in range(board.size)
            ],
            "roads": [[names[a], names[b]] for a, b in board.roads],
            "rails": [[names[a], names[b]] for a, b in board.rails],
            "mountains": [list(m) for m in board.mountains],
            "bridges": [[names[a], names[b]] for a, b in board.bridges],
            "river": bool(board.bridges),
        },
        "pieces": [
            {
                "id": k.id,
                "name": k.name,
                "letter": k.letter,
                "glyph": k.glyph,
                "count": k.count,
                "rank": k.rank,
                "movable": k.movable,
            }
            for k in cls.kinds
        ],
        "combat": combat,
        "rules": {
            "setup": variant.has_setup,
            "draw_offers": variant.draw_offers,
            "hq_frozen": variant.hq_frozen,
            "quiet_limit": cls.quiet_limit,
        },
        "deployment": variant_id in DEPLOYMENTS,
    }
