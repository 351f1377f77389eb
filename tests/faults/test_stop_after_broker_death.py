"""A client stopped just after its broker died: paho already knows the connection is gone while the
client's ``connected`` event is still set (its on_disconnect has not run yet). The goodbye ``offline``
cannot be queued, and stop() must still stop: a CI run's hub.stop() after a kill -9 of the broker raised
"Message publish failed: The client is not currently connected" (tests/security/test_wifi_guest.py)."""

from __future__ import annotations

from typing import Any

import paho.mqtt.client as mqtt

from appliance.edge.mqtt import Availability, Client, Connection


def test_stop_right_after_the_broker_died_does_not_raise() -> None:
    client = Client("stop-after-death", Connection("127.0.0.1", 1), lambda topic, payload: None,
                    availability=Availability("quizbox/t/status"))
    client.connected.set()  # our event, not yet cleared: the race's window
    refused: list[tuple[Any, ...]] = []

    def publish(*args: Any, **kwargs: Any) -> mqtt.MQTTMessageInfo:
        refused.append(args)
        info = mqtt.MQTTMessageInfo(1)
        info.rc = mqtt.MQTT_ERR_NO_CONN  # what paho answers once it knows the socket is gone
        return info

    client.paho.publish = publish  # type: ignore[method-assign]
    client.stop()
    assert refused == [("quizbox/t/status", "offline")]  # the goodbye was tried, and stop() went on
