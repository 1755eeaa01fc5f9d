"""Games as each page and the audit see them.

- `new_game(rules)` is the one place a fair-play rules dict ({"variant", "preset",
  "options"}) becomes an engine `Game`.
- A `ShadowGame` is one seat's game: its own pieces are true, the other's are `UNKNOWN`
  (Blind: face-down pieces are unknown to both, face-up ones are public).  Combat outcomes
  come from the protocol instead of the ranks, and the other side's moves are taken on
  trust once their shape is possible for some piece (the audit checks them).  It never
  reveals anything and never ends on its own: `ended` records how the game ended.
- `referee_game` is the true game rebuilt at the audit from both openings.
"""

from __future__ import annotations

import copy
from typing import Any

from junqi_core.game import Game, HistoryEntry
from junqi_core.pieces import KIND_MASK, piece
from junqi_core.rules import Move, Outcome, Position
from junqi_core.variants import RulesError, Variant, variant_from_rules

UNKNOWN = KIND_MASK  # a kind no real piece has: "some piece of the other side"


class RulesRefused(ValueError):
    """Rules this engine cannot play."""


def variant_of(rules: object) -> Variant:
    """The Variant a rules dict {variant, preset, options} names, or RulesRefused."""
    if not isinstance(rules, dict) or set(rules) != {"variant", "preset", "options"}:
        raise RulesRefused("rules are {variant, preset, options}")
    try:
        variant = variant_from_rules(rules)
    except RulesError as error:
        raise RulesRefused(str(error)) from None
    if variant.seats != 2:  # the protocol deals, commits and audits between two pages
        raise RulesRefused(f"friend play is for two players: {variant.name} is not offered yet")
    # exactly as the host wrote them: every option, and the preset they make (or null)
    options = rules["options"]
    if not isinstance(options, dict) or set(options) != set(variant.options):
        raise RulesRefused("the rules name every option of the variant")
    if rules["preset"] != variant.preset:
        raise RulesRefused(f"those options make the preset {variant.preset!r}")
    return variant


def new_game(rules: dict, cls: type[Game] = Game) -> Game:
    """The engine game for a rules dict {variant, preset, options}: the one place rules
    become a game (the audit's referee and each seat's shadow are made here)."""
    return cls(variant_of(rules), seed=0)


def check_rules(rules: object) -> None:
    """Raise RulesRefused unless this engine plays exactly these rules."""
    variant_of(rules)


def flag_shown(rules: dict) -> bool:
    """Rule option: a side whose Field Marshal falls shows its flag to both."""
    return variant_of(rules).flag_shown_on_marshal


def is_public(game: Game) -> bool:
    """Blind: every rank either side may know is known to both (no oblivious transfer)."""
    return game.variant.public_face_up


_SHADOW_CLASSES: dict[type[Position], type[Position]] = {}


def _shadow_class(base: type[Position]) -> type[Position]:
    cls = _SHADOW_CLASSES.get(base)
    if cls is not None:
        return cls
    public = base.variant.public_face_up

    class ShadowPosition(base):  # type: ignore[valid-type, misc]
        __slots__ = ("forced", "trusted")

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.forced: int | None = None
            self.trusted: Move | None = None

        def combat_result(self, frm: int, to: int) -> int:
            if self.forced is not None:
                return self.forced
            return super().combat_result(frm, to)

        def legal_moves(self, player: int | None = None) -> list[Move]:
            if self.trusted is not None:
                return [self.trusted]
            return super().legal_moves(player)

        if not public:

            def outcome(self) -> Outcome | None:
                # Mobility of the side to move is its own secret: it says so (a status).
                return self.decided

    ShadowPosition.__name__ = f"Shadow{base.__name__}"
    _SHADOW_CLASSES[base] = ShadowPosition
    return ShadowPosition


class ShadowGame(Game):
    """One seat's game; see the module docstring."""

    ended: Outcome | None = None

    def _end(self, outcome: Outcome) -> None:
        self.end_with(outcome)

    def end_with(self, outcome: Outcome) -> None:
        """Record the end (phase stays `play`: a shadow's unknown pieces are never shown)."""
        self.ended = outcome
        self.offer_by = None

    def clone(self) -> ShadowGame:
        """An independent copy: a new state changes its copy, never its predecessor's game."""
        game = copy.copy(self)
        game.position = self.position.copy()
        game.history = list(self.history)
        game.layouts = list(self.layouts)
        game.drafts = list(self.drafts)
        game.removed = [list(r) for r in self.removed]
        game.timeouts = list(self.timeouts)
        game.last_offer_ply = list(self.last_offer_ply)
        game.flag_shown = list(self.flag_shown)
        return game

    def set_board(self, board: list[int]) -> None:
        self.position = _shadow_class(self.position_class)(board)

    def apply_known(
        self, player: int, action: str, forced: int | None = None, trusted: Move | None = None
    ) -> HistoryEntry:
        """Apply an action with a combat outcome given by the protocol (`forced`) and, for
        the other side's move, its legality taken on trust (`trusted`)."""
        position = self.position
        position.forced, position.trusted = forced, trusted  # type: ignore[attr-defined]
        try:
            return self.apply(player, action)
        finally:
            position.forced = position.trusted = None  # type: ignore[attr-defined]


def new_shadow(rules: dict) -> ShadowGame:
    game = new_game(rules, ShadowGame)
    assert isinstance(game, ShadowGame)
    game.drafts = [None, None]
    game.set_board([0] * game.board_spec.size)
    return game


def shape_possible(position: Position, player: int, move: Move) -> bool:
    """Whether some movable piece of `player` standing on the move's origin could make it
    (the other side's rank is unknown; the audit checks the real one)."""
    frm = position.move_code.frm[move]
    p = position.board[frm]
    colour = position.colour_of(player)
    if not p or colour is None or position.piece_owner(p) != player:
        return False
    kinds = sorted((k for k in position.kinds if k.movable), key=lambda k: -_reach(k.id))
    try:
        for k in kinds:
            position.board[frm] = piece(k.kind, colour)
            if move in position.legal_moves(player):
                return True
    finally:
        position.board[frm] = p
    return False


def _reach(kind_id: str) -> int:
    """Try the most mobile kinds first (an Engineer covers every Junqi move shape)."""
    return {"engineer": 3, "plane": 2, "tank": 1}.get(kind_id, 0)


def referee_game(
    rules: dict, layouts: list[dict[int, int]] | None = None, board: list[int] | None = None
) -> Game:
    """The true game: both layouts deployed (DeploymentError if one breaks a rule), or the
    dealt Blind board."""
    game = new_game(rules)
    if board is not None:
        game.position = game.position_class(board)
    else:
        assert layouts is not None
        game.deploy(0, layouts[0])
        game.deploy(1, layouts[1])
    return game


def unknown_piece(colour: int, face_down: bool = False) -> int:
    return piece(UNKNOWN, colour, face_down)
