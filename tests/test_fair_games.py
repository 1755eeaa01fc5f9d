"""Two honest pages play whole games over the fair-play protocol: every variant ends
exactly as the referee game with the same layouts (or deal) and actions, and neither page
ever holds the other's unrevealed ranks."""

from __future__ import annotations

import pytest

from tests.fairkit import Table, check_against_referee, check_hidden, seed_deals

GAMES = [  # variant, seed, share of meta actions, attack bias, how it ends with that seed
    ("classic", 2, 0.0, 0.5, "flag_captured"),
    ("classic", 1, 0.02, 0.0, "timeouts"),  # draw offers and declines on the way
    ("gunjin", 2, 0.0, 0.5, "occupation"),
    ("gunjin", 1, 0.0, 0.5, "immobilised"),  # a status and its reply
    ("blind", 3, 0.0, 0.0, "flag_captured"),
]


@pytest.mark.parametrize(("variant", "seed", "meta", "aggression", "reason"), GAMES)
def test_honest_game_ends_as_the_referee(monkeypatch, variant, seed, meta, aggression, reason):
    seed_deals(monkeypatch, seed)
    table = Table(variant, seed=seed)
    table.play(meta=meta, aggression=aggression)
    assert table.host.view()["result"]["reason"] == reason
    for peer in (table.host, table.guest):
        view = peer.view()
        assert view["phase"] == "over" and view["fair"]["stage"] == "done"
        assert all(cell["kind"] for cell in view["board"].values())  # all shown at the end
    referee = check_against_referee(table)
    assert table.host.view()["result"] == table.guest.view()["result"]
    assert table.host.transcript_hash() == table.guest.transcript_hash()
    assert len(referee.history) == len(table.records())


@pytest.mark.parametrize(("variant", "actions"), [("classic", 50), ("gunjin", 40), ("blind", 30)])
def test_no_page_holds_the_other_sides_ranks(monkeypatch, variant, actions):
    seed_deals(monkeypatch, 3)
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


@pytest.mark.parametrize(
    ("variant", "preset"),
    [
        ("classic", "chinese"),
        ("classic", "open"),
        ("blind", "engineer_flag"),
        ("gunjin", "simple"),
        ("gunjin", "tanks"),
    ],
)
def test_honest_game_under_a_preset_ends_as_the_referee(monkeypatch, variant, preset):
    from junqi_core.variants import PRESETS

    options = next(p.options for p in PRESETS[variant] if p.id == preset)
    seed_deals(monkeypatch, 4)
    table = Table(variant, seed=4, options=dict(options))
    table.play(aggression=0.5)
    assert table.host.view()["rules"]["preset"] == preset
    check_against_referee(table)
    assert table.host.view()["result"] == table.guest.view()["result"]
