"""The JSON bridge: every op, every refusal, and nothing hidden in any reply."""

from __future__ import annotations

import json
import random

import pytest

from junqi_core.bridge import handle
from junqi_core.record import export_record
from junqi_core.selfplay import random_game, selfplay


def call(**request) -> dict:
    reply = json.loads(handle(json.dumps(request)))
    assert reply["v"] == 1
    return reply


def ok(**request) -> dict:
    reply = call(**request)
    assert reply.get("ok") is True, reply
    return reply


def error_code(**request) -> str:
    reply = call(**request)
    assert "ok" not in reply and set(reply["error"]) >= {"code", "message"}, reply
    return reply["error"]["code"]


def new(variant="classic", **kwargs) -> str:
    return ok(op="new_game", variant=variant, seed=kwargs.pop("seed", 3), **kwargs)["game"]


def test_version_lists_variants_and_levels():
    reply = ok(op="version")
    assert reply["api"] == 1 and set(reply["variants"]) == {"classic", "blind", "gunjin"}
    assert "random" in reply["levels"]


def test_variants_describe_boards_pieces_and_combat():
    described = ok(op="variants")["variants"]
    assert len(described["classic"]["board"]["squares"]) == 63
    assert len(described["blind"]["board"]["squares"]) == 60
    assert described["gunjin"]["board"]["river"] is True
    assert described["classic"]["combat"]["engineer"]["landmine"] == "attacker"
    assert described["classic"]["combat"]["field_marshal"]["landmine"] == "both"
    assert described["blind"]["combat"]["field_marshal"]["landmine"] == "defender"
    assert described["gunjin"]["combat"]["spy"]["army_general"] == "attacker"


@pytest.mark.parametrize(
    "raw, code",
    [
        ("{bad json", "bad_json"),
        ("[1, 2]", "bad_request"),
        ('{"op": "launch"}', "unknown_op"),
        ('{"op": 5}', "unknown_op"),
        ("[" * 50000, "bad_json"),
        ('"x"', "bad_request"),
        (json.dumps({"op": "version", "pad": "x" * 3_000_000}), "too_large"),
    ],
)
def test_malformed_requests_get_an_error_never_an_exception(raw, code):
    reply = json.loads(handle(raw))
    assert reply["error"]["code"] == code


def test_non_string_requests_are_refused():
    assert json.loads(handle(None))["error"]["code"] == "bad_request"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "request_, code",
    [
        ({"op": "view", "game": "nope", "player": 0}, "unknown_game"),
        ({"op": "new_game", "variant": "chess"}, "unknown_variant"),
        ({"op": "new_game", "variant": "classic", "seed": -1}, "bad_request"),
        ({"op": "new_game", "variant": "classic", "seed": True}, "bad_request"),
        ({"op": "new_game", "variant": "classic", "cpu": {"1": "grandmaster"}}, "bad_level"),
        ({"op": "new_game", "variant": "classic", "cpu": {"2": "random"}}, "bad_request"),
        ({"op": "selfplay", "variant": "classic", "games": 10_000}, "bad_request"),
    ],
)
def test_bad_fields_are_refused(request_, code):
    assert error_code(**request_) == code


def test_setup_tools_and_refusal_with_the_rule_and_square():
    game = new("classic")
    draft = ok(op="view", game=game, player=0)["view"]["board"]
    flag = next(sq for sq, cell in draft.items() if cell["kind"] == "flag")
    reply = call(op="setup_swap", game=game, player=0, a=flag, b="c6")
    assert reply["error"]["code"] == "flag_not_in_hq" and reply["error"]["square"] == "c6"
    assert ok(op="view", game=game, player=0)["view"]["board"] == draft  # unchanged
    swapped = ok(op="setup_swap", game=game, player=0, a="a6", b="e6")["view"]["board"]
    assert swapped["a6"] == draft["e6"]
    mirrored = ok(op="setup_mirror", game=game, player=0)["view"]["board"]
    assert mirrored["a6"] == swapped["e6"]
    layout = {sq: cell["kind"] for sq, cell in draft.items()}
    assert ok(op="setup_set", game=game, player=0, layout=layout)["view"]["board"] == draft
    assert ok(op="setup_random", game=game, player=0, seed=99)["view"]["board"] != draft
    assert error_code(op="setup_set", game=game, player=0, layout={"a1": "flag"}) == "square_empty"
    assert error_code(op="setup_swap", game=game, player=0, a="a6", b="a7") == "square_not_yours"
    ok(op="deploy", game=game, player=0)
    assert error_code(op="setup_mirror", game=game, player=0) == "already_deployed"
    view = ok(op="deploy", game=game, player=1)["view"]
    assert view["phase"] == "play"


def test_refused_actions_change_nothing():
    game = new("gunjin", cpu={"1": "random"})
    ok(op="deploy", game=game, player=0)
    before = ok(op="view", game=game, player=0)["view"]
    for action, code in [
        ("a1-a8", "illegal_move"),
        ("zz-a1", "bad_action"),
        ("offer:0", "cannot_offer"),
        ("x" * 100, "bad_action"),
        ("accept:0", "cannot_accept"),
    ]:
        assert error_code(op="act", game=game, player=0, action=action) == code
    assert error_code(op="act", game=game, player=1, action="a8-a7") == "cpu_seat"
    assert error_code(op="act", game=game, player=2, action="a1-a2") == "bad_player"
    assert error_code(op="cpu_act", game=game, player=1, viewer=0) == "not_your_turn"
    assert ok(op="view", game=game, player=0)["view"] == before


def test_wrong_phase_and_wrong_turn():
    game = new("classic")
    assert error_code(op="act", game=game, player=0, action="a6-a7") == "wrong_phase"
    ok(op="deploy", game=game, player=0)
    ok(op="deploy", game=game, player=1)
    assert error_code(op="act", game=game, player=1, action="a7-a6") == "not_your_turn"
    assert error_code(op="deploy", game=game, player=0) == "wrong_phase"
    assert error_code(op="record_export", game=game) == "game_not_over"


def test_legal_destinations_of_a_square():
    game = new("blind")
    assert ok(op="legal", game=game, player=0, square="a1")["targets"] == []
    assert error_code(op="legal", game=game, player=0, square="z9") == "bad_square"


def _hidden_kinds_leak(reply: dict, viewer: int) -> list[str]:
    """Squares where the reply names the rank of a piece the viewer does not own."""
    leaks = []
    for sq, cell in reply["view"]["board"].items():
        if cell["owner"] != viewer and cell["kind"] is not None:
            leaks.append(sq)
    for event in reply.get("events", []):
        combat = event.get("combat") or {}
        if event["player"] != viewer and combat.get("attacker"):
            leaks.append("attacker " + combat["square"])
        if event["player"] == viewer and combat.get("defender"):
            leaks.append("defender " + combat["square"])
    return leaks


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_a_game_against_the_cpu_never_shows_the_cpus_ranks_until_the_end(variant):
    rng = random.Random(5)
    game = new(variant, cpu={"1": "random"}, viewer=0)
    reply = ok(op="deploy", game=game, player=0)
    while reply["view"]["phase"] == "play":
        if reply["view"]["turn"] == 1:
            reply = ok(op="cpu_act", game=game, player=1, viewer=0)
        else:
            own = [sq for sq, c in reply["view"]["board"].items() if c["owner"] == 0]
            choices = [
                f"{sq}-{t['to']}"
                for sq in own
                for t in ok(op="legal", game=game, player=0, square=sq)["targets"]
            ]
            reply = ok(op="act", game=game, player=0, action=rng.choice(choices))
        if reply["view"]["phase"] != "over":
            assert _hidden_kinds_leak(reply, 0) == []
    view = reply["view"]
    assert view["result"]["reason"]
    assert all(cell["kind"] for cell in view["board"].values())
    record = ok(op="record_export", game=game)["record"]
    assert ok(op="record_import", record=record)["view"]["result"] == view["result"]


def test_a_draw_offer_to_the_cpu_is_answered_at_once():
    game = new("classic", cpu={"1": "random"})
    ok(op="deploy", game=game, player=0)
    reply = ok(op="act", game=game, player=0, action="offer:0")
    assert reply["events"][0]["type"] == "offer"
    assert reply["events"][1]["type"] in ("accept", "decline")


def test_hot_seat_resign_and_public_view():
    game = new("blind")
    public = ok(op="view", game=game, player=None)["view"]
    assert public["player"] is None and all(c["kind"] is None for c in public["board"].values())
    reply = ok(op="act", game=game, player=1, action="resign:1")
    assert reply["view"]["result"] == {"winner": 0, "reason": "resignation"}


def test_record_import_refuses_tampering_and_export_round_trips():
    record = export_record(random_game("classic", 6))
    assert ok(op="record_import", record=record)["view"]["phase"] == "over"
    record["actions"][0] = "a1-a2"
    assert error_code(op="record_import", record=record) == "bad_record"


def test_selfplay_matches_the_library():
    assert ok(op="selfplay", variant="gunjin", games=2, seed=4)["results"] == selfplay(
        "gunjin", 2, 4
    )


def test_drop_forgets_a_game():
    game = new("classic")
    ok(op="drop", game=game)
    assert error_code(op="view", game=game, player=0) == "unknown_game"
