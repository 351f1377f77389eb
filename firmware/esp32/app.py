# The ESP32 handset: config, display, buttons, battery, Wi-Fi and MQTT around the shared handset core.

import gc

from firmware import protocol
from firmware.core import ui
from firmware.core.handset import Handset
from firmware.core.pairing import Pairing, PairingScreen, SecretFile
from firmware.core.seq import SEQ_BLOCK, next_seq_block  # noqa: F401
from firmware.esp32 import config as config_module
from firmware.esp32.link import Link, ticks_add, ticks_diff

BATTERY_MS = 30000  # battery reading (and a screen refresh) this often
TELEMETRY_MS = 60000
SEQ_FILE = "seq"  # the first seq of this boot (firmware/core/seq.py)
SECRET_FILE = "secret"  # the pairing secret (firmware/core/pairing.py): the broker password once paired


def message(screen, lines):
    """A plain screen for boot and errors."""
    screen.fill(0)
    for i, line in enumerate(lines[:8]):
        screen.text(ui.clean(line)[:16], 0, i * 8, 1)
    screen.show()


class App:
    def __init__(self, cfg, screen, keys, battery, wifi, clock, rng=None, seq=0, secret_file=None, urandom=None):
        """``secret_file``: where the pairing secret is kept (None: in memory only, as in tests)."""
        self.cfg = cfg
        broker = cfg["broker"]
        store = SecretFile(secret_file) if secret_file else None
        self.pairing = Pairing(
            cfg["box"], cfg["handset"], broker["username"], broker["password"], cfg["name"], store, urandom
        )
        self.keys = keys
        self.battery = battery
        self.wifi = wifi
        self.clock = clock
        self.link = Link(
            cfg["box"],
            cfg["handset"],
            config_module.broker_host(cfg),
            cfg["broker"]["port"],
            cfg["broker"]["keepalive"],
            clock=clock,
            rng=rng,
            before_connect=wifi.ensure,
            pairing=self.pairing,
        )
        self.handset = Handset(
            cfg["box"],
            cfg["handset"],
            self.link,
            screen=PairingScreen(screen, self.pairing),
            layout=cfg["layout"],
            clock_ms=clock,
            name=cfg["name"],
            seq=seq,
        )
        self.link.handset = self.handset
        self.next_battery = clock()
        self.next_telemetry = clock()

    def step(self):
        """One pass of the main loop."""
        now = self.clock()
        key = self.keys.poll(now)
        if key is not None:
            self.handset.press(key)
        self.link.poll()
        self.handset.tick()
        now = self.clock()
        if ticks_diff(now, self.next_battery) >= 0:
            self.next_battery = ticks_add(now, BATTERY_MS)
            self.handset.battery = self.battery.percent()
            self.handset.render()
        if self.handset.online and ticks_diff(now, self.next_telemetry) >= 0:
            self.next_telemetry = ticks_add(now, TELEMETRY_MS)
            self.handset.rssi = self.wifi.rssi()
            try:  # noqa: SIM105 - MicroPython has no contextlib
                self.handset.telemetry()
            except OSError:
                pass  # the link notices on its next poll


def run(path="config.json"):  # pragma: no cover - needs the hardware; each part is tested on its own
    import random
    import time

    import machine

    from firmware.esp32.battery import Battery
    from firmware.esp32.keys import Buttons, Keypad
    from firmware.esp32.ssd1306 import SSD1306_I2C
    from firmware.esp32.wifi import Wifi

    i2c = machine.I2C(0, sda=machine.Pin(21), scl=machine.Pin(22), freq=400000)
    screen = SSD1306_I2C(i2c)
    message(screen, ["QUIZBOX", "starting..."])
    try:
        cfg = config_module.load(path, machine.unique_id())
    except config_module.ConfigError as err:
        message(screen, ["CONFIG ERROR"] + ui.wrap(str(err)))
        return
    pins = cfg["pins"]
    if (pins["sda"], pins["scl"]) != (21, 22):
        i2c = machine.I2C(0, sda=machine.Pin(pins["sda"]), scl=machine.Pin(pins["scl"]), freq=400000)
        screen = SSD1306_I2C(i2c)
    five = cfg["layout"] == protocol.LAYOUT_FIVE
    keys = Buttons(pins["buttons"]) if five else Keypad(pins["rows"], pins["cols"])
    battery = Battery(pins["battery"], cfg["battery_divider"])
    wifi = Wifi(cfg["wifi"]["ssid"], cfg["wifi"]["password"])
    message(screen, ["QUIZBOX", "Wi-Fi " + cfg["wifi"]["ssid"][:10], cfg["handset"]])
    app = App(cfg, screen, keys, battery, wifi, time.ticks_ms, random, next_seq_block(SEQ_FILE), SECRET_FILE)
    gc.collect()
    while True:
        app.step()
        time.sleep_ms(5)
