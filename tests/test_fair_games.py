"""Two honest pages play whole games over the fair-play protocol: every variant ends
exactly as the referee game with the same layouts (or deal) and actions, and neither page
ever holds the other's unrevealed ranks."""

from __future__ import annotations

import pytest

from tests.fairkit import Table, check_against_referee, check_hidden


@pytest.mark.parametrize(("variant", "seed"), [("classic", 5), ("gunjin", 2), ("blind", 1)])
def test_honest_game_ends_as_the_referee(variant, seed):
    table = Table(variant, seed=seed)
    table.play(meta=0.02 if variant == "classic" else 0.0)
    for peer in (table.host, table.guest):
        view = peer.view()
        assert view["phase"] == "over" and view["fair"]["stage"] == "done"
        assert all(cell["kind"] for cell in view["board"].values())  # all shown at the end
    referee = check_against_referee(table)
    assert table.host.view()["result"] == table.guest.view()["result"]
    assert table.host.transcript_hash() == table.guest.transcript_hash()
    assert len(referee.history) == len(table.records())


@pytest.mark.parametrize(("variant", "actions"), [("classic", 80), ("gunjin", 80), ("blind", 40)])
def test_no_page_holds_the_other_sides_ranks(variant, actions):
    table = Table(variant, seed=3, watch=True)
    table.deploy_all()
    check_hidden(table)
    for _ in range(actions):
        if not table.step():
            break
    check_hidden(table)
    name = table.to_move() or "host"
    table.take(name, table.peers[name].act("resign", now=table.now))
    table.deliver()
    check_against_referee(table)
