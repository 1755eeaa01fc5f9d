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

import secrets
from collections.abc import Callable
from typing import Any

from junqi_core import views
from junqi_core.deployment import DeploymentError, Layout
from junqi_core.fair import combat, ot
from junqi_core.fair.audit import FLAG_SHOWN, audit, ot_context
from junqi_core.fair.commit import commit_layout, layout_root, new_salts, square_commitment
from junqi_core.fair.deal import (
    CARDS,
    POSTS,
    DeckError,
    card_values,
    check_deck,
    host_share,
    random_permutation,
    shuffle_step,
)
from junqi_core.fair.group import P, element_hex, exponent_hex, random_exponent
from junqi_core.fair.shadow import is_public, new_shadow, shape_possible, unknown_piece
from junqi_core.game import OVER, PLAY, IllegalActionError
from junqi_core.notation import NotationError, parse_move
from junqi_core.pieces import ATTACKER_WINS, DEFENDER_WINS, FACE_DOWN, FIELD_MARSHAL, KIND_MASK
from junqi_core.pieces import piece as make_piece
from junqi_core.record import layout_from_json
from junqi_core.rules import GunjinPosition, Outcome

ANSWER_MS = 30_000  # a protocol reply, or an answer to a claim, may take this long
GRACE_MS = 5_000  # the waiting side allows this much for the network before it claims
AUDIT_MS = 60_000  # the other side must open its commitments this soon after the end
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


class FairError(ValueError):
    """A refused call or message; nothing changed.  `code` is machine-readable."""

    def __init__(self, code: str, message: str, square: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.square = square


def _int(text: str) -> int:
    return int(text, 16)


class Session:
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
        self.flag_shown = bool(g["rules"]["options"].get(FLAG_SHOWN))
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

    # --- deployment (Classic, Gunjin) ---------------------------------------------------

    def _random_layout(self) -> Layout:
        return self.deployment.random_layout(self.seat, secrets.SystemRandom())  # type: ignore[arg-type]

    def _set_draft(self, layout: Layout) -> None:
        self.g["mine"]["draft"] = self._named(layout)
        self.shadow.drafts[self.seat] = dict(layout)

    def _require_setup(self) -> None:
        if self.g["stage"] != "setup":
            raise FairError("wrong_phase", "deployment is only possible before play")
        if self.g["mine"]["layout"] is not None:
            raise FairError("already_deployed", "this side has already deployed")

    def _layout_from(self, data: Any) -> Layout:
        try:
            layout = layout_from_json(self.shadow, data)
            self.deployment.validate(self.seat, layout)
        except DeploymentError as error:
            raise FairError(error.code, str(error), error.square) from None
        except ValueError as error:
            raise FairError("bad_layout", str(error)) from None
        return layout

    def setup(self, op: str, args: dict, now: float) -> None:
        """Arrange the draft: random (drawn with `secrets`), swap a b, mirror, set layout."""
        self._require_setup()
        draft = self._ints(self.g["mine"]["draft"])
        try:
            if op == "random":
                layout = self._random_layout()
            elif op == "swap":
                a, b = (self.spec.index.get(args.get(k)) for k in ("a", "b"))  # type: ignore[arg-type]
                if a is None or b is None:
                    raise FairError("bad_square", "swap needs two squares a and b")
                layout = self.deployment.swap(self.seat, draft, a, b)
            elif op == "mirror":
                layout = self.deployment.mirror(draft)
            elif op == "set":
                layout = self._layout_from(args.get("layout"))
            else:
                raise FairError("bad_request", f"unknown setup operation {op!r}")
        except DeploymentError as error:
            raise FairError(error.code, str(error), error.square) from None
        self._set_draft(layout)
        self.settle(now)

    def deploy(self, data: Any, now: float) -> None:
        """Confirm a layout (default: the draft) and commit to it."""
        self._require_setup()
        layout = self._layout_from(self.g["mine"]["draft"] if data is None else data)
        self._commit(layout)
        self.settle(now)

    def _commit(self, layout: Layout) -> None:
        g, mine = self.g, self.g["mine"]
        named = self._named(layout)
        squares = self._squares(self.seat)
        salts = new_salts(squares)
        commitments = commit_layout(g["sid"], self.seat, squares, named, salts)
        root = layout_root(g["sid"], self.seat, commitments)
        mine.update(layout=named, draft=named, salts=salts, list=commitments, root=root)
        self.shadow.layouts[self.seat] = dict(layout)
        self.shadow.drafts[self.seat] = dict(layout)
        self.send("commit", root=root)
        self.events.append({"type": "deployed", "player": self.seat})
        if g["theirs"]["root"] is not None:
            self._send_list()

    def _send_list(self) -> None:
        mine = self.g["mine"]
        self._new_key()
        self.send("commitments", list=mine["list"], key=mine["key"]["A"])
        mine["list_sent"] = True
        if self.g["theirs"]["list"] is not None:
            self._start_play()

    def _new_key(self) -> None:
        a, big_a = ot.new_key()
        self.g["mine"]["key"] = {"a": exponent_hex(a), "A": element_hex(big_a)}

    def _on_commit(self, msg: dict, now: float) -> None:
        g = self.g
        if g["stage"] != "setup" or g["theirs"]["root"] is not None:
            raise FairError("unexpected", "a layout commitment is not expected now")
        g["theirs"]["root"] = msg["root"]
        self.shadow.layouts[self.opp] = {}
        self.events.append({"type": "deployed", "player": self.opp})
        if g["mine"]["root"] is not None and not g["mine"]["list_sent"]:
            self._send_list()

    def _on_commitments(self, msg: dict, now: float) -> None:
        g, theirs = self.g, self.g["theirs"]
        if g["stage"] != "setup" or theirs["root"] is None or theirs["list"] is not None:
            raise FairError("unexpected", "a commitment list is not expected now")
        if len(msg["list"]) != len(self._squares(self.opp)):
            raise FairError("malformed", "the list does not have one commitment per square")
        if layout_root(g["sid"], self.opp, msg["list"]) != theirs["root"]:
            raise FairError("bad_commitment", "the list does not match the committed root")
        theirs["list"], theirs["key"] = msg["list"], msg["key"]
        if g["mine"]["list_sent"]:
            self._start_play()

    def _start_play(self) -> None:
        self.g["started"] = True
        self.g["stage"] = "play"
        self._build_board()
        self.events.append({"type": "play"})

    # --- the deal (Blind) -------------------------------------------------------------

    def _deal_first(self) -> None:
        g = self.g
        e, perm = random_exponent(), random_permutation()
        deck = shuffle_step(card_values(g["sid"]), e, perm)
        g["mine"].update(e=exponent_hex(e), perm=perm)
        g["decks"]["d1"] = [element_hex(x) for x in deck]
        self.send("deck", cards=g["decks"]["d1"])

    def _on_deck(self, msg: dict, now: float) -> None:
        g, decks = self.g, self.g["decks"]
        expected = decks["d1"] is None if not self.host else decks["d2"] is None
        if g["stage"] != "deal" or not expected:
            raise FairError("unexpected", "a deck is not expected now")
        cards = [_int(x) for x in msg["cards"]]
        try:
            check_deck(cards)
        except DeckError as error:
            raise FairError("bad_deck", str(error)) from None
        if self.host:
            decks["d2"] = msg["cards"]
        else:
            e, perm = random_exponent(), random_permutation()
            values = card_values(g["sid"])
            table = [pow(v, e, P) for v in values]
            decks["d1"] = msg["cards"]
            decks["d2"] = [element_hex(x) for x in shuffle_step(cards, e, perm)]
            g["mine"].update(e=exponent_hex(e), perm=perm, table=[element_hex(x) for x in table])
            self.send("deck", cards=decks["d2"])
        self._start_play()

    def _lookup(self, share: int) -> int | None:
        """The card a share shows (None: not a card)."""
        if self._table is None:
            mine, decks = self.g["mine"], self.g["decks"]
            if self.host:
                self._table = {_int(x): mine["perm"][i] for i, x in enumerate(decks["d1"])}
            else:
                self._table = {_int(x): t for t, x in enumerate(mine["table"])}
        return self._table.get(share)

    def _my_share(self, square: int) -> str:
        g, j = self.g, POSTS.index(square)
        if self.host:
            return element_hex(host_share(_int(g["decks"]["d2"][j]), _int(g["mine"]["e"])))
        return g["decks"]["d1"][g["mine"]["perm"][j]]

    def _shown_cards(self) -> set[int]:
        return {r["card"] for r in self.g["records"] if "card" in r}

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
                to = move & 63
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
        frm, to = move >> 6, move & 63
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

    # --- what this side's pieces say in a combat (one place per claim) ---------------------

    def _fight_kind(self, square: int) -> int:
        """The index this side's attacker chooses: its kind."""
        return self.shadow.position.board[square] & KIND_MASK

    def _fight_index(self, square: int) -> int:
        """The index this side's defender chooses: the kind it fights with."""
        return combat.defender_index(self.shadow.position, square)

    def _defender_rows(self, kind: int, index: int) -> list[int]:
        return combat.rows_for_attacker_index(self.cls, kind, index)

    def _attacker_rows(self, kind: int) -> list[int]:
        return combat.rows_for_defender_index(self.cls, kind)

    def _announce(self, row: int) -> int:
        """The outcome the attacker announces: the one its transfer gave."""
        return row

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
        frm, to = move >> 6, move & 63
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

    def _occupation_possible(self, player: int, square: int) -> bool:
        position = self.shadow.position
        return isinstance(position, GunjinPosition) and square == position.enemy_hq[player]

    def _on_their_attack(self, msg: dict, h: int, move: int) -> None:
        g, position = self.g, self.shadow.position
        mine, theirs = g["mine"], g["theirs"]
        if theirs["key"] is None or mine["key"] is None:
            raise FairError("unexpected", "no oblivious-transfer key is ready")
        to = move & 63
        d_index = self._fight_index(to)
        rows_up = ot.encrypt_rows(
            g["sid"],
            ot_context(h, "up"),
            _int(mine["key"]["a"]),
            _int(mine["key"]["A"]),
            _int(msg["ot"]),
            self._defender_rows(position.board[to] & KIND_MASK, d_index),
        )
        b, big_b = ot.choose(_int(theirs["key"]), d_index)
        mine["ot"][str(h)] = exponent_hex(b)
        g["pending"] = {
            "kind": "defend",
            "h": h,
            "action": msg["action"],
            "d": d_index,
            "up": {"A": mine["key"]["A"], "B": msg["ot"], "E": rows_up},
            "down": {"A": theirs["key"], "B": element_hex(big_b)},
        }
        self._new_key()
        theirs["key"] = None
        self.send("ot_reply", h=h, rows=rows_up, ot=element_hex(big_b), key=mine["key"]["A"])

    def _on_ot_reply(self, msg: dict, now: float) -> None:
        g = self.g
        pending = self._pending("attack", msg)
        mine = g["mine"]
        h, kind = pending["h"], pending["c"]
        if len(msg["rows"]) != combat.row_count(self.cls):
            raise FairError("malformed", "the reply does not have one row per piece kind")
        up = {**pending["up"], "E": msg["rows"]}
        row = ot.decrypt_row(
            g["sid"],
            ot_context(h, "up"),
            _int(pending["b"]),
            _int(up["A"]),
            _int(up["B"]),
            msg["rows"],
            kind,
        )
        key = mine["key"]
        record: dict[str, Any] = {
            "player": self.seat,
            "action": pending["action"],
            "up": up,
            "down": {"A": key["A"], "B": msg["ot"]},
        }
        mine["ot"][str(h)] = pending["b"]
        g["theirs"]["key"] = msg["key"]
        g["pending"] = None
        if row is None or row not in combat.possible_as_attacker(self.cls, kind):
            self._dispute(h, "the defender's combat rows are not valid", record)
            return
        rows_down = ot.encrypt_rows(
            g["sid"],
            ot_context(h, "down"),
            _int(key["a"]),
            _int(key["A"]),
            _int(msg["ot"]),
            self._attacker_rows(kind),
        )
        row = self._announce(row)
        record["down"]["E"] = rows_down
        record["outcome"] = row
        self._new_key()
        entry = self._add_record(record)
        fields = {}
        ended = self.shadow.ended
        if ended is not None and ended.reason == "occupation" and ended.winner == self.seat:
            record["claim"] = fields["claim"] = "occupation"
        self.send("ot_rows", h=h, rows=rows_down, outcome=row, key=mine["key"]["A"], **fields)
        self._maybe_show_flag(entry)

    def _on_ot_rows(self, msg: dict, now: float) -> None:
        g = self.g
        pending = self._pending("defend", msg)
        h = pending["h"]
        if len(msg["rows"]) != combat.row_count(self.cls):
            raise FairError("malformed", "the rows do not have one row per piece kind")
        down = {**pending["down"], "E": msg["rows"]}
        row = ot.decrypt_row(
            g["sid"],
            ot_context(h, "down"),
            _int(g["mine"]["ot"][str(h)]),
            _int(down["A"]),
            _int(down["B"]),
            msg["rows"],
            pending["d"],
        )
        record: dict[str, Any] = {
            "player": self.opp,
            "action": pending["action"],
            "outcome": msg["outcome"],
            "up": pending["up"],
            "down": down,
        }
        g["theirs"]["key"] = msg["key"]
        g["pending"] = None
        to = parse_move(self.spec, pending["action"]) & 63
        kind = self.shadow.position.board[to] & KIND_MASK
        if (
            row is None
            or row != msg["outcome"]
            or row not in combat.possible_as_defender(self.cls, kind, pending["d"])
        ):
            self._dispute(h, "the combat outcome does not match this side's own", record)
            return
        if "claim" in msg:
            record["claim"] = "occupation"
            if not (
                self._occupation_possible(self.opp, to)
                and row & combat.RESULT_MASK == ATTACKER_WINS
            ):
                self._dispute(h, "a false claim to occupy the headquarters", record)
                return
        entry = self._add_record(record)
        self._maybe_show_flag(entry)

    def _on_their_flip(self, msg: dict, h: int, move: int) -> None:
        square = move >> 6
        if not self.shadow.position.board[square] & FACE_DOWN:
            raise FairError("illegal_move", "that piece is already face up")
        theirs_role, mine_role = ("guest", "host") if self.host else ("host", "guest")
        record: dict[str, Any] = {
            "player": self.opp,
            "action": msg["action"],
            "shares": {theirs_role: msg["share"]},
        }
        card = self._lookup(_int(msg["share"]))
        if card is None or card in self._shown_cards():
            self._dispute(h, "the flip share is not a hidden card", record)
            return
        share = self._my_share(square)
        record["shares"][mine_role] = share
        record["card"] = card
        self._add_record(record)
        self.send("flip_share", h=h, share=share, card=card)

    def _on_flip_share(self, msg: dict, now: float) -> None:
        g = self.g
        pending = self._pending("flip", msg)
        theirs_role, mine_role = ("guest", "host") if self.host else ("host", "guest")
        record = {
            "player": self.seat,
            "action": pending["action"],
            "shares": {mine_role: pending["share"], theirs_role: msg["share"]},
            "card": msg["card"],
        }
        g["pending"] = None
        card = self._lookup(_int(msg["share"]))
        if card is None or card != msg["card"] or card in self._shown_cards():
            self._dispute(pending["h"], "the flip does not show the card announced", record)
            return
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

    def _maybe_show_flag(self, entry: Any) -> None:
        """Rule option: a side whose Field Marshal falls opens its flag square to both."""
        if not self.flag_shown or self.shadow.ended is not None:
            return
        position = self.shadow.position
        lost = []
        if entry.result != ATTACKER_WINS:
            lost.append(entry.mover)
        if entry.result != DEFENDER_WINS:
            lost.append(entry.target)
        if not any(
            p & KIND_MASK == FIELD_MARSHAL and position.piece_owner(p) == self.seat for p in lost
        ):
            return
        mine = self.g["mine"]
        square = next(s for s, letter in mine["layout"].items() if letter == "F")
        h = len(self.g["records"])
        claim = {"h": h, "player": self.seat, "type": "reveal", "square": square}
        self.g["claims"].append({**claim, "salt": mine["salts"][square]})
        self.send("reveal", h=h, square=square, salt=mine["salts"][square])

    def _on_reveal(self, msg: dict, now: float) -> None:
        g = self.g
        h = self._check_h(msg)
        if not self.flag_shown or msg["square"] in g["revealed"]:
            raise FairError("unexpected", "a flag shown is not expected")
        squares = self._squares(self.opp)
        if msg["square"] not in squares:
            raise FairError("malformed", "that is not a starting square of the other side")
        claim = {
            "h": h,
            "player": self.opp,
            "type": "reveal",
            "square": msg["square"],
            "salt": msg["salt"],
        }
        g["claims"].append(claim)
        expected = g["theirs"]["list"][squares.index(msg["square"])]
        if square_commitment(g["sid"], self.opp, msg["square"], "F", msg["salt"]) != expected:
            self._dispute(h, "the flag shown does not match the commitment", None)
            return
        g["revealed"][msg["square"]] = "flag"
        self.events.append({"type": "flag_shown", "square": msg["square"]})

    def _on_claim_timeout(self, msg: dict, now: float) -> None:
        g, shadow = self.g, self.shadow
        due = self._my_deadline()
        if "h" not in msg:
            stale = g["stage"] != "setup" or g["mine"]["layout"] is not None
        else:
            stale = (
                g["stage"] != "play"
                or g["end"] is not None
                or msg["h"] != len(g["records"])
                or shadow.turn != self.seat
                or g["pending"] is not None
            )
        if stale:
            self.events.append({"type": "ignored", "message": "claim_timeout", "reason": "stale"})
        elif due is None or now < due:
            self.events.append({"type": "ignored", "message": "claim_timeout", "reason": "early"})
        elif "h" not in msg:
            self._commit(self._ints(g["mine"]["draft"]))
        else:
            self._mine("timeout")

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

    def _on_abandon(self, msg: dict, now: float) -> None:
        """The other page ended the game saying this one stopped answering.  True if this
        side is past its own deadline (its page slept); otherwise the other side quit."""
        g = self.g
        if g["stage"] == "done":
            return
        due = self._my_deadline()
        overdue = due is not None and now >= due
        winner = self.opp if overdue else self.seat
        result = {"winner": winner, "reason": "abandoned"}
        if g["end"] is None:
            g["end"] = {"h": len(g["records"]), **result, "by": self.opp}
        g["verdict"] = {"ok": None, "result": result, "fault": None, "by": self.opp}
        g["stage"] = "done"
        g["pending"] = None
        self.events.append({"type": "verdict", "verdict": g["verdict"]})

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

    # --- clocks -------------------------------------------------------------------------

    def _owed(self) -> tuple[list | None, list | None]:
        """(what this seat owes, what the other side owes) right now."""
        g, mine, theirs = self.g, self.g["mine"], self.g["theirs"]
        stage = g["stage"]
        if stage == "setup":
            own = ["deploy"] if mine["layout"] is None else None
            if theirs["root"] is None:
                other = ["deploy"]
            elif mine["list_sent"] and theirs["list"] is None:
                other = ["reply"]
            else:
                other = None
            return own, other
        if stage == "deal":
            return None, ["reply"]
        if stage == "play":
            h = len(g["records"])
            if g["pending"] is not None:
                return None, ["reply", h]
            if self.shadow.turn == self.seat:
                return ["move", h], None
            return None, ["move", h]
        if stage == "ended":
            return None, (["open"] if theirs["open"] is None else None)
        return None, None

    def _clock_update(self, now: float) -> None:
        state = self.g["clock_state"]
        own, other = self._owed()
        if state["mine"] is None or state["mine"][0] != own:
            state["mine"] = [own, now]
        if state["theirs"] is None or state["theirs"][0] != other:
            state["theirs"] = [other, now]
            state["claimed"] = None

    def _limit_ms(self, key: list | None) -> int | None:
        clock = self.g["clock"]
        if key is None or clock is None or key[0] not in ("deploy", "move"):
            return None
        return clock[key[0]] * 1000

    def _my_deadline(self) -> float | None:
        key, since = self.g["clock_state"]["mine"]
        limit = self._limit_ms(key)
        return None if limit is None else since + limit

    def deadlines(self) -> dict:
        state = self.g["clock_state"]
        (own, own_since), (other, other_since) = state["mine"], state["theirs"]
        own_limit, other_limit = self._limit_ms(own), self._limit_ms(other)
        return {
            "mine": None if own_limit is None else own_since + own_limit,
            "theirs": None if other_limit is None else other_since + other_limit,
            "waiting_for": other[0] if other else None,
        }

    def tick(self, now: float) -> None:
        g = self.g
        self._clock_update(now)
        state = g["clock_state"]
        own, own_since = state["mine"]
        other, other_since = state["theirs"]
        limit = self._limit_ms(own)
        if limit is not None and now >= own_since + limit:
            if own[0] == "deploy":
                self._commit(self._ints(g["mine"]["draft"]))
            else:
                self._mine("timeout")
            self.settle(now)
            return
        if other is None:
            return
        if other[0] == "open":
            if now >= other_since + AUDIT_MS:
                self._verdict_alone("refused_audit")
            return
        if g["clock"] is None:
            return
        limit = self._limit_ms(other)
        if limit is None:  # a protocol reply is owed at once
            if now >= other_since + ANSWER_MS:
                self._verdict_alone("abandoned")
            return
        if state["claimed"] is None:
            if now >= other_since + limit + GRACE_MS:
                fields = {"h": other[1]} if other[0] == "move" else {}
                self.send("claim_timeout", **fields)
                state["claimed"] = now
        elif now >= state["claimed"] + ANSWER_MS:
            self._verdict_alone("abandoned")

    def _verdict_alone(self, reason: str) -> None:
        """The other side stopped answering (or would not open): it loses, unaudited."""
        g = self.g
        if reason == "abandoned":
            self.send("abandon")
        result = {"winner": self.seat, "reason": reason}
        if g["end"] is None:
            g["end"] = {"h": len(g["records"]), **result, "by": self.seat}
        g["verdict"] = {"ok": None, "result": result, "fault": None, "by": self.seat}
        g["stage"] = "done"
        g["pending"] = None
        self.events.append({"type": "verdict", "verdict": g["verdict"]})

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
