"""The heartbeat and the hello's ``acked`` (issue 17): the payloads, and a real hub whose heartbeat stops
while its lock is stuck, so that a hung box is "not answering" too."""

from __future__ import annotations

import threading
import time

import pytest

from appliance.box.pulse import Pulse
from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.edge.mqtt import Client, Connection
from appliance.flows import flow_factory
from appliance.session.session import Session
from firmware import protocol
from tests.deploy.test_units import unit
from tests.faults.harness import wait_until


def test_a_hello_may_say_the_last_input_the_box_acked() -> None:
    hello = protocol.parse_hello("h1", protocol.make_hello("h1", "Ann", acked=(7, "a1b2c3-p12")))
    assert hello["acked"] == {"seq": 7, "prompt": "a1b2c3-p12"}
    assert "acked" not in protocol.parse_hello("h1", protocol.make_hello("h1", "Ann"))  # optional
    for bad in ({"seq": -1, "prompt": "p"}, {"seq": 1}, {"seq": 1, "prompt": ""}, {"seq": True, "prompt": "p"},
                {"seq": 1, "prompt": "x" * 40}, "7"):
        with pytest.raises(protocol.ProtocolError):
            protocol.parse_hello("h1", {**protocol.make_hello("h1"), "acked": bad})


def test_the_handset_core_says_its_last_ok_ack_in_its_hello() -> None:
    from firmware.core.handset import Handset

    sent: list[tuple[str, bytes]] = []

    class Wire:
        def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
            sent.append((topic, payload))

        def subscribe(self, topic: str) -> None:
            return None

    core = Handset("box", "h1", Wire(), clock_ms=lambda: 0)
    core.connected()
    assert "acked" not in protocol.decode(sent[-1][1])
    prompts, acks = protocol.prompt_topic("box", "h1"), protocol.ack_topic("box", "h1")
    core.on_message(prompts, protocol.encode(protocol.make_prompt("abc123-p4", protocol.RANGE, "Q1", "Legs?")))
    seq = core.submit({"bottom": "1", "top": "8"})
    core.on_message(acks, protocol.encode(protocol.make_ack(seq, True, "locked in", "abc123-p4")))
    core.on_message(prompts, protocol.encode(protocol.make_prompt("abc123-p5", protocol.RANGE, "Q2", "Arms?")))
    refused = core.submit({"bottom": "1", "top": "2"})
    core.on_message(acks, protocol.encode(protocol.make_ack(refused, False, "no", "abc123-p5")))
    # an ok ack of no input this handset sent is not its last acked input (firmware/core/handset.py)
    core.on_message(acks, protocol.encode(protocol.make_ack(refused + 40, True, "?", "abc123-p9")))
    core.connected()
    assert protocol.decode(sent[-1][1])["acked"] == {"seq": seq, "prompt": "abc123-p4"}


def test_heartbeat_payload_and_staleness() -> None:
    beat = protocol.parse_heartbeat(protocol.make_heartbeat(1_700_000_000_000, "abc123"))
    assert beat == {"at": 1_700_000_000_000, "every": protocol.HEARTBEAT_MS, "boot": "abc123"}
    for bad in ({"v": 1, "at": -1, "every": 2000, "boot": "b"}, {"v": 1, "at": 1, "every": 0, "boot": "b"},
                {"v": 1, "at": 1, "every": 2000, "boot": ""}, {"v": 2, "at": 1, "every": 2000, "boot": "b"}):
        with pytest.raises(protocol.ProtocolError):
            protocol.parse_heartbeat(bad)
    assert protocol.box_answering(10_000, 10_000 + protocol.STALE_MS - 1)
    assert not protocol.box_answering(10_000, 10_000 + protocol.STALE_MS)
    assert not protocol.box_answering(None, 0)


@pytest.mark.mqtt
@pytest.mark.timeout(30)
def test_a_hub_whose_lock_is_stuck_sends_no_heartbeat(broker: MosquittoBroker) -> None:
    conn = Connection("127.0.0.1", broker.port)
    beats: list[float] = []
    listener = Client("hb-listen", conn, lambda t, p: beats.append(time.monotonic()),
                      subscriptions=[protocol.appliance_heartbeat_topic("hbbox")]).start()
    with Hub("hbbox", Session(time.monotonic, flows=flow_factory), conn) as hub:
        pulse = Pulse(hub, every_ms=100).start()
        try:
            wait_until(lambda: len(beats) >= 3, 5, "heartbeats")
            released = threading.Event()

            def stuck() -> None:
                with hub.outbox:
                    released.wait(5)

            holder = threading.Thread(target=stuck)
            holder.start()
            time.sleep(0.3)
            during = len(beats)
            time.sleep(0.8)
            assert len(beats) - during <= 1  # at most one that was on its way
            released.set()
            holder.join()
            wait_until(lambda: len(beats) >= during + 3, 5, "heartbeats again")
        finally:
            pulse.stop()
    listener.stop()


def test_systemd_never_gives_up_on_the_box() -> None:
    service = unit("quizbox.service")
    assert service["Unit"]["StartLimitIntervalSec"] == "0"
    assert "StartLimitBurst" not in service["Unit"]
    assert service["Service"]["Restart"] == "on-failure" and int(service["Service"]["RestartSec"]) >= 2
    assert "RestartSteps" not in service["Service"]  # unknown to Debian bookworm's systemd 252
    from pathlib import Path

    from tests.deploy.tools import REPO

    backoff = (Path(REPO) / "systemd" / "quizbox.service.d" / "backoff.conf").read_text()
    assert "RestartSteps=" in backoff and "RestartMaxDelaySec=" in backoff
