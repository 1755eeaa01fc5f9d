"""Helpers for the CPU-player tests (no tests here): games with chosen layouts, replays
with other hidden pieces, and walks over a player's attributes."""

from __future__ import annotations

import random

from junqi_core.ai.tables import tables_for
from junqi_core.deployment import Layout
from junqi_core.game import PLAY, Game
from junqi_core.variants import Variant, find_variant
from junqi_core.views import view


def layout_with(
    variant: Variant | str, player: int, wishes: dict[str, str], seed: int = 0
) -> Layout:
    """A legal layout holding the wished kinds ({square name: kind id}) on those squares."""
    if isinstance(variant, str):
        variant = find_variant(variant)
    rules = variant.deployment
    assert rules is not None
    board = rules.board
    kinds = tables_for(variant).kind_by_id
    for attempt in range(200):
        layout = rules.random_layout(player, random.Random(seed * 1000 + attempt))
        for name, kind_id in wishes.items():
            square, kind = board.index[name], kinds[kind_id]
            if layout[square] == kind:
                continue
            other = next(
                s for s, k in sorted(layout.items()) if k == kind and board.names[s] not in wishes
            )
            layout[other], layout[square] = layout[square], kind
        try:
            rules.validate(player, layout)
        except ValueError:
            continue
        if all(layout[board.index[n]] == kinds[k] for n, k in wishes.items()):
            return layout
    raise AssertionError(f"no legal layout with {wishes}")


def game_with(variant: Variant | str, layouts: tuple[Layout, Layout], seed: int = 0) -> Game:
    game = Game(variant, seed=seed)
    for player in (0, 1):
        game.deploy(player, layouts[player])
    return game


def play(game: Game, actions: list[str]) -> Game:
    for action in actions:
        game.apply(game.turn, action)
    return game


def replay(game: Game, layouts: tuple[Layout, Layout] | None = None, board=None) -> Game | None:
    """The same actions from other hidden pieces (layouts, or a Blind start board);
    None when an action is no longer legal."""
    other = Game(game.variant, seed=game.seed)
    if layouts is not None:
        for player in (0, 1):
            other.deploy(player, layouts[player])
    if board is not None:
        other.position.board[:] = board
    try:
        for action in game.actions_text():
            if other.phase != PLAY:
                return None
            other.apply(other.turn, action)
    except ValueError:
        return None
    return other


def start_board(game: Game) -> list[int]:
    """The Blind starting board of a game (before any flip)."""
    return list(Game(game.variant, seed=game.seed).position.board)


def hidden_twins(game: Game, me: int, rng: random.Random, wanted: int, tries: int = 400):
    """Games whose view for `me` is identical to `game`'s but whose hidden pieces differ."""
    mine = view(game, me)
    out = []
    if game.variant.has_flips:  # Blind: the face-down pieces are dealt, not deployed
        down = [s for s, p in enumerate(game.position.board) if p & 64]
        for _ in range(tries):
            if len(out) >= wanted or len(down) < 2:
                break
            board = start_board(game)
            order = list(down)
            rng.shuffle(order)
            for s, t in zip(down, order, strict=True):
                board[t] = start_board(game)[s]
            twin = replay(game, board=board)
            if twin and twin.position.board != game.position.board and view(twin, me) == mine:
                out.append(twin)
        return out
    enemy = 1 - me
    rules = game.variant.deployment
    assert rules is not None
    for _ in range(tries):
        if len(out) >= wanted:
            break
        layout = dict(game.layouts[enemy])
        for _ in range(rng.randint(1, 3)):
            a, b = rng.sample(sorted(layout), 2)
            layout[a], layout[b] = layout[b], layout[a]
        try:
            rules.validate(enemy, layout)
        except ValueError:
            continue
        layouts = (layout, game.layouts[1]) if enemy == 0 else (game.layouts[0], layout)
        twin = replay(game, layouts)
        if twin and twin.position.board != game.position.board and view(twin, me) == mine:
            out.append(twin)
    return out


def reachable(obj, seen=None):
    """Every object reachable from obj through attributes and containers."""
    seen = {} if seen is None else seen
    stack = [obj]
    while stack:
        x = stack.pop()
        if id(x) in seen or isinstance(x, (type, type(random))):
            continue
        seen[id(x)] = x
        if callable(x) and not hasattr(x, "__dict__") and not hasattr(x, "__self__"):
            continue
        if hasattr(x, "__closure__") and x.__closure__:
            stack.extend(cell.cell_contents for cell in x.__closure__)
        if hasattr(x, "__self__") and not isinstance(x.__self__, type(random)):
            stack.append(x.__self__)
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)
        else:
            if hasattr(x, "__dict__"):
                stack.extend(vars(x).values())
            for cls in type(x).__mro__:
                for name in getattr(cls, "__slots__", ()):
                    if hasattr(x, name):
                        stack.append(getattr(x, name))
    return list(seen.values())
