"""What a caller sent: short quotations for error messages that never echo a lot, and JSON
read with a cap on nesting (every door of the engine reads its JSON here)."""

from __future__ import annotations

import json
import re
from typing import Any

QUOTE_LIMIT = 40
MAX_DEPTH = 32  # lists and objects inside each other; our own deepest (a friend state) has 6


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """`repr(value)`, cut to `limit` characters with '...' when longer (a value nested too
    deep to print is named by its type)."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"<a {type(value).__name__} nested too deep to show>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


# Pieces of JSON text in order: a whole string (escapes included), or a run without quotes.
_PIECE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[^"]+', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"[\[{][\]}]")


def nests_deeper(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the lists and objects of a JSON text nest more than `limit` deep, told from
    the text before any parser recurses into it (in Pyodide, the parser overflows the
    WebAssembly stack long before Python's recursion limit).  Linear in the text; a text
    that is not JSON (a string never closed, brackets that do not pair) may count as too
    deep, and is refused either way."""
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = []
    pos = 0
    while pos < len(text):
        piece = _PIECE.match(text, pos)
        if piece is None:
            return True  # a string that never closes: not JSON
        if text[pos] != '"':
            brackets.append(_NOT_BRACKET.sub("", piece.group()))
        pos = piece.end()
    nesting = "".join(brackets)
    for _ in range(limit):  # each pass takes away the innermost pairs: one level
        nesting, pairs = _INNERMOST.subn("", nesting)
        if not nesting or not pairs:
            break
    return bool(nesting)


class JsonRefused(ValueError):
    """JSON text that is refused before anything reads it: `code` is `bad_json` or
    `too_deep`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def load_json(text: str, what: str = "the text", limit: int = MAX_DEPTH) -> Any:
    """The value of a JSON text whose lists and objects nest at most `limit` deep (checked
    before the parser sees it); the refusal's message names the text as `what`."""
    if nests_deeper(text, limit):
        raise JsonRefused("too_deep", f"{what} nests lists and objects more than {limit} deep")
    try:
        return json.loads(text)
    except ValueError:
        raise JsonRefused("bad_json", f"{what} is not valid JSON") from None
