"""Play between hidden pieces: combat by two oblivious transfers (Classic, Gunjin), Blind's
flips, and the flag shown when a Field Marshal falls.

Pure functions of the game state returning a `Step`.  What this page's own pieces claim
(kinds, rows, the outcome announced, shares) comes from its `Conduct` (facts.py).
"""

from __future__ import annotations

from dataclasses import replace

from junqi_core.fair import combat, ot
from junqi_core.fair import messages as m
from junqi_core.fair.audit import ot_context
from junqi_core.fair.commit import square_commitment
from junqi_core.fair.end import dispute
from junqi_core.fair.errors import FairError
from junqi_core.fair.errors import hex_int as _int
from junqi_core.fair.group import element_hex, exponent_hex
from junqi_core.fair.setup import new_key
from junqi_core.fair.state import (
    Attack,
    Claim,
    Defend,
    Flipping,
    GameState,
    Record,
    Shares,
    Transfer,
)
from junqi_core.fair.step import Step, add_record, check_h, claim_occupation, expect
from junqi_core.game import HistoryEntry
from junqi_core.notation import parse_move
from junqi_core.pieces import ATTACKER_WINS, DEFENDER_WINS, FACE_DOWN, FIELD_MARSHAL, KIND_MASK
from junqi_core.rules import GunjinPosition


def occupation_possible(state: GameState, player: int, square: int) -> bool:
    position = state.shadow.position
    return isinstance(position, GunjinPosition) and square == position.enemy_hq[player]


def shares(state: GameState, mine: str | None = None, theirs: str | None = None) -> Shares:
    """A flip's shares by role, from this side's and the other side's."""
    if state.facts.host:
        return Shares(host=mine, guest=theirs)
    return Shares(host=theirs, guest=mine)


# --- combat ---------------------------------------------------------------------------


def attack(step: Step, action: str, frm: int) -> Step:
    """This side attacks: its choice of row goes out with the move."""
    state = step.state
    if state.theirs.key is None:
        raise FairError("busy", "the other side's combat key has not arrived yet")
    kind = state.facts.conduct.fight_kind(state.shadow.position, frm)
    b, big_b = ot.choose(_int(state.theirs.key), kind)
    up = Transfer(A=state.theirs.key, B=element_hex(big_b))
    pending = Attack(h=state.h, action=action, c=kind, b=exponent_hex(b), up=up)
    step = step.update(pending=pending, theirs=replace(state.theirs, key=None))
    return step.send(m.Act(h=state.h, action=action, ot=up.B))


def on_their_attack(state: GameState, msg: m.Act, move: int) -> Step:
    """The other side attacks: answer with this side's rows and its own choice."""
    mine, theirs, facts = state.mine, state.theirs, state.facts
    if theirs.key is None or mine.key is None:
        raise FairError("unexpected", "no oblivious-transfer key is ready")
    h, to, position = state.h, facts.spec.move_code.to[move], state.shadow.position
    conduct = facts.conduct
    d_index = conduct.fight_index(position, to)
    rows = conduct.defender_rows(facts.cls, position.board[to] & KIND_MASK, d_index)
    key_a, key_big_a = _int(mine.key.a), _int(mine.key.A)
    rows_up = ot.encrypt_rows(
        state.sid,
        ot_context(h, "up"),
        key_a,
        key_big_a,
        _int(msg.ot),
        rows,  # type: ignore[arg-type]
    )
    b, big_b = ot.choose(_int(theirs.key), d_index)
    pending = Defend(
        h=h,
        action=msg.action,
        d=d_index,
        up=Transfer(A=mine.key.A, B=msg.ot, E=tuple(rows_up)),  # type: ignore[arg-type]
        down=Transfer(A=theirs.key, B=element_hex(big_b)),
    )
    mine = replace(mine, ot={**mine.ot, str(h): exponent_hex(b)})
    step = Step(state).update(mine=mine, pending=pending, theirs=replace(theirs, key=None))
    step = new_key(step)
    key = step.state.mine.key.A  # type: ignore[union-attr]
    return step.send(m.OtReply(h=h, rows=tuple(rows_up), ot=element_hex(big_b), key=key))


def _row_received(
    state: GameState, h: int, direction: str, secret: str, transfer: Transfer, index: int
) -> int | None:
    """The row this side chose in a transfer, opened with its secret (None: the row was
    not made with its key)."""
    context, rows = ot_context(h, direction), list(transfer.E or ())
    big_a, big_b = _int(transfer.A), _int(transfer.B)
    return ot.decrypt_row(state.sid, context, _int(secret), big_a, big_b, rows, index)


def on_ot_reply(state: GameState, msg: m.OtReply, now: float) -> Step:
    """The attacker reads its row, sends its own rows and the outcome it read."""
    pending = expect(state, Attack, msg)
    facts, mine = state.facts, state.mine
    h, kind = pending.h, pending.c
    if len(msg.rows) != combat.row_count(facts.cls):
        raise FairError("malformed", "the reply does not have one row per piece kind")
    up = replace(pending.up, E=msg.rows)
    row = _row_received(state, h, "up", pending.b, up, kind)
    key = mine.key
    assert key is not None
    record = Record(
        player=state.seat, action=pending.action, up=up, down=Transfer(A=key.A, B=msg.ot)
    )
    mine = replace(mine, ot={**mine.ot, str(h): pending.b})
    theirs = replace(state.theirs, key=msg.key)
    step = Step(state).update(mine=mine, theirs=theirs, pending=None)
    if row is None or row not in combat.possible_as_attacker(facts.cls, kind):
        return dispute(step, h, "the defender's combat rows are not valid", record)
    rows_down = ot.encrypt_rows(
        state.sid,
        ot_context(h, "down"),
        _int(key.a),
        _int(key.A),
        _int(msg.ot),
        facts.conduct.attacker_rows(facts.cls, kind),
    )
    row = facts.conduct.announce(row)
    down = replace(record.down, E=tuple(rows_down))  # type: ignore[arg-type]
    record = replace(record, down=down, outcome=row)
    step = new_key(step)
    step, entry = add_record(step, record)
    step, claim = claim_occupation(step)
    key_now = step.state.mine.key.A  # type: ignore[union-attr]
    rows_out = tuple(rows_down)
    step = step.send(m.OtRows(h=h, rows=rows_out, outcome=row, key=key_now, claim=claim))
    return show_flag(step, entry)


def on_ot_rows(state: GameState, msg: m.OtRows, now: float) -> Step:
    """The defender reads its row and checks the outcome the attacker announced."""
    pending = expect(state, Defend, msg)
    facts, h = state.facts, pending.h
    if len(msg.rows) != combat.row_count(facts.cls):
        raise FairError("malformed", "the rows do not have one row per piece kind")
    down = replace(pending.down, E=msg.rows)
    row = _row_received(state, h, "down", state.mine.ot[str(h)], down, pending.d)
    record = Record(
        player=state.opp, action=pending.action, outcome=msg.outcome, up=pending.up, down=down
    )
    step = Step(state).update(theirs=replace(state.theirs, key=msg.key), pending=None)
    to = facts.spec.move_code.to[parse_move(facts.spec, pending.action)]
    kind = state.shadow.position.board[to] & KIND_MASK
    if (
        row is None
        or row != msg.outcome
        or row not in combat.possible_as_defender(facts.cls, kind, pending.d)
    ):
        return dispute(step, h, "the combat outcome does not match this side's own", record)
    if msg.claim is not None:
        record = replace(record, claim="occupation")
        won = row & combat.RESULT_MASK == ATTACKER_WINS
        if not (occupation_possible(state, state.opp, to) and won):
            return dispute(step, h, "a false claim to occupy the headquarters", record)
    step, entry = add_record(step, record)
    return show_flag(step, entry)


# --- flips (Blind) ----------------------------------------------------------------------


def flip(step: Step, action: str, square: int) -> Step:
    """This side flips a post: its share goes out with the action."""
    state = step.state
    share = state.facts.conduct.share(state, square)
    step = step.update(pending=Flipping(h=state.h, action=action, share=share))
    return step.send(m.Act(h=state.h, action=action, share=share))


def shown_cards(state: GameState) -> set[int]:
    return {r.card for r in state.records if r.card is not None}


def on_their_flip(state: GameState, msg: m.Act, move: int) -> Step:
    """The other side flips: read its card, answer with this side's share."""
    square, h = state.facts.spec.move_code.frm[move], state.h
    if not state.shadow.position.board[square] & FACE_DOWN:
        raise FairError("illegal_move", "that piece is already face up")
    record = Record(player=state.opp, action=msg.action, shares=shares(state, theirs=msg.share))
    card = state.cards.get(_int(msg.share))  # type: ignore[arg-type]
    if card is None or card in shown_cards(state):
        return dispute(Step(state), h, "the flip share is not a hidden card", record)
    share = state.facts.conduct.share(state, square)
    record = replace(record, shares=shares(state, mine=share, theirs=msg.share), card=card)
    step, _ = add_record(Step(state), record)
    return step.send(m.FlipShare(h=h, share=share, card=card))


def on_flip_share(state: GameState, msg: m.FlipShare, now: float) -> Step:
    pending = expect(state, Flipping, msg)
    record = Record(
        player=state.seat,
        action=pending.action,
        shares=shares(state, mine=pending.share, theirs=msg.share),
        card=msg.card,
    )
    step = Step(state).update(pending=None)
    card = state.cards.get(_int(msg.share))
    if card is None or card != msg.card or card in shown_cards(state):
        return dispute(step, pending.h, "the flip does not show the card announced", record)
    return add_record(step, record)[0]


# --- the flag shown ---------------------------------------------------------------------


def show_flag(step: Step, entry: HistoryEntry) -> Step:
    """Rule option: a side whose Field Marshal falls opens its flag square to both."""
    state = step.state
    if not state.facts.flag_shown or state.shadow.ended is not None:
        return step
    position = state.shadow.position
    lost = []
    if entry.result != ATTACKER_WINS:
        lost.append(entry.mover)
    if entry.result != DEFENDER_WINS:
        lost.append(entry.target)
    if not any(
        p & KIND_MASK == FIELD_MARSHAL and position.piece_owner(p) == state.seat for p in lost
    ):
        return step
    mine = state.mine
    square = next(s for s, letter in mine.layout.items() if letter == "F")  # type: ignore[union-attr]
    salt = mine.salts[square]  # type: ignore[index]
    claim = Claim(h=state.h, player=state.seat, kind="reveal", square=square, salt=salt)
    step = step.update(claims=(*state.claims, claim))
    return step.send(m.Reveal(h=state.h, square=square, salt=salt))


def on_reveal(state: GameState, msg: m.Reveal, now: float) -> Step:
    h = check_h(state, msg.h)
    if not state.facts.flag_shown or msg.square in state.revealed:
        raise FairError("unexpected", "a flag shown is not expected")
    squares = state.facts.squares(state.opp)
    if msg.square not in squares:
        raise FairError("malformed", "that is not a starting square of the other side")
    claim = Claim(h=h, player=state.opp, kind="reveal", square=msg.square, salt=msg.salt)
    step = Step(state).update(claims=(*state.claims, claim))
    expected = state.theirs.commitments[squares.index(msg.square)]  # type: ignore[index]
    if square_commitment(state.sid, state.opp, msg.square, "F", msg.salt) != expected:
        return dispute(step, h, "the flag shown does not match the commitment", None)
    step = step.update(revealed={**state.revealed, msg.square: "flag"})
    return step.event({"type": "flag_shown", "square": msg.square})
