"""paho-mqtt 2.x clients set up the way every Quizbox client needs them.

* TCP_NODELAY on the socket (paho does not set it): without it every small publish waits for Nagle.
* Subscriptions are made in ``on_connect`` so that a reconnect restores them.
* A last will and a retained ``online`` give Home-Assistant-style availability.
* Automatic reconnect with a bounded backoff (``loop_start`` handles it).
"""

from __future__ import annotations

import contextlib
import logging
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware import protocol

log = logging.getLogger(__name__)

MessageHandler = Callable[[str, bytes], None]


@dataclass
class Connection:
    """Where and how to connect."""

    host: str
    port: int
    username: str = ""
    password: str = ""
    tls: bool = False
    ca_file: str = ""
    keepalive: int = protocol.KEEPALIVE


@dataclass
class Availability:
    """A retained status topic: ``online`` on connect, ``offline`` as the last will."""

    topic: str
    online: str = protocol.ONLINE
    offline: str = protocol.OFFLINE
    ttl: int | None = None
    """Seconds the retained ``online`` lives unless said again (MQTT 5 message expiry; the client says it
    again every third of it, :meth:`Client.keep_status`): a power cut takes the box and the broker down
    together, no last will is sent, and the broker restored the old ``online`` from its saved state, a
    lie for as long as the box stayed down (issue 32). None: retained for ever (MQTT 3.1.1)."""


def _nodelay(client: mqtt.Client, userdata: object, sock: object) -> None:
    if isinstance(sock, socket.socket):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


@dataclass
class Client:
    """A paho client with subscriptions restored on every connect and a ``connected`` event."""

    client_id: str
    connection: Connection
    on_message: MessageHandler
    subscriptions: list[str] = field(default_factory=list)
    availability: Availability | None = None
    on_connect: Callable[[], None] | None = None
    qos: int = 1

    def __post_init__(self) -> None:
        self.connected = threading.Event()
        self._network: threading.Thread | None = None  # paho's network thread, known from its first message
        self._writing = threading.Lock()  # write_now against stop()
        self._closing = False
        self._subscribe_mid: int | None = None
        self._status_at = float("-inf")
        if self.availability is not None and self.availability.ttl:  # expiry is MQTT 5's
            paho = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=self.client_id, protocol=mqtt.MQTTv5)
        else:
            paho = mqtt.Client(
                CallbackAPIVersion.VERSION2,
                client_id=self.client_id,
                protocol=mqtt.MQTTv311,
                clean_session=True,
            )
        paho.on_socket_open = _nodelay
        paho.on_connect = self._connected
        paho.on_subscribe = self._subscribed
        paho.on_disconnect = self._disconnected
        paho.on_message = self._message
        # paho says when its queue of packets to write fills and when it is written out (the callbacks meant
        # for an outside event loop; under loop_start they only tell): ``written`` is set while nothing waits
        self.written = threading.Event()
        self.written.set()
        self._written_lock = threading.Lock()
        paho.on_socket_register_write = self._queued
        paho.on_socket_unregister_write = self._drained
        paho.reconnect_delay_set(min_delay=1, max_delay=8)
        paho.max_queued_messages_set(0)
        paho.max_inflight_messages_set(100)
        conn = self.connection
        if conn.username:
            paho.username_pw_set(conn.username, conn.password or None)
        if conn.tls:
            paho.tls_set(ca_certs=conn.ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
        if self.availability is not None:
            paho.will_set(self.availability.topic, self.availability.offline, qos=1, retain=True)
        self.paho = paho

    def start(self, wait: float | None = 10.0) -> Client:
        """Connect in the background (paho's network thread); optionally wait until connected."""
        self.paho.connect_async(self.connection.host, self.connection.port, self.connection.keepalive)
        self.paho.loop_start()
        if wait is not None and not self.connected.wait(wait):
            self.stop()
            raise ConnectionError(
                f"MQTT client {self.client_id} could not connect to "
                f"{self.connection.host}:{self.connection.port} within {wait:.0f} s"
            )
        return self

    def stop(self, clean: bool = True) -> None:
        """Disconnect; ``clean`` publishes ``offline`` first (a crash leaves it to the last will)."""
        if clean and self.availability is not None and self.connected.is_set():
            info = self.paho.publish(self.availability.topic, self.availability.offline, qos=1, retain=True)
            # paho may know the broker is gone before our on_disconnect has cleared ``connected`` (a broker
            # killed a moment before: a CI run's hub.stop() raised "The client is not currently connected"):
            # then nothing was queued, and the last will says offline instead
            if info.rc == mqtt.MQTT_ERR_SUCCESS:
                info.wait_for_publish(timeout=2)
        with self._writing:  # no write_now after this: disconnect() queues a DISCONNECT
            self._closing = True
        self.paho.disconnect()
        # paho 2.x: its network thread may end by itself between loop_stop's check and its join (a full-suite
        # run's teardown saw "'NoneType' object has no attribute 'join'"): it is stopped all the same
        with contextlib.suppress(AttributeError):
            self.paho.loop_stop()

    def subscribe(self, topics: Iterable[str]) -> None:
        """Add subscriptions now and after every reconnect."""
        for topic in topics:
            if topic not in self.subscriptions:
                self.subscriptions.append(topic)
                if self.connected.is_set():
                    self.paho.subscribe(topic, qos=self.qos)

    def publish(self, topic: str, payload: bytes | str, retain: bool = False, qos: int | None = None) -> None:
        self.paho.publish(topic, payload, qos=self.qos if qos is None else qos, retain=retain)

    def write_now(self) -> None:
        """In a message handler (paho's network thread): write what is queued to the socket now.

        paho's loop writes only after the handler returns and the loop has been round select() again; the
        hub calls this once an input's ack is queued, so the ack is on the wire before the hub's other
        threads run (issue 22). It uses paho's own writer, ``_packet_write``, on the thread that alone
        writes, and never when that could call back into paho's callbacks (their lock is held in a
        handler): not once ``stop`` has begun (a DISCONNECT may be queued, whose writing calls
        on_disconnect) nor with an ``on_publish`` set. An error is left to paho's loop, which meets it on
        its next write. Anywhere else, or with a paho that has no such writer, it does nothing."""
        paho = self.paho
        write = getattr(paho, "_packet_write", None)
        done = getattr(paho, "_call_socket_unregister_write", None)
        if (write is None or done is None or paho.on_publish is not None
                or threading.current_thread() is not self._network):
            return
        with self._writing:
            if self._closing:
                return
            try:
                write()
                if not paho.want_write():  # as paho's loop_write ends: all written (sets ``written``)
                    done()
            except Exception:  # never into the handler: the loop writes what is left
                log.exception("%s: writing from a handler failed", self.client_id)

    def _queued(self, client: mqtt.Client, userdata: object, sock: object) -> None:
        # paho calls this on the publishing thread outside its locks, so it can come after the network
        # thread has already written the packet and said so: cleared only while something is queued
        with self._written_lock:
            if client.want_write():
                self.written.clear()

    def _drained(self, client: mqtt.Client, userdata: object, sock: object) -> None:
        with self._written_lock:
            self.written.set()

    def wait_written(self, timeout: float) -> bool:
        """Block until paho's network thread has written everything queued to the socket (False after
        ``timeout`` s). Asleep on an event, not polling: a thread polling would take the interpreter from
        the network thread in the middle of the write it waits for. paho's write callbacks can race its
        writer (a packet being sent is out of the queue), so the queue itself is looked at too; while the
        two disagree it is looked at every 0.2 ms."""
        deadline = time.monotonic() + timeout
        while self.paho.want_write():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self.written.is_set():
                time.sleep(min(left, 0.0002))
            else:
                self.written.wait(left)
        return True

    def _connected(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: object,
        reason: object,
        properties: object = None,
    ) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("%s: connection refused: %s", self.client_id, reason)
            return
        if self.subscriptions:
            # "connected" means subscribed: announce ourselves only once the broker confirmed (SUBACK),
            # else a handset's hello could arrive before our subscription and be lost
            result, mid = client.subscribe([(topic, self.qos) for topic in self.subscriptions])
            self._subscribe_mid = mid
            return
        self._ready(client)

    def _subscribed(
        self, client: mqtt.Client, userdata: object, mid: int, reasons: object, properties: object = None
    ) -> None:
        if mid == self._subscribe_mid:
            self._subscribe_mid = None
            self._ready(client)

    def _ready(self, client: mqtt.Client) -> None:
        if self.availability is not None:
            self._say_online(client)
        self.connected.set()
        if self.on_connect is not None:
            self.on_connect()

    def _say_online(self, client: mqtt.Client) -> None:
        availability = self.availability
        assert availability is not None
        properties = None
        if availability.ttl:
            from paho.mqtt.packettypes import PacketTypes
            from paho.mqtt.properties import Properties

            properties = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
            properties.MessageExpiryInterval = int(availability.ttl)
        self._status_at = time.monotonic()
        client.publish(availability.topic, availability.online, qos=1, retain=True, properties=properties)

    def keep_status(self) -> None:
        """Say ``online`` again when a third of its ttl has passed (call it often: a ticker's beat)."""
        availability = self.availability
        if (availability is not None and availability.ttl and self.connected.is_set()
                and time.monotonic() - self._status_at >= availability.ttl / 3):
            self._say_online(self.paho)

    def _disconnected(
        self, client: mqtt.Client, userdata: object, flags: object, reason: object, properties: object = None
    ) -> None:
        self.connected.clear()
        log.info("%s: disconnected (%s)", self.client_id, reason)

    def _message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        self._network = threading.current_thread()
        try:
            self.on_message(message.topic, bytes(message.payload))
        except Exception:  # a handler bug must not kill paho's network thread
            log.exception("%s: handler failed for %s", self.client_id, message.topic)
