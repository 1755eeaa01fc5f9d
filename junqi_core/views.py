"""What one player may know (docs/rules.md, "Information"), as JSON-ready dicts.

This is the only door from the true state to a player: the page and the CPU players
both get these views and events, never the `Game`.  `player=None` is the public
(spectator) view.  After the game ends everything is revealed.  The shapes are written
down once below (`View`, `Event`, ...) and docs/api.md describes them for the page.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from junqi_core.game import OVER, PLAY, SETUP, Game, HistoryEntry
from junqi_core.pieces import COLOUR_BIT, FACE_DOWN, KIND_MASK, OUTCOME_NAMES

COLOUR_NAMES = ("red", "blue")


# --- the shapes -------------------------------------------------------------------------------


class Cell(TypedDict):
    owner: int | None  # None: a face-down Blind piece (nobody knows whose)
    kind: str | None  # None: the viewer may not know it
    down: bool


class Lost(TypedDict):
    count: int
    kinds: list[str] | None


class Rules(TypedDict):
    variant: str
    preset: str | None
    options: dict


class Result(TypedDict):
    winner: int | None
    reason: str


class Target(TypedDict):
    to: str
    attack: bool


class Dests(TypedDict):
    moves: dict[str, list[Target]]
    flips: list[str]


class Combat(TypedDict):
    square: str
    result: Literal["attacker", "defender", "both"]
    attacker: str | None
    defender: str | None


class ShownFlag(TypedDict):
    player: int
    square: str | None


class Event(TypedDict, total=False):
    ply: int
    player: int
    action: str
    type: str  # move, flip, offer, accept, decline, resign, timeout
    square: str  # flip
    kind: str  # flip
    colour: str  # flip
    combat: Combat  # move with an attack
    flag_shown: list[ShownFlag]  # rule option: a Field Marshal fell in this combat
    offer_lapsed: bool


Event.__annotations__["from"] = str  # "from" is a keyword: added by name
Event.__annotations__["to"] = str


class View(TypedDict):
    variant: str
    rules: Rules
    phase: Literal["setup", "play", "over"]
    player: int | None
    turn: int | None
    ply: int
    quiet: int
    quiet_limit: int
    colours: list[str] | None
    deployed: list[bool]
    board: dict[str, Cell]
    lost: list[Lost]
    flags_shown: list[bool]
    history: list[Event]
    last_move: list[str] | None
    offer_by: int | None
    timeouts: list[int]
    actions: list[str]
    dests: Dests | None
    result: Result | None


class Frame(TypedDict):
    """One position of a replay (`frame`): a view without history, actions and dests."""

    ply: int
    phase: Literal["setup", "play", "over"]
    turn: int | None
    quiet: int
    quiet_limit: int
    colours: list[str] | None
    board: dict[str, Cell]
    lost: list[Lost]
    flags_shown: list[bool]
    last_move: list[str] | None
    offer_by: int | None
    timeouts: list[int]
    result: Result | None


def _kind_ids(game: Game) -> dict[int, str]:
    return {k.kind: k.id for k in game.position_class.kinds}


def _sees_kind(game: Game, player: int | None, p: int) -> bool:
    """Whether `player` knows the rank of piece int `p` (in its current state)."""
    if game.phase == OVER:
        return True
    if p & FACE_DOWN:
        return False
    if game.variant.public_face_up:
        return True  # Blind: face-up pieces are public
    owner = game.position.piece_owner(p)
    if _sees_army(game, player, owner):  # type: ignore[arg-type]
        return True
    # rule option: a player's flag is shown to all once their Field Marshal is gone
    return game.flag_shown[owner] and p & KIND_MASK == game.variant.flag_kind


def _sees_army(game: Game, player: int | None, owner: int) -> bool:
    """Whether `player` knows every rank of `owner`'s army: its own; with four seats, its
    partner's too under `team_open`, and every army's under `open` (rule options)."""
    if player is None:
        return game.variant.visibility == "open" and game.phase != SETUP
    if owner == player:
        return True
    if game.phase == SETUP:
        return False
    visibility = game.variant.visibility
    return visibility == "open" or (visibility == "team_open" and owner == player ^ 2)


def _owner(game: Game, p: int) -> int | None:
    """The owner of a piece as a player may see it (face-down pieces: unknown)."""
    if p & FACE_DOWN and game.phase != OVER:
        return None
    return game.position.piece_owner(p)


def view(game: Game, player: int | None) -> View:
    """Everything `player` may know about the game right now."""
    position = game.position
    board = board_view(game, player)
    history = [event(game, entry, player) for entry in game.history]
    last_move = next(([e["from"], e["to"]] for e in reversed(history) if e.get("to")), None)
    shown: View = {
        "variant": game.variant.id,
        "rules": game.variant.rules_json(),  # type: ignore[typeddict-item]
        "phase": game.phase,
        "player": player,
        "turn": position.turn if game.phase == PLAY else None,
        "ply": position.ply,
        "quiet": position.quiet,
        "quiet_limit": position.quiet_limit,
        "colours": _colours(game),
        "deployed": [layout is not None for layout in game.layouts],
        "board": board,
        "lost": [_lost(game, player, p) for p in range(game.seats)],
        "flags_shown": list(game.flag_shown),
        "history": history,
        "last_move": last_move,
        "offer_by": game.offer_by,
        "timeouts": list(game.timeouts),
        "actions": game.meta_actions(player) if player is not None else [],
        "dests": dests(game, player),
        "result": _result(game),
    }
    if game.seats > 2:
        shown.update(_seats(game))  # type: ignore[typeddict-item]
    return shown


def _seats(game: Game) -> dict:
    """What a game of four seats adds (all public): the seats, who is out and why, who
    moved first, who has accepted the draw offer so far."""
    return {
        "seats": game.seats,
        "out": list(game.out),
        "first": game.first,
        "accepted": sorted(game.accepted),
    }


def _colours(game: Game) -> list[str] | None:
    if game.seats > 2:
        return list(game.variant.colours or ())
    swap = game.position.swap
    return None if swap < 0 else [COLOUR_NAMES[swap], COLOUR_NAMES[1 - swap]]


def _result(game: Game) -> Result | None:
    result = game.result
    return None if result is None else {"winner": result.winner, "reason": result.reason}


def board_view(game: Game, player: int | None) -> dict[str, Cell]:
    """The board as `player` may see it: {square: cell} of the occupied squares."""
    names = game.board_spec.names
    kinds = _kind_ids(game)
    position = game.position
    board: dict[str, dict] = {}
    if game.phase == SETUP:
        for seat in range(game.seats):
            if seat == player and game.drafts[seat] is not None:
                for square, kind in game.drafts[seat].items():  # type: ignore[union-attr]
                    board[names[square]] = {"owner": seat, "kind": kinds[kind], "down": False}
            elif seat != player and game.layouts[seat] is not None:
                # a confirmed layout stands on the board, its ranks hidden
                for square in game.layouts[seat]:  # type: ignore[union-attr]
                    board[names[square]] = {"owner": seat, "kind": None, "down": False}
    else:
        for square, p in enumerate(position.board):
            if not p:
                continue
            board[names[square]] = {
                "owner": _owner(game, p),
                "kind": kinds[p & KIND_MASK] if _sees_kind(game, player, p) else None,
                "down": bool(p & FACE_DOWN),
            }
    return board  # type: ignore[return-value]


def frame(game: Game, player: int | None, everything: bool = False) -> Frame:
    """One position of a replay as `player` saw it then: a view without the history and
    the actions.  `everything` shows every piece (a finished game's replay: public then)."""
    position = game.position
    if game.phase == SETUP:  # the confirmed layouts only (a replay has no drafts)
        board = _layouts(game, tuple(range(game.seats)) if everything else (player,))
    elif everything:
        board = _board_everything(game)
    else:
        board = board_view(game, player)
    lost = [_lost(game, player, p, everything) for p in range(game.seats)]
    last = next((e for e in reversed(game.history) if e.frm is not None and e.frm != e.to), None)
    names = game.board_spec.names
    shown: Frame = {
        "ply": position.ply,
        "phase": game.phase,
        "turn": position.turn if game.phase == PLAY else None,
        "quiet": position.quiet,
        "quiet_limit": position.quiet_limit,
        "colours": _colours(game),
        "board": board,
        "lost": lost,
        "flags_shown": list(game.flag_shown),
        "last_move": None if last is None else [names[last.frm], names[last.to]],  # type: ignore[index]
        "offer_by": game.offer_by,
        "timeouts": list(game.timeouts),
        "result": _result(game),
    }
    if game.seats > 2:
        shown.update(_seats(game))  # type: ignore[typeddict-item]
    return shown


def _layouts(game: Game, shown: tuple) -> dict[str, Cell]:
    """During setup: the confirmed layouts, ranks named for the seats in `shown`."""
    names = game.board_spec.names
    kinds = _kind_ids(game)
    board: dict[str, Cell] = {}
    for seat, layout in enumerate(game.layouts):
        for square, kind in (layout or {}).items():
            named = kinds[kind] if seat in shown else None
            board[names[square]] = {"owner": seat, "kind": named, "down": False}
    return board


def _board_everything(game: Game) -> dict[str, Cell]:
    names = game.board_spec.names
    kinds = _kind_ids(game)
    board: dict[str, Cell] = {}
    for square, p in enumerate(game.position.board):
        if p:
            board[names[square]] = {
                "owner": game.position.piece_owner(p),
                "kind": kinds[p & KIND_MASK],
                "down": bool(p & FACE_DOWN),
            }
    return board


def _lost(game: Game, viewer: int | None, loser: int, everything: bool = False) -> Lost:
    """Pieces a player has lost: by name if the viewer knows them, else a count."""
    pieces = game.removed[loser]
    kinds = _kind_ids(game)
    known = (
        everything
        or game.phase == OVER
        or game.variant.public_face_up
        or _sees_army(game, viewer, loser)
    )
    return {
        "count": len(pieces),
        "kinds": [kinds[p & KIND_MASK] for p in pieces] if known else None,
    }


def event(game: Game, entry: HistoryEntry, player: int | None) -> Event:
    """One history entry as `player` saw it happen."""
    names = game.board_spec.names
    kinds = _kind_ids(game)
    out: Event = {"ply": entry.ply, "player": entry.player, "action": entry.action}
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
            if game.seats > 2:  # whose piece was attacked (the attacker's is `player`)
                out["combat"]["against"] = game.position.piece_owner(entry.target)  # type: ignore[typeddict-unknown-key]
    if entry.extra.get("flag_shown"):
        out["flag_shown"] = [
            {"player": owner, "square": None if square is None else names[square]}
            for owner, square in entry.extra["flag_shown"]
        ]
    if entry.extra.get("offer_lapsed"):
        out["offer_lapsed"] = True
    if entry.extra.get("out"):  # armies that left the board (their ranks stay hidden)
        out["out"] = [{"player": seat, "reason": reason} for seat, reason in entry.extra["out"]]
    return out


def legal_targets(game: Game, player: int, square: int) -> list[Target]:
    """Where the player's piece on `square` may go now: [{"to": name, "attack": bool}]."""
    if game.phase != PLAY or player != game.turn:
        return []
    names = game.board_spec.names
    split = game.board_spec.move_code.split
    board = game.position.board
    out = []
    for move in game.legal_moves():
        frm, to = split(move)
        if frm == square and frm != to:
            out.append({"to": names[to], "attack": bool(board[to])})
    return out


def dests(game: Game, player: int | None) -> Dests | None:
    """Every legal action of `player` if it is their turn (else None), so the page holds
    no rules: {"moves": {from: [{to, attack}]}, "flips": [squares]}."""
    if player is None or game.phase != PLAY or player != game.turn:
        return None
    names = game.board_spec.names
    split = game.board_spec.move_code.split
    board = game.position.board
    moves: dict[str, list[Target]] = {}
    flips: list[str] = []
    for move in game.legal_moves():
        frm, to = split(move)
        if frm == to:
            flips.append(names[frm])
        else:
            moves.setdefault(names[frm], []).append({"to": names[to], "attack": bool(board[to])})
    return {"moves": moves, "flips": flips}
