"""Game records replay to the same state; corrupt or tampered records are refused whole."""

from __future__ import annotations

import copy
import json

import pytest

from junqi_core.notation import position_text
from junqi_core.record import RecordError, export_record, import_record
from junqi_core.selfplay import random_game


@pytest.mark.parametrize("variant", ["classic", "blind", "gunjin"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_record_replays_to_the_same_final_state(variant, seed):
    game = random_game(variant, seed)
    record = export_record(game)
    replay = import_record(json.dumps(record))
    assert position_text(replay.position) == position_text(game.position)
    assert replay.result == game.result
    assert export_record(replay) == record


def _tampered(variant: str, change) -> dict:
    record = copy.deepcopy(export_record(random_game(variant, 4)))
    change(record)
    return record


def _swap_two_setup_squares(record):
    setup = record["setups"][0]
    flag = next(sq for sq, letter in setup.items() if letter == "F")
    other = next(sq for sq in setup if sq not in ("b1", "d1"))
    setup[flag], setup[other] = setup[other], setup[flag]


CHANGES = {
    "illegal action": lambda r: r["actions"].__setitem__(2, "a1-e12"),
    "wrong result": lambda r: r.__setitem__(
        "result", {"winner": 1 - (r["result"]["winner"] or 0), "reason": "resignation"}
    ),
    "result removed": lambda r: r.__setitem__("result", None),
    "action after the end": lambda r: r["actions"].append("resign:0"),
    "truncated": lambda r: r.__setitem__("actions", r["actions"][:3]),
    "unknown variant": lambda r: r.__setitem__("variant", "xiangqi"),
    "rules version": lambda r: r.__setitem__("rules", "1999-01"),
    "format": lambda r: r.__setitem__("format", "pgn"),
    "missing field": lambda r: r.pop("actions"),
    "extra field": lambda r: r.__setitem__("cheat", True),
    "actions not strings": lambda r: r.__setitem__("actions", [1, 2]),
    "illegal setup": _swap_two_setup_squares,
    "setup piece unknown": lambda r: r["setups"][1].__setitem__("a12", "Q"),
    "meta action without player": lambda r: r["actions"].insert(1, "resign"),
    "version as a float": lambda r: r.__setitem__("version", 2.0),
    "version as a bool": lambda r: r.__setitem__("version", True),
    "options missing": lambda r: r.pop("options"),
    "options null": lambda r: r.__setitem__("options", None),
    "an option missing": lambda r: r["options"].pop("quiet_limit"),
    "option as a float": lambda r: r["options"].__setitem__("quiet_limit", 100.0),
    "engine not a text": lambda r: r.__setitem__("engine", {"name": "x"}),
    "preset not a text": lambda r: r.__setitem__("preset", ["standard"]),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_a_tampered_record_is_refused_with_a_clear_message(name):
    record = _tampered("classic", CHANGES[name])
    with pytest.raises(RecordError) as error:
        import_record(record)
    assert len(str(error.value)) > 10


def test_a_blind_record_needs_its_seed():
    record = export_record(random_game("blind", 3))
    record["seed"] = "abc"
    with pytest.raises(RecordError, match="seed"):
        import_record(record)


@pytest.mark.parametrize("text", ["", "not json", "[]", "null", "[" * 100000, "x" * 2_000_000])
def test_malformed_record_text_is_refused(text):
    with pytest.raises(RecordError):
        import_record(text)


def _deployed_record(actions: list[str]) -> dict:
    """A Classic record of a game both sides deployed, with these actions and no result."""
    from junqi_core.game import Game

    game = Game("classic", seed=3)
    for player in (0, 1):
        game.deploy(player)
    record = export_record(game)
    return {**record, "actions": actions}


def test_an_action_is_kept_only_in_the_notation_records_write():
    """A time-out belongs to the side to move and is written `timeout`: `timeout:0`,
    which the engine takes from a player, is not in the record format."""
    assert import_record(_deployed_record(["timeout"])).actions_text() == ["timeout"]
    for written in ("timeout:0", "timeout:"):
        with pytest.raises(RecordError, match="timeout"):
            import_record(_deployed_record([written]))


def test_a_record_from_a_version_1_writer_needs_exact_whole_numbers_too():
    record = export_record(random_game("blind", 2))
    old = {
        "format": "junqi-record",
        "version": 1,
        "rules": record["rules_version"],
        "variant": "blind",
        "seed": 5,
        "actions": [],
        "result": None,
    }
    assert import_record(old).phase == "play"
    for version in (1.0, True):
        with pytest.raises(RecordError, match="version"):
            import_record({**old, "version": version})
    for seed in (5.0, True, -1):
        with pytest.raises(RecordError, match="seed"):
            import_record({**old, "seed": seed})
