"""One handset floods its own input topic; the others must not wait (appliance/edge/flood.py).

A team holds a paired handset all evening; its secret is on its flash (an ESP32's MicroPython REPL is one
USB cable away), so a guest can log in as that handset from a laptop. That account may publish only on the
handset's own topics, and the hub checks everything it gets, but nothing bounds how much one handset
sends: every handset's input reaches the hub on the one connection the games run on, one after another.
Measured here (2 shared cores): a 5 s flood of junk inputs (QoS 0, as fast as a socket takes them, about
63,000 a second) from a process of its own, and another handset's input sent 1 s into the flood got no ack
within 10 s (no ack within 60 s in a longer probe); at about 4,500 a second (0.5 MB/s, well within a pub's
Wi-Fi) the ack waited 5.0 s, until the flood ended (a security audit's figures, before the flood guard).

The broker and accounts are the box's (tests/security/dynsec_box.py, via test_broker_accounts' ``box``);
the flooder runs in its own process (``python -m tests.security.test_handset_flood``), so it does not
share the hub's interpreter.
"""

from __future__ import annotations

import json
import queue
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from appliance.edge.accounts import client_id
from firmware import protocol
from tests.security.test_broker_accounts import BOX, NOT_AUTHORISED, Box, box  # noqa: F401  (the fixture)
from tests.test_hub import CARDS

pytestmark = pytest.mark.mqtt
ROOT = Path(__file__).resolve().parents[2]
FLOOD_SECONDS = 5.0


def _length(size: int) -> bytes:
    encoded = b""
    while True:
        byte, size = size % 128, size // 128
        encoded += bytes([byte | (0x80 if size else 0)])
        if not size:
            return encoded


def _string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("!H", len(data)) + data


def connect_packet(client: str, user: str, password: str, keepalive: int = 0) -> bytes:
    """An MQTT 3.1.1 CONNECT: clean session, user name and password, ``keepalive`` seconds (0: never)."""
    body = _string("MQTT") + bytes([4, 0xC2]) + struct.pack("!H", keepalive)
    body += _string(client) + _string(user) + _string(password)
    return b"\x10" + _length(len(body)) + body


def _publish_packet(topic: bytes, payload: bytes) -> bytes:
    body = struct.pack("!H", len(topic)) + topic + payload
    length, encoded = len(body), b""
    while True:
        byte, length = length % 128, length // 128
        encoded += bytes([byte | (0x80 if length else 0)])
        if not length:
            break
    return b"\x30" + encoded + body  # PUBLISH, QoS 0


def flood(port: int, handset: str, secret: str, seconds: float) -> int:
    """Log in as ``handset`` and publish junk inputs on its own topic for ``seconds``; how many were sent."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(connect_packet(client_id(handset, secret), handset, secret, keepalive=60))
    assert sock.recv(4)[3] == 0, "the handset's own account logs in"
    topic = protocol.handset_topic(BOX, handset, "input").encode()
    sent, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        batch = [json.dumps({"v": 1, "seq": sent + i + 1, "prompt": "junk", "kind": "range",
                             "data": {"bottom": "1", "top": "2"}}).encode() for i in range(200)]
        sock.sendall(b"".join(_publish_packet(topic, payload) for payload in batch))
        sent += len(batch)
    sock.close()
    return sent


class RawHandset:
    """A paired handset as a bare paho client: publishes an input, times its ack."""

    def __init__(self, box: Box, handset: str, secret: str) -> None:  # noqa: F811
        self.handset = handset
        self.acks: queue.Queue[tuple[float, bytes]] = queue.Queue()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id(handset, secret))
        self.client.username_pw_set(handset, secret)
        self.client.on_message = lambda c, u, m: self.acks.put((time.monotonic(), bytes(m.payload)))
        self.client.connect("127.0.0.1", box.broker.port)
        self.client.loop_start()
        self.client.subscribe(protocol.handset_topic(BOX, handset, "ack"), qos=1)
        time.sleep(0.3)

    def ack_seconds(self, body: str, seq: int, timeout: float) -> float | None:
        """Seconds from publishing ``body`` to its ack (``seq``), None if none came within ``timeout``."""
        while not self.acks.empty():
            self.acks.get()
        sent = time.monotonic()
        self.client.publish(protocol.handset_topic(BOX, self.handset, "input"), body, qos=1)
        while True:
            try:
                at, payload = self.acks.get(timeout=max(0.01, sent + timeout - time.monotonic()))
            except queue.Empty:
                return None
            if json.loads(payload).get("seq") == seq:
                return at - sent

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_one_handset_flooding_its_own_inputs_does_not_make_the_hub_deaf_to_the_others(box: Box) -> None:  # noqa: F811
    mallory = box.pair("h1", "Mallory")
    ann_secret = box.pair("h2", "Ann")
    ann_sim = box.handset("h2", "Ann")
    box.hub.command({"cmd": "start", "game": "guess", "cards": CARDS,
                     "seats": [{"player": "Ann", "handset": "h2"}, {"player": "Mal", "handset": "h1"}]})
    prompt = ann_sim.wait_prompt("range")
    ann_sim.stop()  # Ann's input from here on by a bare client, so it can be sent again and timed
    ann = RawHandset(box, "h2", ann_secret)
    body = json.dumps({"v": 1, "seq": 7, "prompt": str(prompt["id"]), "kind": "range",
                       "data": {"bottom": "1", "top": "10"}})
    try:
        before = ann.ack_seconds(body, 7, 5.0)
        assert before is not None and before < 0.5, before  # the control: answered at once without a flood
        flooder = subprocess.Popen(
            [sys.executable, "-m", "tests.security.test_handset_flood", str(box.broker.port), "h1", mallory,
             str(FLOOD_SECONDS)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        try:
            time.sleep(1.0)
            during = ann.ack_seconds(body, 7, 10.0)  # the same input again: acked again, as a re-delivery
        finally:
            out, _ = flooder.communicate(timeout=60)
        assert during is not None and during < 2.0, (
            f"Ann's input sent 1 s into one handset's flood ({out.strip()}): "
            f"{'no ack within 10 s' if during is None else f'acked after {during:.1f} s'}")
        # the flooder was cut off the broker (its account disabled for a while) and the admin page says so
        assert box.hub.flood.floods == {"h1": 1}, box.hub.flood.floods
        assert box.login("h1", mallory).rc in NOT_AUTHORISED
        assert ann.ack_seconds(body, 7, 5.0) is not None  # Ann plays on
        deadline = time.monotonic() + 3
        while "Handset h1 flooded" not in (box.hub._admin_sent or ""):  # the admin state the page shows
            assert time.monotonic() < deadline, "the admin state does not say which handset flooded"
            time.sleep(0.05)
    finally:
        ann.close()


if __name__ == "__main__":
    port_arg, handset_arg, secret_arg, seconds_arg = sys.argv[1:5]
    count = flood(int(port_arg), handset_arg, secret_arg, float(seconds_arg))
    print(f"{count} inputs in {float(seconds_arg):.0f} s ({count / float(seconds_arg):.0f} a second)", flush=True)
