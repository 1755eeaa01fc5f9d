"""Seeded four-seat Siguo positions and games for the tests (every failure replays)."""

from __future__ import annotations

import random

from junqi_core import pieces as pc
from junqi_core.siguo.board import SIGUO_BOARD
from junqi_core.siguo.deployment import SIGUO_DEPLOYMENT
from junqi_core.siguo.rules import SiguoPosition

BOARD = SIGUO_BOARD


def sq(name: str) -> int:
    return BOARD.index[name]


def placed(cls: type[SiguoPosition] = SiguoPosition, turn: int = 0, **pieces) -> SiguoPosition:
    """A position from `post=(kind, seat)` keywords (empty board otherwise)."""
    board = [0] * BOARD.size
    for name, (kind, seat) in pieces.items():
        board[sq(name)] = pc.seat_piece(kind, seat)
    return cls(board, turn=turn)


def start(seed: int, cls: type[SiguoPosition] = SiguoPosition) -> SiguoPosition:
    """Four random legal layouts and a random first seat, settled."""
    rng = random.Random(seed)
    board = [0] * BOARD.size
    for seat in range(4):
        for square, kind in SIGUO_DEPLOYMENT.random_layout(seat, rng).items():
            board[square] = pc.seat_piece(kind, seat)
    position = cls(board, turn=rng.randrange(4))
    position.settle()
    return position


def random_game(seed: int, plies: int, cls: type[SiguoPosition] = SiguoPosition, passes=0.02):
    """Yield (position, move) along a seeded random game: moves, some passes and, now and
    then, a surrender; the position is the one the move is about to be played in."""
    rng = random.Random(seed)
    position = start(seed, cls)
    for _ in range(plies):
        moves = position.legal_moves()
        if position.outcome_given(moves) is not None:
            return
        roll = rng.random()
        if roll < passes:
            move = position.move_code.PASS
        elif roll < passes + 0.002:
            move = position.surrender_move(rng.choice(position.in_game()))
        else:
            attacks = [m for m in moves if position.board[position.move_code.to[m]]]
            move = rng.choice(attacks if attacks and rng.random() < 0.5 else moves)
        yield position, move
        position.push(move)
