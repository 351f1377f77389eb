"""State that cannot lie (issue 17): after a broker crash its saved retained state says
``appliance/status`` online for a box that died meanwhile. The admin page, the doctor and the handsets
judge the box by its heartbeat's time instead, and say "the box is not answering" once it is stale."""

from __future__ import annotations

import os
import signal
import tempfile
import time
from pathlib import Path

import pytest

from appliance.box import doctor
from appliance.edge.broker import MosquittoBroker
from appliance.edge.mqtt import Client, Connection
from appliance.infra.config import load_config
from firmware import protocol
from tests.conftest import _need_mosquitto
from tests.faults.harness import Table, wait_until
from tests.faults.test_optional_parts import browser
from web.link import MqttLink

SEED = 31


def retained(connection: Connection, topic: str) -> bytes | None:
    seen: dict[str, bytes] = {}
    client = Client(f"peek-{time.monotonic_ns()}", connection, seen.__setitem__, subscriptions=[topic]).start()
    time.sleep(0.5)
    client.stop()
    return seen.get(topic)


@pytest.mark.slow
@pytest.mark.mqtt
@pytest.mark.timeout(90)
def test_a_dead_box_is_not_answering_though_the_restarted_broker_kept_its_online(tmp_path: Path) -> None:
    _need_mosquitto()
    # the broker keeps its retained messages on disk; mosquitto started as root writes as its own user,
    # which cannot enter pytest's private tmp_path
    folder = tempfile.TemporaryDirectory(prefix="quizbox-persist-")
    saved = Path(folder.name)
    saved.chmod(0o777)
    broker = MosquittoBroker(extra_config=f"persistence true\npersistence_location {saved}/\nautosave_interval 1\n")
    conn = Connection("127.0.0.1", broker.port)
    table = Table(tmp_path, broker.port, SEED, "stale")
    link = MqttLink(table.box, conn).start(wait=10)
    try:
        admin = browser(table, tmp_path)
        wait_until(link.appliance_online, 10, "the admin page sees the box")
        assert "Box running" in admin.get("/live/").get_data(as_text=True)
        wait_until(lambda: all(p.box_answering() for p in table.players), 10, "the handsets hear the heartbeat")
        time.sleep(2.5)  # the broker saves its retained messages (every second)
        os.kill(broker.pid, signal.SIGKILL)  # the broker crashes...
        table.app.kill9()  # ...and the box dies while it is down: no last will will ever be sent
        broker.restart()
        assert retained(conn, protocol.appliance_status_topic(table.box)) == b"online"  # the lie is there
        died = time.monotonic()
        wait_until(lambda: link.client.connected.is_set(), 15, "the admin page's link reconnected")
        wait_until(lambda: not link.appliance_online(), protocol.STALE_MS / 1000 + 3, "the link sees it stale")
        # the page's own link reconnected at its own moment: it too dates the retained beat by its time
        wait_until(lambda: "The box is not answering" in admin.get("/live/").get_data(as_text=True),
                   protocol.STALE_MS / 1000 + 3 - (time.monotonic() - died), "the page says it", step=0.1)
        assert time.monotonic() - died < protocol.STALE_MS / 1000 + 3
        assert "Box running" not in admin.get("/live/").get_data(as_text=True)
        fresh = MqttLink(table.box, conn).start(wait=10)  # an admin page started after the crash
        try:
            time.sleep(1.0)
            assert not fresh.appliance_online()
        finally:
            fresh.stop()
        finding = doctor.check_handsets(load_config(str(table.app.config)), doctor.Probes(listen_seconds=1.0),
                                        broker_ok=True)
        assert not finding.ok and "not answering" in finding.wrong and "heartbeat" in finding.wrong
        wait_until(lambda: all(p.client.connected.is_set() for p in table.players), 15, "handsets reconnected")
        wait_until(lambda: not any(p.box_answering() for p in table.players), protocol.STALE_MS / 1000 + 3,
                   "the handsets see it stale")
        # the box starts again: everyone sees it answering within a heartbeat or two
        onlines = table.observer.onlines
        table.app.start()
        table.observer.wait_online(onlines)
        wait_until(link.appliance_online, 10, "the page sees the box back")
        wait_until(lambda: all(p.box_answering() for p in table.players), 10, "the handsets see it back")
    finally:
        link.stop()
        table.close()
        broker.stop()
        folder.cleanup()
