# The ESP32 handset's config file (config.json at the device's root; see config.example.json and
# docs/hardware.md "Provisioning"): the shared format of firmware/core/config.py with the ESP32's
# defaults, its "esp32-" id prefix, and its pins checked against what the chip allows.

from firmware import protocol
from firmware.core import config as core
from firmware.core.config import ConfigError, broker_host  # noqa: F401 - the port's config API

PREFIX = "esp32-"
DEFAULTS = {
    "wifi": {"ssid": "", "password": ""},
    "box": "quizbox",
    "handset": None,  # None: "esp32-" and the last 6 hex digits of the chip's MAC
    "name": None,
    # host None: "<box>.local" over mDNS; username None: the handset id; password "": not paired yet
    # (firmware/core/pairing.py makes a secret and asks the quizmaster for an account)
    "broker": {"host": None, "port": 1883, "keepalive": 30, "username": None, "password": ""},
    "layout": protocol.LAYOUT_KEYPAD,
    "pins": {
        "sda": 21,
        "scl": 22,
        "rows": [13, 14, 27, 26],
        "cols": [25, 33, 32, 4],
        "buttons": {"up": 13, "down": 14, "left": 27, "right": 26, "ok": 25},
        "battery": 34,
    },
    "battery_divider": 2.0,
}


# The ESP32's GPIOs (ESP32-WROOM-32 datasheet, "Pin Definitions" and "Strapping Pins")
GPIOS = tuple(range(0, 20)) + (21, 22, 23, 25, 26, 27) + tuple(range(32, 40))
FLASH = (6, 7, 8, 9, 10, 11)  # wired to the module's SPI flash
INPUT_ONLY = (34, 35, 36, 37, 38, 39)  # no output driver and no internal pull-up
ADC1 = (32, 33, 34, 35, 36, 37, 38, 39)  # ADC2 cannot be read while Wi-Fi is on
STRAPPING = (0, 2, 12, 15)  # read at reset: a key held low (or a pull-up on 12) stops the boot
SERIAL = (1, 3)  # UART0: the REPL and flashing


def parse(text, unique_id=b""):
    cfg = core.parse(text, unique_id, DEFAULTS, PREFIX)
    check_pins(cfg)
    return cfg


def _gpio(value, what):
    if not isinstance(value, int) or isinstance(value, bool) or value not in GPIOS:
        raise ConfigError(what + ": no GPIO " + str(value)[:6])
    if value in FLASH:
        raise ConfigError(what + ": " + str(value) + " is flash")
    if value in SERIAL:
        raise ConfigError(what + ": " + str(value) + " is serial")
    return value


def check_pins(cfg):
    """The pins the configured layout uses, against what an ESP32 allows: a ConfigError names the pin."""
    pins = cfg["pins"]
    used = []
    for name in ("sda", "scl"):
        used.append((name, _gpio(pins[name], name)))
    if cfg["layout"] == protocol.LAYOUT_FIVE:
        buttons = pins["buttons"]
        if not isinstance(buttons, dict):
            raise ConfigError("buttons: an object")
        keys = [(name, buttons.get(name)) for name in ("up", "down", "left", "right", "ok")]
    else:
        keys = []
        for part in ("rows", "cols"):
            given = pins[part]
            if not isinstance(given, list) or len(given) != 4:
                raise ConfigError(part + ": 4 pins")
            keys += [(part, n) for n in given]
    for what, n in keys:
        _gpio(n, what)
        if n in INPUT_ONLY:
            raise ConfigError(what + ": " + str(n) + " input only")  # no pull-up, no output
        if n in STRAPPING:
            raise ConfigError(what + ": " + str(n) + " strapping")
        used.append((what, n))
    battery = pins["battery"]
    if battery is not None:
        _gpio(battery, "battery")
        if battery not in ADC1:
            raise ConfigError("battery: ADC1 32-39")
        used.append(("battery", battery))
    seen = []
    for _, n in used:
        if n in seen:
            raise ConfigError("pin " + str(n) + " used twice")
        seen.append(n)


def load(path="config.json", unique_id=b""):
    return core.load(path, unique_id, DEFAULTS, PREFIX)
