"""What the gauntlet bots share: reading a view (`Picture`: its pieces, the odds for each
enemy piece, the Blind face-down pool, where enemy pieces can move or strike next), the
Player protocol (`Bot`), and a layout builder.

Nothing here comes from `junqi_core.ai`: the bots are sparring partners for the CPU
levels and must not share their thinking.  A bot gets the same view dicts as the CPU
(`views.view`) and nothing else; every decision is a pure function of (seed, view).
What the enemy's hidden pieces can be is kept by `tracker.Tracker` (Classic, Gunjin);
in Blind face-up pieces are public and the face-down pool is counted from the board
and the lost pieces.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from junqi_core import pieces as pc
from junqi_core.bots.tracker import STILL, Rules, Tracker, rules_for, unknown_odds
from junqi_core.notation import parse_move
from junqi_core.pieces import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS
from junqi_core.rules import Position
from junqi_core.variants import Variant, find_variant

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
        if rules.flips:
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
        if rules.flips:
            if self.swap < 0:
                return reach
            pos = self.position()
            if vacated is not None:
                pos.board[vacated] = 0
            split = pos.move_code.split
            for m in pos.legal_moves(self.them):
                frm, to = split(m)
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
            gathered: dict[tuple[int, int], None] = dict.fromkeys(
                map(pos.move_code.split, pos.legal_moves(self.them))
            )
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

    def likely_flag_hqs(self) -> list[int]:
        """Classic: the enemy headquarters likeliest to hold the flag (both when even)."""
        hqs = self.rules.board.hqs[self.them]
        chance = {h: self.theirs.get(h, {}).get(pc.FLAG, 0.0) for h in hqs}
        best = max(chance.values())
        return [h for h in hqs if chance[h] >= best - 1e-9]

    def targets(self) -> frozenset[int]:
        """Where to head for: the enemy HQ (Gunjin), its headquarters likeliest to hold
        the flag (Classic), a face-up enemy flag or else the enemy pieces one of ours
        surely beats (Blind)."""
        rules = self.rules
        if rules.occupation:
            return frozenset(rules.board.hqs[self.them])
        if rules.flag_in_hq:
            return frozenset(self.likely_flag_hqs())
        flags = [s for s, odds in self.theirs.items() if rules.flag in odds]
        if flags:
            return frozenset(flags)
        prey = [
            s
            for s, odds in self.theirs.items()
            if any(self.attack_odds(k, odds)[0] == 1.0 for k in self.mine.values())
        ]
        return frozenset(prey)

    def value_of(self, odds: dict[int, float]) -> float:
        values = self.rules.values
        return sum(p * values[k] for k, p in odds.items())


# --- the Player protocol ----------------------------------------------------------------------


class Bot:
    """The Player protocol for a bot; subclasses set `level` and write `pick` (and may
    write `layout`)."""

    level = "bot"
    salt = 0
    tracker_class: type[Tracker] = Tracker  # how this bot keeps its record of enemy pieces

    def __init__(self, variant: Variant | str, player: int, seed: int = 0) -> None:
        if isinstance(variant, str):
            variant = find_variant(variant)
        self.rules = rules_for(variant)
        self.player = player
        self.seed = seed
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
        best = self.pick(picture, [board.move_code.split(m) for m in moves], rng)
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

    @staticmethod
    def mined_flag(builder: LayoutBuilder, rng: random.Random) -> tuple[int, list[int]]:
        """Classic: the flag in a headquarters (either, by chance) with a landmine on every
        gate; returns the flag's post and its gates."""
        flag = builder.put_best(pc.FLAG, lambda s: 0.0, rng)
        gates = list(builder.rules.board.neighbours[flag])
        for gate in gates:
            builder.put(pc.LANDMINE, gate)
        return flag, gates

    def _follow(self, view: dict) -> Tracker | None:
        if self.rules.flips:
            return None  # face-up pieces are public, face-down ones nobody knows
        tracker = self._tracker
        if tracker is None or not tracker.follow(view["history"]):
            tracker = self.tracker_class(self.rules, self.player)
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
        hqs = rules.board.hqs[self.player] if rules.hq_trap else ()
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
