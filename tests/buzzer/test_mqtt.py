"""The buzzer over a real mosquitto: simulated handsets (the firmware's handset core) whose clocks are
hours apart and whose every message is delayed up to 80 ms, answering the hub's clock pings; presses 40 ms
apart arrive scrambled (the first presser has the slowest network) and are still declared in the order
they happened.

The hub, session and handset core carry the buzzer's wiring through tests/buzzer/wiring.py (SyncedHub,
CommandSession, answer_pings) until appliance/edge/hub.py, appliance/session/session.py and
firmware/core/handset.py have those lines themselves.
"""

from __future__ import annotations

import functools
import random
import time

from appliance.box.sim import SimHandset
from appliance.edge.broker import MosquittoBroker
from appliance.edge.clocksync import ClockSync
from appliance.edge.mqtt import Client
from appliance.flows import flow_factory
from firmware import protocol
from tests.buzzer.wiring import CommandSession, SyncedHub, answer_pings, wait_until
from tests.conftest import connection_of

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def test_presses_are_declared_in_the_order_they_happened(mosquitto: MosquittoBroker, box_id: str) -> None:
    rng = random.Random(4)
    conn = connection_of(mosquitto)
    session = CommandSession(time.monotonic, random.Random(1), flows=flow_factory)
    hub = SyncedHub(box_id, session, conn, tick_interval=0.02)
    with hub:
        handsets = []
        slow = (0.06, 0.08), (0.0, 0.02), (0.0, 0.08), (0.0, 0.08)  # seconds each way, per message
        for i, name in enumerate(NAMES):
            sim = SimHandset(box_id, f"b{i}", conn, name=name)
            answer_pings(sim, offset_ms=rng.randint(0, 10**9), delay=functools.partial(rng.uniform, *slow[i]))
            handsets.append(sim.start())
        try:
            for sim in handsets:
                sim.wait_prompt("info")
            hub.command({"cmd": "start", "game": "buzzer", "options": {"settle_ms": 300},
                         "cards": [{"id": "c1", "question": "Which planet has the most moons?"}]})
            # the round's burst of pings: every handset's offset is measured before the buzzers are armed
            wait_until(lambda: all((e := hub.clocks.estimate(s.id, hub._ms())) is not None and e.samples >= 5
                                   for s in handsets), 15, "clock samples from every handset")
            early = handsets[3]
            early.wait_prompt("buzz")
            early.wait_ack(early.submit({"pressed": early.core.clock_ms()}))  # before arming: locked out
            assert early.acks[-1]["msg"] == "too early: locked out"
            assert hub.command({"cmd": "arm"})["msg"] == "buzzers armed"
            pressing = handsets[:3]  # Ann first (on the slowest network), then Bob, then Cat
            for sim in pressing:
                sim.wait_for(lambda h: h.prompt is not None and h.prompt.get("armed") is True)
            seqs = []
            for sim in pressing:  # 40 ms apart, each stamped with its own clock; 0-80 ms on the way
                seqs.append(sim.submit({"pressed": sim.core.clock_ms()}))
                time.sleep(0.04)
            for sim, seq in zip(pressing, seqs, strict=True):
                assert sim.wait_ack(seq)["msg"] == "buzzed!"
            flow = session.flow
            assert flow is not None
            wait_until(lambda: flow.board()["phase"] == "answering", 5, "the settle window")
            declared = []
            while flow.board()["answering"] is not None:
                declared.append(flow.board()["answering"])
                hub.command({"cmd": "wrong"})
            assert declared == [s.core.name for s in pressing]
            arrived = [e["player"] for e in flow.log() if e["kind"] == "press" and e["player"] != "Dan"]
            assert arrived != declared  # Ann's press arrived after Bob's
            assert flow.board()["locked_out"] == ["Dan"]
            assert hub.clocks.dropped == 0
        finally:
            for sim in handsets:
                sim.stop()


def test_clock_pings_are_rare_until_a_buzzer_round_starts(mosquitto: MosquittoBroker, box_id: str) -> None:
    # Issue 22: pings every second to every handset through a poker game were messages the hub handled
    # between the bets; only the buzzer needs them that often.
    conn = connection_of(mosquitto)
    clocks = ClockSync(period_ms=100, idle_period_ms=1000, burst=1)
    session = CommandSession(time.monotonic, random.Random(1), flows=flow_factory)
    hub = SyncedHub(box_id, session, conn, tick_interval=0.02, clocks=clocks)
    pings: list[float] = []
    with hub, SimHandset(box_id, "b0", conn, name="Ann") as sim, SimHandset(box_id, "b1", conn, name="Bob") as bob:
        sim.wait_prompt("info")
        bob.wait_prompt("info")
        listener = Client(f"pings-{box_id}", conn, lambda _t, _p: pings.append(time.monotonic()),
                          subscriptions=[protocol.time_topic(box_id, "b0")]).start()
        try:
            time.sleep(2.0)  # the lobby
            in_lobby = len(pings)
            hub.command({"cmd": "start", "game": "buzzer", "cards": [{"id": "c1", "question": "Moons of Mars?"}],
                         "seats": [{"player": "Ann", "handset": "b0"}, {"player": "Bob", "handset": "b1"}]})
            sim.wait_prompt("buzz")
            started = len(pings)
            time.sleep(1.0)
            in_round = len(pings) - started
        finally:
            listener.stop()
    assert in_lobby <= 3, f"{in_lobby} pings in 2 s of lobby (one every idle period: 1 s)"
    assert in_round >= 7, f"{in_round} pings in 1 s of a buzzer round (one every 100 ms)"
