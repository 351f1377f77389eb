"""Pairing on the handset (firmware/core/pairing.py) on the host: the same constants, request bytes and
pair code as the appliance's appliance/edge/pairing.py, the secret kept across boots, the config's account
keys, and the ESP32 link against a fake umqtt.simple broker that refuses a login until it is accepted."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.edge import pairing as appliance_pairing
from firmware import protocol as P
from firmware.core import pairing
from firmware.core.fb import FrameBuffer
from firmware.core.handset import Handset
from tests.firmware.support import shows
from tests.security.dynsec_box import MemoryAccounts

BOX, HID = "pub", "esp32-a1b2c3"


# -- the same formats as the appliance ---------------------------------------------------------------------------


def test_constants_are_the_appliances() -> None:
    assert pairing.PAIRING_USER == appliance_pairing.PAIRING_USER
    assert pairing.PAIRING_PASSWORD == appliance_pairing.PAIRING_PASSWORD
    assert (pairing.MIN_SECRET, pairing.MAX_SECRET) == (appliance_pairing.MIN_SECRET, appliance_pairing.MAX_SECRET)
    assert pairing.pairing_topic(BOX, HID) == appliance_pairing.pairing_topic(BOX, HID)


@settings(max_examples=200)
@given(
    handset=st.sampled_from(["h1", HID, "pizero-0a0b0c"]),
    secret=st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=16, max_size=64),
    name=st.none() | st.text(max_size=24),
)
def test_request_bytes_are_the_appliances(handset: str, secret: str, name: str | None) -> None:
    assert pairing.request_payload(handset, secret, name) == appliance_pairing.request_payload(handset, secret, name)


@settings(max_examples=100)
@given(st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=16, max_size=64))
def test_client_id_is_the_appliances_and_hides_the_secret(secret: str) -> None:
    from appliance.edge.accounts import client_id

    made = pairing.client_id(HID, secret)
    assert made == client_id(HID, secret) and made.startswith(HID + "-") and secret not in made
    assert len(made) == len(HID) + 17 and made != pairing.client_id(HID, secret + "x")


def test_request_bytes_with_quotes_controls_and_astral_characters() -> None:
    for name in ['Zoë "the" \\ quiz', "tab\there\nnew\x01\x7f", "emoji 😀 ok", ""]:
        mine = pairing.request_payload(HID, "s" * 20, name)
        assert mine == appliance_pairing.request_payload(HID, "s" * 20, name)
        assert json.loads(mine).get("name") == (name or None)


@settings(max_examples=200)
@given(st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=16, max_size=64))
def test_pair_code_is_the_appliances(secret: str) -> None:
    assert pairing.pair_code(secret) == appliance_pairing.pair_code(secret)


def test_a_made_secret_is_accepted_by_the_appliance(tmp_path: Path) -> None:
    secret = pairing.make_secret(os.urandom)
    assert pairing.is_secret(secret) and secret != pairing.make_secret(os.urandom)
    hub = appliance_pairing.Pairing(MemoryAccounts())
    made = hub.request(HID, pairing.request_payload(HID, secret, "Ann"))
    assert (made.secret, made.name, made.code) == (secret, "Ann", pairing.pair_code(secret))


@pytest.mark.parametrize("bad", ["short", "x" * 65, "has space in it!!", "tab\tinside-the-secret", 12345678901234567])
def test_is_secret_refuses(bad: Any) -> None:
    assert not pairing.is_secret(bad)


# -- the secret across boots -----------------------------------------------------------------------------------------


def test_the_secret_is_made_once_and_kept(tmp_path: Path) -> None:
    store = pairing.SecretFile(str(tmp_path / "secret"))
    assert store.load() is None
    first = pairing.Pairing(BOX, HID, None, "", "Ann", store)
    assert first.username == HID and pairing.is_secret(first.password)
    assert (tmp_path / "secret").read_text() == first.password
    again = pairing.Pairing(BOX, HID, None, "", "Ann", store)  # the next boot
    assert again.password == first.password


def test_a_broken_secret_file_gives_a_new_secret(tmp_path: Path) -> None:
    (tmp_path / "secret").write_text("too short")
    made = pairing.Pairing(BOX, HID, store=pairing.SecretFile(str(tmp_path / "secret")))
    assert pairing.is_secret(made.password) and (tmp_path / "secret").read_text() == made.password


def test_a_configured_password_wins_and_the_store_is_untouched(tmp_path: Path) -> None:
    made = pairing.Pairing(BOX, HID, "", "configured-password-1", store=pairing.SecretFile(str(tmp_path / "s")))
    assert (made.username, made.password) == (HID, "configured-password-1")
    assert not (tmp_path / "s").exists()


def test_another_user_name_cannot_pair_and_the_screen_says_so() -> None:
    made = pairing.Pairing(BOX, HID, "someone-else", "a-password-long-enough")
    assert made.refused() is False and not made.waiting
    fb = FrameBuffer()
    pairing.PairingScreen(fb, made).show()
    assert shows(fb, "LOGIN REFUSED")
    short = pairing.Pairing(BOX, HID, None, "short")  # a configured password that is no secret
    assert short.refused() is False


def test_pizero_secret_file_is_private(tmp_path: Path) -> None:
    from firmware.pizero.app import PrivateSecretFile

    made = pairing.Pairing(BOX, HID, store=PrivateSecretFile(str(tmp_path / "secret")))
    assert (tmp_path / "secret").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "secret").read_text() == made.password


# -- the config ----------------------------------------------------------------------------------------------------


def test_config_account_defaults_and_values() -> None:
    from firmware.esp32 import config
    from firmware.pizero import config as pi_config

    cfg = config.parse('{"wifi": {"ssid": "Pub"}}', b"\xa1\xb2\xc3")
    assert (cfg["broker"]["username"], cfg["broker"]["password"]) == (None, "")
    cfg = config.parse('{"wifi": {"ssid": "Pub"}, "broker": {"username": "h9", "password": "p4ss-w0rd"}}')
    assert (cfg["broker"]["username"], cfg["broker"]["password"]) == ("h9", "p4ss-w0rd")
    assert pi_config.parse("{}", b"\x01\x02\x03")["broker"]["password"] == ""


@pytest.mark.parametrize(
    ("broker", "message"),
    [
        ({"username": 7}, "username: text"),
        ({"username": ""}, "username: text"),
        ({"username": "a:b"}, "username: text"),
        ({"password": None}, "password: text"),
        ({"password": 1234}, "password: text"),
        ({"password": "x" * 65}, "password: text"),
        ({"password": "with space"}, "password: ASCII"),
        ({"password": "naïve-password"}, "password: ASCII"),
    ],
)
def test_config_account_errors(broker: dict[str, Any], message: str) -> None:
    from firmware.esp32 import config
    from firmware.pizero import config as pi_config

    with pytest.raises(config.ConfigError, match=message):
        config.parse(json.dumps({"wifi": {"ssid": "Pub"}, "broker": broker}))
    with pytest.raises(config.ConfigError, match=message):
        pi_config.parse(json.dumps({"broker": broker}), b"\x01\x02\x03")


# -- the ESP32 link against a fake umqtt.simple ------------------------------------------------------------------


class MQTTException(Exception):  # noqa: N818 - umqtt.simple's name
    pass


class Sock:
    def read(self, n: int) -> None:
        return None

    def close(self) -> None:
        pass

    def settimeout(self, value: float | None) -> None:
        pass


class Broker:
    """Logs in the accounts it has (user -> password); anything else gets CONNACK 5, as mosquitto does."""

    def __init__(self) -> None:
        self.accounts = {pairing.PAIRING_USER: pairing.PAIRING_PASSWORD}
        self.log: list[tuple[Any, ...]] = []
        self.code = 5  # the CONNACK code of a refusal

    def make(self, client_id: str, host: str, port: int, keepalive: int) -> Client:
        return Client(self, client_id)

    def logins(self) -> list[tuple[str, str, bool]]:
        return [(e[1], e[2], e[3]) for e in self.log if e[0] == "connect"]

    def published(self, topic: str) -> list[bytes]:
        return [e[2] for e in self.log if e[0] == "pub" and e[1] == topic.encode()]


class Client:
    def __init__(self, broker: Broker, client_id: str) -> None:
        self.broker, self.id = broker, client_id
        self.user: str | None = None  # umqtt.simple's attribute names
        self.pswd: str | None = None
        self.sock: Any = Sock()

    def set_callback(self, cb: Any) -> None:
        self.cb = cb

    def set_last_will(self, topic: bytes, msg: bytes, retain: bool = False, qos: int = 0) -> None:
        pass

    def connect(self) -> None:
        ok = self.user is not None and self.broker.accounts.get(self.user) == self.pswd
        self.broker.log.append(("connect", self.user, self.pswd, ok))
        if not ok:
            raise MQTTException(self.broker.code)

    def publish(self, topic: bytes, msg: bytes, retain: bool = False, qos: int = 0) -> None:
        self.broker.log.append(("pub", topic, msg, self.user))

    def subscribe(self, topic: bytes, qos: int = 0) -> None:
        self.broker.log.append(("sub", topic, self.user))

    def check_msg(self) -> None:
        pass

    def ping(self) -> None:
        pass

    def disconnect(self) -> None:
        self.broker.log.append(("disconnect", self.user))


class Clock:
    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now


def esp32_handset(broker: Broker, clock: Clock, made: pairing.Pairing) -> tuple[Any, Handset, FrameBuffer]:
    from firmware.esp32.link import Link

    link = Link(BOX, HID, "quizbox.local", 1883, 30, make_client=broker.make, clock=clock, pairing=made)
    fb = FrameBuffer()
    handset = Handset(BOX, HID, link, screen=pairing.PairingScreen(fb, made), clock_ms=clock, name="Ann")
    link.handset = handset
    return link, handset, fb


def test_esp32_unpaired_asks_shows_the_code_and_logs_in_once_accepted(tmp_path: Path) -> None:
    broker, clock = Broker(), Clock()
    made = pairing.Pairing(BOX, HID, None, "", "Ann", pairing.SecretFile(str(tmp_path / "secret")))
    secret = made.password
    link, handset, fb = esp32_handset(broker, clock, made)
    link.poll()
    assert broker.logins() == [(HID, secret, False), (pairing.PAIRING_USER, pairing.PAIRING_PASSWORD, True)]
    topic = appliance_pairing.pairing_topic(BOX, HID)
    assert broker.published(topic) == [appliance_pairing.request_payload(HID, secret, "Ann")]
    assert made.waiting and not handset.online
    assert shows(fb, "Pair code " + appliance_pairing.pair_code(secret)) and shows(fb, "quizmaster")
    clock.now += pairing.RETRY_MS - 1
    link.poll()
    assert len(broker.logins()) == 2  # waits RETRY_MS between tries
    clock.now += 1
    link.poll()  # still not accepted: refused again, asks again
    assert [u for u, _, _ in broker.logins()] == [HID, pairing.PAIRING_USER] * 2
    assert len(broker.published(topic)) == 2
    broker.accounts[HID] = secret  # the quizmaster accepts
    clock.now += pairing.RETRY_MS
    link.poll()
    assert broker.logins()[-1] == (HID, secret, True) and handset.online and not made.waiting
    assert len(broker.published(P.hello_topic(BOX, HID))) == 1
    assert not shows(fb, "Pair code " + made.code())
    handset.on_message(P.prompt_topic(BOX, HID), P.encode({"v": 1, "id": "i1", "kind": "info", "text": "Hi Ann"}))
    assert not shows(fb, "quizmaster")


def test_esp32_paired_handset_logs_in_straight_away(tmp_path: Path) -> None:
    broker, clock = Broker(), Clock()
    broker.accounts[HID] = "configured-password-1"
    made = pairing.Pairing(BOX, HID, None, "configured-password-1")
    link, handset, _ = esp32_handset(broker, clock, made)
    link.poll()
    assert broker.logins() == [(HID, "configured-password-1", True)] and handset.online
    assert made.refusals == 0


def test_esp32_wrong_configured_account_says_so_and_never_asks() -> None:
    broker, clock = Broker(), Clock()
    made = pairing.Pairing(BOX, HID, "installer", "wrong-password-here")
    link, handset, fb = esp32_handset(broker, clock, made)
    link.poll()
    assert broker.logins() == [("installer", "wrong-password-here", False)]
    assert shows(fb, "LOGIN REFUSED") and not handset.online


def test_esp32_server_unavailable_is_a_lost_connection_not_a_pairing() -> None:
    broker, clock = Broker(), Clock()
    broker.code = 3
    made = pairing.Pairing(BOX, HID)
    link, handset, _ = esp32_handset(broker, clock, made)
    link.poll()
    assert len(broker.logins()) == 1 and made.refusals == 0 and link.backoff > 1000


def test_esp32_app_reads_the_account_from_the_config(tmp_path: Path) -> None:
    from firmware.esp32.app import App

    cfg_text = '{"wifi": {"ssid": "Pub"}, "box": "pub", "handset": "esp32-a1b2c3", "name": "Ann"}'
    from firmware.esp32 import config

    cfg = config.parse(cfg_text)

    class Wifi:
        def activate(self) -> None:
            pass

        def up(self) -> bool:
            return True

        def rssi(self) -> int:
            return -50

    class Battery:
        def percent(self) -> int:
            return 80

    class Keys:
        def poll(self, now: int) -> None:
            return None

    broker, clock = Broker(), Clock()
    secret_file = tmp_path / "secret"
    app = App(cfg, FrameBuffer(), Keys(), Battery(), Wifi(), clock, secret_file=str(secret_file))
    app.link.make_client, app.link.resolve = broker.make, None
    app.step()
    secret = secret_file.read_text()
    assert broker.logins()[0] == (HID, secret, False) and app.pairing.waiting
    assert shows(app.handset.screen, "Pair code " + appliance_pairing.pair_code(secret))


class PortedBroker(Broker):
    """A box whose pairing broker listens (``pairing_port``) or not (connections to it are refused)."""

    def __init__(self, pairing_port: bool) -> None:
        super().__init__()
        self.pairing_port = pairing_port
        self.ports: list[tuple[str | None, int]] = []

    def make(self, client_id: str, host: str, port: int, keepalive: int) -> Client:
        broker = self

        class Ported(Client):
            def connect(self) -> None:
                broker.ports.append((self.user, port))
                if port == 1883 + pairing.PAIRING_PORT_OFFSET and not broker.pairing_port:
                    raise OSError(111)  # ECONNREFUSED: nothing listens there
                super().connect()

        return Ported(self, client_id)


@pytest.mark.parametrize("has_pairing_broker", [True, False])
def test_esp32_asks_on_the_pairing_broker_or_on_an_older_box_on_its_own_port(tmp_path: Path,
                                                                             has_pairing_broker: bool) -> None:
    """Issue 38: requests go to the box's pairing broker (its port + 1), a mosquitto of its own, so that a
    flood of them never slows the game; a box without one gets them on its own port as before."""
    broker, clock = PortedBroker(has_pairing_broker), Clock()
    made = pairing.Pairing(BOX, HID, None, "", "Ann", pairing.SecretFile(str(tmp_path / "secret")))
    link, _, _ = esp32_handset(broker, clock, made)
    link.poll()
    asked = [port for user, port in broker.ports if user == pairing.PAIRING_USER]
    assert asked == ([1884] if has_pairing_broker else [1884, 1883])
    assert [port for user, port in broker.ports if user == HID] == [1883]  # the game: the box's own port
    assert len(broker.published(appliance_pairing.pairing_topic(BOX, HID))) == 1
