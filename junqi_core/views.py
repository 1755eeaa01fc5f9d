"""What one player may know (RULES.md section 4), as JSON-ready dicts.

This is the only door from the true state to a player: the page and the CPU players
both get these views and events, never the `Game`.  `player=None` is the public
(spectator) view.  After the game ends everything is revealed.
"""

from __future__ import annotations

from junqi_core.game import OVER, PLAY, SETUP, Game, HistoryEntry
from junqi_core.pieces import COLOUR_BIT, FACE_DOWN, KIND_MASK, OUTCOME_NAMES

COLOUR_NAMES = ("red", "blue")


def _kind_ids(game: Game) -> dict[int, str]:
    return {k.kind: k.id for k in game.position_class.kinds}


def _sees_kind(game: Game, player: int | None, p: int) -> bool:
    """Whether `player` knows the rank of piece int `p` (in its current state)."""
    if game.phase == OVER:
        return True
    if p & FACE_DOWN:
        return False
    if game.variant == "blind":
        return True  # face-up pieces are public
    return player is not None and game.position.piece_owner(p) == player


def _owner(game: Game, p: int) -> int | None:
    """The owner of a piece as a player may see it (face-down pieces: unknown)."""
    if p & FACE_DOWN and game.phase != OVER:
        return None
    return game.position.piece_owner(p)


def view(game: Game, player: int | None) -> dict:
    """Everything `player` may know about the game right now."""
    names = game.board_spec.names
    kinds = _kind_ids(game)
    position = game.position
    board: dict[str, dict] = {}
    if game.phase == SETUP:
        if player is not None and game.drafts[player] is not None:
            for square, kind in game.drafts[player].items():  # type: ignore[union-attr]
                board[names[square]] = {"owner": player, "kind": kinds[kind], "down": False}
    else:
        for square, p in enumerate(position.board):
            if not p:
                continue
            board[names[square]] = {
                "owner": _owner(game, p),
                "kind": kinds[p & KIND_MASK] if _sees_kind(game, player, p) else None,
                "down": bool(p & FACE_DOWN),
            }
    history = [event(game, entry, player) for entry in game.history]
    last_move = next(([e["from"], e["to"]] for e in reversed(history) if e.get("to")), None)
    colours = None
    if position.swap >= 0:
        colours = [COLOUR_NAMES[position.swap], COLOUR_NAMES[1 - position.swap]]
    return {
        "variant": game.variant,
        "phase": game.phase,
        "player": player,
        "turn": position.turn if game.phase == PLAY else None,
        "ply": position.ply,
        "quiet": position.quiet,
        "quiet_limit": position.quiet_limit,
        "colours": colours,
        "deployed": [layout is not None for layout in game.layouts],
        "board": board,
        "lost": [_lost(game, player, p) for p in (0, 1)],
        "history": history,
        "last_move": last_move,
        "offer_by": game.offer_by,
        "timeouts": list(game.timeouts),
        "actions": game.meta_actions(player) if player is not None else [],
        "dests": dests(game, player),
        "result": (
            None
            if game.result is None
            else {"winner": game.result.winner, "reason": game.result.reason}
        ),
    }


def _lost(game: Game, viewer: int | None, loser: int) -> dict:
    """Pieces a player has lost: by name if the viewer knows them, else a count."""
    pieces = game.removed[loser]
    kinds = _kind_ids(game)
    known = game.phase == OVER or game.variant == "blind" or viewer == loser
    return {
        "count": len(pieces),
        "kinds": [kinds[p & KIND_MASK] for p in pieces] if known else None,
    }


def event(game: Game, entry: HistoryEntry, player: int | None) -> dict:
    """One history entry as `player` saw it happen."""
    names = game.board_spec.names
    kinds = _kind_ids(game)
    out: dict = {"ply": entry.ply, "player": entry.player, "action": entry.action}
    name = entry.action.partition(":")[0]
    if entry.frm is None:
        out["type"] = name
    elif entry.frm == entry.to:
        flipped = entry.extra["flipped"]
        out.update(
            type="flip",
            square=names[entry.frm],
            kind=kinds[flipped & KIND_MASK],
            colour=COLOUR_NAMES[(flipped & COLOUR_BIT) and 1],
        )
    else:
        out.update(type="move", **{"from": names[entry.frm], "to": names[entry.to]})
        if entry.result:
            out["combat"] = {
                "square": names[entry.to],
                "result": OUTCOME_NAMES[entry.result],
                "attacker": kinds[entry.mover & KIND_MASK]
                if _sees_kind(game, player, entry.mover)
                else None,
                "defender": kinds[entry.target & KIND_MASK]
                if _sees_kind(game, player, entry.target)
                else None,
            }
    if entry.extra.get("offer_lapsed"):
        out["offer_lapsed"] = True
    return out


def legal_targets(game: Game, player: int, square: int) -> list[dict]:
    """Where the player's piece on `square` may go now: [{"to": name, "attack": bool}]."""
    if game.phase != PLAY or player != game.turn:
        return []
    names = game.board_spec.names
    board = game.position.board
    out = []
    for move in game.legal_moves():
        frm, to = move >> 6, move & 63
        if frm == square and frm != to:
            out.append({"to": names[to], "attack": bool(board[to])})
    return out


def dests(game: Game, player: int | None) -> dict | None:
    """Every legal action of `player` if it is their turn (else None), so the page holds
    no rules: {"moves": {from: [{to, attack}]}, "flips": [squares]}."""
    if player is None or game.phase != PLAY or player != game.turn:
        return None
    names = game.board_spec.names
    board = game.position.board
    moves: dict[str, list[dict]] = {}
    flips: list[str] = []
    for move in game.legal_moves():
        frm, to = move >> 6, move & 63
        if frm == to:
            flips.append(names[frm])
        else:
            moves.setdefault(names[frm], []).append({"to": names[to], "attack": bool(board[to])})
    return {"moves": moves, "flips": flips}
