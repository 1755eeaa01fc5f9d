"""How the CPU plays each family of rules: one strategy object per Variant.

The CPU's machinery (belief, search, evaluation, the player) is shared.  What differs
between the families lives here, as data and small overrides:

- `JunqiStrategy` (Classic under any options): hidden enemy identities are sampled into
  worlds; a side loses its flag to any piece that reaches it.
- `BlindStrategy` (a Junqi whose pieces start face down): one public position is
  searched, flips being chance events; under "an Engineer takes the flag" only an
  Engineer threatens a flag, once its mines are gone (`search.GuardedFlagSearcher`).
- `GunjinStrategy`: sampled worlds again, but a side loses when an occupier enters its
  headquarters, and a flag fights with the piece behind it (if the rules say so).

Everything a strategy reads about the rules comes from its Variant (`tables.Tables`,
the position class, the rule flags), so one strategy class serves every option of its
family.  `strategy_for(variant)` builds one per Variant, once.
"""

from __future__ import annotations

import functools
import random
from typing import ClassVar

from junqi_core import pieces as pc
from junqi_core.ai.deploy import gunjin_layout, junqi_layout
from junqi_core.ai.evaluate import (
    GUNJIN_VALUES,
    JUNQI_VALUES,
    Weights,
    fishing,
    flag_squares,
    gunjin_tables,
    gunjin_value_key,
    junqi_tables,
    junqi_value_key,
    kinds_left,
    unstoppable,
)
from junqi_core.ai.prior import (
    GUNJIN_PRIOR_COUNTS,
    JUNQI_LAYOUT_COUNTS,
    Prior,
    StoredCounts,
    deployment_prior,
    layout_counts,
)
from junqi_core.ai.search import (
    HANG,
    GuardedFlagSearcher,
    GunjinSearcher,
    JunqiSearcher,
    Lines,
    Searcher,
)
from junqi_core.ai.tables import Tables, mask_of, tables_for
from junqi_core.deployment import Layout
from junqi_core.rules import Position
from junqi_core.variants import TWO_SEAT_VARIANTS, Variant, find_variant

PstAndValues = tuple[list[list[float]], tuple[float, ...]]


class Strategy:
    """What the CPU does under one family of rules (subclasses), for one Variant."""

    flips: ClassVar[bool] = False  # a turn may flip a face-down piece (Blind)
    values: ClassVar[dict[int, float]]  # material value per kind
    # per level, changes to its settings (`player.Level`) under this family
    level_settings: ClassVar[dict[str, dict]] = {}
    searcher_class: type[Searcher]
    # the pieces `caution` looks after besides the Variant's top kinds
    guarded_kinds: ClassVar[frozenset[int]] = frozenset()
    # the prior over enemy layouts (`prior`): stored counts of the CPU's own layouts
    # (None: no prior), kept apart by the flag's square or not, and the kinds it speaks
    # of (None: all)
    layout_counts: ClassVar[StoredCounts | None] = None
    prior_by_flag: ClassVar[bool] = False
    prior_kinds: ClassVar[frozenset[int] | None] = None

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.tables: Tables = tables_for(variant)
        self.top_kinds = frozenset(variant.top_kinds) | self.guarded_kinds
        # (representative kind, mask of the kinds that move like it): what the shape of
        # an enemy move says about the piece that made it (`belief.Tracker`)
        self.move_classes: tuple[tuple[int, int], ...] = ()
        # per square, the squares from which a piece could attack it in one move
        self.press_zone: tuple[frozenset[int], ...] = ()

    def searcher(
        self,
        pst: list[list[float]],
        clock=None,
        deadline: float | None = None,
        values: tuple[float, ...] = (),
        hang: float = HANG,
        watch: bool = False,
        gates: bool = False,
    ) -> Searcher:
        return self.searcher_class(self, pst, clock, deadline, values, hang, watch, gates)

    def layout(
        self,
        player: int,
        rng: random.Random,
        hq_mine: float | None = None,
        fortified: bool = False,
    ) -> Layout:
        """The CPU's deployment (square -> kind); always legal under the variant's rules."""
        raise ValueError(f"{self.variant.name} has no deployment")

    def sample_layout(self, i: int, player: int, rng: random.Random) -> Layout:
        """Layout `i` of the mix the stored prior counts are drawn from."""
        raise ValueError(f"{self.variant.name} has no deployment")

    def world_tables(
        self, world: Position, ws: tuple[Weights, Weights], cache: dict
    ) -> PstAndValues:
        """(pst, material values) for a world, kept in `cache` by what they depend on."""
        raise NotImplementedError

    def prior(self, player: int) -> Prior | None:
        """How the kinds of `player`'s layout usually stand (None: every layout alike)."""
        return deployment_prior(self, player)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.variant!r}>"


def _remember(cache: dict, key: tuple, tables: PstAndValues) -> PstAndValues:
    if len(cache) > 64:
        cache.clear()
    cache[key] = tables
    return tables


@functools.cache
def _junqi_lines(cls: type[Position]) -> Lines:
    """Per square, the lines along which a piece could reach it in one move (road steps
    as one-square lines, straight railway rays); engineers' turns are left out."""
    spec = cls.spec
    out = []
    for s in range(spec.size):
        lines = [(t,) for t in spec.road_steps[s]]
        lines.extend(cls.rail_rays[s])  # type: ignore[attr-defined]
        out.append(tuple(lines))
    return tuple(out)


class JunqiStrategy(Strategy):
    """Classic Junqi under any of its options."""

    values = JUNQI_VALUES
    enemy_half = True  # a movable piece in the enemy half gains (evaluate.junqi_tables)
    face_up_flag = False  # a flag lying face up costs its side (Blind)
    level_settings: ClassVar[dict[str, dict]] = {
        # Classic Hard: as many nodes as fit the page budget (p95 1.5 s in Pyodide); more
        # nodes mean more sampled worlds, and it scored better with each rise in the budget.
        # It also looks through its flag's gates two moves ahead (`search._gate_danger`).
        # Issue 35's root checks, worlds averaged as chances and the layout prior are off
        # here: each kept its Marshal and General longer, yet together they scored 45%
        # against bot_reply where Classic Hard without them scored 67.5% (20 paired deals
        # each, docs/strength.md "Issue 35"); Gunjin Hard keeps them.
        "hard": {
            "nodes": 450_000,
            "gate_watch": True,
            "odds_scale": 0.0,
            "sound_trades": False,
            "caution": 0.0,
        },
    }
    searcher_class = JunqiSearcher
    layout_counts = JUNQI_LAYOUT_COUNTS
    prior_by_flag = True
    # the prior speaks of the kinds every style places alike (the flag, the mines around
    # it, the Bombs); where the officers stand is a matter of style, and a prior drawn
    # from the CPU's own layouts (its Marshal kept off the front) made Hard's General
    # attack a rushing Marshal it thought a Major General (docs/strength.md, issue 35)
    prior_kinds = frozenset({pc.FLAG, pc.LANDMINE, pc.BOMB})

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        movable = self.tables.movable
        self.move_classes = (
            (pc.LIEUTENANT, movable & ~(1 << pc.ENGINEER)),
            (pc.ENGINEER, 1 << pc.ENGINEER),
        )
        self.lines: Lines = _junqi_lines(variant.position_class)
        # per square, whether it is a gate of a headquarters on the railway (the gate watch
        # looks there for Engineers coming round a corner: `JunqiSearcher.rail_engineers`)
        spec = variant.position_class.spec
        hqs = {h for hq in spec.hqs for h in hq}
        self.rail_gates = tuple(
            bool(spec.rail_neighbours[s]) and not hqs.isdisjoint(spec.neighbours[s])
            for s in range(spec.size)
        )
        self.press_zone = tuple(
            frozenset(t for line in lines for t in line) for lines in self.lines
        )

    def layout(
        self,
        player: int,
        rng: random.Random,
        hq_mine: float | None = None,
        fortified: bool = False,
    ) -> Layout:
        return junqi_layout(self.tables, player, rng, fortified)

    def sample_layout(self, i: int, player: int, rng: random.Random) -> Layout:
        """One in three is fortified (every gate of the flag mined, the Marshal and
        General off the rush lanes, as Hard deploys)."""
        return junqi_layout(self.tables, player, rng, i % 3 == 0)

    def build_tables(
        self,
        flags: tuple[int | None, int | None],
        left: tuple[list[int], list[int]],
        ws: tuple[Weights, Weights],
        fish=None,
    ) -> PstAndValues:
        return junqi_tables(
            self.tables,
            flags,
            left,
            ws,
            fish,
            enemy_half=self.enemy_half,
            face_up_flag=self.face_up_flag,
        )

    def world_tables(
        self, world: Position, ws: tuple[Weights, Weights], cache: dict
    ) -> PstAndValues:
        left = kinds_left(world)
        flags = flag_squares(world)
        key = (flags, junqi_value_key(left), (ws[0].key(), ws[1].key()))
        tables = cache.get(key)
        if tables is None:
            tables = _remember(cache, key, self.build_tables(flags, left, ws))
        return tables


class BlindStrategy(JunqiStrategy):
    """Blind Junqi: every piece starts face down; face-up pieces are public."""

    flips = True
    enemy_half = False
    face_up_flag = True
    level_settings: ClassVar[dict[str, dict]] = {
        # Blind pieces are face up: even a random opponent takes what is left hanging, and
        # walks into a camp next to a face-up flag, from where the capture cannot be
        # stopped.  Its mistakes are careless flips: it moves its pieces as well as it can.
        "easy": {"hang": 0.8, "flag_watch": True, "careless_flips_only": True},
        "hard": {"depth": 4, "nodes": 90_000, "weights": {"fish": 1.0}},
    }

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        # rule option: only an Engineer takes a flag, once the flag's mines are gone
        self.searcher_class = GuardedFlagSearcher if variant.guarded_flag else JunqiSearcher

    layout_counts = None  # no deployment

    def layout(self, *args, **kwargs) -> Layout:
        raise ValueError(f"{self.variant.name} has no deployment")

    def sample_layout(self, *args, **kwargs) -> Layout:
        raise ValueError(f"{self.variant.name} has no deployment")

    def public_tables(
        self, pos: Position, pool, ws: tuple[Weights, Weights], cache: dict
    ) -> tuple[list[list[float]], tuple[float, ...], dict[int, float], float]:
        """(pst, material, value of each face-down pool piece, the pool's total value)
        for the public position and the face-down pool (`belief.BlindPool`)."""
        left = kinds_left(pos)
        for (k, c), n in pool.pool.items():
            left[c].extend([k] * n)
        fish = None
        if ws[0].fish or ws[1].fish:
            fish = fishing(pos, self.lines)
        flags = flag_squares(pos)
        key = ("public", flags, junqi_value_key(left), (ws[0].key(), ws[1].key()), fish)
        tables = cache.get(key)
        if tables is None:
            tables = _remember(cache, key, self.build_tables(flags, left, ws, fish))
        pst, values = tables
        pool_value = {}
        total = 0.0
        for (k, c), n in pool.pool.items():
            p = pc.piece(k, c)
            pool_value[p] = values[p] * (1.0 if c == 0 else -1.0)
            total += pool_value[p] * n
        return pst, values, pool_value, total


class GunjinStrategy(Strategy):
    """Gunjin Shogi under any of its options."""

    values = GUNJIN_VALUES
    level_settings: ClassVar[dict[str, dict]] = {
        # Gunjin's Easy rushes less (a headlong race is what one-move lookahead does
        # best), but still sees the opponent's attackers closing in on its headquarters.
        # Its near-best mistakes are as rare as in the other variants (10% within 15
        # points; 15% within 20 scored 5.8 points less against the heuristic bot over 90
        # pairs, docs/strength.md "Issue 28")
        "easy": {
            "weights": {"guard": 0.3, "race": 0.0, "attract": 0.6, "near": 0.5},
            "enemy_weights": {"guard": 0.3},
        },
        # a mine in the headquarters is the surest defence against occupation; an
        # occupier nothing can stop, and the Spy (the only answer to the Army General)
        # kept near home, are what decide its races
        "medium": {"hq_mine": 1.0, "weights": {"rush": 1.0, "spy_home": 1.0}},
        # Hard also expects the enemy's layout to look like the usual ones, above all a
        # mine in the HQ (sampling every legal layout alike puts one there about 1 time
        # in 11).  It looks four plies ahead, which beat three plies against Medium
        # (docs/strength.md, stop 18); 600,000 nodes still buy all 30 worlds in most
        # positions
        "hard": {
            "hq_mine": 1.0,
            "deployment_prior": True,
            "worlds": 30,
            "depth": 4,
            "min_worlds": 2,
            "nodes": 600_000,
            "weights": {"rush": 1.0, "spy_home": 1.0},
            # it takes off each move's value all it leaves its Army General and its Spy
            # exposed to (`caution`; Classic Hard a quarter: all of it made it lose more)
            "caution": 1.0,
        },
    }
    searcher_class = GunjinSearcher
    # the Spy too, the only piece that beats the Army General (attacking it): it stays
    # out of reach and strikes only when the piece it attacks is likely enough that
    # General to be worth it
    guarded_kinds = frozenset({pc.SPY})
    layout_counts = GUNJIN_PRIOR_COUNTS

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        movable = self.tables.movable
        self.move_classes = (
            (pc.SPY, movable & ~mask_of((pc.TANK, pc.CAVALRY, pc.G_ENGINEER, pc.PLANE))),
            (pc.TANK, mask_of((pc.TANK, pc.CAVALRY))),
            (pc.G_ENGINEER, 1 << pc.G_ENGINEER),
            (pc.PLANE, 1 << pc.PLANE),
        )
        self.press_zone = tuple(frozenset(n) for n in variant.board.neighbours)

    def layout(
        self,
        player: int,
        rng: random.Random,
        hq_mine: float | None = None,
        fortified: bool = False,
    ) -> Layout:
        return gunjin_layout(self.tables, player, rng, hq_mine, fortified)

    def sample_layout(self, i: int, player: int, rng: random.Random) -> Layout:
        """One in four is fortified (a mine in the HQ always, as Hard deploys), one in
        four has no HQ mine preference (Easy), and half keep a mine in the HQ unless it
        holds the flag's guard (Medium)."""
        hq_mine = None if i % 2 == 0 else 1.0
        return gunjin_layout(self.tables, player, rng, hq_mine, i % 4 == 0)

    def world_tables(
        self, world: Position, ws: tuple[Weights, Weights], cache: dict
    ) -> PstAndValues:
        left = kinds_left(world)
        rushing = unstoppable(self.tables, world) if ws[0].rush or ws[1].rush else None
        key = (gunjin_value_key(left), (ws[0].key(), ws[1].key()), rushing)
        tables = cache.get(key)
        if tables is None:
            built = gunjin_tables(self.tables, left, ws, rushing or (frozenset(), frozenset()))
            tables = _remember(cache, key, built)
        return tables


@functools.cache
def _strategy(variant: Variant) -> Strategy:
    if variant.occupiers:  # a side loses when an occupier enters its headquarters
        return GunjinStrategy(variant)
    if variant.has_flips:
        return BlindStrategy(variant)
    return JunqiStrategy(variant)


def strategy_for(variant: Variant | str) -> Strategy:
    """The CPU's strategy for a Variant (or a variant id's standard rules), built once."""
    return _strategy(find_variant(variant) if isinstance(variant, str) else variant)


def main() -> None:
    """Print the stored prior counts anew (`prior.JUNQI_LAYOUT_COUNTS` and the Gunjin ones)."""
    for variant in TWO_SEAT_VARIANTS.values():
        strategy = strategy_for(variant)
        if strategy.layout_counts is None:
            continue  # no deployment (Blind)
        by_flag = strategy.prior_by_flag
        if by_flag:
            print("JUNQI_LAYOUT_COUNTS: tuple[dict[str, dict[str, tuple[int, ...]]], ...] = (")
        else:
            print("GUNJIN_LAYOUT_COUNTS: tuple[dict[str, tuple[int, ...]], ...] = (")
        for player in (0, 1):
            print("    {")
            for key, table in layout_counts(strategy, player).items():
                indent = "        "
                if by_flag:
                    print(f'{indent}"{key}": {{')
                    indent += "    "
                for name, row in table.items():
                    print(f'{indent}"{name}": {row},')
                if by_flag:
                    print("        },")
            print("    },")
        print(")")


if __name__ == "__main__":
    main()
