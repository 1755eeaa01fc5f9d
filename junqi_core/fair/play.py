"""One game between two pages, one seat's side: its actions, the other side's messages,
and what the page shows (docs/fair-play.md, "How a message flows").

Every entry point is a pure function from the game's state (state.GameState) to a `Step`
(step.py: the new state, the messages to send, the events to show), or raises `FairError`
to refuse and leaves the state as it was.  Each incoming message goes through one table,
`HANDLERS` (message class -> handler); `settle` then does what follows from any change
(the end of play, this seat's duties at the start of its turn, the clocks).  The parts are
in setup.py (deployment, the deal), fights.py (combats, flips, the flag shown), clock.py
and end.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from junqi_core import views
from junqi_core.fair import clock, fights
from junqi_core.fair import messages as m
from junqi_core.fair import setup as setups
from junqi_core.fair.data import to_json
from junqi_core.fair.end import finish, judged, run_audit
from junqi_core.fair.errors import FairError
from junqi_core.fair.facts import Conduct, facts_for
from junqi_core.fair.shadow import shape_possible
from junqi_core.fair.state import (
    Asked,
    AwaitingStatus,
    Claim,
    ClockRules,
    ClockState,
    Decks,
    Defend,
    Flipping,
    GameState,
    Mine,
    Record,
    Theirs,
)
from junqi_core.fair.step import Step, add_record, check_h, expect, own_action, rebuilt
from junqi_core.notation import NotationError, parse_move

META = ("offer", "accept", "decline", "timeout")
DRAW = ("offer", "accept", "decline")

Handler = Callable[[GameState, Any, float], Step]


def new_game(
    role: str,
    rules: dict,
    clock_rules: ClockRules | None,
    sid: str,
    seat: int,
    now: float,
    conduct: Conduct,
) -> Step:
    """A new game: Classic and Gunjin start with a random draft, Blind with the deal."""
    state = GameState(
        role=role,
        rules=rules,
        clock=clock_rules,
        sid=sid,
        seat=seat,
        stage="setup",
        started=False,
        mine=Mine(ot={}),
        theirs=Theirs(),
        decks=Decks(),
        records=(),
        claims=(),
        disputed=None,
        pending=None,
        requests=(),
        next_request=0,
        end=None,
        verdict=None,
        revealed={},
        clock_state=ClockState(),
        facts=facts_for(rules, seat, role, conduct),
    )
    step = Step(rebuilt(state))
    if state.facts.public:
        step = step.update(stage="deal")
        if state.facts.host:
            step = setups.deal_first(step)
    else:
        step = setups.with_draft(step, setups.random_layout(step.state))
    return settle(step, now)


def restored(state: GameState, conduct: Conduct) -> GameState:
    """A game read from a save: its facts, its seat's game and, if audited, the referee."""
    state = replace(state, facts=facts_for(state.rules, state.seat, state.role, conduct))
    state = rebuilt(state)
    if state.stage == "done" and state.theirs.opening is not None:
        state = replace(state, referee=judged(state)[1])
    return state


# --- this seat's actions ---------------------------------------------------------------


def act(state: GameState, action: Any, now: float) -> Step:
    """A move, a flip, `timeout`, or a draw offer, acceptance, refusal or resignation."""
    if not isinstance(action, str):
        raise FairError("bad_action", "an action is a string")
    if state.stage != "play" or state.end is not None:
        raise FairError("wrong_phase", "there is no game in play")
    seat = state.seat
    name, _, arg = action.partition(":")
    if name in ("resign", *DRAW) and arg not in ("", str(seat)):
        raise FairError("wrong_player", f"{action!r} names the other player")
    step = Step(state)
    if name == "resign":
        step = _resign(step)
    elif name in DRAW:
        step = _draw(step, f"{name}:{seat}")
    else:
        if state.pending is not None:
            raise FairError("busy", "wait until the action in progress is complete")
        if state.shadow.turn != seat:
            raise FairError("not_your_turn", "it is the other player's turn")
        step = own_action(step, "timeout") if action == "timeout" else _move(step, action)
    return settle(step, now)


def _draw(step: Step, action: str) -> Step:
    """A draw offer, acceptance or refusal: applied at once on this side's turn, otherwise
    a request the other side sequences (or this side applies when its turn comes)."""
    state = step.state
    name = action.partition(":")[0]
    if state.pending is not None:
        raise FairError("busy", "wait until the action in progress is complete")
    if state.shadow.turn == state.seat:
        return own_action(step, action)
    if name not in state.shadow.meta_actions(state.seat):
        raise FairError(f"cannot_{name}", f"{name} is not possible now")
    rid = state.next_request
    asked = (*state.requests, Asked(id=rid, action=action))
    step = step.update(next_request=rid + 1, requests=asked)
    return step.send(m.Request(h=state.h, action=action, id=rid))


def _move(step: Step, action: str) -> Step:
    state = step.state
    try:
        move = parse_move(state.facts.spec, action)
    except NotationError as error:
        raise FairError("bad_action", str(error)) from None
    if move not in state.shadow.legal_moves():
        raise FairError("illegal_move", f"{action} is not a legal action now")
    frm, to = state.facts.spec.move_code.split(move)
    if frm == to:
        return fights.flip(step, action, frm)
    if state.shadow.position.board[to] and not state.facts.public:
        return fights.attack(step, action, frm)
    return own_action(step, action)


def _resign(step: Step) -> Step:
    state = step.state
    step = step.update(pending=None)
    step, _ = add_record(step, Record(player=state.seat, action=f"resign:{state.seat}"))
    return step.send(m.Resign(h=state.h))


def arrange(
    state: GameState, op: str, now: float, a: Any = None, b: Any = None, layout: Any = None
) -> Step:
    return settle(setups.arrange(state, op, a, b, layout), now)


def deploy(state: GameState, layout: Any, now: float) -> Step:
    return settle(setups.deploy(state, layout), now)


def tick(state: GameState, now: float) -> Step:
    """About once a second: clocks, this side's time-outs, claims (settled if it sent)."""
    step = clock.tick(state, now)
    return settle(step, now) if step.sent else step


# --- the other side's messages ---------------------------------------------------------


def _on_act(state: GameState, msg: m.Act, now: float) -> Step:
    seat, opp, facts = state.seat, state.opp, state.facts
    check_h(state, msg.h)
    action = msg.action
    given = {"ot": msg.ot, "share": msg.share, "claim": msg.claim, "ack": msg.ack}
    extras = {name for name, value in given.items() if value is not None}
    if state.pending is not None:
        raise FairError("unexpected", "an action is already in progress")
    if state.shadow.turn != opp:
        raise FairError("not_your_turn", "it is not the other side's turn")
    step = Step(state)
    if msg.ack is not None:
        asked = next((r for r in state.requests if r.id == msg.ack), None)
        if asked is None or asked.action != action or extras != {"ack"}:
            raise FairError("unexpected", "that is not an answer to a request of this side")
        step, _ = add_record(step, Record(player=seat, action=action))
        return step.update(requests=tuple(r for r in state.requests if r is not asked))
    name, _, arg = action.partition(":")
    if name in META:
        if extras or arg != ("" if name == "timeout" else str(opp)):
            raise FairError("malformed", f"{action!r} is not an action of the other side")
        return add_record(step, Record(player=opp, action=action))[0]
    try:
        move = parse_move(facts.spec, action)
    except NotationError as error:
        raise FairError("bad_action", str(error)) from None
    # 'pass' is the engine's word for a lost turn; on the wire that is `timeout`
    if move == facts.spec.move_code.PASS:
        raise FairError("malformed", "'pass' is not an action; a lost turn is 'timeout'")
    frm, to = facts.spec.move_code.split(move)
    if frm == to:
        if not facts.public or extras != {"share"}:
            raise FairError("malformed", "a flip carries a share and nothing else")
        return fights.on_their_flip(state, msg, move)
    if facts.public:
        if extras:
            raise FairError("malformed", "a Blind move carries nothing else")
        return add_record(step, Record(player=opp, action=action))[0]
    position = state.shadow.position
    if not shape_possible(position.copy(), opp, move):
        raise FairError("illegal_move", f"no piece could play {action} here")
    if position.board[to]:
        if extras != {"ot"}:
            raise FairError("malformed", "an attack carries an oblivious-transfer value")
        return fights.on_their_attack(state, msg, move)
    if extras - {"claim"}:
        raise FairError("malformed", "a move onto an empty post carries no combat values")
    record = Record(player=opp, action=action)
    if msg.claim is not None:
        if not fights.occupation_possible(state, opp, to):
            raise FairError("false_claim", "that move cannot occupy a headquarters")
        record = replace(record, claim="occupation")
    return add_record(step, record)[0]


def _on_request(state: GameState, msg: m.Request, now: float) -> Step:
    opp, shadow = state.opp, state.shadow
    name, _, arg = msg.action.partition(":")
    if name not in DRAW or arg != str(opp):
        raise FairError("malformed", f"{msg.action!r} is not a request of the other side")
    step = Step(state)
    if shadow.turn == state.seat and state.pending is None and name in shadow.meta_actions(opp):
        step, _ = add_record(step, Record(player=opp, action=msg.action))
        return step.send(m.Act(h=state.h, action=msg.action, ack=msg.id))
    # the other side will apply it itself when its turn comes, if still possible
    return step.event({"type": "ignored", "message": "request", "reason": "not now"})


def _on_resign(state: GameState, msg: m.Resign, now: float) -> Step:
    h, opp = msg.h, state.opp
    if h > state.h:
        raise FairError("wrong_action_number", "a resignation from the future")
    step = Step(state)
    if h < state.h:  # actions of this side the resigner never saw are void
        claims = tuple(c for c in state.claims if c.h <= h)
        revealed = {c.square: "flag" for c in claims if c.kind == "reveal" and c.player == opp}
        rewound = replace(state, records=state.records[:h], claims=claims, revealed=revealed)
        step = Step(rebuilt(rewound)).event({"type": "rewound", "to": h})
    step = step.update(pending=None)
    return add_record(step, Record(player=opp, action=f"resign:{opp}"))[0]


def _status(h: int, player: int, mobile: bool) -> Claim:
    return Claim(h=h, player=player, kind="status", mobile=mobile)


def _on_status(state: GameState, msg: m.Status, now: float) -> Step:
    seat, opp, position = state.seat, state.opp, state.shadow.position
    h = check_h(state, msg.h)
    if state.facts.public or state.pending is not None or state.shadow.turn != opp:
        raise FairError("unexpected", "a status is not expected now")
    if msg.mobile and position.quiet < position.quiet_limit:
        raise FairError("unexpected", "the quiet-move limit is not reached")
    step = Step(state).update(claims=(*state.claims, _status(h, opp, msg.mobile)))
    if msg.mobile:
        return finish(step, None, "quiet_moves", opp)
    if not position.no_moves_draw:
        return finish(step, seat, "immobilised", opp)
    mobile = bool(position.legal_moves(seat))
    step = step.update(claims=(*step.state.claims, _status(h, seat, mobile)))
    step = step.send(m.StatusReply(h=h, mobile=mobile))
    return finish(step, seat if mobile else None, "immobilised" if mobile else "no_moves", opp)


def _on_status_reply(state: GameState, msg: m.StatusReply, now: float) -> Step:
    pending = expect(state, AwaitingStatus, msg)
    claims = (*state.claims, _status(pending.h, state.opp, msg.mobile))
    step = Step(state).update(pending=None, claims=claims)
    if msg.mobile:
        return finish(step, state.opp, "immobilised")
    return finish(step, None, "no_moves")


def _on_dispute(state: GameState, msg: m.Dispute, now: float) -> Step:
    """The other side stopped the game; an exchange in progress is kept for the audit."""
    pending, step = state.pending, Step(state)
    record = None
    if isinstance(pending, Defend):
        record = Record(player=state.opp, action=pending.action, up=pending.up, down=pending.down)
    elif isinstance(pending, Flipping):
        shares = fights.shares(state, mine=pending.share)
        record = Record(player=state.seat, action=pending.action, shares=shares)
    elif pending is not None and not isinstance(pending, AwaitingStatus):  # an attack
        record = Record(player=state.seat, action=pending.action, up=pending.up)
    if record is not None:
        step = step.update(disputed=replace(record, partial=True))
    step = step.event({"type": "dispute", "by": state.opp, "reason": msg.reason})
    return finish(step, None, "dispute", state.opp)


def _on_open(state: GameState, msg: m.Open, now: float) -> Step:
    if state.theirs.opening is not None or state.stage in ("setup", "deal"):
        raise FairError("unexpected", "an opening is not expected now")
    step = Step(state).update(theirs=replace(state.theirs, opening=msg.secrets))
    if state.stage == "play":
        return finish(step, None, "stopped", state.opp)
    if state.stage == "ended":
        return run_audit(step)
    # decided without an audit (abandoned): the true game can still be shown
    return step.update(referee=judged(step.state)[1])


HANDLERS: dict[type[m.Message], Handler] = {
    m.Commit: setups.on_commit,
    m.Commitments: setups.on_commitments,
    m.Deck: setups.on_deck,
    m.Act: _on_act,
    m.OtReply: fights.on_ot_reply,
    m.OtRows: fights.on_ot_rows,
    m.FlipShare: fights.on_flip_share,
    m.Status: _on_status,
    m.StatusReply: _on_status_reply,
    m.Reveal: fights.on_reveal,
    m.Request: _on_request,
    m.Resign: _on_resign,
    m.ClaimTimeout: clock.on_claim_timeout,
    m.Abandon: clock.on_abandon,
    m.Dispute: _on_dispute,
    m.Open: _on_open,
}
# Messages of play: ignored once the game is over (sent before the other side learned of
# the end, e.g. crossing a resignation), refused before play.
PLAY_MESSAGES = frozenset(
    {m.Act, m.OtReply, m.OtRows, m.FlipShare, m.Status, m.StatusReply}
    | {m.Reveal, m.Request, m.Resign, m.Dispute}
)


def handle(state: GameState, msg: m.Message, now: float) -> Step:
    """One message of the other side, through the table, then settled."""
    handler = HANDLERS.get(type(msg))
    if handler is None:
        raise FairError("unexpected", f"a {msg.TYPE} message is not expected in a game")
    if type(msg) in PLAY_MESSAGES:
        if state.stage in ("ended", "done"):
            ignored = {"type": "ignored", "message": msg.TYPE, "reason": "game over"}
            return settle(Step(state).event(ignored), now)
        if state.stage != "play":
            raise FairError("wrong_phase", f"a {msg.TYPE} message is not expected before play")
    return settle(handler(state, msg, now), now)


# --- after every change ----------------------------------------------------------------


def _ended_by(state: GameState) -> int | None:
    return state.records[-1].player if state.records else None


def settle(step: Step, now: float) -> Step:
    """After every change: end the game if it ended, do this seat's duties at the start of
    its turn, and move the clocks."""
    state = step.state
    if state.stage == "play" and state.end is None and state.shadow.ended is not None:
        ended = state.shadow.ended
        step = finish(step, ended.winner, ended.reason, _ended_by(state))
    state = step.state
    if state.stage == "play" and state.pending is None and state.shadow.turn == state.seat:
        step = _turn_start(step)
        state = step.state
        ended = state.shadow.ended
        if state.stage == "play" and ended is not None:
            step = finish(step, ended.winner, ended.reason, _ended_by(state))
    return clock.clock_update(step, now)


def _turn_start(step: Step) -> Step:
    """This seat's duties when its turn begins: say so if play has ended (its mobility is
    its own secret), then apply its off-turn requests the other side did not."""
    state = step.state
    seat, h, position = state.seat, state.h, state.shadow.position
    claimed = any(c.h == h and c.player == seat for c in state.claims)
    if not state.facts.public and not claimed:
        moves = position.legal_moves(seat)
        if not moves or position.quiet >= position.quiet_limit:
            mobile = bool(moves)
            step = step.update(claims=(*state.claims, _status(h, seat, mobile)))
            step = step.send(m.Status(h=h, mobile=mobile))
            if mobile:
                return finish(step, None, "quiet_moves", seat)
            if position.no_moves_draw:  # drawn if the other side cannot move either
                return step.update(pending=AwaitingStatus(h=h))
            return finish(step, state.opp, "immobilised", seat)
    for asked in state.requests:
        remaining = tuple(r for r in step.state.requests if r is not asked)
        step = step.update(requests=remaining)
        if asked.action.partition(":")[0] in step.state.shadow.meta_actions(seat):
            step = own_action(step, asked.action)
        if step.state.shadow.ended is not None:
            return step
    return step


# --- what the page shows ---------------------------------------------------------------


def view(state: GameState) -> dict:
    """This seat's view (views.view's shape): the seat's game, or the true one once
    audited; the other side's flag where it was shown."""
    if state.referee is not None:
        out: dict = dict(views.view(state.referee, state.seat))
    else:
        out = dict(views.view(state.shadow, state.seat))
        board = out["board"]
        for square in state.revealed:
            if square in board:
                board[square] = {**board[square], "kind": "flag"}
        if state.end is not None or state.stage == "done":
            shown = state.verdict.result if state.verdict else state.end
            result = {"winner": shown.winner, "reason": shown.reason}  # type: ignore[union-attr]
            out.update(phase="over", turn=None, actions=[], result=result)
        elif state.stage == "deal":
            out.update(phase="setup", turn=None, actions=[])
    if state.end is not None or state.pending is not None or state.stage != "play":
        out.update(dests=None)
    if state.verdict is not None:
        out.update(result=to_json(state.verdict.result))
    return out


def status(state: GameState) -> dict:
    """The friend-play part of the view (`view()["fair"]`)."""
    pending = state.pending
    return {
        "stage": state.stage,
        "seat": state.seat,
        "role": state.role,
        "session": state.sid,
        "rules": state.rules,
        "clock": to_json(state.clock),
        "deadlines": clock.deadlines(state),
        "pending": pending.kind if pending else None,
        "requests": [r.action for r in state.requests],
        "end": to_json(state.end),
        "verdict": to_json(state.verdict),
        "shown": sorted(state.revealed),
        # whether the audited game can be kept as a record (Blind friend games: not yet)
        "record": not state.facts.public,
    }
