"""Hard CPU player for a Siguo seat: a team search in the four seats' turn order over
worlds sampled consistently with the deduction notes.

What it knows (`NotedBelief`): Medium's `Belief`, each hidden piece's kinds cut to those
the deduction notes (`ai/notes_siguo.py`) allow (every public fact: moves and their paths,
fights between any two seats, armies gone out, Flags shown, each army's exact counts, a
fight between two hidden pieces tying two armies together), and worlds drawn army by
army with each army's counts exact over all its 25 pieces, those already taken included,
so that no sampled world gives a piece a kind the notes rule out.

How it chooses: Medium's terms for every move (what an attack wins on average, a step
nearer to a headquarters that may hold an enemy Flag, the posts beside its Flag), its best
moves by them then played in each sampled world through one round of the turn order: each
enemy seat answers with the attack it would choose from what it may know of our pieces,
the partner makes the capture that seems best to it, and at the end the seat's own best
capture (what the team can take back); a seat that is out is skipped, so the round also
holds when a partner or an enemy has gone.  What the enemies win, less what the team wins,
averaged over the worlds, is the move's search value.  Its Field Marshal and General
count their own losses more (top pieces do not trade for less), and a move that takes
away its partner's moves (standing in its lanes) costs by how many it takes.  The number
of worlds comes from a node budget, never from the clock, so the decision is a pure
function of (seed, view), as for Easy and Medium; deployment is Medium's, from the seed.
"""

from __future__ import annotations

import random
from typing import ClassVar

from junqi_core import pieces as pc
from junqi_core.ai.belief import BeliefError, matching
from junqi_core.ai.notes_siguo import SeatTracker
from junqi_core.ai.siguo.belief import FULL_COUNTS, KINDS, Belief
from junqi_core.ai.siguo.player import (
    BLUNDER,
    ELIM,
    PARTNER_AREA,
    VALUE,
    MediumPlayer,
    SiguoPlayer,
    Thinker,
    judged_trade,
)
from junqi_core.notation import parse_move
from junqi_core.pieces import ATTACKER_WINS, DEFENDER_WINS, KIND_MASK, SEAT_OF
from junqi_core.siguo.board import SIGUO_BOARD, SIGUO_SLIDES
from junqi_core.siguo.rules import _ANY_RAIL, _MOVER
from junqi_core.variants import Variant

BOARD = SIGUO_BOARD
ROAD = BOARD.road_steps
RAIL = BOARD.rail_neighbours
TRIES = 6  # random draws of an army before falling back on one exact matching

# Hard's search weights
LATER = 1.0  # the second enemy's attack, after the partner's turn
PARTNER = 0.6  # the partner's capture (it may not make it)
PARTNER_SURE = 1.0  # ... one it is sure to win by what is known: it will make it
OWN_NEXT = 0.5  # the seat's own best capture at the end of the round
BLOCK = 0.25  # per partner move our move takes away (its lanes)


class NotedBelief(Belief):
    """`Belief` whose hidden pieces' kinds are cut to what the deduction notes allow, and
    whose worlds keep each army's counts exact (its taken pieces included)."""

    def __init__(self, view: dict, combat, variant: Variant) -> None:
        super().__init__(view, combat)
        self.armies: list[dict[int, int] | None] = [None] * 4  # per seat: identity -> mask
        self.ident: dict[int, int] = {}  # post -> identity of the piece on it
        try:
            tracker = SeatTracker(variant, view)
            domains = tracker.domains()
        except BeliefError:
            return  # a history that cannot be followed: Medium's belief as it is
        seats = [s for s in range(4) if self.unknown[s]]
        if not seats:
            return
        armies: list[dict[int, int]] = [{} for _ in range(4)]
        for e, mask in domains.items():
            armies[tracker.owner[e]][e] = mask
        for s, p in self.at.items():
            e = tracker.at[s]
            if e < 0 or tracker.owner[e] != p.seat:
                self.ident = {}
                return  # lost track (never expected): no notes at all
            self.ident[s] = e
        for s, p in self.at.items():
            e = self.ident[s]
            mask = armies[p.seat][e]
            if p.kind:
                armies[p.seat][e] = 1 << p.kind
                continue
            p.mask = p.mask & mask or mask
            if p.mask & (p.mask - 1) == 0:
                p.kind = p.mask.bit_length() - 1
            armies[p.seat][e] = p.mask
        # the pools: every kind the notes pin down, on the board or taken, is accounted for
        alive = set(self.ident.values())
        for seat in seats:
            self.known_dead[seat] = [
                mask.bit_length() - 1
                for e, mask in armies[seat].items()
                if e not in alive and mask & (mask - 1) == 0
            ]
            self.armies[seat] = armies[seat]
        self._pools()

    def sample_board(self, rng: random.Random) -> list[int]:
        board = super().sample_board(rng)
        for seat, army in enumerate(self.armies):
            if army is None or not self.unknown[seat]:
                continue
            kinds = _draw(army, rng)
            if kinds is None:
                continue  # contradictory facts (never in a real game): Medium's draw stays
            for p in self.unknown[seat]:
                board[p.square] = pc.seat_piece(kinds[self.ident[p.square]], seat)
        return board


def _draw(army: dict[int, int], rng: random.Random) -> dict[int, int] | None:
    """One assignment identity -> kind within the masks, the counts exact: a random
    draw (the most constrained piece first, each kind by how many are left), else one
    exact matching."""
    idents = list(army)
    kinds_of = {e: [k for k in KINDS if army[e] >> k & 1] for e in idents}
    for _ in range(TRIES):
        rng.shuffle(idents)
        bag = dict(FULL_COUNTS)
        out: dict[int, int] = {}
        left = idents[:]
        ok = True
        while left:
            best = -1
            best_n = 99
            for i, e in enumerate(left):
                n = 0
                for k in kinds_of[e]:
                    if bag[k]:
                        n += 1
                if n < best_n:
                    best, best_n = i, n
                    if n <= 1:
                        break
            if best_n == 0:
                ok = False
                break
            e = left.pop(best)
            options = [k for k in kinds_of[e] if bag[k]]
            kind = rng.choices(options, [bag[k] for k in options])[0]
            bag[kind] -= 1
            out[e] = kind
        if ok:
            return out
    return matching(army, FULL_COUNTS)


def _attacks(pos, seat: int, gates=frozenset()) -> tuple[list[int], list[int]]:
    """`seat`'s attacks, and its quiet moves onto `gates`, in a world: the search needs
    no other move, and skipping them costs less than generating them."""
    attacks: list[int] = []
    entries: list[int] = []
    if pos.out >> seat & 1:
        return attacks, entries
    mover_of = _MOVER[seat]
    enemy = pos.enemy[seat]
    board = pos.board
    frozen = pos.frozen
    attackable = pos.attackable
    moves_from = pos.move_code.at
    for frm, p in enumerate(board):
        mover = mover_of[p]
        if not mover or frozen[frm]:
            continue
        base = moves_from[frm]
        for t in ROAD[frm]:
            q = board[t]
            if not q:
                if t in gates:
                    entries.append(base[t])
            elif enemy[q] and attackable[t]:
                attacks.append(base[t])
        if mover == _ANY_RAIL:
            if not RAIL[frm]:
                continue
            seen = {frm}
            frontier = [frm]
            while frontier:
                s = frontier.pop()
                for t in RAIL[s]:
                    if t in seen:
                        continue
                    seen.add(t)
                    q = board[t]
                    if not q:
                        if t in gates:
                            entries.append(base[t])
                        frontier.append(t)
                    elif enemy[q] and attackable[t]:
                        attacks.append(base[t])
        else:
            for prefix, ray in SIGUO_SLIDES[frm]:
                if prefix and any(board[s] for s in prefix):
                    continue
                for t in ray:
                    q = board[t]
                    if not q:
                        if t in gates:
                            entries.append(base[t])
                        continue
                    if enemy[q] and attackable[t]:
                        attacks.append(base[t])
                    break
    return attacks, entries


class HardPlayer(MediumPlayer):
    level = "hard"
    worlds = 12
    candidates = 32
    budget = 384  # (move, world) pairs searched per decision: the node budget
    noise = 0.75
    slip = 0.0
    caution: ClassVar[dict[int, float]] = {
        **dict.fromkeys(VALUE, 1.0),
        pc.MAJOR_GENERAL: 1.15,
        pc.GENERAL: 1.5,
        pc.FIELD_MARSHAL: 1.6,
    }

    def read(self, view: dict) -> Belief:
        if self.variant.visibility == "open":
            return Belief(view, self.combat)
        return NotedBelief(view, self.combat, self.variant)

    def choose(self, view: dict, legal: list[str]) -> str:
        moves = [m for m in legal if m != "pass" and "-" in m]
        if not moves:
            return legal[0]
        rng = random.Random((self.seed * 1_000_003 + view["ply"]) * 4 + self.player)
        think = HardThinker(self, view, rng)
        scored = sorted(
            ((think.score(m) - think.blocking(m), i, m) for i, m in enumerate(sorted(moves))),
            reverse=True,
        )
        scored = think.search(scored[: self.candidates])
        noisy = sorted(
            ((v + rng.uniform(0.0, self.noise), i, m) for v, i, m in scored), reverse=True
        )
        return noisy[0][2]


class HardThinker(Thinker):
    """One decision of Hard: Medium's working state, the team round searched."""

    player: HardPlayer

    def __init__(self, player: SiguoPlayer, view: dict, rng: random.Random) -> None:
        super().__init__(player, view, rng)
        me = self.me
        b = self.belief
        partner = me ^ 2
        self.partner_in = not b.out[partner]
        self._partner_moves = self._count_partner() if self.partner_in else 0

    def _count_partner(self) -> int:
        pos = self.player.cls(self.proxy, turn=self.me, out=self.out_bits)
        n = 0

        def count(_: int) -> None:
            nonlocal n
            n += 1

        pos.generate(self.me ^ 2, count, count)
        return n

    def blocking(self, move: str) -> float:
        """What a move costs its partner: the partner's moves it takes away (standing in
        its lanes), or gives back (leaving them), at `BLOCK` each."""
        if not self.partner_in:
            return 0.0
        frm_name, _, to_name = move.partition("-")
        frm, to = BOARD.index[frm_name], BOARD.index[to_name]
        area = self.partner_area
        if frm not in area and to not in area:
            return 0.0
        # standing in the partner's area costs what a quiet move there costs in `score`
        stand = PARTNER_AREA if to in area and to in self.belief.at else 0.0
        proxy = self.proxy
        mover, held = proxy[frm], proxy[to]
        proxy[frm], proxy[to] = 0, mover
        after = self._count_partner()
        proxy[frm], proxy[to] = mover, held
        return stand + BLOCK * (self._partner_moves - after)

    # --- the search --------------------------------------------------------------------------

    def search(self, scored: list[tuple[float, int, str]]) -> list[tuple[float, int, str]]:
        """Each candidate in sampled worlds through one round of the turn order."""
        me = self.me
        b = self.belief
        player = self.player
        cls = player.cls
        step = cls.turn_step
        order = [(me + step * k) % 4 for k in (1, 2, 3)]
        order = [s for s in order if not b.out[s]]
        if not any((s ^ me) & 1 for s in order):
            return scored
        if player.variant.visibility == "open":
            self.public = b
        else:
            self.public = Belief(self.view, self.combat, frozenset((me, me ^ 2)))
        worlds = max(4, min(player.worlds, player.budget // max(1, len(scored))))
        positions = [
            cls(
                b.sample_board(self.rng),
                turn=me,
                ply=self.view["ply"],
                quiet=self.view.get("quiet", 0),
                out=self.out_bits,
            )
            for _ in range(worlds)
        ]
        partner = me ^ 2
        out = []
        for _, i, move in scored:
            # the analytic exposure is left out: the enemies' answers in the worlds replace it
            base = self.score(move, ()) - self.blocking(move)
            m = parse_move(BOARD, move)
            frm, to = BOARD.move_code.split(m)
            value = 0.0
            for pos in positions:
                pos.push(m)
                pushed = 1
                origin = {to: frm}
                enemy_turns = 0
                for seat in order:
                    if pos.decided is not None:
                        break
                    if (seat ^ me) & 1:
                        gain, reply = self._enemy_attack(pos, seat, origin)
                        value -= gain * (LATER if enemy_turns else 1.0)
                        enemy_turns += 1
                    elif seat == partner:
                        won, reply, sure = self._team_capture(pos, seat, origin)
                        value += (PARTNER_SURE if sure else PARTNER) * won
                    else:
                        reply = None
                    if reply is not None:
                        self._follow(pos, reply, origin)
                        pos.push(reply)
                        pushed += 1
                if pos.decided is None:
                    value += OWN_NEXT * self._team_capture(pos, me, origin)[0]
                elif pos.decided.winner == me & 1:
                    value += ELIM
                for _ in range(pushed):
                    pos.pop()
            out.append((base + value / len(positions), i, move))
        out.sort(reverse=True)
        return out

    @staticmethod
    def _follow(pos, r: int, origin: dict[int, int]) -> None:
        """Keep `origin` (post now -> post at the decision) for a move about to be made."""
        frm, to = pos.move_code.frm[r], pos.move_code.to[r]
        origin[to] = origin.pop(frm, frm)

    def _enemy_attack(self, pos, seat: int, origin: dict[int, int]) -> tuple[float, int | None]:
        """What `seat` gains, in a whole world, by the attack it would choose (the one
        worth most by what it may know of the attacked piece), and that attack; any move
        of it that opens a post beside a Flag of our team counts too (Medium's breach)."""
        board = pos.board
        combat = self.combat
        me = self.me
        public = self.public
        frm_of, to_of = pos.move_code.frm, pos.move_code.to
        gates = self._gates(board)
        attacks, entries = _attacks(pos, seat, gates)
        breach = self._breach(pos, gates, attacks, entries)
        best, chosen = 0.0, None
        for r in attacks:
            mover = board[frm_of[r]] & KIND_MASK
            t = to_of[r]
            if board[t] & KIND_MASK == pc.FLAG:
                return ELIM + breach, r
            seen = public.at.get(origin.get(t, t))
            if seen is not None and seen.seat != SEAT_OF[board[t]]:
                seen = None
            chances = public.chances(seen) if seen is not None else {board[t] & KIND_MASK: 1.0}
            ev = judged_trade(combat[mover], chances, VALUE[mover])
            if ev > best:
                best, chosen = ev, r
        if chosen is None:
            return breach, None
        gain = self._outcome(board, frm_of[chosen], to_of[chosen], seat)
        target = board[to_of[chosen]]
        if SEAT_OF[target] != me and target & KIND_MASK != pc.FLAG:
            gain *= 0.8  # the partner's piece: it may yet be saved
        if gain < 0:
            gain *= BLUNDER
        return gain + breach, chosen

    def _team_capture(
        self, pos, seat: int, origin: dict[int, int]
    ) -> tuple[float, int | None, bool]:
        """The capture `seat` of our team would choose by what this seat knows of the
        enemy pieces (worth anything on average), what it wins in the world, and whether
        it is sure to win by what is known (then a partner surely makes it)."""
        board = pos.board
        b = self.belief
        frm_of, to_of = pos.move_code.frm, pos.move_code.to
        best, chosen = 0.0, None
        for r in _attacks(pos, seat)[0]:
            t = to_of[r]
            target = board[t]
            if target & KIND_MASK == pc.FLAG:
                return ELIM, r, True
            seen = b.at.get(origin.get(t, t))
            if seen is None or seen.seat != SEAT_OF[target]:
                continue
            mover = board[frm_of[r]] & KIND_MASK
            ev = self._gain(mover, b.chances(seen), seen.seat)[0]
            if ev > best:
                best, chosen = ev, r
        if chosen is None:
            return 0.0, None, False
        mover = board[frm_of[chosen]] & KIND_MASK
        row = self.combat[mover]
        seen = b.at[origin.get(to_of[chosen], to_of[chosen])]
        sure = all(row[d] == ATTACKER_WINS for d in b.chances(seen))
        return self._outcome(board, frm_of[chosen], to_of[chosen], seat), chosen, sure

    def _outcome(self, board: list[int], frm: int, to: int, seat: int) -> float:
        """What an attack from `frm` on `to` wins for `seat`'s side in the world (its own
        loss counted at its caution when the seat is ours)."""
        mover = board[frm] & KIND_MASK
        target = board[to]
        kind = target & KIND_MASK
        result = self.combat[mover][kind]
        taken = VALUE[kind] if kind == pc.FLAG else VALUE[kind] * self.scarce[SEAT_OF[target]]
        lost = VALUE[mover] * self.scarce[seat]
        if not (seat ^ self.me) & 1:
            lost *= self.player.caution[mover]
        if result == ATTACKER_WINS:
            return taken
        if result == DEFENDER_WINS:
            return -lost
        return taken - lost
