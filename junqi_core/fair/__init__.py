"""Friend play without a referee (docs/fair-play.md).

Two pages connected by a data channel each run a `FairPeer`.  Each holds only its own
truth plus the other side's commitments: layouts are committed with salted hashes, combat
outcomes travel by oblivious transfer, Blind's deal is a two-party shuffle with commutative
encryption, and at the end both open everything and the game is replayed with the normal
engine (`audit`), which names the first rule broken and the action it was broken at.

Standard library only; it never imports `junqi_core.ai`.
"""

from junqi_core.fair.audit import audit
from junqi_core.fair.errors import FairError
from junqi_core.fair.messages import PROTOCOL, MessageError
from junqi_core.fair.peer import ENGINE, FairPeer

__all__ = ["ENGINE", "PROTOCOL", "FairError", "FairPeer", "MessageError", "audit"]
