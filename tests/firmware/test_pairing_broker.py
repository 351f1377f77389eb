"""End to end on a real mosquitto with the box's accounts in its dynamic security plugin (as tests/security
runs it):
an unpaired Pi Zero handset is refused, asks to be paired with the code on its screen, the quizmaster
accepts that code, and the handset logs in with its own account and gets its prompt."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from luma.core.device import dummy

from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.edge.mqtt import Connection
from appliance.edge.pairing import pair_code
from appliance.flows import flow_factory
from appliance.session.session import Session
from firmware.pizero import config
from firmware.pizero.app import SECRET_FILE, App
from tests.faults.harness import wait_until
from tests.firmware.support import shows
from tests.security.dynsec_box import dynsec_box

pytestmark = pytest.mark.mqtt
BOX = "pub"


class Keys:
    def __init__(self) -> None:
        import queue

        self.events: queue.Queue[str] = queue.Queue()

    def close(self) -> None:
        pass


@pytest.fixture
def hub() -> Iterator[tuple[Hub, MosquittoBroker]]:
    with dynsec_box(BOX) as made:
        conn = Connection("127.0.0.1", made.broker.port, "appliance", made.passwords["appliance"])
        session = Session(time.monotonic, random.Random(1), flows=flow_factory)
        box = Hub(BOX, session, conn, open_join=False, pairing=made.pairing).start()
        try:
            yield box, made.broker
        finally:
            box.stop()


def test_an_unpaired_pizero_asks_is_accepted_and_plays(hub: tuple[Hub, MosquittoBroker], tmp_path: Path) -> None:
    box, broker = hub
    assert box.pairing is not None
    state = tmp_path / "state"
    state.mkdir()
    cfg = config.parse(json.dumps({"box": BOX, "handset": "pz1", "name": "Ann", "broker": {"keepalive": 5}}))
    app = App(cfg, "127.0.0.1", broker.port, dummy(width=128, height=64, mode="1"), Keys(), None, 100, state)
    secret = (state / SECRET_FILE).read_text()
    thread = threading.Thread(target=app.run, daemon=True)
    thread.start()
    try:
        wait_until(lambda: "pz1" in box.pairing.pending, 10, "pz1's pairing request at the hub")  # type: ignore[union-attr]
        request = box.pairing.pending["pz1"]
        assert (request.secret, request.name, request.code) == (secret, "Ann", pair_code(secret))
        assert not app.handset.online and box.registry.get("pz1") is None
        with app.lock:
            assert shows(app.handset.screen, "Pair code " + request.code)
        box.command({"cmd": "accept", "handset": "pz1", "code": pair_code(secret)})  # as read on its screen
        wait_until(lambda: app.handset.online and app.handset.prompt is not None, 20, "pz1 logs in, gets a prompt")
        with app.lock:
            prompt = app.handset.prompt
            assert prompt is not None and prompt["kind"] == "info" and "Ann" in prompt["text"]
            assert not shows(app.handset.screen, "Pair code " + request.code)
        assert not app.pairing.waiting and app.link.asked >= 1
        registered = box.registry.get("pz1")
        assert registered is not None and registered.name == "Ann"
    finally:
        app.stop()
        thread.join(5)
