"""A step of one game: the new state, the messages it sends and the events it shows.

Every handler of friend play is a pure function of the state (and a message, or this
side's own action) that returns a `Step`, or raises `FairError` to refuse; the state it was
given is never changed, so a refusal leaves everything as it was.  Helpers take a step and
return the next one, so a handler reads top to bottom:

    step = Step(state).update(pending=None)
    step, entry = add_record(step, record)
    return step.send(messages.Resign(h=h))

This module also keeps each seat's game (`shadow`) in step with the records: `rebuilt`
replays them from the start (after loading, after a rewind), `add_record` applies one more
to a copy.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from junqi_core import views
from junqi_core.fair import combat
from junqi_core.fair.deal import CARDS, POSTS
from junqi_core.fair.errors import FairError
from junqi_core.fair.messages import Act, Message
from junqi_core.fair.shadow import ShadowGame, new_shadow, unknown_piece
from junqi_core.fair.state import GameState, Record
from junqi_core.game import PLAY, HistoryEntry, IllegalActionError
from junqi_core.notation import parse_move
from junqi_core.pieces import piece as make_piece
from junqi_core.rules import Outcome


@dataclass(frozen=True)
class Step:
    state: GameState
    sent: tuple[Message, ...] = ()
    events: tuple[dict, ...] = ()

    def update(self, **changes: Any) -> Step:
        """The step with the state's fields changed."""
        return replace(self, state=replace(self.state, **changes))

    def send(self, message: Message) -> Step:
        """Send a message of this game (the connection numbers it)."""
        return replace(self, sent=(*self.sent, replace(message, sid=self.state.sid)))

    def event(self, event: dict) -> Step:
        return replace(self, events=(*self.events, event))


def check_h(state: GameState, h: int) -> int:
    """A message about action number h, when the game is at another one, is refused."""
    if h != state.h:
        raise FairError("wrong_action_number", f"expected action number {state.h}, got {h}")
    return h


def expect(state: GameState, kind: type, message: Any) -> Any:
    """The exchange in progress that a message answers (of class `kind`, at its `h`)."""
    pending = state.pending
    if not isinstance(pending, kind) or pending.h != message.h:
        raise FairError("unexpected", f"a {message.TYPE} message is not expected now")
    return pending


# --- the seat's game --------------------------------------------------------------------


def rebuilt(state: GameState) -> GameState:
    """The state with its seat's game made again from the data (loading, a rewind)."""
    facts = state.facts
    shadow = new_shadow(state.rules)
    if not facts.public:
        mine = state.mine
        if mine.draft:
            shadow.drafts[facts.seat] = facts.ints(mine.draft)
        if mine.layout:
            shadow.layouts[facts.seat] = facts.ints(mine.layout)
        if state.theirs.root:
            shadow.layouts[facts.opp] = {}
    if state.started:
        build_board(shadow, state)
    for record in state.records:
        _apply(shadow, state, record)
    return replace(state, shadow=shadow)


def build_board(shadow: ShadowGame, state: GameState) -> None:
    """The board at the start of play: own pieces, the other side's unknown (Blind: every
    post face down)."""
    facts = state.facts
    board = [0] * facts.spec.size
    if facts.public:
        for square in POSTS:
            board[square] = unknown_piece(0, face_down=True)
    else:
        for square, kind in facts.ints(state.mine.layout).items():  # type: ignore[arg-type]
            board[square] = make_piece(kind, facts.seat)
        for square in facts.deployment.squares(facts.opp):  # type: ignore[union-attr]
            board[square] = unknown_piece(facts.opp)
        shadow.phase = PLAY
    shadow.set_board(board)


def _apply(shadow: ShadowGame, state: GameState, record: Record) -> HistoryEntry:
    """Apply one record to a seat's game that no state holds yet (a fresh copy)."""
    facts, position = state.facts, shadow.position
    forced = trusted = None
    action = record.action
    if action.startswith("flip:"):
        position.board[facts.spec.index[action[5:]]] = CARDS[record.card]  # type: ignore[index]
    elif "-" in action:
        move = parse_move(facts.spec, action)
        if record.player != facts.seat and not facts.public:
            trusted = move
        if record.outcome is not None:
            forced = record.outcome & combat.RESULT_MASK
            if record.outcome & combat.FLAG_TAKEN and record.player == facts.seat:
                flag_colour = position.colour_of(facts.opp)
                flag = make_piece(position.flag_kind, flag_colour)
                position.board[facts.spec.move_code.to[move]] = flag
    entry = shadow.apply_known(record.player, action, forced, trusted)
    if record.claim == "occupation" and record.player != facts.seat:
        shadow.end_with(Outcome(record.player, "occupation"))
    return entry


def add_record(step: Step, record: Record) -> tuple[Step, HistoryEntry]:
    """One more action in the game, on a copy of the seat's game; an action the rules
    refuse is refused."""
    state = step.state
    shadow = state.shadow.clone()
    try:
        entry = _apply(shadow, state, record)
    except IllegalActionError as error:
        raise FairError(error.code, str(error)) from None
    step = step.update(records=(*state.records, record), shadow=shadow)
    event = views.event(shadow, entry, state.facts.seat)
    return step.event({"type": "action", "event": event}), entry


def claim_occupation(step: Step) -> tuple[Step, str | None]:
    """After this side's own action: if it occupied the other's headquarters, say so in the
    record (the other side checks it; the audit too)."""
    state = step.state
    ended = state.shadow.ended
    if ended is None or ended.reason != "occupation" or ended.winner != state.seat:
        return step, None
    last = replace(state.records[-1], claim="occupation")
    return step.update(records=(*state.records[:-1], last)), "occupation"


def own_action(step: Step, action: str) -> Step:
    """Apply one of this seat's own actions that needs no exchange, and send it."""
    h = step.state.h
    step, _ = add_record(step, Record(player=step.state.seat, action=action))
    step, claim = claim_occupation(step)
    return step.send(Act(h=h, action=action, claim=claim))
