"""The wiring diagram (docs/img/handset-wiring-esp32.svg) and docs/hardware.md's ESP32 pin table against the
pins the firmware uses (firmware/esp32/config.py DEFAULTS): a maker wiring from either gets a handset that
boots with the example config."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

from firmware.esp32.config import DEFAULTS
from tests.firmware import wiring

PINS = DEFAULTS["pins"]
HARDWARE_MD = wiring.ROOT / "docs" / "hardware.md"


def _texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]


def _gpios(cell: str) -> list[int]:
    return [int(n) for n in re.findall(r"GPIO(\d+)", cell)]


def _table() -> dict[str, list[int]]:
    """The ESP32 wiring table of docs/hardware.md: part and its pin column -> the GPIOs in the last column."""
    text = HARDWARE_MD.read_text()
    section = text.split("### ESP32", 1)[1].split("\n### ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and _gpios(cells[2]):
            rows[cells[0].split(" (")[0] + " / " + cells[1].split(" (")[0].split(" --")[0]] = _gpios(cells[2])
    return rows


def test_the_svg_is_drawn_from_the_configs_pins() -> None:
    assert wiring.SVG.read_text() == wiring.svg(), "run: python -m tests.firmware.wiring"
    texts = " ".join(_texts(wiring.SVG.read_text()))
    used = [PINS["sda"], PINS["scl"], PINS["battery"], *PINS["rows"], *PINS["cols"], *PINS["buttons"].values()]
    for n in used:
        assert f"GPIO{n}" in texts, n


def test_the_svg_follows_the_pins_it_is_given() -> None:
    pins = copy.deepcopy(PINS)
    pins["buttons"]["ok"] = 23  # a pin no keypad wire uses: its own row
    texts = _texts(wiring.svg(pins))
    row = texts.index("GPIO23")
    assert "button ok" in texts[row:] and "GPIO23" not in _texts(wiring.svg())


def test_the_pin_table_in_hardware_md_is_the_configs() -> None:
    table = _table()
    assert table["OLED / SDA / SCL"] == [PINS["sda"], PINS["scl"]]
    assert table["Keypad / R1, R2, R3, R4"] == PINS["rows"]
    assert table["Keypad / C1, C2, C3, C4"] == PINS["cols"]
    assert table["Five buttons / up, down, left, right, OK"] == [
        PINS["buttons"][k] for k in ("up", "down", "left", "right", "ok")
    ]
    assert table["Battery divider / cell +"] == [PINS["battery"]]
