"""Variants: one `Variant` object owns everything a game's rules are.

A Variant holds the board, the pieces, the combat table, the deployment rules, the
position class and every rule flag, for one variant under one set of rule options.
Everything above this module (game, views, notation, records, the bridge, the CPU)
asks the Variant instead of testing a variant's name.

Rule options (docs/rules.md, "Rule options") are data: `find_variant(id, preset,
options)` normalises them and builds (once, then caches) a Variant whose position class
carries the changed tables.  The default options of each variant are exactly the
standard rules, so a plain `find_variant("classic")` plays as before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from junqi_core import pieces as pc
from junqi_core.deployment import (
    CLASSIC_DEPLOYMENT,
    GUNJIN_DEPLOYMENT,
    DeploymentRules,
    classic_deployment,
)
from junqi_core.options import Preset, RuleOption, RulesError
from junqi_core.pieces import OUTCOME_NAMES, PieceKind
from junqi_core.rules import (
    BlindPosition,
    ClassicPosition,
    GuardedFlagBlindPosition,
    GunjinPosition,
    Position,
    derive_position_class,
)
from junqi_core.siguo import variant as siguo
from junqi_core.text import quote
from junqi_core.topology import CLASSIC60_BOARD, CLASSIC60_RAIL_RAYS, Board

MAX_TIMEOUTS = 3  # the third time-out of a player loses the game (every variant)


@dataclass(frozen=True, eq=False)
class Variant:
    """One variant under one set of rule options (built by `find_variant`)."""

    id: str  # "classic", "blind" or "gunjin": data (records, links), never a branch
    name: str
    side_names: tuple[str, str]
    # Each seat's colour as the page draws it (a CSS class, words `colour.<c>`); None when
    # the colours are decided in play (Blind: by the first flip, the view's `colours`).
    colours: tuple[str, str] | None
    sides_are_colours: bool  # the side names already say the colours (Red, Blue)
    position_class: type[Position]
    deployment: DeploymentRules | None  # None: no setup (Blind deals face down)
    options: Mapping[str, Any]  # every option of the variant, with its value
    preset: str | None  # the preset these options equal (None: customised)
    draw_offers: bool
    hq_frozen: bool  # pieces standing in a headquarters never move
    public_face_up: bool  # face-up pieces are known to both players (Blind)
    flag_shown_on_marshal: bool  # a player's flag is shown once their Marshal is gone
    guarded_flag: bool  # Blind: only an Engineer takes the flag, once its mines are gone
    max_timeouts: int = MAX_TIMEOUTS
    seats: int = 2  # players; four (Siguo) play in two teams, partners sitting opposite
    # whose ranks a player sees: "dark4" its own, "team_open" its partner's too, "open" all
    visibility: str = "dark4"
    pass_allowed: bool = False  # a player may pass a turn (counted as a skip, like a time-out)
    first_player: int | None = 0  # the seat that moves first (None: drawn for each game)

    @property
    def board(self) -> Board:
        return self.position_class.spec

    @property
    def kinds(self) -> tuple[PieceKind, ...]:
        return self.position_class.kinds

    @property
    def combat(self) -> tuple[tuple[int, ...], ...]:
        return self.position_class.combat

    @property
    def flag_kind(self) -> int:
        return self.position_class.flag_kind

    @property
    def flag_behind(self) -> bool:
        """Gunjin: the flag fights with the strength of the piece behind it."""
        return self.position_class.flag_behind

    @property
    def flag_capture_ends(self) -> bool:
        """Taking the flag wins (Junqi); in Gunjin it does not."""
        return self.position_class.flag_capture_ends

    @property
    def flag_in_hq(self) -> bool:
        """The flag starts in a headquarters (Classic)."""
        return self.position_class.flag_in_hq

    @property
    def occupiers(self) -> frozenset[int]:
        """The kinds that win by entering the enemy HQ (Gunjin; empty elsewhere)."""
        return self.position_class.occupiers

    @property
    def engineer_kind(self) -> int:
        return self.position_class.engineer_kind

    @property
    def mine_kind(self) -> int:
        return self.position_class.mine_kind

    @property
    def piece_family(self) -> str:
        """Which set of pieces it plays ("junqi" or "gunjin"): what the pieces are called."""
        return self.position_class.piece_family

    @property
    def top_kinds(self) -> tuple[int, ...]:
        """The strongest pieces (Field Marshal and General; Gunjin's Army General)."""
        return self.position_class.top_kinds

    @property
    def has_setup(self) -> bool:
        return self.deployment is not None

    @property
    def has_flips(self) -> bool:
        return self.deployment is None

    @property
    def quiet_limit(self) -> int:
        return self.position_class.quiet_limit

    @property
    def is_default(self) -> bool:
        return self is find_variant(self.id)

    def rules_json(self) -> dict:
        """What a record or a view stores about the rules: enough to rebuild them."""
        return {"variant": self.id, "preset": self.preset, "options": dict(self.options)}

    def __repr__(self) -> str:
        return f"<Variant {self.id} {self.preset or dict(self.options)}>"


# --- options and presets per variant --------------------------------------------------------

QUIET_NAMES = {100: "100 plies", 80: "80 plies", 70: "70 plies", 60: "60 plies"}

CLASSIC_OPTIONS = (
    RuleOption(
        "flag_shown",
        "Flag shown when the Field Marshal falls",
        "Once a player's Field Marshal is removed, that player's flag is shown to both.",
        (False, True),
        False,
    ),
    RuleOption(
        "stations",
        "Front stations",
        "Three stations on the front line where pieces may stop; without them the board "
        "has 60 posts and files a, c and e cross the front directly.",
        (False, True),
        True,
    ),
    RuleOption(
        "hq_frozen",
        "Headquarters pieces stay",
        "A piece in a headquarters never moves; off, it moves like any other.",
        (False, True),
        True,
    ),
    RuleOption(
        "quiet_limit",
        "Draw without combat after",
        "The game is drawn after this many plies in a row with no combat.",
        (100, 70, 60),
        100,
        tuple(QUIET_NAMES[n] for n in (100, 70, 60)),
    ),
    RuleOption(
        "front_bombs",
        "Bombs on the front rank",
        "Bombs may start on the front rank.",
        (False, True),
        False,
    ),
)

BLIND_OPTIONS = (
    RuleOption(
        "quiet_limit",
        "Draw without flips or attacks after",
        "The game is drawn after this many plies in a row with neither a flip nor an attack.",
        (80, 100),
        80,
        tuple(QUIET_NAMES[n] for n in (80, 100)),
    ),
    RuleOption(
        "hq_frozen",
        "Headquarters pieces stay",
        "A piece in a headquarters never moves; off (the default), it may leave.",
        (False, True),
        False,
    ),
    RuleOption(
        "flag_capture",
        "Who takes the flag",
        "Any piece may take a face-up flag, or only an Engineer once all three Landmines "
        "of the flag's colour are gone.",
        ("any", "engineer_after_mines"),
        "any",
        ("Any piece", "An Engineer, after the mines"),
    ),
)

GUNJIN_OPTIONS = (
    RuleOption(
        "tank_vs_mine",
        "Tank against a Mine",
        "Whether a Tank that attacks a Mine is removed with it or clears it and moves in.",
        ("both_removed", "tank_wins"),
        "both_removed",
        ("Both removed", "The Tank clears it"),
    ),
    RuleOption(
        "plane_clears_mines",
        "Planes clear Mines",
        "A Plane that attacks a Mine clears it and moves in; off, both are removed.",
        (False, True),
        True,
    ),
    RuleOption(
        "engineer_beats_tank",
        "Engineers beat Tanks",
        "An Engineer beats a Tank, attacking or defending.",
        (False, True),
        False,
    ),
    RuleOption(
        "spy_wins_defending",
        "The Spy also wins defending",
        "The Spy beats the Army General when it attacks and when it is attacked; off, "
        "only when it attacks.",
        (False, True),
        True,
    ),
    RuleOption(
        "occupiers",
        "Who wins by entering the enemy HQ",
        "Generals and field officers (Major and up), or every officer down to Second Lieutenant.",
        ("field_officers", "all_officers"),
        "field_officers",
        ("Major and up", "Every officer"),
    ),
    RuleOption(
        "flag_behind",
        "The flag fights with the piece behind it",
        "The flag defends with the strength of its own piece directly behind it; off, "
        "it loses to every attacker.",
        (False, True),
        True,
    ),
)

OPTIONS: dict[str, tuple[RuleOption, ...]] = {
    "classic": CLASSIC_OPTIONS,
    "blind": BLIND_OPTIONS,
    "gunjin": GUNJIN_OPTIONS,
    "siguo": siguo.OPTIONS,
}

DEFAULT_PRESET = "standard"

PRESETS: dict[str, tuple[Preset, ...]] = {
    "classic": (
        Preset(
            "standard",
            "Standard",
            "Three front stations; HQ pieces stay; flags stay hidden; draw after 100 quiet plies.",
            {},
        ),
        Preset(
            "chinese",
            "Chinese sites",
            "No front stations, and a player's flag is shown once their Field Marshal falls.",
            {"flag_shown": True, "stations": False},
        ),
        Preset(
            "open",
            "Open play",
            "HQ pieces may move, Bombs may start on the front rank, draw after 70 quiet plies.",
            {"hq_frozen": False, "front_bombs": True, "quiet_limit": 70},
        ),
    ),
    "blind": (
        Preset(
            "standard",
            "Standard",
            "Any piece takes a face-up flag; HQ pieces may leave; draw after 80 quiet plies.",
            {},
        ),
        Preset(
            "engineer_flag",
            "Engineer takes the flag",
            "Only an Engineer takes the flag, once its three mines are gone; HQ pieces stay.",
            {"flag_capture": "engineer_after_mines", "hq_frozen": True},
        ),
        Preset(
            "long",
            "Long game",
            "As standard, but the draw comes after 100 quiet plies.",
            {"quiet_limit": 100},
        ),
    ),
    "gunjin": (
        Preset(
            "standard",
            "Standard",
            "Planes and Engineers clear Mines; the flag fights with the piece behind it.",
            {},
        ),
        Preset(
            "tanks",
            "Armoured",
            "Tanks clear Mines, but Engineers beat Tanks.",
            {"tank_vs_mine": "tank_wins", "engineer_beats_tank": True},
        ),
        Preset(
            "simple",
            "Simple",
            "The flag has no strength of its own; the Spy wins only when it attacks; any "
            "officer may occupy the HQ.",
            {"flag_behind": False, "spy_wins_defending": False, "occupiers": "all_officers"},
        ),
    ),
    "siguo": siguo.PRESETS,
}


# --- building a Variant ----------------------------------------------------------------------


def _classic(options: Mapping[str, Any]) -> dict:
    base = ClassicPosition
    rules: dict[str, Any] = {}
    deployment = CLASSIC_DEPLOYMENT
    if not options["stations"]:
        rules.update(spec=CLASSIC60_BOARD, rail_rays=CLASSIC60_RAIL_RAYS)
    board = rules.get("spec", base.spec)
    if not options["hq_frozen"] or "spec" in rules:
        rules["frozen"] = _frozen(board, options["hq_frozen"])
    if options["quiet_limit"] != base.quiet_limit:
        rules["quiet_limit"] = options["quiet_limit"]
    if board is not base.spec or options["front_bombs"]:
        deployment = classic_deployment(board, front_bombs=options["front_bombs"])
    return {
        "name": "Classic Junqi",
        "side_names": ("Red", "Blue"),
        "colours": ("red", "blue"),
        "sides_are_colours": True,
        "position_class": _derive(base, rules, options),
        "deployment": deployment,
        "draw_offers": True,
        "hq_frozen": options["hq_frozen"],
        "public_face_up": False,
        "flag_shown_on_marshal": options["flag_shown"],
        "guarded_flag": False,
    }


def _blind(options: Mapping[str, Any]) -> dict:
    guarded = options["flag_capture"] == "engineer_after_mines"
    base = GuardedFlagBlindPosition if guarded else BlindPosition
    rules: dict[str, Any] = {}
    if options["hq_frozen"]:
        rules["frozen"] = _frozen(base.spec, True)
    if options["quiet_limit"] != base.quiet_limit:
        rules["quiet_limit"] = options["quiet_limit"]
    return {
        "name": "Blind Junqi",
        "side_names": ("First player", "Second player"),
        "colours": None,
        "sides_are_colours": False,
        "position_class": _derive(base, rules, options, always=guarded),
        "deployment": None,
        "draw_offers": False,
        "hq_frozen": options["hq_frozen"],
        "public_face_up": True,
        "flag_shown_on_marshal": False,
        "guarded_flag": guarded,
    }


def _gunjin(options: Mapping[str, Any]) -> dict:
    base = GunjinPosition
    combat = pc.gunjin_table(
        tank_clears_mines=options["tank_vs_mine"] == "tank_wins",
        plane_clears_mines=options["plane_clears_mines"],
        engineer_beats_tank=options["engineer_beats_tank"],
        spy_wins_defending=options["spy_wins_defending"],
    )
    occupiers = (
        pc.GUNJIN_OFFICERS if options["occupiers"] == "all_officers" else pc.GUNJIN_OCCUPIERS
    )
    rules: dict[str, Any] = {}
    if combat != base.combat:
        rules["combat"] = combat
    if occupiers != base.occupiers:
        rules["occupiers"] = occupiers
    if options["flag_behind"] != base.flag_behind:
        rules["flag_behind"] = options["flag_behind"]
    return {
        "name": "Gunjin Shogi",
        "side_names": ("Player 1", "Player 2"),
        "colours": ("p1", "p2"),  # vermilion and natural wood
        "sides_are_colours": False,
        "position_class": _derive(base, rules, options),
        "deployment": GUNJIN_DEPLOYMENT,
        "draw_offers": False,
        "hq_frozen": False,
        "public_face_up": False,
        "flag_shown_on_marshal": False,
        "guarded_flag": False,
    }


def _frozen(board: Board, hq_frozen: bool) -> tuple[bool, ...]:
    """Per square, whether a piece standing there never moves (the HQs, when frozen)."""
    hqs = board.hqs[0] + board.hqs[1] if hq_frozen else ()
    return tuple(s in hqs for s in range(board.size))


def _derive(
    base: type[Position], rules: dict, options: Mapping[str, Any], always: bool = False
) -> type[Position]:
    """The base class itself for its own rules; else a subclass carrying the changes
    (a Variant needs its own class to point back to it, so derive whenever the options
    are not the defaults)."""
    defaults = all(options[o.id] == o.default for o in OPTIONS[base.variant_id])
    if defaults and not rules and not always:
        return base
    suffix = "_".join(f"{k}-{v}" for k, v in sorted(options.items()))
    return derive_position_class(base, f"{base.__name__}[{suffix}]", **rules)


BUILDERS: dict[str, Callable[[Mapping[str, Any]], dict]] = {
    "classic": _classic,
    "blind": _blind,
    "gunjin": _gunjin,
    "siguo": siguo.build,
}
# The games the page and the bridge offer.
VARIANT_IDS = ("classic", "blind", "gunjin", "siguo")


def normalise_options(
    variant_id: str, preset: str | None = None, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Every option of the variant with its value: defaults, then the preset's, then the
    explicit `options` (a preset is where customising starts).  Raises RulesError."""
    if not isinstance(variant_id, str) or variant_id not in BUILDERS:
        raise RulesError(
            "unknown_variant",
            f"unknown variant {quote(variant_id)}; variants: {', '.join(VARIANT_IDS)}",
        )
    known = {o.id: o for o in OPTIONS[variant_id]}
    values = {o.id: o.default for o in OPTIONS[variant_id]}
    if preset is not None:
        presets = {p.id: p for p in PRESETS[variant_id]}
        if not isinstance(preset, str) or preset not in presets:
            raise RulesError(
                "unknown_preset",
                f"{variant_id} has no preset {quote(preset)}; presets: {', '.join(presets)}",
            )
        values.update(presets[preset].options)
    if options is not None:
        if not isinstance(options, Mapping):
            raise RulesError("bad_option", "options must be an object {option: value}")
        for key, value in options.items():
            if key not in known:
                raise RulesError(
                    "bad_option",
                    f"{variant_id} has no option {quote(key)}; options: {', '.join(known)}",
                )
            values[key] = known[key].check(value)
    return values


def find_variant(
    variant_id: str, preset: str | None = None, options: Mapping[str, Any] | None = None
) -> Variant:
    """The Variant for these rules (the same object every time for the same rules)."""
    values = normalise_options(variant_id, preset, options)
    return _build(variant_id, tuple(sorted(values.items())))


def variant_from_rules(rules: Any) -> Variant:
    """The Variant a `rules_json()` dict names (records, saved games); RulesError if not."""
    if not isinstance(rules, Mapping) or not set(rules) <= {"variant", "preset", "options"}:
        raise RulesError("bad_option", "rules are an object {variant, preset, options}")
    variant = find_variant(rules.get("variant"), None, rules.get("options"))
    preset = rules.get("preset")
    if preset is not None and preset != variant.preset:
        raise RulesError(
            "bad_option",
            f"the options given are not those of the preset {quote(preset)}",
        )
    return variant


@functools.cache
def _build(variant_id: str, values: tuple[tuple[str, Any], ...]) -> Variant:
    options = dict(values)
    preset = next(
        (p.id for p in PRESETS[variant_id] if normalise_options(variant_id, p.id) == options),
        None,
    )
    variant = Variant(
        id=variant_id, options=options, preset=preset, **BUILDERS[variant_id](options)
    )
    cls = variant.position_class
    if cls.__dict__.get("variant") is None:
        cls.variant = variant
    return variant


# Every game's standard Variant, built now so that each position class knows its Variant.
ENGINE_VARIANTS: dict[str, Variant] = {v: find_variant(v) for v in BUILDERS}
VARIANTS: dict[str, Variant] = {v: ENGINE_VARIANTS[v] for v in VARIANT_IDS}
# The games of two seats (the two-player CPU's stored priors are theirs).
TWO_SEAT_VARIANTS: dict[str, Variant] = {v: x for v, x in VARIANTS.items() if x.seats == 2}


# --- the page's description ------------------------------------------------------------------


def _square_type(board: Board, square: int) -> str:
    if square in board.camps:
        return "camp"
    if square in board.hqs[0] or square in board.hqs[1]:
        return "hq"
    if square in board.stations:
        return "station"
    return "post"


def describe(variant: Variant | str) -> dict:
    """Everything the page needs to draw the board and explain the pieces and rules of
    one variant under its options (all public)."""
    if isinstance(variant, str):
        variant = find_variant(variant)
    board = variant.board
    names = board.names
    movers = [k for k in variant.kinds if k.movable]
    combat = {
        a.id: {d.id: OUTCOME_NAMES[variant.combat[a.kind][d.kind]] for d in variant.kinds}
        for a in movers
    }
    if variant.flag_behind:
        for row in combat.values():
            row["flag"] = "behind"  # the flag fights with the strength of the piece behind it
    # A piece that cannot move and is no flag (a landmine) stays after it destroys an attacker.
    mine_stays = any(
        variant.combat[a.kind][d.kind] == pc.DEFENDER_WINS
        for a in movers
        for d in variant.kinds
        if not d.movable and d.kind != variant.flag_kind
    )
    return {
        "id": variant.id,
        "name": variant.name,
        "family": variant.piece_family,
        "sides": list(variant.side_names),
        # each seat's team: two seats play each other; four play in two teams of two, the
        # partners sitting opposite (South and North, East and West)
        "teams": [seat % 2 for seat in range(variant.seats)],
        "colours": list(variant.colours) if variant.colours else None,
        "sides_are_colours": variant.sides_are_colours,
        "board": {
            "files": board.files,
            "ranks": board.ranks,
            "squares": [
                {
                    "name": names[s],
                    "x": board.coords[s][0],
                    "y": board.coords[s][1],
                    "type": _square_type(board, s),
                    "half": board.owner_of_square(s),
                    "access": s in board.access,
                    "rail": board.on_rail[s],
                }
                for s in range(board.size)
            ],
            "roads": [[names[a], names[b]] for a, b in board.roads],
            "rails": [[names[a], names[b]] for a, b in board.rails],
            "mountains": [list(m) for m in board.mountains],
            "bridges": [[names[a], names[b]] for a, b in board.bridges],
            "curves": [[names[a], names[b], x, y] for a, b, x, y in board.curves],
            "river": bool(board.bridges),
        },
        "pieces": [
            {
                "id": k.id,
                "name": k.name,
                "letter": k.letter,
                "glyph": k.glyph,
                "count": k.count,
                "rank": k.rank,
                "movable": k.movable,
            }
            for k in variant.kinds
        ],
        "combat": combat,
        "rules": {
            "setup": variant.has_setup,
            "flips": variant.has_flips,
            "draw_offers": variant.draw_offers,
            "hq_frozen": variant.hq_frozen,
            "quiet_limit": variant.quiet_limit,
            "max_timeouts": variant.max_timeouts,
            "flag_shown_on_marshal": variant.flag_shown_on_marshal,
            "flag_behind": variant.flag_behind,
            "mine_stays": mine_stays,
            "guarded_flag": variant.guarded_flag,
            "occupiers": sorted(k.id for k in variant.kinds if k.kind in variant.occupiers),
            "preset": variant.preset,
            "values": dict(variant.options),
        },
        "deployment": variant.has_setup,
        "options": [o.to_json() for o in OPTIONS[variant.id]],
        "presets": [p.to_json() for p in PRESETS[variant.id]],
        "default_preset": DEFAULT_PRESET,
    }
