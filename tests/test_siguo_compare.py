"""The engine's Siguo against an independent reading of the rules (`siguo_reference`,
which imports nothing from the engine), over positions of seeded four-seat games:
every seat's destinations and attacks, and after each move, pass or surrender the board,
the seats out, the turn, the skips, the quiet counter and the result.

The comparison must also be able to fail: each planted fault (an arc removed, a partner
attackable, a piece in a camp attackable, a mine removed when hit) is found in the same
games.
"""

from __future__ import annotations

import functools

import pytest
import siguo_reference as ref
from siguo_games import BOARD, random_game

from junqi_core import pieces as pc
from junqi_core.rules import derive_position_class
from junqi_core.siguo.rules import SiguoPosition

KIND_IDS = {k.kind: k.id for k in pc.JUNQI_KINDS}
GAMES = 12  # seeds: about 1,700 positions in all
PLIES = 400


def reference_state(position: SiguoPosition) -> ref.State:
    pieces = {
        BOARD.names[s]: (pc.seat_of(p), KIND_IDS[p & pc.KIND_MASK])
        for s, p in enumerate(position.board)
        if p
    }
    return ref.State(
        pieces=pieces,
        turn=position.turn,
        out={s for s in range(4) if position.is_out(s)},
        skips=list(position.skips),
        quiet=position.quiet,
        ply=position.ply,
        result=None if position.decided is None else tuple(position.decided),
    )


def engine_moves(position: SiguoPosition, seat: int) -> set[tuple[str, str]]:
    code = position.move_code
    return {(BOARD.names[code.frm[m]], BOARD.names[code.to[m]]) for m in position.legal_moves(seat)}


def reference_moves(state: ref.State, seat: int) -> set[tuple[str, str]]:
    return {
        (post, to)
        for post, (owner, _kind) in state.pieces.items()
        if owner == seat
        for to in ref.destinations(state, post)
    }


def comparable(state: ref.State) -> tuple:
    """What must agree after an action (the turn only while the game goes on)."""
    over = state.result is not None
    return (state.pieces, state.out, state.skips, state.quiet, state.ply, state.result,
            None if over else state.turn)  # fmt: skip


def reference_after(state: ref.State, position: SiguoPosition, move: int) -> ref.State:
    code = position.move_code
    if move == code.PASS:
        return ref.apply_pass(state)
    if move < 0:
        return ref.apply_surrender(state, -1 - move)
    return ref.apply_move(state, BOARD.names[code.frm[move]], BOARD.names[code.to[move]])


def differences(cls: type[SiguoPosition], games: int = GAMES) -> tuple[list[str], int]:
    """Where the engine (with position class `cls`) and the reference disagree, and how
    many positions were compared."""
    found: list[str] = []
    compared = 0
    for seed in range(games):
        for position, move in random_game(seed, PLIES, cls, passes=0.03):
            state = reference_state(position)
            compared += 1
            where = f"seed {seed} ply {position.ply}"
            for seat in position.in_game():
                mine, theirs = engine_moves(position, seat), reference_moves(state, seat)
                if mine != theirs:
                    found.append(f"{where} seat {seat}: engine only {sorted(mine - theirs)[:4]}, "
                                 f"reference only {sorted(theirs - mine)[:4]}")  # fmt: skip
            try:
                expected = reference_after(state, position, move)
            except ValueError as refused:  # the engine played what the rules refuse
                found.append(f"{where}: the reference refuses {move}: {refused}")
                continue
            position.push(move)
            actual = reference_state(position)
            position.pop()
            if comparable(actual) != comparable(expected):
                found.append(f"{where} after {move}: engine {comparable(actual)[1:]}, "
                             f"reference {comparable(expected)[1:]}")  # fmt: skip
            if len(found) > 20:
                return found, compared
    return found, compared


def test_the_engine_agrees_with_the_reference_over_a_thousand_positions():
    found, compared = differences(SiguoPosition)
    assert compared >= 1000
    assert found == []


# --- planted faults: the comparison finds each of them ---------------------------------------


def _without_arc(a: str, b: str) -> type[SiguoPosition]:
    arc = {BOARD.index[a], BOARD.index[b]}
    rails = tuple(e for e in BOARD.rails if set(e) != arc)
    board = type(BOARD)(**{**_fields(BOARD), "rails": rails})

    def cut(prefix: tuple[int, ...], ray: tuple[int, ...]):
        full = (-1, *prefix, *ray)  # (the origin is not on the arc's far side: -1 stands for it)
        for i in range(1, len(full) - 1):
            if {full[i], full[i + 1]} == arc:
                return None if i < len(prefix) else (prefix, ray[: i - len(prefix)])
        return prefix, ray

    slides = []
    for s, own in enumerate(SiguoPosition.slides):
        kept = [cut(p, r) for p, r in own]
        if s in arc:  # the arc's first step from either end
            kept = [(p, r) for p, r in own if not (not p and r and r[0] in arc)]
        slides.append(tuple(k for k in kept if k and k[1]))
    return derive_position_class(SiguoPosition, "NoArc", spec=board, slides=tuple(slides))


def _fields(board) -> dict:
    names = ("id", "files", "ranks", "names", "coords", "roads", "rails", "camps", "hqs", "home",
             "stations", "access", "mountains", "bridges")  # fmt: skip
    return {name: getattr(board, name) for name in names}


def _partners_attackable() -> type[SiguoPosition]:
    enemy = tuple(tuple(bool(p) and pc.seat_of(p) != seat for p in range(256)) for seat in range(4))
    return derive_position_class(SiguoPosition, "PartnerAttackable", enemy=enemy)


def _camps_open() -> type[SiguoPosition]:
    cls = derive_position_class(SiguoPosition, "CampsOpen")
    cls.attackable = (True,) * BOARD.size  # (after the tables it derives from the camps)
    return cls


FAULTS = {
    "an arc removed": functools.partial(_without_arc, "Sa6", "We6"),
    "a partner attackable": _partners_attackable,
    "a piece in a camp attackable": lambda: _camps_open(),
    "a mine removed when hit": lambda: derive_position_class(
        SiguoPosition, "MineGoes", combat=pc.CLASSIC_COMBAT
    ),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_a_planted_fault_is_found(fault):
    cls = FAULTS[fault]()
    found, _ = differences(cls)
    assert found, f"{fault}: no difference found"
