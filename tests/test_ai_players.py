"""CPU players: they never peek, hold nothing of the true state, always answer with a
legal action, deploy legally and sensibly, and answer draw offers by their own estimate."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from test_ai_support import hidden_twins, reachable

from junqi_core import bridge
from junqi_core import pieces as pc
from junqi_core.ai.evaluate import WIN, Weights, score_of
from junqi_core.ai.player import settings_for
from junqi_core.ai.search import INF, NodeLimit, Searcher
from junqi_core.ai.strategy import strategy_for
from junqi_core.game import PLAY, Game, HistoryEntry
from junqi_core.notation import move_text, parse_move
from junqi_core.players import LEVELS, make_player
from junqi_core.rules import POSITION_CLASSES, Position
from junqi_core.selfplay import random_game
from junqi_core.topology import BOARDS, GUNJIN_TABLES
from junqi_core.variants import find_variant
from junqi_core.views import view

VARIANTS = ("classic", "blind", "gunjin")
CPU_LEVELS = ("easy", "medium", "hard")
# (plies into a seeded random game) per position; Hard thinks longest, so fewer for it
PLIES = {"easy": (6, 20, 45, 80, 120, 160), "medium": (6, 30, 70, 130), "hard": (20, 90)}


def cpu(variant: str, level: str, seat: int, seed: int):
    """A player with the wall-clock cap off, so that its choice depends on nothing else."""
    return LEVELS[level](variant, seat, seed, time_cap=None)


def world_tables(variant, pos: Position):
    """(pst, material) of the variant's strategy for a position, plain weights."""
    return strategy_for(variant).world_tables(pos, (Weights(), Weights()), {})


def searcher(variant, pst, values) -> Searcher:
    return strategy_for(variant).searcher(pst, values=values)


def cpu_layout(variant, player: int, rng: random.Random, **kwargs):
    return strategy_for(variant).layout(player, rng, **kwargs)


def legal(game: Game) -> list[str]:
    return [move_text(game.board_spec, m) for m in game.legal_moves()]


def positions(variant: str, plies: tuple[int, ...]):
    for i, n in enumerate(plies):
        game = random_game(variant, 100 + i, n)
        if game.phase == PLAY:
            yield game


@pytest.mark.parametrize("level", CPU_LEVELS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_choice_does_not_change_when_hidden_pieces_are_permuted(variant, level):
    rng = random.Random(7)
    checked = 0
    for game in positions(variant, PLIES[level]):
        me = game.turn
        actions = legal(game)
        twins = hidden_twins(game, me, rng, wanted=2)
        choice = cpu(variant, level, me, 42).choose(view(game, me), actions)
        assert choice in actions
        for twin in twins:
            assert view(twin, me) == view(game, me)  # the same view ...
            assert twin.position.board != game.position.board  # ... of other hidden pieces
            assert legal(twin) == actions
            assert cpu(variant, level, me, 42).choose(view(twin, me), actions) == choice
            checked += 1
    assert checked >= len(PLIES[level])


@pytest.mark.parametrize("level", CPU_LEVELS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_player_that_followed_the_game_chooses_as_a_fresh_one(variant, level):
    game = random_game(variant, 5, 0)
    players = {s: cpu(variant, level, s, 9) for s in (0, 1)}
    if game.phase != PLAY:
        for s in (0, 1):
            game.deploy(s, _layout(game, players[s].deploy(view(game, s))))
    rng = random.Random(1)
    # Short of where these seeded games end (Blind at about ply 52, Gunjin with Hard at 39):
    # the comparison needs a game still in play.
    plies = 30 if level == "hard" else 40 if variant == "blind" else 80
    while game.phase == PLAY and game.position.ply < plies:
        seat = game.turn
        actions = legal(game)
        if rng.random() < 0.5:  # a random opponent half of the time, the CPU otherwise
            action = rng.choice(actions)
        else:
            action = players[seat].choose(view(game, seat), actions)
        game.apply(seat, action)
    assert game.phase == PLAY, f"the game ended at ply {game.position.ply}: nothing to compare"
    seat = game.turn
    actions = legal(game)
    assert players[seat].choose(view(game, seat), actions) == cpu(variant, level, seat, 9).choose(
        view(game, seat), actions
    )


def _layout(game: Game, layout: dict[str, str]) -> dict[int, int]:
    from junqi_core.record import layout_from_json

    return layout_from_json(game, layout)


@pytest.mark.parametrize("variant", VARIANTS)
def test_players_in_the_bridge_hold_nothing_of_the_true_state(variant):
    reply = json.loads(
        bridge.handle(
            json.dumps({"op": "new_game", "variant": variant, "seed": 3, "cpu": {"1": "easy"}})
        )
    )
    game_id = reply["game"]
    session = bridge._sessions[game_id]
    session.cpus[1] = make_player(variant, "hard", 1, 3)  # a second level in the same seat
    session.cpus[1].time_cap = None
    game = session.game
    if game.phase != PLAY:
        game.deploy(0, game.random_layout(0, 1))
        session.cpus[1] = make_player(variant, "medium", 1, 3)
    rng = random.Random(2)
    for _ in range(12):
        if game.phase != PLAY:
            break
        if game.turn == 0:
            action = rng.choice(legal(game))
            request = {"op": "act", "game": game_id, "player": 0, "action": action}
        else:
            request = {"op": "cpu_act", "game": game_id, "player": 1, "viewer": 0}
        reply = json.loads(bridge.handle(json.dumps(request)))
        assert reply.get("ok"), reply
    for player in session.cpus.values():
        found = reachable(player)
        assert not any(isinstance(x, (Game, HistoryEntry, bridge.Session)) for x in found)
        assert not any(x is game.position or x is game.position.board for x in found)
        assert not any(x is game.history or x is game.layouts for x in found)
        for x in found:
            if isinstance(x, Position):  # only the player's own scratch positions
                assert x.board != game.position.board
    bridge.handle(json.dumps({"op": "drop", "game": game_id}))


# --- legal actions -------------------------------------------------------------------------


@pytest.mark.parametrize("level", CPU_LEVELS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_level_answers_with_a_legal_action(variant, level):
    for i in range(4 if level == "hard" else 12):
        game = random_game(variant, 300 + i, 15 * i)
        if game.phase != PLAY:
            continue
        actions = legal(game)
        player = make_player(variant, level, game.turn, i)  # with its default time cap
        assert player.choose(view(game, game.turn), actions) in actions


def lone_piece_game(variant: str, movers: int) -> Game:
    """A hand-set position (no history) where player 0 has `movers` legal moves."""
    game = Game(variant, seed=1)
    cls = POSITION_CLASSES[variant]
    board = [0] * cls.spec.size
    idx = cls.spec.index
    if variant == "gunjin":
        board[idx["a1"]] = pc.piece(pc.G_CAPTAIN, 0)
        board[idx["c2"]] = pc.piece(pc.G_FLAG, 0)
        if movers == 1:
            board[idx["b1"]] = pc.piece(pc.MINE, 0)
        board[idx["f8"]] = pc.piece(pc.G_CAPTAIN, 1)
        board[idx["f6"]] = pc.piece(pc.G_FLAG, 1)
    else:
        board[idx["b1"]] = pc.piece(pc.FLAG, 0)
        board[idx["c1"]] = pc.piece(pc.LIEUTENANT, 0)
        if movers == 1:
            board[idx["c2"]] = pc.piece(pc.LANDMINE, 0)
        board[idx["b12"]] = pc.piece(pc.FLAG, 1)
        board[idx["e12"]] = pc.piece(pc.LIEUTENANT, 1)
    game.position = cls(board, turn=0, swap=0)
    game.phase = PLAY
    game.layouts = [{}, {}]
    return game


@pytest.mark.parametrize("level", CPU_LEVELS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_one_or_two_legal_actions_in_a_hand_set_position(variant, level):
    for movers in (1, 2):
        game = lone_piece_game(variant, movers)
        actions = legal(game)
        assert len(actions) == movers, actions
        assert make_player(variant, level, 0, 1).choose(view(game, 0), actions) in actions


# --- deployment and draws ------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "gunjin"])
def test_cpu_deployments_are_legal_guarded_and_varied(variant):
    rules = find_variant(variant).deployment
    board = BOARDS[variant]
    layouts = set()
    for seed in range(60):
        for player in (0, 1):
            layout = cpu_layout(variant, player, random.Random(seed))
            rules.validate(player, layout)
            layouts.add(tuple(sorted(layout.items())))
            flag_kind = pc.FLAG if variant == "classic" else pc.G_FLAG
            flag = next(s for s, k in layout.items() if k == flag_kind)
            if variant == "classic":
                guards = [layout[t] for t in board.road_steps[flag]]
                assert sum(k in (pc.LANDMINE, pc.BOMB) for k in guards) >= 2
            else:
                behind = GUNJIN_TABLES.behind[player][flag]
                assert behind in layout  # an own piece stands behind the flag
                assert layout[behind] not in (pc.SPY, pc.G_FLAG)
    assert len(layouts) == 120  # every seed and side gives its own layout


@pytest.mark.parametrize("level", CPU_LEVELS)
def test_draw_offers_are_answered_by_the_players_own_estimate(level):
    game = lone_piece_game("classic", 2)
    board = game.position.board
    idx = BOARDS["classic"].index
    for name, kind in (("c5", pc.FIELD_MARSHAL), ("d5", pc.GENERAL), ("e5", pc.MAJOR_GENERAL)):
        board[idx[name]] = pc.piece(kind, 0)
    winning = make_player("classic", level, 0, 1)
    losing = make_player("classic", level, 1, 1)
    assert winning.answer_draw(view(game, 0)) is False
    assert losing.answer_draw(view(game, 1)) is True


def material_game(quiet: int) -> Game:
    """Classic, player 0 three officers up, the quiet-move counter at `quiet`."""
    game = lone_piece_game("classic", 2)
    board = game.position.board
    idx = BOARDS["classic"].index
    for name, kind in (("c5", pc.FIELD_MARSHAL), ("d5", pc.GENERAL), ("e5", pc.MAJOR_GENERAL)):
        board[idx[name]] = pc.piece(kind, 0)
    game.position.quiet = quiet
    return game


@pytest.mark.parametrize("level", CPU_LEVELS)
def test_a_clearly_worse_cpu_offers_a_draw_only_in_a_long_quiet_game(level):
    limit = find_variant("classic").quiet_limit
    long_quiet = material_game(limit // 2)
    long_quiet.position.turn = 1
    losing = make_player("classic", level, 1, 1)
    assert losing.offer_draw(view(long_quiet, 1)) is True
    winning = make_player("classic", level, 0, 1)
    long_quiet.position.turn = 0
    assert winning.offer_draw(view(long_quiet, 0)) is False
    short = material_game(limit // 2 - 1)
    short.position.turn = 1
    assert losing.offer_draw(view(short, 1)) is False  # not yet a long quiet game
    long_quiet.position.turn = 1
    long_quiet.last_offer_ply[1] = long_quiet.position.ply  # offered a moment ago
    assert "offer" not in view(long_quiet, 1)["actions"]
    assert losing.offer_draw(view(long_quiet, 1)) is False


@pytest.mark.parametrize("variant", ["blind", "gunjin"])
def test_no_draw_offer_where_the_rules_have_none(variant):
    game = lone_piece_game(variant, 2)
    game.position.quiet = game.position.quiet_limit - 2
    game.position.turn = 1
    assert make_player(variant, "medium", 1, 1).offer_draw(view(game, 1)) is False


def test_the_bridge_cpu_offers_its_draw_before_moving_and_the_human_answers():
    reply = json.loads(
        bridge.handle(
            json.dumps({"op": "new_game", "variant": "classic", "seed": 3, "cpu": {"1": "medium"}})
        )
    )
    game_id = reply["game"]
    session = bridge._sessions[game_id]
    game = material_game(find_variant("classic").quiet_limit // 2)
    game.position.turn = 1
    session.game = game
    request = {"op": "cpu_act", "game": game_id, "player": 1, "viewer": 0}
    reply = json.loads(bridge.handle(json.dumps(request)))
    assert reply["ok"], reply
    assert [e["type"] for e in reply["events"]] == ["offer", "move"]
    assert reply["view"]["offer_by"] == 1 and "accept" in reply["view"]["actions"]
    request = {"op": "act", "game": game_id, "player": 0, "action": "decline"}
    assert json.loads(bridge.handle(json.dumps(request)))["ok"]
    assert game.offer_by is None and game.phase == PLAY
    bridge.handle(json.dumps({"op": "drop", "game": game_id}))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_search_cut_short_by_its_budget_leaves_the_position_as_it_was(variant):
    """The player goes on with the same position after the node budget or the clock runs
    out mid-line (a one-ply answer, another depth), so nothing may be left pushed."""
    for plies in (20, 60):
        pos = random_game(variant, 31, plies).position
        pst, values = world_tables(variant, pos)
        moves = [m for m in pos.legal_moves() if not pos.move_code.is_flip(m)]
        before = (list(pos.board), pos.turn, pos.ply, pos.quiet, pos.height)
        search = searcher(variant, pst, values)
        search.find_flags(pos)
        search.node_limit = 400
        with pytest.raises(NodeLimit):
            search.root_values(pos, moves, 4, score_of(pos, pst), 40.0)
        assert (list(pos.board), pos.turn, pos.ply, pos.quiet, pos.height) == before


def stepped_clock(start: float, later: float):
    """A clock that reads `start` once, then `later` for ever."""
    readings = iter([start])
    return lambda: next(readings, later)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_search_leaves_a_tenth_of_the_page_budget_for_the_reply(variant):
    """The page times a move from request to reply, so the search must stop before the
    budget (`time_cap`) runs out, with time left to build the reply."""
    game = next(positions(variant, (30, 20)))  # the first of these still in play
    actions = legal(game)
    for elapsed, cut_short in ((0.89, False), (0.91, True)):
        clock = stepped_clock(0.0, 0.5 * elapsed)  # `elapsed` of the budget at every check
        player = LEVELS["medium"](variant, game.turn, 5, time_cap=0.5, clock=clock)
        assert player.choose(view(game, game.turn), actions) in actions
        assert player.last_info["timeout"] is cut_short


def test_classic_last_ply_scores_moves_onto_empty_posts_apart_with_the_same_values():
    """The search's last ply takes Classic's moves onto empty posts apart as they are
    generated (`JunqiPosition.generate`); values and node counts must be those of the
    moves given as one list."""
    for seed, plies in ((5, 15), (31, 60), (77, 120)):
        pos = random_game("classic", seed, plies).position
        pst, values = world_tables("classic", pos)
        score = score_of(pos, pst)
        sign = 1.0 if (pos.turn ^ pos.swap) & 1 == 0 else -1.0
        quiet: list[int] = []
        attacks: list[int] = []
        pos.generate(None, quiet.append, attacks.append)
        assert quiet and sorted(quiet + attacks) == sorted(pos.legal_moves())
        for alpha, beta in ((-1e9, 1e9), (sign * score - 30, sign * score + 30)):
            found = []
            for moves, apart in ((pos.legal_moves(), ()), (attacks, quiet)):
                search = searcher("classic", pst, values)
                search.find_flags(pos)
                value = search.leaf(pos, moves, alpha, beta, score, 2, sign, False, apart)
                found.append((value, search.nodes))
            assert found[0] == found[1]


def attack_value(pos: Position, pst, m: int, q: int, score: float, sign: float, win: float):
    """The attack m's static value were the piece it attacks q: playing it in that world,
    a win if it ends the game, else the score's change added to `score`."""
    board = pos.board
    to = pos.move_code.to[m]
    own = board[to]
    board[to] = q
    before = score_of(pos, pst)
    height = pos.height
    pos.push(m)
    value = win if pos.decided is not None else sign * (score + score_of(pos, pst) - before)
    pos.pop_to(height)
    board[to] = own
    return value


def attack_positions(variant: str):
    """Positions from seeded random games; in Gunjin also one with a Major General (an
    occupier) beside the enemy headquarters, an attack random games seldom reach."""
    for seed in range(24):
        pos = random_game(variant, seed, 30 + 12 * (seed % 12)).position
        if pos.decided is None:
            yield pos
    if variant == "gunjin":
        pos = random_game(variant, 0, 30).position
        colour = (pos.turn ^ pos.swap) & 1
        board = list(pos.board)
        hq = BOARDS[variant].hqs[colour ^ 1][0]
        for s in BOARDS[variant].neighbours[hq]:
            board[s] = pc.piece(pc.G_MAJOR_GENERAL, colour)
        yield type(pos)(board, pos.turn, pos.ply, pos.quiet, pos.swap)


@pytest.mark.parametrize("variant", ("classic", "gunjin"))
def test_last_ply_scores_an_attack_on_an_unknown_piece_over_what_it_may_be(variant):
    """Hard's last ply values its attack on an enemy piece it does not know as the mean,
    over its belief, of what the attack would do were the piece each kind: a win if it
    takes the flag (Classic) or the headquarters (Gunjin), else the change in the score.
    A Gunjin flag fights with the piece behind it.  Checked against playing the attack
    in each such world; the checks after the static value (pieces left hanging, threats
    on the flags) read the sampled world only, so they cancel in the difference from the
    same attack scored with the world's own piece as the whole belief."""
    rng = random.Random(3)
    ply = 2
    win = WIN - ply - 1
    spec = POSITION_CLASSES[variant]
    checked = 0
    for pos in attack_positions(variant):
        pst, values = world_tables(variant, pos)
        score = score_of(pos, pst)
        colour = (pos.turn ^ pos.swap) & 1
        enemy = colour ^ 1
        sign = 1.0 if colour == 0 else -1.0
        enemy_hq = BOARDS[variant].hqs[enemy][0] if variant == "gunjin" else -1
        for m in pos.legal_moves():
            to = pos.move_code.to[m]
            own = pos.board[to]
            if not own:
                continue
            kinds = [k.kind for k in spec.kinds if k.kind != spec.flag_kind]
            believed = [(pc.piece(k, enemy), rng.random()) for k in rng.sample(kinds, 4)]
            if to != enemy_hq:  # no Gunjin flag stands in a headquarters
                believed.append((pc.piece(spec.flag_kind, enemy), 0.3))
            total = sum(prob for _, prob in believed)
            believed = [(q, prob / total) for q, prob in believed]
            found = []
            for belief in (believed, [(own, 1.0)]):
                search = searcher(variant, pst, values)
                search.find_flags(pos)
                search.my_colour = colour
                # keyed where the piece stood at the root (before the reply that moved it)
                search.marginal = {to: belief, pos.move_code.frm[pos.last_move]: belief}
                found.append(search.leaf(pos, [m], -INF, INF, score, ply, sign, False))
            expected = sum(
                prob * attack_value(pos, pst, m, q, score, sign, win) for q, prob in believed
            ) - attack_value(pos, pst, m, own, score, sign, win)
            text = move_text(BOARDS[variant], m)
            assert found[0] - found[1] == pytest.approx(expected, abs=1e-6), text
            checked += 1
    assert checked >= 40


def test_gunjin_medium_and_hard_keep_a_mine_in_their_headquarters():
    board = BOARDS["gunjin"]
    guard_in_hq = 0
    for seat in (0, 1):
        hq = board.names[board.hqs[seat][0]]
        for seed in range(20):
            layout = make_player("gunjin", "medium", seat, seed).deploy({})
            flag = next(s for s, k in layout.items() if k == "flag")
            behind = board.names[GUNJIN_TABLES.behind[seat][board.index[flag]]]
            # Medium: the HQ holds a mine, unless it is the flag's guard square
            assert layout[hq] == "mine" or behind == hq
            guard_in_hq += layout[hq] != "mine"
            # Hard: always, even when the mine is also what guards the flag
            assert make_player("gunjin", "hard", seat, seed).deploy({})[hq] == "mine"
            fortified = cpu_layout("gunjin", seat, random.Random(seed), fortified=True)
            assert fortified[board.hqs[seat][0]] == pc.MINE  # whatever `hq_mine` says
    assert guard_in_hq  # the case where the two levels differ was exercised


def test_classic_hard_mines_all_three_gates_of_its_flag():
    """Medium mines two or three of them; Hard, whose lost games are mostly flags taken
    by pieces walking in, always all three."""
    board = BOARDS["classic"]
    mined = {"medium": set(), "hard": set()}
    for level in mined:
        for seat in (0, 1):
            for seed in range(20):
                layout = make_player("classic", level, seat, seed).deploy({})
                flag = board.index[next(s for s, k in layout.items() if k == "flag")]
                gates = [layout[board.names[t]] for t in board.road_steps[flag]]
                mined[level].add(gates.count("landmine"))
    assert mined == {"medium": {2, 3}, "hard": {3}}


def classic_position(placed: dict[str, int], turn: int) -> Position:
    cls = POSITION_CLASSES["classic"]
    board = [0] * cls.spec.size
    for name, p in placed.items():
        board[cls.spec.index[name]] = p
    return cls(board, turn=turn, swap=0)


# Player 1's flag on b12 behind mines on a12 and c12, a Captain on the third gate (b11)
# and a Lieutenant in the camp b10 beside it; player 0's General waits in the camp c9.
GATE_GUARD = {
    "b12": pc.piece(pc.FLAG, 1),
    "a12": pc.piece(pc.LANDMINE, 1),
    "c12": pc.piece(pc.LANDMINE, 1),
    "b11": pc.piece(pc.CAPTAIN, 1),
    "b10": pc.piece(pc.LIEUTENANT, 1),
    "e12": pc.piece(pc.CAPTAIN, 1),
    "b1": pc.piece(pc.FLAG, 0),
    "a1": pc.piece(pc.LANDMINE, 0),
    "b2": pc.piece(pc.LANDMINE, 0),
    "c1": pc.piece(pc.LANDMINE, 0),
    "e1": pc.piece(pc.CAPTAIN, 0),
    "c9": pc.piece(pc.GENERAL, 0),
    "a9": pc.piece(pc.ENGINEER, 0),
}


GENERAL_IN_B10 = {"b10": pc.piece(pc.GENERAL, 0), "c9": 0}
MINE = pc.piece(pc.LANDMINE, 1)


@pytest.mark.parametrize(
    ("changes", "danger"),
    [
        ({"b10": 0}, False),  # the General needs two moves to reach the gate b11
        (GENERAL_IN_B10, True),  # it takes the Captain on b11, then the flag
        # a piece of player 1's that can take the General back on the gate, and one that cannot
        ({**GENERAL_IN_B10, "a11": pc.piece(pc.FIELD_MARSHAL, 1)}, False),
        ({**GENERAL_IN_B10, "a11": pc.piece(pc.MAJOR, 1)}, True),
        # a mine on the gate stops all but an Engineer: one beside it, or one that runs
        # from a9 round the railway corner at a11 (unless pieces block its ways there,
        # or the Lieutenant in b10 is there to take it back)
        ({**GENERAL_IN_B10, "b11": MINE, "a9": 0}, False),
        ({"b10": pc.piece(pc.ENGINEER, 0), "b11": MINE, "a9": 0}, True),
        ({"b11": MINE, "b10": 0}, True),
        ({"b11": MINE, "b10": 0, "a10": pc.piece(pc.CAPTAIN, 1), "c11": MINE}, False),
        ({"b11": MINE}, False),
    ],
)
def test_the_gate_watch_sees_a_flag_taken_through_a_gate_in_two_moves(changes, danger):
    """`flag_danger` with gates: after player 1's move, can player 0 move onto a gate of
    its flag (taking what stands there) where nothing of player 1's can take it back?"""
    placed = {**GATE_GUARD, **changes}
    pos = classic_position({k: v for k, v in placed.items() if v}, turn=0)
    pst, values = world_tables("classic", pos)
    search = strategy_for("classic").searcher(pst, values=values, gates=True)
    search.set_world(pst, values, pos)
    assert search.flag_danger(pos, pos.board, 1) is danger


def test_hard_keeps_the_camp_beside_a_weak_gate_rather_than_take_a_piece():
    """Three plies see the General step into b10 only after the Lieutenant left it; the
    capture of the Captain on b11 and then of the flag come later.  Without the gate
    watch taking the Engineer on a9 is the best move; with it (Classic Hard's setting),
    it is far below the best."""
    pos = classic_position(GATE_GUARD, turn=1)
    pst, values = world_tables("classic", pos)
    moves = pos.legal_moves()
    bait = parse_move(BOARDS["classic"], "b10-a9")
    assert settings_for("classic", "hard").gate_watch
    found = {}
    for gates in (False, True):
        search = strategy_for("classic").searcher(pst, values=values, gates=gates)
        search.set_world(pst, values, pos)
        vals = search.root_values(pos, moves, 3, score_of(pos, pst), INF)
        found[gates] = dict(zip(moves, vals, strict=True))
    assert max(found[False], key=found[False].get) == bait
    best = max(found[True].values())
    assert found[True][bait] < best - 0.1 * WIN


def test_blind_easy_mistakes_are_careless_flips_never_careless_moves():
    """Blind Easy's noise only chooses which piece to turn; when moving a piece is best
    it moves exactly as a noise-free Easy would."""
    board = BOARDS["blind"]
    moves_seen = flips_seen = 0
    for i, plies in enumerate((0, 3, 4, 6, 8, 12, 25, 40, 60, 90)):
        game = random_game("blind", 500 + i, plies)
        if game.phase != PLAY:
            continue
        actions = legal(game)
        v = view(game, game.turn)
        exact = cpu("blind", "easy", game.turn, 0)
        exact.settings = replace(exact.settings, temperature=0.0, blunder=0.0)
        best = exact.choose(v, actions)
        best_is_flip = board.move_code.is_flip(parse_move(board, best))
        choices = {cpu("blind", "easy", game.turn, seed).choose(v, actions) for seed in range(12)}
        for choice in choices:
            assert board.move_code.is_flip(parse_move(board, choice)) == best_is_flip
        if best_is_flip:
            flips_seen += 1
        else:
            moves_seen += 1
            assert choices == {best}
    assert moves_seen and flips_seen  # both cases were exercised


def test_blind_easy_keeps_enemy_pieces_out_of_a_camp_next_to_its_face_up_flag():
    """Its flag lies face up on d4; the enemy Colonel on e6 could step into the camp d5,
    where it cannot be attacked, and take the flag next move.  Easy looks one move ahead,
    yet it fills d5 instead of taking the Lieutenant offered on a10."""
    game = Game("blind", seed=1)
    cls = POSITION_CLASSES["blind"]
    board = [0] * cls.spec.size
    placed = {
        "d4": pc.piece(pc.FLAG, 0),
        "d3": pc.piece(pc.LIEUTENANT, 0),
        "c4": pc.piece(pc.LIEUTENANT, 0),
        "e4": pc.piece(pc.CAPTAIN, 0),
        "a9": pc.piece(pc.MAJOR, 0),
        "b12": pc.piece(pc.FLAG, 1),
        "a10": pc.piece(pc.LIEUTENANT, 1),
        "e6": pc.piece(pc.COLONEL, 1),
    }
    for name, p in placed.items():
        board[cls.spec.index[name]] = p
    game.position = cls(board, turn=0, swap=0)
    game.phase = PLAY
    game.layouts = [{}, {}]
    actions = legal(game)
    assert "a9-a10" in actions and "e6-d5" not in actions  # it is player 0's turn
    for seed in range(6):
        choice = cpu("blind", "easy", 0, seed).choose(view(game, 0), actions)
        assert choice.endswith("-d5"), choice
