"""The appliance's heartbeat: a retained ``appliance/heartbeat`` with the box's wall clock, every
:data:`~firmware.protocol.HEARTBEAT_MS`, sent only while the hub's clock thread runs and its lock is free.

A retained ``online`` word alone can lie: a broker that crashes restores the word it saved, for a box
that died meanwhile and will never send its last will. A heartbeat carries a time, so whoever reads it
(the admin page, ``quizbox doctor``, a handset) can tell a live box from a stale word: no heartbeat
newer than :data:`~firmware.protocol.STALE_MS` means "the box is not answering". The ``boot`` field
changes on every start: a handset that sees a new one says hello again, with the last input the box
acked, so that a power cut's losses are found (appliance/box/recovery.py).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from appliance.infra import wallclock
from firmware import protocol

log = logging.getLogger(__name__)


class Pulse:
    def __init__(self, hub: Any, every_ms: int = protocol.HEARTBEAT_MS,
                 wall: Callable[[], float] = wallclock.now) -> None:
        self.hub = hub
        self.every_ms = every_ms
        self.wall = wall
        self.beats = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)

    def start(self) -> Pulse:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def beat(self) -> bool:
        """One heartbeat, if the hub is alive and not stuck; True when sent."""
        hub, every = self.hub, self.every_ms / 1000
        if not hub.alive() or not hub.outbox.acquire(timeout=every):
            return False
        hub.outbox.release()
        payload = protocol.make_heartbeat(round(self.wall() * 1000), hub.boot, self.every_ms)
        hub.client.publish(protocol.appliance_heartbeat_topic(hub.box), protocol.encode(payload),
                           retain=True, qos=0)
        self.beats += 1
        return True

    def _run(self) -> None:
        while True:
            try:
                self.beat()
            except Exception:
                log.exception("heartbeat failed")
            if self._stop.wait(self.every_ms / 1000):
                return
