"""The box's broker as pairing configures it, on a real mosquitto with the generated password file and ACL:
strangers cannot log in, a handset pairs with its own secret and plays, a paired handset cannot publish as
another or read another's prompt, the public pairing account can only ask, a removed handset is locked
out, and the hub ignores a handset topic whose id has no account (topic = credentials = seat)."""

from __future__ import annotations

import json
import queue
import random
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from appliance.box.sim import SimHandset
from appliance.edge.accounts import client_id
from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.edge.mqtt import Connection
from appliance.edge.pairing import (
    MAX_PENDING,
    PAIRING_PASSWORD,
    PAIRING_USER,
    Pairing,
    pair_code,
    pairing_topic,
    request_payload,
)
from appliance.flows import flow_factory
from appliance.session.session import Session
from firmware import protocol
from tests.faults.harness import wait_until
from tests.security.dynsec_box import dynsec_box
from tests.support import guess  # noqa: F401  (registers the test game)
from tests.test_hub import CARDS

pytestmark = pytest.mark.mqtt
BOX = "pub"
NOT_AUTHORISED = (4, 5, 134, 135)


class Login:
    """A bare paho client logging in with a user name and password; records what it receives."""

    def __init__(self, broker: MosquittoBroker, user: str | None, password: str | None = None,
                 client: str | None = None) -> None:
        self.inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
        connack: queue.Queue[int] = queue.Queue()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client or f"t-{user}-{time.monotonic_ns()}")
        if user is not None:
            self.client.username_pw_set(user, password)
        self.client.on_connect = lambda c, u, f, rc, p: connack.put(rc.value)
        self.client.on_message = lambda c, u, m: self.inbox.put((m.topic, bytes(m.payload)))
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        self.rc = connack.get(timeout=5)
        if self.rc:
            self.close()

    def subscribe(self, *topics: str) -> None:
        done: queue.Queue[object] = queue.Queue()
        self.client.on_subscribe = lambda *a: done.put(a)
        for topic in topics:
            self.client.subscribe(topic, qos=1)
            done.get(timeout=5)

    def publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(timeout=5)

    def received(self, wait: float = 0.5) -> list[tuple[str, bytes]]:
        """Everything received within ``wait`` seconds of quiet."""
        out = []
        try:
            while True:
                out.append(self.inbox.get(timeout=wait))
        except queue.Empty:
            return out

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@dataclass
class Box:
    broker: MosquittoBroker
    pairing: Pairing
    hub: Hub
    passwords: dict[str, str]
    logins: list[Login]
    sims: list[SimHandset]

    def login(self, user: str | None, password: str | None = None, client: str | None = None) -> Login:
        password = self.passwords.get(user or "", "") if password is None else password
        if client is None and user and password and user not in ("appliance", "web", PAIRING_USER):
            client = client_id(user, password)  # a handset's account works only with its own client id
        made = Login(self.broker, user, password, client)
        self.logins.append(made)
        return made

    def pair(self, handset: str, name: str) -> str:
        """What a handset does to get its account (and the quizmaster's accept): returns its secret."""
        secret = secrets.token_urlsafe(24)
        assert self.login(handset, secret).rc in NOT_AUTHORISED  # no account yet
        asking = self.login(PAIRING_USER, PAIRING_PASSWORD)
        assert asking.rc == 0
        asking.publish(pairing_topic(BOX, handset), request_payload(handset, secret, name))
        wait_until(lambda: handset in self.pairing.pending, 5, f"{handset}'s pairing request at the hub")
        # the quizmaster types the code the handset's screen shows
        self.hub.command({"cmd": "accept", "handset": handset, "code": pair_code(secret)})
        works = Login(self.broker, handset, secret, client_id(handset, secret))
        works.close()
        assert works.rc == 0  # at once: no reload
        self.passwords[handset] = secret
        return secret

    def handset(self, handset: str, name: str) -> SimHandset:
        conn = Connection("127.0.0.1", self.broker.port, handset, self.passwords[handset])
        sim = SimHandset(BOX, handset, conn, name=name).start()
        self.sims.append(sim)
        return sim


@pytest.fixture
def box() -> Iterator[Box]:
    with dynsec_box(BOX) as made_box:
        broker, pairing, passwords = made_box.broker, made_box.pairing, made_box.passwords
        conn = Connection("127.0.0.1", broker.port, "appliance", passwords["appliance"])
        session = Session(time.monotonic, random.Random(1), flows=flow_factory)
        hub = Hub(BOX, session, conn, open_join=False, pairing=pairing).start()
        assert hub.desk is not None and hub.desk.connected.wait(5)
        made = Box(broker, pairing, hub, passwords, [], [])
        try:
            yield made
        finally:
            for sim in made.sims:
                sim.stop()
            for login in made.logins:
                login.close()
            hub.stop()


def test_strangers_wrong_passwords_and_unpaired_handsets_cannot_log_in(box: Box) -> None:
    assert box.login(None).rc in NOT_AUTHORISED
    assert box.login("appliance", "guess").rc in NOT_AUTHORISED
    assert box.login("h1", "a-secret-never-paired").rc in NOT_AUTHORISED
    assert box.login("web").rc == 0 and box.login(PAIRING_USER, PAIRING_PASSWORD).rc == 0


def test_a_handset_pairs_with_its_own_secret_and_plays(box: Box) -> None:
    box.pair("esp32-a1b2c3", "Ann")
    ann = box.handset("esp32-a1b2c3", "Ann")
    lobby = ann.wait_prompt("info")
    assert "Ann" in lobby["text"]  # accepted: paired by the quizmaster's accept
    box.hub.command({"cmd": "start", "game": "guess", "cards": CARDS,
                     "seats": [{"player": "Ann", "handset": "esp32-a1b2c3"}]})
    ann.wait_prompt("range")
    seq = ann.submit({"bottom": "1", "top": "10"})
    assert ann.wait_ack(seq)["ok"] is True
    flow = box.hub.session.flow
    assert flow is not None and flow.log() == [{"player": "Ann", "range": ["1", "10"]}]


def test_a_handset_cannot_publish_as_another_or_read_its_prompt(box: Box) -> None:
    for handset, name in (("h1", "Ann"), ("h2", "Bob")):
        box.pair(handset, name)
    ann, bob = box.handset("h1", "Ann"), box.handset("h2", "Bob")
    box.hub.command({"cmd": "start", "game": "guess", "cards": CARDS,
                     "seats": [{"player": "Ann", "handset": "h1"}, {"player": "Bob", "handset": "h2"}]})
    bobs = bob.wait_prompt("range")
    ann.wait_prompt("range")
    spy = box.login("h1")  # Ann's credentials in a phone at the table
    spy.subscribe(f"quizbox/{BOX}/#", protocol.prompt_topic(BOX, "h2"), protocol.ack_topic(BOX, "h2"))
    # Bob's real prompt id (the spy cannot read it; say it was guessed) and a valid input for it
    spy.publish(protocol.input_topic(BOX, "h2"), protocol.encode(
        protocol.make_input(1, bobs["id"], "range", {"bottom": "1", "top": "2"})))
    spy.publish(protocol.hello_topic(BOX, "h2"), protocol.encode(protocol.make_hello("h2", "Mallory")))
    spy.publish(protocol.admin_command_topic(BOX), json.dumps({"cmd": "end"}).encode())
    spy.publish(protocol.board_topic(BOX), b'{"fake": "board"}')
    seq = bob.submit({"bottom": "5", "top": "6"})  # Bob's own input still gets through
    assert bob.wait_ack(seq)["ok"] is True
    flow = box.hub.session.flow
    assert flow is not None and flow.log() == [{"player": "Bob", "range": ["5", "6"]}]
    assert box.hub.session.state == "playing"
    seen = {topic for topic, _ in spy.received()}
    # nothing of Bob's: only the board and Ann's own clock pings (the buzzer's offset estimate)
    assert seen <= {protocol.board_topic(BOX), protocol.time_topic(BOX, "h1")}, seen
    assert all(json.loads(p) != {"fake": "board"} for t, p in spy.received(0.1) if t == protocol.board_topic(BOX))
    registry = box.hub.registry.get("h2")
    assert registry is not None and registry.name == "Bob"


def test_the_pairing_account_can_only_ask(box: Box) -> None:
    secret = box.pair("h1", "Ann")
    asking = box.login(PAIRING_USER, PAIRING_PASSWORD)
    asking.subscribe(f"quizbox/{BOX}/#", "#")
    asking.publish(protocol.hello_topic(BOX, "h1"), protocol.encode(protocol.make_hello("h1", "Mallory")))
    asking.publish(pairing_topic(BOX, "h1"), request_payload("h1", "a-copycat-secret-for-h1"))
    asking.publish(protocol.admin_command_topic(BOX), json.dumps({"cmd": "accept", "handset": "h9"}).encode())
    assert asking.received() == []  # it reads nothing, not even the board
    assert box.login("h1", secret).rc == 0 and box.login("h1", "a-copycat-secret-for-h1").rc in NOT_AUTHORISED
    assert box.login("h1", secret, client="not-h1s-client-id").rc in NOT_AUTHORISED  # bound to its client id
    assert box.pairing.requests() == {} and box.hub.registry.get("h1") is not None
    assert box.hub.registry.get("h1").name == "Ann"  # type: ignore[union-attr]


def test_the_admin_page_sees_requests_without_their_code_and_a_flood_evicts_none(box: Box) -> None:
    web = box.login("web")
    web.subscribe(protocol.admin_state_topic(BOX))
    asking = box.login(PAIRING_USER, PAIRING_PASSWORD)
    asking.publish(pairing_topic(BOX, "h1"), request_payload("h1", "the-secret-of-h1-here", "Ann"))
    wait_until(lambda: "h1" in box.pairing.pending, 5, "the request at the hub")
    states = [json.loads(p) for _, p in web.received()]
    # no code: the quizmaster types the one the handset's screen shows (issue 16: it was pre-filled)
    assert states[-1]["pairing"] == {"h1": {"name": "Ann", "conflict": False, "wait": 0,
                                            "request": box.pairing.pending["h1"].token}}
    for i in range(MAX_PENDING + 40):  # anyone on the Wi-Fi may use the pairing account
        asking.publish(pairing_topic(BOX, f"spam{i}"), request_payload(f"spam{i}", f"spam-secret-number-{i:03d}"))
        time.sleep(0.051)  # under the rate limit: every one is read
    wait_until(lambda: box.pairing.refused_full > 0, 10, "the flood read")
    assert "h1" in box.pairing.pending, "a flood of requests evicted the real one (issue 16)"
    assert len(box.pairing.pending) == MAX_PENDING and len(box.hub.registry) == 0
    box.hub.command({"cmd": "accept", "handset": "h1", "code": pair_code("the-secret-of-h1-here")})
    assert box.login("h1", "the-secret-of-h1-here").rc == 0


def test_a_removed_handset_is_locked_out(box: Box) -> None:
    secret = box.pair("h1", "Ann")
    ann = box.handset("h1", "Ann")
    ann.wait_prompt("info")
    watcher = box.login("appliance")
    watcher.subscribe(protocol.handset_wildcard(BOX, "telemetry"))
    box.hub.command({"cmd": "remove", "handset": "h1"})
    still = box.login("h1", secret)  # at once: no reload
    assert still.rc in NOT_AUTHORISED
    ann.core.telemetry()  # its old connection, if the broker kept it, may publish nothing any more
    assert watcher.received() == []


def test_the_hub_ignores_a_handset_topic_whose_id_has_no_account(box: Box) -> None:
    """Only the appliance's own account could publish there (a stale ACL would be another way): the hub
    still refuses it, since no handset with that id can have sent it."""
    box.pair("h1", "Ann")
    appliance = box.login("appliance")
    appliance.subscribe(protocol.ack_topic(BOX, "ghost"))
    appliance.publish(protocol.hello_topic(BOX, "ghost"), protocol.encode(protocol.make_hello("ghost", "Ghost")))
    appliance.publish(protocol.input_topic(BOX, "ghost"), protocol.encode(
        protocol.make_input(1, "p1", "range", {"bottom": "1", "top": "2"})))
    hello_ack, input_ack = (json.loads(payload) for _, payload in appliance.received())  # both answered
    assert hello_ack["ok"] is False and hello_ack["re"] == "hello" and hello_ack["code"] == "not_paired"
    assert input_ack["ok"] is False and "not paired" in input_ack["msg"] and input_ack["code"] == "not_paired"
    assert box.hub.registry.get("ghost") is None


def test_the_admin_page_commands_but_cannot_fake_the_board(box: Box) -> None:
    web = box.login("web")
    web.subscribe(protocol.board_topic(BOX))
    web.received()
    web.publish(protocol.board_topic(BOX), b'{"fake": "board"}')
    web.publish(protocol.admin_command_topic(BOX), json.dumps({"cmd": "lobby"}).encode())
    got = web.received()
    assert got and all(json.loads(p).get("fake") is None for _, p in got)  # the hub's board, not the fake
