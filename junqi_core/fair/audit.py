"""The audit: open everything, check every claim, replay the game with the real engine.

`audit(transcript, openings)` is a pure function of what one page holds at the end: the
public transcript (state.Transcript: commitments, decks, every applied action with its
protocol data, the claims, how the game ended) and both sides' openings (JSON as each side
sent it: the only unchecked input, read here).  Both honest pages reach the same verdict
(state.Verdict).  The first false claim is reported with the side and the action that made
it; as JSON:

    {"ok": false, "result": {"winner": 1, "reason": "rule_broken"},
     "fault": {"player": 0, "action": 37, "ply": 36, "code": "false_rows", "message": ...}}

`action` is the 1-based number of the action in the game's action list (null for the
deployment or the shuffle); `ply` the game ply it was played at.
"""

from __future__ import annotations

from typing import Any

from junqi_core.deployment import DeploymentError
from junqi_core.fair import combat, ot
from junqi_core.fair.commit import opening_errors, square_commitment
from junqi_core.fair.data import from_json
from junqi_core.fair.deal import CARDS, POSTS, card_values, is_permutation, shuffle_step
from junqi_core.fair.facts import other_side
from junqi_core.fair.group import (
    GroupError,
    P,
    element_from_hex,
    exponent_from_hex,
    hex_bytes,
)
from junqi_core.fair.shadow import flag_shown, new_game, referee_game
from junqi_core.fair.state import Claim, Fault, Record, Result, Transcript, Verdict
from junqi_core.game import OVER, Game, IllegalActionError
from junqi_core.notation import NotationError, parse_move
from junqi_core.pieces import FIELD_MARSHAL, KIND_MASK
from junqi_core.rules import BlindPosition

GAME_REASONS = frozenset(
    {
        "flag_captured",
        "occupation",
        "immobilised",
        "quiet_moves",
        "no_moves",
        "agreed_draw",
        "resignation",
        "timeouts",
    }
)


class Broken(Exception):
    """The first rule broken: raised where the audit finds it."""

    def __init__(self, player: int, h: int | None, code: str, message: str) -> None:
        super().__init__(message)
        self.player, self.h, self.code, self.message = player, h, code, message


def ot_context(h: int, direction: str) -> str:
    """What each oblivious transfer's keys are bound to: the action number and direction
    ("up": the attacker learns, "down": the defender learns)."""
    return f"{h}/{direction}"


def audit(
    transcript: Transcript | dict, openings: list[Any], trusted: int | None = None
) -> tuple[Verdict, Game | None]:
    """The verdict and the referee game (replayed as far as the rules allowed).

    `transcript`: typed, or its JSON form.  `trusted`: a seat whose own secret steps need
    no re-checking (a page auditing its opponent skips the exponentiations that could only
    catch itself)."""
    if isinstance(transcript, dict):
        transcript = from_json(Transcript, transcript)
    checker = _Audit(transcript, openings, trusted)
    try:
        checker.run()
    except Broken as broken:
        ply = None
        if broken.h is not None and checker.referee is not None:
            ply = checker.ply_of.get(broken.h, checker.referee.position.ply)
        fault = Fault(
            player=broken.player,
            action=None if broken.h is None else broken.h + 1,
            ply=ply,
            code=broken.code,
            message=broken.message,
        )
        result = Result(winner=other_side(broken.player), reason="rule_broken")
        return Verdict(ok=False, result=result, fault=fault), checker.referee
    referee = checker.referee
    assert referee is not None and referee.result is not None
    result = Result(winner=referee.result.winner, reason=referee.result.reason)
    return Verdict(ok=True, result=result, fault=None), referee


class _Audit:
    def __init__(self, transcript: Transcript, openings: list[Any], trusted: int | None) -> None:
        self.t = transcript
        self.trusted = trusted
        self.openings = openings
        self.rules = transcript.rules
        self.sid = transcript.sid
        self.referee: Game | None = None
        self.ply_of: dict[int, int] = {}
        self.marshal_fell: set[tuple[int, int]] = set()
        self.steps = list(transcript.records)
        if transcript.disputed is not None:
            self.steps.append(transcript.disputed)

    # --- openings -------------------------------------------------------------------------

    def run(self) -> None:
        probe = new_game(self.rules)
        self.position_class = probe.position_class
        self.names = probe.board_spec.names
        self.blind = issubclass(self.position_class, BlindPosition)
        if self.blind:
            self.referee = referee_game(self.rules, board=self._check_deal())
        else:
            self.referee = referee_game(self.rules, layouts=self._check_layouts(probe))
        self.flag_shown = flag_shown(self.rules)
        claims_at: dict[int, list[Claim]] = {}
        for claim in self.t.claims:
            claims_at.setdefault(claim.h, []).append(claim)
        for h, record in enumerate(self.steps):
            self._check_claims(h, claims_at.get(h, []))
            self._check_step(h, record, claims_at.get(h + 1, []))
        self._check_claims(len(self.steps), claims_at.get(len(self.steps), []))
        self._check_end()

    def _opening(self, player: int) -> dict:
        opening = self.openings[player]
        if not isinstance(opening, dict):
            raise Broken(player, None, "no_opening", "did not open its commitments")
        return opening

    def _check_layouts(self, probe: Game) -> list[dict[int, int]]:
        deployment = probe.deployment
        assert deployment is not None
        letters = {k.letter: k.kind for k in self.position_class.kinds}
        layouts = []
        for player in (0, 1):
            opening = self._opening(player)
            squares = [self.names[s] for s in deployment.squares(player)]
            layout, salts = opening.get("layout"), opening.get("salts")
            if not isinstance(layout, dict) or not isinstance(salts, dict):
                raise Broken(player, None, "bad_opening", "the opening has no layout and salts")
            if set(layout) != set(squares) or set(salts) != set(squares):
                raise Broken(player, None, "bad_opening", "the opening does not cover its squares")
            if any(layout[s] not in letters for s in squares):
                raise Broken(player, None, "bad_opening", "the opening names an unknown piece")
            try:
                for s in squares:
                    hex_bytes(salts[s], 16, "a salt")
            except GroupError as error:
                raise Broken(player, None, "bad_opening", str(error)) from None
            wrong = opening_errors(
                self.sid, player, squares, self.t.commitments[player], layout, salts
            )
            if wrong is not None:
                raise Broken(
                    player,
                    None,
                    "commitment_mismatch",
                    f"the piece opened on {wrong} is not the one committed before the game",
                )
            placed = {probe.board_spec.index[s]: letters[layout[s]] for s in squares}
            try:
                deployment.validate(player, placed)
            except DeploymentError as error:
                raise Broken(player, None, "illegal_deployment", str(error)) from None
            layouts.append(placed)
        return layouts

    def _check_deal(self) -> list[int]:
        host = self.t.host
        guest = other_side(host)
        keys = []
        for player in (host, guest):
            opening = self._opening(player)
            try:
                e = exponent_from_hex(opening.get("e"))
            except GroupError as error:
                raise Broken(player, None, "bad_opening", str(error)) from None
            if not is_permutation(opening.get("perm")):
                raise Broken(player, None, "bad_opening", "the opening has no permutation")
            keys.append((e, opening["perm"]))
        decks = self.t.decks
        d1 = [int(x, 16) for x in decks.d1]  # type: ignore[union-attr]
        d2 = [int(x, 16) for x in decks.d2]  # type: ignore[union-attr]
        (e_host, perm_host), (e_guest, perm_guest) = keys
        values = card_values(self.sid)
        if host != self.trusted and shuffle_step(values, e_host, perm_host) != d1:
            raise Broken(host, None, "tampered_shuffle", "the first shuffle is not what was opened")
        if guest != self.trusted and shuffle_step(d1, e_guest, perm_guest) != d2:
            raise Broken(
                guest, None, "tampered_shuffle", "the second shuffle is not what was opened"
            )
        self.e_host, self.perm_host, self.perm_guest = e_host, perm_host, perm_guest
        self.d1, self.d2 = d1, d2
        board = [0] * self.referee_size()
        for j, square in enumerate(POSTS):
            board[square] = CARDS[perm_host[perm_guest[j]]]
        return board

    def referee_size(self) -> int:
        return len(self.names)

    # --- the game, action by action -----------------------------------------------------

    def _check_step(self, h: int, record: Record, next_claims: list[Claim]) -> None:
        referee = self.referee
        assert referee is not None
        player, action = record.player, record.action
        self.ply_of[h] = referee.position.ply
        if referee.phase == OVER:
            raise Broken(player, h, "played_on", f"{action} was played after the game had ended")
        move = None
        if "-" in action or action.startswith("flip:"):
            try:
                move = parse_move(referee.board_spec, action)
            except NotationError as error:
                raise Broken(player, h, "illegal_action", str(error)) from None
            if player != referee.turn or move not in referee.legal_moves():
                raise Broken(player, h, "illegal_action", f"{action} is not a legal move here")
        removed_before = [list(r) for r in referee.removed]
        code = referee.position.move_code
        is_attack = (
            move is not None and not code.is_flip(move) and referee.position.board[code.to[move]]
        )
        if is_attack and not self.blind:
            self._check_combat(h, record, move)
        if move is not None and code.is_flip(move):
            self._check_flip(h, record, move)
        if record.partial:
            return  # a disputed action that never completed: its parts are checked
        try:
            referee.apply(player, action)
        except IllegalActionError as error:
            raise Broken(player, h, "illegal_action", f"{action}: {error}") from None
        result = referee.result
        if record.claim == "occupation":
            if result is None or result.reason != "occupation" or result.winner != player:
                raise Broken(player, h, "false_claim", "claimed to occupy the headquarters")
        elif result is not None and result.reason == "occupation":
            raise Broken(player, h, "unclaimed_end", "occupied the headquarters without saying so")
        if self.flag_shown:
            self._check_marshals(h, removed_before, next_claims)

    def _secret(self, player: int, h: int) -> int:
        """The receiver key b a side used in the oblivious transfer of action h."""
        table = self._opening(player).get("ot")
        try:
            return exponent_from_hex(table.get(str(h)) if isinstance(table, dict) else None)
        except GroupError:
            raise Broken(
                player, h, "missing_secret", "did not open its oblivious-transfer key"
            ) from None

    def _check_combat(self, h: int, record: Record, move: int) -> None:
        """Both transfers of one combat: each receiver chose its real piece, each chosen row
        opens (under the receiver's opened key) to the outcome the real pieces give, and
        the attacker announced that outcome."""
        position = self.referee.position  # type: ignore[union-attr]
        attacker, defender = record.player, other_side(record.player)
        frm, to = position.move_code.split(move)
        a_kind = position.board[frm] & KIND_MASK
        d_kind = position.board[to] & KIND_MASK
        d_index = combat.defender_index(position, to)
        truth = combat.row(self.position_class, a_kind, d_index, d_kind)
        # Up: the attacker receives (index: its kind), the defender sends.
        # Down: the defender receives (index: the kind it fights with), the attacker sends.
        for direction, receiver, index in (("up", attacker, a_kind), ("down", defender, d_index)):
            data = record.up if direction == "up" else record.down
            if data is None:
                continue
            b, big_a, big_b = self._secret(receiver, h), _el(data.A), _el(data.B)
            if receiver != self.trusted and not ot.check_choice(b, big_a, big_b, index):
                what = "fought" if receiver == attacker else "defended"
                raise Broken(receiver, h, "false_choice", f"{what} as a piece it did not have")
            sender = other_side(receiver)
            if data.E is not None and sender != self.trusted:
                if receiver == self.trusted and record.outcome is not None and not record.partial:
                    # What this page decrypted itself in play: the outcome it announced
                    # (attacker) or accepted without a dispute (defender).
                    got = record.outcome
                else:
                    context = ot_context(h, direction)
                    got = ot.decrypt_row(self.sid, context, b, big_a, big_b, list(data.E), index)
                if got != truth:
                    raise Broken(
                        sender,
                        h,
                        "false_rows",
                        "sent a combat outcome its piece does not give",
                    )
        if record.outcome is not None and record.outcome != truth:
            raise Broken(attacker, h, "false_outcome", "announced a combat outcome that is false")

    def _check_flip(self, h: int, record: Record, move: int) -> None:
        post = POSTS.index(self.referee.position.move_code.frm[move])  # type: ignore[union-attr]
        host = self.t.host
        guest = other_side(host)
        shares = record.shares
        host_share = shares.host if shares is not None and host != self.trusted else None
        guest_share = shares.guest if shares is not None and guest != self.trusted else None
        if host_share and pow(int(host_share, 16), self.e_host, P) != self.d2[post]:
            raise Broken(host, h, "wrong_flip", "removed its layer from a card of another post")
        if guest_share and int(guest_share, 16) != self.d1[self.perm_guest[post]]:
            raise Broken(guest, h, "wrong_flip", "removed its layer from a card of another post")
        truth = self.perm_host[self.perm_guest[post]]
        if record.card is not None and record.card != truth:
            responder = other_side(record.player)
            raise Broken(responder, h, "false_card", "announced a card that was not flipped")

    def _marshal(self) -> int:
        return FIELD_MARSHAL

    def _check_marshals(self, h: int, removed_before: list[list[int]], claims: list[Claim]) -> None:
        """After action h: a side whose Field Marshal fell must show its flag next."""
        referee = self.referee
        assert referee is not None
        for player in (0, 1):
            lost = referee.removed[player][len(removed_before[player]) :]
            if any(p & KIND_MASK == self._marshal() for p in lost):
                self.marshal_fell.add((h, player))
                if not any(c.kind == "reveal" and c.player == player for c in claims):
                    raise Broken(
                        player, h, "flag_not_shown", "lost its Field Marshal and hid its flag"
                    )

    def _check_claims(self, h: int, claims: list[Claim]) -> None:
        referee = self.referee
        assert referee is not None
        for claim in claims:
            player = claim.player
            if claim.kind == "status":
                mobile = bool(referee.position.legal_moves(player))
                if mobile != claim.mobile:
                    word = "had" if mobile else "had no"
                    raise Broken(player, h, "false_status", f"said otherwise, but it {word} moves")
            elif claim.kind == "reveal":
                self._check_reveal(h, claim)

    def _check_reveal(self, h: int, claim: Claim) -> None:
        """A flag shown before action h: the Field Marshal fell in action h - 1, and the
        square opens to the flag the side committed to."""
        player, name = claim.player, claim.square
        referee = self.referee
        assert referee is not None and name is not None and claim.salt is not None
        square = referee.board_spec.index.get(name)
        squares = [self.names[s] for s in referee.deployment.squares(player)]  # type: ignore[union-attr]
        committed = self.t.commitments[player]
        opened = (
            square is not None
            and name in squares
            and referee.position.board[square] & KIND_MASK == referee.position.flag_kind
            and committed is not None
            and square_commitment(self.sid, player, name, "F", claim.salt)
            == committed[squares.index(name)]
        )
        if (h - 1, player) not in self.marshal_fell or not opened:
            raise Broken(player, max(h - 1, 0), "false_reveal", "showed its flag wrongly")

    def _check_end(self) -> None:
        referee = self.referee
        assert referee is not None
        end = self.t.end
        last = len(self.steps) - 1 if self.steps else None
        by = end.by
        if end.reason in GAME_REASONS:
            result = referee.result
            if result is None or (result.winner, result.reason) != (end.winner, end.reason):
                culprit = by if by is not None else (self.steps[-1].player if self.steps else 0)
                raise Broken(culprit, last, "wrong_result", "the game did not end as claimed")
            return
        culprit = by if by is not None else 0
        raise Broken(culprit, last, "false_dispute", "stopped the game, but nobody broke a rule")


def _el(text: str) -> int:
    return element_from_hex(text)
