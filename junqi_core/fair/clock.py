"""Clocks: this side's time-outs, claims on a stalling side, abandonment, the deadline
for opening after the end.  Each page runs its own clock (docs/fair-play.md).

A mixin of `Session` (session.py).
"""

from __future__ import annotations

ANSWER_MS = 30_000  # a protocol reply, or an answer to a claim, may take this long
GRACE_MS = 5_000  # the waiting side allows this much for the network before it claims
AUDIT_MS = 60_000  # the other side must open its commitments this soon after the end


class Clock:
    """Deadlines, claims and abandonment, for `Session`."""

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
