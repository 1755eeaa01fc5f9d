"""The only door between the page and the engine: one JSON string in, one out.

`handle(request)` never raises.  Every reply carries `"v": API_VERSION` and either
`"ok": true` with data or `"error": {"code", "message"}`; a refused request changes
nothing.  Replies carry only what the requesting seat may know (see docs/api.md).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from junqi_core import __version__
from junqi_core.deployment import DeploymentError
from junqi_core.game import OVER, PLAY, Game, IllegalActionError
from junqi_core.notation import NotationError, move_text, parse_square
from junqi_core.players import LEVELS, Player, make_player, variant_levels
from junqi_core.record import (
    RecordError,
    export_record,
    import_record,
    layout_from_json,
    layout_to_json,
)
from junqi_core.replay import ALL, ReplayRefused, replay
from junqi_core.selfplay import selfplay
from junqi_core.share import LinkError, decode_link, encode_link, record_text
from junqi_core.text import JsonRefused, load_json, quote
from junqi_core.variants import (
    ENGINE_VARIANTS,
    VARIANT_IDS,
    RulesError,
    Variant,
    describe,
    find_variant,
)
from junqi_core.views import event, legal_targets, view

API_VERSION = 1
MAX_REQUEST_CHARS = 2_000_000
MAX_GAMES = 32
MAX_SELFPLAY_GAMES = 50
MAX_SEED = 2**53 - 1
MAX_SEATS = max(v.seats for v in ENGINE_VARIANTS.values())


class BridgeError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Session:
    game: Game
    cpus: dict[int, Player] = field(default_factory=dict)


_sessions: dict[str, Session] = {}
_next_id = [1]


def handle(request: str) -> str:
    """Answer one JSON request with one JSON reply; never raises."""
    try:
        reply = _dispatch(request)
        reply = {"v": API_VERSION, "ok": True, **reply}
    except BridgeError as error:
        reply = _error(error.code, str(error))
    except DeploymentError as error:
        reply = _error(error.code, str(error))
        if error.square:
            reply["error"]["square"] = error.square
    except IllegalActionError as error:
        reply = _error(error.code, str(error))
    except RecordError as error:
        reply = _error("bad_record", str(error))
    except RulesError as error:
        reply = _error(error.code, str(error))
    except LinkError as error:
        reply = _error("bad_link", str(error))
    except ReplayRefused as error:
        reply = _error(error.code, str(error))
    except Exception as error:  # the bridge must never let an exception reach the page
        reply = _error("internal", f"{type(error).__name__}: {error}")
    return json.dumps(reply, separators=(",", ":"), ensure_ascii=False)


def _error(code: str, message: str) -> dict:
    return {"v": API_VERSION, "error": {"code": code, "message": message}}


def _dispatch(request: str) -> dict:
    if not isinstance(request, str):
        raise BridgeError("bad_request", "a request is a JSON string")
    if len(request) > MAX_REQUEST_CHARS:
        raise BridgeError("too_large", f"requests are limited to {MAX_REQUEST_CHARS} characters")
    try:
        # nesting is capped before anything reads the value: a message quoting a value
        # nested near the recursion limit would overflow
        message = load_json(request, "the request")
    except JsonRefused as error:
        raise BridgeError(error.code, str(error)) from None
    if not isinstance(message, dict):
        raise BridgeError("bad_request", "a request is a JSON object")
    op = message.get("op")
    handler = OPS.get(op) if isinstance(op, str) else None
    if handler is None:
        raise BridgeError("unknown_op", f"unknown op {quote(op)}; ops: {', '.join(sorted(OPS))}")
    return handler(message)


# --- request fields -----------------------------------------------------------------------


def _int(
    message: dict, key: str, default: int | None = None, lo: int = 0, hi: int = MAX_SEED
) -> int:
    value = message.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise BridgeError("bad_request", f"{key} must be a whole number from {lo} to {hi}")
    return value


def _player(
    message: dict, key: str = "player", allow_public: bool = False, seats: int = MAX_SEATS
) -> int | None:
    """A seat of a game of `seats` seats (or None for the public view, if allowed)."""
    value = message.get(key)
    if allow_public and value is None:
        return None
    # exactly the ints 0, 1 ...: JSON 1.0, 0.0, -0.0 and true all compare equal to them
    if type(value) is not int or value not in range(seats):
        numbers = [str(s) for s in range(seats)]
        raise BridgeError(
            "bad_player",
            f"{key} must be {', '.join(numbers[:-1])} or {numbers[-1]}"
            + (" (or null for the public view)" if allow_public else ""),
        )
    return value


def _person(
    session: Session, message: dict, key: str = "player", allow_public: bool = False
) -> int | None:
    """A seat a person plays (or None for the public view): nothing of a CPU's seat goes to
    the page, since the CPU reads its own view inside the engine."""
    seat = _player(message, key, allow_public, session.game.seats)
    if seat in session.cpus:
        raise BridgeError("cpu_seat", f"seat {seat} is played by the CPU")
    return seat


def _session(message: dict) -> Session:
    game_id = message.get("game")
    if not isinstance(game_id, str) or game_id not in _sessions:
        raise BridgeError("unknown_game", f"no game {quote(game_id)}")
    return _sessions[game_id]


def _square(game: Game, message: dict, key: str) -> int:
    try:
        return parse_square(game.board_spec, message.get(key))
    except NotationError as error:
        raise BridgeError("bad_square", str(error)) from None


def _variant(message: dict) -> Variant:
    """The rules a request names: `variant`, and optionally `preset` and `options`."""
    variant = message.get("variant")
    if not isinstance(variant, str) or variant not in ENGINE_VARIANTS:
        raise BridgeError(
            "unknown_variant",
            f"variant must be one of {', '.join(ENGINE_VARIANTS)} (got {quote(variant)})",
        )
    return find_variant(variant, message.get("preset"), message.get("options"))


def _seed(message: dict) -> int | None:
    """An explicit seed (tests, records), or None: hidden things then come from secrets."""
    return _int(message, "seed") if "seed" in message else None


def _store(session: Session) -> str:
    game_id = f"g{_next_id[0]}"
    _next_id[0] += 1
    while len(_sessions) >= MAX_GAMES:
        del _sessions[next(iter(_sessions))]  # forget the oldest game
    _sessions[game_id] = session
    return game_id


# --- ops ----------------------------------------------------------------------------------


def op_version(message: dict) -> dict:
    return {
        "engine": __version__,
        "api": API_VERSION,
        "variants": list(VARIANT_IDS),
        "levels": list(LEVELS),
    }


def op_variants(message: dict) -> dict:
    """Every variant under its standard rules, with its options and presets, and the CPU
    levels that play it (`levels`)."""
    return {
        "variants": {
            v: {**describe(v), "levels": variant_levels(ENGINE_VARIANTS[v])} for v in VARIANT_IDS
        }
    }


def op_describe(message: dict) -> dict:
    """One variant under the rules the request names (e.g. a board without stations)."""
    return {"description": describe(_variant(message))}


def op_new_game(message: dict) -> dict:
    # everything is checked before the game is stored: a refused request stores nothing
    variant = _variant(message)
    seed = _seed(message)
    _player(message, "viewer", True, variant.seats)  # its form, before any CPU is made
    cpu = message.get("cpu", {})
    if not isinstance(cpu, dict) or not set(cpu) <= {str(s) for s in range(variant.seats)}:
        raise BridgeError("bad_request", 'cpu must be an object like {"1": "medium"}')
    session = Session(Game(variant, seed=seed))
    for seat, level in sorted(cpu.items()):
        if not isinstance(level, str) or level not in LEVELS:
            raise BridgeError(
                "bad_level", f"unknown level {quote(level)}; levels: {', '.join(LEVELS)}"
            )
        # a CPU's layout and choices follow from its seed: without an explicit seed it is
        # drawn from secrets, and no reply ever carries it
        cpu_seed = secrets.randbits(62) if seed is None else seed * variant.seats + int(seat)
        try:
            session.cpus[int(seat)] = make_player(variant, level, int(seat), cpu_seed)
        except ValueError as error:  # a level this game does not offer
            raise BridgeError("bad_level", str(error)) from None
    viewer = _person(session, message, "viewer", allow_public=True)
    for seat, player in session.cpus.items():
        if session.game.deployment is not None:
            layout = layout_from_json(session.game, player.deploy(view(session.game, seat)))
            session.game.deploy(seat, layout)
    game_id = _store(session)
    return {
        "game": game_id,
        "view": view(session.game, viewer),
        "description": describe(variant),
    }


def op_view(message: dict) -> dict:
    session = _session(message)
    return {"view": view(session.game, _person(session, message, allow_public=True))}


def op_legal(message: dict) -> dict:
    session = _session(message)
    player = _person(session, message)
    square = _square(session.game, message, "square")
    return {
        "square": session.game.board_spec.names[square],
        "targets": legal_targets(session.game, player, square),
    }


def op_notes(message: dict) -> dict:
    """Deduction notes for a player's own view (docs/api.md): certain facts only."""
    from junqi_core.ai.notes import notes

    session = _session(message)
    player = _person(session, message)
    game = session.game
    return {"notes": notes(game.variant, view(game, player), player)}


def _setup_op(change: Callable[[Game, int, dict], None]) -> Callable[[dict], dict]:
    def op(message: dict) -> dict:
        session = _session(message)
        player = _person(session, message)
        game = session.game
        if game.deployment is None:
            raise BridgeError("no_setup", f"{game.variant.name} has no deployment")
        change(game, player, message)
        return {"view": view(game, player)}

    return op


def _random(game: Game, player: int, message: dict) -> None:
    game.set_draft(player, game.random_layout(player, _seed(message)))


def _swap(game: Game, player: int, message: dict) -> None:
    a, b = _square(game, message, "a"), _square(game, message, "b")
    game.require_setup(player)
    game.set_draft(player, game.deployment.swap(player, game.drafts[player], a, b))


def _mirror(game: Game, player: int, message: dict) -> None:
    game.require_setup(player)
    game.set_draft(player, game.deployment.mirror(game.drafts[player]))


def _set(game: Game, player: int, message: dict) -> None:
    """A whole layout (the page's "previous layout"); `from_player` names the seat it was
    made for, and a layout made for the other seat is turned round to this one's side."""
    try:
        layout = layout_from_json(game, message.get("layout"))
    except ValueError as error:
        raise BridgeError("bad_layout", str(error)) from None
    if "from_player" in message:
        made_for = _player(message, "from_player", seats=game.seats)
        layout = game.deployment.for_seat(layout, made_for, player)  # type: ignore[union-attr]
    game.set_draft(player, layout)


def _deploy(game: Game, player: int, message: dict) -> None:
    game.deploy(player)


def op_act(message: dict) -> dict:
    session = _session(message)
    player = _person(session, message)
    action = message.get("action")
    if not isinstance(action, str) or len(action) > 32:
        raise BridgeError("bad_action", "action must be a short string such as 'c3-c4'")
    entries = [session.game.apply(player, action)]
    _notify(session, entries[-1])
    _cpus_answer(session, entries)
    return _reply(session, entries, player)


def _cpus_answer(session: Session, entries: list) -> None:
    """CPU seats answer a pending draw offer at once, in seat order, until one declines."""
    game = session.game
    for seat, cpu in sorted(session.cpus.items()):
        if (
            game.offer_by is None
            or game.offer_by == seat
            or "accept" not in game.meta_actions(seat)
        ):
            continue
        answer = "accept" if cpu.answer_draw(view(game, seat)) else "decline"
        entries.append(game.apply(seat, f"{answer}:{seat}"))
        _notify(session, entries[-1])


def op_cpu_act(message: dict) -> dict:
    """The CPU seat chooses and plays its action; the reply is for `viewer`.  A CPU that
    judges itself clearly worse in a long quiet game offers a draw first (two events)."""
    session = _session(message)
    seat = _player(message)
    viewer = _person(session, message, "viewer", allow_public=True)
    cpu = session.cpus.get(seat)
    if cpu is None:
        raise BridgeError("not_cpu", "that seat is not played by the CPU")
    game = session.game
    if game.phase != PLAY:
        raise BridgeError("wrong_phase", "the game is not in play")
    if game.turn != seat:
        raise BridgeError("not_your_turn", "it is not the CPU's turn")
    entries = []
    offer = getattr(cpu, "offer_draw", None)
    if offer is not None and offer(view(game, seat)):
        entries.append(game.apply(seat, f"offer:{seat}"))
        _notify(session, entries[-1])
        if game.seats > 2:  # the other CPU seats answer now; people, on their screens
            _cpus_answer(session, entries)
        if game.phase != PLAY:
            return _reply(session, entries, viewer)
    legal = [move_text(game.board_spec, m) for m in game.legal_moves()]
    choice = cpu.choose(view(game, seat), legal)
    if choice not in legal:
        raise BridgeError("internal", f"the CPU chose an illegal action {quote(choice)}")
    entries.append(game.apply(seat, choice))
    _notify(session, entries[-1])
    return _reply(session, entries, viewer)


def _notify(session: Session, entry: Any) -> None:
    for seat, cpu in session.cpus.items():
        cpu.observe(event(session.game, entry, seat))


def _reply(session: Session, entries: list, viewer: int | None) -> dict:
    return {
        "events": [event(session.game, e, viewer) for e in entries],
        "view": view(session.game, viewer),
    }


def _finished(message: dict) -> Session:
    session = _session(message)
    if session.game.phase != OVER:
        raise BridgeError(
            "game_not_over", "a record holds hidden pieces, so it is given only after the game ends"
        )
    return session


def op_record_export(message: dict) -> dict:
    session = _finished(message)
    return {"record": export_record(session.game, message.get("meta"))}


def op_record_import(message: dict) -> dict:
    viewer = _player(message, "viewer", allow_public=True)
    game = import_record(message.get("record"))
    _player(message, "viewer", True, game.seats)
    game_id = _store(Session(game))
    return {"game": game_id, "view": view(game, viewer), "description": describe(game.variant)}


def op_record_text(message: dict) -> dict:
    """A finished game as a move list people can read."""
    return {"text": record_text(_finished(message).game)}


def op_record_link(message: dict) -> dict:
    """A finished game as a compact payload for a URL fragment (docs/records.md)."""
    return {"link": encode_link(_finished(message).game)}


def op_link_import(message: dict) -> dict:
    """Open a shared link: the game it holds, replayed, as `record_import` does."""
    viewer = _player(message, "viewer", allow_public=True)
    record = decode_link(message.get("link"))
    game = import_record(record)
    _player(message, "viewer", True, game.seats)
    game_id = _store(Session(game))
    return {
        "game": game_id,
        "record": record,
        "view": view(game, viewer),
        "description": describe(game.variant),
    }


def op_replay(message: dict) -> dict:
    """Every position of a game, as one seat saw it (`viewer` 0 or 1) or with everything
    shown (`"all"`: finished games only), with each action's event as seen then.  The game
    is a finished game of this page (`game`), a record (`record`, object or JSON text) or a
    share link's payload (`link`)."""
    viewer = message.get("viewer")
    if viewer != ALL:
        viewer = _player(message, "viewer")
    sources = [key for key in ("game", "record", "link") if key in message]
    if len(sources) != 1:
        raise BridgeError("bad_request", "a replay needs one of game, record or link")
    record = message.get("record")
    if "game" in message:
        record = export_record(_finished(message).game)
    elif "link" in message:
        record = decode_link(message["link"])
    out = replay(record, viewer)
    rules = out["rules"]
    return {**out, "description": describe(find_variant(rules["variant"], None, rules["options"]))}


# --- saved games ------------------------------------------------------------------------------
#
# A save holds everything to go on after a reload, hidden things included (the CPU's layout,
# seed and random state, the Blind deal), so the page never sees it: the worker keeps it in
# the browser's storage itself and hands the page only `save_summary`.

SAVE_FORMAT = "junqi-save"
SAVE_VERSION = 2
SAVE_FIELDS = {"format", "version", "record", "drafts", "cpus"}
# a CPU seat per version: version 1 saves have no state (a random CPU restarts its
# generator from its seed, as it did when they were written)
CPU_FIELDS = {1: {"level", "seed"}, 2: {"level", "seed", "state"}}


def op_save(message: dict) -> dict:
    """The game to go on with later; `text: true` gives the save as JSON text (a CPU's seed
    has up to 62 bits, more than a JavaScript number holds, so the worker keeps the text)."""
    session = _session(message)
    game = session.game
    drafts = None
    if game.deployment is not None and game.phase != OVER:
        drafts = [None if d is None else layout_to_json(game, d) for d in game.drafts]
    save = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "record": export_record(game),
        "drafts": drafts,
        "cpus": {str(seat): _cpu_save(cpu) for seat, cpu in session.cpus.items()},
    }
    as_text = message.get("text", False)
    if as_text is not None and not isinstance(as_text, bool):
        raise BridgeError("bad_request", "text must be true or false")
    if as_text:
        save = json.dumps(save, separators=(",", ":"), ensure_ascii=False)
    return {"save": save, "summary": save_summary(session)}


def _cpu_save(cpu: Player) -> dict:
    """A CPU seat in a save: its level, its seed and, for a player whose next choices
    depend on more than seed and view (the random player's generator), that state."""
    state = getattr(cpu, "state", None)
    return {"level": cpu.level, "seed": cpu.seed, "state": None if state is None else state()}


def save_summary(session: Session) -> dict:
    """What the start screen's "Continue" shows: nothing hidden."""
    game = session.game
    return {
        "variant": game.variant.id,
        "rules": game.variant.rules_json(),
        "phase": game.phase,
        "ply": game.position.ply,
        "cpus": {str(seat): cpu.level for seat, cpu in session.cpus.items()},
    }


def op_restore(message: dict) -> dict:
    """A saved game, going on exactly where it was; a damaged save is refused whole."""
    save = message.get("save")
    if isinstance(save, str):
        if len(save) > MAX_REQUEST_CHARS:
            raise BridgeError("bad_save", "the saved game is too large")
        try:
            save = load_json(save, "the saved game")
        except JsonRefused as error:
            raise BridgeError("bad_save", str(error)) from None
    if not isinstance(save, dict) or save.get("format") != SAVE_FORMAT:
        raise BridgeError("bad_save", "this is not a saved game")
    version = save.get("version")
    if type(version) is not int or version not in CPU_FIELDS or set(save) != SAVE_FIELDS:
        raise BridgeError("bad_save", "the saved game comes from another version")
    try:
        game = import_record(save["record"])
    except RecordError as error:
        raise BridgeError("bad_save", f"the saved game is damaged: {error}") from None
    session = Session(game)
    cpus = save["cpus"]
    if not isinstance(cpus, dict) or not set(cpus) <= {str(s) for s in range(game.seats)}:
        raise BridgeError("bad_save", "the saved game's CPU seats are damaged")
    for seat, cpu in sorted(cpus.items()):
        session.cpus[int(seat)] = _restored_cpu(game, int(seat), cpu, CPU_FIELDS[version])
    drafts = save["drafts"]
    if drafts is not None:
        if not isinstance(drafts, list) or len(drafts) != game.seats or game.deployment is None:
            raise BridgeError("bad_save", "the saved game's setups are damaged")
        for seat, draft in enumerate(drafts):
            if draft is not None and game.layouts[seat] is None:
                try:
                    game.set_draft(seat, layout_from_json(game, draft))
                except (ValueError, IllegalActionError) as error:
                    raise BridgeError("bad_save", f"the saved setup is damaged: {error}") from None
    viewer = _person(session, message, "viewer", allow_public=True)
    game_id = _store(session)
    return {
        "game": game_id,
        "view": view(game, viewer),
        "description": describe(game.variant),
        "summary": save_summary(session),
    }


def _restored_cpu(game: Game, seat: int, cpu: Any, fields: set[str]) -> Player:
    """One CPU seat of a save, checked whole: exactly its fields, a known level, a whole
    seed, the state its player keeps (and none for a player that keeps none)."""
    if not isinstance(cpu, dict) or set(cpu) != fields:
        raise BridgeError("bad_save", "the saved game's CPU is damaged")
    level, seed = cpu["level"], cpu["seed"]
    if not isinstance(level, str) or level not in LEVELS:
        raise BridgeError("bad_save", "the saved game names an unknown CPU level")
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise BridgeError("bad_save", "the saved game's CPU is damaged")
    if game.deployment is not None and game.layouts[seat] is None:
        raise BridgeError("bad_save", "the saved game's CPU never set up its pieces")
    player = make_player(game.variant, level, seat, seed)
    state = cpu.get("state")
    restore = getattr(player, "restore_state", None)
    if "state" in fields and (state is None) != (restore is None):
        raise BridgeError("bad_save", "the saved game's CPU is damaged")
    if state is not None and restore is not None:
        try:
            restore(state)
        except ValueError as error:
            raise BridgeError("bad_save", f"the saved game's CPU is damaged: {error}") from None
    return player


def op_selfplay(message: dict) -> dict:
    variant = _variant(message)
    games = _int(message, "games", 1, 1, MAX_SELFPLAY_GAMES)
    return {"results": selfplay(variant, games, _int(message, "seed", 0))}


def op_drop(message: dict) -> dict:
    _session(message)
    del _sessions[message["game"]]
    return {}


# --- friend play (docs/fair-play.md, "For the bridge") ---------------------------------------
#
# One `FairPeer` per friend game on this page. It holds this page's own secrets and the
# other side's commitments only; the page sends each text of `send` over the data channel
# and never looks inside. `view` is what the page draws; `state` (the peer's `to_json()`,
# this page's own secrets included) is for this page's local storage: the page saves it
# BEFORE it sends what the reply holds. Each is in a reply only when the peer's state
# changed since the page last got one (the view also for `view` and with any event): the
# page ticks once a second, and a tick that changes nothing costs neither.

MAX_PEERS = 8
FAIR_CALLS = ("receive", "act", "setup", "deploy", "tick", "reconnect", "view", "record")
FAIR_SETUPS = ("random", "swap", "mirror", "set")

_peers: dict[str, Any] = {}
# What the page was last handed, per peer: the peer's state (a frozen PeerState; a call
# that changes nothing keeps the same object) when it got a view, and when it got the JSON.
_views_given: dict[str, Any] = {}
_states_given: dict[str, Any] = {}
_next_peer = [1]


def _fair_errors() -> tuple:
    from junqi_core.fair import FairError, MessageError
    from junqi_core.fair.shadow import RulesRefused

    return FairError, MessageError, RulesRefused


def _store_peer(peer: Any) -> str:
    peer_id = f"p{_next_peer[0]}"
    _next_peer[0] += 1
    while len(_peers) >= MAX_PEERS:
        oldest = next(iter(_peers))
        del _peers[oldest]  # forget the oldest friend game (its page keeps its state)
        _forget_given(oldest)
    _peers[peer_id] = peer
    return peer_id


def _peer(message: dict) -> tuple[str, Any]:
    peer_id = message.get("peer")
    if not isinstance(peer_id, str) or peer_id not in _peers:
        raise BridgeError("unknown_peer", f"no friend game {quote(peer_id)}")
    return peer_id, _peers[peer_id]


def _now(message: dict) -> float | None:
    """The page's clock in ms (docs/fair-play.md); None: this machine's time."""
    now = message.get("now")
    if now is None:
        return None
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not 0 <= now < 2**53:
        raise BridgeError("bad_request", "now must be the page's clock in milliseconds")
    return float(now)


def _forget_given(peer_id: str) -> None:
    _views_given.pop(peer_id, None)
    _states_given.pop(peer_id, None)


def _fair_reply(peer_id: str, peer: Any, reply: dict, view: bool = False) -> dict:
    """A FairPeer reply for the page: refusals raise (nothing changed); otherwise the
    messages to send, the events and, when they changed since the page last got them,
    this seat's view (also when asked, and with events to show on it) and the state."""
    if not reply["ok"]:
        error = reply["error"]
        raise BridgeError(error["code"], error["message"])
    out = {"peer": peer_id, "send": reply["send"], "events": reply["events"]}
    if view or reply["events"] or _views_given.get(peer_id) is not peer.state:
        out["view"] = peer.view()
        _views_given[peer_id] = peer.state
    if _states_given.get(peer_id) is not peer.state:
        out["state"] = peer.to_json()
        _states_given[peer_id] = peer.state
    return out


def op_fair_host(message: dict) -> dict:
    """A new friend game hosted here: the host picks variant, preset, options and clock."""
    from junqi_core.fair import FairPeer

    _, _, RulesRefused = _fair_errors()
    variant = _variant(message)  # unknown_variant, unknown_preset, bad_option
    clock = message.get("clock")
    try:
        peer = FairPeer.host(variant.id, message.get("preset"), message.get("options"), clock=clock)
    except RulesRefused as error:
        raise BridgeError("bad_rules", str(error)) from None
    except ValueError as error:  # FairError: the clock
        raise BridgeError(getattr(error, "code", "bad_request"), str(error)) from None
    peer_id = _store_peer(peer)
    return _fair_reply(peer_id, peer, peer.flush())


def op_fair_guest(message: dict) -> dict:
    """A new friend game joined here: the rules come with the host's hello."""
    from junqi_core.fair import FairPeer

    peer = FairPeer.guest()
    peer_id = _store_peer(peer)
    return _fair_reply(peer_id, peer, peer.flush())


def op_fair(message: dict) -> dict:
    """One call of a friend game's peer: `call` is one of FAIR_CALLS (docs/api.md)."""
    peer_id, peer = _peer(message)
    call = message.get("call")
    if not isinstance(call, str) or call not in FAIR_CALLS:
        raise BridgeError("bad_request", f"call must be one of {', '.join(FAIR_CALLS)}")
    now = _now(message)
    if call == "receive":
        text = message.get("text")
        if not isinstance(text, str):
            raise BridgeError("malformed", "text must be the message text the other page sent")
        reply = peer.receive(text, now=now)
    elif call == "act":
        action = message.get("action")
        if not isinstance(action, str) or len(action) > 32:
            raise BridgeError("bad_action", "action must be a short string such as 'c3-c4'")
        reply = peer.act(action, now=now)
    elif call == "setup":
        how = message.get("setup")
        if not isinstance(how, str) or how not in FAIR_SETUPS:
            raise BridgeError("bad_request", f"setup must be one of {', '.join(FAIR_SETUPS)}")
        args = {k: message[k] for k in ("a", "b", "layout") if k in message}
        reply = peer.setup(how, now=now, **args)
    elif call == "deploy":
        reply = peer.deploy(message.get("layout"), now=now)
    elif call == "tick":
        reply = peer.tick(now=now)
    elif call == "reconnect":
        reply = peer.reconnect()
    elif call == "record":
        return {"peer": peer_id, "record": _fair_record(peer)}
    else:
        reply = peer.flush()
    return _fair_reply(peer_id, peer, reply, view=call == "view")


def _fair_record(peer: Any) -> dict:
    game = peer.game
    if game is None or game.stage != "done" or game.referee is None:
        raise BridgeError(
            "game_not_over", "a record is given once the game is over and the audit is done"
        )
    if game.facts.public:
        raise BridgeError("bad_record", "Blind friend games cannot be kept as records yet")
    return export_record(game.referee)


def op_fair_state(message: dict) -> dict:
    """The peer's whole state, for this page's own storage (its own secrets included)."""
    peer_id, peer = _peer(message)
    _states_given[peer_id] = peer.state
    return {"peer": peer_id, "state": peer.to_json()}


def op_fair_restore(message: dict) -> dict:
    """A friend game from this page's storage (after a reload); refused as `bad_state`."""
    from junqi_core.fair import FairPeer

    FairError, _, _ = _fair_errors()
    state = message.get("state")
    if not isinstance(state, str) or len(state) > MAX_REQUEST_CHARS:
        raise BridgeError("bad_state", "state must be the text a friend game was saved as")
    try:
        peer = FairPeer.from_json(state)
        view = peer.view()
    except FairError as error:
        raise BridgeError(error.code, str(error)) from None
    except Exception as error:  # a damaged save: refuse it whole
        damage = type(error).__name__
        raise BridgeError("bad_state", f"the saved friend game is damaged ({damage})") from None
    peer_id = _store_peer(peer)
    _views_given[peer_id] = _states_given[peer_id] = peer.state  # the page holds the state
    return {"peer": peer_id, "view": view}


def op_fair_taken(message: dict) -> dict:
    """The message for a page that answered this page's invitation after someone else did:
    sent on a channel of its own, it tells that page the invitation was already taken."""
    from junqi_core.fair.peer import taken_notice

    return {"send": [taken_notice()]}


def op_fair_drop(message: dict) -> dict:
    peer_id, _ = _peer(message)
    del _peers[peer_id]
    _forget_given(peer_id)
    return {}


OPS: dict[str, Callable[[dict], dict]] = {
    "version": op_version,
    "variants": op_variants,
    "describe": op_describe,
    "new_game": op_new_game,
    "view": op_view,
    "legal": op_legal,
    "notes": op_notes,
    "setup_random": _setup_op(_random),
    "setup_swap": _setup_op(_swap),
    "setup_mirror": _setup_op(_mirror),
    "setup_set": _setup_op(_set),
    "deploy": _setup_op(_deploy),
    "act": op_act,
    "cpu_act": op_cpu_act,
    "record_export": op_record_export,
    "record_import": op_record_import,
    "record_text": op_record_text,
    "record_link": op_record_link,
    "link_import": op_link_import,
    "replay": op_replay,
    "save": op_save,
    "restore": op_restore,
    "selfplay": op_selfplay,
    "drop": op_drop,
    # friend play
    "fair_host": op_fair_host,
    "fair_guest": op_fair_guest,
    "fair": op_fair,
    "fair_state": op_fair_state,
    "fair_restore": op_fair_restore,
    "fair_drop": op_fair_drop,
    "fair_taken": op_fair_taken,
}
