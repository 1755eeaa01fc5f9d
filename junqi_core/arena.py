"""Seeded matches between players: `python -m junqi_core arena ...` (CPython only).

Anything `players.make_player` makes can play (the levels, `random`, the gauntlet bots),
and so can a class named `module:Name` (made as `Name(variant, seat, seed)`), which is
how two versions of a level are pitted against each other.  Players get only
`views.view` and `views.event`, exactly as in the page.

**Paired deals** (`run_pairs`, the default).  Deal k uses seed `seed * 100_003 + k` and
is played twice with the seats swapped.  Classic and Gunjin: in the first game each
player deploys its own layout; in the second the layouts stay on their seats and the
players change seats, so each player plays both layouts from both sides (in the second
game nobody is asked to deploy: a player finds its layout in its view).  Blind: both
games are dealt from the same shuffle seed.  A player's seed depends on the deal and
the seat only, so a player against itself plays the second game as a mirror of the
first.  A has the first seat in the first game of even deals, the second in odd ones.
The pair, not the game, is the independent unit: the score's interval and the SPRT
(pentanomial) are computed over pair scores.

**Unpaired games** (`run`): game i uses seed `seed * 100_003 + i`, A takes seat i % 2
and each player deploys its own layout (how docs/strength.md's tables were measured).

`--jobs` uses multiprocessing, imported only here and only when asked for; results
are the same with any number of jobs (an SPRT stops at the same pair).

Think time is CPU time of the process (`time.process_time`, which other programs on
the machine do not inflate) and wall time.  In the arena the players' wall-clock safety
cap is driven by the CPU clock for the same reason; in the page it is wall time.
"""

from __future__ import annotations

import importlib
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from junqi_core import pieces as pc
from junqi_core.game import PLAY, SETUP, Game
from junqi_core.notation import move_text
from junqi_core.pieces import KIND_MASK
from junqi_core.players import make_player
from junqi_core.record import export_record, layout_from_json
from junqi_core.variants import find_variant
from junqi_core.views import event, view

MAX_PLIES = 5000
# The summary counts the early loss of the Variant's top pieces (issue 35: Hard's Marshal
# and General, Gunjin's Army General, lost before ply EARLY for less than they are worth)
EARLY = 30


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal (or unpaired game) `index` of a match."""
    return seed * 100_003 + index


def seat_name(name: str, seat: int) -> str:
    """The player of a side's `name` for `seat`: with four seats, `first+second` makes a
    mixed team (`hard+easy`: the first plays the team's seat 0 or 1, the second its
    partner's, seat 2 or 3); a plain name plays both seats of its team."""
    first, plus, second = name.partition("+")
    if not plus:
        return name
    return first if seat < 2 else second


def new_player(variant: str, name: str, seat: int, seed: int):
    """A player by level name, or by `module:Name` for a class outside the registry; a
    mixed team's name (`hard+easy`, four seats only) gives the player of `seat`."""
    if "+" in name:
        if find_variant(variant).seats <= 2:
            raise ValueError(f"a team {name} needs a game of four seats")
        if any(not part for part in name.split("+")) or name.count("+") != 1:
            raise ValueError(f"a team is two players joined by +, as hard+easy: not {name}")
        name = seat_name(name, seat)
    if ":" in name:
        module, _, attr = name.partition(":")
        return getattr(importlib.import_module(module), attr)(variant, seat, seed)
    return make_player(variant, name, seat, seed)


# --- playing -------------------------------------------------------------------------------


def play_game(
    variant: str,
    levels: tuple[str, str],
    seed: int,
    index: int,
    a_seat: int | None = None,
    layouts: list | None = None,
    record: bool = False,
) -> dict:
    """One game; levels[0] is side A, in seat `a_seat` (default index % 2; with four
    seats, A is the team of that seat: both its seats).  `layouts`: the layout of each
    seat (Classic, Gunjin, Siguo), else the players deploy their own.  Returns the result,
    think times per side and the seats' layouts (and the record)."""
    game_seed = deal_seed(seed, index)
    if a_seat is None:
        a_seat = index % 2
    game = Game(variant, seed=game_seed)
    seats = range(game.seats)
    side = [0 if s % 2 == a_seat else 1 for s in seats]  # 0: A, 1: B (a team plays s, s + 2)
    players = {
        s: new_player(variant, levels[side[s]], s, game_seed * game.seats + s) for s in seats
    }
    for player in players.values():
        if hasattr(player, "clock"):
            # the safety cap counts this process's CPU time, so that other programs
            # running on the machine do not change which moves are played
            player.clock = time.process_time
    if game.phase == SETUP:
        for s in seats:
            if layouts is not None:
                game.deploy(s, layouts[s])
            else:
                game.deploy(s, layout_from_json(game, players[s].deploy(view(game, s))))
    times: dict[int, list[float]] = {0: [], 1: []}  # per side
    cpu_times: dict[int, list[float]] = {0: [], 1: []}
    while game.phase == PLAY and game.position.ply < MAX_PLIES:
        seat = game.turn
        legal = [move_text(game.board_spec, m) for m in game.legal_moves()]
        v = view(game, seat)
        t0, c0 = time.perf_counter(), time.process_time()
        choice = players[seat].choose(v, legal)
        times[side[seat]].append(time.perf_counter() - t0)
        cpu_times[side[seat]].append(time.process_time() - c0)
        entry = game.apply(seat, choice)
        for s in seats:
            players[s].observe(event(game, entry, s))
    result = game.result
    winner = None if result is None else result.winner
    score_a = 0.5 if winner is None else float(winner == a_seat)
    out = {
        "index": index,
        "a_seat": a_seat,
        "score_a": score_a,
        "reason": "unfinished" if result is None else result.reason,
        "plies": game.position.ply,
        "times_a": times[0],
        "times_b": times[1],
        "cpu_a": cpu_times[0],
        "cpu_b": cpu_times[1],
        "layouts": [None if lay is None else dict(lay) for lay in game.layouts],
    }
    if game.variant.has_flips:
        out["first_flag"] = first_flag(game, a_seat)
    lost = early_losses(game)
    out["early_a"] = [x for s in seats if side[s] == 0 for x in lost[s]]
    out["early_b"] = [x for s in seats if side[s] == 1 for x in lost[s]]
    if record:
        out["record"] = export_record(game)
    return out


def play_pair(
    variant: str, levels: tuple[str, str], seed: int, index: int, record: bool = False
) -> dict:
    """Deal `index` played twice, seats swapped, layouts (Blind: the deal) kept on their
    seats.  Returns {"index", "games": [first, second], "score": A's mean score}."""
    a_first = index % 2
    first = play_game(variant, levels, seed, index, a_first, None, record)
    # the layouts stay on their seats (Blind has none: the same seed deals the same board)
    second = play_game(variant, levels, seed, index, 1 - a_first, first["layouts"], record)
    return {
        "index": index,
        "games": [first, second],
        "score": (first["score_a"] + second["score_a"]) / 2,
    }


def first_flag(game: Game, a_seat: int) -> str:
    """Blind: whose flag was turned face up first and by whom ("A's flag, turned up by
    B"), or "none".  It decides most Blind games (see docs/strength.md)."""
    flag_kind = game.position_class.flag_kind
    side = {a_seat: "A", 1 - a_seat: "B"}
    for entry in game.history:
        flipped = entry.extra.get("flipped", 0)  # the piece a flip showed (Game._play)
        if flipped & KIND_MASK == flag_kind:
            owner = game.position.piece_owner(flipped)
            if owner is not None:
                return f"{side[owner]}'s flag, turned up by {side[entry.player]}"
    return "none"


def early_losses(game: Game, before: int = EARLY) -> list[list[str]]:
    """Per seat, the top pieces (`Variant.top_kinds`) it lost before ply `before` for less than
    they are worth: the same combat removed no enemy piece of their rank or higher (a
    Bomb, a mine, a Spy or a stronger piece took them).  Each as "ply: kind by kind"."""
    kinds = {k.kind: k for k in game.variant.kinds}
    top = game.variant.top_kinds
    out: list[list[str]] = [[] for _ in range(game.seats)]
    for entry in game.history:
        if entry.ply >= before:
            break
        if not entry.result:
            continue
        if entry.result == pc.ATTACKER_WINS:
            losses = [(entry.target, entry.mover)]
        elif entry.result == pc.DEFENDER_WINS:
            losses = [(entry.mover, entry.target)]
        else:
            losses = [(entry.mover, entry.target), (entry.target, entry.mover)]
        for lost, other in losses:
            kind = lost & KIND_MASK
            if kind not in top:
                continue
            removed = entry.result == pc.BOTH_REMOVED
            rank = kinds[other & KIND_MASK].rank
            if removed and rank is not None and rank >= (kinds[kind].rank or 0):
                continue
            owner = game.position.piece_owner(lost)
            if owner is not None:
                out[owner].append(f"{entry.ply}: {kinds[kind].id} by {kinds[other & KIND_MASK].id}")
    return out


def _game_job(args: tuple) -> dict:
    return play_game(*args)


def _pair_job(args: tuple) -> dict:
    return play_pair(*args)


def _ordered(job: Callable, tasks: list[tuple], jobs: int) -> Iterable[dict]:
    """Results in task order, from `jobs` processes (stops early if the caller does)."""
    if jobs <= 1:
        for t in tasks:
            yield job(t)
        return
    import multiprocessing  # CPython only; never imported inside the page

    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(job, tasks)


def run(variant: str, a: str, b: str, games: int, seed: int, jobs: int = 1, progress=None):
    """Unpaired games, sides alternating (see the module docstring)."""
    tasks = [(variant, (a, b), seed, i) for i in range(games)]
    results = []
    for r in _ordered(_game_job, tasks, jobs):
        results.append(r)
        if progress:
            progress(r, len(results))
    return results


def run_pairs(
    variant: str,
    a: str,
    b: str,
    pairs: int,
    seed: int,
    jobs: int = 1,
    progress=None,
    sprt: Sprt | None = None,
) -> list[dict]:
    """Paired deals 0 .. pairs-1, in order; with `sprt`, stops at the first pair after
    which the test decides."""
    tasks = [(variant, (a, b), seed, i) for i in range(pairs)]
    results = []
    stream = _ordered(_pair_job, tasks, jobs)
    try:
        for r in stream:
            results.append(r)
            if sprt is not None:
                sprt.add_pair(r)
            if progress:
                progress(r, len(results))
            if sprt is not None and sprt.decision() is not None:
                break
    finally:
        stream.close()  # stops the worker processes of an SPRT that has decided
    return results


# --- statistics ----------------------------------------------------------------------------


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    k = max(0, min(len(s) - 1, math.ceil(q * len(s)) - 1))
    return s[k]


def mean_interval(xs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and a normal 95% interval (mean +- z * standard error), clipped to [0, 1].
    With fewer than two values there is no standard error: the interval is [0, 1]."""
    n = len(xs)
    if not n:
        return 0.0, 0.0, 1.0
    if n == 1:
        return xs[0], 0.0, 1.0
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def elo(score: float) -> float:
    """Logistic Elo difference of a score (+-inf at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected_score(elo_diff: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo_diff / 400.0))


def _constrained_mle(pdf: list[tuple[float, float]], s: float) -> list[float]:
    """The distribution on the same outcomes closest in likelihood to the empirical
    `pdf` [(score, frequency)] whose mean is `s`: q_i = p_i / (1 + x (a_i - s)), with x
    the root of sum p_i (a_i - s) / (1 + x (a_i - s)) = 0 (found by bisection; the
    left side falls as x grows)."""
    lo_a = min(a for a, _ in pdf)
    hi_a = max(a for a, _ in pdf)
    lo, hi = -1.0 / (hi_a - s), 1.0 / (s - lo_a)

    def f(x: float) -> float:
        return sum(p * (a - s) / (1.0 + x * (a - s)) for a, p in pdf)

    span = hi - lo
    lo, hi = lo + 1e-12 * span, hi - 1e-12 * span
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    return [p / (1.0 + x * (a - s)) for a, p in pdf]


def llr(counts: list[int], elo0: float, elo1: float) -> float:
    """Generalised log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) for
    outcome counts: 3 of them (losses, draws, wins of games: trinomial) or 5 (pairs
    scoring 0, 1/2, 1, 3/2, 2 points: pentanomial).  Empty outcomes get a tiny count
    so that the likelihoods stay defined (as the chess engine testers' GSPRT does)."""
    k = len(counts)
    if k not in (3, 5):
        raise ValueError("counts: 3 (trinomial) or 5 (pentanomial) numbers")
    regular = [c if c > 0 else 1e-3 for c in counts]
    n = sum(regular)
    pdf = [(i / (k - 1), c / n) for i, c in enumerate(regular)]
    s0, s1 = expected_score(elo0), expected_score(elo1)
    q0, q1 = _constrained_mle(pdf, s0), _constrained_mle(pdf, s1)
    return n * sum(p * math.log(b / a) for (_, p), a, b in zip(pdf, q0, q1, strict=True))


@dataclass
class Sprt:
    """A sequential probability ratio test (GSPRT) that A's Elo over B is elo1 (H1)
    rather than elo0 (H0), at error rates alpha (accepting H1 wrongly) and beta
    (accepting H0 wrongly).  Pentanomial on pairs, or trinomial on games."""

    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "pentanomial"
    counts: list[int] = field(init=False)  # outcome counts so far (see `llr`)

    def __post_init__(self) -> None:
        if self.model not in ("pentanomial", "trinomial"):
            raise ValueError("model: pentanomial or trinomial")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.elo0 < self.elo1):
            raise ValueError("need 0 < alpha, beta < 1 and elo0 < elo1")
        self.counts = [0] * (5 if self.model == "pentanomial" else 3)

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): below the lower H0 is accepted, above the upper H1."""
        return (
            math.log(self.beta / (1 - self.alpha)),
            math.log((1 - self.beta) / self.alpha),
        )

    def add_pair(self, pair: dict) -> None:
        games = pair["games"]
        if self.model == "pentanomial":
            self.counts[round(2 * sum(g["score_a"] for g in games))] += 1
        else:
            for g in games:
                self.add_game(g["score_a"])

    def add_game(self, score_a: float) -> None:
        if self.model != "trinomial":
            raise ValueError("games are counted by the trinomial model")
        self.counts[round(2 * score_a)] += 1

    def llr(self) -> float:
        return llr(self.counts, self.elo0, self.elo1) if sum(self.counts) else 0.0

    def decision(self) -> str | None:
        """ "H1" (A is elo1 better), "H0" (it is not better than elo0), or None."""
        value = self.llr()
        lower, upper = self.bounds
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None

    def describe(self) -> str:
        lower, upper = self.bounds
        near = "A's Elo over B is nearer {} = {:g} than {} = {:g}"
        verdict = {
            "H1": "H1 accepted: " + near.format("elo1", self.elo1, "elo0", self.elo0),
            "H0": "H0 accepted: " + near.format("elo0", self.elo0, "elo1", self.elo1),
            None: "no decision yet",
        }[self.decision()]
        unit = "pairs" if self.model == "pentanomial" else "games (L/D/W)"
        return (
            f"  sprt ({self.model}) elo0 {self.elo0:g} elo1 {self.elo1:g} alpha "
            f"{self.alpha:g} beta {self.beta:g}: LLR {self.llr():.2f} "
            f"(bounds {lower:.2f}, {upper:.2f}), {unit} {self.counts}: {verdict}"
        )


# --- reports -----------------------------------------------------------------------------


def games_of(results: list[dict]) -> list[dict]:
    """The games of paired results (each pair's two), or unpaired games as they are."""
    if results and "games" in results[0]:
        return [g for r in results for g in r["games"]]
    return results


def stats(results: list[dict]) -> dict:
    """Counts, A's score and its interval (over pair scores when paired), think times."""
    games = games_of(results)
    paired = bool(results) and "games" in results[0]
    units = [r["score"] for r in results] if paired else [g["score_a"] for g in games]
    score, lo, hi = mean_interval(units)
    out = {
        "paired": paired,
        "pairs": len(results) if paired else 0,
        "games": len(games),
        "wins": sum(1 for g in games if g["score_a"] == 1.0),
        "draws": sum(1 for g in games if g["score_a"] == 0.5),
        "losses": sum(1 for g in games if g["score_a"] == 0.0),
        "score": score,
        "low": lo,
        "high": hi,
    }
    for side in ("a", "b"):
        cpu = [t for g in games for t in g[f"cpu_{side}"]]
        out[f"cpu_{side}"] = {
            "moves": len(cpu),
            "mean": sum(cpu) / len(cpu) if cpu else 0.0,
            "p95": percentile(cpu, 0.95),
            "max": max(cpu, default=0.0),
        }
    return out


def _elo_text(score: float) -> str:
    value = elo(score)
    if not math.isfinite(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value) or 0:+d}"


def summary(
    variant: str, a: str, b: str, seed: int, results: list[dict], sprt: Sprt | None = None
) -> str:
    st = stats(results)
    games = games_of(results)
    if st["paired"]:
        head = (
            f"arena {variant}: A={a} vs B={b}, {st['pairs']} pairs ({st['games']} games), "
            f"seed {seed} (paired deals: each deal twice, seats swapped)"
        )
        unit = f"over {st['pairs']} pair scores"
    else:
        head = (
            f"arena {variant}: A={a} vs B={b}, {st['games']} games, seed {seed} (sides alternate)"
        )
        unit = f"over {st['games']} games"
    lines = [
        head,
        f"  A wins {st['wins']}, draws {st['draws']}, losses {st['losses']}",
        f"  score A {100 * st['score']:.1f}% (95% interval {100 * st['low']:.1f}% "
        f"- {100 * st['high']:.1f}%, {unit}), Elo {_elo_text(st['score'])} "
        f"({_elo_text(st['low'])} .. {_elo_text(st['high'])})",
    ]
    if st["paired"]:
        points = Counter(round(2 * sum(g["score_a"] for g in r["games"])) for r in results)
        lines.append(
            "  pairs by A's points of 2: " + ", ".join(f"{p / 2:g}: {points[p]}" for p in range(5))
        )
        teams = find_variant(variant).seats > 2
        for seat in (0, 1):
            row = [g["score_a"] for g in games if g["a_seat"] == seat]
            if row:
                w, d = row.count(1.0), row.count(0.5)
                where = ("as team S+N", "as team E+W")[seat] if teams else f"in seat {seat}"
                lines.append(
                    f"  A {where}: {len(row)} games, W/D/L {w}/{d}/{len(row) - w - d}, "
                    f"score {100 * sum(row) / len(row):.1f}%"
                )
    endings: dict[str, Counter] = {}
    for g in games:
        who = {1.0: "A", 0.0: "B", 0.5: "draw"}[g["score_a"]]
        endings.setdefault(g["reason"], Counter())[who] += 1
    lines.append(
        "  endings: "
        + "; ".join(
            f"{reason} {sum(c.values())} ("
            + ", ".join(f"{who} {c[who]}" for who in ("A", "B", "draw") if c[who])
            + ")"
            for reason, c in sorted(endings.items())
        )
    )
    early = [(len(g.get("early_a", ())), len(g.get("early_b", ()))) for g in games]
    lines.append(
        f"  top pieces lost for less before ply {EARLY}: A {sum(a for a, _ in early)} "
        f"(in {sum(1 for a, _ in early if a)} games), B {sum(b for _, b in early)} "
        f"(in {sum(1 for _, b in early if b)} games)"
    )
    plies = [g["plies"] for g in games]
    lines.append(f"  plies mean {sum(plies) / max(1, len(plies)):.0f}, max {max(plies, default=0)}")
    flags: dict[str, list[int]] = {}
    for g in games:
        if "first_flag" in g:
            row = flags.setdefault(g["first_flag"], [0, 0, 0])
            row[{1.0: 0, 0.5: 1, 0.0: 2}[g["score_a"]]] += 1
    if flags:
        lines.append("  first flag turned up               games   A wins  draws  losses")
        for name, (w, d, lo) in sorted(flags.items()):
            lines.append(f"    {name:<32} {w + d + lo:>5} {w:>8} {d:>6} {lo:>7}")
    for side, level in (("a", a), ("b", b)):
        for kind, label in (("cpu", "cpu "), ("times", "wall")):
            ts = [t for g in games for t in g[f"{kind}_{side}"]]
            if ts:
                mean_t = sum(ts) / len(ts)
                lines.append(
                    f"  think {label} {side.upper()}={level:<13} moves {len(ts):>6}"
                    f"  mean {mean_t:.4f} s  p95 {percentile(ts, 0.95):.4f} s"
                    f"  max {max(ts):.4f} s"
                )
    if sprt is not None:
        lines.append(sprt.describe())
    return "\n".join(lines)
