"""Play between hidden pieces: combat by two oblivious transfers (Classic, Gunjin), Blind's
flips, and the flag shown when a Field Marshal falls.

A mixin of `Session` (session.py).  The first methods are the one place each claim a
side's pieces make in a combat is computed (tests replace them to play a cheating page).
"""

from __future__ import annotations

from typing import Any

from junqi_core.fair import combat, ot
from junqi_core.fair.audit import ot_context
from junqi_core.fair.commit import square_commitment
from junqi_core.fair.errors import FairError
from junqi_core.fair.errors import hex_int as _int
from junqi_core.fair.group import element_hex, exponent_hex
from junqi_core.notation import parse_move
from junqi_core.pieces import ATTACKER_WINS, DEFENDER_WINS, FACE_DOWN, FIELD_MARSHAL, KIND_MASK
from junqi_core.rules import GunjinPosition


class Fights:
    """Combats, flips and the flag shown, for `Session`."""

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

    def _occupation_possible(self, player: int, square: int) -> bool:
        position = self.shadow.position
        return isinstance(position, GunjinPosition) and square == position.enemy_hq[player]

    def _on_their_attack(self, msg: dict, h: int, move: int) -> None:
        g, position = self.g, self.shadow.position
        mine, theirs = g["mine"], g["theirs"]
        if theirs["key"] is None or mine["key"] is None:
            raise FairError("unexpected", "no oblivious-transfer key is ready")
        to = self.spec.move_code.to[move]
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
        to = self.spec.move_code.to[parse_move(self.spec, pending["action"])]
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
        square = self.spec.move_code.frm[move]
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
