"""The `replay` op: a game position by position, from a seat or with everything shown."""

from __future__ import annotations

import json

import pytest
from helpers import error_code, ok

from junqi_core.record import export_record, import_record
from junqi_core.selfplay import random_game
from junqi_core.variants import VARIANT_IDS, find_variant
from junqi_core.views import view

# the games of two seats (Siguo's replays: tests/test_siguo_*.py)
TWO_SEATS = [v for v in VARIANT_IDS if find_variant(v).seats == 2]


def finished(variant: str, seed: int = 4, max_plies: int = 400) -> dict:
    """The record of a finished random game (a resignation when it runs long)."""
    game = random_game(variant, seed, max_plies=max_plies)
    if game.result is None:
        game.apply(game.turn, f"resign:{game.turn}")
    return export_record(game)


def up_to(record: dict, steps: int):
    """The game after the record's first `steps` actions, straight from the engine."""
    cut = {**record, "actions": record["actions"][:steps], "result": None}
    return import_record(cut, check_result=False)


@pytest.mark.parametrize("variant", TWO_SEATS)
@pytest.mark.parametrize("viewer", [0, 1])
def test_a_seat_replay_holds_what_that_seat_was_shown_at_each_point(variant, viewer):
    record = finished(variant)
    reply = ok(op="replay", record=record, viewer=viewer)
    frames, events = reply["frames"], reply["events"]
    assert len(frames) == len(record["actions"]) + 1 == len(events) + 1
    assert [e["action"] for e in events] == record["actions"]
    assert reply["description"]["id"] == variant and reply["viewer"] == viewer
    for steps in sorted({0, 1, 2, len(events) // 2, len(events) - 1, len(events)}):
        game = up_to(record, steps)
        live = view(game, viewer)
        shown = frames[steps]
        for key in ("board", "lost", "ply", "phase", "turn", "colours", "last_move", "result"):
            assert shown[key] == live[key], (steps, key)
        # events as they were told at the time (the end reveals the last one's ranks)
        if steps < len(events):
            assert events[:steps] == live["history"]
        else:
            assert events[-1] == live["history"][-1]


@pytest.mark.parametrize("variant", TWO_SEATS)
@pytest.mark.parametrize("viewer", [0, 1])
def test_a_seat_replay_never_names_an_unrevealed_enemy_rank_before_the_end(variant, viewer):
    record = finished(variant, seed=9)
    reply = ok(op="replay", record=record, viewer=viewer)
    hidden = 0
    for shown, ev in zip(reply["frames"][1:-1], reply["events"][:-1], strict=True):
        flags = shown["flags_shown"]
        for cell in shown["board"].values():
            if cell["down"] or cell["owner"] != viewer:
                known = variant == "blind" and not cell["down"]
                owner = cell["owner"]
                known |= cell["kind"] == "flag" and owner is not None and flags[owner]
                if not known:
                    assert cell["kind"] is None
                    hidden += 1
        combat = ev.get("combat")
        if combat and variant != "blind":
            theirs = combat["defender"] if ev["player"] == viewer else combat["attacker"]
            assert theirs in (None, "flag")
        if variant != "blind":
            assert shown["lost"][1 - viewer]["kinds"] is None
    assert hidden > 0
    # once the game is over, everything is revealed, as on the end screen
    assert all(cell["kind"] for cell in reply["frames"][-1]["board"].values())


@pytest.mark.parametrize("variant", TWO_SEATS)
def test_everything_shown_names_every_piece_at_every_point(variant):
    record = finished(variant)
    reply = ok(op="replay", record=record, viewer="all")
    assert len(reply["frames"]) == len(record["actions"]) + 1
    for steps, shown in enumerate(reply["frames"]):
        game = up_to(record, steps)
        assert set(shown["board"]) == set(view(game, 0)["board"])
        assert all(cell["kind"] for cell in shown["board"].values())
        assert all(lost["kinds"] is not None for lost in shown["lost"])
    combats = [e["combat"] for e in reply["events"] if e.get("combat")]
    assert combats and all(c["attacker"] and c["defender"] for c in combats)
    assert reply["result"] == record["result"]


def test_a_finished_game_of_the_page_replays_by_its_id_and_an_unfinished_one_does_not():
    game = ok(op="new_game", variant="classic", seed=3)["game"]
    assert error_code(op="replay", game=game, viewer=0) == "game_not_over"
    ok(op="deploy", game=game, player=0)
    ok(op="deploy", game=game, player=1)
    ok(op="act", game=game, player=0, action="resign:0")
    record = ok(op="record_export", game=game)["record"]
    by_id = ok(op="replay", game=game, viewer="all")
    assert by_id["frames"] == ok(op="replay", record=record, viewer="all")["frames"]
    assert len(by_id["frames"]) == 2 and by_id["result"]["reason"] == "resignation"


def test_everything_shown_is_refused_for_an_unfinished_record_but_seat_views_are_given():
    record = finished("classic")
    cut = {**record, "actions": record["actions"][:10], "result": None}
    assert error_code(op="replay", record=cut, viewer="all") == "game_not_over"
    seat = ok(op="replay", record=json.dumps(cut), viewer=0)
    assert len(seat["frames"]) == 11 and seat["result"] is None
    assert all(c["kind"] is None for c in seat["frames"][-1]["board"].values() if c["owner"] == 1)


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_a_game_resigned_during_setup_replays_its_confirmed_layout_only(variant):
    game = ok(op="new_game", variant=variant)["game"]
    ok(op="deploy", game=game, player=0)
    ok(op="act", game=game, player=1, action="resign:1")
    record = ok(op="record_export", game=game)["record"]
    for viewer in (0, 1, "all"):
        frames = ok(op="replay", record=record, viewer=viewer)["frames"]
        assert frames[0]["phase"] == "setup" and frames[-1]["phase"] == "over"
        owners = {cell["owner"] for cell in frames[0]["board"].values()}
        assert owners == {0}
        named = [cell["kind"] for cell in frames[0]["board"].values()]
        assert all(named) if viewer in (0, "all") else not any(named)


RECORD = "the record of a finished game"


@pytest.mark.parametrize(
    "request_, code",
    [
        ({"viewer": None, "record": RECORD}, "bad_player"),
        ({"viewer": 2, "record": RECORD}, "bad_player"),
        ({"viewer": True, "record": RECORD}, "bad_player"),
        ({"viewer": 1.0, "record": RECORD}, "bad_player"),
        ({"viewer": "ALL", "record": RECORD}, "bad_player"),
        ({"viewer": 0, "game": "g1", "record": RECORD}, "bad_request"),
        ({"viewer": 0}, "bad_request"),
        ({"viewer": 0, "link": "AAAA", "record": RECORD}, "bad_request"),
        ({"viewer": 0, "link": "not a link"}, "bad_link"),
        ({"viewer": 0, "link": 5}, "bad_link"),
        ({"viewer": 0, "record": "{not json"}, "bad_record"),
        ({"viewer": 0, "record": {"format": "junqi-record", "version": 9}}, "bad_record"),
        ({"viewer": 0, "record": [1, 2]}, "bad_record"),
        ({"viewer": 0, "record": None}, "bad_record"),
    ],
)
def test_bad_replay_requests_are_refused(request_, code):
    if request_.get("record") == RECORD:
        request_ = {**request_, "record": finished("classic")}
    assert error_code(op="replay", **request_) == code


def test_unknown_game_and_tampered_record():
    assert error_code(op="replay", game="g999999", viewer=0) == "unknown_game"
    record = finished("gunjin")
    record["actions"][3] = "a1-a2"
    assert error_code(op="replay", record=record, viewer=1) == "bad_record"
    record = finished("blind")
    record["result"] = {"winner": 1 - record["result"]["winner"], "reason": "resignation"}
    assert error_code(op="replay", record=record, viewer="all") == "bad_record"


def test_a_share_link_replays_like_its_record():
    record = finished("gunjin", seed=2)
    game = ok(op="record_import", record=record)["game"]
    link = ok(op="record_link", game=game)["link"]
    for viewer in (0, 1, "all"):
        by_link = ok(op="replay", link=link, viewer=viewer)
        assert by_link["frames"] == ok(op="replay", record=record, viewer=viewer)["frames"]
    damaged = link[:10] + ("A" if link[10] != "A" else "B") + link[11:]
    assert error_code(op="replay", link=damaged, viewer="all") == "bad_link"
