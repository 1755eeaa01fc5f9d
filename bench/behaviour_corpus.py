"""The behaviour model's corpus and tables: seeded Classic games between many players.

    python3 bench/behaviour_corpus.py build [--games 4] [--seed 45] [--hard-games 2]
    python3 bench/behaviour_corpus.py learn [--exclude bot_reply]   # writes the tables

`build` plays, for every ordered pair of players (every gauntlet bot, random, Easy and
Medium; self-play included), `--games` games with seeds `deal_seed(seed, i)`, the first
named player in seat 0, each player deploying its own layout; plus `--hard-games` games of
Hard against other players (Hard is slow).  Each game is stored as the players' names,
the seats' layouts and the events each seat saw (`views.event`, exactly what a player
gets), one JSON line per game, gzipped (`--out`, default build/behaviour_corpus.jsonl.gz).
The same seed builds the same corpus.

`learn` replays every game through each seat's `Tracker` and counts, every `EVERY` plies,
each enemy piece's behaviour codes (`junqi_core.ai.behaviour`) against its true kind, and
each piece's start post once per game.  Then it fits the weight of each factor of the
model's product, per group of kinds, leaving one player out at a time: each player's
pieces (every `KEEP`-th observation) are judged by tables counted without any of its
games, and the weights are those with the least log-loss over all players' pieces (so a
factor counts only as far as it holds for players the tables never saw).  It writes
junqi_core/ai/behaviour_tables.py (`--exclude NAME`: without any game NAME played, for a
held-out measurement; `--tables -` prints instead of writing).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import pprint
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from junqi_core.ai.behaviour import (
    CODES,
    COMPONENTS,
    GROUP_OF,
    GROUPS,
    PLY_EDGES,
    POSTS,
    SQUARES,
    BehaviourModel,
    features,
)
from junqi_core.ai.belief import Tracker
from junqi_core.ai.tables import kinds_of, tables_for
from junqi_core.arena import MAX_PLIES, deal_seed, new_player
from junqi_core.bots import BOTS
from junqi_core.game import PLAY, SETUP, Game
from junqi_core.notation import move_text
from junqi_core.record import layout_from_json
from junqi_core.views import event, view

ROOT = Path(__file__).resolve().parent.parent
VARIANT = "classic"
PLAYERS = (*BOTS, "random", "easy", "medium")
HARD_OPPONENTS = ("bot_reply", "bot_heuristic", "medium", "bot_turtle", "easy", "bot_rusher")
EVERY = 6  # plies between two observations of a game
DEFAULT_OUT = ROOT / "build" / "behaviour_corpus.jsonl.gz"
TABLES = ROOT / "junqi_core" / "ai" / "behaviour_tables.py"
WEIGHT_GRID = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0)
KEEP = 24  # the weights are fitted on every KEEP-th observation of a piece


def play_recorded(names: tuple[str, str], seed: int, index: int) -> dict:
    """One game of Classic, names[0] in seat 0: layouts and the events each seat saw."""
    game_seed = deal_seed(seed, index)
    game = Game(VARIANT, seed=game_seed)
    players = [new_player(VARIANT, names[s], s, game_seed * 2 + s) for s in (0, 1)]
    assert game.phase == SETUP
    for s in (0, 1):
        game.deploy(s, layout_from_json(game, players[s].deploy(view(game, s))))
    events: list[list[dict]] = [[], []]
    while game.phase == PLAY and game.position.ply < MAX_PLIES:
        seat = game.turn
        legal = [move_text(game.board_spec, m) for m in game.legal_moves()]
        entry = game.apply(seat, players[seat].choose(view(game, seat), legal))
        for s in (0, 1):
            ev = event(game, entry, s)
            events[s].append(ev)
            players[s].observe(ev)
    names_of = game.board_spec.names
    ids = tables_for(VARIANT).kind_ids
    result = game.result
    return {
        "players": list(names),
        "seed": seed,
        "index": index,
        "plies": game.position.ply,
        "winner": None if result is None else result.winner,
        "layouts": [{names_of[s]: ids[k] for s, k in sorted(lay.items())} for lay in game.layouts],
        "events": events,
    }


def schedule(games: int, hard_games: int) -> list[tuple[str, str]]:
    """The pairings in order (index i of the corpus plays pairs[i])."""
    pairs = [(a, b) for a in PLAYERS for b in PLAYERS for _ in range(games)]
    for i in range(hard_games):
        other = HARD_OPPONENTS[i // 2 % len(HARD_OPPONENTS)]
        pairs.append(("hard", other) if i % 2 == 0 else (other, "hard"))
    return pairs


def build(out: Path, games: int, seed: int, hard_games: int, limit: int | None) -> None:
    pairs = schedule(games, hard_games)[:limit]
    out.parent.mkdir(parents=True, exist_ok=True)
    start = time.process_time()
    with gzip.open(out, "wt", encoding="utf-8") as f:
        for i, names in enumerate(pairs):
            t0 = time.process_time()
            rec = play_recorded(names, seed, i)
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            print(
                f"{i + 1}/{len(pairs)} {names[0]} v {names[1]}: {rec['plies']} plies,"
                f" {time.process_time() - t0:.1f} s",
                file=sys.stderr,
            )
    spent = time.process_time() - start
    print(f"{len(pairs)} games in {spent:.0f} CPU s ({60 * len(pairs) / spent:.0f} games/min)")


def read_corpus(path: Path) -> Iterator[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def observations(
    rec: dict, seat: int, plies: Iterable[int] | None = None
) -> Iterator[tuple[int, Tracker, dict[int, int]]]:
    """Replays the game through seat `seat`'s Tracker: yields (ply, tracker, truth: enemy
    identity -> kind) at each observation ply (default every EVERY plies, and the end).
    The tracker is live: read it before the next yield."""
    t = tables_for(VARIANT)
    index = t.board.index
    enemy = 1 - seat
    truth = {index[name]: t.kind_by_id[kind] for name, kind in rec["layouts"][enemy].items()}
    tracker = Tracker(VARIANT, seat)
    wanted = set(plies) if plies is not None else None
    evs = rec["events"][seat]
    for ply in range(len(evs) + 1):
        take = (ply % EVERY == 0 and ply > 0) or ply == len(evs)
        if wanted is not None:
            take = ply in wanted
        if take:
            tracker.ply = ply
            yield ply, tracker, truth
        if ply < len(evs):
            tracker._apply(evs[ply])


def count(recs: Iterable[dict]) -> dict:
    """The model's counts from these games: every EVERY plies each enemy piece's codes
    against its true kind (seen from both seats), and each piece's start post once."""
    t = tables_for(VARIANT)
    kinds = sorted(t.kinds)
    n_pb = len(PLY_EDGES) + 1
    codes = {
        name: [{k: [0] * size for k in kinds} for _ in range(n_pb)] for name, size in CODES.items()
    }
    posts = {k: [0] * SQUARES for k in kinds}
    for rec in recs:
        for seat in (0, 1):
            for _ply, tracker, truth in observations(rec, seat):
                for e, (pb, _post, cs) in features(tracker, tracker.ply).items():
                    k = truth[e]
                    for name, v in zip(CODES, cs, strict=True):
                        codes[name][pb][k][v] += 1
            acts = Tracker(VARIANT, seat).acts
            assert acts is not None
            for name, kind in rec["layouts"][1 - seat].items():
                posts[t.kind_by_id[kind]][acts.start_post(t.board.index[name])] += 1
    return {
        "codes": {
            name: [{k: row[k] for k in kinds} for row in tabs] for name, tabs in codes.items()
        },
        "posts": posts,
    }


Sample = tuple[int, list[tuple[int, float, list[float]]]]  # true kind, (kind, log count, parts)


def judged(recs: Iterable[dict], player: str, model: BehaviourModel, keep: int) -> list[Sample]:
    """Every `keep`-th observation of `player`'s pieces in its games: its true kind and,
    per kind the tracker's facts leave it (`Tracker.domains`: the deployment rules, its
    moves, every combat), the log count of that kind and the model's factors."""
    t = tables_for(VARIANT)
    out: list[Sample] = []
    n = 0
    for rec in recs:
        for seat in (0, 1):
            if rec["players"][1 - seat] != player:
                continue
            for _ply, tracker, truth in observations(rec, seat):
                domains = None
                for e, (pb, post, cs) in features(tracker, tracker.ply).items():
                    n += 1
                    if n % keep:
                        continue
                    if domains is None:
                        domains = tracker.domains()
                    mask = domains[e]
                    if not (mask >> truth[e]) & 1:
                        continue  # facts the replay does not follow (see `observations`)
                    options = [
                        (k, math.log(t.counts[k]), model.components(pb, post, cs, k))
                        for k in kinds_of(mask)
                    ]
                    out.append((truth[e], options))
    return out


def loss(samples: list[Sample], weights: Sequence[Sequence[float]]) -> float:
    """Mean log-loss of the true kind, each piece judged alone (counts times likelihood);
    `weights[group][factor]`."""
    total = 0.0
    for true, options in samples:
        logs = []
        mine = 0.0
        for k, base, parts in options:
            v = base
            for w, c in zip(weights[GROUP_OF.get(k, 3)], parts, strict=True):
                if w:
                    v += w * c
            logs.append(v)
            if k == true:
                mine = v
        top = max(logs)
        total += top + math.log(sum(math.exp(v - top) for v in logs)) - mine
    return total / max(1, len(samples))


def fit_weights(recs: list[dict], posts: str, keep: int = KEEP) -> tuple[dict, dict]:
    """The weights of COMPONENTS per group of kinds that judge each player's pieces best
    from tables learned without that player's games (leave one player out; coordinate
    descent over WEIGHT_GRID from all zero, two passes).  Returns them (by factor: one
    per group) and the log-losses (all zero, fitted)."""
    players = sorted({p for rec in recs for p in rec["players"]})
    samples: list[Sample] = []
    flat = {name: (1.0,) * len(GROUPS) for name in COMPONENTS}
    for player in players:
        others = [rec for rec in recs if player not in rec["players"]]
        model = BehaviourModel(count(others), flat, posts)
        mine = [rec for rec in recs if player in rec["players"]]
        samples.extend(judged(mine, player, model, keep))
    weights = [[0.0] * len(COMPONENTS) for _ in GROUPS]
    start = best = loss(samples, weights)
    for _ in range(2):
        for g in range(len(GROUPS)):
            for j in range(len(COMPONENTS)):
                for w in WEIGHT_GRID:
                    trial = [list(row) for row in weights]
                    trial[g][j] = w
                    value = loss(samples, trial)
                    if value < best - 1e-6:
                        best, weights = value, trial
    fitted = {
        name: tuple(weights[g][j] for g in range(len(GROUPS))) for j, name in enumerate(COMPONENTS)
    }
    return fitted, {"samples": len(samples), "zero": round(start, 4), "fitted": round(best, 4)}


def learn(
    corpus: Iterable[dict], exclude: set[str], posts: str = POSTS
) -> tuple[dict, dict[str, float], dict]:
    """Counts from every game none of `exclude` played, and weights fitted on the same
    games leaving one player out at a time (with the fit's log-losses)."""
    recs = [rec for rec in corpus if not exclude & set(rec["players"])]
    weights, info = fit_weights(recs, posts)
    return count(recs), weights, info


def write_tables(counts: dict, weights: dict, note: str, path: Path | None) -> None:
    body = pprint.pformat(counts, width=100, compact=True)
    text = (
        '"""The behaviour model\'s counts (`behaviour.BehaviourModel`): written by\n'
        f'`python3 bench/behaviour_corpus.py learn`\n({note})."""\n\n'
        "# fmt: off\n"
        f"# the weight of each factor, per group of kinds {GROUPS}\n"
        f"WEIGHTS: dict[str, tuple[float, ...]] = {pprint.pformat(weights, width=90)}\n\n"
        f"COUNTS: dict = {body}\n"
        "# fmt: on\n"
    )
    if path is None:
        print(text)
    else:
        path.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["build", "learn"])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the corpus file")
    parser.add_argument("--games", type=int, default=4, help="games per ordered pair")
    parser.add_argument("--hard-games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=45)
    parser.add_argument("--limit", type=int, default=None, help="only the first N games")
    parser.add_argument("--exclude", default="", help="players whose games are left out")
    parser.add_argument("--tables", default=str(TABLES), help="where to write ('-': print)")
    args = parser.parse_args(argv)
    if args.step == "build":
        build(args.out, args.games, args.seed, args.hard_games, args.limit)
        return 0
    exclude = {x for x in args.exclude.split(",") if x}
    t0 = time.process_time()
    counts, weights, info = learn(read_corpus(args.out), exclude)
    print(f"weights {weights}, fit {info}", file=sys.stderr)
    note = f"corpus {args.out.name}" + (f", without {sorted(exclude)}" if exclude else "")
    write_tables(counts, weights, note, None if args.tables == "-" else Path(args.tables))
    print(f"learned in {time.process_time() - t0:.0f} CPU s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
