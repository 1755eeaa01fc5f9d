"""What a combat's oblivious transfers carry: one byte per possible hidden piece.

A row is the outcome code seen from the attacker (pieces.ATTACKER_WINS / DEFENDER_WINS /
BOTH_REMOVED) plus FLAG_TAKEN when the defender was a flag whose loss ends the game
(Classic).  Row 0 marks an index no real piece can have (e.g. a landmine attacking).

Indices are piece kinds.  The attacker's index is its kind.  The defender's is the kind it
fights with: its own, except a Gunjin flag, which fights with the strength of its own piece
directly behind it (the defender knows both); a flag with nothing of its own behind keeps
the flag's index, which loses to every attacker.
"""

from __future__ import annotations

from junqi_core.pieces import COLOUR_BIT, DEFENDER_WINS, KIND_MASK, colour_of
from junqi_core.rules import GunjinPosition, Position

FLAG_TAKEN = 4
RESULT_MASK = 3


def row_count(position_class: type[Position]) -> int:
    return max(k.kind for k in position_class.kinds) + 1


def _flag_ends(position_class: type[Position]) -> bool:
    return not issubclass(position_class, GunjinPosition)


def _movers(position_class: type[Position]) -> set[int]:
    return {k.kind for k in position_class.kinds if k.movable}


def _defenders(position_class: type[Position]) -> set[int]:
    return {k.kind for k in position_class.kinds}


def row(position_class: type[Position], attacker: int, defender_index: int, defender: int) -> int:
    """The row for attacker kind `attacker` against a defender of kind `defender` that
    fights with index `defender_index`."""
    if attacker not in _movers(position_class) or defender_index not in _defenders(position_class):
        return 0
    result = position_class.combat[attacker][defender_index]
    flag = _flag_ends(position_class) and defender == position_class.flag_kind
    if flag and result != DEFENDER_WINS:
        result |= FLAG_TAKEN
    return result


def rows_for_attacker_index(position_class: type[Position], defender: int, index: int) -> list[int]:
    """The defender's rows: one per possible attacker kind."""
    return [row(position_class, i, index, defender) for i in range(row_count(position_class))]


def rows_for_defender_index(position_class: type[Position], attacker: int) -> list[int]:
    """The attacker's rows: one per possible defender index (kind it fights with)."""
    return [row(position_class, attacker, j, j) for j in range(row_count(position_class))]


def defender_index(position: Position, square: int) -> int:
    """The kind the piece on `square` fights with when attacked."""
    p = position.board[square]
    kind = p & KIND_MASK
    flag_behind = getattr(position, "flag_behind", True)  # a Gunjin rule option
    if isinstance(position, GunjinPosition) and kind == position.flag_kind and flag_behind:
        behind = position.tables.behind[colour_of(p)][square]
        if behind is not None:
            q = position.board[behind]
            if q and q & COLOUR_BIT == p & COLOUR_BIT:
                return q & KIND_MASK
    return kind


def possible_as_attacker(position_class: type[Position], attacker: int) -> set[int]:
    """Rows an attacker of this kind can meet (a row outside it is a lie)."""
    return set(rows_for_defender_index(position_class, attacker)) - {0}


def possible_as_defender(position_class: type[Position], defender: int, index: int) -> set[int]:
    """Rows a defender of this kind (fighting with `index`) can meet."""
    return {row(position_class, i, index, defender) for i in _movers(position_class)} - {0}
