"""Issue 16's attacks, as a guest on the pub's Wi-Fi would make them, against the box's real mosquitto
(dynamic security plugin, message_size_limit) with the hub and paired handsets running.

Each test says what the attack did before the fix; docs/security.md lists them as the threat model."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from appliance.edge.hub import Hub
from appliance.edge.mqtt import Connection
from appliance.edge.pairing import (
    PAIRING_PASSWORD,
    PAIRING_USER,
    PairingError,
    pair_code,
    pairing_topic,
    request_payload,
)
from appliance.flows import flow_factory
from appliance.session.session import Session
from firmware import protocol
from tests.faults.harness import wait_until
from tests.security.test_broker_accounts import BOX, NOT_AUTHORISED, Box
from tests.security.test_broker_accounts import box as box  # noqa: F401  (the fixture)
from tests.test_hub import CARDS

pytestmark = pytest.mark.mqtt


def _count_drops(paho: mqtt.Client) -> list[object]:
    """Every disconnect of ``paho`` from now on."""
    drops: list[object] = []
    before: Any = paho.on_disconnect

    def counted(*args: Any) -> None:
        drops.append(args)
        if before is not None:
            before(*args)

    paho.on_disconnect = counted
    return drops


def _try(port: int, user: str | None, password: str | None, client: str) -> int:
    """Log in as ``user`` with client id ``client``, stay a moment, leave; the CONNACK code."""
    got: list[int] = []
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client)
    if user is not None:
        c.username_pw_set(user, password)
    c.on_connect = lambda cl, u, f, rc, p: got.append(rc.value)
    c.connect("127.0.0.1", port)
    deadline = time.monotonic() + 3
    while not got and time.monotonic() < deadline:
        c.loop(0.01)  # this thread's own loop: no reconnect delay after a refusal
    c.loop(0.02)
    c.disconnect()
    return got[0] if got else -1


def test_no_public_credential_and_no_client_id_from_the_board_knocks_anyone_off(box: Box) -> None:
    """Before: the public pairing account with client id quizbox-<box>-hub disconnected the hub (10 of 14
    inputs unanswered in 20 s), and handset-<box>-<id> any handset."""
    for handset, name in (("h1", "Ann"), ("h2", "Bob")):
        box.pair(handset, name)
    ann, bob = box.handset("h1", "Ann"), box.handset("h2", "Bob")
    box.hub.command({"cmd": "start", "game": "guess", "cards": CARDS,
                     "seats": [{"player": "Ann", "handset": "h1"}, {"player": "Bob", "handset": "h2"}]})
    ann.wait_prompt("range")
    bob.wait_prompt("range")
    # everything public: the board as a handset reads it, and the ids in it
    reader = box.login("web")  # reads the board as every handset can
    reader.subscribe(protocol.board_topic(BOX))
    board = json.loads(reader.received()[-1][1])
    ids = {BOX} | set(_ids(board))
    assert {"h1", "h2"} <= ids
    guesses = set()
    for i in ids:
        guesses |= {i, f"quizbox-{i}-hub", f"quizbox-{i}-web", f"quizbox-{i}-pairing", f"handset-{BOX}-{i}",
                    f"sim-{BOX}-{i}", f"pair-{BOX}-{i}", f"pair-{i}", f"{i}-hub", f"quizbox-{BOX}-{i}"}
    drops = {"hub": _count_drops(box.hub.client.paho), "h1": _count_drops(ann.client.paho),
             "h2": _count_drops(bob.client.paho)}
    for user, password in ((None, None), (PAIRING_USER, PAIRING_PASSWORD), ("", "")):
        for guess in sorted(guesses):
            _try(box.broker.port, user, password, guess)
    box.pairing.ensure_service_account()  # what the appliance does at every start: it changes nothing live
    time.sleep(0.5)
    assert {k: len(v) for k, v in drops.items()} == {"hub": 0, "h1": 0, "h2": 0}, f"{len(guesses)} ids tried"
    seq = ann.submit({"bottom": "1", "top": "10"})
    assert ann.wait_ack(seq)["ok"] is True  # the hub still answers
    # the check can see a takeover: with the hub's real client id (which nothing public shows) it does
    assert _try(box.broker.port, PAIRING_USER, PAIRING_PASSWORD, box.hub.client.client_id) == 0
    wait_until(lambda: len(drops["hub"]) > 0, 5, "the hub dropped by its own client id")


def _ids(value: object) -> list[str]:
    """Every id-like value in the board: what any guest's phone can read."""
    if isinstance(value, dict):
        return [x for k, v in value.items()
                for x in ([v] if k in ("id", "handset", "box") and isinstance(v, str) else _ids(v))]
    if isinstance(value, list):
        return [x for v in value for x in _ids(v)]
    return []


def _matching_secret(code: str, avoid: str) -> tuple[str, int]:
    """A secret whose pair code is ``code`` (what the attacker computes: ~10,000 hashes) and the tries."""
    for n in range(1_000_000):
        secret = f"forged-secret-{n:08d}"
        if secret != avoid and pair_code(secret) == code:
            return secret, n + 1
    raise AssertionError("no secret found")


def test_a_forged_request_with_the_same_code_cannot_steal_a_handset(box: Box) -> None:
    """Before: 16 junk requests evicted the real one, a forged one with a matching code (9,350 tries) was
    listed with its code pre-filled, and accepting it gave the attacker the account."""
    web = box.login("web")
    web.subscribe(protocol.admin_state_topic(BOX))
    real = "the-real-handset-secret-1"
    asking = box.login(PAIRING_USER, PAIRING_PASSWORD)
    asking.publish(pairing_topic(BOX, "h1"), request_payload("h1", real, "Ann"))
    wait_until(lambda: "h1" in box.pairing.pending, 5, "the real request")
    forged, tries = _matching_secret(pair_code(real), real)
    assert tries < 100_000
    thief = box.login(PAIRING_USER, PAIRING_PASSWORD)
    thief.publish(pairing_topic(BOX, "h1"), request_payload("h1", forged, "Ann"))
    wait_until(lambda: "h1" in box.pairing.conflicts, 5, "the conflict seen")
    for code in (pair_code(real), pair_code(forged)):
        with pytest.raises(PairingError, match="(?i)two devices"):
            box.hub.command({"cmd": "accept", "handset": "h1", "code": code})
    asking.publish(pairing_topic(BOX, "h1"), request_payload("h1", real, "Ann"))  # the real one asks again
    time.sleep(0.3)
    with pytest.raises(PairingError, match="(?i)two devices"):
        box.hub.command({"cmd": "accept", "handset": "h1", "code": pair_code(real)})
    state = json.loads(web.received()[-1][1])
    assert state["pairing"] == {"h1": {"name": None, "conflict": True}}
    assert any("Two devices ask to be handset h1" in w for w in state["pairing_warnings"])
    assert box.login("h1", forged).rc in NOT_AUTHORISED and box.login("h1", real).rc in NOT_AUTHORISED
    # the quizmaster removes the requests; the real handset asks again and is paired with its code
    box.hub.command({"cmd": "remove", "handset": "h1"})  # the admin page's "Remove both requests"
    assert "h1" not in box.pairing.conflicts
    asking.publish(pairing_topic(BOX, "h1"), request_payload("h1", real, "Ann"))
    wait_until(lambda: "h1" in box.pairing.pending, 5, "the real request again")
    box.hub.command({"cmd": "accept", "handset": "h1", "code": pair_code(real)})
    assert box.login("h1", real).rc == 0


def test_accepting_needs_the_code_typed(box: Box) -> None:
    asking = box.login(PAIRING_USER, PAIRING_PASSWORD)
    asking.publish(pairing_topic(BOX, "h1"), request_payload("h1", "the-secret-of-h1-here", "Ann"))
    wait_until(lambda: "h1" in box.pairing.pending, 5, "the request")
    for code in (None, "", "0000" if pair_code("the-secret-of-h1-here") != "0000" else "1111"):
        with pytest.raises(PairingError):
            box.hub.command({"cmd": "accept", "handset": "h1", **({} if code is None else {"code": code})})
    assert box.login("h1", "the-secret-of-h1-here").rc in NOT_AUTHORISED


def test_a_pairing_flood_does_not_make_the_hub_deaf(box: Box) -> None:
    """Before: 15,000 requests a second from one connection made the hub deaf for the flood and 22 s
    after. Now they come on the pairing desk's own connection, read fairly per id (issue 32)."""
    players = [(f"h{n}", f"P{n}") for n in range(1, 13)]
    for handset, name in players:
        box.pair(handset, name)
    sims = [box.handset(handset, name) for handset, name in players]
    box.hub.command({"cmd": "start", "game": "guess", "cards": CARDS,
                     "seats": [{"player": name, "handset": handset} for handset, name in players]})
    for sim in sims:
        sim.wait_prompt("range")
    flooder = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="flood")
    flooder.username_pw_set(PAIRING_USER, PAIRING_PASSWORD)
    flooder.connect("127.0.0.1", box.broker.port)
    flooder.loop_start()
    stop = threading.Event()
    sent = [0]

    def flood() -> None:
        while not stop.is_set():
            n = sent[0]
            junk = f"x{n % 5000}"
            flooder.publish(pairing_topic(BOX, junk), request_payload(junk, f"flood-secret-{n:09d}"))
            sent[0] += 1

    thread = threading.Thread(target=flood, daemon=True)
    thread.start()
    time.sleep(1.0)
    answered = []
    try:
        for sim in sims:  # each player's input during the flood, acked
            t0 = time.monotonic()
            seq = sim.submit({"bottom": "1", "top": "10"})
            assert sim.wait_ack(seq, timeout=5)["ok"] is True
            answered.append(time.monotonic() - t0)
        flooded = sent[0]
    finally:
        stop.set()
        thread.join(5)
        flooder.disconnect()
        flooder.loop_stop()
    # the desk's thread, in this process beside the flood, may read its backlog only once the flood stops
    # (once, in a full run, it had read none of it when this was checked at once)
    # (issue 32: the desk reads each id fairly; a flood of new ids is refused unread once 64 wait)
    unread = lambda: box.pairing.dropped + box.pairing.refused_full  # noqa: E731
    wait_until(lambda: unread() > 0, 10, "the pairing desk dropping the flood unread")
    ordered = sorted(answered)
    p50, p95 = ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    print(f"pairing flood: {flooded} requests sent; {len(answered)} inputs acked during it, p50 "
          f"{p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms; {unread()} dropped or refused unread by the desk")
    assert len(answered) == len(sims) and p95 < 2.0, (answered, flooded)
    assert flooded > 2000, flooded  # requests sent before the input was answered


def test_retained_requests_are_ignored_and_cleared(box: Box) -> None:
    """Before: a retained pairing request came back after every restart."""
    asking = box.login(PAIRING_USER, PAIRING_PASSWORD)
    asking.client.publish(pairing_topic(BOX, "h7"), request_payload("h7", "a-retained-secret-x"), qos=1,
                          retain=True).wait_for_publish(5)
    wait_until(lambda: box.pairing.cleared >= 1, 5, "the retained request cleared")
    assert "h7" not in box.pairing.pending  # never read, even by the desk that was subscribed already
    # a restart of the appliance's hub: nothing comes back
    conn = Connection("127.0.0.1", box.broker.port, "appliance", box.passwords["appliance"])
    import random

    session = Session(time.monotonic, random.Random(2), flows=flow_factory)
    again = Hub(BOX, session, conn, open_join=False, pairing=box.pairing).start()
    try:
        assert again.desk is not None and again.desk.connected.wait(5)
        time.sleep(0.5)
        assert "h7" not in box.pairing.pending and box.pairing.cleared == 1
    finally:
        again.stop()


def test_a_huge_message_is_dropped_by_the_broker(box: Box) -> None:
    """Before: no message_size_limit (a 200 MB publish was accepted; 32 MB took mosquitto from 15 to 127 MB)."""
    appliance = box.login("appliance")
    appliance.subscribe(f"quizbox/{BOX}/#")
    appliance.received(0.2)
    asking = box.login(PAIRING_USER, PAIRING_PASSWORD)
    asking.client.publish(pairing_topic(BOX, "h8"), b"x" * (4 * 1024 * 1024), qos=0)
    small = asking.client.publish(pairing_topic(BOX, "h9"), request_payload("h9", "a-small-secret-here"), qos=1)
    small.wait_for_publish(5)
    got = [t for t, _ in appliance.received(1.0)]
    assert pairing_topic(BOX, "h9") in got and pairing_topic(BOX, "h8") not in got
    assert box.broker.alive()
