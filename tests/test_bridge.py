"""The JSON bridge: every op, every refusal, and nothing hidden in any reply."""

from __future__ import annotations

import json
import random

import pytest
from helpers import call, error_code, ok

from junqi_core.bridge import handle
from junqi_core.record import export_record
from junqi_core.selfplay import random_game, selfplay


def new(variant="classic", **kwargs) -> str:
    return ok(op="new_game", variant=variant, seed=kwargs.pop("seed", 3), **kwargs)["game"]


def test_version_lists_variants_and_levels():
    reply = ok(op="version")
    assert reply["api"] == 1 and set(reply["variants"]) == {"classic", "blind", "gunjin", "siguo"}
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
        ("[" * 50000, "too_deep"),
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


# --- a strict bridge ------------------------------------------------------------------------


def _sessions() -> int:
    from junqi_core import bridge

    return len(bridge._sessions)


@pytest.mark.parametrize("seat", [1.0, 0.0, -0.0, True, False, "0", [0], {"0": 0}])
def test_a_player_that_is_not_exactly_0_or_1_is_refused_and_nothing_is_played(seat):
    game = new("classic")
    for player in (0, 1):
        ok(op="deploy", game=game, player=player)
    before = ok(op="view", game=game, player=None)["view"]
    move = next(iter(ok(op="view", game=game, player=0)["view"]["dests"]["moves"].items()))
    action = f"{move[0]}-{move[1][0]['to']}"
    assert error_code(op="act", game=game, player=seat, action=action) == "bad_player"
    assert error_code(op="view", game=game, player=seat) == "bad_player"
    assert ok(op="view", game=game, player=None)["view"] == before


@pytest.mark.parametrize("viewer", [1.0, -0.0, True, "1"])
def test_a_viewer_that_is_not_exactly_0_1_or_null_is_refused(viewer):
    assert error_code(op="new_game", variant="classic", viewer=viewer) == "bad_player"


@pytest.mark.parametrize(
    "request_, code",
    [
        ({"op": "new_game", "variant": ["classic"]}, "unknown_variant"),
        ({"op": "new_game", "variant": {"id": "classic"}}, "unknown_variant"),
        ({"op": "new_game", "variant": "classic", "cpu": {"1": ["hard"]}}, "bad_level"),
        ({"op": "new_game", "variant": "classic", "cpu": {"1": {"level": 1}}}, "bad_level"),
        ({"op": "selfplay", "variant": ["blind"]}, "unknown_variant"),
        ({"op": "describe", "variant": {"x": 1}}, "unknown_variant"),
        ({"op": "new_game", "variant": "classic", "preset": ["x"]}, "unknown_preset"),
        ({"op": "new_game", "variant": "classic", "options": {"sa": 1}}, "bad_option"),
        ({"op": "new_game", "variant": "classic", "options": [1]}, "bad_option"),
        ({"op": "new_game", "variant": "blind", "options": {"quiet_limit": 70}}, "bad_option"),
    ],
)
def test_lists_and_objects_where_a_name_belongs_are_refused_never_internal(request_, code):
    reply = call(**request_)
    assert reply["error"]["code"] == code, reply


@pytest.mark.parametrize(
    "request_",
    [
        {"op": "new_game", "variant": "classic", "viewer": 2},
        {"op": "new_game", "variant": "classic", "cpu": {"1": "grandmaster"}},
        {"op": "new_game", "variant": "classic", "options": {"stations": "no"}},
        {"op": "record_import", "record": {"format": "junqi-record"}},
        {"op": "record_import", "record": "{}", "viewer": 1.0},
    ],
)
def test_a_refused_new_game_or_import_stores_no_game(request_):
    from junqi_core import bridge

    for _ in range(bridge.MAX_GAMES):  # a full store: a stored game would push one out
        new("classic")
    oldest = next(iter(bridge._sessions))
    count = _sessions()
    call(**request_)
    assert _sessions() == count and oldest in bridge._sessions


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_a_game_resigned_during_setup_exports_a_record_that_imports_again(variant):
    game = new(variant)
    ok(op="deploy", game=game, player=0)
    ok(op="act", game=game, player=1, action="resign:1")
    record = ok(op="record_export", game=game)["record"]
    imported = ok(op="record_import", record=record, viewer=None)
    assert imported["view"]["result"] == {"winner": 0, "reason": "resignation"}
    assert ok(op="record_export", game=imported["game"])["record"] == record


def test_error_messages_quote_only_a_short_prefix_of_what_was_sent():
    long = "x" * 5000
    for request_ in (
        {"op": long},
        {"op": "view", "game": long, "player": 0},
        {"op": "new_game", "variant": long},
        {"op": "new_game", "variant": "classic", "cpu": {"1": long}},
        {"op": "new_game", "variant": "classic", "preset": long},
        {"op": "new_game", "variant": "classic", "options": {long: 1}},
        {"op": "legal", "game": new("classic"), "player": 0, "square": long},
        {
            "op": "record_import",
            "record": {**export_record(random_game("classic", 1)), "variant": long},
        },
    ):
        message = call(**request_)["error"]["message"]
        assert "x" * 41 not in message, message


def test_every_error_reply_has_the_documented_shape():
    for request_ in (
        {"op": "act", "game": new("classic"), "player": 0, "action": "resign:1"},
        {"op": "new_game", "variant": "blind", "options": {"stations": True}},
        {"op": "setup_swap", "game": new("classic"), "player": 0, "a": "b1", "b": "a6"},
    ):
        reply = call(**request_)
        assert set(reply) == {"v", "error"} and set(reply["error"]) <= {"code", "message", "square"}
    assert error_code(op="act", game=new("classic"), player=0, action="resign:1") == "wrong_player"


def test_new_game_takes_a_preset_and_options_and_the_view_names_the_rules():
    reply = ok(
        op="new_game", variant="classic", preset="chinese", options={"quiet_limit": 60}, viewer=0
    )
    assert reply["view"]["rules"] == {
        "variant": "classic",
        "preset": None,
        "options": {
            "flag_shown": True,
            "front_bombs": False,
            "hq_frozen": True,
            "quiet_limit": 60,
            "stations": False,
        },
    }
    assert reply["view"]["quiet_limit"] == 60
    assert len(reply["description"]["board"]["squares"]) == 60
    described = ok(op="describe", variant="gunjin", preset="simple")["description"]
    assert described["rules"]["preset"] == "simple"


def test_variants_list_options_and_presets_for_the_page():
    described = ok(op="variants")["variants"]
    for variant in ("classic", "blind", "gunjin"):
        assert described[variant]["default_preset"] == "standard"
        assert {"id", "name", "description", "options"} <= set(described[variant]["presets"][0])
        for option in described[variant]["options"]:
            assert option["default"] in option["choices"]


# --- hidden things nobody can predict -----------------------------------------------------------


def _cpu_layout(game_id: str) -> dict:
    """The CPU's layout, as the record shows it once the human resigns."""
    ok(op="act", game=game_id, player=0, action="resign:0")
    return ok(op="record_export", game=game_id)["record"]["setups"][1]


def test_cpu_layouts_without_a_seed_differ_and_no_reply_carries_a_seed():
    replies = [
        ok(op="new_game", variant="classic", cpu={"1": "medium"}, viewer=0) for _ in range(2)
    ]
    for reply in replies:
        assert "seed" not in json.dumps(reply)
    layouts = [_cpu_layout(r["game"]) for r in replies]
    assert layouts[0] != layouts[1]


def test_a_player_who_sees_everything_the_page_shows_cannot_recompute_the_cpus_layout():
    """The old page seeded the CPU from a small page seed S that the player's own first
    draft (random_layout(0, 2S)) gave away.  Search every such seed, as an attacker
    would: none reproduces either the draft or the CPU's layout now."""
    from junqi_core.game import Game
    from junqi_core.players import make_player

    reply = ok(op="new_game", variant="classic", cpu={"1": "hard"}, viewer=0)
    draft = reply["view"]["board"]
    cpu_layout = _cpu_layout(reply["game"])
    probe = Game("classic", seed=0)
    kind_ids = {k.kind: k.id for k in probe.variant.kinds}
    for seed in range(1 << 12):
        guess = probe.random_layout(0, 2 * seed)
        assert {probe.board_spec.names[s]: kind_ids[k] for s, k in guess.items()} != {
            square: cell["kind"] for square, cell in draft.items()
        }
        if seed < 64:  # the CPU's layout from the same seed formula
            cpu = make_player("classic", "hard", 1, seed * 2 + 1)
            assert cpu.deploy({}) != {
                square: next(k for k in probe.variant.kinds if k.letter == letter).id
                for square, letter in cpu_layout.items()
            }


def test_blind_deals_without_a_seed_differ():
    deals = []
    for _ in range(3):
        game = ok(op="new_game", variant="blind", viewer=0)["game"]
        ok(op="act", game=game, player=0, action="resign:0")
        deals.append(ok(op="record_export", game=game)["record"]["deal"])
    assert len(set(deals)) == 3


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_a_layout_made_for_the_other_seat_is_turned_round_to_this_one(variant):
    game = new(variant)
    first = ok(op="view", game=game, player=0)["view"]["board"]
    layout = {square: cell["kind"] for square, cell in first.items()}
    turned = ok(op="setup_set", game=game, player=1, layout=layout, from_player=0)["view"]
    board = turned["board"]
    assert len(board) == len(layout)
    back_rank = "8" if variant == "gunjin" else "12"
    flag = next(sq for sq, c in board.items() if c["kind"] == "flag")
    if variant == "classic":
        assert flag in ("b12", "d12")  # the flag stays in a headquarters, now Blue's
    else:
        assert not flag.endswith(back_rank)
    assert error_code(op="setup_set", game=game, player=1, layout=layout) == "square_not_yours"


# --- seats the CPU plays ----------------------------------------------------------------------


def _cpu_square(game: str) -> str:
    """A square of the CPU's (seat 1) own pieces, as the human's view shows its tiles."""
    board = ok(op="view", game=game, player=0)["view"]["board"]
    return next(square for square, cell in board.items() if cell["owner"] == 1)


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_the_page_never_gets_a_view_or_the_legal_actions_of_a_cpu_seat(variant):
    """The CPU reads its own view inside Python; any reply about its seat would show the
    page the CPU's whole layout (or, by which pieces may move, its mines and flag)."""
    game = new(variant, cpu={"1": "random"}, viewer=0)
    ok(op="deploy", game=game, player=0)
    if ok(op="view", game=game, player=0)["view"]["turn"] == 1:
        ok(op="cpu_act", game=game, player=1, viewer=0)
    before = ok(op="view", game=game, player=0)["view"]
    square = _cpu_square(game)
    refused = [
        {"op": "view", "game": game, "player": 1},
        {"op": "legal", "game": game, "player": 1, "square": square},
        {"op": "notes", "game": game, "player": 1},
        {"op": "setup_mirror", "game": game, "player": 1},
    ]
    for request_ in refused:
        reply = call(**request_)
        assert reply.get("error", {}).get("code") == "cpu_seat", (request_, reply)
        assert "kind" not in json.dumps(reply)
    assert ok(op="view", game=game, player=0)["view"] == before


def test_no_new_game_or_restore_answers_with_the_view_of_a_cpu_seat():
    from junqi_core import bridge

    count = _sessions()
    assert error_code(op="new_game", variant="classic", cpu={"1": "easy"}, viewer=1) == "cpu_seat"
    assert _sessions() == count
    game = new("classic", cpu={"1": "random"}, viewer=0)
    save = ok(op="save", game=game)["save"]
    stored = set(bridge._sessions)
    assert error_code(op="restore", save=save, viewer=1) == "cpu_seat"
    assert set(bridge._sessions) == stored


def test_in_a_game_of_two_cpus_the_page_sees_only_the_public_view():
    game = new("classic", cpu={"0": "random", "1": "random"}, viewer=None)
    assert error_code(op="view", game=game, player=0) == "cpu_seat"
    assert error_code(op="cpu_act", game=game, player=0, viewer=1) == "cpu_seat"
    reply = ok(op="cpu_act", game=game, player=0, viewer=None)
    assert all(cell["kind"] is None for cell in reply["view"]["board"].values())


# --- deep and huge requests -----------------------------------------------------------------------


def _nested(depth: int, kind: str = "list") -> str:
    if kind == "list":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


@pytest.mark.parametrize(
    "op, field, kind",
    [
        ("new_game", "preset", "list"),
        ("new_game", "preset", "object"),
        ("record_export", "game", "object"),
        ("view", "game", "list"),
        ("new_game", "options", "object"),
        ("view", "player", "list"),
    ],
)
def test_a_value_nested_almost_as_deep_as_json_reads_is_refused_cleanly(op, field, kind):
    """Near the interpreter's recursion limit a refusal that quoted the value overflowed
    (RecursionError: an "internal" error). Every depth JSON can hold is refused cleanly."""
    base = {"op": op, "game": new("classic"), "variant": "classic", "player": 0}
    codes = {}
    for depth in range(880, 1000):
        text = json.dumps(base)[:-1] + f', "{field}": {_nested(depth, kind)}}}'
        codes[depth] = json.loads(handle(text))["error"]["code"]
    assert [d for d, code in codes.items() if code == "internal"] == []
    assert set(codes.values()) == {"too_deep"}


def test_nesting_is_capped_far_below_the_recursion_limit_in_every_json_text_the_bridge_reads():
    from junqi_core.text import MAX_DEPTH

    deep = json.loads(_nested(MAX_DEPTH + 1))
    assert error_code(op="view", game=deep, player=0) == "too_deep"
    record = export_record(random_game("classic", 1))
    assert error_code(op="record_import", record={**record, "meta": {"x": deep}}) == "too_deep"
    text = json.dumps({**record, "options": deep})
    assert error_code(op="record_import", record=text) == "bad_record"
    assert error_code(op="restore", save=json.dumps({"format": deep})) == "bad_save"
    # what is not deeper than the cap is read as before
    shallow = json.loads(_nested(MAX_DEPTH - 1))
    assert error_code(op="view", game=shallow, player=0) == "unknown_game"


@pytest.mark.parametrize("meta", [[], 0, False, "", [{"date": "x"}]])
def test_record_notes_that_are_not_an_object_are_refused_not_dropped(meta):
    game = ok(op="record_import", record=export_record(random_game("classic", 2)))["game"]
    assert error_code(op="record_export", game=game, meta=meta) == "bad_record"
    assert "meta" not in ok(op="record_export", game=game, meta=None)["record"]


@pytest.mark.parametrize("text", [1, "yes", 0, [True]])
def test_a_save_asked_as_text_with_anything_but_true_or_false_is_refused(text):
    game = new("classic")
    assert error_code(op="save", game=game, text=text) == "bad_request"
