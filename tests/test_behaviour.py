"""The behaviour model: its stored tables, the belief that uses them, the corpus builder."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

from junqi_core.ai.behaviour import CODES, SQUARES, BehaviourModel, features, stored_model
from junqi_core.ai.belief import Belief, Tracker
from junqi_core.ai.notes import notes
from junqi_core.ai.tables import tables_for
from junqi_core.game import PLAY
from junqi_core.selfplay import random_game
from junqi_core.views import view

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))


def test_the_stored_tables_give_every_kind_a_likelihood_of_every_piece():
    model = stored_model()
    assert model is not None
    t = tables_for("classic")
    assert sorted(model.kinds) == sorted(t.kinds)
    game = random_game("classic", 7, max_plies=60)
    for me in (0, 1):
        tracker = Tracker("classic", me)
        tracker.update(view(game, me))
        likes = model.likelihoods(tracker, tracker.ply)
        assert set(likes) == set(tracker.enemy_ids)
        for row in likes.values():
            assert set(row) == set(t.kinds)
            assert all(0.0 < v <= 1.0 and math.isfinite(v) for v in row.values())
            assert max(row.values()) == 1.0


def test_a_piece_that_never_moved_is_likelier_a_landmine_than_one_that_moved_a_lot():
    """What the tables learned reads as the game does: mines never move, so the codes of
    a piece that moved six times are far likelier for an Engineer than for a mine."""
    model = stored_model()
    assert model is not None
    from junqi_core import pieces as pc

    still = (0,) * len(CODES)
    busy = (4, 0, 0, 0, 2, 3)  # six moves, two railway runs, now in its own middle rows
    post = 5  # a second-rank post
    mine_gap = model.log_likelihood(3, post, still, pc.LANDMINE) - model.log_likelihood(
        3, post, busy, pc.LANDMINE
    )
    eng_gap = model.log_likelihood(3, post, still, pc.ENGINEER) - model.log_likelihood(
        3, post, busy, pc.ENGINEER
    )
    assert mine_gap > eng_gap


def test_behaviour_weighted_worlds_never_contradict_the_notes():
    """The model only weighs the kinds the facts allow: every sampled world still gives
    each enemy piece a kind the deduction notes list for it."""
    model = stored_model()
    assert model is not None
    t = tables_for("classic")
    checked = 0
    for seed in range(12):
        game = random_game("classic", 4500 + seed, 20 + 12 * seed)
        if game.phase != PLAY:
            continue
        for me in (0, 1):
            mine = view(game, me)
            tracker = Tracker("classic", me)
            tracker.update(mine)
            listed = notes(game.variant, mine, me)["pieces"]
            belief = Belief(tracker, behaviour=model)
            assert belief.likes
            rng = random.Random(seed)
            for _ in range(6):
                world = belief.sample(rng)
                assert sorted(world.values()) == sorted(
                    k for k, n in t.counts.items() for _ in range(n)
                )
                for e in tracker.alive_enemies():
                    name = t.board.names[tracker.square[e]]
                    assert t.kind_ids[world[e]] in listed[name]["kinds"], name
                    checked += 1
    assert checked > 1000


def test_the_codes_stay_in_their_ranges():
    game = random_game("classic", 11, max_plies=150)
    tracker = Tracker("classic", 0)
    tracker.update(view(game, 0))
    for pb, post, codes in features(tracker, tracker.ply).values():
        assert 0 <= post < SQUARES and 0 <= pb <= 5
        for value, size in zip(codes, CODES.values(), strict=True):
            assert 0 <= value < size


def test_the_corpus_builder_is_the_same_for_the_same_seed():
    import behaviour_corpus as bc

    first = bc.play_recorded(("bot_greedy", "random"), 3, 0)
    again = bc.play_recorded(("bot_greedy", "random"), 3, 0)
    assert first == again
    other = bc.play_recorded(("bot_greedy", "random"), 4, 0)
    assert other["layouts"] != first["layouts"]
    counts, weights, _ = bc.learn([first], set())
    counts2, weights2, _ = bc.learn([again], set())
    assert counts == counts2 and weights == weights2
    # a learned model answers for every kind
    model = BehaviourModel(counts, weights)
    assert len(model.kinds) == len(tables_for("classic").kinds)
    assert bc.learn([first], {"random"})[0]["posts"] == {k: [0] * SQUARES for k in model.kinds}
