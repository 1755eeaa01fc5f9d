"""Siguo as a variant: its rule options, presets and the facts its `Variant` states.

`variants` registers `build` beside the other games' builders; the defaults are the
rules docs/rules.md gives for Siguo (QQ's, where sources differ), so a plain
`find_variant("siguo")` plays them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from junqi_core import pieces as pc
from junqi_core.options import Preset, RuleOption
from junqi_core.rules import derive_position_class
from junqi_core.siguo.board import SEATS
from junqi_core.siguo.deployment import SIGUO_DEPLOYMENT, siguo_deployment
from junqi_core.siguo.rules import SiguoPosition

VISIBILITY = ("dark4", "team_open", "open")

OPTIONS = (
    RuleOption(
        "visibility",
        "What each player sees",
        "Only one's own ranks; also the partner's; or every rank on the board.",
        VISIBILITY,
        "dark4",
        ("Own pieces only", "Partners' pieces too", "Everything"),
    ),
    RuleOption(
        "turn_direction",
        "Turn order",
        "South, East, North, West (each player's turn passes to the right), or the other way.",
        ("ccw", "cw"),
        "ccw",
        ("To the right", "To the left"),
    ),
    RuleOption(
        "first_player",
        "Who moves first",
        "Drawn at random for each game, or always the same seat.",
        ("random", *SEATS),
        "random",
        ("At random", "South", "East", "North", "West"),
    ),
    RuleOption(
        "flag_shown",
        "Flag shown when the Field Marshal falls",
        "Once a player's Field Marshal is removed, that player's flag is shown to all.",
        (False, True),
        True,
    ),
    RuleOption(
        "pass_allowed",
        "Passing allowed",
        "A player may pass a turn; a pass counts as a skipped turn, like a time-out.",
        (False, True),
        True,
    ),
    RuleOption(
        "skip_limit",
        "Out after this many skipped turns",
        "A player's turns lost to the clock or passed, counted over the game.",
        (5, 3),
        5,
        ("5 skips", "3 skips"),
    ),
    RuleOption(
        "quiet_limit",
        "Draw without a removal after",
        "The game is drawn after this many plies in a row, all players counted, with no "
        "piece removed.",
        (200, 100, 70, 300),
        200,
        ("200 plies", "100 plies", "70 plies", "300 plies"),
    ),
    RuleOption(
        "mine_stays",
        "A Landmine stays when it is hit",
        "A Landmine removes an attacker other than an Engineer and stays; off, both go.",
        (False, True),
        True,
    ),
    RuleOption(
        "mine_in_hq",
        "A Landmine may stand in a headquarters",
        "A Landmine may start in the headquarters the flag does not hold.",
        (False, True),
        True,
    ),
)

PRESETS = (
    Preset(
        "standard",
        "Standard",
        "Each player sees only their own ranks; turns pass to the right; the first player "
        "is drawn; a Landmine stays when hit.",
        {},
    ),
    Preset(
        "partners",
        "Partners shown",
        "Each player also sees the partner's ranks (双明).",
        {"visibility": "team_open"},
    ),
    Preset(
        "open",
        "Open board",
        "Every rank is shown to every player: a game to learn the board by.",
        {"visibility": "open"},
    ),
)


def build(options: Mapping[str, Any]) -> dict:
    """The Variant's fields for these options (every option present, checked)."""
    rules: dict[str, Any] = {}
    if options["turn_direction"] == "cw":
        rules["turn_step"] = 3
    if options["skip_limit"] != SiguoPosition.skip_limit:
        rules["skip_limit"] = options["skip_limit"]
    if options["quiet_limit"] != SiguoPosition.quiet_limit:
        rules["quiet_limit"] = options["quiet_limit"]
    if not options["mine_stays"]:
        rules["combat"] = pc.CLASSIC_COMBAT
    position_class: type[SiguoPosition] = SiguoPosition
    if any(options[o.id] != o.default for o in OPTIONS):
        suffix = "_".join(f"{k}-{v}" for k, v in sorted(options.items()))
        position_class = derive_position_class(SiguoPosition, f"SiguoPosition[{suffix}]", **rules)  # type: ignore[assignment]
    first = options["first_player"]
    return {
        "name": "Siguo",
        "side_names": ("South", "East", "North", "West"),
        "colours": ("red", "blue", "orange", "teal"),
        "sides_are_colours": False,
        "position_class": position_class,
        "deployment": SIGUO_DEPLOYMENT if options["mine_in_hq"] else siguo_deployment(False),
        "draw_offers": True,
        "hq_frozen": True,
        "public_face_up": False,
        "flag_shown_on_marshal": options["flag_shown"],
        "guarded_flag": False,
        "max_timeouts": options["skip_limit"],
        "seats": len(SEATS),
        "visibility": options["visibility"],
        "pass_allowed": options["pass_allowed"],
        "first_player": None if first == "random" else SEATS.index(first),
    }
