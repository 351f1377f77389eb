"""Throttles kept in memory (one web process): login attempts and phone joins.

Login: after ``free`` failed attempts from one address, each further attempt from it waits a lockout that
doubles (30 s, 1 min, 2 min... at most 15 min); a success clears the address. Failures from all
addresses together are capped too (``global_per_minute``), so many addresses cannot guess faster.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

Clock = Callable[[], float]


class LoginThrottle:
    def __init__(
        self,
        free: int = 5,
        first_lock: float = 30.0,
        max_lock: float = 900.0,
        global_per_minute: int = 30,
        clock: Clock = time.monotonic,
    ) -> None:
        self.free = free
        self.first_lock = first_lock
        self.max_lock = max_lock
        self.global_per_minute = global_per_minute
        self.clock = clock
        self._failures: dict[str, int] = {}
        self._locked_until: dict[str, float] = {}
        self._recent: deque[float] = deque()
        self._lock = threading.Lock()

    def wait(self, address: str) -> float:
        """Seconds ``address`` must wait before its next attempt (0: it may try now)."""
        now = self.clock()
        with self._lock:
            while self._recent and now - self._recent[0] > 60:
                self._recent.popleft()
            waits = [self._locked_until.get(address, 0.0) - now]
            if len(self._recent) >= self.global_per_minute:
                waits.append(60 - (now - self._recent[0]))
            return max(0.0, *waits)

    def failure(self, address: str) -> None:
        now = self.clock()
        with self._lock:
            self._recent.append(now)
            count = self._failures.get(address, 0) + 1
            self._failures[address] = count
            if count >= self.free:
                lock = min(self.max_lock, self.first_lock * 2 ** (count - self.free))
                self._locked_until[address] = now + lock
            if len(self._failures) > 10_000:  # a flood of addresses must not grow memory without bound
                self._failures.clear()

    def success(self, address: str) -> None:
        with self._lock:
            self._failures.pop(address, None)
            self._locked_until.pop(address, None)


class RateLimit:
    """At most ``count`` events per ``window`` seconds for each key."""

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
