"""The command line: seeded self-play prints outcomes by reason."""

from __future__ import annotations

import json
import subprocess
import sys

from junqi_core.selfplay import selfplay


def run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "junqi_core", *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout


def test_selfplay_prints_outcomes_by_reason():
    out = run("selfplay", "--variant", "classic", "--games", "4", "--seed", "2")
    assert "4 random classic games, seed 2" in out
    counted = sum(int(line.split()[-1]) for line in out.splitlines()[1:-1])
    assert counted == 4


def test_selfplay_json_is_seeded_and_matches_the_library():
    first = json.loads(
        run("selfplay", "--variant", "blind", "--games", "3", "--seed", "9", "--json")
    )
    assert first == selfplay("blind", 3, 9)
    assert first == json.loads(
        run("selfplay", "--variant", "blind", "--games", "3", "--seed", "9", "--json")
    )
