"""A small whole game through mosquitto with simulated handsets (the firmware's handset core), including a
handset that drops off mid-question, comes back and gets its prompt again."""

from __future__ import annotations

import time

from appliance.box.sim import SimHandset
from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.flows import flow_factory
from appliance.session.session import Session
from tests.conftest import connection_of
from tests.support import guess  # noqa: F401  (registers the test game)

CARDS = [{"id": "c1", "question": "Legs on a spider?", "answer": "8"},
         {"id": "c2", "question": "Moons of Mars?", "answer": "2"}]


def test_whole_game_with_a_handset_that_drops_and_rejoins(mosquitto: MosquittoBroker, box_id: str) -> None:
    conn = connection_of(mosquitto)
    with Hub(box_id, Session(time.monotonic, flows=flow_factory), conn) as hub:
        ann = SimHandset(box_id, "ann", conn, name="Ann").start()
        bob = SimHandset(box_id, "bob", conn, name="Bob").start()
        try:
            for h in (ann, bob):
                h.wait_prompt("info")
            hub.command({"cmd": "start", "game": "guess", "cards": CARDS,
                         "seats": [{"player": "Ann", "handset": "ann"}, {"player": "Bob", "handset": "bob"}]})
            q1 = ann.wait_prompt("range")
            assert "spider" in q1["text"]
            ann.wait_ack(ann.submit({"bottom": "6", "top": "10"}))

            # Bob's Wi-Fi drops mid-question: the broker sends his last will, the hub marks him offline
            bob.wait_prompt("range")
            bob.drop()
            deadline = time.monotonic() + 10
            while hub.registry.get("bob").online and time.monotonic() < deadline:  # type: ignore[union-attr]
                time.sleep(0.02)
            assert not hub.registry.get("bob").online, "the last will marked Bob offline"  # type: ignore[union-attr]
            # paho reconnects by itself; the handset says hello and gets the same question back
            bob.wait_for(lambda h: h.client.connected.is_set(), timeout=15)
            again = bob.wait_prompt("range")
            assert again["text"] == q1["text"]
            bob.wait_ack(bob.submit({"bottom": "100", "top": "200"}))
            assert hub.registry.get("bob").online  # type: ignore[union-attr]

            hub.command({"cmd": "next"})  # reveal
            ann.wait_for(lambda h: h.prompt is not None and h.prompt["title"] == "Answer")
            hub.command({"cmd": "next"})  # question 2
            ann.wait_prompt("range")
            bob.wait_prompt("range")
            ann.wait_ack(ann.submit({"bottom": "2", "top": "2"}))
            bob.wait_ack(bob.submit({"bottom": "0", "top": "1"}))
            hub.command({"cmd": "next"})
            hub.command({"cmd": "next"})
            assert hub.session.state == "results"
            flow = hub.session.flow
            assert flow is not None
            assert flow.board()["scores"] == {"Ann": 2, "Bob": 0}
            inputs = [entry for entry in flow.log() if "player" in entry]
            assert len(inputs) == 4  # every input applied exactly once
            ann.wait_for(lambda h: h.prompt is not None and h.prompt["title"] == "Game over")
        finally:
            ann.stop()
            bob.stop()
