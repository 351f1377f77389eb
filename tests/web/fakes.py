"""Stand-ins for the appliance (an admin link that answers like the hub) and for phones' MQTT clients."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from appliance.edge.mqtt import Availability
from web.link import LinkError, Result

JSON = dict[str, Any]


class FakeLink:
    """Answers commands from a script (``answers``: cmd -> Result) and records them."""

    def __init__(self) -> None:
        self.commands: list[JSON] = []
        self.answers: dict[str, Result] = {}
        self.online = True
        self._version = 1
        self.board_state: JSON = {"v": 1, "box": "Test box", "scene": "lobby", "game": None, "paused": False,
                                  "players": [], "seats": [], "view": None, "remaining": None,
                                  "can_advance": False, "message": "", "version": 1}
        self.admin: JSON = {"handsets": [], "scene": "lobby", "game": None, "paused": False,
                            "can_advance": False, "last": {}}

    def add_handset(self, handset_id: str, name: str, accepted: bool = True, online: bool = True,
                    **extra: Any) -> None:
        self.admin["handsets"].append({"id": handset_id, "name": name, "accepted": accepted, "online": online,
                                       "battery": extra.get("battery"), "rssi": extra.get("rssi"),
                                       "firmware": extra.get("firmware", "qb-1.0"),
                                       "layout": extra.get("layout", "keypad")})
        self.changed()

    def changed(self) -> None:
        self._version += 1

    def board(self) -> JSON | None:
        return self.board_state

    def admin_state(self) -> JSON | None:
        return self.admin

    def appliance_online(self) -> bool:
        return self.online

    def version(self) -> int:
        return self._version

    def remaining(self) -> float | None:
        value = self.board_state.get("remaining")
        return float(value) if isinstance(value, int | float) else None

    def command(self, command: Mapping[str, Any], timeout: float = 4.0) -> Result:
        if not self.online:
            raise LinkError("the quiz box is not running (it says it is offline); start it and try again")
        self.commands.append(dict(command))
        return self.answers.get(str(command.get("cmd")), Result(True, f"{command.get('cmd')}: done"))


class FakeClient:
    """A phone's MQTT client: records publishes; ``deliver`` plays a message from the broker."""

    def __init__(self, client_id: str, topics: list[str], on_message: Callable[[str, bytes], None],
                 availability: Availability, on_connect: Callable[[], None]) -> None:
        self.client_id = client_id
        self.topics = list(topics)
        self.on_message = on_message
        self.availability = availability
        self.on_connect = on_connect
        self.connected = threading.Event()
        self.published: list[tuple[str, bytes | str, bool]] = []
        self.stopped = False

    def start(self, wait: float | None = 10.0) -> FakeClient:
        self.connected.set()
        self.published.append((self.availability.topic, self.availability.online, True))
        self.on_connect()
        return self

    def stop(self, clean: bool = True) -> None:
        if clean and self.connected.is_set():
            self.published.append((self.availability.topic, self.availability.offline, True))
        self.connected.clear()
        self.stopped = True

    def publish(self, topic: str, payload: bytes | str, retain: bool = False, qos: int | None = None) -> None:
        self.published.append((topic, payload, retain))

    def subscribe(self, topics: Any) -> None:
        for topic in topics:
            if topic not in self.topics:
                self.topics.append(topic)

    def deliver(self, topic: str, payload: bytes) -> None:
        self.on_message(topic, payload)


class ClientFactory:
    def __init__(self) -> None:
        self.clients: list[FakeClient] = []

    def __call__(self, *args: Any) -> FakeClient:
        client = FakeClient(*args)
        self.clients.append(client)
        return client

    def latest(self, handset_id: str) -> FakeClient:
        # a phone's client id is "quizbox-<box>-<handset id>-<random>" (appliance.edge.accounts.private_client_id)
        return [c for c in self.clients if c.client_id.rsplit("-", 1)[0].endswith(handset_id)][-1]
