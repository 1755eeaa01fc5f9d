"""Unexpected messages are refused with a reason and never change the receiving page:
replayed, reordered, forged (wrong session, wrong number, impossible claims, bad group
elements) and malformed ones.  The game then goes on as if they had never come."""

from __future__ import annotations

import json

import pytest

from junqi_core.fair.group import P, element_hex
from junqi_core.fair.messages import MAX_MESSAGE_CHARS
from tests.fairkit import Table, check_against_referee, resign

NON_RESIDUE = 11  # (11|P) = -1: outside the prime-order subgroup


def _forge(receiver, kind: str, **fields) -> str:
    """A message with a correct envelope for `receiver` (the next number, its session)."""
    message = {
        "v": 1,
        "type": kind,
        "from": "guest" if receiver.state.role == "host" else "host",
        "seq": receiver.state.conn.seq_in,
        "sid": receiver.game.sid,
        **fields,
    }
    return json.dumps(message)


def _refused(peer, text, code: str | None = None) -> dict:
    before, view = peer.to_json(), peer.view()
    reply = peer.receive(text, now=0)
    assert not reply["ok"] and reply["send"] == [], reply
    if code is not None:
        assert reply["error"]["code"] == code, reply["error"]
    assert reply["error"]["message"]
    assert peer.to_json() == before and peer.view() == view
    return reply["error"]


@pytest.fixture(scope="module")
def midgame():
    """A Classic game a few actions in, with the guest to move and nothing in flight."""
    table = Table("classic", seed=21)
    table.deploy_all()
    while table.to_move() != "guest" or len(table.records()) < 6:
        table.step()
    return table


def _to_host(table: Table, kind: str, **fields) -> str:
    return _forge(table.host, kind, **fields)


def test_replayed_and_reordered_messages():
    table = Table("classic", seed=4)
    table.deploy_all()
    old = next(text for sender, text in table.log if sender == "guest")
    _refused(table.host, old, "replayed")
    table.step()  # the host moves: the guest gets one message
    name = table.to_move()
    assert name == "guest"
    table.take("guest", table.guest.act(table.choices("guest")[0], now=0))
    table.take("guest", table.guest.act("offer", now=0))  # a second message in flight
    first, second = table.inbox["host"][:2]
    _refused(table.host, second, "out_of_order")
    table.take("host", table.host.receive(first, now=0))
    table.take("host", table.host.receive(second, now=0))
    table.inbox["host"] = table.inbox["host"][2:]
    table.deliver()
    assert table.host.game.shadow.offer_by == 1


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        "{}",
        '{"v": 2, "type": "act", "seq": 0, "sid": null}',
        "x" * (MAX_MESSAGE_CHARS + 1),
        "[" * 5000 + "]" * 5000,
    ],
)
def test_malformed_text_is_refused(midgame, text):
    _refused(midgame.host, text)


def test_malformed_fields_are_refused(midgame):
    host = midgame.host
    h = len(midgame.records())
    action = midgame.choices("guest")[0]
    good = json.loads(_to_host(midgame, "act", h=h, action=action))
    cases = {
        "unknown_type": {**good, "type": "teleport"},
        "extra field": {**good, "rank": "field_marshal"},
        "missing field": {k: v for k, v in good.items() if k != "action"},
        "h as text": {**good, "h": str(h)},
        "h as bool": {**good, "h": True},
        "seq missing": {k: v for k, v in good.items() if k != "seq"},
        "from missing": {k: v for k, v in good.items() if k != "from"},
        "from unknown": {**good, "from": "referee"},
        "from null": {**good, "from": None},
        "sid garbage": {**good, "sid": "zz" * 32},
        "long action": {**good, "action": "a" * 40},
    }
    for name, message in cases.items():
        error = _refused(host, json.dumps(message))
        assert error["code"] in ("malformed", "unknown_type"), (name, error)


def test_forged_messages_are_refused(midgame):
    table, host = midgame, midgame.host
    h = len(table.records())
    guest_move = table.choices("guest")[0]
    _refused(host, json.dumps({**json.loads(_to_host(table, "abandon")), "sid": "ab" * 32}))
    _refused(host, _to_host(table, "act", h=h + 1, action=guest_move), "wrong_action_number")
    _refused(host, _to_host(table, "act", h=h, action="a12-a1"), "illegal_move")
    _refused(host, _to_host(table, "act", h=h, action="c7-c7"), "bad_action")
    _refused(host, _to_host(table, "act", h=h, action="offer:0"), "malformed")  # names the host
    _refused(host, _to_host(table, "act", h=h, action="timeout", ot=element_hex(4)), "malformed")
    _refused(host, _to_host(table, "commit", root="00" * 32), "unexpected")
    _refused(host, _to_host(table, "status", h=h, mobile=True), "unexpected")
    _refused(
        host,
        _to_host(table, "ot_reply", h=h, rows=["00" * 16], ot=element_hex(4), key=element_hex(4)),
    )
    _refused(host, _to_host(table, "flip_share", h=h, share=element_hex(4), card=3))
    _refused(host, _to_host(table, "request", h=h, action="resign:1", id=0), "malformed")
    _refused(host, _to_host(table, "deck", cards=[element_hex(4)] * 50), "unexpected")
    _refused(
        host,
        _to_host(
            table,
            "hello",
            role="guest",
            nonce="00" * 32,
            engine="x",
            rules={"variant": "classic", "preset": None, "options": {}},
            clock=None,
        ),
        "unexpected",
    )


@pytest.mark.parametrize("value", [0, 1, P - 1, NON_RESIDUE, P, P + 2, -4])
def test_bad_group_elements_are_refused(midgame, value):
    table, host = midgame, midgame.host
    h = len(table.records())
    text = format(value % (1 << 2048), "0512x")
    action = table.choices("guest")[0]
    _refused(host, _to_host(table, "act", h=h, action=action, ot=text), "bad_element")


def test_an_act_that_passes_the_turn_is_refused_as_malformed(midgame):
    """`pass` is how the engine writes a lost turn internally; on the wire a lost turn is
    `timeout`. It once reached the move-shape check and failed there (IndexError)."""
    h = len(midgame.records())
    _refused(midgame.host, _to_host(midgame, "act", h=h, action="pass"), "malformed")


@pytest.mark.parametrize("version", [1.0, True, "1", None, [1]])
def test_a_protocol_version_that_is_not_exactly_the_integer_1_is_refused(midgame, version):
    h = len(midgame.records())
    message = json.loads(_to_host(midgame, "act", h=h, action=midgame.choices("guest")[0]))
    error = _refused(midgame.host, json.dumps({**message, "v": version}))
    assert error["code"] == "malformed", error


def test_a_message_echoes_at_most_a_short_prefix_of_what_was_sent(midgame):
    long = "x" * 100_000
    h = len(midgame.records())
    good = json.loads(_to_host(midgame, "act", h=h, action=midgame.choices("guest")[0]))
    for message in ({**good, "v": long}, {**good, "type": long}, {"v": 1, "type": "act", long: 1}):
        error = _refused(midgame.host, json.dumps(message))
        assert "x" * 41 not in error["message"], error["message"][:100]


def _hello(rules: dict) -> str:
    from junqi_core.fair import ENGINE

    return json.dumps(
        {
            "v": 1,
            "type": "hello",
            "from": "host",
            "seq": 0,
            "sid": None,
            "role": "host",
            "nonce": "ab" * 32,
            "engine": ENGINE,
            "rules": rules,
            "clock": None,
        }
    )


def test_a_hello_must_name_every_rule_option_exactly():
    from junqi_core.fair import FairPeer
    from junqi_core.variants import find_variant

    rules = find_variant("classic").rules_json()
    assert FairPeer.guest().receive(_hello(rules), now=0)["ok"]
    options = rules["options"]
    for damaged in (
        {**rules, "options": {}},
        {**rules, "options": {k: v for k, v in options.items() if k != "stations"}},
        {**rules, "options": {**options, "quiet_limit": float(options["quiet_limit"])}},
        {**rules, "options": {**options, "stations": int(options["stations"])}},
        {**rules, "preset": None},
    ):
        guest = FairPeer.guest()
        _refused(guest, _hello(damaged))


@pytest.mark.parametrize("version", [1.0, True])
def test_a_saved_friend_game_needs_an_exact_state_version(version):
    from junqi_core.fair import FairError, FairPeer

    state = json.loads(FairPeer.guest().to_json())
    with pytest.raises(FairError):
        FairPeer.from_json(json.dumps({**state, "version": version}))


def _nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


@pytest.mark.parametrize("stage", ["play", "ended"])
def test_an_opening_nested_deeper_than_any_opening_is_refused_and_the_save_still_restores(stage):
    """The other side's opening is kept in this page's saved state until the audit reads
    it. Nested near the cap on a message, it made the page's own save nest deeper than a
    saved state may: after a reload the game (its verdict, the match's results) could not
    be restored. An opening nests two deep at most ({"layout": {square: letter}}, ...)."""
    from junqi_core.fair import FairPeer

    table = Table("classic", seed=8)
    table.deploy_all()
    for _ in range(4):
        table.step()
    host = table.host
    if stage == "ended":
        assert host.act("resign", now=0)["ok"]
    assert host.game.stage == stage
    for depth in (3, 8, 29):
        text = _forge(host, "open", secrets={"layout": _nested(depth)})
        assert len(text) < MAX_MESSAGE_CHARS
        error = _refused(host, text, "malformed")
        assert "opening" in error["message"]
    FairPeer.from_json(host.to_json())  # the page's own save restores


def test_the_game_goes_on_after_refusals(midgame):
    for _ in range(30):
        midgame.step()
    resign(midgame)
    check_against_referee(midgame)


def _echo(peer, text: str) -> str:
    """A text this page sent, sent back to it with the number it expects next (a page
    that reflects what it gets, or a channel looping back)."""
    return json.dumps({**json.loads(text), "seq": peer.state.conn.seq_in})


def test_a_page_refuses_its_own_commit_sent_back():
    """The host's own commit, back as the guest's, made the guest's root its own."""
    table = Table("classic", seed=5)
    table.deliver()
    commit = table.take("host", table.host.deploy(now=0))["send"][0]
    assert json.loads(commit)["type"] == "commit"
    error = _refused(table.host, _echo(table.host, commit), "own_message")
    assert "host" in error["message"]
    assert table.host.game.theirs.root is None
    table.play()  # and the game goes on
    resign(table)
    check_against_referee(table)


def test_a_page_refuses_its_own_blind_deck_sent_back():
    table = Table("blind", seed=5)
    table.pump(1)  # the host's hello reaches the guest
    table.pump(1)  # the guest's hello reaches the host: it deals
    deck = next(t for n, t in table.log if n == "host" and json.loads(t)["type"] == "deck")
    _refused(table.host, _echo(table.host, deck), "own_message")
    assert table.host.game.decks.d2 is None
    table.deliver()
    assert table.host.game.stage == table.guest.game.stage == "play"


def test_a_page_refuses_its_own_act_sent_back_after_the_game():
    table = Table("classic", seed=6)
    table.deploy_all()
    for _ in range(4):
        table.step()
    act = next(t for n, t in reversed(table.log) if n == "host" and '"act"' in t)
    resign(table, "guest")
    assert table.host.game.stage == "done"
    _refused(table.host, _echo(table.host, act), "own_message")


def test_a_hello_names_its_sender():
    from junqi_core.fair import FairPeer
    from junqi_core.variants import find_variant

    hello = json.loads(_hello(find_variant("classic").rules_json()))
    _refused(FairPeer.guest(), json.dumps({**hello, "role": "guest", "from": "host"}))
    _refused(FairPeer.guest(), json.dumps({**hello, "from": "guest"}), "own_message")
