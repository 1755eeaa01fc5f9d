"""Where each Siguo army may start: the 25 non-camp posts of its own area, as in Classic
with one difference by default: a Landmine may stand in the headquarters the flag does
not hold (the `mine_in_hq` rule option forbids it, as Classic does)."""

from __future__ import annotations

from junqi_core import pieces as pc
from junqi_core.deployment import DeploymentRules, PlacementRule
from junqi_core.siguo.board import ARMY_HQS, SIGUO_BOARD


def _rank(player: int, square: int) -> int:
    """A post's rank counted from its owner's back row (every army area reads the same)."""
    return int(SIGUO_BOARD.names[square][2])


def _in_hq(name: str, rel: int) -> bool:
    return rel == 1 and name[1:] in ARMY_HQS


def _flag(kind: int, name: str, rel: int, square: int):
    if kind == pc.FLAG and not _in_hq(name, rel):
        return (
            "flag_not_in_hq",
            f"The Flag must stand in one of your two headquarters ({', '.join(ARMY_HQS)}), "
            f"not on {name}.",
        )
    return None


def _mine(kind: int, name: str, rel: int, square: int):
    if kind == pc.LANDMINE and rel > 2:
        return (
            "mine_not_in_back_ranks",
            f"A Landmine must stand in your back two ranks, not on {name}.",
        )
    return None


def _no_mine_in_hq(kind: int, name: str, rel: int, square: int):
    if kind == pc.LANDMINE and _in_hq(name, rel):
        return ("mine_in_hq", f"A Landmine may not stand in a headquarters ({name}).")
    return None


def _bomb(kind: int, name: str, rel: int, square: int):
    if kind == pc.BOMB and rel == 6:
        return ("bomb_on_front_rank", f"A Bomb may not start on the front rank ({name}).")
    return None


def siguo_deployment(mine_in_hq: bool = True) -> DeploymentRules:
    rules: list[PlacementRule] = [_flag, _mine, _bomb]
    if not mine_in_hq:
        rules.append(_no_mine_in_hq)
    return DeploymentRules(SIGUO_BOARD, pc.JUNQI_KINDS, rules, _rank)


SIGUO_DEPLOYMENT = siguo_deployment()
