"""The game state machine: setup -> play -> over, with offers, resignation and time-outs.

`Game` owns the true `Position` and the full history.  Players (the page, CPU players)
never read it directly: they get `views.view(game, player)` and the per-player events
that `Game.apply` returns.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field

from junqi_core import notation
from junqi_core import pieces as pc
from junqi_core.deployment import DeploymentRules, Layout, blind_deal
from junqi_core.moves import Move
from junqi_core.pieces import ATTACKER_WINS, DEFENDER_WINS, FACE_DOWN, KIND_MASK
from junqi_core.rules import Outcome, Position
from junqi_core.variants import RulesError, Variant, find_variant

SETUP, PLAY, OVER = "setup", "play", "over"
OFFER_WAIT_PLIES = 10
META_ACTIONS = ("offer", "accept", "decline", "resign", "timeout", "pass")


class IllegalActionError(ValueError):
    """An action the rules refuse; the game is unchanged.  `code` is machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class HistoryEntry:
    """One applied action with everything true about it; views decide who sees what."""

    ply: int  # plies played before this action
    player: int
    action: str  # the action's notation (see notation.md)
    frm: int | None = None
    to: int | None = None
    mover: int = 0  # piece int that moved or flipped
    target: int = 0  # piece int attacked (0: none)
    result: int = 0  # combat outcome code (0: no combat)
    extra: dict = field(default_factory=dict)


class Game:
    """One game of a variant, from deployment to the result."""

    def __init__(
        self,
        variant: Variant | str,
        seed: int | None = None,
        deal: list[int] | None = None,
        first: int | None = None,
    ) -> None:
        """A new game under `variant`'s rules (a Variant, or a variant id for its standard
        rules).  `seed` fixes the Blind deal, the first drafts and a first player drawn by
        lot (tests, records); without one they come from `secrets`, so nothing the players
        see can predict them.  A Blind `deal` (face-down piece ints per post, as `deal`
        holds after the game) replays one; `first` replays who moved first."""
        if isinstance(variant, str):
            try:
                variant = find_variant(variant)
            except RulesError as error:
                raise IllegalActionError(error.code, str(error)) from None
        self.variant: Variant = variant
        self.position_class: type[Position] = variant.position_class
        self.board_spec = variant.board
        self.seed = seed
        self.deployment: DeploymentRules | None = variant.deployment
        self.seats = seats = variant.seats
        self.layouts: list[Layout | None] = [None] * seats
        # Setup: each player's layout being arranged before confirming (never shown to the other).
        self.drafts: list[Layout | None] = [None] * seats
        self.history: list[HistoryEntry] = []
        self.result: Outcome | None = None
        self.offer_by: int | None = None
        self.accepted: set[int] = set()  # with four seats, who has accepted the offer so far
        self.last_offer_ply: list[int | None] = [None] * seats
        self.timeouts = [0] * seats
        self.removed: list[list[int]] = [[] for _ in range(seats)]  # pieces each lost, in order
        # Rule option "flag shown when the Field Marshal falls": whose flag is shown.
        self.flag_shown = [False] * seats
        # Four seats: who is out, and why (flag_captured, no_legal_move, skip_limit, surrender).
        self.out: list[str | None] = [None] * seats
        self.draw_offers = variant.draw_offers
        # The seat that moves first: the variant's, drawn by lot, or a record's.
        if first is None:
            first = variant.first_player
            if first is None:
                first = _rng(None if seed is None else seed * 7 + 3).randrange(seats)
        self.first = first
        self.deal: list[int] | None = None
        if self.deployment is None:
            self.phase = PLAY
            if deal is None:
                deal = blind_deal(_rng(seed))
            self.deal = list(deal)
            self.position = self.position_class(self.deal)
        else:
            self.phase = SETUP
            self.position = self.position_class()
            self.drafts = [
                self.random_layout(p, None if seed is None else seed * seats + p)
                for p in range(seats)
            ]

    @classmethod
    def from_position(cls, position: Position) -> Game:
        """A game already in play from a given position (tests, studies, bug reports)."""
        game = cls(position.variant, seed=0)
        game.phase = PLAY
        game.position = position
        game.layouts = [{} for _ in range(game.seats)]
        game.drafts = [None] * game.seats
        game._check_end()
        return game

    # --- setup -----------------------------------------------------------------------------

    def random_layout(self, player: int, seed: int | None = None) -> Layout:
        """A random legal layout: from `seed` if given, else from fresh `secrets`."""
        assert self.deployment is not None
        return self.deployment.random_layout(player, _rng(seed))

    def set_draft(self, player: int, layout: Layout) -> None:
        """Replace a player's draft layout (must be legal; refused otherwise, unchanged)."""
        self.require_setup(player)
        self.deployment.validate(player, layout)  # type: ignore[union-attr]
        self.drafts[player] = dict(layout)

    def deploy(self, player: int, layout: Layout | None = None) -> None:
        """Confirm a player's layout (default: the draft); play starts when both have."""
        self.require_setup(player)
        assert self.deployment is not None
        layout = self.drafts[player] if layout is None else layout
        self.deployment.validate(player, layout)  # type: ignore[arg-type]
        self.drafts[player] = self.layouts[player] = dict(layout)  # type: ignore[arg-type]
        if all(placed is not None for placed in self.layouts):
            position = self.position_class(turn=self.first)
            for p, placed in enumerate(self.layouts):
                for square, kind in placed.items():  # type: ignore[union-attr]
                    position.board[square] = position.piece_of(kind, p)
            self.position = position
            self.phase = PLAY
            for seat, reason in position.settle():
                self.out[seat] = reason
            self._check_end()

    def require_setup(self, player: int) -> None:
        self._check_player(player)
        if self.phase != SETUP:
            raise IllegalActionError("wrong_phase", "deployment is only possible during setup")
        if self.layouts[player] is not None:
            raise IllegalActionError("already_deployed", "this player has already deployed")

    # --- play ------------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        return self.position.turn

    def legal_moves(self) -> list[Move]:
        """Moves (and Blind flips) of the side to move; empty outside play."""
        if self.phase != PLAY:
            return []
        return self.position.legal_moves()

    def meta_actions(self, player: int) -> list[str]:
        """The non-move actions open to a player right now (none once they are out)."""
        if self.phase == OVER or self.out[player]:
            return []
        actions = ["resign"]
        if self.phase != PLAY:
            return actions
        if self.draw_offers:
            if self.offer_by is None and self._may_offer(player):
                actions.append("offer")
            if self.offer_by not in (None, player) and player not in self.accepted:
                actions += ["accept", "decline"]
        if player == self.turn:
            actions.append("timeout")
            if self.variant.pass_allowed:
                actions.append("pass")
        return actions

    def _may_offer(self, player: int) -> bool:
        last = self.last_offer_ply[player]
        return last is None or self.position.ply - last >= OFFER_WAIT_PLIES

    def apply(self, player: int, action: str) -> HistoryEntry:
        """Apply one action by `player`; raise IllegalActionError and change nothing if refused."""
        self._check_player(player)
        if not isinstance(action, str):
            raise IllegalActionError("bad_action", "an action is a string")
        name, _, arg = action.partition(":")
        if name in META_ACTIONS:
            if arg not in ("", str(player)):
                raise IllegalActionError("wrong_player", f"{action!r} names another player")
            return self._apply_meta(player, name)
        if self.phase != PLAY:
            raise IllegalActionError("wrong_phase", f"no moves during {self.phase}")
        if player != self.turn:
            raise IllegalActionError("not_your_turn", f"it is {self._whose_turn()} turn")
        try:
            move = notation.parse_move(self.board_spec, action)
        except notation.NotationError as error:
            raise IllegalActionError("bad_action", str(error)) from None
        if move == self.board_spec.move_code.PASS or move not in self.position.legal_moves():
            raise IllegalActionError("illegal_move", f"{action} is not a legal action now")
        return self._play(player, move, action)

    def _play(self, player: int, move: Move, action: str) -> HistoryEntry:
        position = self.position
        frm, to = self.board_spec.move_code.split(move)
        mover, target = position.board[frm], position.board[to]
        entry = HistoryEntry(position.ply, player, action, frm, to, mover)
        if frm == to:
            entry.extra["flipped"] = mover & ~FACE_DOWN
        elif target:
            entry.target = target
            entry.result = position.combat_result(frm, to)
        position.push(move)
        if entry.result and entry.result != ATTACKER_WINS:
            self._lose_piece(mover, entry)
        if entry.result and entry.result != DEFENDER_WINS:
            self._lose_piece(target, entry)
        self._note_out(entry)
        return self._finish_ply(entry)

    def _note_out(self, entry: HistoryEntry) -> None:
        """Armies the last push took off the board (four seats): who, and why."""
        gone = self.position.eliminated_by_last_push()
        for seat, reason in gone:
            self.out[seat] = reason
        if gone:
            entry.extra["out"] = gone
            self.offer_by = None  # an elimination cancels a draw offer
            self.accepted.clear()

    def _lose_piece(self, p: int, entry: HistoryEntry) -> None:
        owner = self.position.piece_owner(p)
        self.removed[owner].append(p)
        if (
            self.variant.flag_shown_on_marshal
            and p & KIND_MASK == pc.FIELD_MARSHAL
            and not self.flag_shown[owner]
        ):
            self.flag_shown[owner] = True
            entry.extra.setdefault("flag_shown", []).append((owner, self.flag_square(owner)))

    def _finish_ply(self, entry: HistoryEntry) -> HistoryEntry:
        if self.offer_by is not None and self.offer_by != entry.player:
            self.offer_by = None  # an unanswered offer lapses at the end of another's turn
            self.accepted.clear()
            entry.extra["offer_lapsed"] = True
        self.history.append(entry)
        self._check_end()
        return entry

    def _apply_meta(self, player: int, name: str) -> HistoryEntry:
        if self.phase == OVER:
            raise IllegalActionError("game_over", "the game is over")
        if name not in self.meta_actions(player):
            raise IllegalActionError(f"cannot_{name}", self._meta_refusal(player, name))
        entry = HistoryEntry(self.position.ply, player, f"{name}:{player}")
        teams = self.seats > 2  # four seats: one player leaving does not end the game
        if name == "resign" and teams and self.phase == PLAY:
            self.position.push(self.position.surrender_move(player))  # type: ignore[attr-defined]
            self._note_out(entry)
            self.history.append(entry)
            self._check_end()
        elif name == "resign":
            self.history.append(entry)
            self._end(Outcome(player % 2 ^ 1, "resignation"))  # the other side or team
        elif name == "offer":
            self.offer_by = player
            self.accepted.clear()
            self.last_offer_ply[player] = self.position.ply
            self.history.append(entry)
        elif name == "decline":
            self.offer_by = None
            self.accepted.clear()
            self.history.append(entry)
        elif name == "accept":
            self.accepted.add(player)
            self.history.append(entry)
            others = {s for s in range(self.seats) if not self.out[s]} - {self.offer_by}
            if self.accepted >= others:
                self.offer_by = None
                self.accepted.clear()
                self._end(Outcome(None, "agreed_draw"))
        else:  # a time-out or a pass: the turn is skipped and counts as a ply
            entry.action = name
            self.timeouts[player] += 1
            self.position.push(self.board_spec.move_code.PASS)
            if not teams and self.timeouts[player] >= self.variant.max_timeouts:
                self.history.append(entry)
                self._end(Outcome(1 - player, "timeouts"))
            else:
                self._note_out(entry)
                self._finish_ply(entry)
        return entry

    def _meta_refusal(self, player: int, name: str) -> str:
        if name == "offer":
            if not self.draw_offers:
                return f"draw offers are not part of {self.variant.name}"
            if self.offer_by is not None:
                return "a draw offer is already pending"
            if self.phase != PLAY:
                return "draws can be offered only during play"
            return f"the same player may offer a draw again only after {OFFER_WAIT_PLIES} plies"
        if name in ("accept", "decline"):
            return "there is no draw offer from the opponent to answer"
        if name == "pass":
            if not self.variant.pass_allowed:
                return f"passing is not part of {self.variant.name}"
            return "only the player to move can pass, during play"
        if name == "timeout":
            return "only the player to move can run out of time, during play"
        return f"{name} is not possible now"

    # --- end ----------------------------------------------------------------------------------

    def _check_end(self) -> None:
        outcome = self.position.outcome()
        if outcome is not None:
            self._end(outcome)

    def _end(self, outcome: Outcome) -> None:
        self.result = outcome
        self.phase = OVER
        self.offer_by = None

    def _check_player(self, player: object) -> None:
        if player not in range(self.seats) or isinstance(player, bool):
            seats = [str(s) for s in range(self.seats)]
            raise IllegalActionError(
                "bad_player", f"player must be {', '.join(seats[:-1])} or {seats[-1]}"
            )

    def _whose_turn(self) -> str:
        if self.seats == 2:
            return "the other player's"
        return f"{self.variant.side_names[self.turn]}'s"

    def flag_square(self, player: int) -> int | None:
        """Where a player's flag stands (None once it is gone)."""
        flag = self.position.piece_of(self.variant.flag_kind, player)
        for square, p in enumerate(self.position.board):
            if p and p & ~FACE_DOWN == flag:
                return square
        return None

    def actions_text(self) -> list[str]:
        """Every applied action in notation, in order (what a record stores)."""
        return [entry.action for entry in self.history]


def _rng(seed: int | None) -> random.Random:
    """A generator fixed by `seed`, or one nobody can predict (`secrets`) without one."""
    return secrets.SystemRandom() if seed is None else random.Random(seed)
