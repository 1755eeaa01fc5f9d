"""Rule options and presets as data: what a player may change in a variant's rules.

`variants` builds a Variant from them; a variant's own module (Siguo's, say) lists its
options here without importing `variants`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from junqi_core.text import quote


class RulesError(ValueError):
    """Rules that cannot be played: an unknown variant, preset or option, or a bad value.
    `code` is machine-readable (`unknown_variant`, `unknown_preset`, `bad_option`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class RuleOption:
    """One rule a player may change.  Booleans have choices (False, True)."""

    id: str
    name: str
    description: str
    choices: tuple[Any, ...]
    default: Any
    choice_names: tuple[str, ...] = ()

    def to_json(self) -> dict:
        boolean = self.choices == (False, True)
        out = {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "type": "bool" if boolean else "choice",
            "choices": list(self.choices),
            "default": self.default,
        }
        if self.choice_names:
            out["choice_names"] = list(self.choice_names)
        return out

    def check(self, value: Any) -> Any:
        # bool is an int in Python: never let True stand for 1 or 1 for True
        for choice in self.choices:
            if type(choice) is type(value) and choice == value:
                return choice
        allowed = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in self.choices)
        raise RulesError(
            "bad_option", f"option {self.id!r} takes one of: {allowed} (got {quote(value)})"
        )


@dataclass(frozen=True)
class Preset:
    id: str
    name: str
    description: str
    options: Mapping[str, Any]

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "options": dict(self.options),
        }
