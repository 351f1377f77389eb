"""Helpers for the buzzer's tests and benches: a handset with a clock set apart and a slow network."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from appliance.box.sim import SimHandset
from appliance.edge.clocksync import ClockSync
from appliance.edge.hub import Hub
from appliance.session.session import Session
from firmware import protocol

log = logging.getLogger(__name__)

# The buzzer's wiring now lives in appliance/edge/hub.py (clock topic, pings, a press's age, flow commands),
# appliance/session/session.py (flow_command) and firmware/core/handset.py (answering pings); these names
# stay for the tests and benches that import them.
CommandSession = Session


class SyncedHub(Hub):
    """The hub, optionally with a given ClockSync (tests inspect it)."""

    def __init__(self, box: str, session: Session, *args: Any, clocks: ClockSync | None = None,
                 **kwargs: Any) -> None:
        super().__init__(box, session, *args, **kwargs)
        if clocks is not None:
            self.clocks = clocks


def answer_pings(sim: SimHandset, offset_ms: int = 0, delay: Callable[[], float] | None = None) -> None:
    """Make ``sim``'s handset core answer clock pings (the firmware's line), with its clock ``offset_ms``
    away from the appliance's and, with ``delay`` (seconds per message), a slower network both ways."""
    core = sim.core
    base = core.clock_ms
    core.clock_ms = lambda: base() + offset_ms
    if delay is not None:
        transport = sim._transport
        send = transport.publish

        def slow_publish(topic: str, payload: bytes, retain: bool = False) -> None:
            _later(delay(), send, topic, payload, retain)

        transport.publish = slow_publish  # type: ignore[method-assign]

    def on_time(obj: dict[str, Any]) -> None:
        def answer() -> None:
            reply = protocol.answer_ping(obj, core.clock_ms())
            if reply is not None:
                core.transport.publish(protocol.clock_topic(core.box, core.id), protocol.encode(reply))

        if delay is None:
            answer()
        else:
            _later(delay(), answer)

    core._topics[protocol.time_topic(core.box, core.id)] = on_time


def _later(seconds: float, fn: Callable[..., None], *args: Any) -> None:
    if seconds <= 0:
        fn(*args)
        return
    timer = threading.Timer(seconds, fn, args=args)
    timer.daemon = True
    timer.start()


def wait_until(predicate: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} not met within {timeout} s")
        time.sleep(0.01)
