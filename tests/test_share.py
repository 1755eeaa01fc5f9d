"""Share links, readable move lists and saved games (docs/records.md, docs/api.md)."""

from __future__ import annotations

import json

import pytest
from helpers import call, ok

from junqi_core.record import MAX_ACTIONS, export_record
from junqi_core.selfplay import random_game
from junqi_core.share import LinkError, decode_link, encode_link, record_text
from junqi_core.variants import PRESETS, VARIANT_IDS, find_variant


@pytest.mark.parametrize("variant_id, preset", [(v, p.id) for v in VARIANT_IDS for p in PRESETS[v]])
def test_a_link_round_trips_to_the_same_record(variant_id, preset):
    game = random_game(find_variant(variant_id, preset), 21)
    assert decode_link(encode_link(game)) == export_record(game)


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_a_typical_150_ply_game_fits_in_2000_characters(variant_id):
    lengths = []
    for seed in range(5):
        game = random_game(variant_id, seed, max_plies=150)
        lengths.append(len(encode_link(game)))
    assert max(lengths) <= 2000 - len("https://example.org/junqi/#replay=")


def _flip_char(text: str, at: int) -> str:
    return text[:at] + ("A" if text[at] != "A" else "B") + text[at + 1 :]


@pytest.mark.parametrize(
    "damage",
    [
        lambda t: t[: len(t) // 2],
        lambda t: _flip_char(t, len(t) // 2),
        lambda t: _flip_char(t, 3),
        lambda t: "!!" + t,
        lambda t: "",
        lambda t: "A" * 30_000,
        lambda t: t + "AAAA",
    ],
)
def test_a_damaged_link_is_refused_with_a_message(damage):
    text = encode_link(random_game("classic", 8))
    with pytest.raises(LinkError) as error:
        decode_link(damage(text))
    assert len(str(error.value)) > 10


def test_link_ops_in_the_bridge_open_the_replay_and_refuse_bad_links():
    game = random_game("gunjin", 3)
    record = export_record(game)
    imported = ok(op="record_import", record=record)["game"]
    link = ok(op="record_link", game=imported)["link"]
    opened = ok(op="link_import", link=link, viewer=None)
    assert opened["record"] == record and opened["view"]["result"] == record["result"]
    reply = call(op="link_import", link=link[:-5])
    assert reply["error"]["code"] == "bad_link"
    live = ok(op="new_game", variant="classic")["game"]
    assert call(op="record_link", game=live)["error"]["code"] == "game_not_over"


def test_the_move_list_names_every_move_and_combat_of_a_finished_game():
    game = random_game("classic", 4)
    text = record_text(game)
    assert text.startswith("Classic Junqi\nRules: standard\nResult:")
    numbered = [line for line in text.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    assert len(numbered) == len(game.history)
    assert "attacks" in text
    blind = record_text(random_game("blind", 4))
    assert "turns over" in blind


# --- saved games -----------------------------------------------------------------------------


def _cpu_game(variant: str, seed: int, plies: int) -> tuple[str, list[str]]:
    """A seeded game against the Easy CPU, `plies` plies in, and the actions so far."""
    game = ok(op="new_game", variant=variant, seed=seed, cpu={"1": "easy"}, viewer=0)["game"]
    if variant != "blind":
        ok(op="deploy", game=game, player=0)
    for _ in range(plies):
        v = ok(op="view", game=game, player=0)["view"]
        if v["phase"] != "play":
            break
        if v["turn"] == 0:
            dests = v["dests"]
            if dests["flips"]:
                action = f"flip:{sorted(dests['flips'])[0]}"
            else:
                frm = sorted(dests["moves"])[0]
                action = f"{frm}-{dests['moves'][frm][0]['to']}"
            ok(op="act", game=game, player=0, action=action)
        else:
            ok(op="cpu_act", game=game, player=1, viewer=0)
    return game, [e["action"] for e in ok(op="view", game=game, player=0)["view"]["history"]]


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_saved_cpu_game_goes_on_exactly_as_the_uninterrupted_one(variant):
    game, _ = _cpu_game(variant, 5, 9)
    saved = ok(op="save", game=game)
    assert saved["summary"]["cpus"] == {"1": "easy"}
    assert "seed" not in json.dumps(saved["summary"])
    restored = ok(op="restore", save=json.dumps(saved["save"]), viewer=0)
    assert restored["view"] == ok(op="view", game=game, player=0)["view"]
    for session in (game, restored["game"]):  # the CPU's next choices are the same
        for _ in range(3):
            v = ok(op="view", game=session, player=0)["view"]
            if v["phase"] != "play":
                break
            if v["turn"] == 1:
                ok(op="cpu_act", game=session, player=1, viewer=0)
            else:
                frm = sorted(v["dests"]["moves"] or {"": []})[0]
                action = (
                    f"flip:{sorted(v['dests']['flips'])[0]}"
                    if v["dests"]["flips"]
                    else f"{frm}-{v['dests']['moves'][frm][0]['to']}"
                )
                ok(op="act", game=session, player=0, action=action)
    assert (
        ok(op="view", game=game, player=0)["view"]["history"]
        == ok(op="view", game=restored["game"], player=0)["view"]["history"]
    )


def test_a_hot_seat_game_saved_during_setup_keeps_each_draft():
    game = ok(op="new_game", variant="gunjin", seed=9)["game"]
    ok(op="setup_swap", game=game, player=0, a="a1", b="b1")
    ok(op="deploy", game=game, player=1)
    save = ok(op="save", game=game)["save"]
    restored = ok(op="restore", save=save, viewer=None)
    curtain = restored["view"]["board"]  # the curtain: the deployed side's tiles, no ranks
    assert len(curtain) == 23 and all(cell["kind"] is None for cell in curtain.values())
    for player in (0, 1):
        assert (
            ok(op="view", game=restored["game"], player=player)["view"]
            == ok(op="view", game=game, player=player)["view"]
        )


@pytest.mark.parametrize(
    "damage",
    [
        lambda s: "not json",
        lambda s: {**s, "format": "junqi-record"},
        lambda s: {**s, "version": 99},
        lambda s: {**s, "extra": 1},
        lambda s: {**s, "cpus": {"1": {"level": "god", "seed": 1}}},
        lambda s: {**s, "cpus": {"1": {"level": "easy", "seed": -1}}},
        lambda s: {**s, "cpus": {"5": {"level": "easy", "seed": 1}}},
        lambda s: {**s, "version": True},
        lambda s: {**s, "version": float(s["version"])},
        lambda s: {**s, "cpus": {"1": {**s["cpus"]["1"], "peek": True}}},
        lambda s: {**s, "cpus": {"1": {**s["cpus"]["1"], "seed": float(s["cpus"]["1"]["seed"])}}},
        lambda s: {**s, "cpus": {"1": {k: v for k, v in s["cpus"]["1"].items() if k != "seed"}}},
        lambda s: {**s, "record": {**s["record"], "actions": ["a1-e12"]}},
        lambda s: {**s, "drafts": "x"},
        lambda s: [s],
    ],
)
def test_a_damaged_or_foreign_save_is_refused_and_stores_no_game(damage):
    from junqi_core import bridge

    game, _ = _cpu_game("classic", 2, 4)
    save = ok(op="save", game=game)["save"]
    before = set(bridge._sessions)
    reply = call(op="restore", save=damage(save), viewer=0)
    assert reply["error"]["code"] == "bad_save", reply
    assert set(bridge._sessions) == before


def test_a_save_as_text_keeps_a_secret_seed_whole():
    """The page's games carry a CPU seed from `secrets` (62 bits): the worker keeps the save
    as text (`text: true`), since a JavaScript number would round the seed."""
    game = ok(op="new_game", variant="classic", cpu={"1": "easy"}, viewer=0)["game"]
    ok(op="deploy", game=game, player=0)
    saved = ok(op="save", game=game, text=True)
    assert isinstance(saved["save"], str)
    seed = json.loads(saved["save"])["cpus"]["1"]["seed"]
    assert seed == ok(op="save", game=game)["save"]["cpus"]["1"]["seed"]
    restored = ok(op="restore", save=saved["save"], viewer=0)["game"]
    assert ok(op="save", game=restored)["save"]["cpus"]["1"]["seed"] == seed


def _alternate(game: str, plies: int, offer_at: int | None = None) -> None:
    """The human (seat 0) plays its first listed action, offering a draw once, on its
    first turn from ply `offer_at` on where the rules allow; the CPU (seat 1) plays its own
    choices and answers."""
    for ply in range(plies):
        v = ok(op="view", game=game, player=0)["view"]
        if v["phase"] != "play":
            return
        if v["turn"] == 1:
            ok(op="cpu_act", game=game, player=1, viewer=0)
        elif "offer" in v["actions"] and offer_at is not None and ply >= offer_at:
            ok(op="act", game=game, player=0, action="offer:0")
            offer_at = None
        elif v["dests"]["flips"]:
            ok(op="act", game=game, player=0, action=f"flip:{sorted(v['dests']['flips'])[0]}")
        else:
            frm = sorted(v["dests"]["moves"])[0]
            ok(op="act", game=game, player=0, action=f"{frm}-{v['dests']['moves'][frm][0]['to']}")


def _actions(game: str) -> list[str]:
    return [e["action"] for e in ok(op="view", game=game, player=0)["view"]["history"]]


@pytest.mark.parametrize("variant", [v for v in VARIANT_IDS if find_variant(v).seats == 2])
def test_a_saved_game_against_the_random_cpu_goes_on_with_the_same_choices(variant):
    """docs/records.md: a restored CPU chooses exactly as it would have. The random CPU
    draws from one generator for its layout, moves and answers to draw offers, so the save
    keeps that generator's state (a secret of the CPU's, like its seed)."""
    game = ok(op="new_game", variant=variant, seed=17, cpu={"1": "random"}, viewer=0)["game"]
    if variant != "blind":
        ok(op="deploy", game=game, player=0)
    _alternate(game, 8, offer_at=0)
    saved = ok(op="save", game=game, text=True)
    summary = json.dumps(saved["summary"])
    assert "state" not in summary and "seed" not in summary
    restored = ok(op="restore", save=saved["save"], viewer=0)["game"]
    start = len(_actions(game))
    for session in (game, restored):
        _alternate(session, 40, offer_at=38)
    assert len(_actions(game)) > start + 30
    assert _actions(restored) == _actions(game)


def test_the_random_cpus_state_in_a_save_is_checked_like_its_seed():
    game = ok(op="new_game", variant="classic", seed=5, cpu={"1": "random"}, viewer=0)["game"]
    save = ok(op="save", game=game)["save"]
    state = save["cpus"]["1"]["state"]
    for damaged in (
        state[:-1],
        [*state[:-1], 625],
        [float(state[0]), *state[1:]],
        [True, *state[1:]],
        [2**32, *state[1:]],
        [0] * 624 + [624],
        "x",
    ):
        cpus = {"1": {**save["cpus"]["1"], "state": damaged}}
        assert call(op="restore", save={**save, "cpus": cpus})["error"]["code"] == "bad_save"
    easy = ok(op="new_game", variant="classic", seed=5, cpu={"1": "easy"}, viewer=0)["game"]
    easy_save = ok(op="save", game=easy)["save"]
    assert easy_save["cpus"]["1"]["state"] is None  # its choices follow from seed and view
    cpus = {"1": {**easy_save["cpus"]["1"], "state": state}}
    assert call(op="restore", save={**easy_save, "cpus": cpus})["error"]["code"] == "bad_save"


# --- share links that claim too much ------------------------------------------------------------


def _claiming_link(count: int, action_bits: int) -> str:
    """A classic link (standard rules, nobody deployed) that claims `count` actions and
    then holds `action_bits` zero bits, packed as encode_link packs."""
    import base64
    import hashlib
    import zlib

    from junqi_core.share import CHECK_BYTES, LINK_VERSION, OPTIONS, _Bits

    variant = find_variant("classic")
    bits = _Bits()
    bits.put(LINK_VERSION, 4)
    bits.put(VARIANT_IDS.index("classic"), 2)
    for option in OPTIONS["classic"]:
        bits.put(option.choices.index(variant.options[option.id]), 2)
    bits.put(0, 1)
    bits.put(0, 1)
    bits.put(count, 16)
    bits.put(1 << action_bits, action_bits + 1)  # a 1 after the zeros keeps them in the body
    body = bits.to_bytes()
    packed = zlib.compress(hashlib.sha256(body).digest()[:CHECK_BYTES] + body, 9)[2:-4]
    return base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


def _count_reads(monkeypatch) -> list[int]:
    from junqi_core import share

    reads = [0]
    get = share._Bits.get

    def counted(self, bits):
        reads[0] += 1
        return get(self, bits)

    monkeypatch.setattr(share._Bits, "get", counted)
    return reads


@pytest.mark.parametrize(
    "count, action_bits, says",
    [
        (65_535, 65_535 * 12, "more than a game"),  # 178 characters once cost seconds
        (MAX_ACTIONS + 1, (MAX_ACTIONS + 1) * 12, "at most"),
        (10_000, 100 * 12, "cut short"),
    ],
)
def test_a_link_claiming_more_actions_than_allowed_or_held_is_refused_before_decoding(
    monkeypatch, count, action_bits, says
):
    """The claimed number of actions is checked against the record's cap and against the
    bits the link holds before a single action is read (reads of the bit reader counted:
    the header takes a dozen, each action two)."""
    link = _claiming_link(count, action_bits)
    assert len(link) < 300
    reads = _count_reads(monkeypatch)
    with pytest.raises(LinkError, match=says):
        decode_link(link)
    assert reads[0] < 20


def test_a_version_1_save_still_restores_and_has_no_cpu_state():
    """Saves written before the CPU's state was kept: the random CPU's generator starts
    again from its seed, as it did when they were written."""
    game = ok(op="new_game", variant="classic", seed=5, cpu={"1": "random"}, viewer=0)["game"]
    save = ok(op="save", game=game)["save"]
    cpu = {k: v for k, v in save["cpus"]["1"].items() if k != "state"}
    old = {**save, "version": 1, "cpus": {"1": cpu}}
    assert ok(op="restore", save=old, viewer=0)["summary"]["cpus"] == {"1": "random"}
    assert call(op="restore", save={**old, "cpus": save["cpus"]})["error"]["code"] == "bad_save"


def test_a_siguo_game_travels_in_a_link_and_reads_as_a_move_list():
    """Four setups, the first seat, squares of a 129-post board, passes and surrenders:
    the link decodes to the same record; the move list names the winning team."""
    import random

    from junqi_core.game import PLAY, Game
    from junqi_core.notation import move_text

    rng = random.Random(5)
    game = Game(find_variant("siguo", "partners"), seed=5)
    for seat in range(4):
        game.deploy(seat)
    while game.phase == PLAY:
        seat = game.turn
        if rng.random() < 0.01:
            game.apply(seat, "pass")
        elif rng.random() < 0.003:
            game.apply(seat, "resign")
        else:
            game.apply(seat, move_text(game.board_spec, rng.choice(game.legal_moves())))
    record = export_record(game)
    assert decode_link(encode_link(game)) == {**record, "engine": record["engine"]}
    text = record_text(game)
    team = ("South and North", "East and West")[game.result.winner]
    assert f"Result: {team} win" in text and " is out (" in text
