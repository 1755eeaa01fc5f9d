"""Every door of the engine fed seeded malformed values: the bridge's ops and the friend
protocol's messages, with bools and floats where whole numbers belong, deep nesting, huge
texts, unknown keys, missing keys and wrong types at every field, nested documents (records,
saves, layouts, rule options, friend-game states and messages) included.  Each reply is an
answer or a clean refusal, never "internal"; a refusal quotes little of what was sent and
changes no game.  The seed makes a failure replay; longer runs of the same fuzzers:

    PYTHONPATH=.:tests python3 -c "import test_doors_fuzz as f; print(f.fuzz_bridge(7, 50_000))"
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from helpers import ok

from junqi_core import bridge
from junqi_core.bridge import handle
from junqi_core.fair.group import element_hex
from junqi_core.fair.messages import SCHEMAS
from junqi_core.fair.ot import ROW_BYTES
from junqi_core.record import export_record
from junqi_core.selfplay import random_game
from tests.fairkit import Table, resign_holding_opening

SEED = 34
HUGE = "x" * 100_000
DEEP = re.compile(r'(\\*)"DEEP_(\d+)_([LO])\\*"')


def _bad_values(rng: random.Random) -> list[Any]:
    depth = rng.choice([33, 40, rng.randint(900, 999), 5_000])
    return [
        0,
        1,
        "all",
        True,
        False,
        1.0,
        0.0,
        -0.0,
        2.5,
        float("nan"),
        float("inf"),
        -1,
        2**53,
        2**63,
        10**40,
        None,
        "",
        HUGE,
        "é💥\u0000",
        "pass",
        [],
        {},
        [0, 1],
        [0] * 5_000,
        {"zz": 1},
        {f"k{i}": i for i in range(2_000)},
        f"DEEP_{depth}_{rng.choice('LO')}",  # a nesting `depth` deep, made in the text
    ]


def _paths(value: Any, limit: int = 5) -> list[tuple]:
    """Paths to the keys and items of nested objects and lists (long lists: a few items)."""
    out: list[tuple] = []
    stack: list[tuple[tuple, Any]] = [((), value)]
    while stack:
        path, item = stack.pop()
        if len(path) >= limit:
            continue
        if isinstance(item, dict):
            children = list(item.items())
        elif isinstance(item, list):
            children = list(enumerate(item))
            if len(children) > 6:
                children = children[:3] + children[-3:]
        else:
            continue
        for key, child in children:
            out.append((*path, key))
            stack.append(((*path, key), child))
    return out


def _mutate(value: Any, rng: random.Random) -> Any:
    """`value` with one change at a random place: a bad value, a key taken away, or a key
    the format does not have."""
    value = json.loads(json.dumps(value))  # a copy
    paths = [p for p in _paths(value) if p not in (("op",), ("type",))] or _paths(value)
    if not paths or rng.random() < 0.02:  # now and then the op or type itself
        paths = _paths(value)
    if not paths:
        return value
    path = rng.choice(paths)
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    roll = rng.random()
    if roll < 0.75:
        parent[key] = rng.choice(_bad_values(rng))
    elif roll < 0.88 and isinstance(parent, dict):
        del parent[key]
    elif isinstance(parent[key], dict):
        parent[key]["zz_unknown"] = rng.choice([1, "x", None, True])
    else:
        parent[key] = rng.choice(_bad_values(rng))
    return value


def _nesting(depth: int, kind: str) -> str:
    if kind == "L":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


def _text(value: Any) -> str:
    """JSON text of `value`, with each DEEP_ marker (at any level of JSON-in-a-string)
    replaced by a nesting that deep: too deep for json.dumps to write itself."""
    text = json.dumps(value, ensure_ascii=False)
    return DEEP.sub(lambda m: _nesting(int(m.group(2)), m.group(3)), text)


# --- the bridge ---------------------------------------------------------------------------------


class Doors:
    """Live games and friend games of each kind, and a valid request for every op."""

    def __init__(self) -> None:
        self.made: list[tuple[str, str]] = []  # ("game" | "peer", id) to drop afterwards
        self.build()

    def game(self, **request: Any) -> str:
        game = ok(op="new_game", **request)["game"]
        self.made.append(("game", game))
        return game

    def build(self) -> None:
        self.cpu = self.game(variant="classic", seed=5, cpu={"1": "random"}, viewer=0)
        ok(op="deploy", game=self.cpu, player=0)
        view = ok(op="view", game=self.cpu, player=0)["view"]
        if view["turn"] == 1:
            ok(op="cpu_act", game=self.cpu, player=1, viewer=0)
        view = ok(op="view", game=self.cpu, player=0)["view"]
        frm = sorted(view["dests"]["moves"])[0]
        self.move = f"{frm}-{view['dests']['moves'][frm][0]['to']}"
        self.setup = self.game(variant="gunjin", seed=6)
        self.blind = self.game(variant="blind", seed=7)
        self.record = export_record(random_game("classic", 8))
        self.over = ok(op="record_import", record=self.record)["game"]
        self.made.append(("game", self.over))
        self.link = ok(op="record_link", game=self.over)["link"]
        self.save = ok(op="save", game=self.cpu)["save"]
        self.layout = {
            square: cell["kind"]
            for square, cell in ok(op="view", game=self.setup, player=0)["view"]["board"].items()
        }
        host = ok(op="fair_host", variant="classic", clock={"deploy": 60, "move": 30})
        self.host, self.hello = host["peer"], host["send"][0]
        self.guest = ok(op="fair_guest")["peer"]
        self.state = ok(op="fair_state", peer=self.host)["state"]
        self.made += [("peer", self.host), ("peer", self.guest)]
        # two peers of this page that have said hello: both arrange their setups
        paired = ok(op="fair_host", variant="gunjin")
        self.paired = paired["peer"]
        partner = ok(op="fair_guest")["peer"]
        self.made += [("peer", self.paired), ("peer", partner)]
        for text in ok(op="fair", peer=partner, call="receive", text=paired["send"][0])["send"]:
            ok(op="fair", peer=self.paired, call="receive", text=text)
        board = ok(op="fair", peer=self.paired, call="view")["view"]["board"]
        self.fair_layout = {square: cell["kind"] for square, cell in board.items()}

    def drop(self) -> None:
        for kind, made in self.made:
            handle(json.dumps({"op": "drop" if kind == "game" else "fair_drop", kind: made}))
        self.made = []

    def requests(self) -> list[tuple[dict, tuple[str, ...]]]:
        """(request, its fields that travel as JSON text) for every op."""
        cpu, setup, blind, over = self.cpu, self.setup, self.blind, self.over
        rules = {"variant": "classic", "preset": "chinese", "options": {"quiet_limit": 60}}
        return [
            ({"op": "version"}, ()),
            ({"op": "variants"}, ()),
            ({"op": "describe", **rules}, ()),
            ({"op": "new_game", **rules, "seed": 3, "cpu": {"1": "easy"}, "viewer": 0}, ()),
            ({"op": "view", "game": cpu, "player": 0}, ()),
            ({"op": "view", "game": blind, "player": None}, ()),
            ({"op": "legal", "game": cpu, "player": 0, "square": self.move[:2]}, ()),
            ({"op": "notes", "game": cpu, "player": 0}, ()),
            ({"op": "setup_random", "game": setup, "player": 0, "seed": 4}, ()),
            ({"op": "setup_swap", "game": setup, "player": 0, "a": "a1", "b": "b1"}, ()),
            ({"op": "setup_mirror", "game": setup, "player": 1}, ()),
            (
                {
                    "op": "setup_set",
                    "game": setup,
                    "player": 1,
                    "layout": self.layout,
                    "from_player": 0,
                },
                (),
            ),
            ({"op": "deploy", "game": setup, "player": 0}, ()),
            ({"op": "act", "game": cpu, "player": 0, "action": self.move}, ()),
            ({"op": "act", "game": blind, "player": 0, "action": "offer:0"}, ()),
            ({"op": "cpu_act", "game": cpu, "player": 1, "viewer": 0}, ()),
            ({"op": "record_export", "game": over, "meta": {"date": "2026-12-02"}}, ()),
            ({"op": "record_import", "record": self.record, "viewer": 0}, ()),
            ({"op": "record_import", "record": self.record, "viewer": None}, ("record",)),
            ({"op": "record_text", "game": over}, ()),
            ({"op": "record_link", "game": over}, ()),
            ({"op": "link_import", "link": self.link, "viewer": 1}, ()),
            ({"op": "replay", "game": over, "viewer": "all"}, ()),
            ({"op": "replay", "record": self.record, "viewer": 0}, ("record",)),
            ({"op": "replay", "link": self.link, "viewer": 1}, ()),
            ({"op": "save", "game": cpu, "text": True}, ()),
            ({"op": "restore", "save": self.save, "viewer": 0}, ()),
            ({"op": "restore", "save": self.save, "viewer": 0}, ("save",)),
            ({"op": "selfplay", "variant": "blind", "games": 1, "seed": 2}, ()),
            ({"op": "drop", "game": blind}, ()),
            (
                {
                    "op": "fair_host",
                    **rules,
                    "clock": {"deploy": 60, "move": 30},
                },
                (),
            ),
            ({"op": "fair_guest"}, ()),
            (
                {"op": "fair", "peer": self.guest, "call": "receive", "text": self.hello},
                ("text",),
            ),
            ({"op": "fair", "peer": self.host, "call": "act", "action": "c3-c4", "now": 5}, ()),
            (
                {
                    "op": "fair",
                    "peer": self.host,
                    "call": "setup",
                    "setup": "swap",
                    "a": "a1",
                    "b": "b1",
                },
                (),
            ),
            ({"op": "fair", "peer": self.host, "call": "tick", "now": 1_000}, ()),
            ({"op": "fair", "peer": self.host, "call": "view"}, ()),
            ({"op": "fair", "peer": self.host, "call": "record"}, ()),
            ({"op": "fair", "peer": self.paired, "call": "setup", "setup": "random"}, ()),
            (
                {
                    "op": "fair",
                    "peer": self.paired,
                    "call": "setup",
                    "setup": "set",
                    "layout": self.fair_layout,
                },
                (),
            ),
            (
                {"op": "fair", "peer": self.paired, "call": "deploy", "layout": self.fair_layout},
                (),
            ),
            ({"op": "fair", "peer": self.paired, "call": "reconnect"}, ()),
            ({"op": "fair_state", "peer": self.host}, ()),
            ({"op": "fair_restore", "state": self.state}, ("state",)),
            ({"op": "fair_drop", "peer": self.guest}, ()),
        ]


def _as_text(request: dict, fields: tuple[str, ...]) -> dict:
    """The fields that travel as JSON text written as text (unless a bad value took the
    place of the whole field)."""
    out = dict(request)
    for name in fields:
        if isinstance(out.get(name), (dict, list)):
            out[name] = _text(out[name])
    return out


def _decoded(request: dict, fields: tuple[str, ...]) -> dict:
    """The template with its text fields parsed, so that a mutation reaches inside them."""
    out = dict(request)
    for name in fields:
        if isinstance(out.get(name), str):
            out[name] = json.loads(out[name])
    return out


def _snapshot() -> tuple:
    """Everything a refused request must leave as it was: every game and every peer."""
    games = {}
    for game_id, session in bridge._sessions.items():
        game = session.game
        cpus = tuple(
            (seat, cpu.level, cpu.seed, json.dumps(getattr(cpu, "state", lambda: None)()))
            for seat, cpu in sorted(session.cpus.items())
        )
        games[game_id] = (
            game.phase,
            tuple(game.actions_text()),
            repr(game.drafts),
            repr(game.layouts),
            game.offer_by,
            repr(game.result),
            cpus,
        )
    peers = {peer_id: peer.to_json() for peer_id, peer in bridge._peers.items()}
    return list(games.items()), list(peers.items())


CHANGES_STATE = {"act", "cpu_act", "deploy", "drop", "fair", "fair_drop", "fair_host"}
CHANGES_STATE |= {"fair_guest", "fair_restore", "new_game", "record_import", "link_import"}
CHANGES_STATE |= {"restore", "setup_random", "setup_swap", "setup_mirror", "setup_set"}


def _cpu_ranks_shown(request: dict, reply: dict, doors: Doors) -> list[str]:
    """Squares where an answer names the rank of a CPU's piece before the game is over."""
    seats: set[int] = set()
    if request.get("game") == doors.cpu:
        seats = {1}
    elif isinstance(reply.get("summary"), dict):  # restore
        seats = {int(seat) for seat in reply["summary"]["cpus"]}
    elif request.get("op") == "new_game" and isinstance(request.get("cpu"), dict):
        seats = {int(seat) for seat in request["cpu"] if seat in ("0", "1")}
    view = reply.get("view")
    if not seats or not isinstance(view, dict) or view.get("phase") == "over":
        return []
    board = view.get("board") or {}
    return [sq for sq, cell in board.items() if cell["owner"] in seats and cell["kind"]]


def _check_refusal(reply: dict, sent: str) -> None:
    error = reply["error"]
    assert error["code"] != "internal", (error, sent[:300])
    assert isinstance(error["message"], str) and len(error["message"]) < 400, error
    assert "x" * 41 not in error["message"], error["message"][:100]


def fuzz_bridge(seed: int, rounds: int) -> dict[str, int]:
    """`rounds` malformed requests; the refusal codes seen, counted."""
    rng = random.Random(seed)
    doors = Doors()
    codes: dict[str, int] = {}
    try:
        for _ in range(rounds):
            request, fields = rng.choice(doors.requests())
            mutated = _mutate(_decoded(request, fields), rng)
            sent = _text(_as_text(mutated, fields))
            before = _snapshot()
            reply = json.loads(handle(sent))
            assert reply["v"] == 1
            assert _cpu_ranks_shown(mutated, reply, doors) == [], sent[:300]
            if "error" in reply:
                _check_refusal(reply, sent)
                assert _snapshot() == before, ("a refusal changed a game", sent[:300])
                codes[reply["error"]["code"]] = codes.get(reply["error"]["code"], 0) + 1
            elif request["op"] in CHANGES_STATE:
                for kind in ("game", "peer"):
                    if isinstance(reply.get(kind), str):
                        doors.made.append((kind, reply[kind]))
                doors.drop()
                doors.build()
    finally:
        doors.drop()
    return codes


def test_every_bridge_op_refuses_malformed_values_cleanly_and_changes_nothing():
    # 1,000 rounds reach the same 28 refusal codes as 1,500 did (longer runs: see the top)
    codes = fuzz_bridge(SEED, 1_000)
    assert {"too_deep", "cpu_seat", "bad_clock", "unknown_peer", "version_mismatch"} <= set(codes)
    assert len(codes) > 20, codes


# --- the friend protocol ---------------------------------------------------------------------


def _midgame(seed: int) -> Table:
    table = Table("classic", seed=seed)
    table.deploy_all()
    while table.to_move() != "guest" or len(table.records()) < 4:
        table.step()
    return table


def _message_fields(table: Table, kind: str) -> dict:
    """Plausible fields for a message of `kind` to the host (the guest is to move)."""
    h = len(table.records())
    element, digest = element_hex(4), "ab" * 32
    rows = ["00" * ROW_BYTES]
    return {
        "hello": {
            "role": "guest",
            "nonce": digest,
            "engine": "x",
            "rules": table.host.state.match.rules,
            "clock": None,
        },
        "commit": {"root": digest},
        "commitments": {"list": [digest] * 3, "key": element},
        "deck": {"cards": [element] * 50},
        "act": {"h": h, "action": table.choices("guest")[0], "ot": element},
        "ot_reply": {"h": h, "rows": rows, "ot": element, "key": element},
        "ot_rows": {"h": h, "rows": rows, "outcome": 1, "key": element},
        "flip_share": {"h": h, "share": element, "card": 3},
        "status": {"h": h, "mobile": True},
        "status_reply": {"h": h, "mobile": False},
        "reveal": {"h": h, "square": "a1", "salt": "00" * 16},
        "request": {"h": h, "action": "offer:1", "id": 0},
        "resign": {"h": h},
        "claim_timeout": {"h": h},
        "abandon": {},
        "dispute": {"h": h, "reason": "no"},
        "open": {"secrets": {"layout": {}}},
        "rematch": {"nonce": digest},
        "resume": {"recv": 0, "chain": digest, "sent": 0, "answer": False},
        "taken": {},
    }[kind]


def fuzz_friend(seed: int, rounds: int) -> dict[str, int]:
    """`rounds` messages to a page mid-game, most of them malformed; the codes, counted."""
    rng = random.Random(seed)
    table = _midgame(seed)
    kinds = sorted(SCHEMAS)
    refused: dict[str, int] = {}
    for round_ in range(rounds):
        host = table.host
        kind = rng.choice(kinds)
        message = {"v": 1, "type": kind, "from": "guest", "sid": host.game.sid}
        if kind != "resume":
            message["seq"] = host.state.conn.seq_in
        message.update(_message_fields(table, kind))
        text = _text(_mutate(message, rng) if round_ % 10 else message)
        before, view = host.to_json(), host.view()
        reply = host.receive(text, now=0)
        if reply["ok"]:  # a message that happened to stay acceptable: a fresh game
            table = _midgame(seed + round_)
            continue
        _check_refusal(reply, text)
        assert reply["send"] == [] and host.to_json() == before and host.view() == view, text
        refused[reply["error"]["code"]] = refused.get(reply["error"]["code"], 0) + 1
    return refused


def test_every_friend_message_refuses_malformed_values_cleanly_and_changes_nothing():
    refused = fuzz_friend(SEED, 600)
    assert "malformed" in refused and "bad_element" in refused and len(refused) > 5, refused


def _held_opening(variant: str, seed: int) -> tuple[str, dict]:
    """The host's state once the guest has resigned, and the guest's opening held back:
    the host's audit runs on the opening it receives next."""
    table = Table(variant, seed=seed)
    table.deploy_all()
    for _ in range(6):
        table.step()
    resign_holding_opening(table, "guest")
    opened = [text for sender, text in table.log if sender == "guest" and '"open"' in text]
    return table.host.to_json(), json.loads(opened[-1])


def fuzz_openings(seed: int, rounds: int) -> dict[str, int]:
    """`rounds` malformed openings per variant; refusal codes and verdicts, counted."""
    from junqi_core.fair import FairPeer

    rng = random.Random(seed)
    outcomes: dict[str, int] = {}
    for variant in ("classic", "blind"):
        state, opening = _held_opening(variant, seed)
        assert FairPeer.from_json(state).receive(json.dumps(opening), now=0)["ok"]
        for _ in range(rounds):
            host = FairPeer.from_json(state)
            text = _text(_mutate(opening, rng))
            reply = host.receive(text, now=0)
            if not reply["ok"]:
                _check_refusal(reply, text)
                assert host.to_json() == state, text[:300]
                outcome = reply["error"]["code"]
            else:
                verdict = host.game.verdict
                outcome = "ok" if verdict.ok else verdict.fault.code
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes


def test_every_opening_at_the_audit_refuses_or_judges_malformed_secrets_never_internal():
    """What the other side opens at the end goes to the audit: a malformed opening is
    refused, or judged as a broken rule of its sender; never an engine error."""
    outcomes = fuzz_openings(SEED, 150)
    assert "bad_opening" in outcomes and "malformed" in outcomes, outcomes


# --- the nesting measure the doors rely on -----------------------------------------------------


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _random_json(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth <= 0 or roll < 0.3:
        return rng.choice([1, None, 2.5, 'a[{"\\', "]]}}", 'x\\"[', "é[", ""])
    if roll < 0.65:
        return [_random_json(rng, depth - 1) for _ in range(rng.randint(0, 3))]
    keys = ["k", "[", '}"', "a\\"]
    return {
        f"{rng.choice(keys)}{i}": _random_json(rng, depth - 1) for i in range(rng.randint(0, 3))
    }


def test_the_nesting_told_from_the_text_is_the_nesting_of_the_value():
    """Brackets inside strings (escaped quotes and backslashes too) do not count."""
    from junqi_core.text import nests_deeper

    rng = random.Random(SEED)
    for _ in range(3_000):
        value = _random_json(rng, rng.randint(0, 40))
        text = json.dumps(value, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 1]))
        for limit in (3, 32):
            assert nests_deeper(text, limit) == (_depth(value) > limit), text[:200]
