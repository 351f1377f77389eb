"""A small paho client for the league's two programs: a fixed client id with a persistent session (the
broker queues QoS 1 messages while the program is down), subscriptions made again on every connect."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

from appliance.league.payloads import LeagueError

log = logging.getLogger(__name__)

Handler = Callable[[str, bytes], None]


class LeagueClient:
    def __init__(self, client_id: str, host: str, port: int, username: str, password: str,
                 subscriptions: Sequence[str], handler: Handler, on_connect: Callable[[], None] | None = None) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.connected = threading.Event()
        self._refused = ""
        paho = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False,
                           protocol=mqtt.MQTTv311)
        paho.username_pw_set(username, password)
        paho.max_queued_messages_set(0)
        paho.reconnect_delay_set(min_delay=1, max_delay=5)

        def connected(client: Any, userdata: object, flags: object, reason: Any, properties: object) -> None:
            if reason.is_failure:
                self._refused = str(reason)
                return
            for topic in subscriptions:
                client.subscribe(topic, qos=1)
            self.connected.set()
            if on_connect is not None:
                on_connect()

        def disconnected(*_: object) -> None:
            self.connected.clear()

        def message(client: Any, userdata: object, msg: Any) -> None:
            try:
                handler(str(msg.topic), bytes(msg.payload))
            except Exception:  # one bad message must not stop the loop: logged, dropped
                log.exception("league message on %s dropped", msg.topic)

        paho.on_connect, paho.on_disconnect, paho.on_message = connected, disconnected, message
        self.paho = paho
        self._address = (host, port)

    def start(self) -> None:
        """Connect, and keep reconnecting, in paho's thread (the program sets itself up before this)."""
        host, port = self._address
        try:
            self.paho.connect(host, port, 30)
        except OSError as exc:
            raise LeagueError(f"cannot reach the broker at {host}:{port}: {exc}") from exc
        self.paho.loop_start()

    def wait(self, timeout: float) -> None:
        if not self.connected.wait(timeout):
            self.close()
            raise LeagueError(f"the broker did not take the league's connection: {self._refused or 'no answer'}")

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.paho.publish(topic, payload, qos=1, retain=retain)

    def close(self) -> None:
        self.paho.disconnect()
        self.paho.loop_stop()
