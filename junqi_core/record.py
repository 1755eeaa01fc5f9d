"""Game records: a JSON document that replays to the same game, and nothing else.

A record is refused whole (RecordError saying what is wrong) when it is malformed,
names an unknown variant or rules version, holds an illegal setup or action, or claims
a result that the replay does not reach.  Never a half-loaded game.
"""

from __future__ import annotations

import json
from typing import Any

from junqi_core.deployment import DeploymentError, Layout
from junqi_core.game import OVER, SETUP, Game, IllegalActionError
from junqi_core.rules import POSITION_CLASSES

RECORD_FORMAT = "junqi-record"
RECORD_VERSION = 1
RULES_VERSION = "2026-11"  # bump when a rule change would replay old records differently
MAX_ACTIONS = 20_000
MAX_RECORD_BYTES = 1_000_000


class RecordError(ValueError):
    """A record that cannot be loaded; the message says what is wrong."""


def layout_to_json(game: Game, layout: Layout) -> dict[str, str]:
    letters = {k.kind: k.letter for k in game.position_class.kinds}
    return {game.board_spec.names[s]: letters[k] for s, k in sorted(layout.items())}


def layout_from_json(game: Game, data: Any) -> Layout:
    """Accepts {square: letter or kind id}; raises ValueError on unknown names."""
    if not isinstance(data, dict):
        raise ValueError("a layout is an object {square: piece}")
    by_name = {}
    for k in game.position_class.kinds:
        by_name[k.letter] = k.kind
        by_name[k.id] = k.kind
    layout: Layout = {}
    for name, value in data.items():
        if name not in game.board_spec.index:
            raise ValueError(f"no square {name!r} on the {game.variant} board")
        if not isinstance(value, str) or value not in by_name:
            raise ValueError(f"unknown piece {value!r} on {name}")
        layout[game.board_spec.index[name]] = by_name[value]
    return layout


def export_record(game: Game) -> dict:
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": RULES_VERSION,
        "variant": game.variant,
    }
    if game.deployment is None:
        record["seed"] = game.seed
    else:
        record["setups"] = [
            None if layout is None else layout_to_json(game, layout) for layout in game.layouts
        ]
    record["actions"] = game.actions_text()
    record["result"] = (
        None
        if game.result is None
        else {"winner": game.result.winner, "reason": game.result.reason}
    )
    return record


def import_record(data: Any) -> Game:
    """Replay a record (a dict or its JSON text) into a new Game, or raise RecordError."""
    if isinstance(data, str):
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError("the record is too large")
        try:
            data = json.loads(data)
        except ValueError as error:
            raise RecordError(f"the record is not valid JSON ({error})") from None
        except RecursionError:
            raise RecordError("the record is nested too deeply") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    expected = {"format", "version", "rules", "variant", "actions", "result"}
    missing = sorted(expected - set(data))
    if missing:
        raise RecordError(f"the record lacks {', '.join(missing)}")
    if data["format"] != RECORD_FORMAT:
        raise RecordError(f"not a game record (format {data['format']!r})")
    if data["version"] != RECORD_VERSION:
        raise RecordError(f"record version {data['version']!r} is not supported")
    if data["rules"] != RULES_VERSION:
        raise RecordError(
            f"the record was played under rules {data['rules']!r}, "
            f"this engine plays {RULES_VERSION!r}"
        )
    variant = data["variant"]
    if variant not in POSITION_CLASSES:
        raise RecordError(f"unknown variant {variant!r}")
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("actions must be a list of strings")
    if len(actions) > MAX_ACTIONS:
        raise RecordError("the record has too many actions")
    extra = sorted(set(data) - expected - {"seed", "setups"})
    if extra:
        raise RecordError(f"unexpected fields {', '.join(extra)}")

    game = _new_game(variant, data)
    for number, action in enumerate(actions, 1):
        if game.phase == SETUP:
            raise RecordError(f"action {number} ({action!r}) comes before both setups")
        if game.phase == OVER:
            raise RecordError(f"action {number} ({action!r}) comes after the game ended")
        player = _actor(game, action)
        try:
            game.apply(player, action)
        except IllegalActionError as error:
            raise RecordError(f"action {number} ({action!r}) is refused: {error}") from None
    _check_result(game, data["result"])
    return game


def _new_game(variant: str, data: dict) -> Game:
    if variant == "blind":
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**53:
            raise RecordError("a blind record needs its shuffle seed (a whole number)")
        if "setups" in data:
            raise RecordError("a blind record has no setups")
        return Game(variant, seed=seed)
    if "seed" in data:
        raise RecordError(f"a {variant} record has setups, not a seed")
    setups = data.get("setups")
    if not isinstance(setups, list) or len(setups) != 2:
        raise RecordError("setups must be a list of two layouts")
    game = Game(variant)
    for player, setup in enumerate(setups):
        if setup is None:
            continue
        try:
            game.deploy(player, layout_from_json(game, setup))
        except DeploymentError as error:
            raise RecordError(f"setup of player {player} breaks a rule: {error}") from None
        except ValueError as error:
            raise RecordError(f"setup of player {player}: {error}") from None
    return game


def _actor(game: Game, action: str) -> int:
    """Moves and time-outs belong to the side to move; meta actions name their player."""
    name, _, arg = action.partition(":")
    if name in ("offer", "accept", "decline", "resign"):
        if arg not in ("0", "1"):
            raise RecordError(f"{action!r} must name its player, like '{name}:0'")
        return int(arg)
    return game.turn


def _check_result(game: Game, claimed: Any) -> None:
    actual = game.result
    if claimed is None:
        if actual is not None:
            raise RecordError(f"the record claims no result, but the game ended ({actual.reason})")
        return
    if not isinstance(claimed, dict) or set(claimed) != {"winner", "reason"}:
        raise RecordError("result must be null or {winner, reason}")
    if actual is None:
        raise RecordError("the record claims a result the moves do not reach")
    if claimed["winner"] != actual.winner or claimed["reason"] != actual.reason:
        raise RecordError(
            f"the record claims {claimed['reason']} (winner {claimed['winner']}), "
            f"but the moves give {actual.reason} (winner {actual.winner})"
        )
