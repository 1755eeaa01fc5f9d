"""Friend games saved in a page's storage by earlier versions still restore: the same view,
the same saved text, and the game goes on; a damaged save is refused, saying where.

tests/data/fair_saves_v1.json holds saves written by the code before issue 37 (each page's
`to_json()` and `view()` at that moment): before the hello, in setup, in play with a combat
in flight on either side (one page reconnecting), in Blind's play, and after the audit or
an abandonment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from junqi_core.fair import ENGINE, FairError, FairPeer

SAVES = json.loads((Path(__file__).parent / "data" / "fair_saves_v1.json").read_text())
# what a friend view has told the page since these saves were written: whether the
# audited game can be kept as a record (not in Blind, whose deal no record holds)
ADDED_TO_VIEW = {"record"}


def _current(name: str) -> tuple[str, dict]:
    """The saved text and view, as this engine version would have written them."""
    saved, view = json.loads(SAVES[name]["state"]), json.loads(json.dumps(SAVES[name]["view"]))
    saved["engine"] = ENGINE
    view["fair"]["engine"] = ENGINE
    return json.dumps(saved, separators=(",", ":"), sort_keys=True), view


@pytest.mark.parametrize("name", sorted(SAVES))
def test_an_old_save_restores_to_the_same_game(name):
    text, view = _current(name)
    peer = FairPeer.from_json(text)
    got = peer.view()
    assert set(got["fair"]) - set(view["fair"]) <= ADDED_TO_VIEW
    assert got["fair"].get("record") in (None, name.startswith(("classic", "gunjin")))
    got["fair"] = {k: v for k, v in got["fair"].items() if k not in ADDED_TO_VIEW}
    assert got == view
    assert peer.to_json() == text  # saved again, nothing is lost or added
    reply = peer.tick(now=1000)  # and the game goes on
    assert reply["ok"], reply


def test_an_old_save_goes_on_to_the_end():
    """The attacker's page restored mid-combat, and the defender's: both finish the game."""
    host_text, _ = _current("classic_attack_pending")
    attacker = FairPeer.from_json(host_text)
    assert attacker.game.pending.kind == "attack"
    reply = attacker.act("resign", now=0)
    assert reply["ok"] and json.loads(reply["send"][0])["type"] == "resign"
    assert attacker.view()["fair"]["stage"] == "ended"


@pytest.mark.parametrize(
    ("damage", "where"),
    [
        (lambda s: s["session"]["mine"].pop("layout"), "session.mine.layout"),
        (lambda s: s["session"].update(records="none"), "session.records"),
        (lambda s: s["session"]["records"][0].update(player="0"), "session.records[0].player"),
        (lambda s: s["session"].update(pending={"kind": "sleeping"}), "session.pending"),
        (lambda s: s["conn"].update(seq_in=True), "conn.seq_in"),
        (lambda s: s["match"].update(extra=1), "match"),
    ],
)
def test_a_damaged_save_is_refused_saying_where(damage, where):
    saved = json.loads(_current("classic_attack_pending")[0])
    damage(saved)
    with pytest.raises(FairError) as refused:
        FairPeer.from_json(json.dumps(saved))
    assert refused.value.code == "bad_state"
    assert where in str(refused.value)
