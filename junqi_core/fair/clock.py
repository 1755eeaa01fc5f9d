"""Clocks: this side's time-outs, claims on a stalling side, abandonment, the deadline
for opening after the end.  Each page runs its own clock (docs/fair-play.md).

Pure functions of the game state returning a `Step`.
"""

from __future__ import annotations

from dataclasses import replace

from junqi_core.fair import messages as m
from junqi_core.fair.end import decided, verdict_alone
from junqi_core.fair.setup import commit
from junqi_core.fair.state import Deadline, GameState, Owed
from junqi_core.fair.step import Step, own_action

ANSWER_MS = 30_000  # a protocol reply, or an answer to a claim, may take this long
GRACE_MS = 5_000  # the waiting side allows this much for the network before it claims
AUDIT_MS = 60_000  # the other side must open its commitments this soon after the end


def owed(state: GameState) -> tuple[Owed | None, Owed | None]:
    """(what this seat owes, what the other side owes) right now."""
    mine, theirs, stage = state.mine, state.theirs, state.stage
    if stage == "setup":
        own = Owed(what="deploy") if mine.layout is None else None
        if theirs.root is None:
            other = Owed(what="deploy")
        elif mine.list_sent and theirs.commitments is None:
            other = Owed(what="reply")
        else:
            other = None
        return own, other
    if stage == "deal":
        return None, Owed(what="reply")
    if stage == "play":
        h = state.h
        if state.pending is not None:
            return None, Owed(what="reply", h=h)
        if state.shadow.turn == state.seat:
            return Owed(what="move", h=h), None
        return None, Owed(what="move", h=h)
    if stage == "ended":
        return None, (Owed(what="open") if theirs.opening is None else None)
    return None, None


def clock_update(step: Step, now: float) -> Step:
    """Start a side's clock when what it owes changes (the same step if nothing did)."""
    clocks = step.state.clock_state
    own, other = owed(step.state)
    changes = {}
    if clocks.mine is None or clocks.mine.owed != own:
        changes.update(mine=Deadline(owed=own, since=now))
    if clocks.theirs is None or clocks.theirs.owed != other:
        changes.update(theirs=Deadline(owed=other, since=now), claimed=None)
    if not changes:
        return step
    return step.update(clock_state=replace(clocks, **changes))


def _limit_ms(state: GameState, owed: Owed | None) -> int | None:
    clock = state.clock
    if owed is None or clock is None or owed.what not in ("deploy", "move"):
        return None
    return (clock.deploy if owed.what == "deploy" else clock.move) * 1000


def _due(state: GameState, deadline: Deadline | None) -> float | None:
    limit = None if deadline is None else _limit_ms(state, deadline.owed)
    return None if limit is None else deadline.since + limit  # type: ignore[union-attr]


def deadlines(state: GameState) -> dict:
    """When each side's time is up (the page's clock, ms), and what is awaited."""
    clocks = state.clock_state
    other = clocks.theirs.owed if clocks.theirs is not None else None
    return {
        "mine": _due(state, clocks.mine),
        "theirs": _due(state, clocks.theirs),
        "waiting_for": other.what if other else None,
    }


def tick(state: GameState, now: float) -> Step:
    """This side's own time-outs (its draft deployed, its turn passed), claims against the
    other side and, when it stays silent, the game decided without it."""
    step = clock_update(Step(state), now)
    state = step.state
    clocks = state.clock_state
    mine, theirs = clocks.mine, clocks.theirs
    assert mine is not None and theirs is not None
    due = _due(state, mine)
    if due is not None and now >= due:
        if mine.owed.what == "deploy":  # type: ignore[union-attr]
            return commit(step, state.facts.ints(state.mine.draft))  # type: ignore[arg-type]
        return own_action(step, "timeout")
    other = theirs.owed
    if other is None:
        return step
    if other.what == "open":
        if now >= theirs.since + AUDIT_MS:
            step = verdict_alone(step, "refused_audit")
        return step
    if state.clock is None:
        return step
    limit = _limit_ms(state, other)
    if limit is None:  # a protocol reply is owed at once
        if now >= theirs.since + ANSWER_MS:
            step = verdict_alone(step, "abandoned")
        return step
    if clocks.claimed is None:
        if now >= theirs.since + limit + GRACE_MS:
            step = step.send(m.ClaimTimeout(h=other.h if other.what == "move" else None))
            step = step.update(clock_state=replace(clocks, claimed=now))
    elif now >= clocks.claimed + ANSWER_MS:
        step = verdict_alone(step, "abandoned")
    return step


def on_claim_timeout(state: GameState, msg: m.ClaimTimeout, now: float) -> Step:
    """The other side says this one is past its time: true if it is by this page's own
    clock (a page asleep in a background tab wakes up to it), early otherwise."""
    due = _due(state, state.clock_state.mine)
    if msg.h is None:
        stale = state.stage != "setup" or state.mine.layout is not None
    else:
        stale = (
            state.stage != "play"
            or state.end is not None
            or msg.h != state.h
            or state.shadow.turn != state.seat
            or state.pending is not None
        )
    step = Step(state)
    if stale:
        return step.event({"type": "ignored", "message": "claim_timeout", "reason": "stale"})
    if due is None or now < due:
        return step.event({"type": "ignored", "message": "claim_timeout", "reason": "early"})
    if msg.h is None:
        return commit(step, state.facts.ints(state.mine.draft))  # type: ignore[arg-type]
    return own_action(step, "timeout")


def on_abandon(state: GameState, msg: m.Abandon, now: float) -> Step:
    """The other page ended the game saying this one stopped answering.  True if this
    side is past its own deadline (its page slept); otherwise the other side quit."""
    if state.stage == "done":
        return Step(state)
    due = _due(state, state.clock_state.mine)
    overdue = due is not None and now >= due
    return decided(Step(state), state.opp if overdue else state.seat, "abandoned", state.opp)
