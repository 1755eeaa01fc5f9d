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
