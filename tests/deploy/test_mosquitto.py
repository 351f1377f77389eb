"""The mosquitto drop-in and the accounts in its dynamic security plugin, loaded by a real mosquitto as on the Pi
(Debian's own main config including systemd/mosquitto-quizbox.conf), with only paths and ports moved
into a temporary folder: who may log in, and what each account may publish and read."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from appliance.edge.accounts import client_id
from appliance.edge.broker import MOSQUITTO_SETTINGS
from firmware import protocol
from tests.deploy.boxbroker import BOX, DEBIAN_MAIN, DROPIN, Box, configure, running_box


@pytest.fixture(scope="module")
def box() -> Iterator[Box]:
    yield from running_box()


def settings(text: str) -> list[tuple[str, str]]:
    """``(key, value)`` for each setting line of a mosquitto config."""
    out = []
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition(" ")
            out.append((key, value.strip()))
    return out


def test_the_drop_in_keeps_strangers_out_and_names_the_quizbox_files() -> None:
    conf = dict(settings(DROPIN.read_text()))
    assert conf["allow_anonymous"] == "false"
    assert conf["per_listener_settings"] == "false"
    assert "password_file" not in conf and "acl_file" not in conf  # the plugin keeps the accounts
    assert conf["plugin"].endswith("/mosquitto_dynamic_security.so")
    assert conf["plugin_opt_config_file"] == "/var/lib/mosquitto/dynamic-security.json"
    assert int(conf["message_size_limit"]) == 262144


def test_the_drop_in_has_the_measured_latency_and_queue_settings_of_broker_py() -> None:
    conf = dict(settings(DROPIN.read_text()))
    for key, value in settings(MOSQUITTO_SETTINGS):
        if key != "persistence":  # the private test broker keeps nothing; the box does
            assert conf[key] == value, key
    assert conf["set_tcp_nodelay"] == "true"
    assert int(conf["max_queued_messages"]) >= 100000


def test_persistence_lives_in_var_lib_mosquitto_without_a_second_location() -> None:
    conf = settings(DROPIN.read_text())
    assert ("persistence", "true") in conf
    assert not [k for k, _ in conf if k == "persistence_location"], "mosquitto refuses a second one"
    assert ("persistence_location", "/var/lib/mosquitto/") in settings(DEBIAN_MAIN.read_text())


def test_one_plain_mqtt_listener_for_the_handsets() -> None:
    conf = settings(DROPIN.read_text())
    assert [v for k, v in conf if k == "listener"] == ["1883"]
    assert not [v for k, v in conf if k == "protocol"], "phones use the admin page, not MQTT over WebSockets"


class Peer:
    """A paho client that records what it receives."""

    def __init__(self, box: Box, user: str | None, password: str | None = None) -> None:
        self.inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self.connack: queue.Queue[int] = queue.Queue()
        password = box.passwords.get(user or "") if password is None else password
        own = user not in (None, "appliance", "web") and password
        # a handset's account logs in only with the client id derived from its password
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id(user, password) if own and user
                                  else f"t-{user}-{time.monotonic_ns()}")
        if user is not None:
            self.client.username_pw_set(user, password)
        self.client.on_connect = lambda c, u, f, rc, p: self.connack.put(rc.value)
        self.client.on_message = lambda c, u, m: self.inbox.put((m.topic, bytes(m.payload)))
        self.client.connect("127.0.0.1", box.port)
        self.client.loop_start()
        self.rc = self.connack.get(timeout=5)

    def subscribe(self, *topics: str) -> None:
        done: queue.Queue[object] = queue.Queue()
        self.client.on_subscribe = lambda *a: done.put(a)
        for topic in topics:
            self.client.subscribe(topic, qos=1)
            done.get(timeout=5)

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(timeout=5)

    def next(self) -> tuple[str, bytes]:
        return self.inbox.get(timeout=5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def peers(box: Box) -> Iterator[list[Peer]]:
    made: list[Peer] = []
    yield made
    for peer in made:
        peer.close()


def _peer(box: Box, peers: list[Peer], user: str | None, password: str | None = None) -> Peer:
    peer = Peer(box, user, password)
    peers.append(peer)
    return peer


@pytest.mark.mqtt
@pytest.mark.parametrize("user", ["appliance", "web", "h1", "h2"])
def test_each_account_logs_in_with_its_password(box: Box, peers: list[Peer], user: str) -> None:
    assert _peer(box, peers, user).rc == 0


@pytest.mark.mqtt
@pytest.mark.parametrize(("user", "password"), [(None, None), ("h1", "two-secret"), ("h3", "anything")])
def test_strangers_and_wrong_passwords_are_refused(
    box: Box, peers: list[Peer], user: str | None, password: str | None
) -> None:
    assert _peer(box, peers, user, password).rc in (4, 5, 134, 135)


@pytest.mark.mqtt
def test_a_handset_publishes_only_its_own_topics(box: Box, peers: list[Peer]) -> None:
    appliance = _peer(box, peers, "appliance")
    appliance.subscribe(f"quizbox/{BOX}/#")
    h1 = _peer(box, peers, "h1")
    h1.publish(protocol.input_topic(BOX, "h2"), b"as h2")  # dropped by the ACL
    h1.publish(protocol.admin_command_topic(BOX), b"start")  # dropped
    h1.publish(protocol.board_topic(BOX), b"fake board")  # dropped
    for leaf in ("hello", "telemetry", "status", "input"):
        h1.publish(protocol.handset_topic(BOX, "h1", leaf), leaf.encode())
    # one client's messages arrive in order: had a dropped one got through, it would come first
    assert [appliance.next() for _ in range(4)] == [
        (protocol.handset_topic(BOX, "h1", leaf), leaf.encode()) for leaf in ("hello", "telemetry", "status", "input")
    ]


@pytest.mark.mqtt
def test_a_handset_reads_only_its_own_prompts_and_the_board(box: Box, peers: list[Peer]) -> None:
    appliance = _peer(box, peers, "appliance")
    h1 = _peer(box, peers, "h1")
    h1.subscribe(*(protocol.handset_topic(BOX, other, leaf) for other in ("h2", "h1")
                   for leaf in ("prompt", "ack", "time")),
                 protocol.admin_state_topic(BOX), protocol.board_topic(BOX))
    for leaf in ("prompt", "ack", "time"):
        appliance.publish(protocol.handset_topic(BOX, "h2", leaf), b"for h2")
    appliance.publish(protocol.admin_state_topic(BOX), b"admin only")
    mine = [protocol.handset_topic(BOX, "h1", leaf) for leaf in ("prompt", "ack", "time")]
    for topic in mine:
        appliance.publish(topic, b"for h1")
    appliance.publish(protocol.board_topic(BOX), b"board")
    assert [h1.next() for _ in range(4)] == [(t, b"for h1") for t in mine] + [(protocol.board_topic(BOX), b"board")]


@pytest.mark.mqtt
def test_the_admin_page_commands_watches_and_speaks_for_phones_but_never_for_the_box(
    box: Box, peers: list[Peer]
) -> None:
    appliance = _peer(box, peers, "appliance")
    appliance.subscribe(f"quizbox/{BOX}/#")
    web = _peer(box, peers, "web")
    web.subscribe(protocol.admin_state_topic(BOX), protocol.prompt_topic(BOX, "phone-abc"))
    web.publish(protocol.board_topic(BOX), b"fake board")  # dropped: only the quiz program draws the board
    web.publish(protocol.appliance_status_topic(BOX), b"online")  # dropped
    web.publish(protocol.admin_command_topic(BOX), b"next")
    web.publish(protocol.input_topic(BOX, "phone-abc"), b"a phone's answer")
    assert [appliance.next(), appliance.next()] == [
        (protocol.admin_command_topic(BOX), b"next"), (protocol.input_topic(BOX, "phone-abc"), b"a phone's answer")]
    appliance.publish(protocol.prompt_topic(BOX, "phone-abc"), b"your question")
    appliance.publish(protocol.admin_state_topic(BOX), b"state")
    assert [web.next(), web.next()] == [
        (protocol.prompt_topic(BOX, "phone-abc"), b"your question"), (protocol.admin_state_topic(BOX), b"state")]


@pytest.mark.mqtt
def test_the_broker_loaded_the_files_without_complaint(box: Box, peers: list[Peer]) -> None:
    _peer(box, peers, "h1")
    text = box.log.read_text()
    assert "Error" not in text and "Warning" not in text, text



@pytest.mark.mqtt
def test_a_handset_added_while_the_box_runs_logs_in_at_once_with_no_reload(box: Box, peers: list[Peer]) -> None:
    """Before: --add-handset and every installer re-run dropped the pairing account's write rule until
    quizbox restarted (two ACL renderers). Now one table, applied by the broker while it runs."""
    assert _peer(box, peers, "h3", "three-secret-value").rc in (4, 5, 134, 135)
    configure.add_handset(box.root, "h3", "three-secret-value", port=box.port)
    assert _peer(box, peers, "h3", "three-secret-value").rc == 0
    appliance = _peer(box, peers, "appliance")
    appliance.subscribe(protocol.input_topic(BOX, "h3"), f"quizbox/{BOX}/pairing/+")
    _peer(box, peers, "h3", "three-secret-value").publish(protocol.input_topic(BOX, "h3"), b"mine")
    assert appliance.next() == (protocol.input_topic(BOX, "h3"), b"mine")
    asking = _peer(box, peers, "pairing", "quizbox-pairing")  # the pairing account still may ask
    asking.publish(f"quizbox/{BOX}/pairing/h9", b"a request")
    assert appliance.next() == (f"quizbox/{BOX}/pairing/h9", b"a request")
    configure.remove_handset(box.root, "h3", port=box.port)
    assert _peer(box, peers, "h3", "three-secret-value").rc in (4, 5, 134, 135), "removed: no login"
