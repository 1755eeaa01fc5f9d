"""What a caller sent: short quotations for error messages that never echo a lot, and JSON
read with a cap on nesting (every door of the engine reads its JSON here)."""

from __future__ import annotations

import json
from typing import Any

QUOTE_LIMIT = 40
MAX_DEPTH = 32  # lists and objects inside each other; no message of ours needs 8


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """`repr(value)`, cut to `limit` characters with '...' when longer (a value nested too
    deep to print is named by its type)."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"<a {type(value).__name__} nested too deep to show>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether lists and objects nest more than `limit` levels in a parsed JSON value.
    Iterative, so it measures any depth the parser returned without recursing."""
    stack = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


class JsonRefused(ValueError):
    """JSON text that is refused before anything reads it: `code` is `bad_json` or
    `too_deep`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def load_json(text: str, what: str = "the text", limit: int = MAX_DEPTH) -> Any:
    """The value of a JSON text whose lists and objects nest at most `limit` deep; the
    refusal's message names the text as `what`."""
    deep = f"{what} nests lists and objects more than {limit} deep"
    try:
        value = json.loads(text)
    except RecursionError:
        raise JsonRefused("too_deep", deep) from None
    except ValueError:
        raise JsonRefused("bad_json", f"{what} is not valid JSON") from None
    if too_deep(value, limit):
        raise JsonRefused("too_deep", deep)
    return value
