"""The CPU player interface and the random player (the floor every level must beat).

A player is created from a variant, a level and a seed, and only ever receives its own
view (`views.view`) and its own events.  It never sees the `Game`.  A player whose next
choices depend on more than its seed and the view (the random player's generator) also
has `state()` and `restore_state(state)`, so that a saved game goes on with the same
choices (docs/records.md, "Saved games"); that state is as secret as the seed.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

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


MT_VERSION = 3  # random.Random.getstate(): (3, 624 words + position, gauss_next)
MT_WORDS = 624


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

    def state(self) -> list[int]:
        """Where the generator stands (what the next choices are drawn from): the
        Mersenne Twister's 624 words and its position, as whole numbers for JSON."""
        version, words, gauss_next = self.rng.getstate()
        assert version == MT_VERSION and gauss_next is None  # never draws from gauss()
        return list(words)

    def restore_state(self, state: Any) -> None:
        """Go on from a `state()`; ValueError for anything that is not one."""
        if (
            not isinstance(state, list)
            or len(state) != MT_WORDS + 1
            or not all(type(word) is int and 0 <= word < 2**32 for word in state)
            or not state[-1] <= MT_WORDS
            or not any(state[:-1])  # all zeros: a generator stuck at zero for ever
        ):
            raise ValueError(f"a random player's state is {MT_WORDS + 1} whole numbers")
        self.rng.setstate((MT_VERSION, tuple(state), None))


def _cpu_levels() -> dict[str, type]:
    from junqi_core.ai.player import EasyPlayer, HardPlayer, MediumPlayer

    return {"easy": EasyPlayer, "medium": MediumPlayer, "hard": HardPlayer}


# The levels the page offers (the bridge's `version` op lists them).
LEVELS: dict[str, type] = {"random": RandomPlayer, **_cpu_levels()}


def team_levels() -> dict[str, type]:
    """The CPU levels for a game of four seats in two teams (`Variant.seats` > 2): their
    own players (`ai.siguo`), which think about three other armies and a partner."""
    from junqi_core.ai.siguo.player import SIGUO_LEVELS

    return SIGUO_LEVELS


def variant_levels(variant: Variant) -> list[str]:
    """The levels of `LEVELS` that play `variant`'s seats (the page offers only these: no
    level is another level under its name)."""
    if variant.seats <= 2:
        return list(LEVELS)
    return [level for level in LEVELS if level == "random" or level in team_levels()]


def bots() -> dict[str, type]:
    """The gauntlet bots (`junqi_core.bots`): sparring partners for measuring the levels
    in the arena, not offered in the page; imported only when one is asked for."""
    from junqi_core.bots import BOTS

    return BOTS


def make_player(variant: Variant | str, level: str, player: int, seed: int = 0) -> Player:
    """A CPU player of the given level or bot for `variant`'s rules (a Variant, or a
    variant id for its standard rules); raises ValueError for an unknown name.  A game of
    more than two seats gets its own CPU levels (`team_levels`), and a ValueError for a
    level it does not have yet."""
    if isinstance(variant, str):
        variant = find_variant(variant)
    cls = (LEVELS.get(level) or bots().get(level)) if isinstance(level, str) else None
    if cls is not None and variant.seats > 2 and level in LEVELS and level != "random":
        cls = team_levels().get(level)
        if cls is None:
            raise ValueError(f"{level.capitalize()} is not offered for {variant.name} yet")
    if cls is None:
        names = ", ".join([*LEVELS, *bots()])
        raise ValueError(f"unknown level {quote(level)}; levels and bots: {names}")
    if variant.seats > 2 and level not in LEVELS:  # the gauntlet bots play two seats
        raise ValueError(f"{level} does not play {variant.name}")
    return cls(variant, player, seed)
