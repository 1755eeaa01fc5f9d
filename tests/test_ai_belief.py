"""Belief model: deductions pinned by hand-built histories, and sampled worlds that
always reproduce the player's view exactly when the game is replayed from them."""

from __future__ import annotations

import random

import pytest
from test_ai_support import game_with, layout_with, play, replay

from junqi_core import pieces as pc
from junqi_core.ai.belief import Belief, BlindPool, Tracker, feasible
from junqi_core.ai.notes import notes
from junqi_core.ai.prior import LAYOUT_COUNTS, deployment_prior, layout_counts
from junqi_core.ai.tables import kinds_of, tables_for
from junqi_core.game import PLAY
from junqi_core.notation import move_text
from junqi_core.selfplay import random_game
from junqi_core.views import view

FROM_MAJOR = {"major", "colonel", "brigadier", "major_general", "general", "field_marshal"}


def tracker_for(game, me: int) -> Tracker:
    tracker = Tracker(game.variant, me)
    tracker.update(view(game, me))
    return tracker


def domain(game, me: int, start: str) -> set[str]:
    """Kinds still possible for the enemy piece that started on square `start`."""
    mask = tracker_for(game, me).domains()[game.board_spec.index[start]]
    return {tables_for(game.variant).kind_ids[k] for k in kinds_of(mask)}


def results(game, me: int) -> list[str | None]:
    return [e.get("combat", {}).get("result") for e in view(game, me)["history"]]


def classic(red: dict[str, str], blue: dict[str, str]):
    return game_with("classic", (layout_with("classic", 0, red), layout_with("classic", 1, blue)))


def gunjin(first: dict[str, str], second: dict[str, str]):
    return game_with("gunjin", (layout_with("gunjin", 0, first), layout_with("gunjin", 1, second)))


# --- Classic -------------------------------------------------------------------------------


def test_a_piece_that_beat_our_attacking_captain_is_at_least_a_major():
    game = classic({"a6": "captain", "a5": "lieutenant"}, {"a7": "major"})
    play(game, ["a5-b5", "a7-sa", "a6-sa"])
    assert results(game, 0)[-1] == "defender"
    assert domain(game, 0, "a7") == FROM_MAJOR


def test_a_piece_that_attacked_and_beat_our_captain_is_at_least_a_major():
    game = classic({"a6": "captain", "a5": "lieutenant"}, {"a7": "general"})
    play(game, ["a5-b5", "a7-sa", "b5-a5", "sa-a6"])
    assert results(game, 0)[-1] == "attacker"
    assert domain(game, 0, "a7") == FROM_MAJOR


def test_a_moving_piece_that_took_our_captain_down_with_it_is_a_captain_or_a_bomb():
    game = classic({"a6": "captain", "a5": "lieutenant"}, {"a7": "lieutenant", "a8": "bomb"})
    play(game, ["a5-b5", "a7-sa", "a6-sa", "a8-a7", "b5-a5", "a7-sa"])
    assert results(game, 0) == [None, None, "attacker", None, None, "both"]
    assert domain(game, 0, "a8") == {"captain", "bomb"}
    assert domain(game, 0, "a7") == {"lieutenant", "engineer"}  # lost to our Captain


def test_a_piece_that_slid_round_a_railway_corner_is_an_engineer():
    game = classic({"a5": "lieutenant"}, {"b7": "engineer", "a7": "lieutenant"})
    play(game, ["a5-b5", "a7-sa", "b5-a5", "a8-b8", "a5-b5", "b7-a8"])
    assert domain(game, 0, "b7") == {"engineer"}
    # a straight railway slide only says: no mine, no flag (and no bomb on the front rank)
    assert domain(game, 0, "a7") == {
        "engineer",
        "lieutenant",
        "captain",
        "major",
        "colonel",
        "brigadier",
        "major_general",
        "general",
        "field_marshal",
    }


def test_unmoved_classic_pieces_follow_the_deployment_rules():
    game = classic({}, {})
    names = game.board_spec.names
    dom = tracker_for(game, 0).domains()
    assert {names[s] for s, m in dom.items() if m >> pc.FLAG & 1} == {"b12", "d12"}
    assert {names[s] for s, m in dom.items() if m >> pc.LANDMINE & 1} == {
        "a11",
        "b11",
        "c11",
        "d11",
        "e11",
        "a12",
        "c12",
        "e12",
    }
    assert not any(m >> pc.BOMB & 1 for s, m in dom.items() if names[s].endswith("7"))


# --- Gunjin --------------------------------------------------------------------------------


def test_gunjin_jumps_reveal_planes_and_a_long_sideways_slide_an_engineer():
    game = gunjin(
        {"c3": "plane", "d3": "plane", "b3": "engineer", "c4": "captain", "d4": "captain"},
        {"c5": "second_lieutenant", "c6": "army_general", "d5": "second_lieutenant"},
    )
    play(game, ["c3-c5", "c6-c5", "d3-d5", "c5-c6", "b3-d3"])
    assert results(game, 1) == ["attacker", "attacker", "attacker", None, None]
    assert domain(game, 1, "c3") == {"plane"}  # jumped over its own c4 and the river
    assert domain(game, 1, "d3") == {"plane"}
    assert domain(game, 1, "b3") == {"engineer"}  # two squares sideways


def test_a_gunjin_flag_with_a_spy_behind_beats_the_army_general():
    game = gunjin(
        {"c4": "flag", "c3": "spy", "b4": "first_lieutenant", "e3": "plane", "e4": "captain"},
        {"b5": "army_general", "e5": "second_lieutenant"},
    )
    play(game, ["b4-b5", "b5-b4", "e3-e5", "b4-c4"])
    assert results(game, 1) == ["defender", None, "attacker", "defender"]
    assert domain(game, 1, "c4") == {"spy", "flag"}
    belief = Belief(tracker_for(game, 1))
    c4, c3 = game.board_spec.index["c4"], game.board_spec.index["c3"]
    rng = random.Random(5)
    seen = set()
    for _ in range(300):
        world = belief.sample(rng)
        seen.add(world[c4])
        if world[c4] == pc.G_FLAG:
            assert world[c3] == pc.SPY  # only a Spy behind makes a flag beat the general
    assert seen == {pc.G_FLAG, pc.SPY}


# --- every sampled world reproduces the view ------------------------------------------------


def own_layout(tracker: Tracker) -> dict[int, int]:
    return {s: tracker.own_kind[s] for s in tracker.tables.start_squares[tracker.me]}


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
@pytest.mark.parametrize("seed", range(6))
def test_sampled_worlds_replay_to_the_same_view(variant, seed):
    game = random_game(variant, seed, max_plies=40 + 25 * seed)
    if game.phase != PLAY:
        pytest.skip("the random game ended early")
    rng = random.Random(seed)
    for me in (0, 1):
        mine = view(game, me)
        tracker = Tracker(variant, me)
        tracker.update(mine)
        # and Hard's belief, weighed by how layouts usually look
        beliefs = [Belief(tracker), Belief(tracker, deployment_prior(tracker.tables, 1 - me))]
        assert not beliefs[0].relaxed
        ours = own_layout(tracker)
        for i in range(8):
            world = beliefs[i % len(beliefs)].sample(rng)
            assert sorted(world.values()) == sorted(
                k for k, n in tracker.tables.counts.items() for _ in range(n)
            )
            layouts = (ours, world) if me == 0 else (world, ours)
            twin = replay(game, layouts)
            assert twin is not None, "a sampled world makes a played action illegal"
            assert view(twin, me) == mine


def test_the_gunjin_prior_expects_a_mine_in_the_enemy_headquarters():
    """Uniform sampling puts a mine in the HQ about 1 time in 11; most layouts keep one
    there, and so does Hard's belief with the prior.  Facts still come first: a piece
    that has moved is never sampled as a mine, prior or not."""
    game = random_game("gunjin", 4, max_plies=0)
    hq = game.board_spec.hqs[1][0]
    tracker = Tracker("gunjin", 0)
    tracker.update(view(game, 0))
    rng = random.Random(1)
    uniform = sum(Belief(tracker).sample(rng)[hq] == pc.MINE for _ in range(300))
    prior = deployment_prior(tracker.tables, 1)
    weighed = sum(Belief(tracker, prior).sample(rng)[hq] == pc.MINE for _ in range(300))
    assert uniform < 50 < 150 < weighed
    for seed in range(12):
        game = random_game("gunjin", seed, max_plies=60)
        tracker = Tracker("gunjin", 0)
        tracker.update(view(game, 0))
        belief = Belief(tracker, deployment_prior(tracker.tables, 1))
        for _ in range(5):
            world = belief.sample(rng)
            assert not any(world[e] in (pc.MINE, pc.G_FLAG) for e in tracker.moved)


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_the_stored_layout_counts_are_what_the_cpu_layouts_give(variant):
    """`LAYOUT_COUNTS` is stored to save the page a second of drawing layouts; a change
    to how the CPU deploys must be followed by `python -m junqi_core.ai.prior`."""
    t = tables_for(variant)
    for player in (0, 1):
        assert LAYOUT_COUNTS[t.variant.family][player] == layout_counts(t, player)


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_following_the_history_step_by_step_equals_reading_it_at_once(variant):
    game = random_game(variant, 11, max_plies=0)
    rng = random.Random(3)
    step = Tracker(variant, 0)
    while game.phase == PLAY and game.position.ply < 120:
        move = rng.choice(game.legal_moves())
        game.apply(game.turn, move_text(game.board_spec, move))
        step.update(view(game, 0))
    assert step.domains() == tracker_for(game, 0).domains()


def test_matching_finds_infeasible_domains():
    counts = {1: 2, 2: 1}
    assert feasible({0: 0b110, 1: 0b010, 2: 0b100}, counts)
    assert not feasible({0: 0b100, 1: 0b100, 2: 0b110}, counts)


# --- Blind ---------------------------------------------------------------------------------


def test_the_blind_pool_is_everything_not_yet_flipped():
    game = random_game("blind", 4, max_plies=30)
    pool = BlindPool(game.variant, view(game, 0))
    flipped = [e for e in view(game, 0)["history"] if e["type"] == "flip"]
    assert pool.total == pool.down == 50 - len(flipped)
    assert pool.total == sum(1 for p in game.position.board if p & pc.FACE_DOWN)
    assert abs(sum(p for _, p in pool.outcomes()) - 1.0) < 1e-9
    true_down: dict[int, int] = {}
    for p in game.position.board:
        if p & pc.FACE_DOWN:
            true_down[p & ~pc.FACE_DOWN] = true_down.get(p & ~pc.FACE_DOWN, 0) + 1
    assert {pc.piece(k, c): n for (k, c), n in pool.pool.items()} == true_down


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_no_sampled_world_gives_a_piece_a_kind_the_notes_rule_out(variant):
    """The deduction notes list, for every enemy piece, the kinds some assignment that
    fits every fact and the counts gives it.  The worlds the CPU searches (Hard's
    weighed by the layout prior too) never make a piece anything else."""
    t = tables_for(variant)
    checked = 0
    for seed in range(16):
        game = random_game(variant, 3000 + seed, 20 + 9 * seed)
        if game.phase != PLAY:
            continue
        for me in (0, 1):
            mine = view(game, me)
            tracker = Tracker(variant, me)
            tracker.update(mine)
            listed = notes(game.variant, mine, me)["pieces"]
            # and Hard's, weighed by how layouts usually look
            beliefs = [Belief(tracker), Belief(tracker, deployment_prior(t, 1 - me))]
            rng = random.Random(seed)
            for belief in beliefs:
                for _ in range(6):
                    world = belief.sample(rng)
                    for e in tracker.alive_enemies():
                        name = t.board.names[tracker.square[e]]
                        assert t.kind_ids[world[e]] in listed[name]["kinds"], name
                        checked += 1
    assert checked > 2000
