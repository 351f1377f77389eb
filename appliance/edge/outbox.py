"""The hub's lock and its outbox: what the hub publishes while holding the lock goes out once the outermost
holder lets go, in the order it was queued, so publishing never holds up an input waiting for the lock.

The hub changes state and decides what to publish under the lock (a prompt built from the state, an ack
for an input applied), so the queue's order is the order of the states. Delivering is serialised by a
second lock: the first thread to let go of the hub's lock delivers everything queued so far, including
what other threads queued meanwhile, so a later state's prompt can never overtake an earlier one's.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable

log = logging.getLogger(__name__)

Deliver = Callable[[str, "bytes | str", bool, "int | None"], None]
"""``deliver(topic, payload, retain, qos)``: publish one message (the MQTT client's publish)."""


class Outbox:
    """A re-entrant lock (``with outbox:``, ``acquire``/``release``) that delivers what :meth:`post`
    queued while it was held once its outermost holder releases it."""

    def __init__(self, deliver: Deliver) -> None:
        self._deliver = deliver
        self._lock = threading.RLock()
        self._sending = threading.Lock()
        self._queue: deque[tuple[str, bytes | str, bool, int | None]] = deque()
        self._owner: int | None = None
        self._depth = 0

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if not self._lock.acquire(blocking, timeout):
            return False
        self._depth += 1
        self._owner = threading.get_ident()
        return True

    def release(self) -> None:
        self._depth -= 1
        outermost = self._depth == 0
        if outermost:
            self._owner = None
        self._lock.release()
        if outermost:
            self.flush()

    def __enter__(self) -> Outbox:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def held(self) -> bool:
        """Whether the calling thread holds the lock."""
        return self._owner == threading.get_ident()

    def post(self, topic: str, payload: bytes | str, retain: bool = False, qos: int | None = None) -> None:
        """Queue one message; it is delivered when the lock is let go (at once if it is not held)."""
        self._queue.append((topic, payload, retain, qos))
        if not self.held():
            self.flush()

    def pending(self) -> int:
        """Messages queued and not delivered yet."""
        return len(self._queue)

    def flush(self) -> None:
        """Deliver everything queued, in order (waits for a thread delivering now, which may deliver
        this thread's messages too). A message that fails is logged; the rest still go."""
        with self._sending:
            while self._queue:
                topic, payload, retain, qos = self._queue.popleft()
                try:
                    self._deliver(topic, payload, retain, qos)
                except Exception:
                    log.exception("publishing on %s failed", topic[:120])
