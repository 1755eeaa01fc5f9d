"""The CPU player interface and the random player (the floor every level must beat).

A player is created from a variant, a level and a seed, and only ever receives its own
view (`views.view`) and its own events.  It never sees the `Game`.
"""

from __future__ import annotations

import random
from typing import Protocol

from junqi_core.text import quote
from junqi_core.variants import Variant, find_variant


class Player(Protocol):
    """What the bridge and the arena need from a CPU player."""

    level: str

    def deploy(self, view: dict) -> dict[str, str]:
        """A layout {square: piece id} for this player's half (classic, gunjin)."""

    def observe(self, event: dict) -> None:
        """One action as this player saw it happen."""

    def choose(self, view: dict, legal: list[str]) -> str:
        """One of the legal actions (strings in notation)."""

    def answer_draw(self, view: dict) -> bool:
        """Accept (True) or decline a pending draw offer."""


class RandomPlayer:
    """Uniformly random legal actions and layouts."""

    level = "random"

    def __init__(self, variant: Variant, player: int, seed: int = 0) -> None:
        self.variant = variant
        self.player = player
        self.seed = seed
        self.rng = random.Random(seed)

    def deploy(self, view: dict) -> dict[str, str]:
        rules = self.variant.deployment
        assert rules is not None
        kinds = {k.kind: k.id for k in rules.kinds}
        names = self.variant.board.names
        layout = rules.random_layout(self.player, self.rng)
        return {names[s]: kinds[k] for s, k in layout.items()}

    def observe(self, event: dict) -> None:
        pass

    def choose(self, view: dict, legal: list[str]) -> str:
        return self.rng.choice(legal)

    def answer_draw(self, view: dict) -> bool:
        return self.rng.random() < 0.5


def _cpu_levels() -> dict[str, type]:
    from junqi_core.ai.player import EasyPlayer, HardPlayer, MediumPlayer

    return {"easy": EasyPlayer, "medium": MediumPlayer, "hard": HardPlayer}


# The levels the page offers (the bridge's `version` op lists them).
LEVELS: dict[str, type] = {"random": RandomPlayer, **_cpu_levels()}


def bots() -> dict[str, type]:
    """The gauntlet bots (`junqi_core.bots`): sparring partners for measuring the levels
    in the arena, not offered in the page; imported only when one is asked for."""
    from junqi_core.bots import BOTS

    return BOTS


def make_player(variant: Variant | str, level: str, player: int, seed: int = 0) -> Player:
    """A CPU player of the given level or bot for `variant`'s rules (a Variant, or a
    variant id for its standard rules); raises ValueError for an unknown name."""
    if isinstance(variant, str):
        variant = find_variant(variant)
    cls = (LEVELS.get(level) or bots().get(level)) if isinstance(level, str) else None
    if cls is None:
        names = ", ".join([*LEVELS, *bots()])
        raise ValueError(f"unknown level {quote(level)}; levels and bots: {names}")
    return cls(variant, player, seed)
