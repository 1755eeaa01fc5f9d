"""docs/rules.md, "Information": what each player may know, and the events they are told."""

from __future__ import annotations

import json

from helpers import make_game, play

from junqi_core.game import Game
from junqi_core.selfplay import random_game
from junqi_core.views import view


def _started(variant: str, seed: int = 2) -> Game:
    game = Game(variant, seed=seed)
    if game.phase == "setup":
        game.deploy(0)
        game.deploy(1)
    return game


def test_information_own_ranks_known_enemy_positions_only():
    game = _started("classic")
    for player in (0, 1):
        board = view(game, player)["board"]
        assert len(board) == 50
        for cell in board.values():
            assert (cell["kind"] is not None) == (cell["owner"] == player)


def test_information_the_public_view_shows_no_ranks():
    for variant in ("classic", "gunjin"):
        board = view(_started(variant), None)["board"]
        assert board and all(cell["kind"] is None for cell in board.values())


def test_information_during_setup_only_the_own_draft_is_shown():
    game = Game("gunjin", seed=4)
    mine = view(game, 0)["board"]
    assert len(mine) == 23 and all(cell["owner"] == 0 for cell in mine.values())
    assert view(game, None)["board"] == {}


def test_information_during_setup_a_confirmed_layout_stands_with_its_ranks_hidden():
    game = Game("classic", seed=4)
    game.deploy(1)
    for viewer in (0, None):
        theirs = {sq: c for sq, c in view(game, viewer)["board"].items() if c["owner"] == 1}
        assert len(theirs) == 25 and all(c["kind"] is None for c in theirs.values())
    mine = view(game, 1)["board"]
    assert len(mine) == 25 and all(c["kind"] for c in mine.values())  # own draft only


def test_information_everything_is_revealed_at_the_end():
    for variant in ("classic", "blind", "gunjin"):
        game = random_game(variant, 11)
        assert game.phase == "over"
        for viewer in (0, 1, None):
            v = view(game, viewer)
            assert all(cell["kind"] is not None for cell in v["board"].values())
            assert all(lost["kinds"] is not None for lost in v["lost"])


def test_information_blind_face_down_pieces_are_unknown_to_everyone():
    game = Game("blind", seed=8)
    for viewer in (0, 1, None):
        cells = view(game, viewer)["board"].values()
        assert all(c["down"] and c["kind"] is None and c["owner"] is None for c in cells)


def test_information_blind_flips_are_public():
    game = Game("blind", seed=8)
    play(game, "flip:c3")
    for viewer in (0, 1, None):
        v = view(game, viewer)
        assert v["board"]["c3"]["kind"] is not None and v["colours"] is not None
        assert v["history"][-1]["type"] == "flip" and v["history"][-1]["kind"]


def test_events_combat_names_only_the_viewers_own_piece():
    game = make_game("classic", "Kc3 lc2 Lc5 lc7 Fb1 fd12")
    play(game, "c3-c2")
    red, blue, public = (view(game, p)["history"][-1]["combat"] for p in (0, 1, None))
    assert red == {"square": "c2", "result": "attacker", "attacker": "captain", "defender": None}
    assert blue == {
        "square": "c2",
        "result": "attacker",
        "attacker": None,
        "defender": "lieutenant",
    }
    assert public["attacker"] is None and public["defender"] is None


def test_events_gunjin_both_removed_does_not_say_whether_it_was_a_mine():
    mine = make_game("gunjin", "Cc3 nc4 Ka1 ka8")
    equal = make_game("gunjin", "Cc3 cc4 Ka1 ka8")
    play(mine, "c3-c4")
    play(equal, "c3-c4")
    assert view(mine, 0)["history"] == view(equal, 0)["history"]
    assert view(mine, 0)["board"] == view(equal, 0)["board"]


def test_lost_pieces_own_by_name_enemy_by_count():
    game = make_game("classic", "Kc3 lc2 Lc5 lc7 Fb1 fd12")
    play(game, "c3-c2")
    red = view(game, 0)["lost"]
    blue = view(game, 1)["lost"]
    assert red[1] == {"count": 1, "kinds": None}
    assert blue[1] == {"count": 1, "kinds": ["lieutenant"]}


def test_views_are_json():
    game = random_game("blind", 3)
    for viewer in (0, 1, None):
        json.dumps(view(game, viewer))
