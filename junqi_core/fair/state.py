"""Friend play's state as data: frozen dataclasses, replaced, never changed in place.

A page's whole state is a `PeerState`: the connection (`Conn`: message numbers, every text
sent, hash chains), the match (`Match`: rules, clock, nonces, rematches, results) and the
game in progress (`GameState`: this seat's secrets, the other side's commitments and public
values, the actions both applied with their protocol data, claims, how it ended).  Its
JSON form (data.py) is the saved game; it has the keys the saves of earlier versions have.

A handler makes a new state from the old one (`dataclasses.replace`), so a refusal, raised
before the handler returns, leaves the old state as it was: nothing to undo.

Besides its data a `GameState` carries what is derived from it and not saved (`derived`
fields): `facts` (the seat, the board, the pieces: fixed for a game), `shadow` (the seat's
game with the actions applied; a new state that adds an action gets a new shadow, the old
one is never touched) and `referee` (the true game, once audited).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, dataclass_transform

from junqi_core.fair.data import Custom, ShapeError, derived, from_json, named, optional

if TYPE_CHECKING:
    from junqi_core.fair.facts import Facts
    from junqi_core.fair.shadow import ShadowGame
    from junqi_core.game import Game

CHAIN_START = "00" * 32


@dataclass_transform(frozen_default=True, kw_only_default=True)
def frozen(cls: type) -> type:
    """A frozen dataclass with keyword-only fields: changed only by `replace`."""
    return dataclass(frozen=True, kw_only=True)(cls)


# --- the game ---------------------------------------------------------------------------


@frozen
class ClockRules:
    """Seconds to deploy and to move (a friend game has none or both)."""

    deploy: int
    move: int


@frozen
class Key:
    """This side's current oblivious-transfer sender key: the secret a, the published A."""

    a: str
    A: str  # (the protocol's names)


@frozen
class Transfer:
    """One oblivious transfer of a combat: sender key A, receiver value B, ciphertexts E."""

    A: str
    B: str
    E: tuple[str, ...] | None = optional()


@frozen
class Shares:
    """A Blind flip's shares of one post, by role."""

    host: str | None = optional()
    guest: str | None = optional()


@frozen
class Record:
    """One applied action with what the protocol decided about it (the audit replays it)."""

    player: int
    action: str
    outcome: int | None = optional()  # a combat's row (combat.py)
    card: int | None = optional()  # a Blind flip's card
    claim: str | None = optional()  # "occupation"
    up: Transfer | None = optional()
    down: Transfer | None = optional()
    shares: Shares | None = optional()
    partial: bool | None = optional()  # disputed before it completed


@frozen
class Claim:
    """A side's word on its own secret: its mobility (`status`) or its flag (`reveal`)."""

    h: int
    player: int
    kind: str = named("type")  # "status" or "reveal"
    mobile: bool | None = optional()
    square: str | None = optional()
    salt: str | None = optional()


@frozen
class Attack:
    """This side attacked: its transfer choice is out, the defender's rows are owed."""

    kind: str = "attack"
    h: int
    action: str
    c: int  # the kind it fights with
    b: str  # its receiver secret
    up: Transfer


@frozen
class Defend:
    """This side was attacked and answered: the attacker's rows are owed."""

    kind: str = "defend"
    h: int
    action: str
    d: int  # the index it defends with
    up: Transfer
    down: Transfer


@frozen
class Flipping:
    """This side flipped a post: the other side's share is owed."""

    kind: str = "flip"
    h: int
    action: str
    share: str


@frozen
class AwaitingStatus:
    """Gunjin: this side cannot move; the other's word on its own mobility is owed."""

    kind: str = "status"
    h: int


Pending = Attack | Defend | Flipping | AwaitingStatus


@frozen
class Asked:
    """A draw offer, acceptance or refusal this side made off turn, not yet applied."""

    id: int
    action: str


@frozen
class Result:
    winner: int | None
    reason: str


@frozen
class End:
    """How play ended: after `h` actions, the result claimed, and the side that ended it."""

    h: int
    winner: int | None
    reason: str
    by: int | None


@frozen
class Fault:
    """The first rule broken, as the audit names it (docs/fair-play.md)."""

    player: int
    action: int | None
    ply: int | None
    code: str
    message: str


@frozen
class Verdict:
    """The audit's verdict (`ok` None: decided without one, `by` the side that did)."""

    ok: bool | None
    result: Result
    fault: Fault | None
    by: int | None = optional()


@frozen
class Owed(Custom):
    """What a side owes: `deploy`, `move` (at action h), `reply` (at h), `open`."""

    what: str
    h: int | None = None

    def to_json(self) -> list:
        return [self.what] if self.h is None else [self.what, self.h]

    @classmethod
    def from_json(cls, value: Any, path: str) -> Owed:
        if not isinstance(value, list) or len(value) not in (1, 2):
            raise ShapeError(path, "expected [what] or [what, h]")
        h = from_json(int, value[1], path) if len(value) == 2 else None
        return cls(what=from_json(str, value[0], path), h=h)


@frozen
class Deadline(Custom):
    """What a side owes and since when (the page's clock, ms)."""

    owed: Owed | None
    since: float

    def to_json(self) -> list:
        return [None if self.owed is None else self.owed.to_json(), self.since]

    @classmethod
    def from_json(cls, value: Any, path: str) -> Deadline:
        if not isinstance(value, list) or len(value) != 2:
            raise ShapeError(path, "expected [owed, since]")
        owed = None if value[0] is None else Owed.from_json(value[0], path)
        return cls(owed=owed, since=from_json(float, value[1], path))


@frozen
class ClockState:
    mine: Deadline | None = None
    theirs: Deadline | None = None
    claimed: float | None = None  # when this side claimed the other's time-out


@frozen
class Mine:
    """This seat's truth: its layout and salts, its keys (Blind: exponent, permutation)."""

    draft: dict[str, str] | None = None
    layout: dict[str, str] | None = None
    salts: dict[str, str] | None = None
    commitments: tuple[str, ...] | None = named("list", None)
    root: str | None = None
    list_sent: bool = False
    key: Key | None = None
    ot: dict[str, str]  # receiver secret b of each transfer, by action number
    e: str | None = None
    perm: tuple[int, ...] | None = None
    table: tuple[str, ...] | None = None  # guest: T_t^e for every card t


@frozen
class Theirs:
    """The other side's public values: its root and commitments, its current transfer key,
    and its opening at the end (unchecked JSON until the audit reads it)."""

    root: str | None = None
    commitments: tuple[str, ...] | None = named("list", None)
    key: str | None = None
    opening: Any = named("open", None)


@frozen
class Decks:
    d1: tuple[str, ...] | None = None
    d2: tuple[str, ...] | None = None


@frozen
class GameState:
    """One seat's side of one game (docs/fair-play.md, "How a message flows")."""

    role: str
    rules: Any  # {variant, preset, options}, exactly as the host's engine wrote them
    clock: ClockRules | None
    sid: str
    seat: int
    stage: str  # setup, deal, play, ended, done
    started: bool
    mine: Mine
    theirs: Theirs
    decks: Decks
    records: tuple[Record, ...]
    claims: tuple[Claim, ...]
    disputed: Record | None
    pending: Pending | None
    requests: tuple[Asked, ...]
    next_request: int
    end: End | None
    verdict: Verdict | None
    revealed: dict[str, str]  # the other side's flag square, once shown
    clock_state: ClockState
    facts: Facts = derived()
    shadow: ShadowGame = derived()
    referee: Game | None = derived()

    @property
    def opp(self) -> int:
        return self.facts.opp

    @property
    def h(self) -> int:
        """The number of the next action (actions applied so far)."""
        return len(self.records)

    @cached_property
    def cards(self) -> dict[int, int]:
        """Blind: the card each share of the other side shows (host: D1 unshuffled; guest:
        its table T_t^e)."""
        if self.facts.host:
            return {int(x, 16): self.mine.perm[i] for i, x in enumerate(self.decks.d1)}  # type: ignore[index, arg-type]
        return {int(x, 16): t for t, x in enumerate(self.mine.table)}  # type: ignore[arg-type]


@frozen
class Transcript:
    """What the audit judges (audit.py): public to both sides at the end."""

    rules: Any
    sid: str
    host: int  # the host's seat
    commitments: tuple[tuple[str, ...] | None, ...]  # by seat
    decks: Decks
    records: tuple[Record, ...]
    claims: tuple[Claim, ...]
    disputed: Record | None
    end: End


# --- the connection and the match -------------------------------------------------------


@frozen
class Conn:
    """Message numbers both ways, every text sent (for a resume), and the hash chains."""

    seq_out: int = 0
    seq_in: int = 0
    sent: tuple[str, ...] = ()
    sent_chain: str = CHAIN_START
    chain: str = CHAIN_START
    resuming: bool = False
    resume_mark: int | None = optional()  # texts before it went over the old channel


@frozen
class Nonces:
    host: str | None = None
    guest: str | None = None


@frozen
class RematchNonces:
    mine: str | None = None
    theirs: str | None = None


@frozen
class GameResult:
    game: int
    seat: int
    result: Result
    fault: Fault | None


@frozen
class Match:
    rules: Any = None
    clock: ClockRules | None = None
    game: int = 0  # games played before this one
    nonces: Nonces = Nonces()
    rematch: RematchNonces = RematchNonces()
    results: tuple[GameResult, ...] = ()


@frozen
class PeerState:
    """A page's whole state: what `FairPeer.to_json` saves."""

    format: str
    version: int
    engine: str
    role: str  # host or guest
    conn: Conn = Conn()
    match: Match = Match()
    session: GameState | None = None

    @property
    def seat(self) -> int:
        """The host plays first in even games; seats switch at each rematch."""
        host_first = self.match.game % 2 == 0
        return 0 if (self.role == "host") == host_first else 1
