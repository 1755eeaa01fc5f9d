"""What stays fixed through one game for one seat, and what this page says about its secrets.

`Facts` are read from the rules once per game (the board, the pieces, the seat and the
other side's): every handler reads them from `state.facts`; they are never saved.

`Conduct` is the one place each claim this page's own pieces make is computed: the kind an
attacker chooses, the index a defender fights with, the rows each sends, the outcome the
attacker announces, its flip shares and its opening.  An honest page uses it as it is; a
test replaces a method of a peer's `conduct` to play a modified (cheating) page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from junqi_core.deployment import DeploymentRules, Layout
from junqi_core.fair import combat
from junqi_core.fair.deal import POSTS, host_share
from junqi_core.fair.group import element_hex
from junqi_core.fair.shadow import flag_shown, is_public, new_shadow
from junqi_core.pieces import KIND_MASK
from junqi_core.rules import Position
from junqi_core.topology import Board

if TYPE_CHECKING:
    from junqi_core.fair.state import GameState


def other_side(seat: int) -> int:
    """The seat this one plays against: friend play is between two pages (the one place
    that says so; four seats in two teams would name partner and opponents here)."""
    return 1 - seat


@dataclass(frozen=True, eq=False)
class Facts:
    seat: int
    opp: int
    host: bool
    host_seat: int
    public: bool  # Blind: every rank either side may know is known to both
    cls: type[Position]
    spec: Board
    deployment: DeploymentRules | None
    letter_of: dict[int, str]
    kind_of: dict[str, int]
    flag_shown: bool  # rule option: a side whose Field Marshal falls shows its flag
    conduct: Conduct

    def squares(self, player: int) -> list[str]:
        """A side's starting squares, in board order."""
        assert self.deployment is not None
        return [self.spec.names[s] for s in self.deployment.squares(player)]

    def named(self, layout: Layout) -> dict[str, str]:
        return {self.spec.names[s]: self.letter_of[k] for s, k in sorted(layout.items())}

    def ints(self, named: dict[str, str]) -> Layout:
        return {self.spec.index[s]: self.kind_of[letter] for s, letter in named.items()}


def facts_for(rules: dict, seat: int, role: str, conduct: Conduct) -> Facts:
    probe = new_shadow(rules)
    cls = probe.position_class
    host = role == "host"
    opp = other_side(seat)
    return Facts(
        seat=seat,
        opp=opp,
        host=host,
        host_seat=seat if host else opp,
        public=is_public(probe),
        cls=cls,
        spec=probe.board_spec,
        deployment=probe.deployment,
        letter_of={k.kind: k.letter for k in cls.kinds},
        kind_of={k.letter: k.kind for k in cls.kinds},
        flag_shown=flag_shown(rules),
        conduct=conduct,
    )


class Conduct:
    """What this page's pieces say in the protocol (an honest page's answers)."""

    def fight_kind(self, position: Position, square: int) -> int:
        """The index this side's attacker chooses: its kind."""
        return position.board[square] & KIND_MASK

    def fight_index(self, position: Position, square: int) -> int:
        """The index this side's defender chooses: the kind it fights with."""
        return combat.defender_index(position, square)

    def defender_rows(self, cls: type[Position], kind: int, index: int) -> list[int]:
        return combat.rows_for_attacker_index(cls, kind, index)

    def attacker_rows(self, cls: type[Position], kind: int) -> list[int]:
        return combat.rows_for_defender_index(cls, kind)

    def announce(self, row: int) -> int:
        """The outcome the attacker announces: the one its transfer gave."""
        return row

    def share(self, state: GameState, square: int) -> str:
        """This side's layer of a Blind post removed (docs/fair-play.md, "Flip")."""
        mine, decks, j = state.mine, state.decks, POSTS.index(square)
        if state.facts.host:
            return element_hex(host_share(int(decks.d2[j], 16), int(mine.e, 16)))  # type: ignore[index, arg-type]
        return decks.d1[mine.perm[j]]  # type: ignore[index]

    def opening(self, state: GameState) -> dict[str, Any]:
        """Everything this side committed to, opened at the end."""
        mine = state.mine
        if state.facts.public:
            return {"e": mine.e, "perm": None if mine.perm is None else list(mine.perm)}
        return {"layout": mine.layout, "salts": mine.salts, "ot": mine.ot}
