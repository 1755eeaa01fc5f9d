"""Easy and Medium CPU players for a Siguo seat, as partner or opponent.

Each decision reads the seat's view into a `Belief` (nothing else: the player keeps no
state between moves, so a decision is a pure function of its seed and the view) and
weighs every legal move:
- an attack by what it is worth on average over the target's possible kinds (a Flag
  is worth a whole army), with a bonus for taking a piece that threatens its own or
  its partner's Flag;
- a step towards the nearest post that may hold an enemy Flag;
- what the piece is exposed to where it lands (and is freed from where it leaves): the
  worst attack an enemy piece that can reach the post could make on it, by that
  piece's possible kinds;
- a small cost for standing in the partner's area (its lanes);
- attacks weigh more as the quiet spell nears the draw.
Easy plays the best of these with some noise.  Medium takes its best moves by these
terms without the exposure and plays each in sampled worlds: the enemy seat that moves
next answers with the attack it would choose from what it may know of our pieces, then
the partner makes the capture that seems best to it (taking back the attacker, often),
then the other enemy seat attacks; what the enemies win less what the partner wins
replaces the exposure.  In each world any enemy move onto a post beside its own or its
partner's Flag counts, chosen or not: a little if it or its partner could take the post
back at once, nearly a Flag if neither could.
Medium also counts a piece as worth more the fewer movable pieces its army has left (an
army that cannot move is out) and holds the posts beside its Flag while an enemy piece
is near.  Deployment: the Flag in a headquarters behind Landmines, Bombs on
the lanes of the strong pieces, the rest shuffled, all drawn from the player's seed.
"""

from __future__ import annotations

import random
from typing import ClassVar

from junqi_core import pieces as pc
from junqi_core.ai.siguo.belief import MOVERS, Belief, start_posts
from junqi_core.deployment import DeploymentError
from junqi_core.notation import parse_move
from junqi_core.pieces import ATTACKER_WINS, BOTH_REMOVED, DEFENDER_WINS, KIND_MASK, SEAT_OF
from junqi_core.siguo.board import SIGUO_BOARD, SIGUO_SLIDES
from junqi_core.variants import Variant, find_variant

BOARD = SIGUO_BOARD
ELIM = 200.0  # an enemy army out (its Flag taken)
VALUE = {
    pc.ENGINEER: 7.0,
    pc.LIEUTENANT: 3.0,
    pc.CAPTAIN: 4.0,
    pc.MAJOR: 6.0,
    pc.COLONEL: 8.0,
    pc.BRIGADIER: 11.0,
    pc.MAJOR_GENERAL: 15.0,
    pc.GENERAL: 21.0,
    pc.FIELD_MARSHAL: 30.0,
    pc.BOMB: 14.0,
    pc.LANDMINE: 6.0,
    pc.FLAG: ELIM,
}
# points per move nearer to an enemy headquarters, by kind
ADVANCE = {
    pc.ENGINEER: 1.0,
    pc.LIEUTENANT: 1.2,
    pc.CAPTAIN: 1.2,
    pc.MAJOR: 1.2,
    pc.COLONEL: 1.2,
    pc.BRIGADIER: 1.0,
    pc.MAJOR_GENERAL: 1.0,
    pc.GENERAL: 0.8,
    pc.FIELD_MARSHAL: 0.8,
    pc.BOMB: 0.6,
}
GUARD_NOW = 60.0  # taking a piece that could take the Flag next
GUARD_NEAR = 20.0  # ... or that stands two moves from it
PARTNER_AREA = 1.5  # a quiet move into the partner's area
BLUNDER = 1.0  # Medium: how much an enemy reply that loses it points is counted
LATER = 1.0  # Medium: the second enemy's reply (the partner moves between)
PARTNER = 0.5  # Medium: what the partner's capture between the replies wins (it may not make it)
GATE_LOST = 30.0  # Medium: an enemy move onto a post beside its Flag, that it can answer
FLAG_OPEN = 120.0  # ... that neither it nor its partner can answer: the Flag falls next
PRESS = 12.0  # points an attack gains as the quiet spell nears the draw


def _distances() -> tuple[tuple[int, ...], ...]:
    """Moves a piece other than an Engineer needs between two posts of the empty board."""
    n = BOARD.size
    step = [set(BOARD.neighbours[s]) for s in range(n)]
    for s in range(n):
        for _, ray in SIGUO_SLIDES[s]:
            step[s].update(ray)
    out = []
    for s in range(n):
        dist = [99] * n
        dist[s] = 0
        frontier = [s]
        while frontier:
            nxt = []
            for a in frontier:
                for b in step[a]:
                    if dist[b] == 99:
                        dist[b] = dist[a] + 1
                        nxt.append(b)
            frontier = nxt
        out.append(tuple(dist))
    return tuple(out)


DIST = _distances()


def judged_trade(row: tuple[int, ...], chances: dict[int, float], lose: float) -> float:
    """What an attacker worth `lose` (its `combat` row `row`) expects from attacking a piece
    of these `chances`, at plain values: how an enemy seat judges an attack."""
    ev = 0.0
    for d, p in chances.items():
        result = row[d]
        if result == ATTACKER_WINS:
            ev += p * VALUE[d]
        elif result == DEFENDER_WINS:
            ev -= p * lose
        else:
            ev += p * (VALUE[d] - lose)
    return ev


class SiguoPlayer:
    """Easy (`search` False) or Medium (`search` True) for one seat."""

    level = "easy"
    search = False
    worlds = 0
    candidates = 0
    noise = 2.5
    slip = 0.08  # chance of a near-best move instead of the best
    hang = 0.6  # how much the exposure where a piece lands counts
    caution: ClassVar[dict[int, float]] = dict.fromkeys(VALUE, 1.0)  # weight of own losses by kind
    fortress = 0.5  # how often all three posts beside the Flag hold Landmines
    gate = 0.0  # points for standing beside its own Flag while an enemy piece is near
    scarcity = 0.0  # a piece is worth (1 + scarcity / its army's movable pieces) times

    def __init__(self, variant: Variant | str, player: int, seed: int = 0, **_: object) -> None:
        self.variant = find_variant(variant) if isinstance(variant, str) else variant
        self.player = player
        self.seed = seed
        self.cls = self.variant.position_class
        self.combat = self.cls.combat

    # --- deployment ------------------------------------------------------------------------

    def deploy(self, view: dict) -> dict[str, str]:
        rules = self.variant.deployment
        assert rules is not None
        rng = random.Random(self.seed * 7919 + self.player)
        ids = {k.kind: k.id for k in pc.JUNQI_KINDS}
        for _ in range(20):
            layout = self._layout(rng)
            try:
                rules.validate(self.player, layout)
            except DeploymentError:
                continue
            return {BOARD.names[s]: ids[k] for s, k in layout.items()}
        layout = rules.random_layout(self.player, rng)  # never expected
        return {BOARD.names[s]: ids[k] for s, k in layout.items()}

    def _layout(self, rng: random.Random) -> dict[int, int]:
        seat = "SENW"[self.player]
        rules = self.variant.deployment
        assert rules is not None

        def at(name: str) -> int:
            return BOARD.index[seat + name]

        layout: dict[int, int] = {}
        flag_hq, other_hq = rng.sample(["b1", "d1"], 2)
        layout[at(flag_hq)] = pc.FLAG
        beside = [f"{chr(ord(flag_hq[0]) - 1)}1", f"{chr(ord(flag_hq[0]) + 1)}1"]
        rng.shuffle(beside)
        mines = [f"{flag_hq[0]}2", beside[0]]
        third = [f"{other_hq[0]}2"]
        if rules.placement_error(self.player, pc.LANDMINE, at(other_hq)) is None:
            third.append(other_hq)
        mines.append(beside[1] if rng.random() < self.fortress else rng.choice(third))
        for name in mines:
            layout[at(name)] = pc.LANDMINE
        # the strong pieces on the front half, the Bombs on the lanes behind them
        free = [s for s in start_posts(self.player) if s not in layout]
        front = [s for s in free if int(BOARD.names[s][2]) >= 4]
        rng.shuffle(front)
        for kind in (pc.FIELD_MARSHAL, pc.GENERAL):
            layout[front.pop()] = kind
        lanes = [at(n) for n in ("a3", "a4", "e3", "e4", "c3", "b4", "d4", "a5", "e5")]
        lanes = [s for s in lanes if s not in layout]
        for s in rng.sample(lanes, 2):
            layout[s] = pc.BOMB
        rest = [k.kind for k in pc.JUNQI_KINDS for _ in range(k.count)]
        for k in layout.values():
            rest.remove(k)
        free = [s for s in start_posts(self.player) if s not in layout]
        rng.shuffle(rest)
        rng.shuffle(free)
        # a few Engineers forward, to clear Landmines later
        layout.update(zip(free, rest, strict=True))
        return layout

    # --- play ------------------------------------------------------------------------------

    def read(self, view: dict) -> Belief:
        """What the seat knows of every piece, from its view alone."""
        return Belief(view, self.combat)

    def observe(self, event: dict) -> None:
        pass

    def answer_draw(self, view: dict) -> bool:
        me = self.player
        owners = [c["owner"] for c in view["board"].values() if c["owner"] is not None]
        ours = sum(1 for o in owners if o % 2 == me % 2)
        return ours < 0.75 * (len(owners) - ours)

    def choose(self, view: dict, legal: list[str]) -> str:
        moves = [m for m in legal if m != "pass" and "-" in m]
        if not moves:
            return legal[0]
        rng = random.Random((self.seed * 1_000_003 + view["ply"]) * 4 + self.player)
        think = Thinker(self, view, rng)
        scored = sorted(((think.score(m), i, m) for i, m in enumerate(sorted(moves))), reverse=True)
        if self.search:
            scored = think.refine(scored[: self.candidates])
        noisy = sorted(
            ((v + rng.uniform(0.0, self.noise), i, m) for v, i, m in scored), reverse=True
        )
        if self.slip and rng.random() < self.slip:
            return rng.choice(noisy[:4])[2]
        return noisy[0][2]


class EasyPlayer(SiguoPlayer):
    level = "easy"
    caution: ClassVar[dict[int, float]] = dict.fromkeys(VALUE, 1.0)


class MediumPlayer(SiguoPlayer):
    level = "medium"
    search = True
    worlds = 10
    candidates = 40
    scarcity = 4.0
    gate = 8.0
    noise = 2.0
    slip = 0.0
    fortress = 0.9
    hang = 0.6
    # a Field Marshal or a General thrown at an unknown piece is the usual way to lose
    caution: ClassVar[dict[int, float]] = {
        **dict.fromkeys(VALUE, 1.0),
        pc.GENERAL: 1.3,
        pc.FIELD_MARSHAL: 1.3,
    }


class Thinker:
    """One decision's working state: the belief and the exposure maps."""

    def __init__(self, player: SiguoPlayer, view: dict, rng: random.Random) -> None:
        self.player = player
        self.rng = rng
        self.me = me = player.player
        self.combat = player.combat
        self.view = view
        self.belief = b = player.read(view)
        self.enemies = [s for s in ((me + 1) % 4, (me + 3) % 4) if not b.out[s]]
        self.out_bits = sum(1 << s for s in range(4) if b.out[s])
        # a board of piece ints for move generation (an unknown piece moves as an
        # ordinary piece, a known Engineer as one)
        proxy = [0] * BOARD.size
        for s, p in b.at.items():
            if p.kind:
                kind = p.kind
            elif p.engineer:
                kind = pc.ENGINEER
            elif not p.mask & MOVERS:
                kind = pc.LANDMINE
            else:
                kind = pc.LIEUTENANT
            proxy[s] = pc.seat_piece(kind, p.seat)
        self.proxy = proxy
        self._attackers: dict[int, list[int]] = {}
        # the headquarters of its team, where its and its partner's Flags may be
        self.hq = [BOARD.index[f"{'SENW'[s]}{h}"] for s in (me, me ^ 2) for h in ("b1", "d1")]
        self._gate_cache: dict[tuple[int, ...], frozenset[int]] = {}
        # what to guard: its own Flag and the partner's (or the posts it may be on)
        partner = me ^ 2
        self.guard: list[int] = []
        for s, p in b.at.items():
            if (p.seat == me and p.kind == pc.FLAG) or (
                p.seat == partner and p.mask >> pc.FLAG & 1
            ):
                self.guard.append(s)
        # the enemy posts whose piece could take a guarded post next turn
        self.threats: set[int] = set()
        if self.guard:
            pos = player.cls(list(proxy), turn=me, out=self.out_bits)
            frm_of, to_of = pos.move_code.frm, pos.move_code.to
            guard = set(self.guard)
            for seat in self.enemies:
                found: list[int] = []
                pos.generate(seat, _ignore, found.append)
                self.threats.update(frm_of[m] for m in found if to_of[m] in guard)
        # where enemy Flags may be
        enemies = self.enemies
        self.goals = [s for s, p in b.at.items() if p.seat in enemies and p.mask >> pc.FLAG & 1]
        # late in a quiet spell, attacks are worth more (no draw by waiting)
        limit = view.get("quiet_limit") or 200
        self.press = PRESS * max(0.0, view.get("quiet", 0) / limit - 0.3)
        self.partner_area = set(BOARD.home[partner]) if not b.out[partner] else set()
        # the posts beside its own Flag, to be held while an enemy piece is near
        self.flag_gates = {t for g in self.guard if b.at[g].seat == me for t in BOARD.neighbours[g]}
        self.gates: set[int] = set()
        for g in self.guard:
            if b.at[g].seat == me and any(
                p.seat in self.enemies and DIST[s][g] <= 3 for s, p in b.at.items()
            ):
                self.gates.update(BOARD.neighbours[g])
        # an army whose last movable pieces go is out: the fewer it has, the more each
        # is worth (`scarcity` over how many it likely has, frozen ones not counted)
        movers = [0.0] * 4
        frozen = player.cls.frozen
        for s, p in b.at.items():
            if not frozen[s]:
                chances = b.chances(p)
                movers[p.seat] += 1.0 - chances.get(pc.LANDMINE, 0.0) - chances.get(pc.FLAG, 0.0)
        self.scarce = [1.0 + player.scarcity / max(1.0, m) for m in movers]

    def _gain(self, a: int, chances: dict[int, float], seat: int) -> tuple[float, float]:
        """(expected points, chance the target is removed) for kind `a` attacking a piece
        of `seat`; what it may lose counts `caution` times (more for the top pieces)."""
        row = self.combat[a]
        ev = removed = 0.0
        lose = VALUE[a] * self.player.caution[a] * self.scarce[self.me]
        worth = self.scarce[seat]
        for d, p in chances.items():
            result = row[d]
            value = VALUE[d] if d == pc.FLAG else VALUE[d] * worth
            if result == ATTACKER_WINS:
                ev += p * value
                removed += p
            elif result == DEFENDER_WINS:
                ev -= p * lose
            else:
                ev += p * (value - lose)
                removed += p
        return ev, removed

    def attackers(self, square: int, vacated: int) -> list[int]:
        """Enemy posts whose piece could attack `square` next (a step, or a straight
        line with nothing between), with `vacated` taken as empty."""
        key = square * 256 + vacated
        found = self._attackers.get(key)
        if found is not None:
            return found
        at = self.belief.at
        proxy = self.proxy
        enemies = self.enemies
        frozen = self.player.cls.frozen
        found = []

        def enemy_mover(s: int) -> bool:
            p = at.get(s)
            return (
                p is not None
                and p.seat in enemies
                and not frozen[s]
                and bool(p.mask & MOVERS)
                and p.kind not in (pc.LANDMINE, pc.FLAG)
            )

        for t in BOARD.neighbours[square]:
            if t != vacated and enemy_mover(t):
                found.append(t)
        for prefix, ray in SIGUO_SLIDES[square]:
            if any(proxy[s] and s != vacated for s in prefix):
                continue
            for s in ray:
                if proxy[s] and s != vacated:
                    if enemy_mover(s) and s not in found:
                        found.append(s)
                    break
        self._attackers[key] = found
        return found

    def exposure(self, square: int, kind: int, vacated: int, seats, skip: int = -1) -> float:
        """The worst an enemy piece of `seats` that could attack `square` could do to a
        piece of `kind` there (0 in a camp)."""
        if square in BOARD.camps:
            return 0.0
        b = self.belief
        worst = 0.0
        for frm in self.attackers(square, vacated):
            if frm == skip:
                continue
            enemy = b.at[frm]
            if enemy.seat not in seats:
                continue
            ev = 0.0
            mine = VALUE[kind] * self.scarce[self.me]
            theirs = self.scarce[enemy.seat]
            for k, p in b.chances(enemy).items():
                result = self.combat[k][kind] if k < pc.LANDMINE else 0
                if result == ATTACKER_WINS:
                    ev += p * mine
                elif result == DEFENDER_WINS:
                    ev -= p * VALUE[k] * theirs
                elif result == BOTH_REMOVED:
                    ev += p * (mine - VALUE[k] * theirs)
            worst = max(worst, ev)
        return worst

    def score(self, move: str, seats=None) -> float:
        """A move's value by the analytic terms (exposure to `seats`, default both)."""
        if seats is None:
            seats = self.enemies
        frm_name, _, to_name = move.partition("-")
        frm, to = BOARD.index[frm_name], BOARD.index[to_name]
        b = self.belief
        piece = b.at[frm]
        a = piece.kind
        target = b.at.get(to)
        value = 0.0
        survive = 1.0
        if target is not None:
            ev, removed = self._gain(a, b.chances(target), target.seat)
            value += ev + self.press
            row = self.combat[a]
            survive = sum(p for d, p in b.chances(target).items() if row[d] == ATTACKER_WINS)
            if self.guard:
                if to in self.threats:
                    value += GUARD_NOW * removed
                elif any(DIST[to][g] <= 2 for g in self.guard):
                    value += GUARD_NEAR * removed
        elif to in self.partner_area:
            value -= PARTNER_AREA
        if self.goals and a in ADVANCE:
            before = min(DIST[frm][g] for g in self.goals)
            after = min(DIST[to][g] for g in self.goals)
            value += ADVANCE[a] * (before - after) * survive
        if self.gates:
            value += self.player.gate * ((to in self.gates) - (frm in self.gates))
        hang = self.player.hang
        value += hang * self.exposure(frm, a, -1, seats)
        value -= hang * survive * self.exposure(to, a, frm, seats, skip=to)
        return value

    def refine(self, scored: list[tuple[float, int, str]]) -> list[tuple[float, int, str]]:
        """Medium: in sampled worlds, the best attack of the enemy seat that moves next,
        the partner's best capture after it, then (on the board they leave) the other
        enemy's best attack replace the analytic exposure (the team's turn order)."""
        me = self.me
        b = self.belief
        player = self.player
        nxt = next((s for s in ((me + 1) % 4, (me + 2) % 4, (me + 3) % 4) if not b.out[s]), None)
        if nxt is None or not (nxt ^ me) & 1:
            return scored
        later = [s for s in self.enemies if s != nxt]
        partner = me ^ 2
        if player.variant.visibility == "open":
            self.public = b
        else:
            self.public = Belief(self.view, self.combat, frozenset((me, me ^ 2)))
        positions = [
            player.cls(
                b.sample_board(self.rng),
                turn=me,
                ply=self.view["ply"],
                quiet=self.view.get("quiet", 0),
                out=self.out_bits,
            )
            for _ in range(player.worlds)
        ]
        out = []
        for _, i, move in scored:
            base = self.score(move, ())
            m = parse_move(BOARD, move)
            moved = BOARD.move_code.split(m)
            replies = 0.0
            for pos in positions:
                pos.push(m)
                if pos.decided is None and pos.turn == nxt:
                    gain, reply = self._best_attack(pos, nxt, moved)
                    replies += gain
                    if later:
                        if reply is not None:
                            pos.push(reply)
                        # the partner moves between: its best capture, as it may judge
                        # it, is counted for the team and played before the other enemy
                        back = None
                        if reply is not None and pos.decided is None and pos.turn == partner:
                            won, back = self._partner_attack(pos, reply)
                            replies -= won
                            if back is not None:
                                pos.push(back)
                        if pos.decided is None:
                            replies += LATER * self._best_attack(pos, later[0], moved)[0]
                        if back is not None:
                            pos.pop()
                        if reply is not None:
                            pos.pop()
                pos.pop()
            out.append((base - replies / len(positions), i, move))
        out.sort(reverse=True)
        return out

    def _best_attack(self, pos, seat: int, moved: tuple[int, int]) -> tuple[float, int | None]:
        """What `seat` gains, in a whole world, by the attack it would choose: the one
        worth most by what it may know of the attacked piece (`public`; none if none is
        worth anything), and that attack's move.  `moved`: (from, to) of the move
        searched, so that the moved piece is known by where it came from."""
        board = pos.board
        combat = self.combat
        me = self.me
        public = self.public
        frm_of, to_of = pos.move_code.frm, pos.move_code.to
        best, chosen = 0.0, None
        gates = self._gates(board)
        attacks: list[int] = []
        entries: list[int] = []
        pos.generate(seat, lambda q: to_of[q] in gates and entries.append(q), attacks.append)
        breach = self._breach(pos, gates, attacks, entries)
        for r in attacks:
            mover = board[frm_of[r]] & KIND_MASK
            t = to_of[r]
            if board[t] & KIND_MASK == pc.FLAG:  # its Flag or its partner's: taken
                return ELIM + breach, r
            seen = public.at.get(moved[0] if t == moved[1] else t)
            chances = public.chances(seen) if seen is not None else {board[t] & KIND_MASK: 1.0}
            ev = judged_trade(combat[mover], chances, VALUE[mover])
            if ev > best:
                best, chosen = ev, r
        if chosen is None:
            return breach, None
        target = board[to_of[chosen]]
        mover = board[frm_of[chosen]] & KIND_MASK
        kind = target & KIND_MASK
        result = combat[mover][kind]
        taken = VALUE[kind] if kind == pc.FLAG else VALUE[kind] * self.scarce[SEAT_OF[target]]
        lost = VALUE[mover] * self.scarce[seat]
        if result == ATTACKER_WINS:
            gain = taken
        elif result == DEFENDER_WINS:
            gain = -lost
        else:
            gain = taken - lost
        if SEAT_OF[target] != me and kind != pc.FLAG:
            gain *= 0.8  # the partner's piece: it may yet be saved
        if gain < 0:
            gain *= BLUNDER  # an enemy's mistake is not to be counted on
        return gain + breach, chosen

    def _partner_attack(self, pos, reply: int) -> tuple[float, int | None]:
        """The partner's turn after an enemy `reply`: the capture worth most by what is
        known of the enemy piece (the one that just moved is known by where it came
        from; none if none is worth anything), and what it wins in the world."""
        board = pos.board
        combat = self.combat
        b = self.belief
        seat = self.me ^ 2
        frm_of, to_of = pos.move_code.frm, pos.move_code.to
        came, went = frm_of[reply], to_of[reply]
        attacks: list[int] = []
        pos.generate(seat, _ignore, attacks.append)
        best, chosen = 0.0, None
        for r in attacks:
            t = to_of[r]
            target = board[t]
            if SEAT_OF[target] not in self.enemies:
                continue
            seen = b.at.get(came if t == went else t)
            if seen is None or seen.seat != SEAT_OF[target]:
                continue
            mover = board[frm_of[r]] & KIND_MASK
            ev = self._gain(mover, b.chances(seen), seen.seat)[0]
            if ev > best:
                best, chosen = ev, r
        if chosen is None:
            return 0.0, None
        mover = board[frm_of[chosen]] & KIND_MASK
        kind = board[to_of[chosen]] & KIND_MASK
        result = combat[mover][kind]
        taken = (
            VALUE[kind]
            if kind == pc.FLAG
            else VALUE[kind] * self.scarce[SEAT_OF[board[to_of[chosen]]]]
        )
        lost = VALUE[mover] * self.scarce[seat]
        if result == ATTACKER_WINS:
            won = taken
        elif result == DEFENDER_WINS:
            won = -lost
        else:
            won = taken - lost
        return PARTNER * won, chosen

    def _gates(self, board: list[int]) -> frozenset[int]:
        """The posts beside its own and its partner's Flag in a world."""
        key = tuple(s for s in self.hq if board[s] & KIND_MASK == pc.FLAG)
        found = self._gate_cache.get(key)
        if found is None:
            found = self._gate_cache[key] = frozenset(
                t for s in key if SEAT_OF[board[s]] in (self.me, self.me ^ 2)
                for t in BOARD.neighbours[s]
            )  # fmt: skip
        return found

    def _breach(self, pos, gates: frozenset[int], attacks: list[int], entries: list[int]) -> float:
        """The worst `_breach_cost` of an enemy move onto a post beside a Flag of its team
        (an Engineer on a Landmine there, most often), whether or not the enemy would
        choose it: `entries` are its quiet moves there, `attacks` all its attacks."""
        if not gates:
            return 0.0
        board = pos.board
        frm_of, to_of = pos.move_code.frm, pos.move_code.to
        combat = self.combat
        for r in attacks:
            t = to_of[r]
            if (
                t in gates
                and combat[board[frm_of[r]] & KIND_MASK][board[t] & KIND_MASK] != DEFENDER_WINS
            ):
                entries.append(r)
        breach = 0.0
        for r in entries:
            breach = max(breach, self._breach_cost(pos, r))
            if breach >= FLAG_OPEN:
                break
        return breach

    def _breach_cost(self, pos, r: int) -> float:
        """What an enemy move onto a post beside a Flag of its team costs: `GATE_LOST`
        if it or its partner could take the post back (or fill it) at once, else
        `FLAG_OPEN` (the Flag falls at the enemy's next turn unless help comes)."""
        board = pos.board
        frm, t = pos.move_code.frm[r], pos.move_code.to[r]
        mover, held = board[frm], board[t]
        kind = mover & KIND_MASK
        if held:
            result = self.combat[kind][held & KIND_MASK]
            if result == DEFENDER_WINS:
                return 0.0
            after = mover if result == ATTACKER_WINS else 0
        else:
            after = mover
        board[frm], board[t] = 0, after
        to_of, frm_of = pos.move_code.to, pos.move_code.frm
        closed = False

        def answer(q: int) -> None:
            nonlocal closed
            if to_of[q] == t and (
                not after or self.combat[board[frm_of[q]] & KIND_MASK][kind] != DEFENDER_WINS
            ):
                closed = True

        for seat in (self.me, self.me ^ 2):
            if not closed:
                pos.generate(seat, answer, answer)
        board[frm], board[t] = mover, held
        return GATE_LOST if closed else FLAG_OPEN


def _ignore(_: int) -> None:
    pass


# The levels `players.team_levels` offers.  Hard (`hard.HardPlayer`) is not among them: it
# does not yet play better than Medium (docs/strength.md, "Siguo Hard")
SIGUO_LEVELS: dict[str, type[SiguoPlayer]] = {"easy": EasyPlayer, "medium": MediumPlayer}
