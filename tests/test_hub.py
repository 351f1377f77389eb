"""The hub against real brokers: join, prompts, acks, duplicates, and every kind of bad input."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from appliance.edge.broker import RunningBroker
from appliance.edge.hub import Hub
from appliance.edge.mqtt import Client, Connection
from appliance.session.session import Session
from firmware import protocol
from tests.conftest import connection_of
from tests.support import guess  # noqa: F401  (registers the test game)

CARDS = [{"id": "c1", "question": "How many legs has a spider?", "answer": "8"},
         {"id": "c2", "question": "How many moons has Mars?", "answer": "2"}]


class Raw:
    """A bare MQTT client posing as a handset (or an attacker): publishes anything, records replies."""

    def __init__(self, box: str, handset_id: str, connection: Connection) -> None:
        self.box, self.id = box, handset_id
        self.messages: list[tuple[str, dict[str, Any]]] = []
        self.cond = threading.Condition()
        self.client = Client(f"raw-{box}-{handset_id}", connection, self._on, subscriptions=[
            protocol.prompt_topic(box, handset_id), protocol.ack_topic(box, handset_id)])
        self.client.start()

    def _on(self, topic: str, payload: bytes) -> None:
        with self.cond:
            self.messages.append((topic.rsplit("/", 1)[1], json.loads(payload)))
            self.cond.notify_all()

    def send(self, leaf: str, payload: bytes | dict[str, Any], handset: str | None = None) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.client.publish(protocol.handset_topic(self.box, handset or self.id, leaf), data)

    def hello(self, name: str = "Ann") -> dict[str, Any]:
        self.send("hello", protocol.make_hello(self.id, name, "test", "keypad"))
        return self.wait("prompt")

    def wait(self, leaf: str, count: int = 1, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self.cond:
            while sum(1 for t, _ in self.messages if t == leaf) < count:
                if not self.cond.wait(max(0.0, deadline - time.monotonic())):
                    raise TimeoutError(f"{self.id}: no {leaf} #{count}; got {self.messages}")
            return [m for t, m in self.messages if t == leaf][count - 1]

    def count(self, leaf: str) -> int:
        with self.cond:
            return sum(1 for t, _ in self.messages if t == leaf)

    def stop(self) -> None:
        self.client.stop()


@pytest.fixture
def hub(any_broker: RunningBroker, box_id: str) -> Iterator[Hub]:
    with Hub(box_id, Session(time.monotonic), connection_of(any_broker)) as running:
        yield running


def _start_guess(hub: Hub, *handsets: Raw) -> None:
    hub.command({"cmd": "start", "game": "guess", "cards": CARDS,
                 "seats": [{"player": f"P{i}", "handset": h.id} for i, h in enumerate(handsets)]})


def _range(seq: int, prompt: dict[str, Any], bottom: str = "1", top: str = "10", **extra: Any) -> dict[str, Any]:
    return {**protocol.make_input(seq, prompt["id"], "range", {"bottom": bottom, "top": top}), **extra}


def test_join_play_and_duplicate_is_applied_once(hub: Hub, any_broker: RunningBroker, box_id: str) -> None:
    ann = Raw(box_id, "h1", connection_of(any_broker))
    try:
        lobby = ann.hello()
        assert lobby["kind"] == "info" and "Ann" in lobby["text"]
        _start_guess(hub, ann)
        question = ann.wait("prompt", 2)
        assert question["kind"] == "range" and "spider" in question["text"]
        payload = _range(1, question)
        ann.send("input", payload)
        first = ann.wait("ack")
        assert first["ok"] is True and first["seq"] == 1
        ann.send("input", payload)  # a QoS 1 re-delivery or a retry after reconnect
        second = ann.wait("ack", 2)
        assert second == first
        flow = hub.session.flow
        assert flow is not None and len(flow.log()) == 1  # applied once
        assert ann.wait("prompt", 3)["title"] == "Locked in"
    finally:
        ann.stop()


def test_stale_prompt_and_rule_refusals_change_nothing(hub: Hub, any_broker: RunningBroker, box_id: str) -> None:
    ann = Raw(box_id, "h1", connection_of(any_broker))
    try:
        ann.hello()
        _start_guess(hub, ann)
        question = ann.wait("prompt", 2)
        ann.send("input", _range(1, question, "10", "1"))  # bottom above top: the rules refuse
        refused = ann.wait("ack")
        assert refused == {**refused, "ok": False, "seq": 1} and "above" in refused["msg"]
        ann.send("input", _range(2, {"id": "p999"}))  # answers a prompt that is not current
        stale = ann.wait("ack", 2)
        assert stale["ok"] is False and "old" in stale["msg"]
        assert hub.session.flow is not None and hub.session.flow.log() == []
    finally:
        ann.stop()


BAD_PAYLOADS = [
    (b"{not json", "not JSON"),
    (b"[1, 2]", "not a JSON object"),
    (b"\xff\xfe", "not JSON"),
    (b"{" + b'"x":"' + b"a" * 2000 + b'"}', "too big"),
    (json.dumps({"v": 1, "seq": "1", "prompt": "p1", "kind": "range", "data": {}}).encode(), "seq not an int"),
    (json.dumps({"v": 1, "seq": 1, "prompt": "p1", "kind": "dance", "data": {}}).encode(), "unknown input kind"),
    (json.dumps({"v": 2, "seq": 1, "prompt": "p1", "kind": "range", "data": {}}).encode(), "version"),
    (json.dumps({"v": 1, "seq": 1, "prompt": "p1", "kind": "range", "data": {"bottom": 1, "top": "2"}}).encode(),
     "bottom not text"),
    (json.dumps({"v": 1, "seq": 1, "prompt": "p1", "kind": "range", "id": "h2",
                 "data": {"bottom": "1", "top": "2"}}).encode(), "id does not match"),
]


@pytest.mark.parametrize(("payload", "reason"), BAD_PAYLOADS)
def test_bad_payloads_get_an_error_ack(hub: Hub, any_broker: RunningBroker, box_id: str,
                                      payload: bytes, reason: str) -> None:
    ann = Raw(box_id, "h1", connection_of(any_broker))
    try:
        ann.hello()
        _start_guess(hub, ann)
        ann.wait("prompt", 2)
        ann.send("input", payload)
        ack = ann.wait("ack")
        assert ack["ok"] is False and reason in ack["msg"]
        assert hub.session.flow is not None and hub.session.flow.log() == []
    finally:
        ann.stop()


def test_unknown_and_unaccepted_handsets_are_refused(any_broker: RunningBroker, box_id: str) -> None:
    with Hub(box_id, Session(time.monotonic), connection_of(any_broker), open_join=False) as hub:
        stranger = Raw(box_id, "h9", connection_of(any_broker))
        try:
            stranger.send("input", _range(1, {"id": "p1"}))
            assert "unknown" in stranger.wait("ack")["msg"]
            waiting = stranger.hello("Eve")
            assert waiting["kind"] == "info" and "accept" in waiting["text"]
            stranger.send("input", _range(2, waiting))
            assert "not accepted" in stranger.wait("ack", 2)["msg"]
            hub.command({"cmd": "accept", "handset": "h9"})
            assert "Eve" in stranger.wait("prompt", 2)["text"]
            assert hub.refused == 2
        finally:
            stranger.stop()


def test_a_handset_cannot_answer_for_another(hub: Hub, any_broker: RunningBroker, box_id: str) -> None:
    ann = Raw(box_id, "h1", connection_of(any_broker))
    bob = Raw(box_id, "h2", connection_of(any_broker))
    try:
        ann.hello()
        bob.hello("Bob")
        _start_guess(hub, ann, bob)
        ann_q = ann.wait("prompt", 2)
        bob.wait("prompt", 2)
        # Bob publishes on his own topic, claiming Ann's id in the payload
        bob.send("input", _range(1, ann_q, id="h1"))
        assert "id does not match" in bob.wait("ack")["msg"]
        # Bob answers with Ann's prompt id on his own topic: the prompt is not his
        bob.send("input", _range(2, ann_q))
        assert bob.wait("ack", 2)["ok"] is False
        assert hub.session.flow is not None and hub.session.flow.log() == []
    finally:
        ann.stop()
        bob.stop()


def test_board_state_is_retained_and_public(hub: Hub, any_broker: RunningBroker, box_id: str) -> None:
    ann = Raw(box_id, "h1", connection_of(any_broker))
    try:
        ann.hello()
        _start_guess(hub, ann)
        question = ann.wait("prompt", 2)
        ann.send("input", _range(1, question, "7", "9"))
        ann.wait("ack")
        boards: list[dict[str, Any]] = []
        got = threading.Event()

        def on_board(topic: str, payload: bytes) -> None:
            boards.append(json.loads(payload))
            got.set()

        late = Client(f"tv-{box_id}", connection_of(any_broker), on_board,
                      subscriptions=[protocol.board_topic(box_id)]).start()
        try:
            assert got.wait(10), "a late subscriber gets the retained board"
            board = boards[-1]
            assert board["scene"] == "playing" and board["view"]["answered"] == ["P0"]
            assert "7" not in json.dumps(board["view"])  # the range itself stays secret
        finally:
            late.stop()
    finally:
        ann.stop()
