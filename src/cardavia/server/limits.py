"""What one client may ask of the server (docs/protocol.md, "Limits"): no client, however it
behaves, may slow the other tables down or grow the server without bound.

>>> bucket = TokenBucket(rate=1.0, burst=2.0)
>>> bucket.allow(), bucket.allow(), bucket.allow()
(True, True, False)
"""

from __future__ import annotations

import time
from dataclasses import dataclass


class TokenBucket:
    """``burst`` at once, ``rate`` per second on average."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def refund(self) -> None:
        self.tokens = min(self.burst, self.tokens + 1.0)

    def wait_seconds(self) -> float:
        """How long until :meth:`allow` would succeed."""
        return max(0.0, (1.0 - self.tokens) / self.rate) if self.rate > 0 else float("inf")


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's caps; the defaults are far above what a person playing does."""

    #: Frames per connection: ``burst`` at once, refilling ``rate`` a second. Game actions
    #: that were accepted are given back (the game paces them: a seat acts in turn), except
    #: restarts, which are always accepted.
    frame_rate: float = 10.0
    frame_burst: float = 30.0
    #: Restarts per seat (all its connections together).
    restart_rate: float = 0.5
    restart_burst: float = 5.0
    #: Restarts a table may have in all: then the player opens a new table. (Each restart
    #: adds two events to the table's log, which is folded whenever the table is loaded.)
    max_restarts: int = 500
    #: Connections holding one seat at once (tabs).
    connections_per_seat: int = 8
    #: Tables one client address may create: ``burst`` at once, ``rate`` a second.
    create_rate: float = 1.0
    create_burst: float = 60.0
    #: Tables with an expert AI seat one client address may hold in memory at once.
    expert_tables_per_client: int = 8
    #: Seconds a frame may wait for a client that does not read before it is closed (1008).
    send_timeout: float = 10.0
    #: Frames queued for a client that does not read before it is closed (1008).
    max_queued: int = 4096
    #: Person actions (at any table) that may go ahead of an AI step waiting for its turn:
    #: the longest an AI step waits for people, in seconds.
    person_first_seconds: float = 0.05
    #: Invite and spectator links one client address may try (tables with friends): a
    #: burst, then ``rate`` a second — guessing codes is hopeless and slow.
    join_rate: float = 0.5
    join_burst: float = 20.0


DEFAULT_LIMITS = Limits()
