"""Deduction notes never claim more than the view allows (docs/api.md, op `notes`)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from junqi_core.ai.notes import label, notes, possible_kinds
from junqi_core.bridge import handle
from junqi_core.game import PLAY, Game
from junqi_core.notation import move_text
from junqi_core.pieces import KIND_MASK
from junqi_core.variants import PRESETS, find_variant
from junqi_core.views import view

RULES = [find_variant(v, p.id) for v in ("classic", "gunjin") for p in PRESETS[v]]


def _played(variant, seed: int, plies: int) -> Game:
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    game.deploy(0)
    game.deploy(1)
    for _ in range(plies):
        if game.phase != PLAY:
            break
        game.apply(game.turn, move_text(game.board_spec, rng.choice(game.legal_moves())))
    return game


@settings(max_examples=40, deadline=None)
@given(
    rules=st.sampled_from(RULES),
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 160),
    me=st.integers(0, 1),
)
def test_the_true_kind_is_always_among_the_shown_possibilities(rules, seed, plies, me):
    game = _played(rules, seed, plies)
    if game.phase != PLAY:
        return
    shown = notes(rules, view(game, me), me)
    ids = {k.kind: k.id for k in rules.kinds}
    names = game.board_spec.names
    for square, note in shown["pieces"].items():
        p = game.position.board[game.board_spec.square(square)]
        assert p and game.position.piece_owner(p) == 1 - me, square
        assert ids[p & KIND_MASK] in note["kinds"], (square, note)
        _check_label(rules, note)
    # the unaccounted pieces include every enemy piece whose kind is not certain
    uncertain = {}
    for square, note in shown["pieces"].items():
        if len(note["kinds"]) > 1:
            true = ids[game.position.board[game.board_spec.square(square)] & KIND_MASK]
            uncertain[true] = uncertain.get(true, 0) + 1
    left = {u["kind"]: u["count"] for u in shown["unaccounted"]}
    for kind, n in uncertain.items():
        assert left.get(kind, 0) >= n
    assert all(names)  # the board names every square


def _check_label(rules, note) -> None:
    """A label is a true summary of the kinds listed (never narrower)."""
    kinds = {k.id: k for k in rules.kinds}
    out = note["label"]
    listed = set(note["kinds"])
    if "is" in out:
        assert listed == {out["is"]}
    if "min" in out:
        floor = kinds[out["min"]].rank
        for k in listed - set(out.get("also", [])):
            assert kinds[k].rank is not None and kinds[k].rank >= floor
    if "max" in out:
        ceiling = kinds[out["max"]].rank
        for k in listed - set(out.get("also", [])):
            assert kinds[k].rank is not None and kinds[k].rank <= ceiling
    if "not" in out:
        assert not listed & set(out["not"])
    if "one_of" in out:
        assert listed == set(out["one_of"])


def test_a_piece_that_beat_our_captain_is_noted_as_at_least_a_major():
    from test_ai_support import game_with, layout_with, play

    game = game_with(
        "classic",
        (
            layout_with("classic", 0, {"a6": "captain", "a5": "lieutenant"}),
            layout_with("classic", 1, {"a7": "major"}),
        ),
    )
    play(game, ["a5-b5", "a7-sa", "a6-sa"])
    shown = notes(game.variant, view(game, 0), 0)
    assert shown["pieces"]["sa"]["label"] == {"min": "major"}
    assert "landmine" not in shown["pieces"]["sa"]["kinds"]


def test_possible_kinds_use_the_piece_counts():
    # kind 1 has one piece and kind 2 two; identity 2 can only be kind 1, so the counts
    # leave kind 2 for identities 1 and 3 although each alone could be kind 1
    domains = {1: 0b110, 2: 0b010, 3: 0b110}
    cut = possible_kinds(domains, {1: 1, 2: 2})
    assert cut[2] == 0b010  # identity 2 can only be kind 1
    assert cut[1] == 0b100 and cut[3] == 0b100  # so kind 1 is taken: the others are kind 2


def test_labels_in_words_for_the_page():
    classic = find_variant("classic")
    ids = {k.id: k.kind for k in classic.kinds}
    assert label(classic, [ids["engineer"]]) == {"is_": "engineer"}
    assert label(classic, sorted(ids[k] for k in ("bomb", "landmine"))) == {
        "one_of": ["bomb", "landmine"]
    }
    # a piece that may still be anything gets no label (never an empty "not")
    assert label(classic, sorted(ids.values())) == {}


def test_the_notes_op_answers_a_human_seat_and_refuses_the_cpus():
    game = json.loads(
        handle(
            json.dumps({"op": "new_game", "variant": "classic", "seed": 3, "cpu": {"1": "easy"}})
        )
    )["game"]
    handle(json.dumps({"op": "deploy", "game": game, "player": 0}))
    reply = json.loads(handle(json.dumps({"op": "notes", "game": game, "player": 0})))
    assert len(reply["notes"]["pieces"]) == 25
    refused = json.loads(handle(json.dumps({"op": "notes", "game": game, "player": 1})))
    assert refused["error"]["code"] == "cpu_seat"
    blind = json.loads(handle(json.dumps({"op": "new_game", "variant": "blind", "seed": 1})))
    reply = json.loads(handle(json.dumps({"op": "notes", "game": blind["game"], "player": 0})))
    assert sum(u["count"] for u in reply["notes"]["unaccounted"]) == 50
