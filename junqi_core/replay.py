"""A game replayed position by position, as one seat saw it or with everything shown.

`replay(record, viewer)` steps through a record with the normal engine and keeps, after
every action, the `views.frame` of that moment and the event as the viewer saw it then.
A seat's replay therefore holds exactly what that seat knew at each point (its own
ranks, what combats and flips told it, everything once the game is over).  `viewer=ALL`
shows every piece at every point: only for a finished game, whose record is public.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from junqi_core.game import OVER, Game
from junqi_core.record import import_record
from junqi_core.views import Event, Frame, event, frame

ALL = "all"
VIEWPOINTS: tuple[int | str, ...] = (0, 1, 2, 3, ALL)  # a seat (two or four), or everything
MAX_REPLAY_ACTIONS = 5_000  # about 10 MB of frames; longer games are refused

Viewpoint = int | Literal["all"]


class Replay(TypedDict):
    viewer: Viewpoint
    variant: str
    rules: dict
    frames: list[Frame]  # frames[k]: after k actions (frames[0]: the start)
    events: list[Event]  # events[k]: the action from frames[k] to frames[k + 1]
    result: Any


class ReplayRefused(ValueError):
    """A replay that may not be shown (`code`: why)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def replay(record: Any, viewer: Viewpoint) -> Replay:
    """Every position of the record's game from `viewer`'s side (0, 1 or ALL).
    Raises RecordError for a record that does not load, ReplayRefused for the rest."""
    if viewer not in VIEWPOINTS or isinstance(viewer, bool):
        raise ReplayRefused("bad_player", "viewer must be a seat (0, 1; 2, 3 in Siguo) or 'all'")
    actions = record.get("actions") if isinstance(record, dict) else None
    if isinstance(actions, list) and len(actions) > MAX_REPLAY_ACTIONS:  # before any work
        raise ReplayRefused("too_large", f"replays are limited to {MAX_REPLAY_ACTIONS} actions")
    seat = None if viewer == ALL else viewer
    frames: list[Frame] = []
    seen: list[Event] = []

    def step(game: Game) -> None:
        if game.history:
            seen.append(event(game, game.history[-1], seat))
        frames.append(frame(game, seat))

    game = import_record(record, on_step=None if viewer == ALL else step)
    if viewer != ALL and viewer >= game.seats:  # (checked after the record loads: its seats)
        raise ReplayRefused(
            "bad_player", f"a {game.variant.name} game has seats 0 to {game.seats - 1}"
        )
    if len(game.history) > MAX_REPLAY_ACTIONS:  # a record given as JSON text
        raise ReplayRefused("too_large", f"replays are limited to {MAX_REPLAY_ACTIONS} actions")
    if viewer == ALL:
        if game.phase != OVER:
            raise ReplayRefused(
                "game_not_over", "everything is shown only in the replay of a finished game"
            )
        # the game is over: every event of the finished game names everything
        import_record(record, on_step=lambda g: frames.append(frame(g, None, everything=True)))
        seen = [event(game, entry, None) for entry in game.history]
    return {
        "viewer": viewer,
        "variant": game.variant.id,
        "rules": game.variant.rules_json(),
        "frames": frames,
        "events": seen,
        "result": frames[-1]["result"],
    }
