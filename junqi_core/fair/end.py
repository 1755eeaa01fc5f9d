"""The end of a game: stopping play, disputes, opening everything, the audit's verdict, and
a verdict without one (the other side stopped answering or would not open)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from junqi_core.fair import messages as m
from junqi_core.fair.audit import audit
from junqi_core.fair.data import to_json
from junqi_core.fair.state import End, Fault, GameState, Record, Result, Transcript, Verdict
from junqi_core.fair.step import Step
from junqi_core.game import OVER, Game
from junqi_core.rules import Outcome


def finish(step: Step, winner: int | None, reason: str, by: int | None = None) -> Step:
    """Play is over: open this side's secrets, and audit once the other side's are in."""
    state = step.state
    end = End(h=state.h, winner=winner, reason=reason, by=by)
    step = step.update(end=end, stage="ended", pending=None)
    step = step.send(m.Open(secrets=state.facts.conduct.opening(step.state)))
    step = step.event({"type": "game_over", "result": {"winner": winner, "reason": reason}})
    if state.theirs.opening is not None:
        step = run_audit(step)
    return step


def dispute(step: Step, h: int, reason: str, record: Record | None) -> Step:
    """A check failed: stop the game at once (the audit decides who was wrong).  `record`:
    the action that never completed, kept for the audit."""
    if record is not None:
        step = step.update(disputed=replace(record, partial=True))
    seat = step.state.seat
    step = step.send(m.Dispute(h=h, reason=reason))
    step = step.event({"type": "dispute", "by": seat, "reason": reason})
    return finish(step, None, "dispute", seat)


def transcript(state: GameState) -> Transcript:
    facts = state.facts
    commitments: list[Any] = [None, None]
    commitments[facts.seat] = state.mine.commitments
    commitments[facts.opp] = state.theirs.commitments
    assert state.end is not None
    return Transcript(
        rules=state.rules,
        sid=state.sid,
        host=facts.host_seat,
        commitments=tuple(commitments),
        decks=state.decks,
        records=state.records,
        claims=state.claims,
        disputed=state.disputed,
        end=state.end,
    )


def judged(state: GameState) -> tuple[Verdict, Game | None]:
    """The audit of this seat's transcript with both openings (its own is not re-checked)."""
    facts = state.facts
    openings: list[Any] = [None, None]
    openings[facts.seat] = facts.conduct.opening(state)
    openings[facts.opp] = state.theirs.opening
    try:
        verdict, referee = audit(transcript(state), openings, trusted=facts.seat)
    except Exception as error:  # only the other side's opening is unchecked input here
        fault = Fault(
            player=facts.opp,
            action=None,
            ply=None,
            code="bad_opening",
            message=f"its opening cannot be read ({type(error).__name__})",
        )
        result = Result(winner=facts.seat, reason="rule_broken")
        return Verdict(ok=False, result=result, fault=fault), None
    if referee is not None:
        referee.result = Outcome(verdict.result.winner, verdict.result.reason)
        referee.phase = OVER
    return verdict, referee


def run_audit(step: Step) -> Step:
    verdict, referee = judged(step.state)
    step = step.update(verdict=verdict, stage="done", referee=referee)
    return step.event({"type": "verdict", "verdict": to_json(verdict)})


def decided(step: Step, winner: int, reason: str, by: int) -> Step:
    """A verdict without an audit: the game is over and nobody opens anything more."""
    state = step.state
    result = Result(winner=winner, reason=reason)
    end = state.end or End(h=state.h, winner=winner, reason=reason, by=by)
    verdict = Verdict(ok=None, result=result, fault=None, by=by)
    step = step.update(end=end, verdict=verdict, stage="done", pending=None)
    return step.event({"type": "verdict", "verdict": to_json(verdict)})


def verdict_alone(step: Step, reason: str) -> Step:
    """The other side stopped answering (or would not open): it loses, unaudited."""
    if reason == "abandoned":
        step = step.send(m.Abandon())
    return decided(step, step.state.seat, reason, step.state.seat)
