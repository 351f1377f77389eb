"""Junk pairing requests sent as fast as one connection can, as the public pairing account from the guest
Wi-Fi (issue 38): each publisher of bench/flood.py's flood, and of tests/security/test_pairing_flood.py's."""

from __future__ import annotations

import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from appliance.edge.accounts import PAIRING_PASSWORD, PAIRING_USER
from appliance.edge.pairing import pairing_topic, request_payload


def send_junk_requests(port: int, box: str, n: int, until: float, most: int | None = None, queued: int = 1000,
                       handsets: int = 3000, client: str | None = None) -> int:
    """Publisher ``n``'s pairing requests for ``handsets`` made-up handsets to the broker on ``port``, until
    the monotonic time ``until`` (or ``most`` tries), as client id ``client`` (``flood-<n>``); the number
    paho took to send (a full queue of ``queued`` messages refuses the rest)."""
    flooder = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client or f"flood-{n}")
    flooder.username_pw_set(PAIRING_USER, PAIRING_PASSWORD)
    flooder.max_queued_messages_set(queued)
    flooder.connect("127.0.0.1", port)
    flooder.loop_start()
    sent, i = 0, 0
    try:
        while time.monotonic() < until and (most is None or i < most):
            junk = f"x{n}-{i % handsets}"
            if flooder.publish(pairing_topic(box, junk), request_payload(junk, f"flood-secret-{i:012d}")).rc == 0:
                sent += 1
            i += 1
    finally:
        flooder.disconnect()
        flooder.loop_stop()
    return sent
