"""The start screen's statistics with a four-seat game counted: the enemy team's CPU levels
name the opponent ("CPU (Easy, Medium)"), beside the other games' rows."""

from __future__ import annotations

import json

from sitekit import ARTIFACTS, wait_ready

STATS = {
    "v": 1,
    "games": {
        "siguo|cpu:easy/medium": {"won": 2, "drawn": 1, "lost": 0},
        "classic|cpu:easy": {"won": 0, "drawn": 0, "lost": 1},
    },
}


def test_a_team_of_cpus_of_two_levels_is_named_in_the_statistics(site, server):
    page = site.open(server.url)
    page.evaluate("s => localStorage.setItem('junqi.stats.v1', s)", json.dumps(STATS))
    page.reload()
    wait_ready(page)
    page.click("#stats-summary")
    row = '#stats-table tr[data-row="siguo|cpu:easy/medium"]'
    page.wait_for_selector(row)
    assert page.inner_text(f"{row} td >> nth=0") == "CPU (Easy, Medium)"
    counts = [page.inner_text(f'{row} [data-count="{c}"]') for c in ("won", "drawn", "lost")]
    assert counts == ["2", "1", "0"]
    classic = '#stats-table tr[data-row="classic|cpu:easy"] td >> nth=0'
    assert page.inner_text(classic) == "CPU (Easy)"
    page.locator("#stats-panel").screenshot(path=str(ARTIFACTS / "stats-teams.png"))
