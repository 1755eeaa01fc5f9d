"""Building hand-made positions for tests: 'Ea2 mc3 ?Xb4' (letter, square; upper case =
colour 0, lower case = colour 1, '?' = face down)."""

from __future__ import annotations

import json

from junqi_core.bridge import handle
from junqi_core.game import Game
from junqi_core.pieces import piece
from junqi_core.rules import Position
from junqi_core.variants import Variant, find_variant


def make_position(
    variant: str | Variant,
    pieces: str,
    turn: int = 0,
    quiet: int = 0,
    ply: int = 0,
    swap: int | None = None,
) -> Position:
    """A position of `variant` (an id for the standard rules, or a Variant)."""
    if isinstance(variant, str):
        variant = find_variant(variant)
    cls = variant.position_class
    letters = {k.letter: k.kind for k in cls.kinds}
    board = [0] * cls.spec.size
    for token in pieces.split():
        face_down = token.startswith("?")
        token = token.lstrip("?")
        letter, square = token[0], token[1:]
        index = cls.spec.square(square)
        assert board[index] == 0, f"two pieces on {square}"
        board[index] = piece(letters[letter.upper()], 1 if letter.islower() else 0, face_down)
    return cls(board, turn=turn, ply=ply, quiet=quiet, swap=swap)


def make_game(variant: str | Variant, pieces: str, **kwargs) -> Game:
    return Game.from_position(make_position(variant, pieces, **kwargs))


def targets(position: Position, square: str) -> set[str]:
    """Names of the squares the piece on `square` may move to or attack."""
    names = position.spec.names
    frm = position.spec.square(square)
    split = position.move_code.split
    return {names[b] for a, b in map(split, position.legal_moves()) if a == frm and b != frm}


def play(game: Game, *actions: str) -> None:
    """Apply actions in order, each by the player whose turn it is (or named in the action)."""
    for action in actions:
        _, _, arg = action.partition(":")
        player = int(arg) if arg.isdigit() else game.turn
        game.apply(player, action)


# --- the bridge, as the page calls it ----------------------------------------------------------


def call(**request) -> dict:
    """One bridge request; every reply carries the API version."""
    reply = json.loads(handle(json.dumps(request)))
    assert reply["v"] == 1
    return reply


def ok(**request) -> dict:
    reply = call(**request)
    assert reply.get("ok") is True, reply
    return reply


def error_code(**request) -> str:
    """The code of a refusal, which always has the documented shape."""
    reply = call(**request)
    assert "ok" not in reply and set(reply["error"]) >= {"code", "message"}, reply
    return reply["error"]["code"]
