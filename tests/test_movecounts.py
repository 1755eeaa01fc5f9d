"""Legal-action counts of hand-counted positions (tests/data/movecounts.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from junqi_core.notation import parse_position, position_text

DATA = Path(__file__).parent / "data" / "movecounts.txt"


def _cases():
    for number, line in enumerate(DATA.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() and not line.startswith("#"):
            text, count, _why = (part.strip() for part in line.split(";", 2))
            yield pytest.param(text, int(count), id=f"line{number}-{text.split()[0]}")


@pytest.mark.parametrize("text, count", list(_cases()))
def test_legal_action_count(text, count):
    position = parse_position(text)
    assert position_text(position) == text
    assert len(position.legal_moves()) == count
    assert len(set(position.legal_moves())) == count  # no action listed twice
