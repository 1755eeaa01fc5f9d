"""Short quotations of what a caller sent, for error messages that never echo a lot."""

from __future__ import annotations

from typing import Any

QUOTE_LIMIT = 40


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """`repr(value)`, cut to `limit` characters with '...' when longer."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
