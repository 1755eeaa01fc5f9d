"""The arena: seeded matches between levels, and the Blind first-flag breakdown."""

from __future__ import annotations

import subprocess
import sys

from junqi_core import pieces as pc
from junqi_core.ai.arena import first_flag, summary
from junqi_core.game import Game


def arena(*args: str) -> str:
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


def test_arena_is_seeded_and_its_counts_add_up():
    args = ("--variant", "blind", "--a", "easy", "--b", "random", "--games", "4", "--seed", "3")
    out = arena(*args, "--quiet")
    assert without_times(out) == without_times(arena(*args, "--quiet", "--jobs", "2"))
    words = out.splitlines()[1].split()  # "A wins W, draws D, losses L"
    wins, draws, losses = int(words[2].rstrip(",")), int(words[4].rstrip(",")), int(words[6])
    assert wins + draws + losses == 4
    assert f"score A {100 * (wins + draws / 2) / 4:.1f}%" in out
    flag_rows = out.split("first flag turned up")[1].splitlines()[1:]
    counted = [int(row.split()[-4]) for row in flag_rows if row.startswith("    ")]
    assert sum(counted) == 4


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
    flag = _square_of(game, lambda p: p & 31 == pc.FLAG and (p >> 5) & 1 == colour)
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
