"""Wire messages: one JSON object each, versioned, strictly checked before anything happens.

Every message has `v` (the protocol version), `type`, `sid` (the session id; null only in
the host's first hello) and `seq` (the sender's message number, from 0, with no gaps; a
`resume` has none).  The fields of each type are listed in `SCHEMAS`; a missing,
unexpected or wrongly typed field refuses the whole message.  Group elements are checked
here (range and subgroup), so no handler ever sees a bad one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from junqi_core.fair.group import GroupError, element_from_hex, hex_bytes
from junqi_core.fair.ot import ROW_BYTES
from junqi_core.text import JsonRefused, load_json, quote

PROTOCOL = 1
MAX_MESSAGE_CHARS = 200_000
MAX_H = 20_000  # actions in a game (record.MAX_ACTIONS)


class MessageError(ValueError):
    """A refused message: `code` is machine-readable, the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


Check = Callable[[Any], None]


def _fail(message: str) -> None:
    raise MessageError("malformed", message)


def _int(lo: int, hi: int) -> Check:
    def check(x: Any) -> None:
        if not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi:
            _fail(f"expected a whole number from {lo} to {hi}")

    return check


def _bool(x: Any) -> None:
    if not isinstance(x, bool):
        _fail("expected true or false")


def _text(limit: int) -> Check:
    def check(x: Any) -> None:
        if not isinstance(x, str) or not 0 < len(x) <= limit:
            _fail(f"expected a text of at most {limit} characters")

    return check


def _hex(size: int) -> Check:
    def check(x: Any) -> None:
        try:
            hex_bytes(x, size, "a value")
        except GroupError as error:
            _fail(str(error))

    return check


def _element(x: Any) -> None:
    try:
        element_from_hex(x)
    except GroupError as error:
        raise MessageError("bad_element", str(error)) from None


def _list(item: Check, lo: int, hi: int) -> Check:
    def check(x: Any) -> None:
        if not isinstance(x, list) or not lo <= len(x) <= hi:
            _fail(f"expected a list of {lo} to {hi} items")
        for value in x:
            item(value)

    return check


def _one_of(*values: str) -> Check:
    def check(x: Any) -> None:
        if x not in values:
            _fail(f"expected one of {', '.join(values)}")

    return check


def _object(x: Any) -> None:
    if not isinstance(x, dict):
        _fail("expected an object")


def _rules(x: Any) -> None:
    if not isinstance(x, dict) or set(x) != {"variant", "preset", "options"}:
        _fail("rules are {variant, preset, options}")
    _text(32)(x["variant"])
    if x["preset"] is not None:
        _text(32)(x["preset"])
    _object(x["options"])


def _clock(x: Any) -> None:
    if x is None:
        return
    if not isinstance(x, dict) or set(x) != {"deploy", "move"}:
        _fail("a clock is null or {deploy, move} in seconds")
    _int(1, 3600)(x["deploy"])
    _int(1, 3600)(x["move"])


H = _int(0, MAX_H)
ELEMENT: Check = _element
DIGEST = _hex(32)
CIPHERS = _list(_hex(ROW_BYTES), 1, 32)
OPTIONAL = "optional"

SCHEMAS: dict[str, dict[str, Check | tuple[str, Check]]] = {
    "hello": {
        "role": _one_of("host", "guest"),
        "nonce": DIGEST,
        "engine": _text(64),
        "rules": _rules,
        "clock": _clock,
    },
    "commit": {"root": DIGEST},
    "commitments": {"list": _list(DIGEST, 1, 64), "key": ELEMENT},
    "deck": {"cards": _list(ELEMENT, 50, 50)},
    "act": {
        "h": H,
        "action": _text(32),
        "ot": (OPTIONAL, ELEMENT),
        "share": (OPTIONAL, ELEMENT),
        "claim": (OPTIONAL, _one_of("occupation")),
        "ack": (OPTIONAL, _int(0, 10**9)),
    },
    "ot_reply": {"h": H, "rows": CIPHERS, "ot": ELEMENT, "key": ELEMENT},
    "ot_rows": {
        "h": H,
        "rows": CIPHERS,
        "outcome": _int(1, 7),
        "key": ELEMENT,
        "claim": (OPTIONAL, _one_of("occupation")),
    },
    "flip_share": {"h": H, "share": ELEMENT, "card": _int(0, 49)},
    "status": {"h": H, "mobile": _bool},
    "status_reply": {"h": H, "mobile": _bool},
    "reveal": {"h": H, "square": _text(8), "salt": _hex(16)},
    "request": {"h": H, "action": _text(32), "id": _int(0, 10**9)},
    "resign": {"h": H},
    "claim_timeout": {"h": (OPTIONAL, H)},
    "abandon": {},
    "dispute": {"h": H, "reason": _text(200)},
    "open": {"secrets": _object},
    "rematch": {"nonce": DIGEST},
    "resume": {"recv": _int(0, 10**9), "chain": DIGEST, "sent": _int(0, 10**9), "answer": _bool},
    # to a third page that answered an invitation already used: the only message of that
    # channel (sid null, seq 0); its page tells its player and stops
    "taken": {},
}


def encode(message: dict) -> str:
    return json.dumps(message, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def decode(text: Any) -> dict:
    """Parse and check one message; raise MessageError saying what is wrong."""
    if not isinstance(text, str):
        raise MessageError("malformed", "a message is JSON text")
    if len(text) > MAX_MESSAGE_CHARS:
        raise MessageError("too_large", f"messages are limited to {MAX_MESSAGE_CHARS} characters")
    try:
        message = load_json(text, "the message")
    except JsonRefused as error:
        raise MessageError("malformed", str(error)) from None
    if not isinstance(message, dict):
        raise MessageError("malformed", "a message is a JSON object")
    version = message.get("v")
    if type(version) is not int:  # 1.0 and true equal 1 in Python: not a version
        raise MessageError("malformed", "v is the protocol version, a whole number")
    if version != PROTOCOL:
        raise MessageError(
            "version_mismatch", f"protocol version {quote(version)}; this page speaks {PROTOCOL}"
        )
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise MessageError("unknown_type", f"unknown message type {quote(kind)}")
    schema = SCHEMAS[kind]
    envelope = {"v", "type", "sid"} | (set() if kind == "resume" else {"seq"})
    fields = set(message) - envelope
    allowed = set(schema)
    required = {k for k, v in schema.items() if not isinstance(v, tuple)}
    if not envelope <= set(message):
        raise MessageError("malformed", f"a {kind} message lacks {sorted(envelope - set(message))}")
    if fields - allowed:
        raise MessageError(
            "malformed", f"unexpected fields {quote(sorted(fields - allowed))} in {kind}"
        )
    if required - fields:
        raise MessageError("malformed", f"a {kind} message lacks {sorted(required - fields)}")
    if kind != "resume":
        _int(0, 10**9)(message["seq"])
    if message["sid"] is not None:
        DIGEST(message["sid"])
    for name in fields:
        check = schema[name]
        if isinstance(check, tuple):
            check = check[1]
        try:
            check(message[name])
        except MessageError as error:
            raise MessageError(error.code, f"{kind}.{name}: {error}") from None
    return message
