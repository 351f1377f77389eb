"""One handset flooding its own topics must not make the hub deaf to the others (a security audit: a
guest with one handset's secret, about 63,000 junk inputs a second, and nobody else's input was acked
within a minute; every handset's messages reach the hub on its one connection, in turn).

:class:`FloodGuard` counts each handset's messages before the hub reads them (a token bucket per id:
:data:`RATE` a second kept up, :data:`BURST` at once; an honest handset sends a few a second: inputs,
clock answers, telemetry). Past that the messages are dropped unread, and the first dropped one of a flood
tells the hub to cut the handset off: with broker accounts its account is disabled for :data:`COOL_OFF`
seconds (the broker drops its connection and refuses it meanwhile), so the flood stops at the broker. The
admin page says which handset did it. Pure: the clock is passed in.
"""

from __future__ import annotations

from dataclasses import dataclass

RATE = 50.0
"""Messages a second a handset may keep up: an honest one sends a few (inputs one at a time, each waiting
for its ack; clock answers, 10 a second at most in a buzzer round's burst; telemetry every minute)."""

BURST = 500
"""Messages a handset may send at once: a reconnect's hello, status and input again, and a test's or a
bench's handset sending hundreds of inputs one after another."""

COOL_OFF = 60.0
"""Seconds a flooding handset stays cut off the broker."""

MAX_TRACKED = 4096
"""Handset ids counted at once (without broker accounts anyone may publish under any id)."""


@dataclass
class _Bucket:
    tokens: float
    at: float
    flooding_since: float | None = None


class FloodGuard:
    """Per-handset message budget; :meth:`allow` on every message, on the MQTT thread only."""

    def __init__(self, rate: float = RATE, burst: int = BURST) -> None:
        self.rate, self.burst = rate, float(burst)
        self._buckets: dict[str, _Bucket] = {}
        self.dropped = 0
        self.floods: dict[str, int] = {}  # handset id -> floods it started (for the admin page)

    def allow(self, handset: str, now: float) -> bool | None:
        """True: read the message. False: drop it unread. None: drop it; ``handset`` has just started
        flooding (cut it off)."""
        bucket = self._buckets.get(handset)
        if bucket is None:
            if len(self._buckets) >= MAX_TRACKED:
                self._buckets.clear()
            bucket = self._buckets[handset] = _Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            if bucket.flooding_since is not None and bucket.tokens >= self.burst - 1:
                bucket.flooding_since = None  # quiet long enough to fill its budget again: the flood is over
            return True
        self.dropped += 1
        if bucket.flooding_since is None:
            bucket.flooding_since = now
            self.floods[handset] = self.floods.get(handset, 0) + 1
            return None
        return False

    def warnings(self) -> list[str]:
        """Plain words for the admin page."""
        return [f"Handset {handset} flooded the box with messages ({count} time{'s' if count > 1 else ''}): they "
                f"were dropped unread and it was cut off for a minute. If it is not broken, someone may have its "
                f"secret: remove it and pair it again." for handset, count in sorted(self.floods.items())]
