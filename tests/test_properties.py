"""Properties over seeded random games (hypothesis picks variant, seed and probes)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from junqi_core.game import OVER, PLAY, Game, IllegalActionError
from junqi_core.notation import move_text, parse_position, position_text
from junqi_core.pieces import FACE_DOWN
from junqi_core.record import export_record, import_record
from junqi_core.selfplay import random_game
from junqi_core.views import view

VARIANTS = st.sampled_from(["classic", "blind", "gunjin"])
SETTINGS = settings(max_examples=30, deadline=None, derandomize=True)


def _new(variant: str, seed: int) -> tuple[Game, random.Random]:
    """A deployed game and a random source for its moves, both from the seed."""
    return random_game(variant, seed, max_plies=0), random.Random(seed + 1)


def _pieces(game: Game) -> Counter:
    """Every piece ever in the game: on the board or removed (face-down bit ignored)."""
    on_board = Counter(p & ~FACE_DOWN for p in game.position.board if p)
    removed = Counter(p & ~FACE_DOWN for lost in game.removed for p in lost)
    return on_board + removed


def _check_view_secrecy(game: Game, viewer: int | None) -> None:
    """No rank the viewer has not been shown: own pieces, flipped pieces, or the end."""
    v = view(game, viewer)
    names = game.board_spec.names
    for name, cell in v["board"].items():
        p = game.position.board[game.board_spec.index[name]]
        if game.phase == OVER:
            assert cell["kind"] is not None
        elif p & FACE_DOWN:
            assert cell["kind"] is None and cell["owner"] is None
        elif not game.variant.public_face_up and cell["owner"] != viewer:
            assert cell["kind"] is None, f"{viewer} sees an enemy rank on {name}"
    for lost, loser in zip(v["lost"], (0, 1), strict=True):
        if game.phase != OVER and not game.variant.public_face_up and loser != viewer:
            assert lost["kinds"] is None
    for event in v["history"]:
        combat = event.get("combat")
        if combat and game.phase != OVER and not game.variant.public_face_up:
            mover = event["player"]
            if viewer != mover:
                assert combat["attacker"] is None
            if viewer != 1 - mover:
                assert combat["defender"] is None
    assert len(names) == game.board_spec.size


@SETTINGS
@given(variant=VARIANTS, seed=st.integers(0, 10**6))
def test_random_games_keep_every_invariant(variant, seed):
    game, rng = _new(variant, seed)
    initial = _pieces(game)
    while game.phase == PLAY and game.position.ply < 600:
        before = sum(1 for p in game.position.board if p)
        entry = game.apply(game.turn, move_text(game.board_spec, rng.choice(game.legal_moves())))
        after = sum(1 for p in game.position.board if p)
        assert after == before if not entry.result else after < before
        assert _pieces(game) == initial  # nothing appears, nothing vanishes uncounted
        if game.position.ply % 25 == 0:
            for viewer in (0, 1, None):
                _check_view_secrecy(game, viewer)
    for viewer in (0, 1, None):
        _check_view_secrecy(game, viewer)


@SETTINGS
@given(variant=VARIANTS, seed=st.integers(0, 10**6), plies=st.integers(0, 300))
def test_push_pop_and_position_text_round_trip(variant, seed, plies):
    game = random_game(variant, seed, max_plies=plies)
    position = game.position
    text = position_text(position)
    assert position_text(parse_position(text)) == text
    mark, last = position.height, position.last_move
    for move in position.legal_moves():
        position.push(move)
        assert (position.height, position.last_move) == (mark + 1, move)
        position.pop()
        assert position_text(position) == text
        assert (position.height, position.last_move) == (mark, last)


@SETTINGS
@given(variant=VARIANTS, seed=st.integers(0, 10**6), plies=st.integers(0, 300))
def test_generate_tells_moves_onto_empty_posts_from_attacks(variant, seed, plies):
    position = random_game(variant, seed, max_plies=plies).position
    board = position.board
    for player in (0, 1):
        quiet: list[int] = []
        attacks: list[int] = []
        position.generate(player, quiet.append, attacks.append)
        to = position.move_code.to
        assert all(not board[to[m]] for m in quiet)
        assert all(board[to[m]] and position.owner(to[m]) == 1 - player for m in attacks)
        moves = [m for m in position.legal_moves(player) if not position.move_code.is_flip(m)]
        assert sorted(quiet + attacks) == sorted(moves)


@SETTINGS
@given(variant=VARIANTS, seed=st.integers(0, 10**6), plies=st.integers(0, 400))
def test_replaying_a_record_reproduces_the_state(variant, seed, plies):
    game = random_game(variant, seed, max_plies=plies)
    if game.phase == PLAY:
        game.apply(game.turn, "resign:" + str(game.turn))  # records are exported at the end
    replay = import_record(export_record(game))
    assert position_text(replay.position) == position_text(game.position)
    assert replay.result == game.result


@SETTINGS
@given(
    variant=VARIANTS,
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 200),
    probes=st.lists(st.tuples(st.integers(0, 62), st.integers(0, 62)), min_size=20, max_size=40),
)
def test_every_legal_action_applies_and_every_illegal_one_is_refused_unchanged(
    variant, seed, plies, probes
):
    game = random_game(variant, seed, max_plies=plies)
    if game.phase != PLAY:
        return
    size = game.board_spec.size
    legal = set(game.legal_moves())
    text = position_text(game.position)
    history = len(game.history)
    for a, b in probes:
        a, b = a % size, b % size
        move = game.board_spec.move_code.move(a, b)
        if move in legal:
            continue
        action = move_text(game.board_spec, move)
        for player in (0, 1):
            with pytest.raises(IllegalActionError):
                game.apply(player, action)
        assert position_text(game.position) == text and len(game.history) == history
    for move in legal:  # the other player may never play them
        with pytest.raises(IllegalActionError):
            game.apply(1 - game.turn, move_text(game.board_spec, move))
    for move in sorted(legal):
        probe = Game.from_position(game.position.copy())
        probe.apply(game.turn, move_text(game.board_spec, move))
