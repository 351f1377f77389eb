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


def parse(text, unique_id=b""):
    return core.parse(text, unique_id, DEFAULTS, PREFIX)


def load(path="config.json", unique_id=b""):
    return core.load(path, unique_id, DEFAULTS, PREFIX)
