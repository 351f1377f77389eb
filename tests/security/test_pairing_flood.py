"""Issue 38: a pairing flood from the guest Wi-Fi during a game (300 logins with the public pairing account, 4
publishers as fast as they can) slowed every player's ack tenfold, and mosquitto dropped the box's own
pairing-desk connection. Now the requests go to the pairing broker, a mosquitto process of its own
(appliance/edge/pairing_broker.py); the game's broker never sees them.

Against a running game on the box's real mosquitto (dynamic security plugin) and a real SQLite store: a
flood bounded in count and time (a few seconds), after which every acked input is stored exactly once and
the pairing desk, still connected, pairs a new handset. The figure (acks' p95 with and without the flood)
is bench/flood.py's."""

from __future__ import annotations

import random
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from appliance.edge.accounts import PAIRING_PASSWORD, PAIRING_USER, client_id
from appliance.edge.hub import Hub
from appliance.edge.mqtt import Connection
from appliance.edge.pairing import EXPIRE, MAX_PENDING, Pairing, pair_code, pairing_topic, request_payload
from appliance.edge.pairing_broker import MAX_CONNECTIONS, PairingBroker, free_port_pair, pairing_port
from appliance.flows import flow_factory
from appliance.infra.store import Store
from appliance.session.session import Session
from bench.junk_requests import send_junk_requests
from tests.faults import checks
from tests.faults.harness import Observer, Player, cards, wait_until
from tests.security.dynsec_box import DynsecBox, dynsec_box

pytestmark = pytest.mark.mqtt
BOX = "floodbox"


@dataclass
class FloodBox:
    made: DynsecBox
    pairing_broker: PairingBroker
    hub: Hub
    store: Store
    folder: Path

    @property
    def port(self) -> int:
        return self.made.broker.port

    @property
    def pairing(self) -> Pairing:
        return self.made.pairing


@pytest.fixture
def flood_box(tmp_path: Path) -> Iterator[FloodBox]:
    port = free_port_pair()
    with dynsec_box(BOX, port=port) as made:
        password = made.passwords["appliance"]
        with PairingBroker(BOX, "appliance", password, pairing_port(port)) as pairing_broker:
            store = Store(tmp_path / "quizbox.db")
            session = Session(time.monotonic, random.Random(1), store=store, flows=flow_factory)
            conn = Connection("127.0.0.1", port, "appliance", password)
            hub = Hub(BOX, session, conn, open_join=False, store=store, pairing=made.pairing,
                      pairing_at=("127.0.0.1", pairing_broker.port)).start()
            try:
                assert hub.desk is not None and hub.desk.connected.wait(10)
                yield FloodBox(made, pairing_broker, hub, store, tmp_path)
            finally:
                hub.stop()
                store.close()


def ask(port: int, handset: str, secret: str, name: str | None = None) -> None:
    """One pairing request as a handset sends it, on the pairing broker at ``port``."""
    asking = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"pair-{secrets.token_hex(8)}")
    asking.username_pw_set(PAIRING_USER, PAIRING_PASSWORD)
    asking.connect("127.0.0.1", port)
    asking.loop_start()
    try:
        asking.publish(pairing_topic(BOX, handset), request_payload(handset, secret, name), qos=1).wait_for_publish(5)
    finally:
        asking.disconnect()
        asking.loop_stop()


def login_rc(port: int, user: str, password: str, client: str) -> int | None:
    answer: list[int] = []
    probe = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client)
    probe.username_pw_set(user, password)
    probe.on_connect = lambda c, u, f, rc, p: answer.append(rc.value)
    try:
        probe.connect("127.0.0.1", port)
        probe.loop_start()
        wait_until(lambda: bool(answer), 10, f"{user}'s login answered")
    finally:
        probe.disconnect()
        probe.loop_stop()
    return answer[0]


class Flood:
    """``publishers`` connections sending junk requests as fast as they can (at most ``count`` each, for at
    most ``seconds``) and ``logins`` idle connections, all as the public pairing account."""

    def __init__(self, port: int, publishers: int, logins: int, count: int, seconds: float) -> None:
        self.port, self.count, self.seconds = port, count, seconds
        self.sent = 0
        self.idle: list[mqtt.Client] = []
        for n in range(logins):
            idle = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"idle-{n}")
            idle.username_pw_set(PAIRING_USER, PAIRING_PASSWORD)
            idle.connect("127.0.0.1", port)
            idle.loop_start()
            self.idle.append(idle)
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._run, args=(n,), daemon=True) for n in range(publishers)]

    def _run(self, n: int) -> None:
        sent = send_junk_requests(self.port, BOX, n, time.monotonic() + self.seconds, most=self.count)
        with self._lock:
            self.sent += sent

    def __enter__(self) -> Flood:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for thread in self._threads:
            thread.join(self.seconds + 10)
        for idle in self.idle:
            idle.disconnect()
            idle.loop_stop()


def test_a_pairing_flood_during_a_game_loses_no_input_and_pairing_still_works(flood_box: FloodBox) -> None:
    box = flood_box
    accounts = box.made.accounts
    players = []
    for i, name in enumerate(("Ann", "Bob", "Cat")):
        handset, secret = f"fh{i + 1}", secrets.token_urlsafe(24)
        accounts.add_handset(handset, secret)
        players.append(Player(BOX, handset, Connection("127.0.0.1", box.port, handset, secret), name,
                              seed=100 + i).start())
    observer = Observer(BOX, Connection("127.0.0.1", box.port, "appliance", box.made.passwords["appliance"])).start()
    try:
        box.hub.command({"cmd": "start", "game": "confident", "options": {"target": 4},
                         "cards": cards("confident", 7, box.folder),
                         "seats": [{"player": p.player, "handset": p.id} for p in players]})
        wait_until(lambda: all(p.prompts for p in players), 10, "every player's first prompt")
        connects = box.hub.desk.connects if box.hub.desk else 0
        on_game_broker: list[bytes] = []  # pairing messages the game's broker carries: none
        watch = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"watch-{secrets.token_hex(8)}")
        watch.username_pw_set("appliance", box.made.passwords["appliance"])
        watch.on_message = lambda c, u, m: on_game_broker.append(m.payload)
        watch.on_connect = lambda c, u, f, rc, p: c.subscribe(f"quizbox/{BOX}/pairing/#")
        watch.connect("127.0.0.1", box.port)
        watch.loop_start()
        with Flood(box.pairing_broker.port, publishers=2, logins=40, count=20_000, seconds=3.0) as flood:
            deadline = time.monotonic() + 3.0
            questions = 0
            while time.monotonic() < deadline:  # the quizmaster moves the game on while the flood runs
                board = observer.board
                if board.get("can_advance") and not board.get("waiting") and all(p.settled() for p in players):
                    before = [len(p.prompts) for p in players]
                    box.hub.command({"cmd": "next"})
                    questions += 1
                    wait_until(lambda before=before: any(len(p.prompts) > n for p, n in zip(players, before,
                                                                                              strict=True))
                               or not observer.board.get("can_advance"), 10, "the next question")
                time.sleep(0.05)
        wait_until(lambda: all(p.settled() for p in players), 20, "every input settled after the flood")
        watch.disconnect()
        watch.loop_stop()
        assert on_game_broker == []  # the flood never crossed the game's broker
        acked = [s for p in players for s in p.sent if s.acked]
        games = box.store.games(limit=1)
        assert games and acked, (games, acked)
        assert checks.problems(checks.match_all(games[0], players)) == []  # each acked input stored once
        assert flood.sent > 1000, flood.sent
        # the flood reached the desk and was bounded there, on the pairing broker, never the game's
        wait_until(lambda: box.pairing.dropped + box.pairing.refused_full > 0, 10, "the flood at the desk")
        assert box.hub.desk is not None and box.hub.desk.connected.is_set()
        print(f"pairing flood: {flood.sent} requests, {questions} questions moved on, {len(acked)} inputs acked; "
              f"desk logins {connects} -> {box.hub.desk.connects}; "
              f"{box.pairing.dropped + box.pairing.refused_full} dropped or refused unread")
    finally:
        observer.stop()
        for player in players:
            player.stop()
    # after the flood the desk still pairs a new handset: once it has read what the flood left queued for it
    # (the pairing broker's and the sockets' buffers), the junk requests lapse after EXPIRE (a minute: the
    # pairing's clock is moved on here) and the newcomer's request is read and accepted
    desk = box.hub.desk
    assert desk is not None
    seen = [-1]

    def backlog_read() -> bool:
        read, seen[0] = seen[0], desk.refusals.total + len(box.pairing.pending)
        return read == seen[0]

    wait_until(backlog_read, 60, "the desk through the flood's backlog", step=1.0)
    later = EXPIRE + 1
    box.pairing.clock = lambda: time.monotonic() + later
    box.pairing.expire()
    assert len(box.pairing.pending) < MAX_PENDING, len(box.pairing.pending)
    secret = secrets.token_urlsafe(24)
    wait_until(lambda: (ask(box.pairing_broker.port, "newcomer", secret, "Dee") or True)
               and "newcomer" in box.pairing.pending, 20, "the newcomer's request at the desk", step=0.5)
    box.hub.command({"cmd": "accept", "handset": "newcomer", "code": pair_code(secret)})
    assert login_rc(box.port, "newcomer", secret, client_id("newcomer", secret)) == 0


def test_the_pairing_broker_takes_only_pairing_requests(flood_box: FloodBox) -> None:
    """The public account may ask on the pairing broker and nothing else; the game's topics are not there."""
    port = flood_box.pairing_broker.port
    assert login_rc(port, "fh9", "not-an-account-secret", "fh9-x") in (4, 5, 134, 135)
    assert login_rc(port, PAIRING_USER, PAIRING_PASSWORD, "pair-0123456789abcdef") == 0
    config = flood_box.pairing_broker.config_path.read_text(encoding="utf-8")
    assert f"max_connections {MAX_CONNECTIONS}" in config and "retain_available false" in config
    secret = secrets.token_urlsafe(24)
    ask(port, "fh9", secret, "Ivy")
    wait_until(lambda: "fh9" in flood_box.pairing.pending, 10, "a request on the pairing broker at the desk")


def test_the_pairing_broker_is_started_again_when_it_dies(flood_box: FloodBox) -> None:
    broker = flood_box.pairing_broker
    told: list[int | None] = []
    broker.on_restart = told.append  # the quiz program's health report (what the doctor reads)
    pid = broker.pid
    broker._proc.kill()
    wait_until(lambda: broker.restarts == 1 and broker.alive() and broker.pid != pid, 15, "the pairing broker back")
    assert told == [-9]
    desk = flood_box.hub.desk
    assert desk is not None
    wait_until(lambda: desk.connects >= 2, 20, "the desk logged in again")
    secret = secrets.token_urlsafe(24)
    wait_until(lambda: (ask(broker.port, "fh8", secret) or True) and "fh8" in flood_box.pairing.pending, 20,
               "a request read after the restart", step=0.5)


def test_the_doctor_names_a_pairing_broker_that_died_and_what_to_do(tmp_path: Path) -> None:
    """The pairing broker is a process of the quiz program's (no unit of its own): the quiz program reports
    it as one of its parts, and `quizbox doctor` reads that report (issue 38 item 4: one verdict per cause)."""
    from appliance.box import doctor
    from appliance.infra.config import parse_config
    from appliance.infra.health import Health

    config = parse_config(f'[box]\nid = "{BOX}"\ndata_dir = "{tmp_path}"\n')
    health = Health(tmp_path)
    health.ok("pairing", "its own process, port 1884")
    assert doctor.check_parts(config, doctor.Probes()).ok
    health.failing("pairing", "stopped (exit -9) and was started again")
    finding = doctor.check_parts(config, doctor.Probes())
    assert not finding.ok
    text = f"{finding.wrong} {finding.fix}"
    assert "pairing broker (new handsets ask on port 1884): stopped (exit -9)" in text, text
    assert "New handsets cannot pair meanwhile" in text and "systemctl restart quizbox" in text, text


def test_the_quiz_program_starts_the_pairing_broker_and_closes_the_game_brokers_door(tmp_path: Path) -> None:
    """The box as installed (its own mosquitto with accounts): the quiz program runs the pairing broker at
    the broker's port + 1 and the game's broker refuses the public pairing account meanwhile, so a flood
    cannot reach the game's broker by that door; when the pairing broker cannot start, the door opens
    again (pairing still works, the health report says why)."""
    from appliance.box.app import Appliance
    from appliance.infra.config import BoxConfig, BrokerConfig, Config

    port = free_port_pair()
    with dynsec_box(BOX, port=port) as made:
        broker = BrokerConfig(host="127.0.0.1", port=port, username="appliance",
                              password=made.passwords["appliance"])
        config = Config(box=BoxConfig(id=BOX, data_dir=str(tmp_path / "a")), broker=broker)
        with Appliance(config, pairing_bind="127.0.0.1") as app:
            app.start()
            assert app.health.parts["pairing"].ok, app.health.parts["pairing"]
            assert login_rc(port + 1, PAIRING_USER, PAIRING_PASSWORD, "pair-00000000000000a1") == 0
            assert login_rc(port, PAIRING_USER, PAIRING_PASSWORD, "pair-00000000000000a2") in (4, 5, 134, 135)
            secret = secrets.token_urlsafe(24)
            assert app.pairing is not None
            wait_until(lambda: (ask(port + 1, "fh7", secret) or True) and "fh7" in app.pairing.pending, 20,
                       "the request read through the quiz program's pairing broker", step=0.5)
        with socket.socket() as squatter:  # something else holds the pairing port: the old way, said
            # the stopped pairing broker's connections may linger in TIME_WAIT (and it may still be exiting)
            squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            wait_until(lambda: _bound(squatter, port + 1), 20, "the pairing port free for the squatter", step=0.2)
            squatter.listen()
            with Appliance(replace(config, box=BoxConfig(id=BOX, data_dir=str(tmp_path / "b"))),
                           pairing_bind="127.0.0.1") as app:
                app.start()
                part = app.health.parts["pairing"]
                assert not part.ok and "did not start" in part.text, part
                assert login_rc(port, PAIRING_USER, PAIRING_PASSWORD, "pair-00000000000000a3") == 0


def _bound(sock: socket.socket, port: int) -> bool:
    try:
        sock.bind(("127.0.0.1", port))
    except OSError:
        return False
    return True
