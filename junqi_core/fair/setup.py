"""Before play: the draft and the committed layouts (Classic, Gunjin), the deal (Blind).

A mixin of `Session` (session.py): it works on the session's state `g` and shadow game.
"""

from __future__ import annotations

import secrets
from typing import Any

from junqi_core.deployment import DeploymentError, Layout
from junqi_core.fair import ot
from junqi_core.fair.commit import commit_layout, layout_root, new_salts
from junqi_core.fair.deal import (
    POSTS,
    DeckError,
    card_values,
    check_deck,
    host_share,
    random_permutation,
    shuffle_step,
)
from junqi_core.fair.errors import FairError
from junqi_core.fair.errors import hex_int as _int
from junqi_core.fair.group import P, element_hex, exponent_hex, random_exponent
from junqi_core.record import layout_from_json


class Setup:
    """Deployment, commitments and the deal, for `Session`."""

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
