"""Friend play over a data channel: the peer the page's bridge talks to (docs/fair-play.md).

    peer = FairPeer.host("classic", clock={"deploy": 90, "move": 30})
    peer.flush()                    # {"ok": true, "send": [the hello], "events": []}
    peer.receive(text)              # each message the other page sent, in order
    peer.setup("swap", a="a1", b="b2"); peer.deploy()
    peer.act("c3-c4"); peer.act("offer"); peer.act("resign"); peer.act("rematch")
    peer.tick()                     # about once a second: clocks, claims, deadlines
    peer.view()                     # views.view() shape for this seat, plus "fair"
    text = peer.to_json(); peer = FairPeer.from_json(text)
    peer.reconnect()                # on a new data channel: both resend what is missing
    taken_notice()                  # the message for a third page that answered a used invitation

Every call returns {"ok": true, "send": [message texts], "events": [...]} or
{"ok": false, "error": {"code", "message"}, "send": [...], "events": []}; a refused call or
message changes nothing.  Save `to_json()` before sending what a call returned, so that a
reloaded page never forgets a message the other side already has.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from junqi_core import __version__
from junqi_core.fair.errors import FairError
from junqi_core.fair.group import digest
from junqi_core.fair.messages import PROTOCOL, MessageError, decode, encode
from junqi_core.fair.session import Session
from junqi_core.fair.shadow import RulesRefused
from junqi_core.fair.shadow import check_rules as check_engine_rules
from junqi_core.record import RULES_VERSION
from junqi_core.text import JsonRefused, load_json
from junqi_core.variants import RulesError, find_variant

ENGINE = f"{__version__}+rules-{RULES_VERSION}"
STATE_FORMAT = "junqi-fair-peer"
STATE_VERSION = 1
CHAIN_START = "00" * 32


def session_id(
    rules: dict, clock: dict | None, host_nonce: str, guest_nonce: str, game: int
) -> str:
    """H(both nonces, engine version, rules, clock, game number): binds every message."""
    return digest(
        "session",
        PROTOCOL,
        ENGINE,
        encode(rules),
        encode({"clock": clock}),
        bytes.fromhex(host_nonce),
        bytes.fromhex(guest_nonce),
        game,
    ).hex()


def taken_notice() -> str:
    """The message for a page that answered an invitation already used by someone else."""
    return encode({"v": PROTOCOL, "type": "taken", "sid": None, "seq": 0})


def _chain(previous: str, text: str) -> str:
    return digest("chain", bytes.fromhex(previous), text).hex()


def _now(now: float | None) -> float:
    return time.time() * 1000 if now is None else float(now)


def check_rules(rules: Any) -> None:
    try:
        check_engine_rules(rules)
    except RulesRefused as error:
        raise FairError("bad_rules", str(error)) from None


def check_clock(clock: Any) -> None:
    if clock is None:
        return
    if not isinstance(clock, dict) or set(clock) != {"deploy", "move"}:
        raise FairError("bad_clock", "a clock is null or {deploy, move} in seconds")
    for value in clock.values():
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 3600:
            raise FairError("bad_clock", "clock times are whole seconds from 1 to 3600")


class FairPeer:
    """One page's side of a friend game; see the module docstring."""

    def __init__(self, state: dict) -> None:
        self.s = state
        self.session: Session | None = None
        self.outbox: list[str] = []
        self.events: list[dict] = []

    @staticmethod
    def _new_state(role: str) -> dict:
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "engine": ENGINE,
            "role": role,
            "conn": {
                "seq_out": 0,
                "seq_in": 0,
                "sent": [],
                "sent_chain": CHAIN_START,
                "chain": CHAIN_START,
                "resuming": False,
            },
            "match": {
                "rules": None,
                "clock": None,
                "game": 0,
                "nonces": {"host": None, "guest": None},
                "rematch": {"mine": None, "theirs": None},
                "results": [],
            },
        }

    @classmethod
    def host(
        cls,
        variant: str,
        preset: str | None = None,
        options: dict | None = None,
        clock: dict | None = None,
    ) -> FairPeer:
        """The side that picks the game; it moves first in the first game."""
        try:  # the rules in full (every option's value), as both pages will check them
            rules = find_variant(variant, preset, options).rules_json()
        except RulesError as error:
            raise RulesRefused(str(error)) from None
        check_clock(clock)
        peer = cls(cls._new_state("host"))
        match = peer.s["match"]
        nonce = secrets.token_hex(32)
        match.update(rules=rules, clock=clock)
        match["nonces"]["host"] = nonce
        peer._send_with(
            None, "hello", role="host", nonce=nonce, engine=ENGINE, rules=rules, clock=clock
        )
        return peer

    @classmethod
    def guest(cls) -> FairPeer:
        """The side that joins: it learns the game from the host's hello."""
        return cls(cls._new_state("guest"))

    # --- sending ------------------------------------------------------------------------

    @property
    def role(self) -> str:
        return self.s["role"]

    @property
    def seat(self) -> int:
        host_first = self.s["match"]["game"] % 2 == 0
        return 0 if (self.role == "host") == host_first else 1

    def _send_with(self, sid: str | None, kind: str, **fields: Any) -> None:
        conn = self.s["conn"]
        text = encode({"v": PROTOCOL, "type": kind, "seq": conn["seq_out"], "sid": sid, **fields})
        conn["sent"].append(text)
        conn["sent_chain"] = _chain(conn["sent_chain"], text)
        conn["seq_out"] += 1
        self.outbox.append(text)

    def _send(self, kind: str, **fields: Any) -> None:
        assert self.session is not None
        self._send_with(self.session.g["sid"], kind, **fields)

    def _sender(self, sid: str) -> Any:
        return lambda kind, **fields: self._send_with(sid, kind, **fields)

    def _reply(self) -> dict:
        if self.session is not None:
            self.events.extend(self.session.events)
            self.session.events = []
        reply = {"ok": True, "send": self.outbox, "events": self.events}
        self.outbox, self.events = [], []
        return reply

    def _error(self, code: str, message: str, square: str | None = None) -> dict:
        error = {"code": code, "message": message}
        if square:
            error["square"] = square
        reply = {"ok": False, "error": error, "send": self.outbox, "events": []}
        self.outbox, self.events = [], []
        return reply

    # --- refusals change nothing ---------------------------------------------------------

    def _snapshot(self) -> tuple:
        """What a refusal restores: small state as JSON text, append-only lists by length."""
        session = self.session
        g = session.g if session is not None else None
        kept = None
        if g is not None:
            small = {k: v for k, v in g.items() if k not in ("records", "claims")}
            kept = (
                json.dumps(small),
                g["records"],
                len(g["records"]),
                g["claims"],
                len(g["claims"]),
                self._shape(g),
                session.referee,  # type: ignore[union-attr]
            )
        conn = self.s["conn"]
        small_conn = json.dumps({k: v for k, v in conn.items() if k != "sent"})
        match = json.dumps(self.s["match"])
        return (match, small_conn, len(conn["sent"]), session, kept, len(self.outbox))

    @staticmethod
    def _shape(g: dict) -> tuple:
        """What the shadow game is built from (a refusal that changed it rebuilds it)."""
        mine = g["mine"]
        return (
            id(g["records"]),
            len(g["records"]),
            g["started"],
            json.dumps(mine["draft"], sort_keys=True),
            mine["layout"] is None,
            g["theirs"]["root"] is None,
        )

    def _restore(self, snapshot: tuple) -> None:
        match, small_conn, sent_len, session, kept, outbox_len = snapshot
        conn = json.loads(small_conn)
        conn["sent"] = self.s["conn"]["sent"][:sent_len]
        self.s["match"], self.s["conn"] = json.loads(match), conn
        self.session = session
        if session is not None and kept is not None:
            small, records, n_records, claims, n_claims, shape, referee = kept
            changed = self._shape(session.g) != shape
            g = json.loads(small)
            del records[n_records:]
            del claims[n_claims:]
            g["records"], g["claims"] = records, claims
            session.g = g
            session.referee = referee
            session.events = []
            session._table = None
            if changed or self._shape(g) != shape:
                session.rebuild()
        del self.outbox[outbox_len:]
        self.events = []

    def _guarded(self, call: Any, *args: Any) -> dict:
        snapshot = self._snapshot()
        try:
            call(*args)
            return self._reply()
        except (FairError, MessageError) as error:
            self._restore(snapshot)
            return self._error(error.code, str(error), getattr(error, "square", None))
        except Exception as error:  # never let an engine bug reach the page or half-apply
            self._restore(snapshot)
            return self._error("internal", f"{type(error).__name__}: {error}")

    def _need_session(self) -> Session:
        if self.session is None:
            raise FairError("wrong_phase", "the two pages have not said hello yet")
        return self.session

    # --- the API ----------------------------------------------------------------------

    def flush(self) -> dict:
        """Messages waiting to be sent (the host's hello after `host()`)."""
        return self._reply()

    def receive(self, text: Any, now: float | None = None) -> dict:
        """Take one message from the other page."""
        return self._guarded(self._receive, text, _now(now))

    def act(self, action: Any, now: float | None = None) -> dict:
        """A move ('c3-c4'), a flip ('flip:c4'), 'timeout', 'offer', 'accept', 'decline',
        'resign' or 'rematch' (after the verdict)."""
        if action == "rematch":
            return self._guarded(self._rematch, _now(now))
        return self._guarded(lambda: self._need_session().act(action, _now(now)))

    def deploy(self, layout: Any = None, now: float | None = None) -> dict:
        """Confirm a layout ({square: letter or id}; default: the draft) and commit to it."""
        return self._guarded(lambda: self._need_session().deploy(layout, _now(now)))

    def setup(self, op: str, now: float | None = None, **args: Any) -> dict:
        """Arrange the draft: 'random', 'swap' (a, b), 'mirror', 'set' (layout)."""
        return self._guarded(lambda: self._need_session().setup(op, args, _now(now)))

    def tick(self, now: float | None = None) -> dict:
        """Clocks: this side's time-outs, claims on a stalling opponent, audit deadline."""
        return self._guarded(lambda: self.session and self.session.tick(_now(now)))

    def reconnect(self) -> dict:
        """After a new data channel: ask the other page to resend what this one lacks (and
        tell it what this one has).  Either page may start; one exchange settles both."""
        conn = self.s["conn"]
        conn["resuming"] = True
        # what was sent before now went over the old channel and may be lost; what is sent
        # from now on travels the new one in order, so a resume never resends it
        conn["resume_mark"] = conn["seq_out"]
        self._send_resume(answer=False)
        return self._reply()

    def view(self) -> dict:
        match = self.s["match"]
        fair = {
            "role": self.role,
            "engine": ENGINE,
            "game": match["game"],
            "results": match["results"],
            "rematch": {k: v is not None for k, v in match["rematch"].items()},
            "transcript": self.transcript_hash(),
        }
        if self.session is None:
            fair.update(stage="hello", seat=self.seat, rules=match["rules"], clock=match["clock"])
            return {
                "variant": (match["rules"] or {}).get("variant"),
                "phase": "connect",
                "fair": fair,
            }
        view = self.session.view()
        fair.update(self.session.status())
        if self.session.g["stage"] == "done":
            view["actions"] = [*view.get("actions", []), "rematch"]
        view["fair"] = fair
        return view

    def transcript_hash(self) -> str:
        """Equal on both pages exactly when each has received everything the other sent."""
        conn = self.s["conn"]
        sent = conn["sent_chain"]
        ours = (sent, conn["chain"]) if self.role == "host" else (conn["chain"], sent)
        return digest("transcript", *(bytes.fromhex(x) for x in ours)).hex()

    def to_json(self) -> str:
        state = dict(self.s, session=None if self.session is None else self.session.g)
        return json.dumps(state, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> FairPeer:
        """A saved peer (raises FairError when the text is not one, or from another engine)."""
        if not isinstance(text, str):
            raise FairError("bad_state", "a saved friend game is JSON text")
        try:
            state = load_json(text, "the saved game")
        except JsonRefused as error:
            raise FairError("bad_state", str(error)) from None
        if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
            raise FairError("bad_state", "not a saved friend game")
        version = state.get("version")
        if type(version) is not int or version != STATE_VERSION or state.get("engine") != ENGINE:
            raise FairError("version_mismatch", "the game was saved by another engine version")
        g = state.pop("session")
        peer = cls(state)
        if g is not None:
            peer.session = Session(g, peer._sender(g["sid"]))
        return peer

    # --- connection ------------------------------------------------------------------

    def _receive(self, text: Any, now: float) -> None:
        message = decode(text)
        conn = self.s["conn"]
        if message["type"] == "resume":
            self._on_resume(message)
            return
        if message["type"] == "taken":
            self._on_taken(message)
            return
        if message["seq"] != conn["seq_in"]:
            code = "replayed" if message["seq"] < conn["seq_in"] else "out_of_order"
            raise MessageError(code, f"expected message {conn['seq_in']}, got {message['seq']}")
        if message["type"] == "hello":
            self._on_hello(message, now)
        else:
            session = self._need_session()
            if message["sid"] != session.g["sid"]:
                raise MessageError("wrong_session", "the message belongs to another game")
            if message["type"] == "rematch":
                self._on_rematch(message, now)
            else:
                session.handle(message, now)
        conn["seq_in"] += 1
        conn["chain"] = _chain(conn["chain"], text)

    def _on_hello(self, msg: dict, now: float) -> None:
        match = self.s["match"]
        if self.session is not None or msg["role"] == self.role:
            raise FairError("unexpected", "hello was already exchanged")
        if msg["engine"] != ENGINE:
            raise FairError(
                "version_mismatch",
                f"the other page runs engine {msg['engine']}; this one runs {ENGINE}",
            )
        check_rules(msg["rules"])
        check_clock(msg["clock"])
        if self.role == "guest":
            if msg["sid"] is not None:
                raise MessageError("malformed", "the host's hello has no session id yet")
            match.update(rules=msg["rules"], clock=msg["clock"])
            match["nonces"] = {"host": msg["nonce"], "guest": secrets.token_hex(32)}
            sid = self._sid()
            self._send_with(
                sid,
                "hello",
                role="guest",
                nonce=match["nonces"]["guest"],
                engine=ENGINE,
                rules=match["rules"],
                clock=match["clock"],
            )
        else:
            if msg["rules"] != match["rules"] or msg["clock"] != match["clock"]:
                raise FairError("rules_mismatch", "the guest answered with other rules")
            match["nonces"]["guest"] = msg["nonce"]
            sid = self._sid()
            if msg["sid"] != sid:
                raise MessageError("wrong_session", "the guest computed another session id")
        self._start_game(now)

    def _on_taken(self, msg: dict) -> None:
        """The invitation this guest answered was already taken: say so, change nothing."""
        started = self.session is not None or self.s["conn"]["seq_in"] > 0
        if self.role != "guest" or started or msg["sid"] is not None or msg["seq"] != 0:
            raise FairError("unexpected", "only a page that has not started can be told that")
        self.events.append({"type": "taken"})

    def _sid(self) -> str:
        match = self.s["match"]
        nonces = match["nonces"]
        return session_id(
            match["rules"], match["clock"], nonces["host"], nonces["guest"], match["game"]
        )

    def _start_game(self, now: float) -> None:
        match = self.s["match"]
        sid = self._sid()
        self.session = Session.new(
            self.role, match["rules"], match["clock"], sid, self.seat, now, self._sender(sid)
        )

    def _rematch(self, now: float) -> None:
        session = self._need_session()
        rematch = self.s["match"]["rematch"]
        if session.g["stage"] != "done" or rematch["mine"] is not None:
            raise FairError("wrong_phase", "a rematch is possible once a game is decided")
        rematch["mine"] = secrets.token_hex(32)
        self._send("rematch", nonce=rematch["mine"])
        if rematch["theirs"] is not None:
            self._next_game(now)

    def _on_rematch(self, msg: dict, now: float) -> None:
        session = self._need_session()
        rematch = self.s["match"]["rematch"]
        if session.g["stage"] != "done" or rematch["theirs"] is not None:
            raise FairError("wrong_phase", "a rematch is not expected now")
        rematch["theirs"] = msg["nonce"]
        if rematch["mine"] is not None:
            self._next_game(now)

    def _next_game(self, now: float) -> None:
        """A new game with new nonces (a new session id) and the seats switched."""
        match = self.s["match"]
        session = self._need_session()
        self.events.extend(session.events)
        verdict = session.g["verdict"]
        match["results"].append(
            {
                "game": match["game"],
                "seat": session.seat,
                "result": verdict["result"],
                "fault": verdict["fault"],
            }
        )
        rematch = match["rematch"]
        mine_is_host = self.role == "host"
        match["nonces"] = {
            "host": rematch["mine"] if mine_is_host else rematch["theirs"],
            "guest": rematch["theirs"] if mine_is_host else rematch["mine"],
        }
        match["rematch"] = {"mine": None, "theirs": None}
        match["game"] += 1
        self._start_game(now)
        self.events.append({"type": "new_game", "game": match["game"], "seat": self.seat})

    # --- resuming after a reconnect ---------------------------------------------------

    def _sent_chain(self, count: int) -> str:
        chain = CHAIN_START
        for text in self.s["conn"]["sent"][:count]:
            chain = _chain(chain, text)
        return chain

    def _send_resume(self, answer: bool) -> None:
        conn = self.s["conn"]
        sid = self.session.g["sid"] if self.session is not None else None
        self.outbox.append(
            encode(
                {
                    "v": PROTOCOL,
                    "type": "resume",
                    "sid": sid,
                    "recv": conn["seq_in"],
                    "chain": conn["chain"],
                    "sent": conn["seq_out"],
                    "answer": answer,
                }
            )
        )

    def _on_resume(self, msg: dict) -> None:
        conn = self.s["conn"]
        sid = self.session.g["sid"] if self.session is not None else None
        if msg["sid"] != sid and msg["sid"] is not None and sid is not None:
            raise FairError("resume_mismatch", "the other page is in another game")
        if msg["recv"] > conn["seq_out"] or self._sent_chain(msg["recv"]) != msg["chain"]:
            raise FairError("resume_mismatch", "the other page holds messages this page never sent")
        if msg["sent"] < conn["seq_in"]:
            raise FairError(
                "resume_mismatch",
                "the other page lost messages it had sent (it was restored from an older save)",
            )
        starting = not msg["answer"] and not conn.get("resuming")
        mark = conn["seq_out"] if starting else conn.get("resume_mark", conn["seq_out"])
        missing = conn["sent"][msg["recv"] : max(mark, msg["recv"])]
        self.outbox.extend(missing)
        if starting:
            self._send_resume(answer=True)  # the other page started: tell it what this one has
        conn["resuming"] = False
        self.events.append({"type": "resumed", "resent": len(missing)})
