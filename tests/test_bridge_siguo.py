"""The bridge plays Siguo's four seats (docs/api.md): a person with three CPU seats, the
seats' checks, draw offers answered by every CPU seat, layouts carried between seats, a
save and its restore; CPU seats whose seeds are drawn from `secrets` when the game has
no seed.  Siguo's Hard is not offered yet."""

from __future__ import annotations

import json

from junqi_core.bridge import handle


def call(**message) -> dict:
    return json.loads(handle(json.dumps(message)))


def new_game(**extra) -> dict:
    reply = call(op="new_game", variant="siguo", viewer=0, seed=11,
                 cpu={"1": "random", "2": "random", "3": "random"}, **extra)  # fmt: skip
    assert reply["ok"], reply
    return reply


def to_my_turn(game: str, view: dict) -> dict:
    """Let the CPU seats play until seat 0 is to move (or the game ends)."""
    while view["phase"] == "play" and view["turn"] != 0:
        reply = call(op="cpu_act", game=game, player=view["turn"], viewer=0)
        assert reply["ok"], reply
        view = reply["view"]
    return view


def test_a_person_plays_south_with_three_cpu_seats():
    reply = new_game()
    game, view = reply["game"], reply["view"]
    assert view["deployed"] == [False, True, True, True] and view["seats"] == 4
    assert len(reply["description"]["board"]["squares"]) == 129
    view = call(op="deploy", game=game, player=0)["view"]
    assert view["phase"] == "play"
    for _ in range(5):
        view = to_my_turn(game, view)
        if view["phase"] != "play":
            break
        source, targets = next(iter(view["dests"]["moves"].items()))
        view = call(op="act", game=game, player=0, action=f"{source}-{targets[0]['to']}")["view"]
    assert (
        all(cell["kind"] is None for cell in view["board"].values() if cell["owner"] != 0)
        or view["phase"] == "over"
    )


def test_seats_are_checked_against_the_game():
    reply = new_game()
    game = reply["game"]
    assert call(op="view", game=game, player=4)["error"]["code"] == "bad_player"
    assert call(op="view", game=game, player=2)["error"]["code"] == "cpu_seat"
    bad = call(op="new_game", variant="siguo", viewer=0, cpu={"4": "random"})
    assert bad["error"]["code"] == "bad_request"
    two = call(op="new_game", variant="classic", viewer=0, cpu={"1": "random"})
    assert call(op="view", game=two["game"], player=2)["error"]["code"] == "bad_player"


def test_every_cpu_seat_answers_a_draw_offer():
    reply = new_game(options={"first_player": "S"})
    game = reply["game"]
    call(op="deploy", game=game, player=0)
    answered = call(op="act", game=game, player=0, action="offer:0")
    assert answered["ok"], answered
    kinds = [e["type"] for e in answered["events"]]
    assert kinds[0] == "offer"
    # each CPU accepts or declines in seat order until one declines (or all accepted)
    assert set(kinds[1:]) <= {"accept", "decline"} and 1 <= len(kinds) - 1 <= 3
    assert ("decline" in kinds) != (answered["view"]["result"] is not None)


def test_a_layout_made_for_one_seat_is_placed_for_another():
    reply = call(op="new_game", variant="siguo", viewer=0, seed=3, cpu={})
    game = reply["game"]
    south = {name: cell["kind"] for name, cell in reply["view"]["board"].items()}
    east = {"E" + name[1:]: kind for name, kind in south.items()}
    reply = call(op="setup_set", game=game, player=1, layout=south, from_player=0)
    assert reply["ok"], reply
    assert {n: c["kind"] for n, c in reply["view"]["board"].items()} == east


def test_a_siguo_game_saves_and_restores_with_its_cpu_seats():
    reply = new_game()
    game = reply["game"]
    view = call(op="deploy", game=game, player=0)["view"]
    view = to_my_turn(game, view)
    saved = call(op="save", game=game, text=True)
    assert saved["ok"] and saved["summary"]["cpus"] == {"1": "random", "2": "random", "3": "random"}
    restored = call(op="restore", save=saved["save"], viewer=0)
    assert restored["ok"], restored
    assert restored["view"]["board"] == view["board"] and restored["view"]["turn"] == view["turn"]


def test_the_page_is_offered_siguo_without_hard():
    assert "siguo" in call(op="version")["variants"]
    described = call(op="variants")["variants"]
    assert described["siguo"]["teams"] == [0, 1, 0, 1]
    assert described["siguo"]["levels"] == ["random", "easy", "medium"]
    assert "hard" in described["classic"]["levels"]


def test_a_level_that_cannot_play_siguo_is_refused_clearly():
    for level in ("hard", "bot_greedy"):
        refused = call(op="new_game", variant="siguo", viewer=0, cpu={"1": level})
        assert refused["error"]["code"] == "bad_level"


def test_cpu_seats_get_their_seeds_from_secrets(monkeypatch):
    from junqi_core import bridge

    drawn: list[int] = []

    def randbits(k: int) -> int:
        drawn.append(k)
        return 12345 + len(drawn)

    monkeypatch.setattr(bridge.secrets, "randbits", randbits)
    reply = call(op="new_game", variant="siguo", viewer=0, cpu={"1": "medium", "3": "easy"})
    assert reply["ok"], reply
    assert len(drawn) >= 2  # one per CPU seat (the game's own draws may add more)
    cpus = bridge._sessions[reply["game"]].cpus
    assert (cpus[1].level, cpus[3].level) == ("medium", "easy")
    assert {cpus[1].seed, cpus[3].seed} <= {12345 + n for n in range(1, len(drawn) + 1)}
    assert "12346" not in json.dumps(reply) and "12347" not in json.dumps(reply)


def test_friend_play_refuses_siguo_with_a_clear_message():
    refused = call(op="fair_host", variant="siguo")
    assert refused["error"]["code"] == "bad_rules"
    assert "two players" in refused["error"]["message"]
