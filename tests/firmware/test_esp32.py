"""The ESP32 port on CPython, its hardware replaced by tests/firmware/stubs (machine, network, framebuf)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from firmware import protocol as P
from firmware.core.fb import FrameBuffer
from tests.firmware import samples

STUBS = Path(__file__).parent / "stubs"
HARDWARE = ("machine", "network", "framebuf")
ESP32 = [m for m in list(sys.modules) if m.startswith("firmware.esp32")]


@pytest.fixture()
def hw(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The stub hardware modules importable (and forgotten afterwards); yields the machine stub."""
    monkeypatch.syspath_prepend(str(STUBS))
    for name in HARDWARE + ("firmware.esp32.ssd1306",):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import machine

    machine.reset_board()
    yield machine
    for name in HARDWARE + ("firmware.esp32.ssd1306",):
        sys.modules.pop(name, None)


class Clock:
    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now


# -- keys ----------------------------------------------------------------------------------------------------


def test_every_keypad_key_scans_to_its_name(hw: Any) -> None:
    from firmware.esp32.keys import KEYPAD_MAP, Keypad

    rows, cols = [13, 14, 27, 26], [25, 33, 32, 4]
    pad = Keypad(rows, cols, hw.Pin)
    for r, row in enumerate(rows):
        for c, col in enumerate(cols):
            hw.pressed.clear()
            hw.pressed.add((row, col))
            assert pad.scan() == KEYPAD_MAP[r][c]
    hw.pressed.clear()
    assert pad.scan() is None
    assert all(p.level == 0 for p in (hw.pins[n] for n in rows))  # idle: every row low, for the edge interrupt
    from firmware.core.editor import KEYPAD_KEYS

    assert sorted(k for row in KEYPAD_MAP for k in row) == sorted(KEYPAD_KEYS)


def test_a_press_is_stamped_at_its_pin_edge(hw: Any) -> None:
    from firmware.esp32.keys import Buttons, Keypad

    us = [0]
    pins = {"up": 13, "down": 14, "left": 27, "right": 26, "ok": 25}
    five = Buttons(pins, hw.Pin, clock_us=lambda: us[0])
    us[0] = 1_000_000
    hw.grounded.add(25)
    hw.pins[25].fall()  # the edge interrupt, at 1 s on the microsecond clock
    got = []
    for now in range(500, 600, 5):  # the main loop polls every 5 ms on its ms clock
        us[0] = 1_000_000 + (now - 500) * 1000
        if five.poll(now) is not None:
            got.append((now, five.pressed_ms))
    assert got == [(525, 500)]  # debounced at 525 ms, stamped at the edge: 500 ms
    hw.grounded.clear()
    pad = Keypad([12, 15, 16, 17], [18, 19, 23, 5], hw.Pin, clock_us=lambda: us[0])
    hw.pressed.add((12, 18))
    us[0] = 2_000_000
    hw.pins[18].fall()
    got = []
    for now in range(1000, 1100, 5):
        us[0] = 2_000_000 + (now - 1000) * 1000
        if pad.poll(now) is not None:
            got.append((now, pad.pressed_ms))
    assert got == [(1025, 1000)]


def test_debounce_ignores_bounce_and_counts_one_press() -> None:
    from firmware.core.keys import DEBOUNCE_MS, Debouncer

    d = Debouncer()
    readings = ["5", None, "5", None] + ["5"] * 10 + [None, "5"] + [None] * 10 + ["5"] * 10
    events = [d.update(k, t * 5) for t, k in enumerate(readings)]
    assert [e for e in events if e] == ["5", "5"]  # the first hold and the press after the release
    assert events.index("5") * 5 >= 3 * 5 + DEBOUNCE_MS  # not before the contact settled


def test_second_key_while_one_is_held_is_ignored() -> None:
    from firmware.core.keys import Debouncer

    d = Debouncer()
    events = [d.update("1", t) for t in range(0, 100, 5)]
    events += [d.update("1", t) for t in range(100, 200, 5)]  # "2" also down: the scan still sees "1" first
    assert [e for e in events if e] == ["1"]


def test_five_buttons_auto_repeat_only_up_and_down(hw: Any) -> None:
    from firmware.esp32.keys import Buttons

    pins = {"up": 13, "down": 14, "left": 27, "right": 26, "ok": 25}
    buttons = Buttons(pins, hw.Pin)
    hw.grounded.add(13)
    ups = [buttons.poll(t) for t in range(0, 1000, 5)]
    assert ups.count("up") == 5  # at 25 ms, then from 525 ms every 120 ms
    hw.grounded.clear()
    [buttons.poll(t) for t in range(1000, 1100, 5)]
    hw.grounded.add(25)
    oks = [buttons.poll(t) for t in range(1100, 2100, 5)]
    assert oks.count("ok") == 1


# -- battery, config, display ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mv", "pc"), [(3200, 0), (3300, 0), (3650, 31), (3800, 60), (4150, 97), (4200, 100), (4400, 100)]
)
def test_battery_curve(mv: int, pc: int) -> None:
    from firmware.core.battery import percent

    assert percent(mv) == pc


def test_battery_reads_the_divider(hw: Any) -> None:
    from firmware.esp32.battery import Battery

    hw.microvolts[34] = 2_050_000
    assert Battery(34, 2.0, hw.ADC, hw.Pin).millivolts() == 4100


def test_config_defaults_and_errors(tmp_path: Path) -> None:
    from firmware.esp32 import config

    cfg = config.parse('{"wifi": {"ssid": "Pub"}, "pins": {"battery": 35}}', b"\x00\x01\x02\xab\xcd\xef")
    assert cfg["handset"] == "esp32-abcdef" and cfg["pins"]["battery"] == 35 and cfg["pins"]["sda"] == 21
    assert config.broker_host(cfg) == "quizbox.local"
    cfg = config.parse('{"wifi": {"ssid": "Pub"}, "broker": {"host": "10.0.0.2"}}')
    assert config.broker_host(cfg) == "10.0.0.2" and cfg["broker"]["port"] == 1883
    example = (Path(config.__file__).parent / "config.example.json").read_text()
    assert config.parse(example)["name"] == "Table 3"
    for text, why in [
        ('{"wifi": {"ssid": "x"}, "box": "a b"}', "bad box id"),
        ('{"wifi": {"ssid": "x"}, "handset": ""}', "bad handset id"),
        ('{"wifi": {"ssid": "x"}, "broker": {"port": 0}}', "broker port 1-65535"),
        ('{"wifi": {"ssid": "x"}, "broker": {"keepalive": 1}}', "keepalive 5-300 s"),
        ('{"wifi": {"ssid": "x"}, "name": "' + "n" * 30 + '"}', "name: up to 24 chars"),
        ('{"wifi": "x"}', "wifi must be an object"),
    ]:
        with pytest.raises(config.ConfigError) as err:
            config.parse(text)
        assert str(err.value) == why
    with pytest.raises(config.ConfigError, match="no .*missing.json"):
        config.load(str(tmp_path / "missing.json"))


def test_ssd1306_init_and_show(hw: Any) -> None:
    from firmware.esp32.ssd1306 import SSD1306_I2C

    i2c = hw.I2C(0)
    oled = SSD1306_I2C(i2c)
    commands = [data[1] for addr, data in i2c.writes]
    assert commands[0] == 0xAE and commands[-1] == 0xAF and 0x8D in commands  # off ... charge pump ... on
    assert {addr for addr, _ in i2c.writes} == {0x3C}
    oled.fill(0)
    oled.text("OK", 60, 30, 1)
    i2c.writes.clear()
    oled.show()
    data = i2c.writes[-1][1]
    expected = FrameBuffer()
    expected.text("OK", 60, 30, 1)
    assert data == b"\x40" + bytes(expected.buffer)
    assert [d[1] for _, d in i2c.writes[:-1]] == [0x21, 0, 127, 0x22, 0, 7]


# -- Wi-Fi and the MQTT link ------------------------------------------------------------------------------------


def test_wifi_joins_without_blocking_and_retries(hw: Any) -> None:
    import network

    from firmware.esp32.wifi import JOINING, WAIT_MS, Wifi, hostname_for

    clock = Clock()
    network.polls_to_connect = 2
    network.ap_up = True
    wifi = Wifi("Pub", "pw", network, clock, hostname=hostname_for("esp32-A1_b2"))
    assert network.names[-1] == "qb-esp32-a1-b2"
    assert [wifi.up() for _ in range(4)] == [False, False, False, True]  # each call returns at once
    assert wifi.wlan.connects == 1 and wifi.rssi() == -58
    network.ap_up = False
    assert not wifi.up() and wifi.status() == JOINING
    clock.now += WAIT_MS - 1
    wifi.up()
    assert wifi.wlan.connects == 2  # the drop started a join at once...
    clock.now += WAIT_MS
    wifi.up()
    assert wifi.wlan.connects == 3  # ...and an unfinished one is restarted after WAIT_MS
    network.ap_up = True
    assert [wifi.up() for _ in range(3)][-1]


class Sock:
    def __init__(self) -> None:
        self.dead = False
        self.incoming = b""

    def read(self, n: int) -> bytes | None:
        data, self.incoming = self.incoming[:n], self.incoming[n:]
        return data or None

    def close(self) -> None:
        self.dead = True

    def settimeout(self, value: float | None) -> None:
        pass


class Broker:
    """What the handset's umqtt.simple clients did, and a way to make them fail."""

    def __init__(self) -> None:
        self.log: list[tuple[Any, ...]] = []
        self.refuse = 0
        self.clients: list[Client] = []

    def make(self, client_id: str, host: str, port: int, keepalive: int) -> Client:
        client = Client(self, (client_id, host, port, keepalive))
        self.clients.append(client)
        return client

    def inputs(self) -> list[dict[str, Any]]:
        return [P.decode(e[2]) for e in self.log if e[0] == "pub" and e[1].endswith(b"/input")]


class Client:
    def __init__(self, broker: Broker, args: tuple[Any, ...]) -> None:
        self.broker = broker
        self.args = args
        self.raw = Sock()
        self.sock: Any = self.raw  # the link wraps it
        self.cb: Any = None

    def set_callback(self, cb: Any) -> None:
        self.cb = cb

    def set_last_will(self, topic: bytes, msg: bytes, retain: bool = False, qos: int = 0) -> None:
        self.broker.log.append(("will", topic, msg, retain, qos))

    def connect(self, clean_session: bool = True) -> None:
        if self.broker.refuse:
            self.broker.refuse -= 1
            raise OSError("ECONNREFUSED")
        self.broker.log.append(("connect",))

    def publish(self, topic: bytes, msg: bytes, retain: bool = False, qos: int = 0) -> None:
        if self.raw.dead:
            raise OSError("ECONNRESET")
        self.broker.log.append(("pub", topic, msg, retain))

    def subscribe(self, topic: bytes, qos: int = 0) -> None:
        self.broker.log.append(("sub", topic))

    def check_msg(self) -> None:
        if self.raw.dead:
            raise OSError("ECONNRESET")
        self.sock.read(1)

    def ping(self) -> None:
        self.broker.log.append(("ping",))

    def disconnect(self) -> None:
        self.broker.log.append(("disconnect",))

    def deliver(self, topic: str, payload: bytes) -> None:
        self.raw.incoming += b"\x30"  # bytes arrive: the link hears the broker
        self.sock.read(1)
        self.cb(topic.encode(), payload)


def link_and_handset(broker: Broker, clock: Clock, rng: Any = None) -> tuple[Any, Any]:
    from firmware.core.handset import Handset
    from firmware.esp32.link import Link

    link = Link("box1", "h1", "quizbox.local", 1883, 20, make_client=broker.make, clock=clock, rng=rng)
    handset = Handset("box1", "h1", link, clock_ms=clock)
    link.handset = handset
    return link, handset


def test_link_connects_with_will_online_and_hello() -> None:
    broker, clock = Broker(), Clock()
    link, handset = link_and_handset(broker, clock)
    link.poll()
    assert broker.clients[0].args == ("h1", "quizbox.local", 1883, 20)
    status = b"quizbox/box1/handset/h1/status"
    assert broker.log[0] == ("will", status, b"offline", True, 1)
    assert broker.log[1] == ("connect",)
    assert broker.log[2] == ("pub", status, b"online", True)
    assert ("sub", b"quizbox/box1/handset/h1/prompt") in broker.log
    assert any(e[0] == "pub" and e[1].endswith(b"/hello") for e in broker.log)
    assert handset.online


def test_link_backoff_doubles_to_a_cap_with_jitter() -> None:
    from firmware.esp32.link import BACKOFF_MAX_MS

    broker, clock = Broker(), Clock()
    link, handset = link_and_handset(broker, clock, random.Random(3))
    broker.refuse = 100
    waits = []
    for _ in range(10):
        link.poll()
        waits.append(link.next_try - clock.now)
        clock.now = link.next_try
    bases = [min(1000 * 2**i, BACKOFF_MAX_MS) for i in range(10)]
    assert all(base <= wait <= base * 5 // 4 for base, wait in zip(bases, waits, strict=True)), waits
    assert len(broker.clients) == 10 and not handset.online
    broker.refuse = 0
    link.poll()
    assert handset.online and link.backoff == 1000


def test_link_drop_mid_entry_resends_the_input_once_after_reconnect() -> None:
    broker, clock = Broker(), Clock()
    link, handset = link_and_handset(broker, clock)
    link.poll()
    broker.clients[-1].deliver("quizbox/box1/handset/h1/prompt", P.encode(samples.by_id("s1")))
    handset.press("1")
    broker.clients[-1].raw.dead = True  # Wi-Fi gone mid-entry
    link.poll()
    assert not handset.online
    handset.press("2")
    handset.press("ok")
    handset.press("ok")
    assert handset.pending is not None and broker.inputs() == []
    clock.now += 1000
    link.poll()
    [sent] = broker.inputs()
    assert sent["data"] == {"split": {"true": 12, "false": 3}}
    ack = P.make_ack(sent["seq"], True, "split in")
    broker.clients[-1].deliver("quizbox/box1/handset/h1/ack", P.encode(ack))
    broker.clients[-1].raw.dead = True
    link.poll()
    clock.now += 1000
    link.poll()
    assert len(broker.inputs()) == 1 and handset.view == "locked"


def test_link_pings_and_notices_silence() -> None:
    broker, clock = Broker(), Clock()
    link, handset = link_and_handset(broker, clock)
    link.poll()
    clock.now += 10_000  # half the keepalive
    link.poll()
    assert broker.log[-1] == ("ping",)
    broker.clients[-1].deliver("quizbox/box1/handset/h1/time", P.encode({"v": 1, "t": 5}))
    clock.now += 25_000  # heard 25 s ago: under 1.5 keepalives
    link.poll()
    assert handset.online
    clock.now += 6_000
    link.poll()
    assert not handset.online and broker.clients[-1].raw.dead


def test_link_close_says_offline(hw: Any) -> None:
    broker, clock = Broker(), Clock()
    link, _ = link_and_handset(broker, clock)
    link.poll()
    link.close()
    assert broker.log[-2:] == [("pub", b"quizbox/box1/handset/h1/status", b"offline", True), ("disconnect",)]
    with pytest.raises(OSError):
        link.publish("t", b"x")


# -- the app loop ---------------------------------------------------------------------------------------------


def test_app_step_connects_reads_battery_and_sends_telemetry(hw: Any) -> None:
    import network

    from firmware.esp32 import app, config, keys, wifi

    network.polls_to_connect = 0
    cfg = config.parse('{"wifi": {"ssid": "Pub"}, "name": "Table 3"}', hw.unique_id())
    broker, clock = Broker(), Clock()

    class Battery:
        def percent(self) -> int:
            return 42

    screen = FrameBuffer()
    pad = keys.Keypad(cfg["pins"]["rows"], cfg["pins"]["cols"], hw.Pin)
    a = app.App(cfg, screen, pad, Battery(), wifi.Wifi("Pub", "", network, clock), clock, seq=5000)
    a.link.make_client, a.link.resolve = broker.make, None
    a.step()  # starts joining Wi-Fi, returns at once
    assert not a.handset.online and a.handset.status == "joining Wi-Fi"
    a.step()
    assert a.handset.online and a.handset.battery == 42
    [tele] = [P.decode(e[2]) for e in broker.log if e[0] == "pub" and e[1].endswith(b"/telemetry")]
    assert tele["battery"] == 42 and tele["rssi"] == -58
    broker.clients[-1].deliver(P.prompt_topic(cfg["box"], "esp32-123456"), P.encode(samples.by_id("z1")))
    hw.pressed.add((26, 4))  # D = OK
    for _ in range(10):
        clock.now += 5
        a.step()
    [buzz] = broker.inputs()
    assert buzz["seq"] == 5001 and buzz["data"]["pressed"] >= 25


def test_seq_blocks_differ_per_boot(tmp_path: Path) -> None:
    from firmware.esp32.app import SEQ_BLOCK, next_seq_block

    path = str(tmp_path / "seq")
    assert [next_seq_block(path) for _ in range(3)] == [0, SEQ_BLOCK, 2 * SEQ_BLOCK]
    Path(path).write_text("garbage")
    assert next_seq_block(path) == 0


@pytest.mark.parametrize(
    ("pins", "layout", "why"),
    [
        ({"rows": [13, 14, 27, 35]}, "keypad", "rows: 35 input only"),  # 34-39 cannot drive a row
        ({"cols": [25, 33, 32, 36]}, "keypad", "cols: 36 input only"),  # ...nor pull up a column
        ({"rows": [13, 14, 27, 7]}, "keypad", "rows: 7 is flash"),
        ({"cols": [25, 33, 32, 12]}, "keypad", "cols: 12 strapping"),
        ({"buttons": {"up": 0, "down": 14, "left": 27, "right": 26, "ok": 25}}, "five", "up: 0 strapping"),
        ({"buttons": {"up": 13, "down": 14, "left": 27, "right": 26, "ok": 1}}, "five", "ok: 1 is serial"),
        ({"battery": 26}, "keypad", "battery: ADC1 32-39"),  # ADC2 is Wi-Fi's
        ({"rows": [13, 14, 27, 24]}, "keypad", "rows: no GPIO 24"),
        ({"rows": [13, 14, 27, 26], "cols": [25, 33, 13, 4]}, "keypad", "pin 13 used twice"),
        ({"sda": 34}, "keypad", "pin 34 used twice"),  # the battery's
        ({"rows": [13, 14, 27]}, "keypad", "rows: 4 pins"),
    ],
)
def test_pins_are_checked_against_the_esp32(pins: dict[str, Any], layout: str, why: str) -> None:
    import json

    from firmware.esp32 import config

    text = json.dumps({"wifi": {"ssid": "Pub"}, "layout": layout, "pins": pins})
    with pytest.raises(config.ConfigError) as err:
        config.parse(text)
    assert str(err.value) == why and len(why) <= 20  # short enough for the OLED


def test_the_default_pins_and_the_example_pass(hw: Any) -> None:
    from firmware.esp32 import config

    assert config.parse('{"wifi": {"ssid": "Pub"}}')["pins"]["rows"] == [13, 14, 27, 26]
    assert config.parse('{"wifi": {"ssid": "Pub"}, "layout": "five"}')["layout"] == "five"
    example = (Path(config.__file__).parent / "config.example.json").read_text()
    config.parse(example)


def test_the_pairing_secret_is_made_with_the_radio_on(hw: Any) -> None:
    import network

    from firmware.esp32 import app, config, keys, wifi

    cfg = config.parse('{"wifi": {"ssid": "Pub"}}', hw.unique_id())
    w = wifi.Wifi("Pub", "", network, Clock(), hostname=wifi.hostname_for(cfg["handset"]))
    radio_on_at_secret = []

    def urandom(n: int) -> bytes:
        radio_on_at_secret.append(w.wlan.active())  # the ESP32's RNG is only truly random with it on
        return bytes(range(n))

    pad = keys.Keypad(cfg["pins"]["rows"], cfg["pins"]["cols"], hw.Pin)

    class Battery:
        def percent(self) -> int:
            return 50

    app.App(cfg, FrameBuffer(), pad, Battery(), w, Clock(), urandom=urandom)
    assert radio_on_at_secret and all(radio_on_at_secret)
    assert network.name == "qb-esp32-123456"  # each handset its own DHCP/mDNS name


def test_a_buzz_carries_the_time_of_the_pin_edge(hw: Any) -> None:
    import network

    from firmware.esp32 import app, config, keys, wifi

    network.polls_to_connect = 0
    network.ap_up = True
    cfg = config.parse('{"wifi": {"ssid": "Pub"}}', hw.unique_id())
    broker, clock = Broker(), Clock()
    us = [0]
    pad = keys.Keypad(cfg["pins"]["rows"], cfg["pins"]["cols"], hw.Pin, clock_us=lambda: us[0])

    class Battery:
        def percent(self) -> int:
            return 42

    a = app.App(cfg, FrameBuffer(), pad, Battery(), wifi.Wifi("Pub", "", network, clock), clock, seq=10)
    a.link.make_client, a.link.resolve = broker.make, None
    a.step()
    a.step()
    broker.clients[-1].deliver(P.prompt_topic(cfg["box"], "esp32-123456"), P.encode(samples.by_id("z1")))
    clock.now = 5000
    us[0] = 5_000_000
    hw.pressed.add((13, 25))  # "1" goes down at 5000 ms...
    hw.pins[25].fall()
    for _ in range(12):  # ...the loop sees it 5 ms later and debounces it for 25 ms
        clock.now += 5
        us[0] += 5000
        a.step()
    [buzz] = broker.inputs()
    assert buzz["data"] == {"pressed": 5000}  # the edge's time, not the debounced poll's (5030)
