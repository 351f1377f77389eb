"""The Pi Zero port: gpiozero buttons on MockFactory, luma's dummy display, paho against a real broker,
and the handset process's memory (RSS) measured here."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from gpiozero.pins.mock import MockConnectedPin, MockFactory, MockPin
from luma.core.device import dummy
from paho.mqtt.enums import CallbackAPIVersion

from firmware import protocol as P
from firmware.pizero import config
from firmware.pizero.app import App
from firmware.pizero.battery import Battery
from firmware.pizero.buttons import FiveButtons, Keypad
from firmware.pizero.display import Screen
from firmware.pizero.terminal import TerminalScreen, attach, key_for, read_keys
from tests.firmware import samples
from tests.firmware.support import shows

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "artifacts" / "handset-figures.json"


def wait(predicate: Any, timeout: float = 10.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.01)


# -- buttons --------------------------------------------------------------------------------------------------


def test_five_buttons_on_mock_pins() -> None:
    factory = MockFactory()
    pins = {"up": 5, "down": 6, "left": 13, "right": 19, "ok": 26}
    buttons = FiveButtons(pins, factory)
    try:
        for name in ("ok", "left", "right", "down"):
            pin = factory.pin(pins[name])
            pin.drive_low()
            time.sleep(0.05)
            pin.drive_high()
            time.sleep(0.05)
            assert buttons.events.get(timeout=1) == name
        up = factory.pin(5)
        up.drive_low()  # held: the first press, then repeats
        time.sleep(1.0)
        up.drive_high()
        held = []
        while not buttons.events.empty():
            held.append(buttons.events.get())
        assert held[0] == "up" and 2 <= len(held) <= 8 and set(held) == {"up"}  # 1 press + ~4 repeats
    finally:
        buttons.close()


@pytest.mark.parametrize(
    ("row", "col", "key"), [(0, 0, "1"), (1, 3, "del"), (2, 3, "next"), (3, 0, "-"), (3, 2, "."), (3, 3, "ok")]
)
def test_keypad_matrix_on_mock_pins(row: int, col: int, key: str) -> None:
    factory = MockFactory()
    rows, cols = [5, 6, 13, 19], [12, 16, 20, 21]
    # the held key joins its row to its column: a row pulled low pulls that column low
    factory.pin(rows[row], pin_class=OpenDrainKey, input_pin=factory.pin(cols[col]))
    pad = Keypad(rows, cols, factory)
    try:
        assert pad.events.get(timeout=2) == key
        time.sleep(0.1)
        assert pad.events.empty()  # held, not repeated
    finally:
        pad.close()


class OpenDrainKey(MockConnectedPin):
    """A row pin joined through a held key to a column with a pull-up: the column is low only while the
    row is an output at 0; a row that floats lets the pull-up win. Records any time it drove high."""

    drove_high = 0

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        self._follow()

    def _change_state(self, value: bool) -> bool:
        if self._function == "output" and value:
            OpenDrainKey.drove_high += 1
        changed: bool = MockPin._change_state(self, value)
        self._follow()
        return changed

    def _follow(self) -> None:
        if self.input_pin is None:
            return
        if self._function == "output" and not self._state:
            self.input_pin.drive_low()
        else:
            self.input_pin.drive_high()


def test_keypad_rows_are_open_drain_never_driven_high() -> None:
    factory = MockFactory()
    rows, cols = [5, 6, 13, 19], [12, 16, 20, 21]
    joined = [factory.pin(rows[r], pin_class=OpenDrainKey, input_pin=factory.pin(cols[0])) for r in (1, 2)]
    OpenDrainKey.drove_high = 0
    pad = Keypad(rows, cols, factory)  # two keys held in one column: 4 and 7
    try:
        assert pad.events.get(timeout=2) == "4"  # the first found; no short between the two rows
        time.sleep(0.05)
    finally:
        pad.close()
    assert OpenDrainKey.drove_high == 0 and all(p.function == "input" for p in joined)


def test_hold_to_repeat_starts_slow_after_every_press() -> None:
    from firmware.core.keys import REPEAT_DELAY_MS, REPEAT_MS

    factory = MockFactory()
    pins = {"up": 5, "down": 6, "left": 13, "right": 19, "ok": 26}
    five = FiveButtons(pins, factory)
    up = five.buttons[0]
    try:
        factory.pin(5).drive_low()
        time.sleep((REPEAT_DELAY_MS + 3 * REPEAT_MS) / 1000)  # a long hold: repeats come fast
        factory.pin(5).drive_high()
        assert up.hold_time == REPEAT_MS / 1000
        time.sleep(0.05)
        factory.pin(5).drive_low()  # the next press waits the whole delay again
        time.sleep(0.05)
        assert up.hold_time == REPEAT_DELAY_MS / 1000
        factory.pin(5).drive_high()
    finally:
        five.close()


def test_pizero_link_looks_the_box_up_again_after_a_lost_connection() -> None:
    from firmware.pizero.mqtt import Link

    found = [("192.0.2.20", 1884)]
    link = Link("box1", "pz1", "192.0.2.10", 1883, 30, find=lambda: found[-1])
    link._on_disconnect(link.paho, None, None, None, None)
    assert (link.host, link.port) == ("192.0.2.20", 1884)
    assert (link.paho.host, link.paho.port) == ("192.0.2.20", 1884)  # paho's reconnect goes there

    def lost() -> tuple[str, int]:
        raise OSError("mDNS did not answer")

    link.find = lost
    link._on_disconnect(link.paho, None, None, None, None)
    assert link.host == "192.0.2.20"  # keeps trying the last known address


def test_keypad_needs_sixteen_keys() -> None:
    with pytest.raises(ValueError, match="4 row and 4 column pins"):
        Keypad([1, 2, 3], [4, 5, 6, 7], MockFactory())


# -- display, battery, config, terminal ------------------------------------------------------------------------


def test_luma_dummy_device_gets_the_same_pixels() -> None:
    device = dummy(width=128, height=64, mode="1")
    screen = Screen(device)
    screen.fill(0)
    screen.text("Locked in", 28, 30, 1)
    screen.rect(0, 0, 128, 64, 1)
    screen.show()
    image = device.image
    assert image.size == (128, 64)
    assert [[1 if image.getpixel((x, y)) else 0 for x in range(128)] for y in range(64)] == screen.rows()


def test_battery_from_the_mcp3008_value() -> None:
    class Adc:
        value = 0.5758  # 1.9 V of 3.3 V

    assert Battery(Adc(), 2.0).millivolts() == 3800 and Battery(Adc(), 2.0).percent() == 60


def test_config_for_the_pi(tmp_path: Path) -> None:
    cfg = config.parse('{"box": "pub_one", "layout": "five"}', b"\xb8\x27\xeb\x01\x02\x03")
    assert cfg["handset"] == "pizero-010203" and cfg["pins"]["buttons"]["ok"] == 26 and "wifi" not in cfg
    with pytest.raises(config.ConfigError, match="unknown key wifi"):
        config.parse('{"wifi": {"ssid": "x"}}')
    cfg = config.parse('{"broker": {"host": "192.0.2.7", "port": 1884}}')
    assert config.find_broker(cfg) == ("192.0.2.7", 1884)


def test_terminal_screen_and_keys(tmp_path: Path) -> None:
    out = StringIO()
    screen = TerminalScreen(out, tmp_path / "screen.png", title="h1")
    screen.text("Hi", 0, 0, 1)
    screen.show()
    assert out.getvalue().startswith("\x1b[H\x1b[2Jh1\n+" + "-" * 128 + "+")
    assert (tmp_path / "screen.png").read_bytes().startswith(b"\x89PNG")
    assert [key_for(k, "keypad") for k in ("7", "m", "\x7f", "\t", "\r", "q")] == [
        "7",
        "mag",
        "del",
        "next",
        "ok",
        None,
    ]
    assert list(read_keys("five", StringIO("\x1b[A\x1b[Bq\n"))) == ["up", "down", "ok"]
    assert list(read_keys("keypad", StringIO("-1.5k\t2\r"))) == ["-", "1", ".", "5", "mag", "next", "2", "ok"]


def test_attach_shows_and_presses_a_handset(tmp_path: Path) -> None:
    from tests.firmware.support import make
    from tests.firmware.support import show as show_prompt

    handset, transport, _ = make("keypad", screen=False)
    handset.connected()
    show_prompt(handset, samples.by_id("r2"))
    out = StringIO()
    thread = attach(handset, threading.RLock(), out, tmp_path / "h1.png", StringIO("-2.5k\t3mm\r\r"))
    assert thread is not None
    thread.join(5)
    assert [i["data"] for i in transport.inputs()] == [{"bottom": "-2500", "top": "3000000"}]
    assert "handset h1 (keypad)" in out.getvalue() and (tmp_path / "h1.png").exists()
    assert shows(handset.screen, "Sending...")


# -- against a real broker ---------------------------------------------------------------------------------------


class ApplianceSide:
    """A paho client playing the appliance: sends prompts, acks inputs once per (seq, prompt)."""

    def __init__(self, host: str, port: int, box: str, handset: str) -> None:
        self.box, self.handset = box, handset
        self.inputs: list[dict[str, Any]] = []
        self.applied: list[dict[str, Any]] = []
        self.status: list[str] = []
        self.hellos = 0
        self.said: list[dict[str, Any]] = []  # the hellos, parsed
        self.seen: set[tuple[int, str]] = set()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"appliance-{box}")
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.client.connect(host, port)
        self.client.loop_start()
        wait(self.client.is_connected, what="appliance side connected")

    def _connected(self, client: mqtt.Client, *_: Any) -> None:
        client.subscribe(P.handset_wildcard(self.box, "#"), qos=1)

    def _message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        leaf = msg.topic.rsplit("/", 1)[1]
        if leaf == "status":
            self.status.append(msg.payload.decode())
        elif leaf == "hello":
            self.said.append(P.parse_hello(self.handset, P.decode(msg.payload)))
            self.hellos += 1
        elif leaf == "input":
            parsed = P.parse_input(self.handset, P.decode(msg.payload))
            self.inputs.append(parsed)
            key = (parsed["seq"], parsed["prompt"])
            if key not in self.seen:
                self.seen.add(key)
                self.applied.append(parsed["data"])
            ack = P.make_ack(parsed["seq"], True, "locked in", parsed["prompt"])
            client.publish(P.ack_topic(self.box, self.handset), P.encode(ack), qos=1)

    def prompt(self, prompt: dict[str, Any]) -> None:
        self.client.publish(P.prompt_topic(self.box, self.handset), P.encode(prompt), qos=1)

    def heartbeat(self, boot: str) -> None:
        beat = P.make_heartbeat(round(time.time() * 1000), boot)
        self.client.publish(P.appliance_heartbeat_topic(self.box), P.encode(beat), qos=1, retain=True)

    def close(self) -> None:
        self.client.publish(P.appliance_heartbeat_topic(self.box), b"", qos=1, retain=True).wait_for_publish(5)
        self.client.disconnect()
        self.client.loop_stop()


class Keys:
    def __init__(self) -> None:
        self.events: queue.Queue[str] = queue.Queue()
        self.closed = False

    def close(self) -> None:
        self.closed = True


@pytest.fixture()
def pi(mosquitto: Any, request: pytest.FixtureRequest) -> Iterator[tuple[App, ApplianceSide, Keys]]:
    box = "pz" + str(abs(hash(request.node.name)) % 10**6)
    cfg = config.parse(json.dumps({"box": box, "handset": "pz1", "broker": {"keepalive": 5}}))
    host, port = mosquitto.address.host, mosquitto.address.port
    appliance = ApplianceSide(host, port, box, "pz1")
    keys = Keys()
    app = App(cfg, host, port, dummy(width=128, height=64, mode="1"), keys, None, seq=100)
    thread = threading.Thread(target=app.run, daemon=True)
    thread.start()
    wait(lambda: app.handset.online and appliance.hellos >= 1, what="handset online")
    yield app, appliance, keys
    app.stop()
    thread.join(5)
    appliance.close()


def test_online_hello_and_lock_in_over_mqtt(pi: tuple[App, ApplianceSide, Keys]) -> None:
    app, appliance, keys = pi
    wait(lambda: appliance.status[-1:] == ["online"], what="retained online")
    appliance.prompt(samples.by_id("t1"))
    wait(lambda: app.handset.prompt is not None, what="prompt")
    for key in ["2", "next", "4", "ok", "ok"]:
        keys.events.put(key)
    wait(lambda: app.handset.view == "locked", what="locked in")
    assert appliance.applied == [{"answer": "B", "token": 4}] and appliance.inputs[0]["seq"] == 101
    # the view changes in the ack's handler, the screen is drawn once the handler is done (the MQTT
    # thread): drawn a moment later (a fresh-clone run saw the view locked and the screen not yet drawn)
    wait(lambda: shows(app.handset.screen, "Locked in"), timeout=5, what="Locked in on the screen")


def test_tie_break_number_then_a_later_kind_over_mqtt(pi: tuple[App, ApplianceSide, Keys]) -> None:
    """The Pi port runs protocol 1.2 through the core: the tie-break's number, then a kind it does not know
    shown as info (nothing to enter)."""
    app, appliance, keys = pi
    appliance.prompt(samples.by_id("n2"))
    wait(lambda: app.handset.prompt is not None and app.handset.prompt["id"] == "n2", what="number prompt")
    for key in ["3", "3", "0", ".", "5", "ok", "ok"]:
        keys.events.put(key)
    wait(lambda: app.handset.view == "locked", what="locked in")
    assert appliance.applied == [{"number": "330.5"}] and appliance.inputs[0]["kind"] == P.NUMBER
    appliance.prompt({"v": 1, "id": "q9", "kind": "dartboard", "title": "Darts!", "text": "Throw at the TV"})
    wait(lambda: app.handset.prompt["id"] == "q9", what="later kind")
    keys.events.put("ok")
    time.sleep(0.3)
    assert app.handset.view == "info" and shows(app.handset.screen, "Throw at the TV")
    assert len(appliance.inputs) == 1


def test_dropped_mid_entry_delivers_exactly_once(pi: tuple[App, ApplianceSide, Keys]) -> None:
    app, appliance, keys = pi
    appliance.prompt(samples.by_id("r2"))
    wait(lambda: app.handset.prompt is not None, what="prompt")
    for key in ["1", "0", "next"]:
        keys.events.put(key)
    wait(lambda: app.handset.editor.field.label == "To", what="typing")
    with app.lock:
        sock = app.link.paho.socket()
        sock.close()  # the Wi-Fi drops without a goodbye
    wait(lambda: not app.handset.online, what="offline noticed")
    for key in ["2", "0", "ok", "ok"]:
        keys.events.put(key)
    wait(lambda: app.handset.pending is not None, what="pending")
    wait(lambda: app.handset.view == "locked", timeout=15, what="re-sent after reconnect, acked")
    time.sleep(0.3)
    assert appliance.applied == [{"bottom": "10", "top": "20"}]
    assert len(appliance.inputs) == 1 and appliance.hellos >= 2
    assert "offline" in appliance.status  # the last will told the appliance


def test_a_box_restart_behind_a_live_broker_gets_the_acked_hello(pi: tuple[App, ApplianceSide, Keys]) -> None:
    """The appliance process restarts, the broker (and the handset's connection) stays up: its heartbeat's
    new boot is all the handset sees, and it says hello again with its last acked input."""
    app, appliance, keys = pi
    appliance.heartbeat("boot-1")
    wait(lambda: app.handset.box_answering(), what="heartbeat heard")
    appliance.prompt(samples.by_id("t1"))
    wait(lambda: app.handset.prompt is not None, what="prompt")
    for key in ["2", "next", "4", "ok", "ok"]:
        keys.events.put(key)
    wait(lambda: app.handset.view == "locked", what="locked in")
    hellos = appliance.hellos
    appliance.heartbeat("boot-1")  # the same box again: nothing to say
    time.sleep(0.5)
    assert appliance.hellos == hellos
    appliance.heartbeat("boot-2")
    wait(lambda: appliance.hellos > hellos, what="hello after the box's restart")
    t1 = samples.by_id("t1")
    assert appliance.said[-1]["acked"] == {"seq": 101, "prompt": "t1", "kind": "token",
                                           "data": {"answer": "B", "token": 4}, "mark": P.prompt_mark(t1)}
    assert app.handset.online and app.handset.box_boot == "boot-2"


# -- the process: memory figure ------------------------------------------------------------------------------------


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_pizero_process_rss(mosquitto: Any, tmp_path: Path) -> None:
    box = "pzrss"
    cfg = tmp_path / "handset.json"
    cfg.write_text(
        json.dumps(
            {"box": box, "handset": "pz9", "broker": {"host": mosquitto.address.host, "port": mosquitto.address.port}}
        )
    )
    appliance = ApplianceSide(mosquitto.address.host, mosquitto.address.port, box, "pz9")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "firmware.pizero",
            "--config",
            str(cfg),
            "--state",
            str(tmp_path / "state"),
            "--simulate",
        ],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait(lambda: appliance.hellos >= 1, timeout=30, what="process said hello")
        appliance.prompt(samples.by_id("r1"))
        time.sleep(1.0)  # drawn, idle
        rss = _rss_kib(proc.pid)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
        wait(lambda: appliance.status[-1:] == ["offline"], what="clean offline")
    finally:
        if proc.poll() is None:
            proc.kill()
        appliance.close()
    FIGURES.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    data["pizero_process_rss_kib"] = rss
    FIGURES.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    assert rss < 120 * 1024  # a Pi Zero 2 W has 512 MB
    from tests.firmware.test_micropython import documented, near

    [mib] = documented("Pi Zero handset process", "MiB")
    assert near(mib * 1024, rss, 0.3), "update docs/hardware.md"


def test_an_unacked_input_outlives_a_restart_of_the_pi_handset(tmp_path: Path) -> None:
    """The Pi keeps the unacked input in its state folder too (issue 33): a restarted service sends it again."""
    cfg = config.parse(json.dumps({"box": "pzkeep", "handset": "pz1"}))

    def boot() -> App:
        return App(cfg, "127.0.0.1", 1, dummy(width=128, height=64, mode="1"), Keys(), None, seq=100, state=tmp_path)

    app = boot()
    prompt = samples.by_id("t1")
    assert app.handset.on_message(P.prompt_topic("pzkeep", "pz1"), P.encode(prompt))
    for key in ["2", "next", "4", "ok", "ok"]:
        app.handset.press(key)
    assert app.handset.view == "sent" and (tmp_path / "pending").exists()  # offline: kept, not sent
    again = boot()
    assert again.handset.view == "sent"
    assert again.handset.pending == app.handset.pending and again.handset.pending["data"] == {"answer": "B", "token": 4}
