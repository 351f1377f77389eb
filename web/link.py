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
    def __init__(self, box: str, connection: Connection, clock: Any = time.monotonic) -> None:
        self.box = box
        self.clock = clock
        self._cond = threading.Condition()
        self._board: JSON | None = None
        self._board_at = 0.0
        self._admin: JSON | None = None
        self._replies: OrderedDict[str, JSON] = OrderedDict()
        self._online = False
        self._version = 0
        self.client = Client(
            client_id=private_client_id(f"quizbox-{box}-web"),  # nobody can guess it (docs/security.md)
            connection=connection,
            on_message=self._on_message,
            subscriptions=[
                protocol.board_topic(box),
                protocol.admin_state_topic(box),
                protocol.appliance_status_topic(box),
            ],
        )

    def start(self, wait: float | None = None) -> MqttLink:
        self.client.start(wait=wait)
        return self

    def stop(self) -> None:
        self.client.stop()

    # -- what the appliance published --------------------------------------------------------------------

    def _on_message(self, topic: str, payload: bytes) -> None:
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

    def appliance_online(self) -> bool:
        with self._cond:
            return self._online and self.client.connected.is_set()

    def version(self) -> int:
        with self._cond:
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
            raise LinkError("the quiz box is not running (it says it is offline); start it and try again")
        token = secrets.token_hex(6)
        payload = protocol.make_command(token, str(command.get("cmd", "")),
                                        **{k: v for k, v in command.items() if k not in ("cmd", "id", "v")})
        with self._cond:
            self.client.publish(protocol.admin_command_topic(self.box), json.dumps(payload))
            deadline = self.clock() + timeout
            while True:
                reply = self._replies.pop(token, None)
                if reply is not None:
                    return Result(reply["ok"], reply["msg"], reply["code"])
                left = deadline - self.clock()
                if left <= 0:
                    raise LinkError(f"the quiz box did not answer within {timeout:.0f} s; try again")
                self._cond.wait(left)
