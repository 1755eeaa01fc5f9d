"""CPU players: belief from the view only, search over sampled worlds, three levels."""

from junqi_core.ai.player import CpuPlayer, EasyPlayer, HardPlayer, MediumPlayer

__all__ = ["CpuPlayer", "EasyPlayer", "HardPlayer", "MediumPlayer"]
