"""One game between two pages: deployment or deal, play, the end, the audit.

A `Session` is one seat's side of one game (docs/fair-play.md).  It holds that seat's
truth (layout and salts, oblivious-transfer keys; Blind: its exponent and permutation), the
other side's commitments and public values, and the transcript of what both did; never the
other side's unrevealed ranks.  Its state `g` is a JSON-ready dict; the seat's `ShadowGame`
is rebuilt from it.  Messages are sent through `send(type, **fields)`, which the peer wraps
in the envelope.  Every handler checks everything before it changes anything and raises
`FairError` to refuse.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from junqi_core import views
from junqi_core.deployment import Layout
from junqi_core.fair import combat, ot
from junqi_core.fair.audit import audit
from junqi_core.fair.clock import Clock
from junqi_core.fair.deal import CARDS, POSTS
from junqi_core.fair.errors import FairError
from junqi_core.fair.errors import hex_int as _int
from junqi_core.fair.fights import Fights
from junqi_core.fair.group import element_hex, exponent_hex
from junqi_core.fair.setup import Setup
from junqi_core.fair.shadow import (
    flag_shown,
    is_public,
    new_shadow,
    shape_possible,
    unknown_piece,
)
from junqi_core.game import OVER, PLAY, IllegalActionError
from junqi_core.notation import NotationError, parse_move
from junqi_core.pieces import piece as make_piece
from junqi_core.rules import GunjinPosition, Outcome

META = ("offer", "accept", "decline", "timeout")
PLAY_MESSAGES = frozenset(
    {
        "act",
        "ot_reply",
        "ot_rows",
        "flip_share",
        "status",
        "status_reply",
        "reveal",
        "request",
        "resign",
        "dispute",
    }
)


class Session(Setup, Fights, Clock):
    """One seat's side of one game; the mixins hold setup, combat and clock handling."""

    def __init__(self, g: dict, send: Callable[..., None]) -> None:
        self.g = g
        self.send = send
        self.events: list[dict] = []
        self.referee: Any = None
        self._table: dict[int, int] | None = None
        self.rebuild()

    @classmethod
    def new(
        cls,
        role: str,
        rules: dict,
        clock: dict | None,
        sid: str,
        seat: int,
        now: float,
        send: Callable[..., None],
    ) -> Session:
        g = {
            "role": role,
            "rules": rules,
            "clock": clock,
            "sid": sid,
            "seat": seat,
            "stage": "setup",
            "started": False,
            "mine": {
                "draft": None,
                "layout": None,
                "salts": None,
                "list": None,
                "root": None,
                "list_sent": False,
                "key": None,
                "ot": {},
                "e": None,
                "perm": None,
                "table": None,
            },
            "theirs": {"root": None, "list": None, "key": None, "open": None},
            "decks": {"d1": None, "d2": None},
            "records": [],
            "claims": [],
            "disputed": None,
            "pending": None,
            "requests": [],
            "next_request": 0,
            "end": None,
            "verdict": None,
            "revealed": {},
            "clock_state": {"mine": None, "theirs": None, "claimed": None},
        }
        session = cls(g, send)
        session._begin(now)
        return session

    # --- shape of the game ------------------------------------------------------------

    @property
    def seat(self) -> int:
        return self.g["seat"]

    @property
    def opp(self) -> int:
        return 1 - self.g["seat"]

    @property
    def host(self) -> bool:
        return self.g["role"] == "host"

    @property
    def host_seat(self) -> int:
        return self.seat if self.host else self.opp

    def rebuild(self) -> None:
        """The shadow game from the saved state (after loading, or after a refusal)."""
        g = self.g
        shadow = new_shadow(g["rules"])
        self.shadow = shadow
        self.public = is_public(shadow)
        self.cls = shadow.position_class
        self.spec = shadow.board_spec
        self.letter_of = {k.kind: k.letter for k in self.cls.kinds}
        self.kind_of = {k.letter: k.kind for k in self.cls.kinds}
        self.flag_shown = flag_shown(g["rules"])
        self._table = None
        if not self.public:
            self.deployment = shadow.deployment
            mine = g["mine"]
            if mine["draft"]:
                shadow.drafts[self.seat] = self._ints(mine["draft"])
            if mine["layout"]:
                shadow.layouts[self.seat] = self._ints(mine["layout"])
            if g["theirs"]["root"]:
                shadow.layouts[self.opp] = {}
        if g["started"]:
            self._build_board()
        for record in g["records"]:
            self._shadow_apply(record)

    def _squares(self, player: int) -> list[str]:
        return [self.spec.names[s] for s in self.deployment.squares(player)]

    def _named(self, layout: Layout) -> dict[str, str]:
        return {self.spec.names[s]: self.letter_of[k] for s, k in sorted(layout.items())}

    def _ints(self, named: dict[str, str]) -> Layout:
        return {self.spec.index[s]: self.kind_of[letter] for s, letter in named.items()}

    def _build_board(self) -> None:
        shadow = self.shadow
        board = [0] * self.spec.size
        if self.public:
            for square in POSTS:
                board[square] = unknown_piece(0, face_down=True)
        else:
            for square, kind in self._ints(self.g["mine"]["layout"]).items():
                board[square] = make_piece(kind, self.seat)
            for square in self.deployment.squares(self.opp):
                board[square] = unknown_piece(self.opp)
            shadow.phase = PLAY
        shadow.set_board(board)

    def _begin(self, now: float) -> None:
        if self.public:
            self.g["stage"] = "deal"
            if self.host:
                self._deal_first()
        else:
            self._set_draft(self._random_layout())
        self.settle(now)

    # --- applying actions ---------------------------------------------------------------

    def _shadow_apply(self, record: dict) -> Any:
        shadow, position = self.shadow, self.shadow.position
        player, action = record["player"], record["action"]
        restore: tuple[int, int] | None = None
        forced = trusted = None
        if action.startswith("flip:"):
            square = self.spec.index[action[5:]]
            restore = (square, position.board[square])
            position.board[square] = CARDS[record["card"]]
        elif "-" in action:
            move = parse_move(self.spec, action)
            if player != self.seat and not self.public:
                trusted = move
            if "outcome" in record:
                forced = record["outcome"] & combat.RESULT_MASK
                to = self.spec.move_code.to[move]
                if record["outcome"] & combat.FLAG_TAKEN and player == self.seat:
                    restore = (to, position.board[to])
                    flag_colour = position.colour_of(self.opp)
                    position.board[to] = make_piece(position.flag_kind, flag_colour)
        try:
            entry = shadow.apply_known(player, action, forced, trusted)
        except Exception:
            if restore is not None:
                position.board[restore[0]] = restore[1]
            raise
        if record.get("claim") == "occupation" and player != self.seat:
            shadow.end_with(Outcome(player, "occupation"))
        return entry

    def _add_record(self, record: dict) -> Any:
        try:
            entry = self._shadow_apply(record)
        except IllegalActionError as error:
            raise FairError(error.code, str(error)) from None
        self.g["records"].append(record)
        self.events.append({"type": "action", "event": views.event(self.shadow, entry, self.seat)})
        return entry

    def _mine(self, action: str, **fields: Any) -> Any:
        """Apply one of this seat's own actions and send it."""
        h = len(self.g["records"])
        record = {"player": self.seat, "action": action}
        entry = self._add_record(record)
        ended = self.shadow.ended
        if ended is not None and ended.reason == "occupation" and ended.winner == self.seat:
            record["claim"] = fields["claim"] = "occupation"
        self.send("act", h=h, action=action, **fields)
        return entry

    # --- this seat's actions -----------------------------------------------------------

    def act(self, action: Any, now: float) -> None:
        g, shadow = self.g, self.shadow
        if not isinstance(action, str):
            raise FairError("bad_action", "an action is a string")
        if g["stage"] != "play" or g["end"] is not None:
            raise FairError("wrong_phase", "there is no game in play")
        name, _, arg = action.partition(":")
        if name in ("resign", "offer", "accept", "decline") and arg not in ("", str(self.seat)):
            raise FairError("wrong_player", f"{action!r} names the other player")
        if name == "resign":
            self._resign()
        elif name in ("offer", "accept", "decline"):
            self._meta(f"{name}:{self.seat}")
        else:
            if g["pending"] is not None:
                raise FairError("busy", "wait until the action in progress is complete")
            if shadow.turn != self.seat:
                raise FairError("not_your_turn", "it is the other player's turn")
            if action == "timeout":
                self._mine("timeout")
            else:
                self._move(action)
        self.settle(now)

    def _meta(self, action: str) -> None:
        g, shadow = self.g, self.shadow
        name = action.partition(":")[0]
        if g["pending"] is not None:
            raise FairError("busy", "wait until the action in progress is complete")
        if shadow.turn == self.seat:
            self._mine(action)
            return
        if name not in shadow.meta_actions(self.seat):
            raise FairError(f"cannot_{name}", f"{name} is not possible now")
        rid = g["next_request"]
        g["next_request"] += 1
        g["requests"].append({"id": rid, "action": action})
        self.send("request", h=len(g["records"]), action=action, id=rid)

    def _move(self, action: str) -> None:
        g, shadow = self.g, self.shadow
        try:
            move = parse_move(self.spec, action)
        except NotationError as error:
            raise FairError("bad_action", str(error)) from None
        if move not in shadow.legal_moves():
            raise FairError("illegal_move", f"{action} is not a legal action now")
        frm, to = self.spec.move_code.split(move)
        h = len(g["records"])
        if frm == to:
            share = self._my_share(frm)
            g["pending"] = {"kind": "flip", "h": h, "action": action, "share": share}
            self.send("act", h=h, action=action, share=share)
        elif shadow.position.board[to] and not self.public:
            if g["theirs"]["key"] is None:
                raise FairError("busy", "the other side's combat key has not arrived yet")
            kind = self._fight_kind(frm)
            b, big_b = ot.choose(_int(g["theirs"]["key"]), kind)
            up = {"A": g["theirs"]["key"], "B": element_hex(big_b)}
            g["pending"] = {
                "kind": "attack",
                "h": h,
                "action": action,
                "c": kind,
                "b": exponent_hex(b),
                "up": up,
            }
            g["theirs"]["key"] = None
            self.send("act", h=h, action=action, ot=up["B"])
        else:
            self._mine(action)

    def _resign(self) -> None:
        g = self.g
        h = len(g["records"])
        g["pending"] = None
        self._add_record({"player": self.seat, "action": f"resign:{self.seat}"})
        self.send("resign", h=h)

    # --- the other side's actions ---------------------------------------------------------

    def handle(self, msg: dict, now: float) -> None:
        kind = msg["type"]
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            raise FairError("unexpected", f"a {kind} message is not expected in a game")
        if kind in PLAY_MESSAGES:
            if self.g["stage"] in ("ended", "done"):
                # Sent before the other side learned of the end (e.g. crossing a resignation).
                self.events.append({"type": "ignored", "message": kind, "reason": "game over"})
                self.settle(now)
                return
            if self.g["stage"] != "play":
                raise FairError("wrong_phase", f"a {kind} message is not expected before play")
        handler(msg, now)
        self.settle(now)

    def _check_h(self, msg: dict) -> int:
        h = len(self.g["records"])
        if msg["h"] != h:
            raise FairError("wrong_action_number", f"expected action number {h}, got {msg['h']}")
        return h

    def _pending(self, kind: str, msg: dict) -> dict:
        pending = self.g["pending"]
        if pending is None or pending["kind"] != kind or pending["h"] != msg["h"]:
            raise FairError("unexpected", f"a {msg['type']} message is not expected now")
        return pending

    def _on_act(self, msg: dict, now: float) -> None:
        g, shadow = self.g, self.shadow
        h = self._check_h(msg)
        action = msg["action"]
        extras = {k for k in ("ot", "share", "claim", "ack") if k in msg}
        if g["pending"] is not None:
            raise FairError("unexpected", "an action is already in progress")
        if shadow.turn != self.opp:
            raise FairError("not_your_turn", "it is not the other side's turn")
        if "ack" in msg:
            request = next((r for r in g["requests"] if r["id"] == msg["ack"]), None)
            if request is None or request["action"] != action or extras != {"ack"}:
                raise FairError("unexpected", "that is not an answer to a request of this side")
            self._add_record({"player": self.seat, "action": action})
            g["requests"].remove(request)
            return
        name, _, arg = action.partition(":")
        if name in META:
            if extras or arg != ("" if name == "timeout" else str(self.opp)):
                raise FairError("malformed", f"{action!r} is not an action of the other side")
            self._add_record({"player": self.opp, "action": action})
            return
        try:
            move = parse_move(self.spec, action)
        except NotationError as error:
            raise FairError("bad_action", str(error)) from None
        frm, to = self.spec.move_code.split(move)
        if frm == to:
            if not self.public or extras != {"share"}:
                raise FairError("malformed", "a flip carries a share and nothing else")
            self._on_their_flip(msg, h, move)
            return
        if self.public:
            if extras:
                raise FairError("malformed", "a Blind move carries nothing else")
            self._add_record({"player": self.opp, "action": action})
            return
        if not shape_possible(shadow.position, self.opp, move):
            raise FairError("illegal_move", f"no piece could play {action} here")
        if shadow.position.board[to]:
            if extras != {"ot"}:
                raise FairError("malformed", "an attack carries an oblivious-transfer value")
            self._on_their_attack(msg, h, move)
            return
        if extras - {"claim"}:
            raise FairError("malformed", "a move onto an empty post carries no combat values")
        record = {"player": self.opp, "action": action}
        if "claim" in msg:
            if not self._occupation_possible(self.opp, to):
                raise FairError("false_claim", "that move cannot occupy a headquarters")
            record["claim"] = "occupation"
        self._add_record(record)

    def _on_request(self, msg: dict, now: float) -> None:
        g, shadow = self.g, self.shadow
        action = msg["action"]
        name, _, arg = action.partition(":")
        if name not in ("offer", "accept", "decline") or arg != str(self.opp):
            raise FairError("malformed", f"{action!r} is not a request of the other side")
        if (
            shadow.turn == self.seat
            and g["pending"] is None
            and name in shadow.meta_actions(self.opp)
        ):
            h = len(g["records"])
            self._add_record({"player": self.opp, "action": action})
            self.send("act", h=h, action=action, ack=msg["id"])
        else:  # the other side will apply it itself when its turn comes, if still possible
            self.events.append({"type": "ignored", "message": "request", "reason": "not now"})

    def _on_resign(self, msg: dict, now: float) -> None:
        g = self.g
        h = msg["h"]
        if h > len(g["records"]):
            raise FairError("wrong_action_number", "a resignation from the future")
        if h < len(g["records"]):  # actions of this side the resigner never saw are void
            g["records"] = g["records"][:h]
            g["claims"] = [c for c in g["claims"] if c["h"] <= h]
            g["revealed"] = {
                c["square"]: "flag"
                for c in g["claims"]
                if c["type"] == "reveal" and c["player"] == self.opp
            }
            self.rebuild()
            self.events.append({"type": "rewound", "to": h})
        g["pending"] = None
        self._add_record({"player": self.opp, "action": f"resign:{self.opp}"})

    def _on_status(self, msg: dict, now: float) -> None:
        g, shadow = self.g, self.shadow
        h = self._check_h(msg)
        if self.public or g["pending"] is not None or shadow.turn != self.opp:
            raise FairError("unexpected", "a status is not expected now")
        g["claims"].append({"h": h, "player": self.opp, "type": "status", "mobile": msg["mobile"]})
        if msg["mobile"]:
            if shadow.position.quiet < shadow.position.quiet_limit:
                g["claims"].pop()
                raise FairError("unexpected", "the quiet-move limit is not reached")
            self._finish(None, "quiet_moves", self.opp)
        elif isinstance(shadow.position, GunjinPosition):
            mobile = bool(shadow.position.legal_moves(self.seat))
            g["claims"].append({"h": h, "player": self.seat, "type": "status", "mobile": mobile})
            self.send("status_reply", h=h, mobile=mobile)
            reason = "immobilised" if mobile else "no_moves"
            self._finish(self.seat if mobile else None, reason, self.opp)
        else:
            self._finish(self.seat, "immobilised", self.opp)

    def _on_status_reply(self, msg: dict, now: float) -> None:
        pending = self._pending("status", msg)
        self.g["pending"] = None
        self.g["claims"].append(
            {"h": pending["h"], "player": self.opp, "type": "status", "mobile": msg["mobile"]}
        )
        mobile = msg["mobile"]
        self._finish(self.opp if mobile else None, "immobilised" if mobile else "no_moves")

    def _on_dispute(self, msg: dict, now: float) -> None:
        g = self.g
        pending = g["pending"]
        if pending is not None and pending["kind"] != "status":
            if pending["kind"] == "defend":
                record = {
                    "player": self.opp,
                    "action": pending["action"],
                    "up": pending["up"],
                    "down": pending["down"],
                }
            elif pending["kind"] == "attack":
                record = {"player": self.seat, "action": pending["action"], "up": pending["up"]}
            else:
                role = "host" if self.host else "guest"
                shares = {role: pending["share"]}
                record = {"player": self.seat, "action": pending["action"], "shares": shares}
            record["partial"] = True
            g["disputed"] = record
        self.events.append({"type": "dispute", "by": self.opp, "reason": msg["reason"]})
        self._finish(None, "dispute", self.opp)

    def _on_open(self, msg: dict, now: float) -> None:
        g = self.g
        if g["theirs"]["open"] is not None or g["stage"] in ("setup", "deal"):
            raise FairError("unexpected", "an opening is not expected now")
        g["theirs"]["open"] = msg["secrets"]
        if g["stage"] == "play":
            self._finish(None, "stopped", self.opp)
        elif g["stage"] == "ended":
            self._run_audit()

    # --- the end and the audit --------------------------------------------------------

    def _dispute(self, h: int, reason: str, record: dict | None) -> None:
        if record is not None:
            record["partial"] = True
            self.g["disputed"] = record
        self.send("dispute", h=h, reason=reason)
        self.events.append({"type": "dispute", "by": self.seat, "reason": reason})
        self._finish(None, "dispute", self.seat)

    def _finish(self, winner: int | None, reason: str, by: int | None = None) -> None:
        g = self.g
        g["end"] = {"h": len(g["records"]), "winner": winner, "reason": reason, "by": by}
        g["stage"] = "ended"
        g["pending"] = None
        self.send("open", secrets=self.opening())
        self.events.append({"type": "game_over", "result": {"winner": winner, "reason": reason}})
        if g["theirs"]["open"] is not None:
            self._run_audit()

    def opening(self) -> dict:
        mine = self.g["mine"]
        if self.public:
            return {"e": mine["e"], "perm": mine["perm"]}
        return {"layout": mine["layout"], "salts": mine["salts"], "ot": mine["ot"]}

    def transcript(self) -> dict:
        g = self.g
        commitments: list[Any] = [None, None]
        commitments[self.seat] = g["mine"]["list"]
        commitments[self.opp] = g["theirs"]["list"]
        return {
            "rules": g["rules"],
            "sid": g["sid"],
            "host": self.host_seat,
            "commitments": commitments,
            "decks": g["decks"],
            "records": g["records"],
            "claims": g["claims"],
            "disputed": g["disputed"],
            "end": g["end"],
        }

    def _run_audit(self) -> None:
        g = self.g
        verdict, self.referee = self._audit()
        g["verdict"] = verdict
        g["stage"] = "done"
        self.events.append({"type": "verdict", "verdict": verdict})

    def _audit(self) -> tuple[dict, Any]:
        openings: list[Any] = [None, None]
        openings[self.seat] = self.opening()
        openings[self.opp] = self.g["theirs"]["open"]
        try:
            verdict, referee = audit(self.transcript(), openings, trusted=self.seat)
        except Exception as error:  # only the other side's opening is unchecked input here
            fault = {
                "player": self.opp,
                "action": None,
                "ply": None,
                "code": "bad_opening",
                "message": f"its opening cannot be read ({type(error).__name__})",
            }
            result = {"winner": self.seat, "reason": "rule_broken"}
            return {"ok": False, "result": result, "fault": fault}, None
        if referee is not None and verdict["result"] is not None:
            result = verdict["result"]
            referee.result = Outcome(result["winner"], result["reason"])
            referee.phase = OVER
        return verdict, referee

    def settle(self, now: float) -> None:
        """After every change: end the game if it ended, do this seat's duties at the start
        of its turn, and move the clocks."""
        g, shadow = self.g, self.shadow
        if g["stage"] == "play" and g["end"] is None and shadow.ended is not None:
            by = g["records"][-1]["player"] if g["records"] else None
            self._finish(shadow.ended.winner, shadow.ended.reason, by)
        if g["stage"] == "play" and g["pending"] is None and shadow.turn == self.seat:
            self._turn_start()
            if g["stage"] == "play" and shadow.ended is not None:
                by = g["records"][-1]["player"] if g["records"] else None
                self._finish(shadow.ended.winner, shadow.ended.reason, by)
        self._clock_update(now)

    def _turn_start(self) -> None:
        """This seat's duties when its turn begins: say so if play has ended (its mobility
        is its own secret), then apply its off-turn requests the other side did not."""
        g, shadow = self.g, self.shadow
        h = len(g["records"])
        if not self.public and not any(
            c["h"] == h and c["player"] == self.seat for c in g["claims"]
        ):
            moves = shadow.position.legal_moves(self.seat)
            if not moves or shadow.position.quiet >= shadow.position.quiet_limit:
                mobile = bool(moves)
                g["claims"].append(
                    {"h": h, "player": self.seat, "type": "status", "mobile": mobile}
                )
                self.send("status", h=h, mobile=mobile)
                if mobile:
                    self._finish(None, "quiet_moves", self.seat)
                elif isinstance(shadow.position, GunjinPosition):
                    g["pending"] = {"kind": "status", "h": h}
                else:
                    self._finish(self.opp, "immobilised", self.seat)
                return
        for request in list(g["requests"]):
            g["requests"].remove(request)
            if request["action"].partition(":")[0] in shadow.meta_actions(self.seat):
                self._mine(request["action"])
            if shadow.ended is not None:
                return

    # --- what the page shows ---------------------------------------------------------

    def view(self) -> dict:
        g = self.g
        if g["stage"] == "done" and self.referee is None and g["theirs"]["open"] is not None:
            self.referee = self._audit()[1]
        if self.referee is not None:
            view = views.view(self.referee, self.seat)
        else:
            view = views.view(self.shadow, self.seat)
            for square in g["revealed"]:
                if square in view["board"]:
                    view["board"][square]["kind"] = "flag"
            if g["end"] is not None or g["stage"] == "done":
                view.update(phase="over", turn=None, actions=[])
                shown = g["verdict"]["result"] if g["verdict"] else g["end"]
                view["result"] = {"winner": shown["winner"], "reason": shown["reason"]}
            elif g["stage"] == "deal":
                view.update(phase="setup", turn=None, actions=[])
        if g["end"] is not None or g["pending"] is not None or g["stage"] != "play":
            view["dests"] = None
        if g["verdict"] is not None:
            view["result"] = dict(g["verdict"]["result"])
        return view

    def status(self) -> dict:
        g = self.g
        pending = g["pending"]
        return {
            "stage": g["stage"],
            "seat": self.seat,
            "role": g["role"],
            "session": g["sid"],
            "rules": g["rules"],
            "clock": g["clock"],
            "deadlines": self.deadlines(),
            "pending": pending["kind"] if pending else None,
            "requests": [r["action"] for r in g["requests"]],
            "end": g["end"],
            "verdict": g["verdict"],
            "shown": sorted(g["revealed"]),
        }
