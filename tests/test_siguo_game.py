"""A whole Siguo game through `Game` and what each seat's view tells: the setup, the
first seat, surrender, passes, draw offers among four, records and replays, and the
hidden-information property over seeded games in every visibility mode."""

from __future__ import annotations

import json
import random

import pytest

from junqi_core import pieces as pc
from junqi_core.game import OVER, PLAY, SETUP, Game, IllegalActionError
from junqi_core.notation import move_text
from junqi_core.record import RecordError, export_record, import_record
from junqi_core.replay import replay
from junqi_core.variants import find_variant
from junqi_core.views import view

S, E, N, W = range(4)
KINDS = {k.kind: k.id for k in pc.JUNQI_KINDS}


def deployed(seed: int = 1, **options) -> Game:
    game = Game(find_variant("siguo", None, options or None), seed=seed)
    for seat in range(4):
        game.deploy(seat)
    return game


def play_random(game: Game, rng: random.Random, plies: int, extras: bool = True):
    """Random legal actions (moves, now and then a pass, an offer or a surrender); yields
    after each one."""
    for _ in range(plies):
        if game.phase != PLAY:
            return
        seat = game.turn
        roll = rng.random()
        actions = game.meta_actions(seat)
        if extras and roll < 0.02 and "pass" in actions:
            game.apply(seat, "pass")
        elif extras and roll < 0.025:
            game.apply(rng.choice([s for s in range(4) if not game.out[s]]), "resign")
        elif extras and roll < 0.03 and "offer" in actions:
            game.apply(seat, "offer")
            for other in range(4):
                if "decline" in game.meta_actions(other):
                    game.apply(other, "decline")
                    break
        else:
            game.apply(seat, move_text(game.board_spec, rng.choice(game.legal_moves())))
        yield game


# --- setup and the first seat --------------------------------------------------------------------


def test_four_layouts_start_play_with_the_first_seat_of_the_seed_or_the_option():
    game = Game("siguo", seed=5)
    assert game.phase == SETUP and len(game.drafts) == 4
    for seat in range(3):
        game.deploy(seat)
        assert game.phase == SETUP
    game.deploy(3)
    assert game.phase == PLAY and game.turn == game.first
    assert Game("siguo", seed=5).first == game.first  # drawn from the seed
    assert {Game("siguo", seed=s).first for s in range(40)} == {0, 1, 2, 3}
    assert deployed(first_player="W").turn == W
    assert sum(1 for p in game.position.board if p) == 100


def test_during_setup_a_seat_sees_its_own_draft_and_only_the_places_of_confirmed_layouts():
    game = Game("siguo", seed=2)
    game.deploy(E)
    south = view(game, S)
    owners = {cell["owner"] for cell in south["board"].values()}
    assert owners == {S, E}
    assert all(c["kind"] is None for c in south["board"].values() if c["owner"] == E)
    assert all(c["kind"] for c in south["board"].values() if c["owner"] == S)
    assert south["deployed"] == [False, True, False, False]


# --- four seats in play --------------------------------------------------------------------------


def test_a_surrender_takes_one_seat_out_and_its_partner_plays_on():
    game = deployed(first_player="S")
    game.apply(N, "resign")  # out of turn: South still moves
    assert game.out == [None, None, "surrender", None]
    assert game.phase == PLAY and game.turn == S
    assert not any(p and pc.seat_of(p) == N for p in game.position.board)
    assert game.meta_actions(N) == []
    with pytest.raises(IllegalActionError):
        game.apply(N, "resign")
    seen = view(game, E)
    assert seen["out"] == [None, None, "surrender", None]
    assert seen["history"][-1]["out"] == [{"player": N, "reason": "surrender"}]
    game.apply(S, "resign")
    assert game.phase == OVER and game.result == (1, "resignation")


def test_passes_are_skips_and_the_fifth_puts_a_seat_out():
    game = deployed(first_player="S")
    for _ in range(4):
        for seat in range(4):
            game.apply(seat, "pass")
    assert game.timeouts == [4, 4, 4, 4] and game.position.ply == 16
    game.apply(S, "pass")
    assert game.out[S] == "skip_limit" and game.turn == E
    closed = deployed(first_player="S", pass_allowed=False)
    assert "pass" not in closed.meta_actions(S)
    with pytest.raises(IllegalActionError) as refused:
        closed.apply(S, "pass")
    assert refused.value.code == "cannot_pass"


def test_a_draw_by_agreement_needs_every_seat_still_in():
    game = deployed(first_player="S")
    game.apply(S, "offer")
    game.apply(E, "accept")
    game.apply(N, "accept")
    assert game.phase == PLAY and "accept" in game.meta_actions(W)
    game.apply(W, "accept")
    assert game.result == (None, "agreed_draw")
    three = deployed(first_player="S")
    three.apply(W, "resign")
    three.apply(S, "offer")
    three.apply(E, "accept")
    three.apply(N, "accept")
    assert three.result == (None, "agreed_draw")
    declined = deployed(first_player="S")
    declined.apply(S, "offer")
    declined.apply(E, "decline")
    assert declined.offer_by is None and "accept" not in declined.meta_actions(N)


def test_a_team_wins_and_the_game_ends_with_everything_shown():
    rng = random.Random(3)
    game = deployed(3)
    for _ in play_random(game, rng, 5000, extras=False):
        pass
    assert game.phase == OVER and game.result.winner in (0, 1)
    losers = [s for s in range(4) if s % 2 != game.result.winner]
    assert all(game.out[s] for s in losers)
    final = view(game, S)
    assert all(cell["kind"] for cell in final["board"].values())


# --- records and replays ----------------------------------------------------------------------


def test_a_record_replays_to_the_same_game_and_names_who_moved_first():
    rng = random.Random(4)
    game = deployed(4, visibility="team_open")
    for _ in play_random(game, rng, 600):
        pass
    record = export_record(game)
    assert len(record["setups"]) == 4 and record["first"] == game.first
    again = import_record(json.loads(json.dumps(record)))
    assert again.position.board == game.position.board and again.result == game.result
    assert again.out == game.out
    bad = dict(record, first=7)
    with pytest.raises(RecordError, match="first"):
        import_record(bad)
    with pytest.raises(RecordError, match="4 layouts"):
        import_record(dict(record, setups=record["setups"][:2]))


def test_a_seats_replay_is_what_that_seat_saw_during_the_game():
    rng = random.Random(6)
    game = deployed(6)
    seen: dict[tuple[int, int], dict] = {}  # (seat, actions so far) -> board
    for _ in play_random(game, rng, 300):
        for seat in range(4):
            seen[seat, len(game.history)] = view(game, seat)["board"]
    record = export_record(game)
    for seat in (E, W):
        frames = replay(record, seat)["frames"]
        compared = [k for k in range(len(frames)) if (seat, k) in seen]
        assert len(compared) > 250
        assert all(frames[k]["board"] == seen[seat, k] for k in compared)


# --- what each seat may know --------------------------------------------------------------------


def knows(game: Game, viewer: int, owner: int) -> bool:
    visibility = game.variant.visibility
    return (
        owner == viewer
        or visibility == "open"
        or (visibility == "team_open" and owner == viewer ^ 2)
    )


@pytest.mark.parametrize("visibility", ["dark4", "team_open", "open"])
def test_no_seat_learns_a_rank_it_may_not_know(visibility):
    """Over seeded games in every visibility mode, at every step and for every seat: a
    rank shows on the board, in a combat or in the lost pieces only if the seat may know
    it (its own; its partner's under team_open; all under open; a flag shown after its
    Marshal fell), and moves are offered only to the seat to move."""
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        game = deployed(seed, visibility=visibility)
        for _ in play_random(game, rng, 250):
            if game.phase == OVER:
                break
            for seat in range(4):
                shown = view(game, seat)
                for name, cell in shown["board"].items():
                    p = game.position.board[game.board_spec.index[name]]
                    owner = pc.seat_of(p)
                    assert cell["owner"] == owner
                    flag_shown = game.flag_shown[owner] and p & pc.KIND_MASK == pc.FLAG
                    if cell["kind"] is not None:
                        assert knows(game, seat, owner) or flag_shown
                        assert cell["kind"] == KINDS[p & pc.KIND_MASK]
                    else:
                        assert not knows(game, seat, owner) and not flag_shown
                for entry, event in zip(game.history, shown["history"], strict=True):
                    combat = event.get("combat")
                    if combat:
                        attacker, defender = pc.seat_of(entry.mover), pc.seat_of(entry.target)
                        assert combat["against"] == defender
                        assert (combat["attacker"] is not None) == knows(game, seat, attacker)
                        if combat["defender"] is not None:
                            assert knows(game, seat, defender) or entry.target & 31 == pc.FLAG
                for owner, lost in enumerate(shown["lost"]):
                    assert (lost["kinds"] is not None) == knows(game, seat, owner)
                assert (shown["dests"] is not None) == (seat == game.turn)
                checked += 1
    assert checked > 1500
