"""The Pi Zero handset's config file: the shared format (firmware.core.config) with BCM pin numbers,
an MCP3008 channel for the battery (null: none), and no Wi-Fi keys (Raspberry Pi OS joins the network)."""

from __future__ import annotations

import uuid
from typing import Any

from firmware import protocol
from firmware.core import config as shared

ConfigError = shared.ConfigError

DEFAULTS: dict[str, Any] = {
    "box": "quizbox",
    "handset": None,  # None: "pizero-" and the last 6 hex digits of the MAC
    "name": None,
    # host None: found over mDNS; username None: the handset id; password "": not paired yet
    "broker": {"host": None, "port": 1883, "keepalive": 30, "username": None, "password": ""},
    "layout": protocol.LAYOUT_KEYPAD,
    "pins": {
        "i2c_port": 1,  # SDA GPIO2 (pin 3), SCL GPIO3 (pin 5)
        "rows": [5, 6, 13, 19],
        "cols": [12, 16, 20, 21],
        "buttons": {"up": 5, "down": 6, "left": 13, "right": 19, "ok": 26},
        "battery": 0,  # MCP3008 channel on SPI0, or null
    },
    "battery_divider": 2.0,
}


def mac() -> bytes:
    return uuid.getnode().to_bytes(6, "big")


def parse(text: str, unique_id: bytes = b"") -> dict[str, Any]:
    cfg: dict[str, Any] = shared.parse(text, unique_id or mac(), DEFAULTS, "pizero-")
    return cfg


def load(path: str) -> dict[str, Any]:
    cfg: dict[str, Any] = shared.load(path, mac(), DEFAULTS, "pizero-")
    return cfg


def find_broker(cfg: dict[str, Any], timeout: float = 5.0) -> tuple[str, int]:
    """The configured broker, else the box's announcement on mDNS (firmware.pizero.discovery), else its
    mDNS host name ``<box>.local`` for the resolver to try. Called again on every reconnect: the box's
    address may change (DHCP) while the handset runs."""
    host = cfg["broker"]["host"]
    if host:
        return host, cfg["broker"]["port"]
    from firmware.pizero.discovery import browse

    found = browse(cfg["box"], timeout)
    if found is not None:
        return found
    return shared.broker_host(cfg), cfg["broker"]["port"]
