"""The TV: the board fed from the retained public state over mosquitto, and the host buttons on gpiozero's
MockFactory (chosen explicitly) sending the same commands as the admin page."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from appliance.board import Board
from appliance.box.tv import TV
from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.flows import flow_factory
from appliance.infra.config import GpioConfig
from appliance.session.session import Session
from tests.conftest import connection_of
from tests.support import guess  # noqa: F401
from tests.test_hub import CARDS, Raw


@pytest.fixture
def table(mosquitto: MosquittoBroker, box_id: str) -> Iterator[tuple[Hub, Raw]]:
    with Hub(box_id, Session(time.monotonic, flows=flow_factory), connection_of(mosquitto)) as hub:
        ann = Raw(box_id, "h1", connection_of(mosquitto))
        ann.hello()
        try:
            yield hub, ann
        finally:
            ann.stop()


def test_the_board_shows_the_public_state_and_the_buttons_drive_the_game(
        table: tuple[Hub, Raw], mosquitto: MosquittoBroker, box_id: str) -> None:
    hub, ann = table
    commands: list[dict[str, Any]] = []

    def command(cmd: Any) -> None:
        commands.append(dict(cmd))
        hub.command(cmd)

    factory = MockFactory()
    board = Board((640, 360), "headless")
    gpio = GpioConfig(enabled=True, next_pin=17, pause_pin=27, led_pin=22)
    stop = threading.Event()
    with TV(box_id, connection_of(mosquitto), board, command, {"url": "http://x/join", "address": "x"},
            gpio=gpio, pin_factory=factory) as tv:
        loop = threading.Thread(target=board.run, args=(stop,))
        loop.start()
        try:
            assert tv.shown.wait(10)
            hub.command({"cmd": "start", "game": "guess", "cards": CARDS,
                         "seats": [{"player": "Ann", "handset": "h1"}]})
            deadline = time.monotonic() + 10
            while board._state.get("scene") != "playing" and time.monotonic() < deadline:
                time.sleep(0.02)
            assert board._state["scene"] == "playing" and board._state["join"]["url"] == "http://x/join"
            next_pin = factory.pin(17)
            next_pin.drive_low()  # the quizmaster presses NEXT (buttons pull up: pressed is low)
            next_pin.drive_high()
            pause_pin = factory.pin(27)
            deadline = time.monotonic() + 10
            while not (hub.session.flow and hub.session.flow.board()["revealed"]) and time.monotonic() < deadline:
                time.sleep(0.02)
            assert hub.session.flow is not None and hub.session.flow.board()["revealed"] is True
            pause_pin.drive_low()
            pause_pin.drive_high()
            deadline = time.monotonic() + 10
            while hub.session.paused_at is None and time.monotonic() < deadline:
                time.sleep(0.02)
            assert hub.session.paused_at is not None
            assert [c["cmd"] for c in commands] == ["next", "pause"]
            deadline = time.monotonic() + 10
            while board.frames == 0 and time.monotonic() < deadline:
                time.sleep(0.02)
            assert board.frames > 0 and board.snapshot_png().startswith(b"\x89PNG")
        finally:
            stop.set()
            loop.join(timeout=10)
