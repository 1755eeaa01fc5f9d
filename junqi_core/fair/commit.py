"""Layout commitments (Classic, Gunjin): one salted hash per starting square, and a root.

    c_s  = H("commit/square", sid, seat, square, piece letter, salt_s)   (salt: 16 random bytes)
    root = H("commit/layout", sid, seat, c_1, ..., c_n)                 (squares in board order)

The root is sent first; the list only once both roots are known, so neither side can choose
its layout after seeing anything of the other's.  The hashes hide the pieces (each has 128
secret bits of salt) and bind them (SHA-256 collision resistance).  Any single square can be
opened on its own (a flag shown when the Field Marshal falls); the audit opens them all.
"""

from __future__ import annotations

import secrets

from junqi_core.fair.group import digest

SALT_BYTES = 16
DIGEST_HEX = 64


def new_salts(squares: list[str]) -> dict[str, str]:
    return {square: secrets.token_hex(SALT_BYTES) for square in squares}


def square_commitment(sid: str, seat: int, square: str, letter: str, salt: str) -> str:
    return digest("commit/square", sid, seat, square, letter, bytes.fromhex(salt)).hex()


def layout_root(sid: str, seat: int, commitments: list[str]) -> str:
    return digest("commit/layout", sid, seat, *(bytes.fromhex(c) for c in commitments)).hex()


def commit_layout(
    sid: str, seat: int, squares: list[str], layout: dict[str, str], salts: dict[str, str]
) -> list[str]:
    """The per-square commitments, in the order of `squares`."""
    return [square_commitment(sid, seat, s, layout[s], salts[s]) for s in squares]


def opening_errors(
    sid: str,
    seat: int,
    squares: list[str],
    commitments: list[str],
    layout: dict[str, str],
    salts: dict[str, str],
) -> str | None:
    """The first square whose opening does not match its commitment, or None."""
    for square, commitment in zip(squares, commitments, strict=True):
        letter, salt = layout.get(square), salts.get(square)
        if letter is None or salt is None:
            return square
        if square_commitment(sid, seat, square, letter, salt) != commitment:
            return square
    return None
