"""A handset built from docs/protocol.md alone: raw paho-mqtt and JSON, no Quizbox import (a test checks
that). It is the doc's "build a handset" walk-through made runnable: connect with a last will, say
online and hello, answer clock pings, answer every prompt with an input shaped as the doc's examples,
re-send an unacknowledged input after the ack timeout with the same seq."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

KEEPALIVE = 30  # s (docs/protocol.md, MQTT settings)
ACK_TIMEOUT = 3.0  # s: re-send an unacknowledged input, same seq


def ms() -> int:
    return int(time.monotonic() * 1000)


def answer(prompt: dict[str, Any]) -> dict[str, Any] | None:
    """The input ``data`` for a prompt, chosen as simply as the doc allows; None for an info prompt."""
    kind = prompt["kind"]
    if kind == "range":
        return {"bottom": "1", "top": "1M"}  # the number grammar: "1M" is a million
    if kind == "bet":
        offered = [a["action"] for a in prompt["actions"]]
        for action in ("check", "call", "allin", "fold"):
            if action in offered:
                return {"action": action}
        first = prompt["actions"][0]
        return {"action": first["action"], "to": first["min"]}
    if kind == "choice":
        return {"choices": {f["name"]: f["options"][0]["id"] for f in prompt["fields"] if f.get("required")}}
    if kind == "split":
        sides = [s["id"] for s in prompt["sides"]]
        return {"split": {side: (prompt["total"] if i == 0 else 0) for i, side in enumerate(sides)}}
    if kind == "token":
        return {"answer": prompt["answers"][0], "token": prompt["tokens"][0]}
    if kind == "buzz":
        return {"pressed": ms()} if prompt.get("armed") else None
    if kind == "number":  # a quiz night's tie-break: one exact number, as text
        return {"number": "1"}
    return None


class RawHandset:
    def __init__(self, host: str, port: int, box: str, handset_id: str, name: str) -> None:
        self.box, self.id, self.name = box, handset_id, name
        self.base = f"quizbox/{box}/handset/{handset_id}/"
        self.seq = 0
        self.number: str | None = None  # what this handset answers a tie-break's number prompt
        self.prompt: dict[str, Any] | None = None
        self.pending: dict[str, Any] | None = None
        self.sent_at = 0.0
        self.acks: list[dict[str, Any]] = []
        self.prompts: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"raw-{box}-{handset_id}",
                                  protocol=mqtt.MQTTv311, clean_session=True)
        self.client.will_set(self.base + "status", "offline", qos=1, retain=True)
        self.client.reconnect_delay_set(1, 30)
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.client.connect(host, port, KEEPALIVE)
        self.client.loop_start()

    def _connected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any = None) -> None:
        for leaf in ("prompt", "ack", "time"):
            client.subscribe(self.base + leaf, qos=1)
        client.publish(self.base + "status", "online", qos=1, retain=True)
        hello = {"v": 1, "id": self.id, "name": self.name, "fw": "raw-1", "layout": "touch", "clock": ms(),
                 "keepalive": KEEPALIVE}
        client.publish(self.base + "hello", json.dumps(hello), qos=1)
        with self.lock:
            if self.pending is not None:
                self._send()

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        leaf = message.topic.rsplit("/", 1)[1]
        obj = json.loads(message.payload)
        with self.lock:
            if leaf == "time" and "ping" in obj:  # answer at once, QoS 0
                reply = {"v": 1, "ping": obj["ping"], "t0": obj["t0"], "th": ms()}
                client.publish(self.base + "clock", json.dumps(reply), qos=0)
            elif leaf == "prompt":
                self.prompt = obj
                self.prompts.append(obj)
                self._answer()
            elif leaf == "ack":
                self.acks.append(obj)
                if self.pending is not None and obj["seq"] == self.pending["seq"]:
                    self.pending = None  # accepted or refused: either way this input is settled

    def _answer(self) -> None:
        prompt = self.prompt
        if prompt is None or self.pending is not None:
            return
        data = {"number": self.number} if prompt["kind"] == "number" and self.number else answer(prompt)
        if data is None:
            return
        self.seq = self.seq + 1 if self.seq < 2**31 - 1 else 1
        self.pending = {"v": 1, "id": self.id, "seq": self.seq, "prompt": prompt["id"], "kind": prompt["kind"],
                        "data": data, "clock": ms()}
        self._send()

    def _send(self) -> None:
        assert self.pending is not None
        self.sent_at = time.monotonic()
        self.client.publish(self.base + "input", json.dumps(self.pending), qos=1)

    def tick(self) -> None:
        """Re-send an input unacknowledged for ACK_TIMEOUT (same seq), and answer a prompt still open."""
        with self.lock:
            if self.pending is not None and time.monotonic() - self.sent_at >= ACK_TIMEOUT:
                self._send()
            elif self.pending is None and self.prompt is not None and not self._answered(self.prompt):
                self._answer()

    def _answered(self, prompt: dict[str, Any]) -> bool:
        return any(a.get("prompt") == prompt["id"] for a in self.acks)

    def telemetry(self, battery: int = 80) -> None:
        self.client.publish(self.base + "telemetry",
                            json.dumps({"v": 1, "battery": battery, "rssi": -60, "fw": "raw-1", "layout": "touch"}),
                            qos=1)

    def stop(self, say_offline: bool = True) -> None:
        if say_offline:  # a clean goodbye: offline (retained) first, then disconnect
            self.client.publish(self.base + "status", "offline", qos=1, retain=True).wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()


class RawAdmin:
    """The quizmaster's side, raw: commands on admin/command, replies matched by id in admin/state."""

    def __init__(self, host: str, port: int, box: str) -> None:
        self.box = box
        self.board: dict[str, Any] = {}
        self.state: dict[str, Any] = {}
        self.replies: dict[str, dict[str, Any]] = {}
        self.cond = threading.Condition()
        self.n = 0
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"raw-admin-{box}",
                                  protocol=mqtt.MQTTv311, clean_session=True)
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.client.connect(host, port, KEEPALIVE)
        self.client.loop_start()

    def _connected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any = None) -> None:
        client.subscribe(f"quizbox/{self.box}/board", qos=1)
        client.subscribe(f"quizbox/{self.box}/admin/state", qos=1)

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        obj = json.loads(message.payload)
        with self.cond:
            if message.topic.endswith("/board"):
                self.board = obj
            else:
                self.state = obj
                last = obj.get("last") or {}
                if last.get("id"):
                    self.replies[last["id"]] = last
            self.cond.notify_all()

    def command(self, cmd: str, timeout: float = 10.0, **args: Any) -> dict[str, Any]:
        with self.cond:
            self.n += 1
            command_id = f"c{self.n}"
            self.client.publish(f"quizbox/{self.box}/admin/command",
                                json.dumps({"v": 1, "id": command_id, "cmd": cmd, **args}), qos=1)
            if not self.cond.wait_for(lambda: command_id in self.replies, timeout):
                raise TimeoutError(f"no reply to {cmd}")
            return self.replies.pop(command_id)

    def wait(self, predicate: Any, timeout: float = 30.0) -> bool:
        with self.cond:
            return bool(self.cond.wait_for(lambda: predicate(self.board, self.state), timeout))

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
