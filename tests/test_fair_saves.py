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


def _edited(name: str, edit) -> str:
    saved = json.loads(_current(name)[0])
    edit(saved)
    return json.dumps(saved)


def _refused_save(text: str, where: str) -> None:
    with pytest.raises(FairError) as refused:
        FairPeer.from_json(text)
    assert refused.value.code == "bad_state", refused.value
    assert where in str(refused.value), str(refused.value)


@pytest.mark.parametrize(
    ("name", "stage"),
    [
        ("gunjin_setup_host", "xyz"),  # deploy then answered wrong_phase for ever
        ("gunjin_setup_host", "SETUP"),
        ("gunjin_setup_host", "deal"),  # a deal in Gunjin
        ("blind_play", "setup"),  # Blind has no deployment
        ("classic_attack_pending", "done"),  # done with no verdict: view() broke
        ("classic_attack_pending", "setup"),  # setup after play started
        ("gunjin_abandoned", "play"),  # play after the verdict
        ("gunjin_abandoned", "ended"),  # ended with the verdict in
    ],
)
def test_a_save_whose_stage_no_game_could_be_in_is_refused(name, stage):
    _refused_save(_edited(name, lambda s: s["session"].update(stage=stage)), "session.stage")


@pytest.mark.parametrize(
    "rules",
    [
        None,
        [],
        {"variant": "gunjin"},
        "classic",
        "flag_shown: 0",
    ],
)
@pytest.mark.parametrize("name", ["classic_done_rematch_asked", "gunjin_hello_sent"])
def test_a_save_whose_match_rules_the_engine_refuses_is_refused(name, rules):
    """match.rules goes through the check session.rules does (a rematch plays them)."""

    def edit(saved: dict) -> None:
        if rules == "flag_shown: 0":
            saved["match"]["rules"]["options"]["flag_shown"] = 0
        else:
            saved["match"]["rules"] = rules

    _refused_save(_edited(name, edit), "match.rules")


def test_a_save_whose_match_rules_differ_from_the_game_is_refused():
    def edit(saved: dict) -> None:
        saved["match"]["rules"]["options"]["flag_shown"] = False

    _refused_save(_edited("classic_done_rematch_asked", edit), "match.rules")


@pytest.mark.parametrize("where", ["session", "both"])
def test_a_save_whose_game_rules_the_engine_refuses_is_refused(where):
    """1 for true (equal in Python, not in JSON) raised RulesRefused out of from_json."""

    def edit(saved: dict) -> None:
        for part in ("session", "match") if where == "both" else ("session",):
            saved[part]["rules"]["options"]["stations"] = 1

    with pytest.raises(FairError) as refused:
        FairPeer.from_json(_edited("classic_attack_pending", edit))
    assert refused.value.code == "bad_state" and ".rules" in str(refused.value)


@pytest.mark.parametrize(
    ("name", "edit", "where"),
    [
        # the host's Blind page made a guest: its next flip share broke (TypeError)
        ("blind_play", lambda s: s["session"].update(role="host"), "session.role"),
        ("classic_attack_pending", lambda s: s["session"].update(role="host"), "session.role"),
        # the whole page made a host: its hello says it is the guest
        ("classic_attack_pending", lambda s: s.update(role="host"), "conn.sent[0]"),
        ("blind_play", lambda s: s.update(role="xyz"), "role"),
        ("blind_play", lambda s: s["session"].update(seat=1 - s["session"]["seat"]), "seat"),
        ("blind_play", lambda s: s["session"]["mine"].update(table=None), "session.mine"),
        ("blind_play", lambda s: s["session"]["decks"].update(d2=None), "session.decks"),
        ("classic_attack_pending", lambda s: s["session"].update(sid="ab" * 32), "session.sid"),
        ("classic_attack_pending", lambda s: s["match"].update(game=1), "match"),
        (
            "classic_attack_pending",
            lambda s: s["session"].update(clock={"deploy": 9, "move": 9}),
            "session.clock",
        ),
        ("classic_attack_pending", lambda s: s["session"]["mine"].update(root=None), "mine"),
        (
            "classic_attack_pending",
            lambda s: s["session"]["records"][0].update(player=2),
            "session.records[0].player",
        ),
        ("classic_attack_pending", lambda s: s["session"]["pending"].update(h=3), "pending"),
        (
            "classic_attack_pending",
            lambda s: s["session"]["theirs"].update(root="zz"),
            "session.theirs.root",
        ),
        ("classic_attack_pending", lambda s: s["conn"].update(seq_out=3), "conn"),
        ("classic_attack_pending", lambda s: s["conn"]["sent"].pop(), "conn"),
        (
            "classic_attack_pending",
            lambda s: s["conn"]["sent"].insert(0, s["conn"]["sent"].pop()),
            "conn.sent",
        ),
        ("classic_attack_pending", lambda s: s["conn"].update(chain="x"), "conn.chain"),
        ("classic_attack_pending", lambda s: s["conn"].update(seq_in=-1), "conn.seq_in"),
        ("classic_attack_pending", lambda s: s["conn"].update(resume_mark=99), "conn"),
        ("classic_attack_pending", lambda s: s["match"]["nonces"].update(host=None), "match"),
        (
            "classic_attack_pending",
            lambda s: s["match"]["rematch"].update(mine="ab" * 32),
            "match.rematch",
        ),
        ("classic_done_rematch_asked", lambda s: s["match"].update(results=[{}]), "results"),
        (
            "gunjin_abandoned",
            lambda s: s["session"]["verdict"]["result"].update(winner=5),
            "session.verdict",
        ),
        ("gunjin_abandoned", lambda s: s["session"]["end"].update(by=-1), "session.end"),
        (
            "classic_attack_pending",
            lambda s: s["session"]["clock_state"].update(mine=[["sleep"], 0]),
            "session.clock_state",
        ),
        ("blind_play", lambda s: s["session"].update(revealed={"zz9": "flag"}), "revealed"),
        # an exchange in flight whose answer would read a value no page made (internal)
        ("classic_attack_pending", lambda s: s["session"]["pending"].update(b="zz"), "pending.b"),
        ("classic_attack_pending", lambda s: s["session"]["pending"].update(c=99), "pending.c"),
        (
            "classic_attack_pending",
            lambda s: s["session"]["pending"].update(action="a1-zz"),
            "session.pending.action",
        ),
        (
            "classic_defend_pending_reconnecting",
            lambda s: s["session"]["mine"].update(ot={}),
            "session.pending",
        ),
        (
            "classic_defend_pending_reconnecting",
            lambda s: s["session"]["pending"]["down"].update(A="1"),
            "session.pending.down.A",
        ),
        # the other side's opening, kept but never audited: the page would wait for it
        (
            "classic_attack_pending",
            lambda s: s["session"]["theirs"].update(open={"layout": {}}),
            "session.theirs.open",
        ),
    ],
)
def test_a_save_no_live_page_could_hold_is_refused(name, edit, where):
    """Every value is checked against what a live page could hold, not only its type."""
    _refused_save(_edited(name, edit), where)


def test_an_old_save_resends_what_the_other_page_lacks_and_the_game_goes_on():
    """Both pages restored from saves written before messages named their sender: the
    message the guest never got is resent in today's shape, and play goes on to the end
    with the two transcripts equal."""
    from tests.fairkit import Table, resign

    host = FairPeer.from_json(_current("classic_defend_pending_reconnecting")[0])
    guest = FairPeer.from_json(_current("classic_attack_pending")[0])
    table = Table("classic", seed=3)
    table.peers.update(host=host, guest=guest)
    table.inbox, table.log = {"host": [], "guest": []}, []
    table.take("guest", guest.reconnect())
    table.deliver()
    resent = [json.loads(text) for sender, text in table.log if sender == "host"]
    assert resent[0]["type"] == "ot_reply" and resent[0]["from"] == "host"
    assert guest.game.pending is None
    assert host.transcript_hash() == guest.transcript_hash()
    for _ in range(20):
        table.step()
    resign(table)
    assert host.view()["fair"]["stage"] == guest.view()["fair"]["stage"] == "done"
    assert host.transcript_hash() == guest.transcript_hash()


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda d: d.pop(next(iter(d))), "session.mine.draft"),  # a square left empty
        (lambda d: d.update({next(iter(d)): "Z"}), "session.mine.draft"),  # no such piece
        (lambda d: d.update({"zz9": "F"}), "session.mine.draft"),  # not its square
    ],
)
def test_a_save_whose_draft_could_not_be_deployed_is_refused(edit, where):
    _refused_save(
        _edited("gunjin_setup_host", lambda s: edit(s["session"]["mine"]["draft"])), where
    )


def test_a_save_whose_draft_breaks_a_placement_rule_is_refused():
    """A flag moved off its headquarters (a swap the page would refuse)."""

    def edit(saved: dict) -> None:
        draft = saved["session"]["mine"]["draft"]
        flag = next(s for s, x in draft.items() if x == "F")
        other = next(s for s, x in draft.items() if x not in ("F", "B") and s[1:] > "3")
        draft[flag], draft[other] = draft[other], draft[flag]

    _refused_save(_edited("classic_done_rematch_asked", edit), "session.mine")


@pytest.mark.parametrize("variant", ["classic", "blind"])
def test_every_state_a_live_page_passes_through_restores(variant):
    """The checks refuse no state an honest page holds: after every call of both pages
    (deployment, combats or flips in flight, a reconnect, a resignation, the audit, a
    rematch and the next game), each page's save restores to the same save."""
    from tests.fairkit import Table, resign

    table = Table(variant, seed=7, clock={"deploy": 60, "move": 20})
    take = table.take
    restored = 0

    def take_and_restore(name: str, reply: dict) -> dict:
        nonlocal restored
        reply = take(name, reply)
        for peer in table.peers.values():
            text = peer.to_json()
            assert FairPeer.from_json(text).to_json() == text
            restored += 1
        return reply

    table.take = take_and_restore  # type: ignore[method-assign]
    for game in range(2):
        if variant == "blind":
            table.deliver()
        else:
            table.deploy_all()
        for _ in range(8):
            table.step(aggression=0.7)
        table.take("host", table.host.reconnect())
        table.take("guest", table.guest.reconnect())
        table.deliver()
        resign(table)
        if game == 0:
            assert table.host.game.stage == table.guest.game.stage == "done"
            table.take("host", table.host.act("rematch", now=0))
            table.take("guest", table.guest.act("rematch", now=0))
            table.deliver()
    assert table.host.state.match.game == 1 and restored > 100


def test_a_guest_save_before_the_hello_holds_no_match():
    saved = json.loads(FairPeer.guest().to_json())
    FairPeer.from_json(json.dumps(saved))
    rules = json.loads(_current("gunjin_hello_sent")[0])["match"]["rules"]
    _refused_save(json.dumps({**saved, "match": {**saved["match"], "rules": rules}}), "match")
    _refused_save(json.dumps({**saved, "match": {**saved["match"], "game": 3}}), "match.game")
