"""The handset's MQTT link on paho-mqtt 2.x: the core's transport.

Last will ``offline`` (retained) and ``online`` on connect; subscriptions are made in ``on_connect``
(through ``Handset.connected()``), so every reconnect restores them and re-sends an unacked input;
TCP_NODELAY on the socket (a press must not wait for Nagle); paho's loop reconnects with a bounded
backoff. paho calls back on its own thread: every call into the handset holds ``lock``.

With a :class:`firmware.core.pairing.Pairing`, the client logs in with its user name and password; a
refused login sends the pairing request as the public pairing account (a short second connection) and
paho tries the own account again every ``RETRY_MS`` until the quizmaster has accepted the handset.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware import protocol
from firmware.core import pairing as pairing_module
from firmware.core.handset import Handset
from firmware.core.pairing import Pairing

log = logging.getLogger(__name__)

BACKOFF_MIN_S = 1
BACKOFF_MAX_S = 30
PAIR_RETRY_S = pairing_module.RETRY_MS // 1000
ASK_TIMEOUT_S = 5.0


def _nodelay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    if isinstance(sock, socket.socket):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class Link:
    """Attach a Handset (made with this link as its transport), then ``start()``."""

    def __init__(
        self,
        box: str,
        handset_id: str,
        host: str,
        port: int = 1883,
        keepalive: int = 30,
        lock: threading.RLock | None = None,
        pairing: Pairing | None = None,
        find: Callable[[], tuple[str, int]] | None = None,
    ) -> None:
        """``find()``: the box's broker address again (mDNS), called after each lost connection so a box
        whose address changed (DHCP) is found on reconnect; None keeps ``host`` and ``port``."""
        self.find = find
        self.box = box
        self.id = handset_id
        self.host = host
        self.port = port
        self.keepalive = keepalive
        self.lock = lock or threading.RLock()
        self.handset: Handset | None = None
        self.pairing = pairing  # None: anonymous
        self.asked = 0  # pairing requests sent
        self.status = protocol.status_topic(box, handset_id)
        # a client id nobody can derive from the board (firmware.core.pairing.client_id): a guest using it
        # would knock the handset off
        own_id = pairing.client_id() if pairing is not None else pairing_module.pairing_client_id(os.urandom)
        self.paho = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=own_id)
        if pairing is not None:
            self.paho.username_pw_set(pairing.username, pairing.password)
        self.paho.will_set(self.status, protocol.OFFLINE, qos=1, retain=True)
        self.paho.reconnect_delay_set(BACKOFF_MIN_S, BACKOFF_MAX_S)
        self.paho.on_socket_open = _nodelay
        self.paho.on_connect = self._on_connect
        self.paho.on_disconnect = self._on_disconnect
        self.paho.on_message = self._on_message

    # -- transport interface of firmware.core.handset -------------------------------------------------------
    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        info = self.paho.publish(topic, payload, qos=0, retain=retain)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            # the core keeps the input pending and re-sends it from connected()
            raise OSError(f"not sent ({mqtt.error_string(info.rc)})")

    def subscribe(self, topic: str) -> None:
        result, _ = self.paho.subscribe(topic, qos=1)
        if result != mqtt.MQTT_ERR_SUCCESS:
            raise OSError(f"not subscribed ({mqtt.error_string(result)})")

    # -- paho callbacks (paho's thread) ---------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            if self.pairing is not None and reason.value in pairing_module.REFUSED:
                self._refused()
            else:
                log.warning("broker refused the handset: %s", reason)
            return
        if self.pairing is not None and self.pairing.refusals:
            log.info("paired: logged in as %s", self.pairing.username)
            self.pairing.accepted()
            self.paho.reconnect_delay_set(BACKOFF_MIN_S, BACKOFF_MAX_S)
        client.publish(self.status, protocol.ONLINE, qos=1, retain=True)
        with self.lock:
            if self.handset is not None:
                try:
                    self.handset.connected()
                except OSError:
                    log.warning("connection lost while saying hello; paho reconnects")

    def _refused(self) -> None:
        """Paho's thread, after a refused login: ask to be paired and retry every PAIR_RETRY_S."""
        assert self.pairing is not None
        with self.lock:
            asking = self.pairing.refused()
            if self.handset is not None:
                self.handset.disconnected()  # draws the pairing screen
        if not asking:
            log.error("broker refused user %s: check the broker username and password", self.pairing.username)
            return
        self.paho.reconnect_delay_set(PAIR_RETRY_S, PAIR_RETRY_S)
        log.info("no broker account yet: asking to be paired, code %s", self.pairing.code())
        try:
            self.ask()
        except OSError as err:
            log.warning("pairing request not sent: %s", err)

    def ask(self) -> None:
        """Send one pairing request as the public pairing account; OSError if it could not be sent."""
        assert self.pairing is not None
        asking = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=self.pairing.pairing_client_id())
        asking.username_pw_set(pairing_module.PAIRING_USER, pairing_module.PAIRING_PASSWORD)
        try:  # the box's pairing broker; a box without one refuses the connection: its own port then
            asking.connect(self.host, self.port + pairing_module.PAIRING_PORT_OFFSET, self.keepalive)
        except ConnectionRefusedError:
            asking.connect(self.host, self.port, self.keepalive)
        asking.loop_start()
        try:
            info = asking.publish(self.pairing.topic, self.pairing.request(), qos=1)
            info.wait_for_publish(ASK_TIMEOUT_S)
            if not info.is_published():
                raise OSError("the broker did not take the pairing request")
            self.asked += 1
        except RuntimeError as err:  # paho: the pairing login was refused or the connection dropped
            raise OSError(str(err)) from err
        finally:
            asking.disconnect()
            asking.loop_stop()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        with self.lock:
            if self.handset is not None:
                self.handset.disconnected()
        self.relocate()

    def relocate(self) -> None:
        """Look the box up again (paho's thread, the connection closed); paho's next reconnect uses it."""
        if self.find is None:
            return
        try:
            host, port = self.find()
        except OSError as err:
            log.warning("box not found again: %s; retrying %s:%s", err, self.host, self.port)
            return
        if (host, port) != (self.host, self.port):
            log.info("the box moved: %s:%s -> %s:%s", self.host, self.port, host, port)
            self.host, self.port = host, port
            self.paho.host, self.paho.port = host, port

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        with self.lock:
            if self.handset is not None:
                self.handset.on_message(msg.topic, msg.payload)

    # -- life cycle -------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Connect in the background (retrying until the broker answers) and run paho's loop thread."""
        self.paho.connect_async(self.host, self.port, self.keepalive)
        self.paho.loop_start()

    def stop(self) -> None:
        """A clean goodbye: ``offline`` retained, then disconnect."""
        if self.paho.is_connected():
            self.paho.publish(self.status, protocol.OFFLINE, qos=1, retain=True).wait_for_publish(2)
        self.paho.disconnect()
        self.paho.loop_stop()
