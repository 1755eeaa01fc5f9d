"""docs/rules.md, "Rule options": one test (or more) per option line, and the presets."""

from __future__ import annotations

import pytest
from helpers import make_game, make_position, play, targets

from junqi_core import pieces as pc
from junqi_core.deployment import DeploymentError
from junqi_core.game import OVER, PLAY, Game
from junqi_core.record import export_record, import_record
from junqi_core.selfplay import random_game
from junqi_core.variants import (
    OPTIONS,
    PRESETS,
    VARIANT_IDS,
    RulesError,
    describe,
    find_variant,
    variant_from_rules,
)
from junqi_core.views import view


def classic(**options) -> object:
    return find_variant("classic", options=options)


def blind(**options) -> object:
    return find_variant("blind", options=options)


def gunjin(**options) -> object:
    return find_variant("gunjin", options=options)


def kind_on(game: Game, square: str) -> int | None:
    p = game.position.board[game.board_spec.square(square)]
    return p & pc.KIND_MASK if p else None


# --- options and presets as a whole ------------------------------------------------------------


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_the_standard_preset_is_the_default_rules_of_each_variant(variant_id):
    default = find_variant(variant_id)
    assert find_variant(variant_id, "standard") is default
    assert default.preset == "standard"
    assert all(default.options[o.id] == o.default for o in OPTIONS[variant_id])


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_every_preset_has_a_description_and_names_only_its_variants_options(variant_id):
    known = {o.id for o in OPTIONS[variant_id]}
    for preset in PRESETS[variant_id]:
        assert len(preset.description) > 20
        assert set(preset.options) <= known
        assert find_variant(variant_id, preset.id).preset == preset.id


def test_customising_a_preset_overrides_it_and_matching_options_name_the_preset():
    custom = find_variant("classic", "chinese", {"quiet_limit": 60})
    assert custom.preset is None
    assert custom.options["stations"] is False and custom.options["quiet_limit"] == 60
    assert find_variant("classic", None, {"flag_shown": True, "stations": False}).preset == (
        "chinese"
    )


@pytest.mark.parametrize(
    "variant_id, preset, options, code",
    [
        ("xiangqi", None, None, "unknown_variant"),
        (["classic"], None, None, "unknown_variant"),
        ("classic", "fast", None, "unknown_preset"),
        ("classic", ["standard"], None, "unknown_preset"),
        ("classic", None, {"stations": "no"}, "bad_option"),
        ("classic", None, {"quiet_limit": 80}, "bad_option"),  # Blind's limit, not Classic's
        ("classic", None, {"quiet_limit": True}, "bad_option"),
        ("classic", None, {"flag_shown": 1}, "bad_option"),
        ("classic", None, {"flag_capture": "any"}, "bad_option"),  # a Blind option
        ("blind", None, {"stations": False}, "bad_option"),
        ("gunjin", None, {"occupiers": "everyone"}, "bad_option"),
        ("gunjin", None, ["tank_vs_mine"], "bad_option"),
    ],
)
def test_unknown_or_ill_typed_rules_are_refused_with_a_code(variant_id, preset, options, code):
    with pytest.raises(RulesError) as error:
        find_variant(variant_id, preset, options)
    assert error.value.code == code


def test_rules_as_stored_rebuild_the_same_variant_and_a_wrong_preset_name_is_refused():
    variant = find_variant("gunjin", "tanks")
    assert variant_from_rules(variant.rules_json()) is variant
    with pytest.raises(RulesError):
        variant_from_rules({**variant.rules_json(), "preset": "simple"})


@pytest.mark.parametrize("variant_id, preset", [(v, p.id) for v in VARIANT_IDS for p in PRESETS[v]])
def test_a_game_under_each_preset_is_recorded_with_its_rules_and_replays_under_them(
    variant_id, preset
):
    variant = find_variant(variant_id, preset)
    game = random_game(variant, 3)
    record = export_record(game)
    assert record["preset"] == preset and record["options"] == dict(variant.options)
    replay = import_record(record)
    assert replay.variant is variant
    assert replay.result == game.result and replay.position.board == game.position.board


def test_a_record_whose_options_were_changed_does_not_replay_as_the_same_game():
    game = random_game(find_variant("classic", "chinese"), 5)
    record = export_record(game)
    record["options"] = {**record["options"], "stations": True}
    with pytest.raises(ValueError):
        import_record(record)


def test_the_description_follows_the_rules():
    plain, chinese = describe(find_variant("classic")), describe(find_variant("classic", "chinese"))
    assert len(plain["board"]["squares"]) == 63 and len(chinese["board"]["squares"]) == 60
    assert chinese["rules"]["flag_shown_on_marshal"] and not plain["rules"]["flag_shown_on_marshal"]
    assert {p["id"] for p in plain["presets"]} == {"standard", "chinese", "open"}
    simple = describe(find_variant("gunjin", "simple"))
    assert simple["combat"]["spy"]["flag"] == "attacker"  # no strength behind the flag
    assert describe(find_variant("gunjin"))["combat"]["spy"]["flag"] == "behind"
    assert describe(find_variant("gunjin"))["rules"]["flag_behind"]
    assert not simple["rules"]["flag_behind"]


def test_the_description_tells_the_page_what_it_would_otherwise_ask_the_variant_name():
    """The page draws and words a variant from these facts, never from its id."""
    classic, blind, gunjin = (describe(find_variant(v)) for v in ("classic", "blind", "gunjin"))
    assert (classic["family"], blind["family"], gunjin["family"]) == ("junqi", "junqi", "gunjin")
    assert classic["colours"] == ["red", "blue"] and gunjin["colours"] == ["p1", "p2"]
    assert blind["colours"] is None  # decided by the first flip: the view's `colours`
    assert classic["sides_are_colours"] and not gunjin["sides_are_colours"]
    # a landmine that destroys an attacker stays in Blind only
    assert [d["rules"]["mine_stays"] for d in (classic, blind, gunjin)] == [False, True, False]


# --- Classic ---------------------------------------------------------------------------------


def test_classic_flag_shown_when_the_field_marshal_falls_to_both_players_and_spectators():
    game = make_game(classic(flag_shown=True), "Mc6 Fb1 Kc2 nc7 fd12 ka12")
    play(game, "c6-c7")  # Red's Field Marshal dies on a Landmine: Red's flag is shown
    assert game.flag_shown == [True, False]
    for viewer in (0, 1, None):
        assert view(game, viewer)["board"]["b1"]["kind"] == "flag"
    assert view(game, 0)["board"]["d12"]["kind"] is None  # Blue's Marshal never fell
    assert view(game, 1)["board"]["c2"]["kind"] is None  # nothing else of Red's is shown
    last = view(game, 1)["history"][-1]
    assert last["flag_shown"] == [{"player": 0, "square": "b1"}]


def test_classic_flag_shown_for_both_when_both_marshals_fall_together():
    game = make_game(classic(flag_shown=True), "Mc6 Fb1 Kc2 mc7 fd12 ka12")
    play(game, "c6-c7")
    assert game.flag_shown == [True, True]
    assert view(game, 0)["board"]["d12"]["kind"] == "flag"
    assert view(game, 1)["board"]["b1"]["kind"] == "flag"


def test_classic_flag_shown_also_when_a_bomb_removes_the_marshal():
    game = make_game(classic(flag_shown=True), "Xc6 Fb1 Kc2 mc7 fd12 ka12")
    play(game, "c6-c7")
    assert game.flag_shown == [False, True]


def test_classic_flag_stays_hidden_under_the_standard_rules():
    game = make_game("classic", "Mc6 Fb1 Kc2 mc7 fd12 ka12")
    play(game, "c6-c7")
    assert game.flag_shown == [False, False]
    assert view(game, 0)["board"]["d12"]["kind"] is None


def test_classic_without_stations_the_board_has_60_posts_and_a_c_e_cross_directly():
    variant = classic(stations=False)
    board = variant.board
    assert board.size == 60 and board.stations == ()
    for f in "ace":
        assert board.square(f"{f}7") in board.rail_neighbours[board.square(f"{f}6")]
    for f in "bd":
        assert board.square(f"{f}7") not in board.neighbours[board.square(f"{f}6")]
    position = make_position(variant, "La2 Fb1 fb12 la12")
    assert targets(position, "a2") >= {f"a{r}" for r in range(3, 12)}
    assert "sa" not in {n for n in board.names}


def test_classic_without_stations_deployment_and_moves_follow_the_classic_rules():
    variant = classic(stations=False)
    game = random_game(variant, 11)
    assert game.phase == OVER
    with pytest.raises(DeploymentError):
        game = Game(variant, seed=1)
        layout = dict(game.drafts[0])
        flag = next(s for s, k in layout.items() if k == pc.FLAG)
        front = variant.board.square("a6")
        layout[flag], layout[front] = layout[front], layout[flag]
        game.deploy(0, layout)


def test_classic_hq_pieces_may_move_when_the_option_frees_them():
    position = make_position(classic(hq_frozen=False), "Mb1 Fd1 fb12 la12")
    assert targets(position, "b1") == {"a1", "c1", "b2"}
    assert targets(position, "d1") == set()  # the flag still never moves
    frozen = make_position("classic", "Mb1 Fd1 fb12 la12")
    assert targets(frozen, "b1") == set()


def test_classic_hq_landmines_never_move_even_with_free_hqs():
    # mines may not be deployed in an HQ, but a hand-made position checks the mover table
    position = make_position(classic(hq_frozen=False), "Nb1 Fd1 fb12 la12")
    assert targets(position, "b1") == set()


@pytest.mark.parametrize("limit", [70, 60])
def test_classic_quiet_move_draw_at_the_chosen_limit(limit):
    variant = classic(quiet_limit=limit)
    game = make_game(variant, "Lc3 Fb1 la10 fb12", quiet=limit - 2)
    play(game, "c3-c4")
    assert game.phase == PLAY
    play(game, "a10-a9")
    assert game.result == (None, "quiet_moves")


def test_classic_quiet_limit_reached_with_the_opponent_immobilised_is_a_win():
    game = make_game(classic(quiet_limit=60), "Lc3 Fb1 fb12 Na12", quiet=59)
    play(game, "c3-c4")
    assert game.result == (0, "immobilised")


def test_classic_bombs_on_the_front_rank_only_when_allowed():
    for allowed in (False, True):
        variant = classic(front_bombs=allowed)
        game = Game(variant, seed=2)
        layout = dict(game.drafts[0])
        bomb = next(s for s, k in layout.items() if k == pc.BOMB)
        front = next(
            s
            for s in variant.board.home[0]
            if variant.board.names[s].endswith("6") and layout.get(s) not in (None, pc.BOMB)
        )
        layout[bomb], layout[front] = layout[front], layout[bomb]
        if allowed:
            game.deploy(0, layout)
            assert game.layouts[0] == layout
        else:
            with pytest.raises(DeploymentError) as error:
                game.deploy(0, layout)
            assert error.value.code == "bomb_on_front_rank"


# --- Blind -----------------------------------------------------------------------------------


def test_blind_quiet_limit_100():
    variant = blind(quiet_limit=100)
    game = make_game(variant, "Lc3 Fa1 la12 fe12", swap=0, quiet=80)
    play(game, "c3-c4")
    assert game.phase == PLAY
    game = make_game(variant, "Lc3 Fa1 la12 fe12", swap=0, quiet=99)
    play(game, "c3-c4")
    assert game.result == (None, "quiet_moves")


def test_blind_hq_pieces_stay_when_the_option_freezes_them_but_may_still_be_flipped():
    frozen = make_position(blind(hq_frozen=True), "Lb1 ?Kd1 la12 fe12 Fa5", swap=0)
    assert targets(frozen, "b1") == set()
    code = frozen.move_code
    flips = [m for m in frozen.legal_moves() if code.is_flip(m)]
    assert [frozen.spec.names[code.to[m]] for m in flips] == ["d1"]
    free = make_position("blind", "Lb1 ?Kd1 la12 fe12 Fa5", swap=0)
    assert targets(free, "b1") == {"a1", "c1", "b2"}


def test_blind_engineer_flag_rule_other_pieces_cannot_attack_the_flag():
    variant = blind(flag_capture="engineer_after_mines")
    position = make_position(variant, "Mc3 Ed3 fc2 Fa1 la12", swap=0)
    assert "c2" not in targets(position, "c3")  # a Marshal next to the flag cannot take it
    assert "c2" in targets(position, "d3")  # Blue has no mines left: the Engineer can
    plain = make_position("blind", "Mc3 fc2 Fa1 la12", swap=0)
    assert "c2" in targets(plain, "c3")


def test_blind_engineer_flag_rule_waits_until_every_mine_of_that_colour_is_gone():
    variant = blind(flag_capture="engineer_after_mines")
    with_mine = make_position(variant, "Ed3 fc2 ne12 Fa1 la12", swap=0)
    assert "c2" not in targets(with_mine, "d3")
    face_down_mine = make_position(variant, "Ed3 fc2 ?ne12 Fa1 la12", swap=0)
    assert "c2" not in targets(face_down_mine, "d3")  # a face-down mine still counts
    own_mine = make_position(variant, "Ed3 fc2 Ne12 Fa1 la12", swap=0)
    assert "c2" in targets(own_mine, "d3")  # the attacker's own mines do not matter
    game = make_game(variant, "Ed3 fc2 Fa1 la12", swap=0)
    play(game, "d3-c2")
    assert game.result == (0, "flag_captured")


# --- Gunjin ----------------------------------------------------------------------------------


def fight(variant, attacker: str, defender: str) -> Game:
    game = make_game(variant, f"{attacker}c3 {defender}c4 Ka1 ka8")
    play(game, "c3-c4")
    return game


def test_gunjin_tank_against_a_mine_both_removed_or_the_tank_clears_it():
    standard = fight("gunjin", "T", "n")
    assert kind_on(standard, "c4") is None and kind_on(standard, "c3") is None
    assert kind_on(fight(gunjin(tank_vs_mine="tank_wins"), "T", "n"), "c4") == pc.TANK


def test_gunjin_planes_clear_mines_unless_the_option_is_off():
    assert kind_on(fight("gunjin", "P", "n"), "c4") == pc.PLANE
    game = fight(gunjin(plane_clears_mines=False), "P", "n")
    assert kind_on(game, "c4") is None and kind_on(game, "c3") is None
    assert kind_on(fight(gunjin(plane_clears_mines=False), "E", "n"), "c4") == pc.G_ENGINEER


def test_gunjin_engineer_beats_tank_attacking_and_defending_with_the_option():
    variant = gunjin(engineer_beats_tank=True)
    assert kind_on(fight(variant, "E", "t"), "c4") == pc.G_ENGINEER
    game = fight(variant, "T", "e")
    assert kind_on(game, "c4") == pc.G_ENGINEER and kind_on(game, "c3") is None
    assert kind_on(fight("gunjin", "E", "t"), "c4") == pc.TANK


def test_gunjin_spy_wins_only_attacking_when_the_option_is_off():
    variant = gunjin(spy_wins_defending=False)
    assert kind_on(fight(variant, "S", "a"), "c4") == pc.SPY
    assert kind_on(fight(variant, "A", "s"), "c4") == pc.ARMY_GENERAL
    assert kind_on(fight("gunjin", "A", "s"), "c4") == pc.SPY


@pytest.mark.parametrize("letter", ["K", "I", "U"])
def test_gunjin_every_officer_occupies_with_the_option(letter):
    game = make_game(gunjin(occupiers="all_officers"), f"{letter}c7 Ka1 ka8")
    play(game, "c7-hq8")
    assert game.result == (0, "occupation")
    standard = make_game("gunjin", f"{letter}c7 Ka1 ka8")
    play(standard, "c7-hq8")
    assert standard.phase == PLAY


@pytest.mark.parametrize("letter", ["P", "T", "V", "E", "S"])
def test_gunjin_non_officers_never_occupy_even_with_every_officer_allowed(letter):
    game = make_game(gunjin(occupiers="all_officers"), f"{letter}c7 Ka1 ka8")
    play(game, "c7-hq8")
    assert game.phase == PLAY


def test_gunjin_flag_without_strength_loses_to_every_attacker():
    variant = gunjin(flag_behind=False)
    game = make_game(variant, "Cc5 fc6 ac7 Ka1 ka8")
    play(game, "c5-c6")
    assert kind_on(game, "c6") == pc.G_COLONEL and kind_on(game, "c7") == pc.ARMY_GENERAL
    standard = make_game("gunjin", "Cc5 fc6 ac7 Ka1 ka8")
    play(standard, "c5-c6")
    assert kind_on(standard, "c6") == pc.G_FLAG
