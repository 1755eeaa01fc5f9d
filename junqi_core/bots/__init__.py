"""Gauntlet bots: independent sparring partners for measuring the CPU levels.

Each bot has a style of its own and shares no code with the levels (`junqi_core.ai`,
which this package never imports).  A bot speaks the Player protocol of
`junqi_core.players`, reads only its own view, and replays from its seed.
`players.make_player` makes them by name (`BOTS`); the page's level list (`LEVELS`)
does not include them.
"""

from __future__ import annotations

from junqi_core.bots.greedy import GreedyBot
from junqi_core.bots.heuristic import HeuristicBot
from junqi_core.bots.reply import ReplyBot
from junqi_core.bots.rusher import RusherBot
from junqi_core.bots.turtle import TurtleBot

BOTS: dict[str, type] = {
    cls.level: cls for cls in (GreedyBot, RusherBot, TurtleBot, HeuristicBot, ReplyBot)
}
