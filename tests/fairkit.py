"""Two in-memory fair-play peers on one table, for the tests: a message queue each way, a
seeded driver that picks legal actions from each peer's own view, and a referee check."""

from __future__ import annotations

import json
import random

from junqi_core.fair import FairPeer
from junqi_core.fair.deal import CARDS, dealt_board
from junqi_core.fair.shadow import UNKNOWN, referee_game
from junqi_core.game import Game
from junqi_core.pieces import FACE_DOWN, KIND_MASK
from junqi_core.record import layout_from_json
from junqi_core.rules import GunjinPosition

NAMES = ("host", "guest")


class Table:
    def __init__(
        self,
        variant: str,
        seed: int = 0,
        clock: dict | None = None,
        options: dict | None = None,
        watch: bool = False,
    ) -> None:
        self.rng = random.Random(seed)
        self.peers = {"host": FairPeer.host(variant, options=options, clock=clock), "guest": None}
        self.peers["guest"] = FairPeer.guest()
        self.inbox: dict[str, list[str]] = {"host": [], "guest": []}
        self.log: list[tuple[str, str]] = []  # (sender, message text), everything sent
        self.now = 0.0
        self.watch = watch  # check hidden information after every message
        self.checked = 0  # messages of the log already checked
        self.drop = None  # a test may drop messages: drop(sender, message dict) -> bool
        self.take("host", self.peers["host"].flush())

    @property
    def host(self) -> FairPeer:
        return self.peers["host"]

    @property
    def guest(self) -> FairPeer:
        return self.peers["guest"]

    def name_of(self, seat: int) -> str:
        return next(n for n in NAMES if self.peers[n].session.seat == seat)

    def peer(self, seat: int) -> FairPeer:
        return self.peers[self.name_of(seat)]

    def take(self, name: str, reply: dict) -> dict:
        assert reply["ok"], (name, reply)
        other = "guest" if name == "host" else "host"
        for text in reply["send"]:
            self.log.append((name, text))
            if self.drop is None or not self.drop(name, json.loads(text)):
                self.inbox[other].append(text)
        return reply

    def pump(self, count: int) -> None:
        """Deliver at most `count` messages."""
        for _ in range(count):
            name = next((n for n in NAMES if self.inbox[n]), None)
            if name is None:
                return
            text = self.inbox[name].pop(0)
            self.take(name, self.peers[name].receive(text, now=self.now))

    def deliver(self, limit: int = 10_000) -> None:
        for _ in range(limit):
            name = next((n for n in NAMES if self.inbox[n]), None)
            if name is None:
                return
            text = self.inbox[name].pop(0)
            self.take(name, self.peers[name].receive(text, now=self.now))
            if self.watch:
                check_hidden(self)
        raise AssertionError("messages keep coming")

    def deploy_all(self) -> None:
        """Both sides deploy seeded random layouts (tests only: real pages use secrets)."""
        self.deliver()
        for name in NAMES:
            session = self.peers[name].session
            if session.g["stage"] == "setup" and session.g["mine"]["layout"] is None:
                layout = session.deployment.random_layout(session.seat, self.rng)
                named = {session.spec.names[s]: session.letter_of[k] for s, k in layout.items()}
                self.take(name, self.peers[name].deploy(named, now=self.now))
        self.deliver()

    def to_move(self) -> str | None:
        """The peer that owes the next action (None when the game is over)."""
        for name in NAMES:
            session = self.peers[name].session
            g = session.g
            if g["stage"] != "play" or g["pending"] is not None:
                continue
            if session.shadow.turn == session.seat:
                return name
        return None

    def choices(self, name: str, view: dict | None = None) -> list[str]:
        dests = (view or self.peers[name].view())["dests"]
        moves = [f"{f}-{t['to']}" for f, ts in dests["moves"].items() for t in ts]
        return moves + [f"flip:{s}" for s in dests["flips"]]

    def step(self, meta: float = 0.0, aggression: float = 0.0) -> bool:
        """One action by the side to move (sometimes a draw offer, an answer, a time-out)."""
        self.deliver()
        name = self.to_move()
        if name is None:
            return False
        peer = self.peers[name]
        view = peer.view()
        actions = view["actions"]
        if meta and self.rng.random() < meta:
            options = [a for a in actions if a in ("offer", "decline", "timeout")]
            if "accept" in actions and self.rng.random() < 0.3:
                options = ["accept"]
            if options:
                self.take(name, peer.act(self.rng.choice(options), now=self.now))
                self.deliver()
                return True
        options = self.choices(name, view)
        if aggression and self.rng.random() < aggression:
            attacking = [
                f"{f}-{t['to']}"
                for f, ts in view["dests"]["moves"].items()
                for t in ts
                if t["attack"]
            ]
            options = attacking or options
        self.take(name, peer.act(self.rng.choice(options), now=self.now))
        self.deliver()
        return True

    def play(self, max_actions: int = 5000, meta: float = 0.0, aggression: float = 0.0) -> None:
        self.deploy_all()
        for _ in range(max_actions):
            if not self.step(meta, aggression):
                break
        self.deliver()

    def records(self, name: str = "host") -> list[dict]:
        return self.peers[name].session.g["records"]


def public(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "partial"}


def true_game(table: Table) -> Game:
    """The referee: both true layouts (or the true deal) from the peers' own secrets."""
    host, guest = table.host.session, table.guest.session
    rules = host.g["rules"]
    if host.public:
        board = dealt_board(host.g["mine"]["perm"], guest.g["mine"]["perm"])
        return referee_game(rules, board=board)
    layouts = [None, None]
    for session in (host, guest):
        layouts[session.seat] = layout_from_json(session.shadow, session.g["mine"]["layout"])
    return referee_game(rules, layouts=layouts)


def check_against_referee(table: Table) -> Game:
    """The game both pages played ends exactly as the referee's with the same actions."""
    host, guest = table.host.session, table.guest.session
    assert [public(r) for r in host.g["records"]] == [public(r) for r in guest.g["records"]]
    referee = true_game(table)
    for record in host.g["records"]:
        entry = referee.apply(record["player"], record["action"])
        if "outcome" in record:
            flag = bool(record["outcome"] & 4)
            assert record["outcome"] & 3 == entry.result, record
            if not isinstance(referee.position, GunjinPosition):  # a flag is just a piece there
                assert flag == (entry.target & KIND_MASK == referee.position.flag_kind), record
        if "card" in record:
            assert CARDS[record["card"]] & ~FACE_DOWN == entry.extra["flipped"]
    verdicts = [host.g["verdict"], guest.g["verdict"]]
    assert verdicts[0] == verdicts[1], verdicts
    assert verdicts[0]["ok"] is True, verdicts[0]
    assert referee.result is not None
    assert verdicts[0]["result"] == {
        "winner": referee.result.winner,
        "reason": referee.result.reason,
    }
    return referee


def secrets_of(session, shown: set[int]) -> list[str]:
    """Strings that only this side may know before the end (`shown`: cards flipped)."""
    mine = session.g["mine"]
    found = list((mine["salts"] or {}).values()) + list(mine["ot"].values())
    if mine["key"]:
        found.append(mine["key"]["a"])
    if mine["e"]:
        found.append(mine["e"])
    found += [x for t, x in enumerate(mine["table"] or []) if t not in shown]  # flips show them
    return found


def check_hidden(table: Table) -> None:
    """Neither page's state, view or sent messages hold the other side's unrevealed ranks."""
    for name in NAMES:
        peer = table.peers[name]
        session = peer.session
        if session is None:
            continue
        other = table.peers["guest" if name == "host" else "host"].session
        ended = session.g["stage"] in ("ended", "done")
        if other is not None and not ended and other.g["stage"] not in ("ended", "done"):
            state = peer.to_json()
            pending = session.g["pending"] or {}
            own_share = pending.get("share")  # a share it made itself is no secret to it
            shown = {r["card"] for s in (session, other) for r in s.g["records"] if "card" in r}
            for secret in set(secrets_of(other, shown)) - {own_share}:
                assert secret not in state, (name, "holds a secret of the other side")
            assert session.g["theirs"]["open"] is None
        if ended or not session.g["started"]:
            continue
        position = session.shadow.position
        for p in position.board:
            if p and position.piece_owner(p) == session.opp and not session.public:
                assert p & KIND_MASK == UNKNOWN, (name, "its game knows an enemy rank")
            if p & FACE_DOWN:
                assert p & KIND_MASK == UNKNOWN, (name, "its game knows a face-down rank")
        view = peer.view()
        shown = set(session.g["revealed"])
        for square, cell in view["board"].items():
            if cell["owner"] == session.opp and not session.public and square not in shown:
                assert cell["kind"] is None, (name, square)
    for sender, text in table.log[table.checked :]:
        message = json.loads(text)
        if message["type"] in ("open", "reveal"):
            continue
        flat = json.dumps(message)
        for word in ('"layout"', '"salts"', '"secrets"', '"perm"', '"e"'):
            assert word not in flat, (sender, message["type"])
    table.checked = len(table.log)


def resign(table: Table, name: str | None = None) -> None:
    """End a game quickly: one side resigns (the side to move, by default)."""
    table.deliver()
    name = name or table.to_move() or "host"
    if table.peers[name].session.g["stage"] == "play":
        table.take(name, table.peers[name].act("resign", now=table.now))
    table.deliver()


def resign_holding_opening(table: Table, held: str) -> None:
    """The guest resigns; `held`'s opening is sent (and logged) but never delivered."""
    table.drop = lambda sender, message: sender == held and message["type"] == "open"
    table.take("guest", table.guest.act("resign", now=0))
    table.deliver()


def fault_of(peer: FairPeer) -> dict | None:
    verdict = peer.session.g["verdict"]
    assert verdict is not None, "no verdict yet"
    return verdict["fault"]


def attacks(table: Table, name: str) -> list[str]:
    dests = table.peers[name].view()["dests"]
    return [f"{f}-{t['to']}" for f, ts in dests["moves"].items() for t in ts if t["attack"]]


def seed_deals(monkeypatch, seed: int) -> None:
    """Blind deals from a seeded shuffle (tests only: the game, not the secrets, repeats)."""
    rng = random.Random(seed)
    monkeypatch.setattr(
        "junqi_core.fair.setup.random_permutation", lambda: rng.sample(range(50), 50)
    )
