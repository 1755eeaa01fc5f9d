"""The bridge's friend-play ops (docs/api.md, "Friend play"): two peers through
`bridge.handle`, exactly as two pages' workers would run them, and clean refusals."""

from __future__ import annotations

import json

import pytest

from junqi_core import bridge


def call(**request) -> dict:
    return json.loads(bridge.handle(json.dumps(request)))


def state_of(peer: str) -> str:
    return call(op="fair_state", peer=peer)["state"]


class Pair:
    """A host and a guest peer in this one bridge, a message queue each way."""

    def __init__(self, variant: str = "classic", clock=None, **rules) -> None:
        reply = call(op="fair_host", variant=variant, clock=clock, **rules)
        assert reply["ok"], reply
        self.host = reply["peer"]
        self.guest = call(op="fair_guest")["peer"]
        self.inbox = {self.host: [], self.guest: []}
        self.other = {self.host: self.guest, self.guest: self.host}
        self.saved: dict[str, str] = {}
        self.log: dict[str, list[str]] = {self.host: [], self.guest: []}
        self.take(self.host, reply)

    def take(self, peer: str, reply: dict) -> dict:
        assert reply.get("ok"), reply
        if "state" in reply:
            self.saved[peer] = reply["state"]
        self.inbox[self.other[peer]].extend(reply["send"])
        self.log.setdefault(peer, []).extend(reply["send"])
        return reply

    def fair(self, peer: str, call_name: str, **fields) -> dict:
        fields.setdefault("now", 0)
        return self.take(peer, call(op="fair", peer=peer, call=call_name, **fields))

    def deliver(self) -> None:
        for _ in range(1000):
            peer = next((p for p in self.inbox if self.inbox[p]), None)
            if peer is None:
                return
            self.fair(peer, "receive", text=self.inbox[peer].pop(0))
        raise AssertionError("messages keep coming")

    def connect(self) -> None:
        """A data channel opens: both call reconnect first (the host's hello was sent
        before any channel existed and is resent by the resume)."""
        self.inbox = {self.host: [], self.guest: []}
        self.fair(self.host, "reconnect")
        self.fair(self.guest, "reconnect")
        self.deliver()


def test_two_peers_through_the_bridge_play_and_audit():
    pair = Pair("classic", clock={"deploy": 90, "move": 30})
    pair.connect()
    for peer in (pair.host, pair.guest):
        view = pair.fair(peer, "view")["view"]
        assert view["phase"] == "setup" and view["fair"]["stage"] == "setup"
        mine = [p for p in view["board"].values()]
        assert mine and all(p["owner"] == view["player"] and p["kind"] for p in mine)
    reply = pair.fair(pair.host, "setup", setup="mirror")
    assert "state" in reply, "the draft changed: the state is handed out again"
    again = pair.fair(pair.host, "view")
    assert "state" not in again, "nothing changed: no state"
    pair.fair(pair.host, "deploy")
    pair.fair(pair.guest, "deploy")
    pair.deliver()
    host_view = pair.fair(pair.host, "view")["view"]
    assert host_view["phase"] == "play" and host_view["turn"] == host_view["player"] == 0
    enemy = [p for p in host_view["board"].values() if p["owner"] == 1]
    assert enemy and all(p["kind"] is None for p in enemy), "no rank of the other side"
    frm, targets = next(iter(host_view["dests"]["moves"].items()))
    reply = pair.fair(pair.host, "act", action=f"{frm}-{targets[0]['to']}")
    assert [e["type"] for e in reply["events"]] == ["action"]
    pair.deliver()
    with pytest.raises(AssertionError):  # a record only after the audit
        pair.fair(pair.guest, "record")
    pair.fair(pair.guest, "act", action="resign")
    pair.deliver()
    for peer in (pair.host, pair.guest):
        view = pair.fair(peer, "view")["view"]
        assert view["fair"]["stage"] == "done" and view["fair"]["verdict"]["ok"] is True
        assert view["result"]["reason"] == "resignation"
        assert all(p["kind"] for p in view["board"].values()), "all revealed after the audit"
    record = call(op="fair", peer=pair.host, call="record")["record"]
    assert record["variant"] == "classic"


def test_a_tick_that_changes_nothing_carries_neither_view_nor_state():
    """The page ticks once a second: it gets the view and the state only when they changed."""
    pair = Pair("classic", clock={"deploy": 90, "move": 30})
    pair.connect()
    for peer in (pair.host, pair.guest):
        pair.fair(peer, "deploy")
    pair.deliver()
    before = state_of(pair.host)
    quiet = call(op="fair", peer=pair.host, call="tick", now=1_000)
    assert quiet["ok"] and quiet["send"] == [] and quiet["events"] == []
    assert "view" not in quiet and "state" not in quiet
    assert len(json.dumps(quiet)) < 100
    assert "view" in call(op="fair", peer=pair.host, call="view", now=1_000)  # asked: given
    late = pair.fair(pair.host, "tick", now=31_000)  # the host's move time is up
    assert [json.loads(t)["action"] for t in late["send"]] == ["timeout"]
    assert late["view"]["timeouts"] == [1, 0] and late["state"] != before
    assert state_of(pair.host) == late["state"]


def test_a_restored_peer_goes_on_where_it_was():
    pair = Pair("gunjin")
    pair.connect()
    for peer in (pair.host, pair.guest):
        pair.fair(peer, "deploy")
    pair.deliver()
    saved = pair.saved[pair.guest]
    assert saved == state_of(pair.guest), "the last state handed out is the current one"
    restored = call(op="fair_restore", state=saved)
    assert restored["ok"] and restored["view"]["phase"] == "play"
    old_guest = pair.guest
    pair.guest = restored["peer"]
    pair.other = {pair.host: pair.guest, pair.guest: pair.host}
    assert call(op="fair_drop", peer=old_guest)["ok"]
    pair.connect()
    view = pair.fair(pair.host, "view")["view"]
    frm, targets = next(iter(view["dests"]["moves"].items()))
    pair.fair(pair.host, "act", action=f"{frm}-{targets[0]['to']}")
    pair.deliver()
    guest = pair.fair(pair.guest, "view")["view"]
    assert guest["ply"] == 1 and guest["turn"] == guest["player"]
    host_hash = pair.fair(pair.host, "view")["view"]["fair"]["transcript"]
    assert guest["fair"]["transcript"] == host_hash


@pytest.mark.parametrize(
    "request_fields",
    [
        {"peer": "p999999", "call": "view"},  # unknown peer
        {"peer": None, "call": "view"},
        {"peer": "", "call": "tick"},
        {"call": "nonsense"},
        {"call": "receive", "text": "{not json"},  # malformed message text
        {"call": "receive", "text": 42},
        {"call": "receive", "text": json.dumps({"v": 1, "type": "act", "seq": 0, "sid": None})},
        {"call": "receive", "text": json.dumps({"v": 2, "type": "hello"})},
        {"call": "receive", "text": "x" * 300_000},
        {"call": "act", "action": "a1-a2"},  # not in play yet
        {"call": "act", "action": ["resign"]},
        {"call": "setup", "setup": "shuffle"},
        {"call": "setup", "setup": "swap", "a": "zz9", "b": "a1"},
        {"call": "deploy", "layout": {"a1": "Q"}},
        {"call": "tick", "now": "soon"},
        {"call": "tick", "now": -5},
        {"call": "tick", "now": True},
        {"call": "record"},
    ],
)
def test_bad_requests_are_refused_and_change_nothing(request_fields):
    pair = Pair("classic", clock={"deploy": 90, "move": 30})
    pair.connect()
    host = pair.host
    before = state_of(host)
    view_before = call(op="fair", peer=host, call="view", now=0)["view"]
    fields = dict(request_fields)
    fields.setdefault("peer", host)
    reply = call(op="fair", **fields)
    assert reply.get("ok") is not True, reply
    assert set(reply) == {"v", "error"} and reply["error"]["code"], reply
    assert state_of(host) == before
    assert call(op="fair", peer=host, call="view", now=0)["view"] == view_before
    # and the game goes on: a deploy still works
    assert call(op="fair", peer=host, call="deploy", now=0)["ok"]


def test_replayed_and_skipped_messages_are_refused():
    pair = Pair("classic")
    pair.connect()
    hello = next(t for t in pair.log[pair.host] if json.loads(t)["type"] == "hello")
    before = state_of(pair.guest)
    replayed = call(op="fair", peer=pair.guest, call="receive", text=hello)
    assert replayed["error"]["code"] == "replayed"
    pair.fair(pair.host, "deploy")
    commit = pair.inbox[pair.guest].pop()
    skipped = json.loads(commit)
    skipped["seq"] += 1
    reply = call(op="fair", peer=pair.guest, call="receive", text=json.dumps(skipped))
    assert reply["error"]["code"] == "out_of_order"
    assert state_of(pair.guest) == before
    assert call(op="fair", peer=pair.guest, call="receive", text=commit)["ok"]


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"variant": "chess"}, "unknown_variant"),
        ({"variant": "classic", "preset": "nope"}, "unknown_preset"),
        ({"variant": "classic", "options": {"stations": "maybe"}}, "bad_option"),
        ({"variant": "classic", "clock": {"move": 30}}, "bad_clock"),
        ({"variant": "classic", "clock": {"deploy": 90, "move": 0}}, "bad_clock"),
        ({"variant": "classic", "clock": {"deploy": 90, "move": 30.5}}, "bad_clock"),
    ],
)
def test_fair_host_refuses_bad_rules_and_stores_nothing(fields, code):
    peers = dict(bridge._peers)
    reply = call(op="fair_host", **fields)
    assert reply["error"]["code"] == code, reply
    assert bridge._peers == peers


def test_fair_host_takes_presets_and_options():
    reply = call(op="fair_host", variant="classic", preset="chinese", clock=None)
    assert reply["ok"], reply
    hello = json.loads(reply["send"][0])
    assert hello["rules"]["preset"] == "chinese" and hello["clock"] is None


@pytest.mark.parametrize(
    ("state", "code"),
    [
        ("not json", "bad_state"),
        (json.dumps({"format": "junqi-save"}), "bad_state"),
        (None, "bad_state"),
        (
            json.dumps({"format": "junqi-fair-peer", "version": 1, "engine": "0.0.0"}),
            "version_mismatch",
        ),
    ],
)
def test_fair_restore_refuses_what_is_not_a_saved_friend_game(state, code):
    peers = dict(bridge._peers)
    reply = call(op="fair_restore", state=state)
    assert reply["error"]["code"] == code, reply
    assert bridge._peers == peers


def test_a_damaged_save_is_refused_whole():
    pair = Pair("classic")
    saved = json.loads(state_of(pair.host))
    saved["conn"] = "broken"
    reply = call(op="fair_restore", state=json.dumps(saved))
    assert "error" in reply, reply


def test_blind_friend_games_have_no_record_yet():
    pair = Pair("blind")
    pair.connect()
    pair.fair(pair.host, "act", action="resign")
    pair.deliver()
    reply = call(op="fair", peer=pair.host, call="record")
    assert reply["error"]["code"] == "bad_record"
    # the view says so, so the page offers no record (it never asks which variant it is)
    view = pair.fair(pair.host, "view")["view"]
    assert view["fair"]["stage"] == "done" and view["fair"]["record"] is False
    classic = Pair("classic")
    classic.connect()
    assert classic.fair(classic.host, "view")["view"]["fair"]["record"] is True
