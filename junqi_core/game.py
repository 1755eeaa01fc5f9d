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
from junqi_core.pieces import ATTACKER_WINS, DEFENDER_WINS, FACE_DOWN, KIND_MASK, piece
from junqi_core.rules import Outcome, Position
from junqi_core.variants import RulesError, Variant, find_variant

SETUP, PLAY, OVER = "setup", "play", "over"
OFFER_WAIT_PLIES = 10
META_ACTIONS = ("offer", "accept", "decline", "resign", "timeout")


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
        self, variant: Variant | str, seed: int | None = None, deal: list[int] | None = None
    ) -> None:
        """A new game under `variant`'s rules (a Variant, or a variant id for its standard
        rules).  `seed` fixes the Blind deal and the first drafts (tests, records); without
        one they come from `secrets`, so nothing the players see can predict them.  A Blind
        `deal` (face-down piece ints per post, as `deal` holds after the game) replays one."""
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
        self.layouts: list[Layout | None] = [None, None]
        # Setup: each player's layout being arranged before confirming (never shown to the other).
        self.drafts: list[Layout | None] = [None, None]
        self.history: list[HistoryEntry] = []
        self.result: Outcome | None = None
        self.offer_by: int | None = None
        self.last_offer_ply: list[int | None] = [None, None]
        self.timeouts = [0, 0]
        self.removed: list[list[int]] = [[], []]  # piece ints each player lost, in order
        # Rule option "flag shown when the Field Marshal falls": whose flag is shown.
        self.flag_shown = [False, False]
        self.draw_offers = variant.draw_offers
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
                self.random_layout(p, None if seed is None else seed * 2 + p) for p in (0, 1)
            ]

    @classmethod
    def from_position(cls, position: Position) -> Game:
        """A game already in play from a given position (tests, studies, bug reports)."""
        game = cls(position.variant, seed=0)
        game.phase = PLAY
        game.position = position
        game.layouts = [{}, {}]
        game.drafts = [None, None]
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
        if self.layouts[0] is not None and self.layouts[1] is not None:
            board = [0] * self.board_spec.size
            for p, placed in enumerate(self.layouts):
                for square, kind in placed.items():  # type: ignore[union-attr]
                    board[square] = piece(kind, p)
            self.position = self.position_class(board)
            self.phase = PLAY
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
        """The non-move actions open to a player right now."""
        if self.phase == OVER:
            return []
        actions = ["resign"]
        if self.phase != PLAY:
            return actions
        if self.draw_offers:
            if self.offer_by is None and self._may_offer(player):
                actions.append("offer")
            if self.offer_by == 1 - player:
                actions += ["accept", "decline"]
        if player == self.turn:
            actions.append("timeout")
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
            raise IllegalActionError("not_your_turn", "it is the other player's turn")
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
        return self._finish_ply(entry)

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
            self.offer_by = None  # an unanswered offer lapses at the end of the opponent's turn
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
        if name == "resign":
            self.history.append(entry)
            self._end(Outcome(1 - player, "resignation"))
        elif name == "offer":
            self.offer_by = player
            self.last_offer_ply[player] = self.position.ply
            self.history.append(entry)
        elif name == "decline":
            self.offer_by = None
            self.history.append(entry)
        elif name == "accept":
            self.offer_by = None
            self.history.append(entry)
            self._end(Outcome(None, "agreed_draw"))
        else:  # timeout: the turn passes and counts as a ply
            entry.action = "timeout"
            self.timeouts[player] += 1
            self.position.push(self.board_spec.move_code.PASS)
            if self.timeouts[player] >= self.variant.max_timeouts:
                self.history.append(entry)
                self._end(Outcome(1 - player, "timeouts"))
            else:
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
        if player not in (0, 1) or isinstance(player, bool):
            raise IllegalActionError("bad_player", "player must be 0 or 1")

    def flag_square(self, player: int) -> int | None:
        """Where a player's flag stands (None once it is gone)."""
        flag = piece(self.variant.flag_kind, self.position.colour_of(player) or 0)
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
