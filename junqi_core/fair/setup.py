"""Before play: the draft and the committed layouts (Classic, Gunjin), the deal (Blind).

Pure functions of the game state (state.py) returning a `Step` (step.py); the handlers of
the other side's `commit`, `commitments` and `deck` are in the table of play.py.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from junqi_core.deployment import DeploymentError, Layout
from junqi_core.fair import messages as m
from junqi_core.fair import ot
from junqi_core.fair.commit import commit_layout, layout_root, new_salts
from junqi_core.fair.deal import (
    DeckError,
    card_values,
    check_deck,
    random_permutation,
    shuffle_step,
)
from junqi_core.fair.errors import FairError
from junqi_core.fair.errors import hex_int as _int
from junqi_core.fair.group import P, element_hex, exponent_hex, random_exponent
from junqi_core.fair.state import GameState, Key
from junqi_core.fair.step import Step, build_board
from junqi_core.record import layout_from_json


def random_layout(state: GameState) -> Layout:
    facts = state.facts
    return facts.deployment.random_layout(facts.seat, secrets.SystemRandom())  # type: ignore[union-attr]


def with_draft(step: Step, layout: Layout) -> Step:
    state = step.state
    shadow = state.shadow.clone()
    shadow.drafts[state.seat] = dict(layout)
    mine = replace(state.mine, draft=state.facts.named(layout))
    return step.update(mine=mine, shadow=shadow)


def _require_setup(state: GameState) -> None:
    if state.stage != "setup":
        raise FairError("wrong_phase", "deployment is only possible before play")
    if state.mine.layout is not None:
        raise FairError("already_deployed", "this side has already deployed")


def _layout_from(state: GameState, data: Any) -> Layout:
    try:
        layout = layout_from_json(state.shadow, data)
        state.facts.deployment.validate(state.seat, layout)  # type: ignore[union-attr]
    except DeploymentError as error:
        raise FairError(error.code, str(error), error.square) from None
    except ValueError as error:
        raise FairError("bad_layout", str(error)) from None
    return layout


def arrange(state: GameState, op: str, a: Any = None, b: Any = None, layout: Any = None) -> Step:
    """Arrange the draft: random (drawn with `secrets`), swap a b, mirror, set layout."""
    _require_setup(state)
    facts = state.facts
    deployment = facts.deployment
    assert deployment is not None
    draft = facts.ints(state.mine.draft)  # type: ignore[arg-type]
    try:
        if op == "random":
            arranged = random_layout(state)
        elif op == "swap":
            x, y = (facts.spec.index.get(s) if isinstance(s, str) else None for s in (a, b))
            if x is None or y is None:
                raise FairError("bad_square", "swap needs two squares a and b")
            arranged = deployment.swap(state.seat, draft, x, y)
        elif op == "mirror":
            arranged = deployment.mirror(draft)
        elif op == "set":
            arranged = _layout_from(state, layout)
        else:
            raise FairError("bad_request", f"unknown setup operation {op!r}")
    except DeploymentError as error:
        raise FairError(error.code, str(error), error.square) from None
    return with_draft(Step(state), arranged)


def deploy(state: GameState, data: Any) -> Step:
    """Confirm a layout (default: the draft) and commit to it."""
    _require_setup(state)
    layout = _layout_from(state, state.mine.draft if data is None else data)
    return commit(Step(state), layout)


def commit(step: Step, layout: Layout) -> Step:
    """Commit to a layout as it is (an honest page has checked it; the audit checks it)."""
    state = step.state
    facts, seat = state.facts, state.seat
    named = facts.named(layout)
    squares = facts.squares(seat)
    salts = new_salts(squares)
    commitments = commit_layout(state.sid, seat, squares, named, salts)
    root = layout_root(state.sid, seat, commitments)
    mine = replace(
        state.mine,
        layout=named,
        draft=named,
        salts=salts,
        commitments=tuple(commitments),
        root=root,
    )
    shadow = state.shadow.clone()
    shadow.layouts[seat] = dict(layout)
    shadow.drafts[seat] = dict(layout)
    step = step.update(mine=mine, shadow=shadow).send(m.Commit(root=root))
    step = step.event({"type": "deployed", "player": seat})
    if state.theirs.root is not None:
        step = _send_list(step)
    return step


def _send_list(step: Step) -> Step:
    step = new_key(step)
    mine = step.state.mine
    step = step.send(m.Commitments(commitments=mine.commitments, key=mine.key.A))  # type: ignore[arg-type, union-attr]
    step = step.update(mine=replace(mine, list_sent=True))
    if step.state.theirs.commitments is not None:
        step = _start_play(step)
    return step


def new_key(step: Step) -> Step:
    """A fresh oblivious-transfer sender key for this side (one per combat)."""
    a, big_a = ot.new_key()
    key = Key(a=exponent_hex(a), A=element_hex(big_a))
    return step.update(mine=replace(step.state.mine, key=key))


def on_commit(state: GameState, msg: m.Commit, now: float) -> Step:
    if state.stage != "setup" or state.theirs.root is not None:
        raise FairError("unexpected", "a layout commitment is not expected now")
    shadow = state.shadow.clone()
    shadow.layouts[state.opp] = {}
    step = Step(state).update(theirs=replace(state.theirs, root=msg.root), shadow=shadow)
    step = step.event({"type": "deployed", "player": state.opp})
    if state.mine.root is not None and not state.mine.list_sent:
        step = _send_list(step)
    return step


def on_commitments(state: GameState, msg: m.Commitments, now: float) -> Step:
    theirs = state.theirs
    if state.stage != "setup" or theirs.root is None or theirs.commitments is not None:
        raise FairError("unexpected", "a commitment list is not expected now")
    if len(msg.commitments) != len(state.facts.squares(state.opp)):
        raise FairError("malformed", "the list does not have one commitment per square")
    if layout_root(state.sid, state.opp, list(msg.commitments)) != theirs.root:
        raise FairError("bad_commitment", "the list does not match the committed root")
    theirs = replace(theirs, commitments=msg.commitments, key=msg.key)
    step = Step(state).update(theirs=theirs)
    if state.mine.list_sent:
        step = _start_play(step)
    return step


def _start_play(step: Step) -> Step:
    shadow = step.state.shadow.clone()
    step = step.update(started=True, stage="play")
    build_board(shadow, step.state)
    return step.update(shadow=shadow).event({"type": "play"})


# --- the deal (Blind) ---------------------------------------------------------------


def deal_first(step: Step) -> Step:
    """The host's encrypted shuffle of the public card values."""
    state = step.state
    e, perm = random_exponent(), random_permutation()
    deck = tuple(element_hex(x) for x in shuffle_step(card_values(state.sid), e, perm))
    mine = replace(state.mine, e=exponent_hex(e), perm=tuple(perm))
    step = step.update(mine=mine, decks=replace(state.decks, d1=deck))
    return step.send(m.Deck(cards=deck))


def on_deck(state: GameState, msg: m.Deck, now: float) -> Step:
    decks, host = state.decks, state.facts.host
    expected = decks.d2 is None if host else decks.d1 is None
    if state.stage != "deal" or not expected:
        raise FairError("unexpected", "a deck is not expected now")
    cards = [_int(x) for x in msg.cards]
    try:
        check_deck(cards)
    except DeckError as error:
        raise FairError("bad_deck", str(error)) from None
    step = Step(state)
    if host:
        step = step.update(decks=replace(decks, d2=msg.cards))
    else:
        e, perm = random_exponent(), random_permutation()
        table = tuple(element_hex(pow(v, e, P)) for v in card_values(state.sid))
        d2 = tuple(element_hex(x) for x in shuffle_step(cards, e, perm))
        mine = replace(state.mine, e=exponent_hex(e), perm=tuple(perm), table=table)
        step = step.update(decks=replace(decks, d1=msg.cards, d2=d2), mine=mine)
        step = step.send(m.Deck(cards=d2))
    return _start_play(step)
