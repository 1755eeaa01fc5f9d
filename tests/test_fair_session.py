"""The game around the protocol: saving and resuming, clocks and claims, draw offers,
rematches, the flag shown when a Field Marshal falls, and the audit of claims."""

from __future__ import annotations

import copy
import json

import pytest

from junqi_core.fair import FairPeer, audit
from junqi_core.fair.data import to_json
from junqi_core.fair.end import dispute, transcript, verdict_alone
from tests.fairkit import Table, attacks, check_against_referee, resign, seed_deals

CLOCK = {"deploy": 90, "move": 30}


@pytest.fixture(autouse=True)
def _seeded_deals(monkeypatch):
    """Blind deals repeat from run to run, so every failure can be replayed."""
    seed_deals(monkeypatch, 0)


def _restore(table: Table) -> None:
    """Both pages reload from their saves; whatever was in flight is lost."""
    saved = {name: peer.to_json() for name, peer in table.peers.items()}
    table.inbox = {"host": [], "guest": []}
    table.peers = {name: FairPeer.from_json(text) for name, text in saved.items()}


def test_resume_after_a_reconnect_in_the_middle_of_a_combat():
    table = Table("gunjin", seed=9)
    table.deploy_all()
    while True:  # play on until an attack is on its way
        table.deliver()
        name = table.to_move()
        options = attacks(table, name)
        table.take(name, table.peers[name].act(table.rng.choice(options or table.choices(name))))
        if options:
            break
    assert table.peers[name].game.pending.kind == "attack"
    table.pump(1)  # the defender answers; its reply is lost with the channel
    before = len(table.records())
    _restore(table)
    assert table.host.transcript_hash() != table.guest.transcript_hash()
    table.take("host", table.host.reconnect())
    table.take("guest", table.guest.reconnect())
    table.deliver()
    assert table.host.transcript_hash() == table.guest.transcript_hash()
    assert len(table.records()) >= before
    for _ in range(30):
        table.step()
    resign(table)
    check_against_referee(table)


@pytest.mark.parametrize("deal", range(8))
def test_one_page_reconnects_and_the_other_answers(monkeypatch, deal):
    """The page that asks to resume may send on the new channel before the answer comes
    (its share of the flip the lost action asked for); nothing is sent twice."""
    seed_deals(monkeypatch, deal)
    table = Table("blind", seed=2)
    table.deploy_all()
    for _ in range(5):
        table.step()
    mover = table.to_move()
    other = "guest" if mover == "host" else "host"
    table.take(mover, table.peers[mover].act(table.choices(mover)[0], now=0))
    _restore(table)  # that action never arrived
    table.take(other, table.peers[other].reconnect())
    table.deliver()
    assert table.host.transcript_hash() == table.guest.transcript_hash()
    resign(table)
    check_against_referee(table)


def test_a_page_restored_from_an_older_save_is_told_so():
    table = Table("classic", seed=3)
    table.deploy_all()
    old = table.host.to_json()
    table.step()  # the host moved after that save, and the guest has the move
    table.peers["host"] = FairPeer.from_json(old)
    table.inbox = {"host": [], "guest": []}
    reply = table.host.reconnect()
    answer = table.guest.receive(reply["send"][0], now=0)
    assert not answer["ok"] and answer["error"]["code"] == "resume_mismatch"


def test_an_undeployed_side_gets_a_random_layout_after_the_deploy_clock():
    table = Table("classic", seed=1, clock=CLOCK)
    table.deliver()
    guest = table.guest
    table.take("guest", guest.tick(now=89_000))
    assert guest.game.mine.layout is None
    table.take("guest", guest.tick(now=90_000))
    assert guest.game.mine.layout is not None
    table.take("host", table.host.deploy(now=90_500))
    table.now = 90_500
    table.deliver()
    assert table.host.view()["phase"] == "play"


def test_time_outs_pass_the_turn_and_the_third_loses():
    table = Table("classic", seed=2, clock=CLOCK)
    table.deploy_all()
    for turn in range(1, 4):
        mover = table.to_move()
        start = table.peers[mover].game.clock_state.mine.since
        table.now = start + 30_000
        table.take(mover, table.peers[mover].tick(now=table.now))
        table.deliver()
        if turn < 3:
            table.step()  # the other side moves, and the first side's clock runs again
    view = table.host.view()
    assert view["timeouts"] == [3, 0]
    assert view["result"] == {"winner": 1, "reason": "timeouts"}
    check_against_referee(table)


def test_a_stalling_opponent_is_claimed_against_then_loses_by_abandonment():
    table = Table("gunjin", seed=2, clock=CLOCK)
    table.deploy_all()
    host, guest = table.host, table.guest
    table.take("guest", guest.tick(now=34_000))
    assert table.inbox["host"] == []  # 30 s of the host's plus 5 s of grace have not passed
    table.take("guest", guest.tick(now=35_000))
    claim = table.inbox["host"].pop()
    assert json.loads(claim)["type"] == "claim_timeout"
    early = host.receive(claim, now=20_000)  # by the host's own clock it is too early
    assert early["ok"] and early["send"] == [] and early["events"][0]["reason"] == "early"
    table.take("guest", guest.tick(now=64_000))
    assert guest.view()["fair"]["stage"] == "play"
    table.take("guest", guest.tick(now=65_000))
    assert guest.view()["result"] == {"winner": 1, "reason": "abandoned"}
    table.now = 65_000
    table.deliver()  # the host's page was asleep past its own deadline: it agrees
    assert host.view()["result"] == {"winner": 1, "reason": "abandoned"}


def test_a_false_abandonment_counts_against_its_sender():
    table = Table("classic", seed=3, clock=CLOCK)
    table.deploy_all()
    # a page that just wants the game over
    table.take("guest", table.guest.run(verdict_alone, "abandoned"))
    table.now = 10_000  # the host still had 20 s to move
    table.deliver()
    assert table.host.view()["result"] == {"winner": 0, "reason": "abandoned"}


def test_a_claim_makes_a_sleeping_page_time_out():
    table = Table("classic", seed=2, clock=CLOCK)
    table.deploy_all()
    table.take("guest", table.guest.tick(now=35_000))
    table.now = 35_000
    table.deliver()  # the host's page wakes up on the claim, past its own deadline
    assert table.host.view()["timeouts"] == [1, 0]
    assert table.to_move() == "guest"


def test_draw_offers_on_and_off_turn():
    table = Table("classic", seed=4)
    table.deploy_all()
    table.take("guest", table.guest.act("offer"))  # off turn: a request the host sequences
    table.deliver()
    assert table.host.view()["offer_by"] == 1 == table.guest.view()["offer_by"]
    table.take("host", table.host.act("decline"))
    table.deliver()
    assert table.guest.view()["offer_by"] is None
    for _ in range(10):
        table.step()
    mover = table.to_move()
    other = "guest" if mover == "host" else "host"
    table.take(mover, table.peers[mover].act("offer"))
    table.deliver()
    table.take(other, table.peers[other].act("accept"))  # a request until the mover moves
    table.deliver()
    assert table.host.view()["result"] == {"winner": None, "reason": "agreed_draw"}
    check_against_referee(table)


def test_rematch_switches_sides():
    table = Table("gunjin", seed=5)
    table.deploy_all()
    resign(table, "guest")
    first = table.host.game.sid
    table.take("host", table.host.act("rematch"))
    table.deliver()
    assert table.host.game.sid == first  # one side asking is not enough
    table.take("guest", table.guest.act("rematch"))
    table.deliver()
    assert table.host.game.seat == 1 and table.guest.game.seat == 0
    assert table.host.game.sid != first
    table.deploy_all()
    assert table.to_move() == "guest"  # player 0 moves first: now the guest
    table.step()
    resign(table, "host")
    check_against_referee(table)
    results = table.guest.view()["fair"]["results"]
    assert results == [
        {"game": 0, "seat": 1, "result": {"winner": 0, "reason": "resignation"}, "fault": None}
    ]


def test_flag_shown_when_the_field_marshal_falls():
    table = Table("classic", seed=12, options={"flag_shown": True})
    table.deploy_all()
    shown = lambda: any(p.game.revealed for p in table.peers.values())  # noqa: E731
    for _ in range(3000):
        table.deliver()
        name = table.to_move()
        if name is None or shown():
            break
        table.take(
            name,
            table.peers[name].act(table.rng.choice(attacks(table, name) or table.choices(name))),
        )
    assert shown(), "no Field Marshal fell"
    viewer = next(p for p in table.peers.values() if p.game.revealed)
    square = next(iter(viewer.game.revealed))
    assert viewer.view()["board"][square] == {
        "owner": viewer.game.opp,
        "kind": "flag",
        "down": False,
    }
    resign(table)
    check_against_referee(table)
    # The audit insists on it: a hidden flag, or one shown without cause, is caught.
    judged, openings = _judged(table)
    hidden = copy.deepcopy(judged)
    reveal = next(c for c in hidden["claims"] if c["type"] == "reveal")
    hidden["claims"].remove(reveal)
    verdict, _ = audit(hidden, openings)
    assert verdict.fault.code == "flag_not_shown"
    assert verdict.fault.player == reveal["player"]
    assert verdict.fault.action == reveal["h"]  # the combat it fell in
    early = copy.deepcopy(judged)
    early["claims"].append({**reveal, "h": 1})
    verdict, _ = audit(early, openings)
    assert verdict.fault.code == "false_reveal"


def _judged(table: Table) -> tuple[dict, list]:
    """The host's transcript (as JSON, to forge) and both openings, at the end."""
    game = table.host.game
    openings = [None, None]
    openings[game.seat], openings[game.opp] = table.host.conduct.opening(game), game.theirs.opening
    return to_json(transcript(game)), openings


def _finished(variant: str, seed: int) -> tuple[dict, list]:
    table = Table(variant, seed=seed)
    table.deploy_all()
    for _ in range(40):
        table.step()
    resign(table)
    return _judged(table)


def test_the_audit_checks_claims():
    transcript, openings = _finished("gunjin", 2)
    verdict, _ = audit(transcript, openings)
    assert verdict.ok, verdict
    # A claim to occupy the headquarters with an ordinary move.
    forged = copy.deepcopy(transcript)
    h, record = next(
        (h, r) for h, r in enumerate(forged["records"]) if "-" in r["action"] and "outcome" not in r
    )
    record["claim"] = "occupation"
    verdict, _ = audit(forged, openings)
    assert (verdict.fault.code, verdict.fault.action) == ("false_claim", h + 1)
    # A side that says it cannot move when it can.
    forged = copy.deepcopy(transcript)
    forged["claims"].append({"h": 4, "player": 0, "type": "status", "mobile": False})
    verdict, _ = audit(forged, openings)
    assert (verdict.fault.code, verdict.fault.player) == ("false_status", 0)
    # A result the moves do not reach.
    forged = copy.deepcopy(transcript)
    forged["end"] = {**forged["end"], "winner": 1 - (forged["end"]["winner"] or 0)}
    verdict, _ = audit(forged, openings)
    assert verdict.fault.code == "wrong_result"


def test_stopping_the_game_without_cause_loses():
    table = Table("classic", seed=6)
    table.deploy_all()
    for _ in range(4):
        table.step()
    h = table.guest.game.h
    table.take("guest", table.guest.run(dispute, h, "nothing at all", None))  # a false dispute
    table.deliver()
    fault = table.host.view()["fair"]["verdict"]["fault"]
    assert (fault["player"], fault["code"]) == (1, "false_dispute")
    assert table.host.view()["result"] == {"winner": 0, "reason": "rule_broken"}


def test_a_resignation_crossing_a_move_voids_the_move():
    table = Table("classic", seed=7)
    table.deploy_all()
    for _ in range(3):
        table.step()
    mover = table.to_move()
    other = "guest" if mover == "host" else "host"
    table.take(mover, table.peers[mover].act(table.choices(mover)[0]))
    table.take(other, table.peers[other].act("resign"))  # before the move arrived
    table.deliver()
    assert table.records(mover)[-1]["action"].startswith("resign")
    check_against_referee(table)


def test_a_request_crossing_a_move_is_applied_by_its_sender():
    table = Table("classic", seed=8)
    table.deploy_all()
    table.take("host", table.host.act(table.choices("host")[0]))
    table.take("guest", table.guest.act("offer"))  # sent before the host's move arrived
    table.deliver()
    assert table.host.view()["offer_by"] == 1 == table.guest.view()["offer_by"]
    assert table.records()[-1] == {"player": 1, "action": "offer:1"}
    resign(table)
    check_against_referee(table)
