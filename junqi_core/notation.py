"""Notation both ways: squares, actions and a one-line position text (docs/notation.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from junqi_core.moves import Move
from junqi_core.pieces import COLOUR_BIT, FACE_DOWN, KIND_MASK, PieceKind, piece, seat_of
from junqi_core.rules import Position
from junqi_core.text import quote
from junqi_core.topology import Board
from junqi_core.variants import BUILDERS, OPTIONS, RulesError, Variant, find_variant


class NotationError(ValueError):
    """Text that does not parse as notation."""


def parse_square(board: Board, name: str) -> int:
    if not isinstance(name, str) or name not in board.index:
        raise NotationError(f"no square {quote(name)} on the {board.id} board")
    return board.index[name]


def move_text(board: Board, move: Move) -> str:
    """'c3-c4' for a move or attack, 'flip:c4' for a flip, 'pass' for a lost turn."""
    code = board.move_code
    if move == code.PASS:
        return "pass"
    frm, to = code.split(move)
    if frm == to:
        return f"flip:{board.names[frm]}"
    return f"{board.names[frm]}-{board.names[to]}"


def parse_move(board: Board, text: str) -> Move:
    if not isinstance(text, str):
        raise NotationError("a move is a string like 'c3-c4' or 'flip:c4'")
    code = board.move_code
    if text == "pass":
        return code.PASS
    if text.startswith("flip:"):
        return code.flip(parse_square(board, text[5:]))
    frm, sep, to = text.partition("-")
    if not sep:
        raise NotationError(f"bad move {quote(text)}: expected 'from-to' such as 'c3-c4'")
    a, b = parse_square(board, frm), parse_square(board, to)
    if a == b:
        raise NotationError(f"bad move {quote(text)}: from and to are the same square")
    return code.move(a, b)


# --- position text ---------------------------------------------------------------------
#
# "<variant> <ranks> <side> <quiet> <ply> <colours> [<rules>]", ranks from the top
# (highest rank) down, separated by '/'.  A piece is its letter, upper case for colour 0
# (Red, Gunjin's player 1), lower case for colour 1; '?' before it marks it face down
# (Blind); a digit counts empty posts.  Classic stations form their own row between ranks 7 and 6.
# <colours> is the colour player 0 plays: 'r', 'b', or '-' (Blind, before the first flip).
# <rules>, only when some rule option differs from the standard rules: the options that
# differ, as 'option=value' joined by ',' (e.g. 'flag_shown=true,stations=false').


def rules_text(variant: Variant) -> str:
    """The options of `variant` that differ from the defaults ('' for standard rules)."""
    parts = []
    for option in OPTIONS[variant.id]:
        value = variant.options[option.id]
        if value != option.default:
            parts.append(f"{option.id}={str(value).lower() if isinstance(value, bool) else value}")
    return ",".join(parts)


def parse_rules(variant_id: str, text: str) -> Variant:
    """Inverse of `rules_text`; raises NotationError."""
    options: dict[str, Any] = {}
    known = {o.id: o for o in OPTIONS.get(variant_id, ())}
    for part in text.split(",") if text else []:
        key, sep, raw = part.partition("=")
        option = known.get(key)
        if not sep or option is None:
            raise NotationError(f"bad rule option {part!r}")
        value = next((c for c in option.choices if _choice_text(c) == raw), None)
        if value is None:
            raise NotationError(f"bad value {raw!r} for rule option {key!r}")
        options[key] = value
    try:
        return find_variant(variant_id, None, options)
    except RulesError as error:
        raise NotationError(str(error)) from None


def _choice_text(choice: Any) -> str:
    return str(choice).lower() if isinstance(choice, bool) else str(choice)


def _rows(board: Board) -> list[list[int]]:
    """Posts grouped by drawing row, top row first, left to right."""
    rows: dict[float, list[int]] = {}
    for square, (_x, y) in enumerate(board.coords):
        rows.setdefault(y, []).append(square)
    return [sorted(rows[y], key=lambda s: board.coords[s][0]) for y in sorted(rows, reverse=True)]


def _letters(kinds: tuple[PieceKind, ...]) -> dict[str, int]:
    return {k.letter: k.kind for k in kinds}


def _run_text(cells: list[int], squares: list[int], written: Callable[[int], str]) -> str:
    """Posts in order as text: each piece `written`, each run of empty posts a number."""
    out, empty = [], 0
    for square in squares:
        p = cells[square]
        if not p:
            empty += 1
            continue
        if empty:
            out.append(str(empty))
            empty = 0
        out.append(written(p))
    if empty:
        out.append(str(empty))
    return "".join(out)


def position_text(position: Position) -> str:
    if position.seats > 2:
        return _seats_text(position)
    board = position.spec
    letter = {k.kind: k.letter for k in position.kinds}

    def written(p: int) -> str:
        ch = letter[p & KIND_MASK]
        return ("?" if p & FACE_DOWN else "") + (ch.lower() if p & COLOUR_BIT else ch)

    rows = [_run_text(position.board, row, written) for row in _rows(board)]
    colours = "-" if position.swap < 0 else "rb"[position.swap]
    fields = [
        position.variant_id,
        "/".join(rows),
        str(position.turn),
        str(position.quiet),
        str(position.ply),
        colours,
    ]
    rules = rules_text(position.variant)  # type: ignore[arg-type]
    if rules:
        fields.append(rules)
    return " ".join(fields)


def parse_position(text: str) -> Position:
    """Inverse of position_text; raises NotationError saying what is wrong."""
    if not isinstance(text, str):
        raise NotationError("a position is a string")
    fields = text.split()
    if len(fields) not in (6, 7):
        raise NotationError(
            "a position has 6 fields (variant ranks side quiet ply colours) and maybe rules"
        )
    if fields and fields[0] in BUILDERS and find_variant(fields[0]).seats > 2:
        return _parse_seats_text(fields)
    variant, ranks, side, quiet, ply, colours = fields[:6]
    rules = parse_rules(variant, fields[6] if len(fields) == 7 else "")
    cls = rules.position_class
    board = cls.spec
    letters = _letters(cls.kinds)
    rows = _rows(board)
    texts = ranks.split("/")
    if len(texts) != len(rows):
        raise NotationError(f"a {variant} position has {len(rows)} rows, not {len(texts)}")
    cells = [0] * board.size
    for row_index, (row, row_text) in enumerate(zip(rows, texts, strict=True)):
        column, i, hidden = 0, 0, False
        while i < len(row_text):
            ch = row_text[i]
            if ch.isdigit():
                j = i
                while j < len(row_text) and row_text[j].isdigit():
                    j += 1
                column += int(row_text[i:j])
                i = j
                continue
            if ch == "?":
                if not rules.has_flips:
                    raise NotationError("only blind positions have face-down pieces")
                hidden = True
                i += 1
                continue
            kind = letters.get(ch.upper())
            if kind is None:
                raise NotationError(f"unknown piece letter {ch!r} in row {row_index + 1}")
            if column >= len(row):
                raise NotationError(f"row {row_index + 1} is too long")
            cells[row[column]] = piece(kind, 1 if ch.islower() else 0, hidden)
            column += 1
            hidden = False
            i += 1
        if column != len(row) or hidden:
            raise NotationError(f"row {row_index + 1} must cover {len(row)} posts")
    if side not in ("0", "1"):
        raise NotationError("side to move is 0 or 1")
    if not (quiet.isdigit() and ply.isdigit()):
        raise NotationError("quiet and ply counters are whole numbers")
    if colours not in ("r", "b", "-"):
        raise NotationError("colours: 'r' or 'b' (the colour of player 0), or '-' in blind")
    swap = -1 if colours == "-" else "rb".index(colours)
    if not rules.has_flips and swap != 0:
        raise NotationError("in classic and gunjin player 0 plays colour 0 ('r')")
    return cls(cells, turn=int(side), ply=int(ply), quiet=int(quiet), swap=swap)


# --- four seats (Siguo) -------------------------------------------------------------------
#
# "<variant> <posts> <turn> <quiet> <ply> <out> <skips> [<rules>]": <posts> lists each
# seat's area (ranks 1 to 6, files a to e) and then the centre (C11 .. C33), in the board's
# order, '/' between areas; a piece is its owner's seat letter in lower case and the
# piece's letter ('sM': South's Field Marshal); a digit counts empty posts.  <turn> is a
# seat letter, <out> the seats out ('-': none), <skips> each seat's skips ('0,2,0,0').

SEAT_LETTERS = "SENW"


def _area_slices(position: Position) -> list[list[int]]:
    board = position.spec
    areas = [list(home) for home in board.home]
    return [*areas, list(board.stations)]


def _seats_text(position: Position) -> str:
    letter = {k.kind: k.letter for k in position.kinds}

    def written(p: int) -> str:
        return SEAT_LETTERS[seat_of(p)].lower() + letter[p & KIND_MASK]

    areas = [_run_text(position.board, area, written) for area in _area_slices(position)]
    out_seats = "".join(SEAT_LETTERS[s] for s in range(position.seats) if position.is_out(s))  # type: ignore[attr-defined]
    fields = [
        position.variant_id,
        "/".join(areas),
        SEAT_LETTERS[position.turn],
        str(position.quiet),
        str(position.ply),
        out_seats or "-",
        ",".join(str(n) for n in position.skips),  # type: ignore[attr-defined]
    ]
    rules = rules_text(position.variant)  # type: ignore[arg-type]
    if rules:
        fields.append(rules)
    return " ".join(fields)


def _parse_seats_text(fields: list[str]) -> Position:
    if len(fields) not in (7, 8):
        raise NotationError(
            "a four-seat position has 7 fields (variant posts turn quiet ply out skips) "
            "and maybe rules"
        )
    variant, posts, turn, quiet, ply, out, skips = fields[:7]
    rules = parse_rules(variant, fields[7] if len(fields) == 8 else "")
    cls = rules.position_class
    letters = _letters(cls.kinds)
    seats = cls.seats
    probe = cls()
    areas = _area_slices(probe)
    texts = posts.split("/")
    if len(texts) != len(areas):
        raise NotationError(f"a {variant} position has {len(areas)} areas, not {len(texts)}")
    cells = [0] * cls.spec.size
    for number, (area, text) in enumerate(zip(areas, texts, strict=True), 1):
        column, i = 0, 0
        while i < len(text):
            if text[i].isdigit():
                j = i
                while j < len(text) and text[j].isdigit():
                    j += 1
                column += int(text[i:j])
                i = j
                continue
            owner, kind = text[i].upper(), letters.get(text[i + 1 : i + 2])
            if owner not in SEAT_LETTERS[:seats] or not text[i].islower() or kind is None:
                raise NotationError(f"bad piece {text[i : i + 2]!r} in area {number}")
            if column >= len(area):
                raise NotationError(f"area {number} is too long")
            cells[area[column]] = probe.piece_of(kind, SEAT_LETTERS.index(owner))
            column += 1
            i += 2
        if column != len(area):
            raise NotationError(f"area {number} must cover {len(area)} posts")
    if turn not in SEAT_LETTERS[:seats]:
        raise NotationError(f"the seat to move is one of {SEAT_LETTERS[:seats]}")
    if not (quiet.isdigit() and ply.isdigit()):
        raise NotationError("quiet and ply counters are whole numbers")
    gone = "" if out == "-" else out
    if not set(gone) <= set(SEAT_LETTERS[:seats]) or len(set(gone)) != len(gone):
        raise NotationError("out: the letters of the seats out, or '-'")
    counts = skips.split(",")
    if len(counts) != seats or not all(c.isdigit() for c in counts):
        raise NotationError(f"skips: {seats} whole numbers joined by ','")
    out_mask = sum(1 << SEAT_LETTERS.index(s) for s in gone)
    return cls(  # type: ignore[call-arg]
        cells,
        turn=SEAT_LETTERS.index(turn),
        ply=int(ply),
        quiet=int(quiet),
        out=out_mask,
        skips=[int(c) for c in counts],
    )
