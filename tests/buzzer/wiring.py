"""The buzzer wired into the hub, the session and the handset core, for tests and benches.

appliance/hub.py, appliance/session/session.py and firmware/core/handset.py are not this issue's files:
the few lines they need (routing the clock topic, periodic pings, a press's age, the quizmaster's buzzer
commands, a handset answering pings) are given to their owners and added here by subclassing and
patching, the same lines in the same places, so the tests and benches exercise the real code paths.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, cast

from appliance.clocksync import ClockSync
from appliance.errors import IllegalAction
from appliance.flows.buzzer import COMMANDS, BuzzerFlow
from appliance.hub import Hub
from appliance.session.flow import FlowFactory, register_flow
from appliance.session.session import RESULTS, Paused, Session
from appliance.sim import SimHandset
from firmware import protocol

# until appliance/session/flow.py lists it in _FLOWS; the cast: every EngineFlow has ``game`` as a
# ClassVar where the GameFlow protocol names an instance variable (mypy tells them apart)
log = logging.getLogger(__name__)

register_flow("buzzer", cast(FlowFactory, BuzzerFlow))


class CommandSession(Session):
    """A Session with ``flow_command`` (the game's own quizmaster commands) and buzz ages."""

    clocks: ClockSync | None = None

    def flow_command(self, name: str, args: Mapping[str, Any]) -> str:
        flow = self._running()
        if self.paused_at is not None:
            raise Paused("the game is paused: resume first")
        command = getattr(flow, "command", None)
        if command is None:
            raise IllegalAction(f"{self.setup.game if self.setup else 'this game'} has no command {name!r}")
        message = str(command(name, args, self.game_time()))
        if flow.finished:
            self.state = RESULTS
        self._persist()
        self._changed()
        return message

    def handle_input(self, handset_id: str, prompt_id: str, kind: str, data: Mapping[str, Any]) -> str:
        # the hub's line, in Hub._input right before session.handle_input (there with the input's clock)
        if kind == protocol.BUZZ and self.clocks is not None:
            data = self.clocks.buzz_data(handset_id, data, None, round(self.clock() * 1000))
        return super().handle_input(handset_id, prompt_id, kind, data)


class SyncedHub(Hub):
    """A Hub that measures handset clocks (ClockSync) and runs the buzzer commands."""

    def __init__(self, box: str, session: CommandSession, *args: Any, clocks: ClockSync | None = None,
                 **kwargs: Any) -> None:
        super().__init__(box, session, *args, **kwargs)
        self.clocks = clocks or ClockSync()
        session.clocks = self.clocks
        self.client.subscriptions.append(protocol.handset_wildcard(box, "clock"))

    def _ms(self) -> int:
        return round(self.clock() * 1000)

    def on_message(self, topic: str, payload: bytes) -> None:
        received = self._ms()  # before waiting for the lock: the reply's arrival time
        try:
            handset_id, leaf = protocol.parse_handset_topic(self.box, topic)
        except protocol.ProtocolError:
            handset_id, leaf = "", ""
        if leaf != "clock":
            super().on_message(topic, payload)
            return
        with self.lock:
            if self.registry.get(handset_id) is None or not self._may_speak(handset_id):
                return
            try:
                reply = protocol.parse_clock(handset_id, protocol.decode(payload))
            except protocol.ProtocolError:
                self.refused += 1
                return
            self.clocks.on_reply(handset_id, reply, received)

    def _hello(self, handset_id: str, payload: bytes) -> None:
        self.clocks.joined(handset_id, self._ms())
        super()._hello(handset_id, payload)

    def _tick_loop(self) -> None:
        while not self._stop.wait(self._tick_interval):
            try:
                with self.lock:
                    online = [h.id for h in self.registry if h.online]
                    for handset_id, ping in self.clocks.due(self._ms(), online):
                        self.client.publish(protocol.time_topic(self.box, handset_id), protocol.encode(ping), qos=0)
                    if self.session.tick():
                        self._publish_changes()
                    else:
                        self._publish_state()
            except Exception:
                log.exception("session tick failed")

    def command(self, command: Mapping[str, Any]) -> dict[str, Any]:
        name = command.get("cmd")
        if name not in COMMANDS:
            return super().command(command)
        with self.lock:
            session = self.session
            assert isinstance(session, CommandSession)
            message = session.flow_command(str(name), command)
            self._publish_changes()
            return {"ok": True, "msg": message}


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
