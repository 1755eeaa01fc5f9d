"""Moves as small ints: the one place that knows how a move is built and taken apart.

A move names the post a piece leaves and the post it goes to; a flip (Blind) goes from
a post to itself, and `MoveCode.PASS` is the turn lost to the clock.  How many posts a
board has decides how wide the numbers are (`move_code(board.size)`, also `Board.move_code`),
so a board of 129 posts gets moves as well as one of 63.

Everything else reads moves through a `MoveCode`: `frm[m]` and `to[m]` (tables, as fast as
taking bits apart in CPython and faster in Pyodide), `at[frm][to]` to build one (a
piece's row once, then one look-up per destination), or the methods below where speed
does not matter.  Moves stay plain ints so that the search can sort and hash them.
"""

from __future__ import annotations

import functools

Move = int


class MoveCode:
    """How moves are numbered on a board of `size` posts."""

    __slots__ = ("PASS", "at", "frm", "size", "to")

    def __init__(self, size: int) -> None:
        bits = max(1, (size - 1).bit_length())  # enough to number every post
        posts = 1 << bits
        self.size = size
        # a turn lost to the clock: past every move (no post on either side)
        self.PASS: Move = posts * posts
        self.frm: tuple[int, ...] = (*(m >> bits for m in range(self.PASS)), -1)
        self.to: tuple[int, ...] = (*(m & (posts - 1) for m in range(self.PASS)), -1)
        self.at: tuple[tuple[Move, ...], ...] = tuple(
            tuple(frm << bits | to for to in range(size)) for frm in range(size)
        )

    def move(self, frm: int, to: int) -> Move:
        return self.at[frm][to]

    def flip(self, square: int) -> Move:
        """Blind: turning the piece on `square` face up."""
        return self.at[square][square]

    def is_flip(self, move: Move) -> bool:
        return move != self.PASS and self.frm[move] == self.to[move]

    def split(self, move: Move) -> tuple[int, int]:
        """(the post left, the post reached) of a move other than PASS."""
        return self.frm[move], self.to[move]

    def __repr__(self) -> str:
        return f"<MoveCode for {self.size} posts>"


@functools.cache
def move_code(size: int) -> MoveCode:
    """The numbering of moves on a board of `size` posts (one per size)."""
    return MoveCode(size)
