"""Typed data to JSON and back: the one place friend play's state and messages meet JSON.

The state (state.py) and the messages (messages.py) are frozen dataclasses of plain values,
tuples, dicts with text keys and other such dataclasses.  `to_json` writes one as JSON
values; `from_json` reads one back from JSON values, checking every value's type, and
raises `ShapeError` naming where the first value that does not fit is
(`session.mine.layout.a1`).  Field metadata, set with the helpers below:

- `optional()`: left out of the JSON while None (and None when absent);
- `derived()`: not data at all (a cache rebuilt from the data, such as the seat's game);
- `named(json_name)`: the JSON name differs from the Python name (`list`, `open`, `type`).

A class may write itself another way (`Custom`: say a clock deadline as `[owed, since]`).
A field typed as a union of dataclasses tells them apart by their `kind` field.
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import types
import typing
from functools import cache
from typing import Any

OMIT = "omit_when_none"
DERIVED = "derived"
JSON_NAME = "json_name"
PLAIN = frozenset({str, int, float, bool, type(None)})


class ShapeError(ValueError):
    """A JSON value that does not have the shape of the typed data; `path` says where."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path or 'the value'}: {message}")
        self.path = path


def optional(json_name: str | None = None) -> Any:
    """A field that is None unless given, and absent from the JSON while None."""
    return dataclasses.field(default=None, metadata={OMIT: True, JSON_NAME: json_name})


def derived(default: Any = None) -> Any:
    """A field that is not data: never written, never compared, rebuilt after loading."""
    return dataclasses.field(default=default, compare=False, repr=False, metadata={DERIVED: True})


def named(json_name: str, default: Any = dataclasses.MISSING) -> Any:
    """A field written under another name in JSON."""
    return dataclasses.field(default=default, metadata={JSON_NAME: json_name})


class Custom:
    """A dataclass that writes and reads its own JSON form."""

    def to_json(self) -> Any:
        raise NotImplementedError

    @classmethod
    def from_json(cls, value: Any, path: str) -> Any:
        raise NotImplementedError


class Field(typing.NamedTuple):
    name: str  # in Python
    key: str  # in JSON
    hint: Any
    omit: bool  # optional: absent while None
    required: bool  # in JSON: every field but the optional ones


@cache
def fields_of(cls: type) -> tuple[Field, ...]:
    """The data fields of a dataclass (derived ones left out), with their JSON names."""
    out = []
    for f in dataclasses.fields(cls):
        if f.metadata.get(DERIVED):
            continue
        omit = bool(f.metadata.get(OMIT))
        key = f.metadata.get(JSON_NAME) or f.name
        out.append(Field(f.name, key, _hint(cls, f), omit, not omit))
    return tuple(out)


def _hint(cls: type, f: dataclasses.Field) -> Any:
    """A field's type (annotations are text here: read in the module that wrote them; a
    derived field's type, which may exist only for type checkers, is never read)."""
    if not isinstance(f.type, str):
        return f.type
    owner = next(c for c in cls.__mro__ if f.name in inspect.get_annotations(c))
    return eval(f.type, vars(sys.modules[owner.__module__]))


# --- writing ------------------------------------------------------------------------------


def to_json(value: Any) -> Any:
    """Plain JSON values (dicts, lists, text, numbers, booleans, None) for typed data."""
    kind = type(value)
    if kind in PLAIN:
        return value
    if kind is tuple or kind is list:
        return [x if type(x) in PLAIN else to_json(x) for x in value]
    if kind is dict:
        return {k: x if type(x) in PLAIN else to_json(x) for k, x in value.items()}
    return _writer(kind)(value)


@cache
def _writer(cls: type) -> Any:
    """How instances of a class are written (worked out once per class)."""
    if issubclass(cls, Custom):
        return cls.to_json
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"no JSON form for {cls.__name__}")
    fields = [(f.name, f.key, f.omit) for f in fields_of(cls)]

    def write(value: Any) -> dict:
        out = {}
        for name, key, omit in fields:
            item = getattr(value, name)
            if item is None:
                if not omit:
                    out[key] = None
            else:
                out[key] = item if type(item) in PLAIN else to_json(item)
        return out

    return write


# --- reading ------------------------------------------------------------------------------


def from_json(hint: Any, value: Any, path: str = "") -> Any:
    """Typed data of type `hint` from JSON values; ShapeError where they do not fit."""
    if hint is Any:
        return value
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return _union(typing.get_args(hint), value, path)
    if origin is tuple:
        item = typing.get_args(hint)[0]
        if not isinstance(value, list):
            raise ShapeError(path, "expected a list")
        return tuple(from_json(item, x, f"{path}[{i}]") for i, x in enumerate(value))
    if origin is dict:
        item = typing.get_args(hint)[1]
        if not isinstance(value, dict):
            raise ShapeError(path, "expected an object")
        return {k: from_json(item, x, f"{path}.{k}") for k, x in value.items()}
    if isinstance(hint, type) and issubclass(hint, Custom):
        return hint.from_json(value, path)
    if dataclasses.is_dataclass(hint):
        return _dataclass(hint, value, path)
    return _plain(hint, value, path)


def _plain(hint: Any, value: Any, path: str) -> Any:
    if hint is bool:
        ok = isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif hint is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif hint is str:
        ok = isinstance(value, str)
    elif hint is type(None):
        ok = value is None
    else:
        raise TypeError(f"no JSON form for {hint!r}")
    if not ok:
        raise ShapeError(path, f"expected {getattr(hint, '__name__', hint)}")
    return value


def _union(options: tuple, value: Any, path: str) -> Any:
    if value is None:
        if type(None) in options:
            return None
        raise ShapeError(path, "expected a value, not null")
    options = tuple(o for o in options if o is not type(None))
    if len(options) == 1:
        return from_json(options[0], value, path)
    # dataclasses told apart by their `kind` (state.py's exchanges in progress)
    kind = value.get("kind") if isinstance(value, dict) else None
    for option in options:
        if dataclasses.is_dataclass(option) and _kind_of(option) == kind:
            return _dataclass(option, value, path)
    raise ShapeError(path, f"unknown kind {kind!r}")


def _kind_of(cls: type) -> Any:
    f = next((f for f in dataclasses.fields(cls) if f.name == "kind"), None)
    return None if f is None else f.default


def _dataclass(cls: type, value: Any, path: str) -> Any:
    if not isinstance(value, dict):
        raise ShapeError(path, "expected an object")
    fields = fields_of(cls)
    unknown = set(value) - {f.key for f in fields}
    if unknown:
        raise ShapeError(path, f"unexpected fields {sorted(unknown)}")
    kwargs = {}
    for f in fields:
        where = f"{path}.{f.key}" if path else f.key
        if f.key in value:
            kwargs[f.name] = from_json(f.hint, value[f.key], where)
        elif f.required:
            raise ShapeError(where, "missing")
    return cls(**kwargs)
