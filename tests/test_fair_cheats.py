"""A cheating page is caught every time, with the action it cheated at; messages that are
replayed, reordered, forged or malformed are refused and change nothing."""

from __future__ import annotations

import json

import pytest

from junqi_core.fair import combat
from junqi_core.fair.group import element_hex, hash_to_element
from junqi_core.fair.setup import commit
from junqi_core.pieces import (
    ATTACKER_WINS,
    ENGINEER,
    FACE_DOWN,
    FIELD_MARSHAL,
    FLAG,
    G_ENGINEER,
    KIND_MASK,
    MINE,
    piece,
)
from tests.fairkit import (
    Table,
    attacks,
    fault_of,
    resign,
    resign_holding_opening,
    seed_deals,
    true_game,
)


@pytest.fixture(autouse=True)
def _seeded_deals(monkeypatch):
    """Blind deals repeat from run to run, so every failure can be replayed."""
    seed_deals(monkeypatch, 0)


def _truths(table: Table) -> list[int | None]:
    """The true combat row of every recorded action (None: no combat)."""
    referee = true_game(table)
    out = []
    for record in table.records("guest"):
        entry = referee.apply(record["player"], record["action"])
        out.append(None if not entry.result else entry.result)
    return out


def _play_with_attacks(table: Table, cheater: str, until, max_actions: int = 400) -> None:
    """Random play in which the cheater attacks whenever it can, until `until()`."""
    for _ in range(max_actions):
        table.deliver()
        name = table.to_move()
        if name is None or until():
            return
        options = attacks(table, name) if name == cheater else []
        action = table.rng.choice(options or table.choices(name))
        table.take(name, table.peers[name].act(action, now=table.now))
    raise AssertionError("the cheat never happened")


def _honest_sees(table: Table, honest: str, cheater: str, code: str, action: int | None):
    fault = fault_of(table.peers[honest])
    seat = table.peers[cheater].game.seat
    assert fault is not None, "the cheat was not found"
    assert (fault["player"], fault["code"], fault["action"]) == (seat, code, action), fault
    result = table.peers[honest].view()["result"]
    assert result == {"winner": 1 - seat, "reason": "rule_broken"}
    return fault


def _disputed_at(table: Table) -> int:
    """The action the honest side disputed at once (it is not a record: it never completed)."""
    assert table.host.game.disputed or table.guest.game.disputed
    return len(table.records("guest"))


def _cheats(table: Table, seat: int) -> list[int]:
    """Actions (0-based) where the cheater's announced outcome differs from the truth."""
    records = table.records("guest")
    truths = _truths(table)
    return [
        h
        for h, (record, truth) in enumerate(zip(records, truths, strict=True))
        if record["player"] == seat and "outcome" in record and record["outcome"] & 3 != truth
    ]


def test_false_combat_rows_from_the_attacker():
    table = Table("classic", seed=7)
    table.deploy_all()
    conduct = table.host.conduct
    n = combat.row_count(table.host.game.facts.cls)
    conduct.attacker_rows = lambda cls, kind: [ATTACKER_WINS] * n  # "my piece always wins"
    conduct.announce = lambda row: ATTACKER_WINS
    lied = lambda: bool(_cheats(table, 0)) or table.host.game.stage != "play"  # noqa: E731
    _play_with_attacks(table, "host", lied)
    resign(table)
    first = min(_cheats(table, 0), default=_disputed_at(table))
    fault = _honest_sees(table, "guest", "host", "false_rows", first + 1)
    assert fault["ply"] == first  # no meta actions here: the action's ply is its index


def test_false_combat_rows_from_the_defender():
    table = Table("gunjin", seed=4)
    table.deploy_all()
    n = combat.row_count(table.guest.game.facts.cls)
    table.guest.conduct.defender_rows = lambda cls, kind, index: [2] * n  # "mine always holds"
    wins = lambda: any(  # noqa: E731
        r["player"] == 0 and r.get("outcome") == ATTACKER_WINS for r in table.records("host")
    )

    def stop() -> bool:
        return table.guest.game.stage != "play" or wins()

    _play_with_attacks(table, "host", stop)
    resign(table)
    lies = [
        h
        for h, (r, truth) in enumerate(zip(table.records("host"), _truths(table), strict=False))
        if r["player"] == 0 and truth is not None and truth != 2
    ]
    first = lies[0] if lies else _disputed_at(table)
    _honest_sees(table, "host", "guest", "false_rows", first + 1)


def test_fighting_as_another_piece():
    table = Table("classic", seed=8)
    table.deploy_all()
    conduct = table.host.conduct
    conduct.fight_kind = lambda position, square: FIELD_MARSHAL
    conduct.attacker_rows = lambda cls, kind: combat.rows_for_defender_index(cls, FIELD_MARSHAL)
    played = []

    def stop() -> bool:
        records = table.records("host")
        for h, record in enumerate(records):
            if record["player"] == 0 and "outcome" in record and h not in played:
                played.append(h)
        return bool(played) or table.host.game.stage != "play"

    _play_with_attacks(table, "host", stop)
    resign(table)
    referee = true_game(table)
    first = None
    for h, record in enumerate(table.records("guest")):
        if h == played[0]:
            frm = referee.board_spec.index[record["action"].split("-")[0]]
            if referee.position.board[frm] & KIND_MASK != FIELD_MARSHAL:
                first = h
            break
        referee.apply(record["player"], record["action"])
    if first is None:
        pytest.skip("the cheater attacked with its real Field Marshal")
    _honest_sees(table, "guest", "host", "false_choice", first + 1)


def test_a_layout_opened_differently_from_its_commitment():
    table = Table("gunjin", seed=2)
    table.deploy_all()
    conduct = table.guest.conduct
    honest_opening = conduct.opening

    def swapped(state) -> dict:
        opening = json.loads(json.dumps(honest_opening(state)))
        layout = opening["layout"]
        a, b = next((x, y) for x in layout for y in layout if layout[x] != layout[y])
        layout[a], layout[b] = layout[b], layout[a]
        return opening

    conduct.opening = swapped
    for _ in range(6):
        table.step()
    resign(table)
    _honest_sees(table, "host", "guest", "commitment_mismatch", None)


def test_a_mine_that_moves():
    table = Table("gunjin", seed=3)
    table.deliver()
    facts = table.host.game.facts
    layout = facts.deployment.random_layout(0, table.rng)
    a4 = facts.spec.index["a4"]
    mine_square = next(s for s, k in layout.items() if k == MINE)
    layout[mine_square], layout[a4] = layout[a4], layout[mine_square]
    table.take("host", table.host.deploy(facts.named(layout)))
    table.deploy_all()
    b4 = facts.spec.index["b4"]
    table.take("host", table.host.act("b4-b5"))  # an attack over the bridge empties b4
    table.deliver()
    table.take("guest", table.guest.act(next(a for a in table.choices("guest") if "b4" not in a)))
    table.deliver()
    position = table.host.game.shadow.position
    assert not position.board[b4]
    position.board[a4] = piece(G_ENGINEER, 0)  # its page treats the mine as mobile
    table.take("host", table.host.act("a4-b4"))
    table.deliver()
    resign(table, "guest")
    _honest_sees(table, "guest", "host", "illegal_action", 3)


def test_a_piece_that_turns_a_railway_corner():
    table = Table("classic", seed=11)
    table.deploy_all()

    def corner_move() -> tuple[int, str] | None:
        if table.to_move() != "host":
            return None
        position = table.host.game.shadow.position
        real = set(position.legal_moves(0))
        for frm, p in enumerate(position.board):
            kind = p & KIND_MASK
            if not p or position.piece_owner(p) != 0 or kind in (ENGINEER, FLAG) or kind > 10:
                continue
            position.board[frm] = piece(ENGINEER, 0)
            code = position.move_code
            extra = [m for m in position.legal_moves(0) if code.frm[m] == frm and m not in real]
            position.board[frm] = p
            if extra:
                names = position.spec.names
                return frm, f"{names[frm]}-{names[code.to[extra[0]]]}"
        return None

    found = []

    def stop() -> bool:
        found[:] = [corner_move()] if corner_move() else []
        return bool(found) or table.host.game.stage != "play"

    _play_with_attacks(table, "guest", stop, max_actions=600)
    frm, action = found[0]
    h = table.host.game.h
    # its page lets the piece move like an Engineer
    table.host.game.shadow.position.board[frm] = piece(ENGINEER, 0)
    table.take("host", table.host.act(action))
    table.deliver()
    resign(table, "guest")
    _honest_sees(table, "guest", "host", "illegal_action", h + 1)


def test_an_illegal_deployment():
    table = Table("classic", seed=1)
    table.deliver()
    layout = table.guest.game.facts.deployment.random_layout(1, table.rng)
    flag = next(s for s, k in layout.items() if k == FLAG)
    other = next(s for s, k in layout.items() if k not in (FLAG,) and s != flag)
    layout[flag], layout[other] = layout[other], layout[flag]  # the flag leaves the HQ
    # what a modified page does: no check before committing
    table.take("guest", table.guest.run(commit, layout))
    table.deploy_all()
    for _ in range(4):
        table.step()
    resign(table, "host")
    _honest_sees(table, "host", "guest", "illegal_deployment", None)


@pytest.mark.parametrize("cheater", ["host", "guest"])
def test_a_wrong_flip(cheater):
    table = Table("blind", seed=5)
    table.deploy_all()
    conduct = table.peers[cheater].conduct
    honest_share = conduct.share

    def other_post(state, square: int) -> str:
        board = state.shadow.position.board
        other = next(s for s, p in enumerate(board) if p & FACE_DOWN and s != square)
        return honest_share(state, other)

    conduct.share = other_post
    for _ in range(3):
        table.step()
    honest = "guest" if cheater == "host" else "host"
    resign(table, honest)
    fault = _honest_sees(table, honest, cheater, "wrong_flip", 1)  # the first flip shows it
    assert fault["ply"] == fault["action"] - 1


@pytest.mark.parametrize("cheater", ["host", "guest"])
def test_a_tampered_shuffle(cheater):
    table = Table("blind", seed=6)
    # The cheater's deck carries one value that is no card at all.
    sender = "host" if cheater == "host" else "guest"
    table.pump(2 if cheater == "host" else 3)  # until the cheater's deck is on its way
    box = "guest" if sender == "host" else "host"
    index = next(i for i, t in enumerate(table.inbox[box]) if json.loads(t)["type"] == "deck")
    message = json.loads(table.inbox[box][index])
    message["cards"][7] = element_hex(hash_to_element("not a card", 7))
    table.inbox[box][index] = json.dumps(message)
    table.deliver()
    for _ in range(4):
        table.step()
    honest = "guest" if cheater == "host" else "host"
    resign(table, honest)
    _honest_sees(table, honest, cheater, "tampered_shuffle", None)


def test_refusing_to_open_loses():
    table = Table("classic", seed=2)
    table.deploy_all()
    for _ in range(4):
        table.step()
    resign_holding_opening(table, "host")  # the host (the winner) never opens its commitments
    assert table.guest.view()["fair"]["stage"] == "ended"
    table.take("guest", table.guest.tick(now=30_000))
    assert table.guest.view()["fair"]["stage"] == "ended"
    table.take("guest", table.guest.tick(now=61_000))
    assert table.guest.view()["result"] == {"winner": 1, "reason": "refused_audit"}
