"""What the gauntlet bots share: reading a view, a small record of what each enemy piece
can still be, where enemy pieces can go next move, and a layout builder.

Nothing here comes from `junqi_core.ai`: the bots are sparring partners for the CPU
levels and must not share their thinking.  A bot gets the same view dicts as the CPU
(`views.view`) and nothing else; every decision is a pure function of (seed, view).

The record of enemy pieces (`Tracker`, Classic and Gunjin) follows each piece through
the view's history: the kinds its start square allows, whether it moved and how (a
turn along a railway is an Engineer, a Gunjin jump a Plane), every combat outcome
against a piece of ours, and piece counts (a kind whose every piece is accounted for is
struck from the others).  The chance of each kind is its count still unaccounted for.
In Blind face-up pieces are public and the face-down pool is counted from the board and
the lost pieces.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from junqi_core import pieces as pc
from junqi_core.deployment import DEPLOYMENTS
from junqi_core.notation import parse_move
from junqi_core.pieces import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS
from junqi_core.rules import POSITION_CLASSES, Position

OUTCOMES = {"attacker": ATTACKER_WINS, "defender": DEFENDER_WINS, "both": BOTH_REMOVED}

# What a piece is worth to a bot (its own simple scale; a flag that ends the game is
# worth more than everything else together).
VALUES = {
    "classic": {
        pc.FIELD_MARSHAL: 10.0, pc.GENERAL: 8.0, pc.MAJOR_GENERAL: 6.0, pc.BRIGADIER: 4.5,
        pc.COLONEL: 3.5, pc.MAJOR: 2.5, pc.CAPTAIN: 2.0, pc.LIEUTENANT: 1.5,
        pc.ENGINEER: 2.5, pc.BOMB: 5.0, pc.LANDMINE: 2.5, pc.FLAG: 100.0,
    },
    "gunjin": {
        pc.ARMY_GENERAL: 10.0, pc.LIEUTENANT_GENERAL: 8.0, pc.G_MAJOR_GENERAL: 7.0,
        pc.PLANE: 6.5, pc.TANK: 6.0, pc.G_COLONEL: 5.0, pc.LIEUTENANT_COLONEL: 4.5,
        pc.G_MAJOR: 4.0, pc.G_CAPTAIN: 3.0, pc.FIRST_LIEUTENANT: 2.5,
        pc.SECOND_LIEUTENANT: 2.0, pc.CAVALRY: 2.0, pc.G_ENGINEER: 3.0, pc.SPY: 4.0,
        pc.MINE: 3.0, pc.G_FLAG: 8.0,
    },
}  # fmt: skip
VALUES["blind"] = VALUES["classic"]

# Gunjin movement classes: how a kind may move, for the reach of unknown pieces.
STEP, DOUBLE, RUNNER, FLYER, STILL = "step", "double", "runner", "flyer", "still"
GUNJIN_CLASS = {k.kind: STEP for k in pc.GUNJIN_KINDS}
GUNJIN_CLASS.update({pc.TANK: DOUBLE, pc.CAVALRY: DOUBLE, pc.G_ENGINEER: RUNNER, pc.PLANE: FLYER})
GUNJIN_CLASS.update({pc.MINE: STILL, pc.G_FLAG: STILL})
GUNJIN_REP = {STEP: pc.G_CAPTAIN, DOUBLE: pc.TANK, RUNNER: pc.G_ENGINEER, FLYER: pc.PLANE}
# Classic: an Engineer turns along railways, the others run straight.
JUNQI_CLASS = {k.kind: STEP for k in pc.JUNQI_KINDS}
JUNQI_CLASS.update({pc.ENGINEER: RUNNER, pc.LANDMINE: STILL, pc.FLAG: STILL})
JUNQI_REP = {STEP: pc.LIEUTENANT, RUNNER: pc.ENGINEER}


class Rules:
    """The rules data of one variant, as a bot reads them (one place to adapt to rule
    options later)."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.cls: type[Position] = POSITION_CLASSES[variant]
        self.board = self.cls.spec
        self.combat = self.cls.combat
        self.kinds = self.cls.kinds
        self.flag = self.cls.flag_kind
        self.ids = {k.kind: k.id for k in self.kinds}
        self.by_id = {k.id: k.kind for k in self.kinds}
        self.counts = {k.kind: k.count for k in self.kinds}
        self.movable = frozenset(k.kind for k in self.kinds if k.movable)
        self.values = VALUES[variant]
        self.deployment = DEPLOYMENTS.get(variant)
        # Gunjin: the pieces whose entry into the enemy HQ wins
        self.occupiers = frozenset(getattr(self.cls, "occupiers", pc.GUNJIN_OCCUPIERS))
        gunjin = variant == "gunjin"
        self.move_class = GUNJIN_CLASS if gunjin else JUNQI_CLASS
        self.rep = GUNJIN_REP if gunjin else JUNQI_REP
        self.still_rep = pc.MINE if gunjin else pc.LANDMINE
        self._hops: dict[frozenset, list[int]] = {}

    def hops(self, targets: frozenset[int]) -> list[int]:
        """Steps along roads and railways from every square to the nearest target
        (occupancy ignored; cached)."""
        out = self._hops.get(targets)
        if out is None:
            far = self.board.size * 2
            out = [far] * self.board.size
            frontier = list(targets)
            for s in frontier:
                out[s] = 0
            neighbours = self.board.neighbours
            for s in frontier:  # grows while it is walked: a breadth-first search
                for t in neighbours[s]:
                    if out[t] == far:
                        out[t] = out[s] + 1
                        frontier.append(t)
            self._hops[targets] = out
        return out

    def result(self, attacker: int, defender: int) -> int:
        return self.combat[attacker][defender]


RULES = {v: Rules(v) for v in POSITION_CLASSES}


# --- what enemy pieces can be (Classic, Gunjin) --------------------------------------------


class Tracker:
    """Follows the enemy's pieces through a view's history (see the module docstring)."""

    def __init__(self, rules: Rules, me: int) -> None:
        self.rules = rules
        self.me = me
        self.them = 1 - me
        deployment = rules.deployment
        assert deployment is not None
        self.at: dict[int, int] = {}  # square -> piece number (alive enemy pieces)
        self.cands: list[set[int]] = []  # per piece number: the kinds it may be
        self.dead: list[bool] = []
        for square in deployment.squares(self.them):
            kinds = {
                k for k in rules.counts if deployment.placement_error(self.them, k, square) is None
            }
            self.at[square] = len(self.cands)
            self.cands.append(kinds)
            self.dead.append(False)
        self.seen = 0  # history events read
        self.last = None  # (ply, action) of the last event read

    def follow(self, history: list[dict]) -> bool:
        """Read the events not read yet; False if the history is not this game's."""
        if self.seen:
            if len(history) < self.seen:
                return False
            e = history[self.seen - 1]
            if (e["ply"], e["action"]) != self.last:
                return False
        names = self.rules.board.index
        for e in history[self.seen :]:
            if e.get("type") == "move" and not self._move(e, names):
                return False
        self.seen = len(history)
        if history:
            self.last = (history[-1]["ply"], history[-1]["action"])
        self._counts()
        return True

    def _move(self, e: dict, names: dict[str, int]) -> bool:
        frm, to = names[e["from"]], names[e["to"]]
        combat = e.get("combat")
        if e["player"] == self.them:
            pid = self.at.pop(frm, None)
            if pid is None:
                return False
            self._narrow(pid, self._shape(frm, to))
            if combat is None:
                self.at[to] = pid
                return True
            result = OUTCOMES[combat["result"]]
            mine = self.rules.by_id.get(combat["defender"] or "")
            if mine is not None and not (self.rules.variant == "gunjin" and mine == pc.G_FLAG):
                self._narrow(
                    pid, {k for k in self.cands[pid] if self.rules.result(k, mine) == result}
                )
            if result == ATTACKER_WINS:
                self.at[to] = pid
            else:
                self.dead[pid] = True
            return True
        if combat is None:
            return True
        pid = self.at.get(to)
        if pid is None:
            return False
        result = OUTCOMES[combat["result"]]
        mine = self.rules.by_id.get(combat["attacker"] or "")
        if mine is not None:
            fits = {k for k in self.cands[pid] if self.rules.result(mine, k) == result}
            if self.rules.variant == "gunjin" and pc.G_FLAG in self.cands[pid]:
                fits.add(pc.G_FLAG)  # a Gunjin flag fights with the piece behind it
            self._narrow(pid, fits)
        if result != DEFENDER_WINS:
            del self.at[to]
            self.dead[pid] = True
        return True

    def _shape(self, frm: int, to: int) -> set[int]:
        """The kinds that can make a move from `frm` to `to` (by its shape alone)."""
        rules = self.rules
        movers = set(rules.movable)
        if to in rules.board.neighbours[frm]:
            return movers
        if rules.variant == "gunjin":
            tables = rules.cls.tables  # type: ignore[attr-defined]
            forward = tables.forward[self.them]
            for direction, rays in enumerate(tables.ground_rays[frm]):
                for ray in rays:
                    if to in ray:
                        if direction == forward and ray.index(to) == 1:
                            return {pc.TANK, pc.CAVALRY, pc.G_ENGINEER, pc.PLANE}
                        if direction in (forward, forward ^ 1):
                            return {pc.G_ENGINEER, pc.PLANE}
                        return {pc.G_ENGINEER}
            return {pc.PLANE}
        for ray in rules.cls.rail_rays[frm]:  # type: ignore[attr-defined]
            if to in ray:
                return movers
        return {pc.ENGINEER}

    def _narrow(self, pid: int, kinds: set[int]) -> None:
        kept = self.cands[pid] & kinds
        if kept:  # never empty: an outcome this simple record cannot explain is skipped
            self.cands[pid] = kept

    def _counts(self) -> None:
        """Strike a kind from every other piece once all its pieces are accounted for."""
        counts = self.rules.counts
        changed = True
        while changed:
            changed = False
            fixed = Counter(next(iter(c)) for c in self.cands if len(c) == 1)
            for kind, n in fixed.items():
                if n < counts[kind]:
                    continue
                for c in self.cands:
                    if len(c) > 1 and kind in c:
                        c.discard(kind)
                        changed = True

    def odds(self) -> dict[int, dict[int, float]]:
        """Square -> chance of each kind, for every enemy piece on the board.  Each kind's
        pieces not yet accounted for are spread over the pieces that may be that kind,
        and each piece's chances are then scaled to add up to one; three rounds of this
        (so a Mine, which only the back two ranks may hold, is likelier there)."""
        counts = self.rules.counts
        left = Counter(counts)
        left.subtract(self.lost_kinds())
        rows = {s: dict.fromkeys(self.cands[pid], 1.0) for s, pid in self.at.items()}
        for _ in range(3):
            column: Counter = Counter()
            for row in rows.values():
                for k, w in row.items():
                    column[k] += w
            scale = {k: max(left[k], 0.05) / w for k, w in column.items()}
            for row in rows.values():
                total = 0.0
                for k in row:
                    row[k] *= scale[k]
                    total += row[k]
                for k in row:
                    row[k] /= total
        return rows

    def lost_kinds(self) -> Counter:
        """Kinds of the enemy's lost pieces that this record knows for sure."""
        return Counter(
            next(iter(c)) for c, d in zip(self.cands, self.dead, strict=True) if d and len(c) == 1
        )


def unknown_odds(rules: Rules, lost: Counter | None = None) -> dict[int, float]:
    """A piece known only by its count: every kind, by the pieces of it left."""
    lost = lost or Counter()
    weights = {k: max(n - lost[k], 0.05) for k, n in rules.counts.items()}
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


# --- one view, read -------------------------------------------------------------------------


class Picture:
    """What a bot makes of one view: its pieces, the odds for each enemy piece, the Blind
    pool, and where enemy pieces can move or attack next."""

    def __init__(self, rules: Rules, view: dict, me: int, tracker: Tracker | None) -> None:
        self.rules = rules
        self.view = view
        self.me = me
        self.them = 1 - me
        index = rules.board.index
        self.mine: dict[int, int] = {}  # square -> kind
        self.theirs: dict[int, dict[int, float]] = {}  # square -> {kind: chance}
        self.down: list[int] = []  # Blind: face-down squares
        unknown: list[int] = []
        for name, cell in view["board"].items():
            s = index[name]
            if cell["down"]:
                self.down.append(s)
            elif cell["owner"] == me:
                self.mine[s] = rules.by_id[cell["kind"]]
            elif cell["kind"] is not None:
                self.theirs[s] = {rules.by_id[cell["kind"]]: 1.0}
            else:
                unknown.append(s)
        self.down.sort()
        tracked = tracker.odds() if tracker is not None and unknown else {}
        for s in unknown:
            odds = tracked.get(s)
            self.theirs[s] = odds if odds is not None else unknown_odds(rules)
        self.swap = 0
        if rules.variant == "blind":
            colours = view["colours"]
            self.swap = -1 if colours is None else ("red", "blue").index(colours[0])
            self.pool = self._pool()
        self.flag = next((s for s, k in self.mine.items() if k == rules.flag), None)
        self.reach = self._reach()

    def _pool(self) -> dict[tuple[int, int], int]:
        """Blind: (owner, kind) -> face-down pieces of it (kinds are public once up)."""
        rules = self.rules
        pool = {(p, k): n for p in (0, 1) for k, n in rules.counts.items()}
        for k in self.mine.values():
            pool[(self.me, k)] -= 1
        for odds in self.theirs.values():
            pool[(self.them, next(iter(odds)))] -= 1
        for p in (0, 1):
            for kind_id in self.view["lost"][p]["kinds"] or ():
                pool[(p, rules.by_id[kind_id])] -= 1
        return {key: n for key, n in pool.items() if n > 0}

    def flip_odds(self) -> list[tuple[int, int, float]]:
        """Blind: (owner, kind, chance) of what a face-down piece turns out to be.  Before
        the first flip nobody owns a colour: the owner is then the colour index."""
        total = sum(self.pool.values())
        return [(p, k, n / total) for (p, k), n in sorted(self.pool.items())] if total else []

    def position(self, enemy_kind: Callable[[dict[int, float]], int] | None = None) -> Position:
        """A position of this view: our pieces as they are, enemy pieces as the kind
        `enemy_kind` picks from their odds (default: the likeliest), face-down as such."""
        rules = self.rules
        board = [0] * rules.board.size
        swap = self.swap if self.swap >= 0 else 0
        mine, theirs = self.me ^ swap, self.them ^ swap
        for s, k in self.mine.items():
            board[s] = pc.piece(k, mine)
        for s, odds in self.theirs.items():
            k = enemy_kind(odds) if enemy_kind else max(odds, key=odds.get)  # type: ignore[arg-type]
            board[s] = pc.piece(k, theirs)
        for s in self.down:
            board[s] = pc.piece(pc.LIEUTENANT, 0, face_down=True)
        turn = self.view["turn"] if self.view["turn"] is not None else self.me
        return rules.cls(board, turn=turn, swap=self.swap)

    def reach_if_vacated(self, square: int) -> dict[int, list[tuple[int, frozenset[int]]]]:
        """`reach` as it would be were our piece on `square` gone (lines it opens)."""
        return self._reach(square)

    def _reach(self, vacated: int | None = None) -> dict[int, list[tuple[int, frozenset[int]]]]:
        """Target square -> [(enemy square, kinds of that piece that can get there)]."""
        rules = self.rules
        reach: dict[int, list[tuple[int, frozenset[int]]]] = {}
        if rules.variant == "blind":
            if self.swap < 0:
                return reach
            pos = self.position()
            if vacated is not None:
                pos.board[vacated] = 0
            for m in pos.legal_moves(self.them):
                frm, to = m >> 6, m & 63
                if frm != to:
                    reach.setdefault(to, []).append((frm, frozenset(self.theirs[frm])))
            return reach
        classes: dict[str, set[int]] = {}
        for s, odds in self.theirs.items():
            for k in odds:
                c = rules.move_class[k]
                if c != STILL:
                    classes.setdefault(c, set()).add(s)
        for c, squares in classes.items():
            rep = rules.rep[c]
            pos = self.position(lambda odds, rep=rep: rep)
            for s in self.theirs:
                if s not in squares:
                    pos.board[s] = pc.piece(rules.still_rep, self.them)
            if vacated is not None:
                pos.board[vacated] = 0
            gathered: dict[tuple[int, int], None] = {}
            for m in pos.legal_moves(self.them):
                gathered[(m >> 6, m & 63)] = None
            for frm, to in gathered:
                kinds = frozenset(k for k in self.theirs[frm] if rules.move_class[k] == c)
                reach.setdefault(to, []).append((frm, kinds))
        merged: dict[int, list[tuple[int, frozenset[int]]]] = {}
        for to, entries in reach.items():  # one entry per piece: the kinds of all classes
            by_frm: dict[int, frozenset[int]] = {}
            for frm, kinds in entries:
                by_frm[frm] = by_frm.get(frm, frozenset()) | kinds
            merged[to] = list(by_frm.items())
        return merged

    # --- combat odds ---------------------------------------------------------------------

    def attack_odds(self, mine: int, odds: dict[int, float]) -> tuple[float, float, float]:
        """(win, both removed, lose) when our `mine` attacks a piece with these odds."""
        win = both = lose = 0.0
        for k, p in odds.items():
            r = self.rules.result(mine, k)
            if r == ATTACKER_WINS:
                win += p
            elif r == BOTH_REMOVED:
                both += p
            else:
                lose += p
        return win, both, lose

    def trade(self, mine: int, odds: dict[int, float]) -> float:
        """Expected change in material (this bot's values) when our `mine` attacks."""
        values = self.rules.values
        total = 0.0
        for k, p in odds.items():
            r = self.rules.result(mine, k)
            if r == ATTACKER_WINS:
                total += p * values[k]
            elif r == BOTH_REMOVED:
                total += p * (values[k] - values[mine])
            else:
                total -= p * values[mine]
        return total

    def danger(self, square: int, kind: int, ignore: int | None = None) -> float:
        """Chance that some enemy piece can attack our `kind` on `square` next move and
        not lose (taken or traded); `ignore`: an enemy piece we are about to take."""
        if square in self.rules.board.camps:
            return 0.0
        entries = list(self.reach.get(square, ()))
        if square in self.theirs:  # a capture: the enemy pieces beside it may strike back
            movable = self.rules.movable
            for t in self.rules.board.neighbours[square]:
                odds = self.theirs.get(t)
                if odds is not None:
                    entries.append((t, frozenset(k for k in odds if k in movable)))
        worst = 0.0
        for frm, kinds in entries:
            if frm in (ignore, square):
                continue
            odds = self.theirs[frm]
            p = sum(odds[k] for k in kinds if self.rules.result(k, kind) != DEFENDER_WINS)
            worst = max(worst, p)
        return worst

    def value_of(self, odds: dict[int, float]) -> float:
        values = self.rules.values
        return sum(p * values[k] for k, p in odds.items())


# --- the Player protocol ----------------------------------------------------------------------


class Bot:
    """The Player protocol for a bot; subclasses set `level` and write `pick` (and may
    write `layout`)."""

    level = "bot"
    salt = 0

    def __init__(self, variant: str, player: int, seed: int = 0) -> None:
        self.variant = variant
        self.player = player
        self.seed = seed
        self.rules = RULES[variant]
        self._tracker: Tracker | None = None

    def deploy(self, view: dict) -> dict[str, str]:
        rng = random.Random(self.seed * 7_907 + self.salt)
        builder = LayoutBuilder(self.rules, self.player)
        try:
            self.layout(builder, rng)
            builder.finish(rng, self.weight)
            return builder.result()
        except (ValueError, IndexError):
            layout = self.rules.deployment.random_layout(self.player, rng)  # type: ignore[union-attr]
            names = self.rules.board.names
            return {names[s]: self.rules.ids[k] for s, k in sorted(layout.items())}

    def observe(self, event: dict) -> None:
        """Events are also in the next view's history, which is all a bot reads."""

    def choose(self, view: dict, legal: list[str]) -> str:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        picture = Picture(self.rules, view, self.player, self._follow(view))
        rng = random.Random(self.seed * 1_000_003 + view["ply"] * 7_919 + self.salt)
        board = self.rules.board
        moves = [parse_move(board, a) for a in legal]
        best = self.pick(picture, [(m >> 6, m & 63) for m in moves], rng)
        return legal[best]

    def answer_draw(self, view: dict) -> bool:
        """Accept a draw when clearly behind in the pieces known lost."""
        lost = [view["lost"][p]["count"] for p in (0, 1)]
        return lost[self.player] > lost[1 - self.player] + 4

    # --- for subclasses ----------------------------------------------------------------

    def pick(self, picture: Picture, moves: list[tuple[int, int]], rng: random.Random) -> int:
        raise NotImplementedError

    def layout(self, builder: LayoutBuilder, rng: random.Random) -> None:
        """Place the pieces that matter to this bot's style; `weight` places the rest."""

    def weight(self, kind: int, square: int, builder: LayoutBuilder) -> float:
        return 0.0

    def _follow(self, view: dict) -> Tracker | None:
        if self.variant == "blind":
            return None
        tracker = self._tracker
        if tracker is None or not tracker.follow(view["history"]):
            tracker = Tracker(self.rules, self.player)
            if not tracker.follow(view["history"]):
                tracker = None  # a position set up by hand: the board alone
        if tracker is not None:
            enemy = {
                self.rules.board.index[n]
                for n, c in view["board"].items()
                if c["owner"] == 1 - self.player
            }
            if set(tracker.at) != enemy:
                tracker = None
        self._tracker = tracker
        return tracker


# --- helpers for scoring moves ------------------------------------------------------------------


def best_index(scores: list[float], rng: random.Random, tolerance: float = 1e-9) -> int:
    """The index of the highest score; ties broken by the seeded generator."""
    top = max(scores)
    ties = [i for i, s in enumerate(scores) if s >= top - tolerance]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def forward(rules: Rules, player: int, square: int) -> int:
    """How far up the board a square is, seen from `player` (0: own back rank)."""
    y = rules.board.coords[square][1]
    top = max(c[1] for c in rules.board.coords)
    return round(y if player == 0 else top - y)


# --- layouts ------------------------------------------------------------------------------------


class LayoutBuilder:
    """Builds a legal layout piece by piece; `put` refuses squares the rules forbid."""

    def __init__(self, rules: Rules, player: int) -> None:
        assert rules.deployment is not None
        self.rules = rules
        self.deployment = rules.deployment
        self.player = player
        self.free = list(self.deployment.squares(player))
        self.placed: dict[int, int] = {}
        self.bag = Counter(rules.counts)

    def rank(self, square: int) -> int:
        """1 = own back rank."""
        return self.deployment.relative_rank(self.player, square)

    def allowed(self, kind: int) -> list[int]:
        return [
            s for s in self.free if self.deployment.placement_error(self.player, kind, s) is None
        ]

    def put(self, kind: int, square: int) -> None:
        if self.bag[kind] <= 0 or square not in self.free:
            raise ValueError("no such piece or square left")
        if self.deployment.placement_error(self.player, kind, square) is not None:
            raise ValueError("not allowed there")
        self.free.remove(square)
        self.bag[kind] -= 1
        self.placed[square] = kind

    def put_best(self, kind: int, score: Callable[[int], float], rng: random.Random) -> int:
        options = self.allowed(kind)
        square = max(options, key=lambda s: score(s) + rng.random() * 0.5)
        self.put(kind, square)
        return square

    def finish(
        self, rng: random.Random, weight: Callable[[int, int, LayoutBuilder], float]
    ) -> None:
        """Place what is left, most constrained kinds first, each on its best square."""
        left = [k for k, n in self.bag.items() for _ in range(n)]
        rng.shuffle(left)
        left.sort(key=lambda k: len(self.allowed(k)))
        for kind in left:
            boxed = 50.0 if kind in self.rules.movable else 0.0
            self.put_best(
                kind, lambda s, k=kind, b=boxed: weight(k, s, self) - b * self.boxed(s), rng
            )

    def boxed(self, square: int) -> bool:
        """Whether a piece here could never move: every neighbour holds a Mine or the
        Flag, or is a Classic headquarters (whose piece never moves either)."""
        rules = self.rules
        hqs = rules.board.hqs[self.player] if rules.variant == "classic" else ()
        if square in hqs:
            return True
        for t in rules.board.neighbours[square]:
            k = self.placed.get(t)
            if t not in hqs and (k is None or k in rules.movable):
                return False
        return True

    def result(self) -> dict[str, str]:
        self.deployment.validate(self.player, self.placed)
        names = self.rules.board.names
        return {names[s]: self.rules.ids[k] for s, k in sorted(self.placed.items())}
