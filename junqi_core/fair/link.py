"""The connection and the match around each game: message numbers and hash chains, hello,
rematch, resume after a reconnect (docs/fair-play.md, "How a message flows").

Pure functions of a page's whole state (state.PeerState) returning a `PeerStep`: the new
state, the texts to send and the events to show.  `receive` is where every text from the
other page comes in: it is decoded and checked (messages.py), numbered, and handed to its
handler (`HANDLERS` here for the connection and the match, play.HANDLERS for the game).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from junqi_core import __version__
from junqi_core.fair import messages as m
from junqi_core.fair import play
from junqi_core.fair.data import to_json
from junqi_core.fair.errors import FairError
from junqi_core.fair.facts import Conduct
from junqi_core.fair.group import digest
from junqi_core.fair.messages import PROTOCOL, MessageError, decode, encode
from junqi_core.fair.shadow import RulesRefused
from junqi_core.fair.shadow import check_rules as check_engine_rules
from junqi_core.fair.state import (
    CHAIN_START,
    GameResult,
    GameState,
    Match,
    Nonces,
    PeerState,
    RematchNonces,
)
from junqi_core.fair.step import Step
from junqi_core.record import RULES_VERSION

ENGINE = f"{__version__}+rules-{RULES_VERSION}"


@dataclass(frozen=True)
class PeerStep:
    state: PeerState
    out: tuple[str, ...] = ()  # texts to send, in order
    events: tuple[dict, ...] = ()

    def update(self, **changes: Any) -> PeerStep:
        return replace(self, state=replace(self.state, **changes))

    def output(self, *texts: str) -> PeerStep:
        return replace(self, out=(*self.out, *texts))

    def event(self, *events: dict) -> PeerStep:
        return replace(self, events=(*self.events, *events))


def session_id(rules: dict, clock: Any, host_nonce: str, guest_nonce: str, game: int) -> str:
    """H(both nonces, engine version, rules, clock, game number): binds every message."""
    return digest(
        "session",
        PROTOCOL,
        ENGINE,
        encode(rules),
        encode({"clock": to_json(clock)}),
        bytes.fromhex(host_nonce),
        bytes.fromhex(guest_nonce),
        game,
    ).hex()


def taken_notice() -> str:
    """The message for a page that answered an invitation already used by someone else."""
    return encode(m.Taken(seq=0, sender="host"))


def _chain(previous: str, text: str) -> str:
    return digest("chain", bytes.fromhex(previous), text).hex()


def check_rules(rules: Any) -> None:
    try:
        check_engine_rules(rules)
    except RulesRefused as error:
        raise FairError("bad_rules", str(error)) from None


def check_clock(clock: Any) -> None:
    """A clock from the page: null or {deploy, move}, whole seconds from 1 to 3600."""
    if clock is None:
        return
    if not isinstance(clock, dict) or set(clock) != {"deploy", "move"}:
        raise FairError("bad_clock", "a clock is null or {deploy, move} in seconds")
    for value in clock.values():
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 3600:
            raise FairError("bad_clock", "clock times are whole seconds from 1 to 3600")


# --- sending ------------------------------------------------------------------------------


def post(step: PeerStep, *messages: m.Message) -> PeerStep:
    """Number messages, keep their texts for a resume, and send them."""
    conn = step.state.conn
    texts = []
    for message in messages:
        text = encode(replace(message, seq=conn.seq_out, sender=step.state.role))
        conn = replace(
            conn,
            sent=(*conn.sent, text),
            sent_chain=_chain(conn.sent_chain, text),
            seq_out=conn.seq_out + 1,
        )
        texts.append(text)
    if not texts:
        return step
    return step.update(conn=conn).output(*texts)


def with_session(state: PeerState, game: GameState) -> PeerState:
    return state if game is state.session else replace(state, session=game)


def with_game(step: PeerStep, game: Step) -> PeerStep:
    """A game's step in the page's state: the game's new state, its messages numbered."""
    step = replace(step, state=with_session(step.state, game.state)).event(*game.events)
    return post(step, *game.sent)


def _session(state: PeerState) -> GameState:
    if state.session is None:
        raise FairError("wrong_phase", "the two pages have not said hello yet")
    return state.session


def in_game(state: PeerState, function: Callable[..., Step], *args: Any) -> PeerStep:
    """This side's own call on the game in progress."""
    return with_game(PeerStep(state), function(_session(state), *args))


# --- receiving ----------------------------------------------------------------------------

Handler = Callable[[PeerStep, Any, float, Conduct], PeerStep]


def receive(state: PeerState, text: Any, now: float, conduct: Conduct) -> PeerStep:
    """One text from the other page: checked, numbered, handled (or refused whole)."""
    message = decode(text)
    if message.sender == state.role:  # sent back to this page (or forged as if it were)
        raise MessageError("own_message", f"this page is the {state.role}: it sent that message")
    if isinstance(message, m.Resume):  # not numbered: it says what each side has
        return _on_resume(PeerStep(state), message)
    if isinstance(message, m.Taken):  # on a channel of its own: changes nothing
        return _on_taken(PeerStep(state), message)
    conn = state.conn
    if message.seq != conn.seq_in:
        code = "replayed" if message.seq < conn.seq_in else "out_of_order"  # type: ignore[operator]
        raise MessageError(code, f"expected message {conn.seq_in}, got {message.seq}")
    handler = HANDLERS.get(type(message), _in_session)
    step = handler(PeerStep(state), message, now, conduct)
    conn = step.state.conn
    conn = replace(conn, seq_in=conn.seq_in + 1, chain=_chain(conn.chain, text))
    return step.update(conn=conn)


def _in_session(step: PeerStep, message: m.Message, now: float, conduct: Conduct) -> PeerStep:
    """A message of the game in progress (or a rematch of it): of this session only."""
    game = _session(step.state)
    if message.sid != game.sid:
        raise MessageError("wrong_session", "the message belongs to another game")
    if isinstance(message, m.Rematch):
        return _on_rematch(step, message, now, conduct)
    return with_game(step, play.handle(game, message, now))


def _on_taken(step: PeerStep, msg: m.Taken) -> PeerStep:
    """The invitation this guest answered was already taken: say so, change nothing."""
    state = step.state
    started = state.session is not None or state.conn.seq_in > 0
    if state.role != "guest" or started or msg.sid is not None or msg.seq != 0:
        raise FairError("unexpected", "only a page that has not started can be told that")
    return step.event({"type": "taken"})


def _on_hello(step: PeerStep, msg: m.Hello, now: float, conduct: Conduct) -> PeerStep:
    state = step.state
    match = state.match
    if state.session is not None or msg.role == state.role:
        raise FairError("unexpected", "hello was already exchanged")
    if msg.role != msg.sender:
        raise MessageError("malformed", "a hello's role is its sender's")
    if msg.engine != ENGINE:
        raise FairError(
            "version_mismatch",
            f"the other page runs engine {msg.engine}; this one runs {ENGINE}",
        )
    check_rules(msg.rules)  # (the clock's shape is checked with the message)
    if state.role == "guest":
        if msg.sid is not None:
            raise MessageError("malformed", "the host's hello has no session id yet")
        nonces = Nonces(host=msg.nonce, guest=secrets.token_hex(32))
        match = replace(match, rules=msg.rules, clock=msg.clock, nonces=nonces)
        step = step.update(match=match)
        hello = m.Hello(
            sid=_sid(match),
            role="guest",
            nonce=nonces.guest,  # type: ignore[arg-type]
            engine=ENGINE,
            rules=match.rules,
            clock=match.clock,
        )
        step = post(step, hello)
    else:
        if msg.rules != match.rules or msg.clock != match.clock:
            raise FairError("rules_mismatch", "the guest answered with other rules")
        match = replace(match, nonces=replace(match.nonces, guest=msg.nonce))
        if msg.sid != _sid(match):
            raise MessageError("wrong_session", "the guest computed another session id")
        step = step.update(match=match)
    return _start_game(step, now, conduct)


def _sid(match: Match) -> str:
    nonces = match.nonces
    return session_id(match.rules, match.clock, nonces.host, nonces.guest, match.game)  # type: ignore[arg-type]


def _start_game(step: PeerStep, now: float, conduct: Conduct) -> PeerStep:
    state = step.state
    match = state.match
    game = play.new_game(
        state.role, match.rules, match.clock, _sid(match), state.seat, now, conduct
    )
    return with_game(step, game)


# --- rematch -------------------------------------------------------------------------------


def rematch(state: PeerState, now: float, conduct: Conduct) -> PeerStep:
    """This side asks for a rematch (a new game starts once both have)."""
    game = _session(state)
    asked = state.match.rematch
    if game.stage != "done" or asked.mine is not None:
        raise FairError("wrong_phase", "a rematch is possible once a game is decided")
    nonce = secrets.token_hex(32)
    step = PeerStep(state).update(match=replace(state.match, rematch=replace(asked, mine=nonce)))
    step = post(step, m.Rematch(sid=game.sid, nonce=nonce))
    if asked.theirs is not None:
        step = _next_game(step, now, conduct)
    return step


def _on_rematch(step: PeerStep, msg: m.Rematch, now: float, conduct: Conduct) -> PeerStep:
    state = step.state
    asked = state.match.rematch
    if _session(state).stage != "done" or asked.theirs is not None:
        raise FairError("wrong_phase", "a rematch is not expected now")
    step = step.update(match=replace(state.match, rematch=replace(asked, theirs=msg.nonce)))
    if asked.mine is not None:
        step = _next_game(step, now, conduct)
    return step


def _next_game(step: PeerStep, now: float, conduct: Conduct) -> PeerStep:
    """A new game with new nonces (a new session id) and the seats switched."""
    state = step.state
    match, game = state.match, _session(state)
    verdict = game.verdict
    assert verdict is not None
    played = GameResult(game=match.game, seat=game.seat, result=verdict.result, fault=verdict.fault)
    asked = match.rematch
    hosting = state.role == "host"
    nonces = Nonces(
        host=asked.mine if hosting else asked.theirs,
        guest=asked.theirs if hosting else asked.mine,
    )
    match = replace(
        match,
        results=(*match.results, played),
        nonces=nonces,
        rematch=RematchNonces(),
        game=match.game + 1,
    )
    step = step.update(match=match)
    step = step.event({"type": "new_game", "game": match.game, "seat": step.state.seat})
    return _start_game(step, now, conduct)


# --- resuming after a reconnect ---------------------------------------------------------


def reconnect(state: PeerState) -> PeerStep:
    """A new data channel: what was sent before now went over the old one and may be lost;
    what is sent from now on travels the new one in order, so a resume never resends it."""
    conn = replace(state.conn, resuming=True, resume_mark=state.conn.seq_out)
    step = PeerStep(state).update(conn=conn)
    return step.output(_resume_text(step.state, answer=False))


def _resume_text(state: PeerState, answer: bool) -> str:
    conn = state.conn
    sid = state.session.sid if state.session is not None else None
    resume = m.Resume(
        sid=sid,
        sender=state.role,
        recv=conn.seq_in,
        chain=conn.chain,
        sent=conn.seq_out,
        answer=answer,
    )
    return encode(resume)


def sent_chain(texts: tuple[str, ...]) -> str:
    """The hash chain of texts sent, in order."""
    chain = CHAIN_START
    for text in texts:
        chain = _chain(chain, text)
    return chain


def current_shape(text: str, role: str) -> str:
    """A text this page sent, as messages are sent now: a text kept by a save from before
    messages named their sender gets its `from` (nothing else changed since)."""
    message = json.loads(text)
    return text if "from" in message else encode({**message, "from": role})


def _on_resume(step: PeerStep, msg: m.Resume) -> PeerStep:
    state = step.state
    conn = state.conn
    sid = state.session.sid if state.session is not None else None
    if msg.sid != sid and msg.sid is not None and sid is not None:
        raise FairError("resume_mismatch", "the other page is in another game")
    if msg.recv > conn.seq_out or sent_chain(conn.sent[: msg.recv]) != msg.chain:
        raise FairError("resume_mismatch", "the other page holds messages this page never sent")
    if msg.sent < conn.seq_in:
        raise FairError(
            "resume_mismatch",
            "the other page lost messages it had sent (it was restored from an older save)",
        )
    starting = not msg.answer and not conn.resuming
    mark = conn.seq_out if starting or conn.resume_mark is None else conn.resume_mark
    # texts the other page has not received may be of a save from before messages named
    # their sender: they go out in today's shape (its chain has not hashed them yet)
    sent = (*conn.sent[: msg.recv], *(current_shape(t, state.role) for t in conn.sent[msg.recv :]))
    if sent != conn.sent:
        conn = replace(conn, sent=sent, sent_chain=sent_chain(sent))
    missing = conn.sent[msg.recv : max(mark, msg.recv)]
    step = step.output(*missing)
    if starting:  # the other page started: tell it what this one has
        step = step.output(_resume_text(state, answer=True))
    step = step.update(conn=replace(conn, resuming=False))
    return step.event({"type": "resumed", "resent": len(missing)})


HANDLERS: dict[type[m.Message], Handler] = {m.Hello: _on_hello}


# --- what the page shows -----------------------------------------------------------------


def transcript_hash(state: PeerState) -> str:
    """Equal on both pages exactly when each has received everything the other sent."""
    conn = state.conn
    sent = conn.sent_chain
    ours = (sent, conn.chain) if state.role == "host" else (conn.chain, sent)
    return digest("transcript", *(bytes.fromhex(x) for x in ours)).hex()


def view(state: PeerState) -> dict:
    """This seat's view (play.view) with `fair`: the game, the match and the connection."""
    match = state.match
    fair = {
        "role": state.role,
        "engine": ENGINE,
        "game": match.game,
        "results": to_json(match.results),
        "rematch": {
            "mine": match.rematch.mine is not None,
            "theirs": match.rematch.theirs is not None,
        },
        "transcript": transcript_hash(state),
    }
    game = state.session
    if game is None:
        fair.update(stage="hello", seat=state.seat, rules=match.rules, clock=to_json(match.clock))
        variant = match.rules.get("variant") if match.rules else None
        return {"variant": variant, "phase": "connect", "fair": fair}
    out = play.view(game)
    fair.update(play.status(game))
    if game.stage == "done":
        out.update(actions=[*out.get("actions", []), "rematch"])
    out.update(fair=fair)
    return out
