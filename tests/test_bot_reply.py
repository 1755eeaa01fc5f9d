"""The reply bot (`bot_reply`): its exact record of what enemy pieces can be, the
opponent's best reply it weighs, and what that makes it do in hand-set positions."""

from __future__ import annotations

import random

import pytest
from helpers import make_game

from junqi_core import pieces as pc
from junqi_core.ai.notes import notes
from junqi_core.bots.base import Picture
from junqi_core.bots.reply import WIN, Lookahead, ReplyBot, expected_best
from junqi_core.bots.tracker import VALUES, ExactTracker, Tracker, rules_for
from junqi_core.game import PLAY
from junqi_core.notation import move_text, parse_move
from junqi_core.pieces import KIND_MASK
from junqi_core.players import make_player
from junqi_core.selfplay import random_game
from junqi_core.variants import find_variant
from junqi_core.views import view


def legal(game) -> list[str]:
    return [move_text(game.board_spec, m) for m in game.legal_moves()]


def followed(variant: str, seed: int, plies: int, me: int):
    game = random_game(variant, seed, plies)
    tracker = ExactTracker(rules_for(find_variant(variant)), me)
    assert tracker.follow(view(game, me)["history"])
    return game, tracker


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_the_exact_record_always_keeps_the_true_kind(variant):
    """Over many seeded games, every enemy piece's true kind stays in its record."""
    checked = 0
    for seed in range(30):
        game, tracker = followed(variant, 500 + seed, 40 + 5 * seed, seed % 2)
        board = game.position.board
        for square, pid in tracker.at.items():
            assert board[square] & KIND_MASK in tracker.cands[pid]
            checked += 1
    assert checked > 300


def test_the_exact_record_lists_what_the_deduction_notes_list():
    """Classic: the kinds the bot keeps for each enemy piece are exactly those the page's
    deduction notes show (both read the counts exactly), and narrower than the simple
    record's where the counts decide more than single pieces do."""
    narrower = 0
    for seed in range(40):
        game, tracker = followed("classic", 900 + seed, 60 + 4 * seed, seed % 2)
        if game.phase != PLAY:
            continue
        me = seed % 2
        simple = Tracker(rules_for(game.variant), me)
        assert simple.follow(view(game, me)["history"])
        listed = notes(game.variant, view(game, me), me)["pieces"]
        names = game.board_spec.names
        ids = {k.kind: k.id for k in game.variant.kinds}
        for square, pid in tracker.at.items():
            kinds = sorted(ids[k] for k in tracker.cands[pid])
            assert kinds == sorted(listed[names[square]]["kinds"]), names[square]
            narrower += tracker.cands[pid] < simple.cands[simple.at[square]]
    assert narrower > 0


def test_expected_best_is_the_mean_of_the_best_of_independent_pieces():
    assert expected_best([]) == 0.0
    assert expected_best([[(8.0, 0.5)]]) == pytest.approx(4.0)
    # two pieces, each worth 8 half the time: the best is 8 three times in four
    assert expected_best([[(8.0, 0.5)], [(8.0, 0.5)]]) == pytest.approx(6.0)
    # a sure 2, or 10 one time in four: 2 + 8 / 4
    assert expected_best([[(2.0, 1.0)], [(10.0, 0.25), (-3.0, 0.75)]]) == pytest.approx(4.0)


def lookahead(pieces: str, odds: dict[str, dict[int, float]]) -> tuple[Lookahead, object]:
    """The bot's look at a hand-set Classic position, seat 0 to move, with the odds of
    some enemy pieces set by hand (the others: any kind, by the counts)."""
    game = make_game("classic", pieces, swap=0)
    rules = rules_for(game.variant)
    picture = Picture(rules, view(game, 0), 0, None)
    for name, row in odds.items():
        picture.theirs[game.board_spec.index[name]] = row
    return Lookahead(rules, picture), game.board_spec


def value(look: Lookahead, spec, action: str) -> float:
    move = parse_move(spec, action)
    return look.move(*spec.move_code.split(move))


def test_a_move_that_leaves_a_piece_beside_the_flag_costs_the_game():
    look, spec = lookahead("Fb1 Na1 Nc1 Gd2 Ke4 fb12 nd12 lb2 kc9", {"b2": {pc.LIEUTENANT: 1.0}})
    assert value(look, spec, "d2-b2") == pytest.approx(VALUES["classic"][pc.LIEUTENANT])
    for action in ("d2-d3", "e4-e5", "d2-c2"):
        assert value(look, spec, action) == pytest.approx(-WIN)
    for seed in range(4):  # and so it takes that piece, whatever the odds
        game = make_game("classic", "Fb1 Na1 Nc1 Gd2 Ke4 fb12 nd12 lb2 kc9", swap=0)
        player = make_player("classic", "bot_reply", 0, seed)
        assert player.choose(view(game, 0), legal(game)) == "d2-b2"


def test_a_piece_a_railway_runner_may_beat_is_hanging():
    """An enemy piece up the e-file railway that is a General half the time: the
    Lieutenant anywhere on that railway is lost half the time, in the camp it is safe."""
    odds = {pc.GENERAL: 0.5, pc.ENGINEER: 0.5}
    look, spec = lookahead("Fb1 Na1 Nc1 Nb2 Le5 Kd4 fb12 nd12 ke8", {"e8": odds})
    safe = value(look, spec, "e5-d5")
    lieutenant = VALUES["classic"][pc.LIEUTENANT]
    for action in ("e5-e4", "e5-e6", "e5-se"):
        assert value(look, spec, action) == pytest.approx(safe - lieutenant / 2)


def test_a_capture_that_is_taken_back_costs_the_opponent_less():
    """The Major on e4 is taken by a General from e8 unless the Field Marshal on d4 can
    take the General back: the reply is then worth the Major less the General."""
    odds = {"e8": {pc.GENERAL: 1.0}}
    values = VALUES["classic"]
    alone, _ = lookahead("Fb1 Na1 Nc1 Nb2 Je4 Kc5 fb12 nd12 ke8", odds)
    assert alone.now == pytest.approx(values[pc.MAJOR])
    guarded, _ = lookahead("Fb1 Na1 Nc1 Nb2 Je4 Md4 fb12 nd12 ke8", odds)
    assert guarded.now == 0.0  # 2.5 for the Major, 8 lost for the General


def test_it_plays_every_variant_from_its_own_seed():
    rng = random.Random(3)
    for variant in ("classic", "blind", "gunjin"):
        game = random_game(variant, rng.randrange(1000), 30)
        if game.phase != PLAY:
            continue
        me = game.turn
        bot = ReplyBot(variant, me, 5)
        assert bot.choose(view(game, me), legal(game)) == ReplyBot(variant, me, 5).choose(
            view(game, me), legal(game)
        )
