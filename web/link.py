"""The admin page's link to the running appliance, over MQTT like any other part of the box.

It keeps the latest retained ``board`` and ``admin/state`` and the appliance's status, and sends quizmaster
commands to ``admin/command`` (firmware/protocol.py ``make_command``). Every command carries a fresh
``id``; the hub answers each one in ``admin/state``'s ``last`` with that id echoed (``make_reply``). The
admin state is also republished for telemetry, joins and clocks, and several requests may wait at once,
so every reply seen is kept by id (a few dozen) and a command takes only the reply with its own id.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from appliance.edge.accounts import private_client_id
from appliance.edge.mqtt import Client, Connection
from firmware import protocol

log = logging.getLogger(__name__)

JSON = dict[str, Any]

RECENT_REPLIES = 64  # replies kept for commands still waiting (more than the web server's threads)
RESEND_AFTER = 1.5  # s without an answer before a command is sent again (same id: appliance/edge/commands.py)


class LinkError(Exception):
    """The command could not be delivered or was not answered; the message says so in plain words."""


@dataclass(frozen=True)
class Result:
    ok: bool
    msg: str
    code: str | None = None  # the refusal code (firmware/protocol.py REFUSALS) when not ok


class ApplianceLink(Protocol):
    """What the blueprints need from the appliance (a fake in the Flask tests)."""

    def board(self) -> JSON | None: ...

    def admin_state(self) -> JSON | None: ...

    def appliance_online(self) -> bool: ...

    def version(self) -> int: ...

    def remaining(self) -> float | None: ...

    def command(self, command: Mapping[str, Any], timeout: float = 4.0) -> Result: ...


class MqttLink:
    def __init__(self, box: str, connection: Connection, clock: Any = time.monotonic, wall: Any = time.time) -> None:
        self.box = box
        self.clock = clock
        self.wall = wall
        self._cond = threading.Condition()
        self._board: JSON | None = None
        self._board_at = 0.0
        self._admin: JSON | None = None
        self._replies: OrderedDict[str, JSON] = OrderedDict()
        self._online = False
        self._heard: float | None = None  # when the appliance sent its last fresh heartbeat (self.clock)
        self._ever_heard = False
        self._was_answering = False
        self._version = 0
        self.client = Client(
            client_id=private_client_id(f"quizbox-{box}-web"),  # nobody can guess it (docs/security.md)
            connection=connection,
            on_message=self._on_message,
            subscriptions=[
                protocol.board_topic(box),
                protocol.admin_state_topic(box),
                protocol.appliance_status_topic(box),
                protocol.appliance_heartbeat_topic(box),
            ],
        )

    def start(self, wait: float | None = None) -> MqttLink:
        self.client.start(wait=wait)
        return self

    def stop(self) -> None:
        self.client.stop()

    # -- what the appliance published --------------------------------------------------------------------

    def _on_message(self, topic: str, payload: bytes) -> None:
        if topic == protocol.appliance_heartbeat_topic(self.box):
            self._heartbeat(payload)
            return
        if topic == protocol.appliance_status_topic(self.box):
            with self._cond:
                self._online = payload.strip() == protocol.ONLINE.encode()
                self._bump()
            return
        try:
            data = json.loads(payload.decode("utf-8"))
        except (ValueError, UnicodeError):
            log.warning("unreadable message on %s", topic)
            return
        if not isinstance(data, dict):
            return
        with self._cond:
            if topic == protocol.board_topic(self.box):
                self._board, self._board_at = data, self.clock()
            elif topic == protocol.admin_state_topic(self.box):
                self._admin = data
                reply = protocol.parse_reply(data.get("last"))
                if reply is not None and reply["id"]:
                    self._replies[reply["id"]] = reply
                    while len(self._replies) > RECENT_REPLIES:
                        self._replies.popitem(last=False)
            self._bump()

    def _bump(self) -> None:
        self._version += 1
        self._cond.notify_all()

    def board(self) -> JSON | None:
        with self._cond:
            return self._board

    def admin_state(self) -> JSON | None:
        with self._cond:
            return self._admin

    def _heartbeat(self, payload: bytes) -> None:
        """A heartbeat counts from its own time by this machine's clock (the admin page runs on the box), not
        from when it arrived: a retained one a restarted broker hands over on reconnect is as old as the beat,
        so every page of the box says "not answering" STALE_MS after the last beat, however late it
        reconnected; one older than that is no sign of life."""
        try:
            beat = protocol.parse_heartbeat(protocol.decode(payload))
        except protocol.ProtocolError:
            return
        with self._cond:
            self._ever_heard = True  # this box has a heartbeat: from now on only a fresh one says it is alive
            age_ms = self.wall() * 1000 - beat["at"]
            if abs(age_ms) < protocol.STALE_MS:
                sent = self.clock() - max(age_ms, 0) / 1000  # a clock a little ahead: heard now
                self._heard = sent if self._heard is None else max(self._heard, sent)  # a late older copy: no

    def _answering(self) -> bool:
        if not (self._online and self.client.connected.is_set()):
            return False
        if not self._ever_heard:
            return True  # a broker that does not let this page read the heartbeat: the word is all there is
        heard = None if self._heard is None else round(self._heard * 1000)
        return protocol.box_answering(heard, round(self.clock() * 1000))

    def appliance_online(self) -> bool:
        """The appliance says it is online and its heartbeat is fresh: False means "the box is not answering"."""
        with self._cond:
            return self._answering()

    def version(self) -> int:
        with self._cond:
            answering = self._answering()
            if answering != self._was_answering:  # the heartbeat went stale: the page must say so
                self._was_answering = answering
                self._version += 1
            return self._version

    def remaining(self) -> float | None:
        """Seconds left on the running clock now (the board is published when it changes, not each second)."""
        with self._cond:
            if self._board is None or not isinstance(self._board.get("remaining"), int | float):
                return None
            left = float(self._board["remaining"])
            if not self._board.get("paused"):
                left -= self.clock() - self._board_at
            return max(0.0, left)

    # -- commands ---------------------------------------------------------------------------------------------

    def command(self, command: Mapping[str, Any], timeout: float = 4.0) -> Result:
        if not self.client.connected.is_set():
            raise LinkError("the admin page cannot reach the quiz box's message broker; is the box running?")
        if not self.appliance_online():
            raise LinkError("the box is not answering: the quiz program is not running or is stuck; "
                            "restart the box and try again")
        token = secrets.token_hex(6)
        payload = protocol.make_command(token, str(command.get("cmd", "")),
                                        **{k: v for k, v in command.items() if k not in ("cmd", "id", "v")})
        text = json.dumps(payload)
        with self._cond:
            self.client.publish(protocol.admin_command_topic(self.box), text)
            now = self.clock()
            deadline, again = now + timeout, now + RESEND_AFTER
            while True:
                reply = self._replies.pop(token, None)
                if reply is not None:
                    return Result(reply["ok"], reply["msg"], reply["code"])
                now = self.clock()
                if now >= deadline:
                    raise LinkError(f"the quiz box did not answer within {timeout:.0f} s; try again")
                if now >= again:  # lost on the way (a broker that dropped it under a flood): the same id
                    # again; the box answers an id it already ran from memory and never runs it twice
                    self.client.publish(protocol.admin_command_topic(self.box), text)
                    again = now + RESEND_AFTER
                self._cond.wait(min(deadline, again) - now)
