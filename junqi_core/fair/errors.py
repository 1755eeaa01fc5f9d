"""The refusal every friend-play call and handler raises."""

from __future__ import annotations


class FairError(ValueError):
    """A refused call or message; nothing changed.  `code` is machine-readable."""

    def __init__(self, code: str, message: str, square: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.square = square


def hex_int(text: str) -> int:
    """A hex value already checked by messages.py (or made by this page)."""
    return int(text, 16)
