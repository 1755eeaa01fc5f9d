"""A saved friend game checked against what a live page could hold (docs/fair-play.md,
"Saving and resuming").

`data.from_json` reads a save's values with their types; `check_saved` then checks each
value the way the live page would have made it: enums (role, stage, what is owed), ranges
(seats, winners, message numbers), the rules through the same check as a hello's, and the
values that must agree (the game's role, seat, rules, clock and session id with the
match's; the stage with the end and the verdict; which secrets this role holds; the hash
chain of the texts sent with the texts).  The first value that does not fit is refused as
`ShapeError`, saying where (`session.stage: ...`); peer.py turns it into `bad_state`.  Only
then is the game replayed (play.restored), which checks every action against the rules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from junqi_core.deployment import DeploymentError
from junqi_core.fair import combat
from junqi_core.fair.commit import commit_layout, layout_root
from junqi_core.fair.data import ShapeError, to_json
from junqi_core.fair.deal import N_CARDS, is_permutation
from junqi_core.fair.errors import FairError
from junqi_core.fair.group import ELEMENT_HEX, EXPONENT_BITS, EXPONENT_HEX, P
from junqi_core.fair.messages import MessageError, check_opening
from junqi_core.fair.ot import ROW_BYTES
from junqi_core.fair.shadow import is_public, new_shadow
from junqi_core.fair.state import (
    Attack,
    AwaitingStatus,
    Claim,
    ClockState,
    Conn,
    Deadline,
    Decks,
    End,
    Fault,
    Flipping,
    GameResult,
    GameState,
    Match,
    Mine,
    PeerState,
    Record,
    Result,
    Shares,
    Theirs,
    Transfer,
    Verdict,
)
from junqi_core.game import Game
from junqi_core.notation import NotationError, parse_move

ROLES = ("host", "guest")
STAGES = ("setup", "deal", "play", "ended", "done")
OWED = ("deploy", "move", "reply", "open")
REASONS_MAX = 200  # characters of a reason or a fault's message
HEX = re.compile("[0-9a-f]+")


def _fail(path: str, message: str) -> None:
    raise ShapeError(path, message)


def _that(ok: bool, path: str, message: str) -> None:
    if not ok:
        _fail(path, message)


def _seat(value: Any, path: str, none: bool = False) -> None:
    _that(value in (0, 1) or (none and value is None), path, "expected a seat, 0 or 1")


def _count(value: int, path: str, top: int | None = None) -> None:
    _that(value >= 0 and (top is None or value <= top), path, "out of range")


def _hex(value: Any, size: int, path: str) -> None:
    ok = isinstance(value, str) and len(value) == 2 * size and HEX.fullmatch(value)
    _that(bool(ok), path, f"expected {2 * size} lower-case hex digits")


def _element(value: Any, path: str) -> None:
    """A group element's form (1 < x < P, canonical hex).  Whether it lies in the subgroup
    was checked when it came in a message; the test costs milliseconds an element, too
    slow for a whole saved game, and a value out of it breaks nothing but the exchange."""
    _hex(value, ELEMENT_HEX // 2, path)
    _that(1 < int(value, 16) < P, path, "expected a group element")


def _exponent(value: Any, path: str) -> int:
    _hex(value, EXPONENT_HEX // 2, path)
    e = int(value, 16)
    _that(0 < e < 1 << EXPONENT_BITS, path, "expected an exponent")
    return e


def _each(values: Any, path: str, check: Callable[[Any, str], None]) -> None:
    for i, value in enumerate(values):
        check(value, f"{path}[{i}]")


# --- the whole state ------------------------------------------------------------------


def check_saved(state: PeerState) -> None:
    """Refuse (ShapeError) a state no live page could hold; see the module docstring."""
    _that(state.role in ROLES, "role", "expected host or guest")
    _check_conn(state.conn, state.role, "conn")
    _check_match(state, "match")
    if state.session is not None:
        _check_game(state, state.session, "session")


def _check_conn(conn: Conn, role: str, path: str) -> None:
    """The texts this page sent, numbered from 0, their chain, the counts."""
    _count(conn.seq_in, f"{path}.seq_in")
    _that(conn.seq_out == len(conn.sent), f"{path}.seq_out", "is not the number of texts sent")
    if conn.resume_mark is not None:
        _count(conn.resume_mark, f"{path}.resume_mark", conn.seq_out)
    _hex(conn.chain, 32, f"{path}.chain")
    for i, text in enumerate(conn.sent):
        _check_sent(text, i, role, f"{path}.sent[{i}]")
    from junqi_core.fair.link import sent_chain  # (link imports this module's callers)

    _that(sent_chain(conn.sent) == conn.sent_chain, f"{path}.sent_chain", "does not match")


def _check_sent(text: str, seq: int, role: str, path: str) -> None:
    """A text this page sent: a message numbered `seq`, from this role (a text saved
    before messages named their sender has no `from`; see link.current_shape)."""
    try:  # (a text this page wrote: read without the depth count a received one gets)
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise ShapeError(path, "expected a message") from None
    _that(isinstance(message, dict), path, "expected a message")
    _that(message.get("seq") == seq, path, f"expected message number {seq}")
    _that(message.get("from", role) == role, path, f"expected a message from the {role}")
    if message.get("type") == "hello":
        _that(message.get("role") == role, path, f"expected the {role}'s hello")


def _check_match(state: PeerState, path: str) -> None:
    from junqi_core.fair.link import check_clock

    match: Match = state.match
    if match.rules is not None or state.role == "host" or state.session is not None:
        _check_rules(match.rules, f"{path}.rules")
    if match.clock is not None:
        try:
            check_clock(to_json(match.clock))
        except FairError as error:
            raise ShapeError(f"{path}.clock", str(error)) from None
    _count(match.game, f"{path}.game")
    if state.session is None:  # before the hello: the host's choice, or nothing yet
        _that(match.game == 0, f"{path}.game", "games before the hello")
        if state.role == "guest":
            unknown = match.rules is None and match.clock is None and not state.conn.sent
            _that(unknown, path, "a guest learns the match from the host's hello")
    _that(match.game == len(match.results), f"{path}.results", "one result per game played")
    for i, played in enumerate(match.results):
        _check_result(played, i, state.role, f"{path}.results[{i}]")
    nonces = match.nonces
    for name in ROLES:
        value = getattr(nonces, name)
        owned = state.session is not None or (name == "host" == state.role)
        if value is not None or owned:
            _hex(value, 32, f"{path}.nonces.{name}")
    asked = match.rematch
    for name in ("mine", "theirs"):
        value = getattr(asked, name)
        if value is not None:
            _hex(value, 32, f"{path}.rematch.{name}")
            done = state.session is not None and state.session.stage == "done"
            _that(done, f"{path}.rematch.{name}", "a rematch is asked once a game is decided")
    both = asked.mine is not None and asked.theirs is not None
    _that(not both, f"{path}.rematch", "a rematch asked by both has started")


def _check_rules(rules: Any, path: str) -> None:
    """Rules as a hello's are checked: exactly what this engine plays."""
    from junqi_core.fair.link import check_rules

    try:
        check_rules(rules)
    except FairError as error:
        raise ShapeError(path, str(error)) from None


def _check_result(played: GameResult, game: int, role: str, path: str) -> None:
    _that(played.game == game, f"{path}.game", f"expected {game}")
    host_first = game % 2 == 0
    _that(played.seat == (0 if (role == "host") == host_first else 1), f"{path}.seat", "wrong")
    _check_outcome(played.result, f"{path}.result")
    if played.fault is not None:
        _check_fault(played.fault, f"{path}.fault")


def _check_outcome(result: Result | End, path: str) -> None:
    _seat(result.winner, f"{path}.winner", none=True)
    _that(0 < len(result.reason) <= REASONS_MAX, f"{path}.reason", "expected a reason")


def _check_fault(fault: Fault, path: str) -> None:
    _seat(fault.player, f"{path}.player")
    for name in ("action", "ply"):
        value = getattr(fault, name)
        if value is not None:
            _count(value, f"{path}.{name}")


# --- the game -----------------------------------------------------------------------------


def _check_game(state: PeerState, game: GameState, path: str) -> None:
    from junqi_core.fair.link import session_id

    match = state.match
    _that(game.role == state.role, f"{path}.role", f"this page is the {state.role}")
    _that(game.seat == state.seat, f"{path}.seat", f"the {state.role} plays seat {state.seat}")
    _check_rules(game.rules, f"{path}.rules")
    same = json.dumps(game.rules, sort_keys=True) == json.dumps(match.rules, sort_keys=True)
    _that(same, f"{path}.rules", "differ from match.rules")  # (as text: 1 is not true)
    _that(game.clock == match.clock, f"{path}.clock", "differs from match.clock")
    nonces = match.nonces
    sid = session_id(match.rules, match.clock, nonces.host, nonces.guest, match.game)  # type: ignore[arg-type]
    _that(game.sid == sid, f"{path}.sid", "is not this match's game")
    probe = new_shadow(game.rules)  # (the rules were checked with the match's)
    public = is_public(probe)
    _check_stage(game, public, f"{path}.stage")
    h = len(game.records)
    _each(game.records, f"{path}.records", _check_record)
    _each(game.claims, f"{path}.claims", lambda c, p: _check_claim(c, h, probe, p))
    if game.disputed is not None:
        _check_record(game.disputed, f"{path}.disputed")
    if game.pending is not None:
        _check_pending(game, probe, f"{path}.pending")
    ids = [r.id for r in game.requests]
    _that(len(set(ids)) == len(ids), f"{path}.requests", "a request twice")
    _that(all(0 <= i < game.next_request for i in ids), f"{path}.requests", "unknown request")
    if game.end is not None:
        _check_outcome(game.end, f"{path}.end")
        _seat(game.end.by, f"{path}.end.by", none=True)
        _count(game.end.h, f"{path}.end.h", h)
    if game.verdict is not None:
        _check_verdict(game.verdict, f"{path}.verdict")
    if game.theirs.opening is not None:  # (the audit runs as soon as it comes)
        _that(game.stage == "done", f"{path}.theirs.open", "an opening the audit never read")
        try:
            check_opening(game.theirs.opening)
        except MessageError as error:
            raise ShapeError(f"{path}.theirs.open", str(error)) from None
    _check_clock_state(game.clock_state, f"{path}.clock_state")
    if public:
        _check_blind(game, f"{path}")
    else:
        _check_layouts(game, probe, f"{path}")
    spec = probe.board_spec
    for square, kind in game.revealed.items():
        ok = square in spec.index and kind == "flag"
        _that(ok, f"{path}.revealed.{square}", "expected the other side's flag square")


def _check_stage(game: GameState, public: bool, path: str) -> None:
    """The stage, with what it implies: the end, the verdict, whether play started."""
    stage = game.stage
    _that(stage in STAGES, path, f"expected one of {', '.join(STAGES)}")
    before = stage in ("setup", "deal")
    if before:
        _that(stage == ("deal" if public else "setup"), path, "not a stage of these rules")
        _that(not game.started and not game.records, path, "play has started")
    if stage == "play":
        _that(game.started, path, "play has not started")
    over = stage in ("ended", "done")
    _that((game.end is not None) == over, path, "does not match session.end")
    _that((game.verdict is not None) == (stage == "done"), path, "does not match session.verdict")
    _that(game.pending is None or stage == "play", path, "an exchange outside play")


def _check_record(record: Record, path: str) -> None:
    _seat(record.player, f"{path}.player")
    _that(0 < len(record.action) <= 32, f"{path}.action", "expected an action")
    if record.outcome is not None:
        _count(record.outcome, f"{path}.outcome", 255)
    if record.card is not None:
        _count(record.card, f"{path}.card", N_CARDS - 1)
    _that(record.claim in (None, "occupation"), f"{path}.claim", "expected occupation")
    for name in ("up", "down"):
        transfer = getattr(record, name)
        if transfer is not None:
            _check_transfer(transfer, f"{path}.{name}")
    if record.shares is not None:
        _check_shares(record.shares, f"{path}.shares")


def _check_transfer(transfer: Transfer, path: str) -> None:
    _element(transfer.A, f"{path}.A")
    _element(transfer.B, f"{path}.B")
    _each(transfer.E or (), f"{path}.E", lambda v, p: _hex(v, ROW_BYTES, p))


def _check_shares(shares: Shares, path: str) -> None:
    for name in ROLES:
        value = getattr(shares, name)
        if value is not None:
            _element(value, f"{path}.{name}")


def _check_claim(claim: Claim, h: int, probe: Game, path: str) -> None:
    _count(claim.h, f"{path}.h", h)
    _seat(claim.player, f"{path}.player")
    _that(claim.kind in ("status", "reveal"), f"{path}.type", "expected status or reveal")
    if claim.kind == "reveal":
        _that(claim.square in probe.board_spec.index, f"{path}.square", "expected a square")
        _hex(claim.salt, 16, f"{path}.salt")
    else:
        _that(claim.mobile is not None, f"{path}.mobile", "missing")


def _check_pending(game: GameState, probe: Game, path: str) -> None:
    """The exchange in progress, at this action, with the values its answer will read."""
    pending = game.pending
    assert pending is not None
    h = len(game.records)
    _that(pending.h == h, f"{path}.h", f"expected action number {h}")
    if isinstance(pending, AwaitingStatus):
        return
    spec = probe.board_spec
    try:
        move = parse_move(spec, pending.action)
    except NotationError as error:
        raise ShapeError(f"{path}.action", str(error)) from None
    frm, to = spec.move_code.split(move)
    _that((frm == to) == isinstance(pending, Flipping), f"{path}.action", "the wrong kind")
    if isinstance(pending, Flipping):
        _element(pending.share, f"{path}.share")
        return
    rows = combat.row_count(probe.position_class)
    _check_transfer(pending.up, f"{path}.up")
    if isinstance(pending, Attack):
        _count(pending.c, f"{path}.c", rows - 1)
        _exponent(pending.b, f"{path}.b")
        _that(game.mine.key is not None, f"{path}", "an attack without this side's key")
    else:
        _count(pending.d, f"{path}.d", rows - 1)
        _check_transfer(pending.down, f"{path}.down")
        _that(str(h) in game.mine.ot, f"{path}", "a defence without its transfer secret")


def _check_verdict(verdict: Verdict, path: str) -> None:
    _check_outcome(verdict.result, f"{path}.result")
    if verdict.fault is not None:
        _check_fault(verdict.fault, f"{path}.fault")
    _seat(verdict.by, f"{path}.by", none=True)


def _check_clock_state(clock: ClockState, path: str) -> None:
    for name in ("mine", "theirs"):
        deadline: Deadline | None = getattr(clock, name)
        if deadline is not None and deadline.owed is not None:
            owed = deadline.owed
            _that(owed.what in OWED, f"{path}.{name}", f"expected one of {', '.join(OWED)}")
            if owed.h is not None:
                _count(owed.h, f"{path}.{name}", 10**6)


def _check_draft(game: GameState, probe: Game, path: str) -> None:
    """This side's draft: a layout its player could deploy."""
    draft = game.mine.draft
    _that(draft is not None, path, "missing")
    spec, deployment = probe.board_spec, probe.deployment
    assert deployment is not None and draft is not None
    squares = [spec.names[s] for s in deployment.squares(game.seat)]
    kinds = {k.letter: k.kind for k in probe.position_class.kinds}
    ok = set(draft) == set(squares) and set(draft.values()) <= set(kinds)
    _that(ok, path, "not a layout of this seat's squares")
    try:
        deployment.validate(game.seat, {spec.index[s]: kinds[x] for s, x in draft.items()})
    except DeploymentError as error:
        raise ShapeError(path, str(error)) from None


def _check_layouts(game: GameState, probe: Game, path: str) -> None:
    """Classic, Gunjin: this side's draft, layout, salts and commitments agree, and the
    other side's list matches its root; nothing of a deal."""
    mine: Mine = game.mine
    theirs: Theirs = game.theirs
    decks: Decks = game.decks
    deals = (mine.e, mine.perm, mine.table, decks.d1, decks.d2)
    _that(all(x is None for x in deals), f"{path}.mine", "a deal in a game without one")
    _check_draft(game, probe, f"{path}.mine.draft")
    deployed = mine.layout is not None
    held = (mine.salts, mine.commitments, mine.root)
    _that(all((x is not None) == deployed for x in held), f"{path}.mine", "half deployed")
    if deployed:
        layout, salts = mine.layout or {}, mine.salts or {}
        _that(mine.draft == layout, f"{path}.mine.layout", "differs from the draft")
        spec, deployment = probe.board_spec, probe.deployment
        squares = [spec.names[s] for s in deployment.squares(game.seat)]  # type: ignore[union-attr]
        _that(set(salts) == set(squares), f"{path}.mine.salts", "one salt per square")
        _each(salts.values(), f"{path}.mine.salts", lambda v, p: _hex(v, 16, p))
        made = commit_layout(game.sid, game.seat, squares, layout, salts)
        _that(tuple(made) == mine.commitments, f"{path}.mine.list", "does not match the layout")
        root = layout_root(game.sid, game.seat, made)
        _that(root == mine.root, f"{path}.mine.root", "does not match the layout")
    if mine.list_sent:
        _that(deployed and theirs.root is not None, f"{path}.mine.list_sent", "too early")
    if mine.key is not None:  # (whether A = g^a is not tested: an exponentiation costs
        # tens of milliseconds, and a wrong one breaks only this side's next transfer)
        _exponent(mine.key.a, f"{path}.mine.key.a")
        _element(mine.key.A, f"{path}.mine.key.A")
    _that(mine.list_sent == (mine.key is not None), f"{path}.mine.key", "held before the list")
    for key, b in mine.ot.items():
        _that(key.isdigit(), f"{path}.mine.ot.{key}", "expected an action number")
        _exponent(b, f"{path}.mine.ot.{key}")
    if theirs.root is not None:
        _hex(theirs.root, 32, f"{path}.theirs.root")
    if theirs.commitments is not None:
        _that(theirs.root is not None, f"{path}.theirs.list", "a list before its root")
        _each(theirs.commitments, f"{path}.theirs.list", lambda v, p: _hex(v, 32, p))
        opp = 1 - game.seat
        root = layout_root(game.sid, opp, list(theirs.commitments))
        _that(root == theirs.root, f"{path}.theirs.list", "does not match the other's root")
    if theirs.key is not None:
        _element(theirs.key, f"{path}.theirs.key")
    if game.started:
        started = deployed and mine.list_sent and theirs.commitments is not None
        _that(started, f"{path}.started", "play started before both lists were known")


def _check_blind(game: GameState, path: str) -> None:
    """Blind: the host dealt first (its exponent and permutation, D1); the guest holds its
    exponent, permutation and table once D1 came, D2 with them; no layouts."""
    mine, decks, theirs = game.mine, game.decks, game.theirs
    layouts = (mine.draft, mine.layout, mine.salts, mine.commitments, mine.root, mine.key)
    _that(all(x is None for x in layouts), f"{path}.mine", "a layout in Blind")
    _that(not mine.list_sent and not mine.ot, f"{path}.mine", "a layout in Blind")
    others = (theirs.root, theirs.commitments, theirs.key)
    _that(all(x is None for x in others), f"{path}.theirs", "a layout in Blind")
    host = game.role == "host"
    dealt = mine.e is not None
    _that(dealt == (mine.perm is not None), f"{path}.mine", "half a shuffle")
    _that(dealt == (decks.d1 is not None), f"{path}.decks.d1", "does not match this side's deal")
    if host:
        _that(dealt, f"{path}.mine", "the host deals first")
        _that(mine.table is None, f"{path}.mine.table", "the guest's, not the host's")
    else:
        _that(dealt == (mine.table is not None), f"{path}.mine", "the guest's table is missing")
        _that(dealt == (decks.d2 is not None), f"{path}.decks.d2", "the guest's shuffle")
    if dealt:
        _exponent(mine.e, f"{path}.mine.e")
        _that(is_permutation(list(mine.perm or ())), f"{path}.mine.perm", "not a permutation")
    for name, deck in (("d1", decks.d1), ("d2", decks.d2), ("table", mine.table)):
        if deck is not None:
            _that(len(deck) == N_CARDS, f"{path}.decks.{name}", f"expected {N_CARDS} cards")
            _each(deck, f"{path}.decks.{name}", _element)
    if game.started:
        _that(decks.d1 is not None and decks.d2 is not None, f"{path}.decks", "no deal")
