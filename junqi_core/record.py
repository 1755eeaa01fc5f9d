"""Game records: a JSON document that replays to the same game, and nothing else.

The format is described in docs/records.md.  A record is refused whole (RecordError
saying what is wrong) when it is malformed, names unknown rules or an unknown rules
version, holds an illegal setup, deal or action, or claims a result that the replay does
not reach.  Never a half-loaded game.  Version 1 records (standard rules only, Blind
deals by seed) still load.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from junqi_core import __version__
from junqi_core.deployment import DeploymentError, Layout
from junqi_core.game import OVER, Game, IllegalActionError
from junqi_core.pieces import COLOUR_BIT, FACE_DOWN, KIND_MASK, piece
from junqi_core.text import JsonRefused, load_json, quote
from junqi_core.variants import RulesError, Variant, find_variant

RECORD_FORMAT = "junqi-record"
RECORD_VERSION = 2
READS_VERSIONS = (1, 2)
RULES_VERSION = "2026-11"  # bump when a rule change would replay old records differently
MAX_ACTIONS = 20_000
MAX_RECORD_BYTES = 1_000_000
MAX_META_FIELDS = 20
MAX_META_CHARS = 200

V1_FIELDS = {"format", "version", "rules", "variant", "actions", "result"}
V2_FIELDS = {"format", "version", "engine", "rules_version", "variant", "preset", "options"}
V2_FIELDS |= {"actions", "result"}


class RecordError(ValueError):
    """A record that cannot be loaded; the message says what is wrong."""


def layout_to_json(game: Game, layout: Layout) -> dict[str, str]:
    letters = {k.kind: k.letter for k in game.variant.kinds}
    return {game.board_spec.names[s]: letters[k] for s, k in sorted(layout.items())}


def layout_from_json(game: Game, data: Any) -> Layout:
    """Accepts {square: letter or kind id}; raises ValueError on unknown names."""
    if not isinstance(data, dict):
        raise ValueError("a layout is an object {square: piece}")
    by_name = {}
    for k in game.variant.kinds:
        by_name[k.letter] = k.kind
        by_name[k.id] = k.kind
    layout: Layout = {}
    for name, value in data.items():
        if name not in game.board_spec.index:
            raise ValueError(f"no square {quote(name)} on the {game.variant.id} board")
        if not isinstance(value, str) or value not in by_name:
            raise ValueError(f"unknown piece {quote(value)} on {name}")
        layout[game.board_spec.index[name]] = by_name[value]
    return layout


def deal_to_text(game: Game) -> str:
    """A Blind deal as one letter per non-camp post in board order (upper case: the
    pieces of colour 0, lower case: colour 1)."""
    assert game.deal is not None
    letters = {k.kind: k.letter for k in game.variant.kinds}
    out = []
    for square in _deal_squares(game.variant):
        p = game.deal[square]
        letter = letters[p & KIND_MASK]
        out.append(letter.lower() if p & COLOUR_BIT else letter)
    return "".join(out)


def deal_from_text(variant: Variant, text: Any) -> list[int]:
    """Inverse of `deal_to_text`: a full, legal deal or RecordError."""
    squares = _deal_squares(variant)
    if not isinstance(text, str) or len(text) != len(squares):
        raise RecordError(f"a blind deal is a string of {len(squares)} piece letters")
    kinds = {k.letter: k.kind for k in variant.kinds}
    board = [0] * variant.board.size
    for square, letter in zip(squares, text, strict=True):
        kind = kinds.get(letter.upper())
        if kind is None:
            raise RecordError(f"unknown piece letter {quote(letter)} in the deal")
        board[square] = piece(kind, 1 if letter.islower() else 0, face_down=True)
    have = Counter(p & ~FACE_DOWN for p in board if p)
    for k in variant.kinds:
        for colour in (0, 1):
            if have[piece(k.kind, colour)] != k.count:
                raise RecordError(f"the deal does not hold both full sets ({k.name})")
    return board


def _deal_squares(variant: Variant) -> list[int]:
    board = variant.board
    return [s for s in range(board.size) if s not in board.camps]


def export_record(game: Game, meta: dict | None = None) -> dict:
    """The record of a game (the page exports it only once the game is over)."""
    variant = game.variant
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "engine": __version__,
        "rules_version": RULES_VERSION,
        "variant": variant.id,
        "preset": variant.preset,
        "options": dict(variant.options),
    }
    notes = {} if meta is None else _checked_meta(meta)  # notes that are no object: refused
    if notes:
        record["meta"] = notes
    if game.deployment is None:
        record["deal"] = deal_to_text(game)
    else:
        record["setups"] = [
            None if layout is None else layout_to_json(game, layout) for layout in game.layouts
        ]
    if game.seats > 2:
        record["first"] = game.first  # drawn by lot in most games: a replay needs it
    record["actions"] = game.actions_text()
    record["result"] = (
        None
        if game.result is None
        else {"winner": game.result.winner, "reason": game.result.reason}
    )
    return record


def import_record(
    data: Any, check_result: bool = True, on_step: Callable[[Game], None] | None = None
) -> Game:
    """Replay a record (a dict or its JSON text) into a new Game, or raise RecordError.
    `check_result=False` takes the result the actions reach instead of checking the one
    the record claims (share links and saved games carry none of their own).  `on_step`
    is called with the game before the first action and after each one (replays)."""
    data = _parsed(data)
    version = data.get("version")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a game record (format {quote(data.get('format'))})")
    if type(version) is not int or version not in READS_VERSIONS:  # not 2.0, not true
        raise RecordError(f"record version {quote(version)} is not supported")
    variant = _check_v1(data) if version == 1 else _check_v2(data)
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("actions must be a list of strings")
    if len(actions) > MAX_ACTIONS:
        raise RecordError("the record has too many actions")

    game = _new_game(variant, data)
    if on_step is not None:
        on_step(game)
    for number, action in enumerate(actions, 1):
        if game.phase == OVER:
            raise RecordError(f"action {number} ({quote(action)}) comes after the game ended")
        player = _actor(game, action)
        try:
            entry = game.apply(player, action)
        except IllegalActionError as error:
            raise RecordError(f"action {number} ({quote(action)}) is refused: {error}") from None
        if entry.action != action:  # the engine also takes e.g. "timeout:0" from a player
            raise RecordError(f"action {number} ({quote(action)}) is written {entry.action!r}")
        if on_step is not None:
            on_step(game)
    if check_result:
        _check_result(game, data["result"])
    return game


def _parsed(data: Any) -> dict:
    if isinstance(data, str):
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError("the record is too large")
        try:
            data = load_json(data, "the record")
        except JsonRefused as error:
            raise RecordError(str(error)) from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data


def _check_fields(data: dict, expected: set[str], optional: set[str]) -> None:
    missing = sorted(expected - set(data))
    if missing:
        raise RecordError(f"the record lacks {', '.join(missing)}")
    extra = sorted(set(data) - expected - optional)
    if extra:
        raise RecordError(f"unexpected fields {quote(', '.join(map(str, extra)))}")


def _check_v1(data: dict) -> Variant:
    _check_fields(data, V1_FIELDS, {"seed", "setups"})
    _check_rules_version(data["rules"])
    return _variant(data["variant"], None, None)


def _check_v2(data: dict) -> Variant:
    _check_fields(data, V2_FIELDS, {"seed", "deal", "setups", "meta", "first"})
    _check_rules_version(data["rules_version"])
    engine = data["engine"]
    if not isinstance(engine, str) or not 0 < len(engine) <= MAX_META_CHARS:
        raise RecordError("engine is the version text of the engine that wrote the record")
    if "meta" in data:
        _checked_meta(data["meta"])
    options = data["options"]
    if not isinstance(options, dict):
        raise RecordError("options must be an object with every rule option of the variant")
    variant = _variant(data["variant"], None, options)
    missing = sorted(set(variant.options) - set(options))
    if missing:
        raise RecordError(f"the record's options lack {', '.join(missing)}")
    preset = data["preset"]
    if preset != variant.preset:
        raise RecordError(
            f"the record names the preset {quote(preset)}, but its options are "
            + (f"those of {variant.preset!r}" if variant.preset else "customised")
        )
    return variant


def _check_rules_version(rules: Any) -> None:
    if rules != RULES_VERSION:
        raise RecordError(
            f"the record was played under rules {quote(rules)}, this engine plays {RULES_VERSION!r}"
        )


def _variant(variant_id: Any, preset: Any, options: Any) -> Variant:
    try:
        return find_variant(variant_id, preset, options)
    except RulesError as error:
        raise RecordError(str(error)) from None


def _checked_meta(meta: Any) -> dict:
    """Free notes about the game (date, mode, levels): a small object of short strings."""
    if not isinstance(meta, dict) or len(meta) > MAX_META_FIELDS:
        raise RecordError(f"meta is an object of at most {MAX_META_FIELDS} fields")
    for key, value in meta.items():
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            raise RecordError(f"meta field {quote(key)} must be a string or a whole number")
        if len(key) > 40 or len(str(value)) > MAX_META_CHARS:
            raise RecordError(f"meta field {quote(key)} is too long")
    return dict(meta)


def _new_game(variant: Variant, data: dict) -> Game:
    if variant.deployment is None:
        if "setups" in data:
            raise RecordError("a blind record has no setups")
        if "deal" in data:
            if "seed" in data:
                raise RecordError("a blind record has a deal or a seed, not both")
            return Game(variant, deal=deal_from_text(variant, data["deal"]))
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**53:
            raise RecordError("a blind record needs its deal (or its shuffle seed)")
        return Game(variant, seed=seed)
    if "seed" in data or "deal" in data:
        raise RecordError(f"a {variant.id} record has setups, not a seed or a deal")
    setups = data.get("setups")
    seats = variant.seats
    if not isinstance(setups, list) or len(setups) != seats:
        raise RecordError(f"setups must be a list of {'two' if seats == 2 else seats} layouts")
    first = data.get("first")
    if seats == 2 and "first" in data:
        raise RecordError("a two-player record names no first player (player 0 begins)")
    if seats > 2 and (type(first) is not int or first not in range(seats)):
        raise RecordError(f"first is the seat that moved first, 0 to {seats - 1}")
    game = Game(variant, seed=0, first=first)
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
        if arg not in [str(seat) for seat in range(game.seats)]:
            raise RecordError(f"{quote(action)} must name its player, like '{name}:0'")
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
    if claimed["winner"] is not None and type(claimed["winner"]) is not int:
        raise RecordError("the result's winner is 0, 1 or null")
    if actual is None:
        raise RecordError("the record claims a result the moves do not reach")
    if claimed["winner"] != actual.winner or claimed["reason"] != actual.reason:
        raise RecordError(
            f"the record claims {quote(claimed['reason'])} (winner {quote(claimed['winner'])}), "
            f"but the moves give {actual.reason} (winner {actual.winner})"
        )
