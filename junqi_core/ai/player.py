"""CPU players that never peek: Easy, Medium and Hard for every variant.

A `CpuPlayer` is made from (variant, player seat, seed) and is given only the player's
view dicts and events (`views.view`, `views.event`).  From the view it rebuilds what it
may know (`belief`), samples complete worlds consistent with it (Gunjin Hard: weighed by
how layouts usually look, `prior`), searches them (`search`) and averages.  In Blind it
searches the one public position, flips being chance events.  What differs between the
families of rules is the strategy's (`strategy.strategy_for(variant)`); every table it
reads comes from the player's `Variant`, under whatever rule options it has.

Every decision is a pure function of (seed, view): the random generator is re-seeded
from the seed and the ply for each decision, and search runs to fixed world/node budgets.
A wall-clock cap (`time_cap`, seconds; None disables it) is a safety net only.  It is
the page's budget for the whole move, so the search stops at `SEARCH_SHARE` of it: the
rest pays for the view, the reply and the worker's round trip.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from junqi_core import pieces as pc
from junqi_core.ai.behaviour import stored_model
from junqi_core.ai.belief import (
    Belief,
    BeliefError,
    BlindPool,
    BoardTracker,
    Tracker,
    own_position,
)
from junqi_core.ai.caution import UNSOUND, Caution, Odds, risky_flip
from junqi_core.ai.evaluate import WIN, Weights, score_of
from junqi_core.ai.search import INF, NodeLimit, TimeUp
from junqi_core.ai.strategy import BlindStrategy, Strategy, strategy_for
from junqi_core.notation import move_text, parse_move
from junqi_core.pieces import FACE_DOWN, KIND_MASK
from junqi_core.rules import Position
from junqi_core.variants import Variant, find_variant
from junqi_core.views import Event, View

# Points of evaluation that move the chance of winning by a factor e of the odds: a
# Field Marshal (92 points) up is then a 65% game, two Generals up a 75% one
ODDS_SCALE = 150.0


def as_odds(value: float, scale: float) -> float:
    """A search value as a chance of winning (logistic in value / scale)."""
    return 1.0 / (1.0 + math.exp(max(-60.0, min(60.0, -value / scale))))


def from_odds(chance: float, scale: float) -> float:
    """`as_odds` undone (the chance held away from 0 and 1)."""
    chance = min(1.0 - 1e-12, max(1e-12, chance))
    return scale * math.log(chance / (1.0 - chance))


@dataclass(frozen=True)
class Level:
    name: str
    worlds: int  # most worlds sampled per decision (Classic, Gunjin)
    min_worlds: int  # worlds searched even past the node budget
    depth: int  # plies of full-width search (the root move counts as one)
    nodes: int  # node budget per decision (deterministic)
    margin: float  # root values within this of the best are exact
    temperature: float = 0.0  # softmax noise on the averaged values (0: always the best)
    blunder: float = 0.0  # chance of playing a near-best move instead of the best
    blunder_window: float = 0.0  # how far below the best such a move may be
    careless_flips_only: bool = False  # Blind: the noise only picks which piece to turn
    hang: float = 0.8  # how much a piece left where it can be taken at once counts
    time_cap: float = 1.5  # the page's budget per move in seconds (the search's cap)
    weights: dict = field(default_factory=dict)  # evaluation weights for its own pieces
    enemy_weights: dict | None = None  # ... and for the opponent's (None: the same)
    hq_mine: float | None = None  # Gunjin: how often the HQ holds a mine (if not the guard's)
    flag_watch: bool = False  # a one-ply level that sees a flag capture two moves away
    gate_watch: bool = False  # ... also through an own piece on a gate (see `search`)
    fortified: bool = False  # deployment: every gate of the flag (Gunjin: the HQ) mined
    deployment_prior: bool = False  # believe enemy layouts look like the usual ones
    # weigh sampled worlds by how likely each kind would have done what each enemy piece
    # did (`behaviour`; Classic's standard board only)
    behaviour: bool = False
    # > 0: sampled worlds' values are averaged as chances of winning (a logistic curve of
    # value / odds_scale), not as points, so that a win seen in one world in ten does not
    # outweigh a Marshal lost in four (0: averaged as points)
    odds_scale: float = 0.0
    # the root checks for the top pieces (`caution`): no trade of one for less than it is
    # worth (`sound_trades`), and `caution` times what a move leaves one exposed to off
    # its value
    sound_trades: bool = False
    caution: float = 0.0


LEVEL_SETTINGS: dict[str, Level] = {
    # Easy looks one move ahead, often overlooks that a piece can be taken (hang 0.3),
    # and now and then plays a slightly worse move.
    "easy": Level(
        "easy",
        worlds=3,
        min_worlds=2,
        depth=1,
        nodes=1_500,
        margin=400.0,
        temperature=2.0,
        blunder=0.1,
        blunder_window=15.0,
        hang=0.3,
        time_cap=0.1,
        weights={"guard": 0.3, "race": 0.0},
    ),
    # Medium: its move and the best reply, in up to 10 sampled worlds.
    "medium": Level(
        "medium", worlds=10, min_worlds=3, depth=2, nodes=10_000, margin=60.0, time_cap=0.5
    ),
    # Hard: three plies (its move, the reply, its next move) in up to 12 worlds.  Its
    # flag is fully mined in: Hard loses games mostly by enemy pieces walking onto it.
    "hard": Level(
        "hard",
        worlds=12,
        min_worlds=3,
        depth=3,
        nodes=450_000,
        margin=40.0,
        time_cap=1.5,
        fortified=True,
        odds_scale=ODDS_SCALE,
        sound_trades=True,
        caution=0.25,
    ),
}


def settings_for(variant: Variant | str, level: str) -> Level:
    """A level's settings under a variant's rules: the level's own, changed where the
    family's strategy says so (`Strategy.level_settings`)."""
    base = LEVEL_SETTINGS[level]
    extra = strategy_for(variant).level_settings.get(level)
    return replace(base, **extra) if extra else base


_UNSET = object()
# Share of `time_cap` the search may use.  In the page a move is timed from request to
# reply; Gunjin Hard's searches cut at the full 1.5 s came back in up to 1.585 s.
SEARCH_SHARE = 0.9
LEAD = 12.0  # material lead (points) from which a player presses for a win
# Draws: a player whose own estimate is this far below even is clearly worse; it accepts
# an offer then (and declines otherwise), and offers one itself once the quiet-move
# counter has run to OFFER_QUIET of its limit (a long quiet game it cannot turn round).
DRAW_MARGIN = 12.0
OFFER_QUIET = 0.5


class CpuPlayer:
    """A CPU player of one level (see LEVEL_SETTINGS)."""

    level = "hard"

    def __init__(
        self,
        variant: Variant | str,
        player: int,
        seed: int = 0,
        *,
        time_cap: float | object | None = _UNSET,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if isinstance(variant, str):
            variant = find_variant(variant)
        self.variant: Variant = variant
        self.strategy: Strategy = strategy_for(variant)
        self.player = player
        self.seed = seed
        self.settings = settings_for(variant, self.level)
        self.time_cap = self.settings.time_cap if time_cap is _UNSET else time_cap
        self.clock = clock
        self.weights = Weights(**self.settings.weights)
        enemy = self.settings.enemy_weights
        self.enemy_weights = self.weights if enemy is None else Weights(**enemy)
        self._ws: tuple[Weights, Weights] = (self.weights, self.enemy_weights)
        self._tracker: Tracker | None = None
        self._pst_cache: dict = {}
        self.last_info: dict = {}

    # --- the Player protocol -------------------------------------------------------------

    def deploy(self, view: View) -> dict[str, str]:
        rng = random.Random(self.seed * 7_919 + 17)
        level = self.settings
        layout = self.strategy.layout(self.player, rng, level.hq_mine, level.fortified)
        names = self.variant.board.names
        ids = self.strategy.tables.kind_ids
        return {names[s]: ids[k] for s, k in sorted(layout.items())}

    def observe(self, event: Event) -> None:
        """Events are also in the next view's history, which is what the player reads."""

    def choose(self, view: View, legal: list[str]) -> str:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        start = self.clock()
        deadline = None
        if self.time_cap is not None:
            deadline = start + self.time_cap * SEARCH_SHARE  # type: ignore[operator]
        board = self.variant.board
        moves = [parse_move(board, a) for a in legal]
        rng = random.Random(self.seed * 1_000_003 + view["ply"] * 7_919 + 1)
        values = self._values(view, moves, rng, deadline)
        index = self._pick(values, rng, moves)
        return move_text(board, moves[index])

    def answer_draw(self, view: View) -> bool:
        """Accept when this player's own estimate says it is clearly worse."""
        rng = random.Random(self.seed * 1_000_003 + view["ply"] * 7_919 + 2)
        estimate = self.estimate(view, rng)
        return estimate < -DRAW_MARGIN

    def offer_draw(self, view: View) -> bool:
        """Whether to offer a draw before moving: only where the rules allow one now, in a
        long quiet game (the quiet-move counter at OFFER_QUIET of its limit or more), and
        when this player's own estimate says it is clearly worse."""
        if "offer" not in view.get("actions", ()):
            return False
        if view["quiet"] < OFFER_QUIET * view["quiet_limit"]:
            return False
        rng = random.Random(self.seed * 1_000_003 + view["ply"] * 7_919 + 3)
        return self.estimate(view, rng) < -DRAW_MARGIN

    # --- thinking -------------------------------------------------------------------------

    def estimate(self, view: View, rng: random.Random, worlds: int = 6) -> float:
        """Mean table score of sampled worlds from this player's side (no search)."""
        base = own_position(self.variant, view)
        colour = self._colour(base)
        sign = 1.0 if colour == 0 else -1.0
        strategy = self.strategy
        if isinstance(strategy, BlindStrategy):
            pool = BlindPool(self.variant, view)
            pst, _, _, pool_total = strategy.public_tables(base, pool, self._ws, self._pst_cache)
            return sign * (score_of(base, pst) + pool_total)
        belief = self._belief(view)
        total = 0.0
        for _ in range(worlds):
            world = belief.world(base, belief.sample(rng))
            total += score_of(world, self._tables(world)[0])
        return sign * total / worlds

    def _pressing(
        self, view: View, base: Position, belief: Belief | None
    ) -> tuple[Weights, Weights]:
        """Per-colour weights: a side clearly ahead attacks harder as the quiet-move draw
        comes nearer (it would throw the lead away)."""
        colour = self._colour(base)
        own, enemy = self.weights, self.enemy_weights
        plain = (own, enemy) if colour == 0 else (enemy, own)
        quiet, limit = view["quiet"], view["quiet_limit"]
        urgency = min(1.0, max(0.0, (quiet - 0.16 * limit) / (0.5 * limit)))
        urgency = round(urgency * 4) / 4  # a few steps, so tables can be cached
        if urgency <= 0 or base.swap < 0:
            return plain
        values = self.strategy.values
        public = self.variant.public_face_up  # face-up enemy pieces are known (Blind)
        mine = theirs = 0.0
        for p in base.board:
            if p and not p & FACE_DOWN:
                if pc.colour_of(p) == colour:
                    mine += values[p & KIND_MASK]
                elif public:
                    theirs += values[p & KIND_MASK]
        if self.strategy.flips:
            for (k, c), n in BlindPool(self.variant, view).pool.items():
                if c == colour:
                    mine += values[k] * n
                else:
                    theirs += values[k] * n
        elif belief is not None:
            marginals = belief.marginals()
            for e in belief.tracker.alive_enemies():
                theirs += sum(pr * values[k] for k, pr in marginals[e].items())
        if mine - theirs < LEAD:
            return plain
        pressed = own.pressed(urgency)
        return (pressed, enemy) if colour == 0 else (enemy, pressed)

    def _odds(self, belief: Belief, rng: random.Random, samples: int = 24) -> Odds:
        """Square -> kind -> chance for every enemy piece on the board, estimated from
        sampled assignments."""
        tracker = belief.tracker
        alive = tracker.alive_enemies()
        counts: dict[int, dict[int, int]] = {e: {} for e in alive}
        for _ in range(samples):
            assignment = belief.sample(rng)
            for e in alive:
                k = assignment[e]
                counts[e][k] = counts[e].get(k, 0) + 1
        return {
            tracker.square[e]: {k: n / samples for k, n in sorted(counts[e].items())} for e in alive
        }

    @staticmethod
    def _marginals(odds: Odds, colour: int) -> dict[int, list[tuple[int, float]]]:
        """Square -> [(piece int of `colour`, chance)] for each enemy piece whose kind is
        not certain (what the search's last ply reads)."""
        return {
            s: [(pc.piece(k, colour), p) for k, p in row.items()]
            for s, row in odds.items()
            if len(row) > 1
        }

    def _careful(self, base: Position, moves: list[int], odds: Odds, values: list[float]):
        """The root checks for the top pieces (`caution`): an attack that trades one for
        less than it is worth goes below every other move, and each move pays a share of
        what it leaves a top piece exposed to."""
        caution = Caution(self.strategy, base, self.player, odds, self.strategy.values, WIN)
        level = self.settings
        out = []
        for m, v in zip(moves, values, strict=True):
            worth = caution.attack_worth(m) if level.sound_trades else None
            if worth is not None and worth < 0:
                v -= UNSOUND * WIN
            if level.caution:
                v -= level.caution * caution.exposure(m)
            out.append(v)
        return out

    def _colour(self, pos: Position) -> int:
        return self.player ^ pos.swap if pos.swap >= 0 else self.player

    def _belief(self, view: View) -> Belief:
        tracker = self._tracker
        try:
            if tracker is None:
                tracker = Tracker(self.variant, self.player)
            try:
                tracker.update(view)
            except BeliefError:
                tracker = Tracker(self.variant, self.player)  # a different game: start again
                tracker.update(view)
        except BeliefError:
            # a history that cannot be followed (a position set up by hand): board only
            self._tracker = None
            return Belief(BoardTracker(self.variant, view, self.player))
        self._tracker = tracker
        prior = self.strategy.prior(1 - self.player) if self.settings.deployment_prior else None
        model = stored_model() if self.settings.behaviour else None
        return Belief(tracker, prior, model)

    def _tables(self, world: Position):
        """(pst, material values) for a world, cached by what they depend on."""
        return self.strategy.world_tables(world, self._ws, self._pst_cache)

    def _values(
        self, view: View, moves: list[int], rng: random.Random, deadline: float | None
    ) -> list[float]:
        base = own_position(self.variant, view)
        info = {"worlds": 0, "nodes": 0, "timeout": False}
        self.last_info = info
        strategy = self.strategy
        if isinstance(strategy, BlindStrategy):
            self._ws = self._pressing(view, base, None)
            return self._public_values(strategy, view, base, moves, deadline, info)
        belief = self._belief(view)
        self._ws = self._pressing(view, base, belief)
        return self._sampled_values(belief, base, moves, rng, deadline, info)

    def _public_values(
        self,
        strategy: BlindStrategy,
        view: View,
        base: Position,
        moves: list[int],
        deadline: float | None,
        info: dict,
    ) -> list[float]:
        """Blind: the one public position searched, each flip a chance event over the pool."""
        level = self.settings
        pool = BlindPool(self.variant, view)
        pst, values, pool_value, pool_total = strategy.public_tables(
            base, pool, self._ws, self._pst_cache
        )
        searcher = strategy.searcher(pst, self.clock, None, values, level.hang, level.flag_watch)
        score = score_of(base, pst) + pool_total
        outcomes = pool.outcomes()
        # iterative deepening: depth 1 always completes; deeper ones only in time
        result = searcher.blind_root_values(
            base, moves, 1, score, outcomes, pool_value, level.margin
        )
        searcher.deadline = deadline
        searcher.node_limit = level.nodes
        for depth in range(2, level.depth + 1):
            try:
                result = searcher.blind_root_values(
                    base, moves, depth, score, outcomes, pool_value, level.margin
                )
            except NodeLimit:
                break  # the deepest search that fitted the budget stands
            except TimeUp:
                info["timeout"] = True
                break
            info["depth"] = depth
        info["nodes"] = searcher.nodes
        if level.sound_trades and base.swap >= 0:
            colour = self._colour(base)
            board = base.board
            attackers = searcher.attackers
            code = base.move_code
            result = [
                v - UNSOUND * WIN
                if code.is_flip(m)
                and risky_flip(
                    board, code.to[m], colour, pool.pool, base.combat, base.flag_kind, attackers
                )
                else v
                for m, v in zip(moves, result, strict=True)
            ]
        return result

    def _sampled_values(
        self,
        belief: Belief,
        base: Position,
        moves: list[int],
        rng: random.Random,
        deadline: float | None,
        info: dict,
    ) -> list[float]:
        """Classic, Gunjin: sampled worlds searched, the root values averaged over them."""
        level = self.settings
        totals = [0.0] * len(moves)
        searcher = self.strategy.searcher(
            [],
            self.clock,
            deadline,
            hang=level.hang,
            watch=level.flag_watch,
            gates=level.gate_watch,
        )
        odds = None
        if level.depth >= 3:
            searcher.my_colour = self.player
            odds = self._odds(belief, rng)
            searcher.marginal = self._marginals(odds, belief.tracker.enemy)
        order = list(range(len(moves)))
        scale = level.odds_scale
        raw = [0.0] * len(moves)  # the values as points: they break ties between sure wins
        worlds = 0
        for w in range(level.worlds):
            if w >= level.min_worlds and searcher.nodes >= level.nodes:
                break
            world = belief.world(base, belief.sample(rng))
            pst, values = self._tables(world)
            searcher.set_world(pst, values, world)
            score = score_of(world, pst)
            # past the minimum, a world that would overrun the budget is left out
            searcher.node_limit = level.nodes if w >= level.min_worlds else 1 << 62
            try:
                vals = searcher.root_values(
                    world, [moves[i] for i in order], level.depth, score, level.margin
                )
            except NodeLimit:
                break
            except TimeUp:
                info["timeout"] = True
                if worlds == 0:  # out of time in the first world: a one-ply answer
                    searcher.deadline = None
                    vals = searcher.root_values(
                        world, [moves[i] for i in order], 1, score, level.margin
                    )
                    totals = [0.0] * len(moves)
                    for i, v in zip(order, vals, strict=True):
                        totals[i] = as_odds(v, scale) if scale else v
                        raw[i] = v
                    worlds = 1
                break
            for i, v in zip(order, vals, strict=True):
                totals[i] += as_odds(v, scale) if scale else v
                raw[i] += v
            worlds += 1
            order.sort(key=lambda i: -totals[i])
        info["worlds"] = worlds
        info["nodes"] = searcher.nodes
        if scale and worlds:
            values = [
                from_odds(t / worlds, scale) + 1e-3 * r / worlds
                for t, r in zip(totals, raw, strict=True)
            ]
        else:
            values = [t / worlds for t in totals]
        if (level.sound_trades or level.caution) and odds is not None:
            values = self._careful(base, moves, odds, values)
        return values

    def _pick(self, values: list[float], rng: random.Random, moves: list[int]) -> int:
        level = self.settings
        best = max(range(len(values)), key=lambda i: (values[i], -i))
        is_flip = self.variant.board.move_code.is_flip
        if level.careless_flips_only:
            if not is_flip(moves[best]):
                return best
            values = [v if is_flip(m) else -INF for v, m in zip(values, moves, strict=True)]
        if level.blunder and rng.random() < level.blunder:
            near = [
                i for i in range(len(values)) if values[i] >= values[best] - level.blunder_window
            ]
            return rng.choice(near)
        if level.temperature > 0:
            t = level.temperature
            m = values[best]
            weights = [math.exp(max(-50.0, (v - m) / t)) for v in values]
            r = rng.random() * sum(weights)
            for i, wgt in enumerate(weights):
                r -= wgt
                if r < 0:
                    return i
        return best


class EasyPlayer(CpuPlayer):
    level = "easy"


class MediumPlayer(CpuPlayer):
    level = "medium"


class HardPlayer(CpuPlayer):
    level = "hard"
