"""Wire messages: one JSON object each, versioned, strictly checked before anything happens.

Every message has `v` (the protocol version), `type`, `from` (the sender's role: a page
refuses its own messages sent back to it), `sid` (the session id; null only in the host's
first hello) and `seq` (the sender's message number, from 0, with no gaps; a `resume` has
none).  Each type is a frozen dataclass below whose fields say how each wire
field is checked (`SCHEMAS`: type -> class); a missing, unexpected or wrongly typed field
refuses the whole message.  Group elements are checked here (range and subgroup), so no
handler ever sees a bad one.  `decode` gives the typed message; `encode` writes one.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any, ClassVar

from junqi_core.fair.data import DERIVED, JSON_NAME, OMIT, fields_of, from_json, to_json
from junqi_core.fair.group import GroupError, element_from_hex, hex_bytes
from junqi_core.fair.ot import ROW_BYTES
from junqi_core.fair.state import ClockRules, frozen
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


# An opening nests two deep: {"layout": {square: letter}, "salts": ..., "ot": ...} or
# {"e": ..., "perm": [...]}.  It waits in this page's saved state until the audit reads it,
# so a deeper one would make that state nest deeper than a saved state may (text.MAX_DEPTH):
# it is refused here, and judged by the audit only in shape.
OPENING_DEPTH = 2


def _nesting(x: Any) -> int:
    """How deep lists and objects nest in a value (a message's value nests at most
    text.MAX_DEPTH deep: it was read with that cap)."""
    if isinstance(x, dict):
        return 1 + max(map(_nesting, x.values()), default=0)
    if isinstance(x, list):
        return 1 + max(map(_nesting, x), default=0)
    return 0


def check_opening(x: Any) -> None:
    _object(x)
    if _nesting(x) > OPENING_DEPTH:
        _fail(f"an opening nests lists and objects at most {OPENING_DEPTH} deep")


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
CHECK = "check"


def wire(check: Check, optional: bool = False, json_name: str | None = None) -> Any:
    """A message field and how its wire value is checked (`optional`: may be absent)."""
    default = None if optional else dataclasses.MISSING
    metadata = {CHECK: check, OMIT: optional, JSON_NAME: json_name}
    return dataclasses.field(default=default, metadata=metadata)


def envelope() -> Any:
    """`sid` and `seq`: written around the fields by `encode`, read by `decode`."""
    return dataclasses.field(default=None, metadata={DERIVED: True})


@frozen
class Message:
    """A message: its envelope (`sid`, `seq`, `sender`: the wire's `from`) and, in
    subclasses, its fields."""

    TYPE: ClassVar[str] = ""
    sid: str | None = envelope()
    seq: int | None = envelope()
    sender: str | None = envelope()


SCHEMAS: dict[str, type[Message]] = {}


def message(kind: str) -> Callable[[type], type]:
    def register(cls: type) -> type:
        cls = frozen(cls)
        cls.TYPE = kind  # type: ignore[attr-defined]
        SCHEMAS[kind] = cls
        return cls

    return register


@message("hello")
class Hello(Message):
    role: str = wire(_one_of("host", "guest"))
    nonce: str = wire(DIGEST)
    engine: str = wire(_text(64))
    rules: Any = wire(_rules)
    clock: ClockRules | None = wire(_clock)


@message("commit")
class Commit(Message):
    root: str = wire(DIGEST)


@message("commitments")
class Commitments(Message):
    commitments: tuple[str, ...] = wire(_list(DIGEST, 1, 64), json_name="list")
    key: str = wire(ELEMENT)


@message("deck")
class Deck(Message):
    cards: tuple[str, ...] = wire(_list(ELEMENT, 50, 50))


@message("act")
class Act(Message):
    h: int = wire(H)
    action: str = wire(_text(32))
    ot: str | None = wire(ELEMENT, optional=True)
    share: str | None = wire(ELEMENT, optional=True)
    claim: str | None = wire(_one_of("occupation"), optional=True)
    ack: int | None = wire(_int(0, 10**9), optional=True)


@message("ot_reply")
class OtReply(Message):
    h: int = wire(H)
    rows: tuple[str, ...] = wire(CIPHERS)
    ot: str = wire(ELEMENT)
    key: str = wire(ELEMENT)


@message("ot_rows")
class OtRows(Message):
    h: int = wire(H)
    rows: tuple[str, ...] = wire(CIPHERS)
    outcome: int = wire(_int(1, 7))
    key: str = wire(ELEMENT)
    claim: str | None = wire(_one_of("occupation"), optional=True)


@message("flip_share")
class FlipShare(Message):
    h: int = wire(H)
    share: str = wire(ELEMENT)
    card: int = wire(_int(0, 49))


@message("status")
class Status(Message):
    h: int = wire(H)
    mobile: bool = wire(_bool)


@message("status_reply")
class StatusReply(Message):
    h: int = wire(H)
    mobile: bool = wire(_bool)


@message("reveal")
class Reveal(Message):
    h: int = wire(H)
    square: str = wire(_text(8))
    salt: str = wire(_hex(16))


@message("request")
class Request(Message):
    h: int = wire(H)
    action: str = wire(_text(32))
    id: int = wire(_int(0, 10**9))


@message("resign")
class Resign(Message):
    h: int = wire(H)


@message("claim_timeout")
class ClaimTimeout(Message):
    h: int | None = wire(H, optional=True)  # none: the other side's deployment


@message("abandon")
class Abandon(Message):
    pass


@message("dispute")
class Dispute(Message):
    h: int = wire(H)
    reason: str = wire(_text(200))


@message("open")
class Open(Message):
    secrets: Any = wire(check_opening)


@message("rematch")
class Rematch(Message):
    nonce: str = wire(DIGEST)


@message("taken")
class Taken(Message):
    """To a third page that answered an invitation already used: the only message of that
    channel (sid null, seq 0); its page tells its player and stops."""


@message("resume")
class Resume(Message):
    recv: int = wire(_int(0, 10**9))
    chain: str = wire(DIGEST)
    sent: int = wire(_int(0, 10**9))
    answer: bool = wire(_bool)


def encode(value: Message | dict) -> str:
    """The wire text of a message (envelope and fields), or of any JSON object."""
    if isinstance(value, Message):
        head: dict[str, Any] = {"v": PROTOCOL, "type": value.TYPE, "sid": value.sid}
        head["from"] = value.sender
        if not isinstance(value, Resume):
            head["seq"] = value.seq
        value = {**head, **to_json(value)}
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def decode(text: Any) -> Message:
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
    cls = SCHEMAS[kind]
    schema = {f.key: f for f in fields_of(cls)}
    envelope = {"v", "type", "from", "sid"} | (set() if cls is Resume else {"seq"})
    fields = set(message) - envelope
    required = {key for key, f in schema.items() if f.required}
    if not envelope <= set(message):
        raise MessageError("malformed", f"a {kind} message lacks {sorted(envelope - set(message))}")
    if fields - set(schema):
        raise MessageError(
            "malformed", f"unexpected fields {quote(sorted(fields - set(schema)))} in {kind}"
        )
    if required - fields:
        raise MessageError("malformed", f"a {kind} message lacks {sorted(required - fields)}")
    sid, seq, sender = message.get("sid"), message.get("seq"), message["from"]
    if cls is not Resume:
        _int(0, 10**9)(seq)
    try:
        _one_of("host", "guest")(sender)
    except MessageError as error:
        raise MessageError(error.code, f"{kind}.from: {error}") from None
    if sid is not None:
        DIGEST(sid)
    checks = {f.name: f.metadata[CHECK] for f in dataclasses.fields(cls) if CHECK in f.metadata}
    values = {}
    for key in fields:
        f = schema[key]
        try:
            checks[f.name](message[key])
        except MessageError as error:
            raise MessageError(error.code, f"{kind}.{key}: {error}") from None
        values[f.name] = from_json(f.hint, message[key], f"{kind}.{key}")
    return cls(sid=sid, seq=seq, sender=sender, **values)
