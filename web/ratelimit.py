"""A small in-memory rate limit (phone joins): at most ``count`` events per ``window`` seconds per key.

Its own module so that web.services (which holds one) and web.throttle (which reads the services) do not
import each other."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

Clock = Callable[[], float]


class RateLimit:
    """At most ``count`` events per ``window`` seconds for each key (phone joins)."""

    def __init__(self, count: int, window: float, clock: Clock = time.monotonic) -> None:
        self.count = count
        self.window = window
        self.clock = clock
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        now = self.clock()
        with self._lock:
            events = self._events.setdefault(key, deque())
            while events and now - events[0] > self.window:
                events.popleft()
            if len(events) >= self.count:
                return False
            events.append(now)
            if len(self._events) > 10_000:
                self._events = {k: v for k, v in self._events.items() if v}
            return True
