"""An invitation answered by a third page after someone else took it: the host's page tells
that page with one `taken` message; only a guest that has not started takes it, and it
changes nothing but an event."""

from __future__ import annotations

import json

from junqi_core.bridge import handle
from junqi_core.fair import FairPeer
from junqi_core.fair.peer import taken_notice
from tests.fairkit import Table


def bridge(**request) -> dict:
    return json.loads(handle(json.dumps(request)))


def test_a_guest_that_has_not_started_is_told_the_invitation_was_taken():
    reply = bridge(op="fair_taken")
    assert reply["ok"] is True and reply["send"] == [taken_notice()]
    third = bridge(op="fair_guest")
    before = bridge(op="fair_state", peer=third["peer"])["state"]
    told = bridge(op="fair", peer=third["peer"], call="receive", text=reply["send"][0])
    assert told["ok"] is True, told
    assert told["events"] == [{"type": "taken"}]
    assert told["send"] == [] and told["view"]["fair"]["stage"] == "hello"
    assert "state" not in told  # nothing changed
    assert bridge(op="fair_state", peer=third["peer"])["state"] == before


def test_nobody_else_takes_it():
    table = Table("classic", seed=1)
    table.deliver()  # hello both ways: both pages have started
    # (a host never gets one: a taken notice comes from a host)
    for name, code in (("host", "own_message"), ("guest", "unexpected")):
        refused = table.peers[name].receive(taken_notice())
        assert refused["ok"] is False and refused["error"]["code"] == code, refused
    host = FairPeer.host("classic")
    assert host.receive(taken_notice())["error"]["code"] == "own_message"
    guest = FairPeer.guest()
    wrong = json.loads(taken_notice()) | {"sid": "ab" * 32}
    assert guest.receive(json.dumps(wrong))["error"]["code"] == "unexpected"
    extra = json.loads(taken_notice()) | {"game": "x"}
    assert guest.receive(json.dumps(extra))["error"]["code"] == "malformed"
