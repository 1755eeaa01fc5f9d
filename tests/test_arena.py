"""The arena: paired deals, the interval over pairs, the SPRT, the command line, and the
Blind first-flag breakdown."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from junqi_core import arena
from junqi_core import pieces as pc
from junqi_core.arena import Sprt, first_flag, llr, mean_interval, stats, summary
from junqi_core.game import Game
from junqi_core.players import make_player
from junqi_core.record import export_record, layout_from_json, layout_to_json
from junqi_core.views import view


def cli(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "junqi_core", "arena", *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return done.stdout


def without_times(out: str) -> list[str]:
    return [line for line in out.splitlines() if "think" not in line]


# --- paired deals --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_a_pair_swaps_seats_and_keeps_each_seats_layout(variant):
    seed, index = 6, 3
    pair = arena.play_pair(variant, ("bot_greedy", "bot_turtle"), seed, index, record=True)
    first, second = pair["games"]
    assert first["a_seat"] == index % 2 and second["a_seat"] == 1 - index % 2
    one, two = first["record"], second["record"]
    assert one["setups"] == two["setups"]  # the same layout on each seat ...
    assert one["actions"] != two["actions"]  # ... played by the other player
    # in the first game each player deployed its own layout on its seat
    game = Game(variant)
    deal = arena.deal_seed(seed, index)
    for seat, name in ((first["a_seat"], "bot_greedy"), (1 - first["a_seat"], "bot_turtle")):
        player = make_player(variant, name, seat, deal * 2 + seat)
        laid = layout_from_json(game, player.deploy(view(game, seat)))
        assert one["setups"][seat] == layout_to_json(game, laid)
    assert pair["score"] == (first["score_a"] + second["score_a"]) / 2


def test_a_blind_pair_is_dealt_from_one_seed_with_seats_swapped():
    pair = arena.play_pair("blind", ("bot_rusher", "random"), 2, 0, record=True)
    first, second = pair["games"]
    assert {first["a_seat"], second["a_seat"]} == {0, 1}
    dealt = export_record(Game("blind", seed=arena.deal_seed(2, 0)))["deal"]
    assert first["record"]["deal"] == second["record"]["deal"] == dealt


@pytest.mark.parametrize("variant", ["classic", "blind", "gunjin"])
def test_a_player_against_itself_plays_the_second_game_as_a_mirror(variant):
    """Seeds follow the deal and the seat, so with the same player on both sides the
    second game repeats the first with the sides' results exchanged."""
    pair = arena.play_pair(variant, ("bot_heuristic", "bot_heuristic"), 4, 1, record=True)
    first, second = pair["games"]
    assert first["record"]["actions"] == second["record"]["actions"]
    assert first["score_a"] + second["score_a"] == 1.0 and pair["score"] == 0.5


# --- statistics ------------------------------------------------------------------------------


def _game(score: float, seat: int = 0) -> dict:
    return {
        "score_a": score, "a_seat": seat, "reason": "flag_captured", "plies": 10,
        "cpu_a": [0.01], "cpu_b": [0.02], "times_a": [0.01], "times_b": [0.02],
    }  # fmt: skip


def _pair(i: int, a: float, b: float) -> dict:
    return {"index": i, "games": [_game(a, i % 2), _game(b, 1 - i % 2)], "score": (a + b) / 2}


def test_the_interval_is_computed_over_pair_scores():
    pairs = [_pair(0, 1.0, 1.0), _pair(1, 1.0, 0.0), _pair(2, 0.5, 1.0), _pair(3, 0.0, 0.5)]
    st = stats(pairs)
    scores = [1.0, 0.5, 0.75, 0.25]
    mean = sum(scores) / 4
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / 3)
    assert st["score"] == pytest.approx(0.625)
    assert st["low"] == pytest.approx(mean - 1.96 * sd / 2)
    assert st["high"] == pytest.approx(mean + 1.96 * sd / 2)
    assert (st["pairs"], st["games"], st["wins"], st["draws"], st["losses"]) == (4, 8, 4, 2, 2)
    # seat advantage cancels inside each pair: every pair 1-1, so no spread between pairs
    even = stats([_pair(i, 1.0, 0.0) for i in range(6)])
    assert (even["score"], even["low"], even["high"]) == (0.5, 0.5, 0.5)
    games = mean_interval([1.0, 0.0] * 6)  # the same games as if independent
    assert games[2] - games[1] > 0.5
    assert mean_interval([0.75]) == (0.75, 0.0, 1.0)  # one pair: no standard error


def test_the_summary_names_pairs_seats_endings_and_times():
    pairs = [_pair(0, 1.0, 1.0), _pair(1, 1.0, 0.0), _pair(2, 0.5, 1.0)]
    text = summary("classic", "hard", "bot_turtle", 1, pairs, Sprt())
    assert "3 pairs (6 games)" in text and "over 3 pair scores" in text
    assert "pairs by A's points of 2: 0: 0, 0.5: 0, 1: 1, 1.5: 1, 2: 1" in text
    assert "endings: flag_captured 6 (A 4, B 1, draw 1)" in text
    assert "think cpu  A=hard" in text and "p95 0.0100 s" in text
    assert "sprt (pentanomial)" in text


def test_llr_agrees_with_its_normal_approximation_on_a_large_sample():
    """For small Elo bounds the GSPRT's log-likelihood ratio is close to
    N (s1 - s0) (2 mean - s0 - s1) / (2 variance)."""
    for counts in ([100, 200, 130], [30, 120, 200, 140, 40]):
        k, n = len(counts), sum(counts)
        a = [i / (k - 1) for i in range(k)]
        mean = sum(c * x for c, x in zip(counts, a, strict=True)) / n
        var = sum(c * (x - mean) ** 2 for c, x in zip(counts, a, strict=True)) / n
        s0, s1 = arena.expected_score(0), arena.expected_score(10)
        approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
        assert llr(counts, 0, 10) == pytest.approx(approx, rel=0.02)
    assert llr([5, 5, 5, 5, 5], -10, 10) == pytest.approx(0.0, abs=1e-9)  # symmetric
    with pytest.raises(ValueError):
        llr([1, 2, 3, 4], 0, 10)


def _mixed(i: int) -> dict:
    """Pairs scoring 55% in all: between elo0 = 0 (50%) and elo1 = 50 (57%)."""
    if i % 10 == 0:
        return _pair(i, 1.0, 1.0)
    if i % 2:
        return _pair(i, 1.0, 0.0)
    return _pair(i, 1.0, 0.5) if i % 4 == 0 else _pair(i, 0.0, 0.5)


def test_sprt_accepts_h1_on_wins_h0_on_losses_and_goes_on_when_mixed():
    bounds = Sprt().bounds
    assert bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    for model in ("pentanomial", "trinomial"):
        won, lost, mixed = (Sprt(0, 50, model=model) for _ in range(3))
        for i in range(40):
            won.add_pair(_pair(i, 1.0, 1.0))
            lost.add_pair(_pair(i, 0.0, 0.0))
            mixed.add_pair(_mixed(i))
            if i == 5:
                assert (won.decision(), lost.decision(), mixed.decision()) == (None,) * 3
        assert won.decision() == "H1" and won.llr() > bounds[1]
        assert lost.decision() == "H0" and lost.llr() < bounds[0]
        assert mixed.decision() is None, model
        assert 0 < mixed.llr() < bounds[1]
    with pytest.raises(ValueError):
        Sprt(10, 0)


def test_run_pairs_stops_when_the_sprt_decides():
    test = Sprt(0, 300)
    results = arena.run_pairs("gunjin", "bot_heuristic", "random", 30, 1, sprt=test)
    assert test.decision() == "H1" and len(results) < 30
    assert sum(test.counts) == len(results)


# --- the command line ------------------------------------------------------------------------


def test_arena_is_seeded_the_same_with_any_number_of_jobs():
    args = ("--variant", "blind", "--a", "bot_greedy", "--b", "random", "--pairs", "3")
    out = cli(*args, "--seed", "3", "--quiet")
    assert without_times(out) == without_times(cli(*args, "--seed", "3", "--quiet", "--jobs", "2"))
    words = out.splitlines()[1].split()  # "A wins W, draws D, losses L"
    wins, draws, losses = int(words[2].rstrip(",")), int(words[4].rstrip(",")), int(words[6])
    assert wins + draws + losses == 6
    assert "3 pairs (6 games)" in out
    flag_rows = out.split("first flag turned up")[1].splitlines()[1:]
    counted = [int(row.split()[-4]) for row in flag_rows if row.startswith("    ")]
    assert sum(counted) == 6


def test_arena_sprt_and_unpaired_games_from_the_command_line():
    out = cli("--variant", "classic", "--a", "bot_heuristic", "--b", "random", "--pairs", "40",
              "--seed", "2", "--sprt", "--elo0", "0", "--elo1", "300")  # fmt: skip
    assert "H1 accepted" in out and "40 pairs" not in out
    out = cli("--variant", "gunjin", "--a", "bot_rusher", "--b", "random", "--games", "3")
    assert "3 games, seed 0 (sides alternate)" in out and "over 3 games" in out
    done = subprocess.run(
        [sys.executable, "-m", "junqi_core", "arena", "--variant", "classic", "--a", "nobody",
         "--b", "random"], capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "unknown level 'nobody'" in done.stderr


# --- Blind: the first flag turned up ---------------------------------------------------------


def _square_of(game: Game, want) -> int:
    return next(s for s, p in enumerate(game.position.board) if p and want(p))


def _flip(game: Game, player: int, square: int) -> None:
    game.apply(player, f"flip:{game.board_spec.names[square]}")


def test_first_flag_names_whose_flag_and_who_turned_it_up():
    game = Game("blind", seed=5)
    assert first_flag(game, 0) == "none"
    _flip(game, 0, _square_of(game, lambda p: p & 31 == pc.FLAG))
    assert first_flag(game, 0) == "A's flag, turned up by A"  # the first flip picks colours
    assert first_flag(game, 1) == "B's flag, turned up by B"

    game = Game("blind", seed=5)
    _flip(game, 0, _square_of(game, lambda p: p & 31 == pc.ENGINEER))
    colour = game.position.colour_of(0)
    flag = _square_of(game, lambda p: p & 31 == pc.FLAG and pc.colour_of(p) == colour)
    _flip(game, 1, flag)
    assert first_flag(game, 0) == "A's flag, turned up by B"
    assert first_flag(game, 1) == "B's flag, turned up by A"


def test_summary_counts_results_by_first_flag():
    results = [
        {"first_flag": "B's flag, turned up by A", "score_a": 1.0, "reason": "flag_captured"},
        {"first_flag": "B's flag, turned up by A", "score_a": 0.5, "reason": "quiet_moves"},
        {"first_flag": "A's flag, turned up by B", "score_a": 0.0, "reason": "flag_captured"},
    ]
    for r in results:
        r.update(plies=10, cpu_a=[], cpu_b=[], times_a=[], times_b=[])
    text = summary("blind", "medium", "easy", 1, results)
    rows = {line[:36].strip(): line[36:].split() for line in text.splitlines()}
    assert rows["B's flag, turned up by A"] == ["2", "1", "1", "0"]
    assert rows["A's flag, turned up by B"] == ["1", "0", "0", "1"]


def test_early_losses_count_top_pieces_lost_for_less_before_ply_30():
    """A General that dies on a Bomb counts; a Field Marshal traded for the enemy's does
    not; a loss at ply 30 or later does not either."""
    from helpers import make_game, play

    game = make_game("classic", "Fb1 Gc5 Me5 Ka3 fb12 xc6 me6 la10 gb8", swap=0)
    play(game, "c5-c6", "a10-a9", "e5-e6")
    assert arena.early_losses(game) == [["0: general by bomb"], []]
    assert arena.early_losses(game, before=0) == [[], []]
    gunjin = make_game("gunjin", "Fc2 Ab4 Ihq1 fc7 sb5 ehq8", swap=0, turn=1)
    play(gunjin, "b5-b4")  # the Spy takes the Army General
    assert arena.early_losses(gunjin) == [["0: army_general by spy"], []]
