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

`FairPeer` holds the page's state (`state`, a state.PeerState) and replaces it with the new
state each call returns; the calls themselves are the pure functions of link.py (the
connection and the match) and play.py (the game).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from typing import Any

from junqi_core.fair import link, play
from junqi_core.fair.data import ShapeError, from_json, to_json
from junqi_core.fair.errors import FairError
from junqi_core.fair.facts import Conduct
from junqi_core.fair.link import ENGINE, PeerStep, check_clock, in_game, post, taken_notice
from junqi_core.fair.messages import Hello, MessageError
from junqi_core.fair.saved import check_saved
from junqi_core.fair.shadow import RulesRefused, variant_of
from junqi_core.fair.state import ClockRules, GameState, Match, Nonces, PeerState
from junqi_core.fair.step import Step
from junqi_core.text import JsonRefused, load_json
from junqi_core.variants import RulesError, find_variant

STATE_FORMAT = "junqi-fair-peer"
STATE_VERSION = 1

__all__ = ["ENGINE", "STATE_FORMAT", "STATE_VERSION", "FairPeer", "taken_notice"]


def _now(now: float | None) -> float:
    return time.time() * 1000 if now is None else float(now)


def _new_state(role: str, match: Match | None = None) -> PeerState:
    return PeerState(
        format=STATE_FORMAT,
        version=STATE_VERSION,
        engine=ENGINE,
        role=role,
        match=match or Match(),
    )


class FairPeer:
    """One page's side of a friend game; see the module docstring."""

    def __init__(self, state: PeerState, conduct: Conduct | None = None) -> None:
        self.state = state
        # What this page's pieces say (facts.py); a test replaces its methods to cheat.
        self.conduct = conduct or Conduct()
        self.outbox: list[str] = []  # texts made outside a call (the host's first hello)

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
        variant_of(rules)  # what the guest will check (a game of two players, say)
        check_clock(clock)
        clock_rules = None if clock is None else from_json(ClockRules, clock)
        nonce = secrets.token_hex(32)
        match = Match(rules=rules, clock=clock_rules, nonces=Nonces(host=nonce))
        hello = Hello(role="host", nonce=nonce, engine=ENGINE, rules=rules, clock=clock_rules)
        step = post(PeerStep(_new_state("host", match)), hello)
        peer = cls(step.state)
        peer.outbox.extend(step.out)
        return peer

    @classmethod
    def guest(cls) -> FairPeer:
        """The side that joins: it learns the game from the host's hello."""
        return cls(_new_state("guest"))

    @property
    def game(self) -> GameState | None:
        """The game in progress (None before the hello)."""
        return self.state.session

    # --- calls: a pure function of the state, or a refusal that changes nothing ----------

    def _call(self, function: Callable[..., PeerStep], *args: Any) -> dict:
        try:
            step = function(self.state, *args)
        except (FairError, MessageError) as error:
            return self._refusal(error.code, str(error), getattr(error, "square", None))
        except Exception as error:  # never let an engine bug reach the page
            return self._refusal("internal", f"{type(error).__name__}: {error}")
        self.state = step.state
        reply = {"ok": True, "send": [*self.outbox, *step.out], "events": list(step.events)}
        self.outbox = []
        return reply

    def _refusal(self, code: str, message: str, square: str | None = None) -> dict:
        error = {"code": code, "message": message}
        if square:
            error["square"] = square
        reply = {"ok": False, "error": error, "send": self.outbox, "events": []}
        self.outbox = []
        return reply

    def _game_call(self, function: Callable[..., Any], *args: Any) -> dict:
        return self._call(in_game, function, *args)

    def run(self, function: Callable[..., Any], *args: Any) -> dict:
        """Apply a step function of the game to this page's state as it is (`function(step,
        *args) -> step`): what a modified page does (tests play cheating pages with it)."""
        return self._game_call(lambda state, *a: function(Step(state), *a), *args)

    # --- the API ----------------------------------------------------------------------

    def flush(self) -> dict:
        """Messages waiting to be sent (the host's hello after `host()`)."""
        return self._call(PeerStep)

    def receive(self, text: Any, now: float | None = None) -> dict:
        """Take one message from the other page."""
        return self._call(link.receive, text, _now(now), self.conduct)

    def act(self, action: Any, now: float | None = None) -> dict:
        """A move ('c3-c4'), a flip ('flip:c4'), 'timeout', 'offer', 'accept', 'decline',
        'resign' or 'rematch' (after the verdict)."""
        if action == "rematch":
            return self._call(link.rematch, _now(now), self.conduct)
        return self._game_call(play.act, action, _now(now))

    def deploy(self, layout: Any = None, now: float | None = None) -> dict:
        """Confirm a layout ({square: letter or id}; default: the draft) and commit to it."""
        return self._game_call(play.deploy, layout, _now(now))

    def setup(
        self,
        op: str,
        now: float | None = None,
        a: Any = None,
        b: Any = None,
        layout: Any = None,
    ) -> dict:
        """Arrange the draft: 'random', 'swap' (a, b), 'mirror', 'set' (layout)."""
        return self._game_call(play.arrange, op, _now(now), a, b, layout)

    def tick(self, now: float | None = None) -> dict:
        """Clocks: this side's time-outs, claims on a stalling opponent, audit deadline."""
        if self.state.session is None:
            return self._call(PeerStep)
        return self._game_call(play.tick, _now(now))

    def reconnect(self) -> dict:
        """After a new data channel: ask the other page to resend what this one lacks (and
        tell it what this one has).  Either page may start; one exchange settles both."""
        return self._call(link.reconnect)

    def view(self) -> dict:
        return link.view(self.state)

    def transcript_hash(self) -> str:
        """Equal on both pages exactly when each has received everything the other sent."""
        return link.transcript_hash(self.state)

    def to_json(self) -> str:
        return json.dumps(to_json(self.state), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str, conduct: Conduct | None = None) -> FairPeer:
        """A saved peer (raises FairError when the text is not one, or from another engine)."""
        if not isinstance(text, str):
            raise FairError("bad_state", "a saved friend game is JSON text")
        try:
            saved = load_json(text, "the saved game")
        except JsonRefused as error:
            raise FairError("bad_state", str(error)) from None
        if not isinstance(saved, dict) or saved.get("format") != STATE_FORMAT:
            raise FairError("bad_state", "not a saved friend game")
        version = saved.get("version")
        if type(version) is not int or version != STATE_VERSION or saved.get("engine") != ENGINE:
            raise FairError("version_mismatch", "the game was saved by another engine version")
        try:
            state = from_json(PeerState, saved)
            check_saved(state)  # every value, as a live page could hold it
        except ShapeError as error:
            raise FairError("bad_state", f"the saved friend game is damaged ({error})") from None
        peer = cls(state, conduct)
        if state.session is not None:
            try:  # its seat's game replayed (and audited, once over)
                game = play.restored(state.session, peer.conduct)
            except Exception as error:
                damage = type(error).__name__
                raise FairError(
                    "bad_state", f"the saved friend game is damaged ({damage})"
                ) from None
            peer.state = link.with_session(state, game)
        return peer
