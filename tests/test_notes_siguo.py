"""Deduction notes with four seats (Siguo): one note list per hidden army still in, from
the seat's own view only, never claiming more than the view allows (docs/api.md, op
`notes`)."""

from __future__ import annotations

import json
import random

import pytest

from junqi_core import pieces as pc
from junqi_core.ai import notes_siguo
from junqi_core.ai.notes import notes
from junqi_core.bridge import handle
from junqi_core.game import PLAY, Game
from junqi_core.notation import move_text
from junqi_core.variants import find_variant
from junqi_core.views import view

S, E, N, W = range(4)
KINDS = {k.kind: k.id for k in pc.JUNQI_KINDS}
KIND_OF = {k.id: k.kind for k in pc.JUNQI_KINDS}
VISIBILITY = ("dark4", "team_open", "open")


def siguo(**options):
    return find_variant("siguo", None, options or None)


def layout(variant, seat: int, wishes: dict[str, str], seed: int = 0) -> dict[int, int]:
    """A legal layout of `seat` with the wished kinds ({post: kind id}) on those posts."""
    rules = variant.deployment
    board = rules.board
    for attempt in range(200):
        placed = rules.random_layout(seat, random.Random(seed * 1000 + attempt))
        for name, kind_id in wishes.items():
            square, kind = board.index[name], KIND_OF[kind_id]
            if placed[square] != kind:
                spare = [s for s, k in sorted(placed.items()) if k == kind]
                other = next(s for s in spare if board.names[s] not in wishes)
                placed[other], placed[square] = placed[square], kind
        try:
            rules.validate(seat, placed)
        except ValueError:
            continue
        return placed
    raise AssertionError(f"no legal layout with {wishes}")


def game_with(variant, wishes: dict[int, dict[str, str]], seed: int = 0) -> Game:
    game = Game(variant, seed=seed)
    for seat in range(4):
        game.deploy(seat, layout(variant, seat, wishes.get(seat, {}), seed))
    return game


def play(game: Game, actions: list[str]) -> Game:
    for action in actions:
        game.apply(game.turn, action)
    return game


def army(shown: dict, seat: int) -> dict:
    return next(a for a in shown["armies"] if a["seat"] == seat)


def seats_noted(shown: dict) -> list[int]:
    return [a["seat"] for a in shown["armies"]]


# --- what the notes say ---------------------------------------------------------------------


def test_each_hidden_army_has_its_notes_and_a_shown_army_none():
    for visibility, expected in (("dark4", [E, N, W]), ("team_open", [E, W]), ("open", [])):
        game = game_with(siguo(visibility=visibility), {})
        shown = notes(game.variant, view(game, S), S)
        assert seats_noted(shown) == expected
        for a in shown["armies"]:
            assert len(a["pieces"]) == 25  # nothing named yet
            assert sum(u["count"] for u in a["unaccounted"]) == 25
            assert all(square[0] == "SENW"[a["seat"]] for square in a["pieces"])
    # West's view: its partner is East
    game = game_with(siguo(visibility="team_open"), {})
    assert seats_noted(notes(game.variant, view(game, W), W)) == [S, N]


def test_a_piece_that_turned_on_the_railway_is_an_engineer():
    game = game_with(siguo(first_player="E"), {E: {"Ec6": "engineer"}})
    play(game, ["Ec6-C13"])  # Ec6 - C23, then the turn to C13
    for seat in (S, N, W):
        note = army(notes(game.variant, view(game, seat), seat), E)["pieces"]["C13"]
        assert note == {"kinds": ["engineer"], "label": {"is": "engineer"}}
    # a straight slide says only that the piece moves (and no Bomb starts on the front rank)
    game = game_with(siguo(first_player="E"), {E: {"Ec6": "engineer"}})
    play(game, ["Ec6-C22"])
    note = army(notes(game.variant, view(game, S), S), E)["pieces"]["C22"]
    assert note["label"] == {"not": ["bomb", "landmine", "flag"]}


def test_a_fight_between_two_other_seats_bounds_the_winner():
    """North's Engineer (known by its turn) loses to East's piece, while South looks on:
    that piece is at least a Lieutenant, for South too, who took no part."""
    variant = siguo(first_player="N")
    wishes = {N: {"Nc6": "engineer"}, E: {"Ec6": "captain"}}
    game = game_with(variant, wishes)
    play(game, ["Nc6-C23", "Wc6-C21", "Sc6-C32", "Ec6-C23"])
    for seat in (S, N, W):
        shown = notes(variant, view(game, seat), seat)
        if seat != W:
            assert army(shown, E)["pieces"]["C23"]["label"] == {"min": "lieutenant"}
        if seat != N:
            unaccounted = {u["kind"]: u["count"] for u in army(shown, N)["unaccounted"]}
            assert unaccounted["engineer"] == 2  # the third is the one that fell


def test_a_partners_piece_under_team_open_tells_its_rank_to_the_fight():
    variant = siguo(first_player="N", visibility="team_open")
    game = game_with(variant, {N: {"Nc6": "captain"}, E: {"Ec6": "major"}})
    play(game, ["Nc6-C22", "Wc6-C21", "Sc6-C32", "Ec6-C22"])
    assert army(notes(variant, view(game, S), S), E)["pieces"]["C22"]["label"] == {"min": "major"}
    # under dark4 South cannot know which piece of North's lost
    dark = game_with(siguo(first_player="N"), {N: {"Nc6": "captain"}, E: {"Ec6": "major"}})
    play(dark, ["Nc6-C22", "Wc6-C21", "Sc6-C32", "Ec6-C22"])
    assert army(notes(dark.variant, view(dark, S), S), E)["pieces"]["C22"]["label"] != {
        "min": "major"
    }
    assert army(notes(dark.variant, view(dark, N), N), E)["pieces"]["C22"]["label"] == {
        "min": "major"
    }


def test_marshals_that_fall_show_their_flags_and_leave_the_count():
    variant = siguo(first_player="N")
    game = game_with(variant, {N: {"Nc6": "field_marshal"}, E: {"Ec6": "field_marshal"}})
    play(game, ["Nc6-C22", "Wc6-C21", "Sc6-C32", "Ec6-C22"])
    shown = notes(variant, view(game, S), S)
    for seat in (E, N):
        kinds = {u["kind"]: u["count"] for u in army(shown, seat)["unaccounted"]}
        assert "field_marshal" not in kinds and "flag" not in kinds
        assert not any("flag" in note["kinds"] for note in army(shown, seat)["pieces"].values())


def test_a_headquarters_taken_without_the_army_going_out_held_no_flag():
    """In a seeded game West's piece on Wd1 falls and West plays on: so Wb1 holds the
    Flag, and both enemy seats note it."""
    variant = siguo()
    for game in _played(variant, 3):
        last = game.history[-1]
        if last.result and game.board_spec.names[last.to] == "Wd1":
            break
    assert last.target & pc.KIND_MASK != pc.FLAG and not game.out[W]
    for seat in (S, N):
        note = army(notes(variant, view(game, seat), seat), W)["pieces"]["Wb1"]
        assert note["label"] == {"is": "flag"}


def test_an_army_that_is_out_has_no_notes():
    game = game_with(siguo(first_player="E"), {})
    game.apply(E, "resign")
    shown = notes(game.variant, view(game, S), S)
    assert seats_noted(shown) == [N, W]
    assert not any(sq.startswith("E") for a in shown["armies"] for sq in a["pieces"])


# --- never more than the view allows ------------------------------------------------------------


def _played(variant, seed: int):
    """Yield a seeded game after each of its random actions (moves, passes, surrenders)."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    for seat in range(4):
        game.deploy(seat)
    for _ in range(600):
        if game.phase != PLAY:
            return
        seat = game.turn
        roll = rng.random()
        if roll < 0.01 and "pass" in game.meta_actions(seat):
            game.apply(seat, "pass")
        elif roll < 0.012:
            game.apply(rng.choice([s for s in range(4) if not game.out[s]]), "resign")
        else:
            moves = game.legal_moves()
            board = game.position.board
            attacks = [m for m in moves if board[game.board_spec.move_code.to[m]]]
            move = rng.choice(attacks if attacks and rng.random() < 0.6 else moves)
            game.apply(seat, move_text(game.board_spec, move))
        yield game


RULES = [
    *({"visibility": v} for v in VISIBILITY),
    {"mine_stays": False, "flag_shown": False, "turn_direction": "cw", "mine_in_hq": False},
]


@pytest.mark.parametrize("options", RULES, ids=["dark4", "team_open", "open", "other_rules"])
def test_the_true_rank_is_always_among_the_noted_kinds(options, monkeypatch):
    """Over seeded games, for every seat: each piece of a hidden army still in is noted,
    with its true kind among the kinds listed; the label says no less than the kinds;
    the unaccounted pieces include every one not yet certain.  The history is followed
    all the way (never the board-only fallback)."""

    def no_fallback(*args):
        raise AssertionError("the view's history could not be followed")

    monkeypatch.setattr(notes_siguo, "BoardOnly", no_fallback)
    variant = siguo(**options)
    narrowed = checked = 0
    for seed in range(3):
        for ply, game in enumerate(_played(variant, seed)):
            if ply % 9:
                continue
            for seat in range(4):
                shown = notes(variant, view(game, seat), seat)
                hidden = notes_siguo.hidden_armies(variant, seat)
                assert seats_noted(shown) == [s for s in hidden if not game.out[s]]
                for a in shown["armies"]:
                    on_board = {
                        name
                        for name, cell in view(game, seat)["board"].items()
                        if cell["owner"] == a["seat"] and cell["kind"] is None
                    }
                    assert set(a["pieces"]) == on_board
                    uncertain: dict[str, int] = {}
                    for name, note in a["pieces"].items():
                        p = game.position.board[game.board_spec.index[name]]
                        true = KINDS[p & pc.KIND_MASK]
                        assert true in note["kinds"], (seed, ply, seat, name, note)
                        _check_label(note)
                        if len(note["kinds"]) > 1:
                            uncertain[true] = uncertain.get(true, 0) + 1
                        narrowed += len(note["kinds"]) <= 3
                        checked += 1
                    left = {u["kind"]: u["count"] for u in a["unaccounted"]}
                    for kind, n in uncertain.items():
                        assert left.get(kind, 0) >= n
    if variant.visibility != "open":
        assert checked > 2000 and narrowed > 50  # the notes are tested, and they say something


def test_a_view_whose_history_cannot_be_followed_gives_board_facts_only(monkeypatch):
    """A history that does not lead to the board (a foreign or cut view): the notes fall
    back on the board (a piece off its army's starting posts has moved), still true."""
    used = []
    board_only = notes_siguo.BoardOnly
    monkeypatch.setattr(notes_siguo, "BoardOnly", lambda *a: used.append(1) or board_only(*a))
    variant = siguo()
    game = next(g for ply, g in enumerate(_played(variant, 5)) if ply == 80)
    shown = view(game, S)
    cut = {**shown, "history": shown["history"][:10]}
    noted = notes(variant, cut, S)
    assert seats_noted(noted) == [s for s in (E, N, W) if not game.out[s]]
    moved = 0
    for a in noted["armies"]:
        for name, note in a["pieces"].items():
            p = game.position.board[game.board_spec.index[name]]
            assert KINDS[p & pc.KIND_MASK] in note["kinds"]
            moved += "flag" not in note["kinds"]
    assert moved > 0 and used


def _check_label(note) -> None:
    kinds = {k.id: k for k in pc.JUNQI_KINDS}
    out = note["label"]
    listed = set(note["kinds"])
    if "is" in out:
        assert listed == {out["is"]}
    for key, ok in (("min", lambda r, b: r >= b), ("max", lambda r, b: r <= b)):
        if key in out:
            bound = kinds[out[key]].rank
            for k in listed - set(out.get("also", [])):
                assert kinds[k].rank is not None and ok(kinds[k].rank, bound)
    if "not" in out:
        assert not listed & set(out["not"])
    if "one_of" in out:
        assert listed == set(out["one_of"])


def _swapped(game: Game, seat: int) -> Game | None:
    """The same actions from other hidden pieces: two pieces of one army the seat does not
    see, that never moved nor fought, change places (None when no such pair exists)."""
    variant = game.variant
    touched = set()
    for entry in game.history:
        if entry.frm is not None:
            touched.update((entry.frm, entry.to))
    for owner in notes_siguo.hidden_armies(variant, seat):
        if game.out[owner]:
            continue  # its pieces have left the board
        placed = dict(game.layouts[owner])
        quiet = [s for s in sorted(placed) if s not in touched]
        for a in quiet:
            for b in quiet:
                if placed[a] >= placed[b]:
                    continue
                other = dict(placed)
                other[a], other[b] = placed[b], placed[a]
                try:
                    variant.deployment.validate(owner, other)
                except ValueError:
                    continue
                twin = Game(variant, seed=game.seed)
                for s in range(4):
                    twin.deploy(s, other if s == owner else game.layouts[s])
                try:
                    for entry in game.history:
                        twin.apply(entry.player, entry.action)
                except ValueError:
                    continue
                if view(twin, seat) == view(game, seat):
                    return twin
    return None


@pytest.mark.parametrize("visibility", ["dark4", "team_open"])
def test_the_notes_depend_on_the_seats_view_only(visibility):
    """Two games whose hidden pieces differ but whose view for the seat is the same give
    that seat the same notes."""
    variant = siguo(visibility=visibility)
    compared = 0
    for seed in range(4):
        for ply, game in enumerate(_played(variant, seed + 10)):
            if ply not in (30, 120):
                continue
            for seat in range(4):
                twin = _swapped(game, seat)
                if twin is None:
                    continue
                assert twin.position.board != game.position.board
                assert notes(variant, view(twin, seat), seat) == notes(
                    variant, view(game, seat), seat
                )
                compared += 1
    assert compared >= 10


# --- the bridge -------------------------------------------------------------------------------


def test_the_notes_op_answers_per_army_for_siguo_and_refuses_a_cpu_seat():
    def ask(message: dict) -> dict:
        return json.loads(handle(json.dumps(message)))

    game = ask({"op": "new_game", "variant": "siguo", "seed": 4, "cpu": {"1": "easy", "3": "easy"}})
    gid = game["game"]
    for seat in (0, 2):
        ask({"op": "deploy", "game": gid, "player": seat})
    reply = ask({"op": "notes", "game": gid, "player": 2})
    assert seats_noted(reply["notes"]) == [S, E, W]
    assert all(len(a["pieces"]) == 25 for a in reply["notes"]["armies"])
    assert ask({"op": "notes", "game": gid, "player": 1})["error"]["code"] == "cpu_seat"
