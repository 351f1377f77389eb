"""The appliance link's answer matching (against a real hub through mosquitto) and the throttles."""

from __future__ import annotations

import json
import time

import pytest

from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.edge.mqtt import Connection
from appliance.flows import flow_factory
from appliance.session.session import Session
from tests.conftest import connection_of
from web.link import LinkError, MqttLink
from web.throttle import RateLimit


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_rate_limit_per_key_and_window() -> None:
    clock = Clock()
    limit = RateLimit(2, 10, clock=clock)
    assert limit.allow("x") and limit.allow("x") and not limit.allow("x") and limit.allow("y")
    clock.now += 11
    assert limit.allow("x")


@pytest.mark.mqtt
def test_the_link_gets_the_hubs_answer_to_its_own_command(mosquitto: MosquittoBroker, box_id: str) -> None:
    conn = connection_of(mosquitto)
    link = MqttLink(box_id, conn)
    with pytest.raises(LinkError, match="cannot reach"):
        link.command({"cmd": "next"})
    link.start(wait=10)
    try:
        with pytest.raises(LinkError, match="not running"):
            link.command({"cmd": "next"})
        with Hub(box_id, Session(time.monotonic, flows=flow_factory), conn) as hub:
            deadline = time.monotonic() + 10
            while not link.appliance_online() and time.monotonic() < deadline:
                time.sleep(0.02)
            refused = link.command({"cmd": "next"})
            assert not refused.ok and refused.msg == "no game is running"
            unknown = link.command({"cmd": "fly"})
            assert not unknown.ok and "unknown command" in unknown.msg
            assert link.board() is not None and link.board()["scene"] == "lobby"  # type: ignore[index]
            assert link.admin_state() is not None
            assert hub.refused == 0
        deadline = time.monotonic() + 10
        while link.appliance_online() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not link.appliance_online()  # the hub's last will / clean offline
    finally:
        link.stop()


def test_an_unreadable_message_is_ignored() -> None:
    link = MqttLink("box", Connection("127.0.0.1", 1))
    before = link.version()
    link._on_message("quizbox/box/board", b"{not json")  # noqa: SLF001
    link._on_message("quizbox/box/board", json.dumps([1, 2]).encode())  # noqa: SLF001
    assert link.board() is None and link.version() == before
