"""Sharing a finished game: a compact link payload, and a move list people can read.

The link payload packs a record into bits — rules as option indices, setups as one piece
kind per starting square, a Blind deal as kind and colour per post, every action as a
(from, to) pair of square indices — then deflates it and writes it in base64url, so a
150-ply game fits in a few hundred characters of a URL fragment (which browsers never
send to a server).  A checksum catches links cut short or changed by hand; decoding
replays the game, so a link that decodes is a legal game.  The format is in
docs/records.md ("Share links").
"""

from __future__ import annotations

import base64
import hashlib
import zlib
from typing import Any

from junqi_core.game import Game
from junqi_core.pieces import COLOUR_BIT, KIND_MASK, piece
from junqi_core.record import MAX_ACTIONS, RecordError, export_record, import_record
from junqi_core.variants import ENGINE_VARIANTS, OPTIONS, Variant, find_variant

LINK_VERSION = 1
MAX_LINK_CHARS = 20_000
CHECK_BYTES = 4
# The games a link may hold, by index (2 bits): the order is part of the format.
LINK_VARIANTS = tuple(ENGINE_VARIANTS)
ACTION_BITS = 16  # at most (two squares of the largest board)
# what a link may inflate to: the checksum, rules and setups or deal (under 300 bytes),
# and a record's most actions
MAX_PAYLOAD_BYTES = CHECK_BYTES + 1_024 + (ACTION_BITS * MAX_ACTIONS + 7) // 8
META_NAMES = ("offer", "accept", "decline", "resign")


def _meta_codes(seats: int) -> tuple[str, ...]:
    """The actions that are not moves, numbered (with four seats also `pass`)."""
    codes = ("timeout", *(f"{name}:{p}" for name in META_NAMES for p in range(seats)))
    return (*codes, "pass") if seats > 2 else codes


def _square_bits(variant: Variant) -> int:
    """Bits per square: 6 on the two-player boards, 8 on Siguo's 129 posts."""
    return max(1, (variant.board.size - 1).bit_length())


def _choice_bits(option) -> int:
    return max(2, (len(option.choices) - 1).bit_length())


class LinkError(ValueError):
    """A link that does not decode to a game; the message says why."""


class _Bits:
    """Little-endian bit packing (numbers of a few bits each), in time linear in the
    length: whole bytes are written out as they fill, and a number is read from the few
    bytes that hold it (never by shifting the whole payload)."""

    def __init__(self, data: bytes = b"") -> None:
        self.data = bytes(data)
        self.pos = 0
        self.limit = len(data) * 8
        self.out = bytearray()
        self.pending = 0  # bits not yet written out as a whole byte
        self.pending_bits = 0

    def put(self, number: int, bits: int) -> None:
        assert 0 <= number < 1 << bits
        self.pending |= number << self.pending_bits
        self.pending_bits += bits
        whole = self.pending_bits // 8
        if whole:
            self.out += (self.pending & ((1 << 8 * whole) - 1)).to_bytes(whole, "little")
            self.pending >>= 8 * whole
            self.pending_bits -= 8 * whole

    def get(self, bits: int) -> int:
        if self.pos + bits > self.limit:
            raise LinkError("the link is cut short")
        chunk = self.data[self.pos >> 3 : (self.pos + bits + 7) >> 3]
        number = (int.from_bytes(chunk, "little") >> (self.pos & 7)) & ((1 << bits) - 1)
        self.pos += bits
        return number

    def left(self) -> int:
        """Bits not read yet."""
        return self.limit - self.pos

    def to_bytes(self) -> bytes:
        return bytes(self.out) + (self.pending.to_bytes(1, "little") if self.pending_bits else b"")


def _starting_squares(variant: Variant, player: int) -> tuple[int, ...]:
    assert variant.deployment is not None
    return variant.deployment.squares(player)


def _deal_squares(variant: Variant) -> list[int]:
    board = variant.board
    return [s for s in range(board.size) if s not in board.camps]


def encode_link(game: Game) -> str:
    """The link payload of a game (its record; the page gives links to finished games)."""
    variant = game.variant
    bits = _Bits()
    bits.put(LINK_VERSION, 4)
    bits.put(LINK_VARIANTS.index(variant.id), 2)
    for option in OPTIONS[variant.id]:
        bits.put(option.choices.index(variant.options[option.id]), _choice_bits(option))
    if variant.deployment is None:
        assert game.deal is not None
        for square in _deal_squares(variant):
            p = game.deal[square]
            bits.put(p & KIND_MASK, 5)
            bits.put(1 if p & COLOUR_BIT else 0, 1)
    else:
        for player in range(game.seats):
            layout = game.layouts[player]
            bits.put(layout is not None, 1)
            if layout is not None:
                for square in _starting_squares(variant, player):
                    bits.put(layout[square], 5)
    if game.seats > 2:
        bits.put(game.first, 2)
    actions = game.actions_text()
    bits.put(len(actions), 16)
    width = _square_bits(variant)
    for action in actions:
        frm, to = _action_pair(game, action)
        bits.put(frm, width)
        bits.put(to, width)
    body = bits.to_bytes()
    check = hashlib.sha256(body).digest()[:CHECK_BYTES]
    packed = zlib.compress(check + body, 9)[2:-4]  # raw deflate: no zlib header or trailer
    return base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


def _action_pair(game: Game, action: str) -> tuple[int, int]:
    codes = _meta_codes(game.seats)
    if action in codes:  # "from" a square no board has: the escape to a meta action
        return (1 << _square_bits(game.variant)) - 1, codes.index(action)
    index = game.board_spec.index
    if action.startswith("flip:"):
        square = index[action[5:]]
        return square, square
    frm, _, to = action.partition("-")
    return index[frm], index[to]


def decode_link(text: Any) -> dict:
    """The record a link payload holds (replayed and checked), or LinkError saying why."""
    if not isinstance(text, str) or not text or len(text) > MAX_LINK_CHARS:
        raise LinkError("a link payload is a short text")
    try:
        packed = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
        inflate = zlib.decompressobj(-15)
        raw = inflate.decompress(packed, MAX_PAYLOAD_BYTES)
    except (ValueError, zlib.error):
        raise LinkError("the link is damaged: it does not decode") from None
    if inflate.unconsumed_tail:
        raise LinkError("the link holds more than a game")
    if not inflate.eof or inflate.unused_data:
        raise LinkError("the link is damaged: it is cut short or has extra characters")
    check, body = raw[:CHECK_BYTES], raw[CHECK_BYTES:]
    if len(check) < CHECK_BYTES or hashlib.sha256(body).digest()[:CHECK_BYTES] != check:
        raise LinkError("the link is damaged: its checksum does not match")
    bits = _Bits(body)
    if bits.get(4) != LINK_VERSION:
        raise LinkError("the link was made by another version of the game")
    variant_index = bits.get(2)
    if variant_index >= len(LINK_VARIANTS):
        raise LinkError("the link names an unknown game")
    variant_id = LINK_VARIANTS[variant_index]
    options = {}
    for option in OPTIONS[variant_id]:
        choice = bits.get(_choice_bits(option))
        if choice >= len(option.choices):
            raise LinkError("the link names an unknown rule option")
        options[option.id] = option.choices[choice]
    variant = find_variant(variant_id, None, options)
    blank = Game(variant, seed=0)
    record = export_record(blank)
    names = variant.board.names
    letters = {k.kind: k.letter for k in variant.kinds}
    if variant.deployment is None:
        deal = [0] * variant.board.size
        for square in _deal_squares(variant):
            kind, colour = bits.get(5), bits.get(1)
            if kind not in letters:
                raise LinkError("the link's deal holds an unknown piece")
            deal[square] = piece(kind, colour, face_down=True)
        record["deal"] = "".join(
            letters[p & KIND_MASK].lower() if p & COLOUR_BIT else letters[p & KIND_MASK]
            for p in (deal[s] for s in _deal_squares(variant))
        )
    else:
        setups: list[dict | None] = []
        for player in range(blank.seats):
            if not bits.get(1):
                setups.append(None)
                continue
            setup = {}
            for square in _starting_squares(variant, player):
                kind = bits.get(5)
                if kind not in letters:
                    raise LinkError("the link's setup holds an unknown piece")
                setup[names[square]] = letters[kind]
            setups.append(setup)
        record["setups"] = setups
    if blank.seats > 2:
        record["first"] = bits.get(2)
    count = bits.get(16)
    # the claimed count is checked before any action is read: a short link that claims
    # 65,535 actions costs nothing
    width = _square_bits(variant)
    if count > MAX_ACTIONS:
        raise LinkError(f"the link claims {count} actions; a record holds at most {MAX_ACTIONS}")
    if count * 2 * width > bits.left():
        raise LinkError("the link is cut short: it holds fewer actions than it claims")
    actions = []
    escape, codes = (1 << width) - 1, _meta_codes(blank.seats)
    for _ in range(count):
        frm, to = bits.get(width), bits.get(width)
        if frm == escape:
            if to >= len(codes):
                raise LinkError("the link holds an unknown action")
            actions.append(codes[to])
        elif frm >= len(names) or to >= len(names):
            raise LinkError("the link names a square the board does not have")
        else:
            actions.append(f"flip:{names[frm]}" if frm == to else f"{names[frm]}-{names[to]}")
    if bits.left() >= 8:
        raise LinkError("the link is damaged: it holds more than its game")
    record["actions"] = actions
    try:
        game = import_record(record, check_result=False)
    except RecordError as error:
        raise LinkError(f"the link's game is not legal: {error}") from None
    record["result"] = (
        None
        if game.result is None
        else {"winner": game.result.winner, "reason": game.result.reason}
    )
    return record


# --- a move list people can read -------------------------------------------------------------

OUTCOME_WORDS = {1: "wins", 2: "loses", 3: "both removed"}


def record_text(game: Game) -> str:
    """The game as plain text: rules, setups and numbered moves with what each combat was
    (for a finished game, where everything may be shown)."""
    variant = game.variant
    names = variant.board.names
    kind_name = {k.kind: k.name for k in variant.kinds}
    sides = variant.side_names
    lines = [f"{variant.name}"]
    preset = variant.preset or "custom"
    changed = [
        f"{o.id}={variant.options[o.id]}"
        for o in OPTIONS[variant.id]
        if variant.options[o.id] != o.default
    ]
    lines.append(f"Rules: {preset}" + (f" ({', '.join(changed)})" if changed else ""))
    if game.result is not None:
        winner = game.result.winner
        if winner is None:
            who = "draw"
        elif game.seats > 2:  # the winner is a team: the seats winner and winner + 2
            who = f"{sides[winner]} and {sides[winner + 2]} win"
        else:
            who = f"{sides[winner]} wins"
        lines.append(f"Result: {who} ({game.result.reason.replace('_', ' ')})")
    if variant.deployment is not None:
        for player, layout in enumerate(game.layouts):
            if layout is None:
                lines.append(f"{sides[player]} setup: (not deployed)")
                continue
            placed = ", ".join(f"{names[s]} {kind_name[k]}" for s, k in sorted(layout.items()))
            lines.append(f"{sides[player]} setup: {placed}")
    lines.append("")
    for number, entry in enumerate(game.history, 1):
        side = sides[entry.player]
        text = entry.action
        if entry.frm is not None and entry.frm == entry.to:
            text = f"turns over {names[entry.frm]}: {kind_name[entry.extra['flipped'] & 31]}"
        elif entry.frm is not None:
            text = f"{names[entry.frm]}-{names[entry.to]} {kind_name[entry.mover & 31]}"
            if entry.result:
                text += f" attacks {kind_name[entry.target & 31]}: {OUTCOME_WORDS[entry.result]}"
        else:
            text = entry.action.split(":")[0].replace("timeout", "runs out of time")
            text = {"pass": "passes", "resign": "resigns" if game.seats == 2 else "surrenders"}.get(
                text, text
            )
        for seat, reason in entry.extra.get("out", ()):
            text += f"; {sides[seat]} is out ({reason.replace('_', ' ')})"
        lines.append(f"{number:>3}. {side}: {text}")
    return "\n".join(lines) + "\n"
