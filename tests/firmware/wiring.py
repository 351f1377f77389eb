"""The ESP32 handset's wiring diagram (docs/img/handset-wiring-esp32.svg), drawn from the pins the firmware
uses by default (firmware/esp32/config.py DEFAULTS), the same as docs/hardware.md's pin table.

``python -m tests.firmware.wiring`` rewrites the SVG; tests/firmware/test_wiring.py fails when the file, the
config's pins and the table in docs/hardware.md disagree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware.esp32.config import DEFAULTS

ROOT = Path(__file__).resolve().parents[2]
SVG = ROOT / "docs" / "img" / "handset-wiring-esp32.svg"
KEYPAD_ROWS = ("1 2 3 A", "4 5 6 B", "7 8 9 C", "* 0 # D")
FIVE = ("up", "down", "left", "right", "ok")
COLOURS = {"oled": "#1f77b4", "keypad": "#2ca02c", "battery": "#d62728", "power": "#444444"}
ROW = 26
TOP = 70


def connections(pins: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """(ESP32 pin, part, the part's pin, on five buttons) for every wire, in the diagram's order."""
    wires = [
        ("3V3", "power", "regulator OUT (+220 uF to GND), OLED VCC", ""),
        ("GND", "power", "regulator GND, OLED GND, divider, TP4056 OUT-", "common of the five buttons"),
        (f"GPIO{pins['sda']}", "oled", "OLED SDA", ""),
        (f"GPIO{pins['scl']}", "oled", "OLED SCL", ""),
    ]
    by_pin = {pins["buttons"][name]: name for name in FIVE}
    for i, n in enumerate(pins["rows"]):
        five = by_pin.get(n, "")
        wires.append((f"GPIO{n}", "keypad", f"keypad R{i + 1} (keys {KEYPAD_ROWS[i]})", five and f"button {five}"))
    for i, n in enumerate(pins["cols"]):
        five = by_pin.get(n, "")
        wires.append((f"GPIO{n}", "keypad", f"keypad C{i + 1}", five and f"button {five}"))
    for n, name in sorted(by_pin.items()):
        if n not in pins["rows"] and n not in pins["cols"]:
            wires.append((f"GPIO{n}", "keypad", "", f"button {name}"))
    wires.append((f"GPIO{pins['battery']}", "battery", "cell+ -100k- pin -100k- GND, 100 nF to GND", ""))
    return wires


def _text(x: int, y: int, text: str, size: int = 13, anchor: str = "start", weight: str = "normal") -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (
        f'<text x="{x}" y="{y}" font-family="sans-serif" font-size="{size}" text-anchor="{anchor}" '
        f'font-weight="{weight}">{text}</text>'
    )


def svg(pins: dict[str, Any] | None = None) -> str:
    wires = connections(pins or DEFAULTS["pins"])
    height = TOP + ROW * len(wires) + 150
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="900" height="{height}" viewBox="0 0 900 {height}">',
        f'<rect width="900" height="{height}" fill="white"/>',
        _text(20, 28, "Quizbox ESP32 handset: wiring (GPIO numbers, config.py defaults)", 16, weight="bold"),
        _text(230, 52, "keypad layout", 12, "start", "bold"),
        _text(620, 52, "or, five-button layout", 12, "start", "bold"),
        f'<rect x="20" y="{TOP - 22}" width="150" height="{ROW * len(wires) + 14}" rx="6" fill="#f4f4f4" '
        'stroke="black" stroke-width="2"/>',
        _text(95, TOP - 30, "ESP32 DevKit", 13, "middle", "bold"),
    ]
    for i, (pin, part, keypad, five) in enumerate(wires):
        y = TOP + i * ROW
        colour = COLOURS[part]
        out.append(_text(160, y + 4, pin, 13, "end", "bold"))
        out.append(f'<circle cx="170" cy="{y}" r="4" fill="{colour}"/>')
        if keypad:
            out.append(f'<line x1="170" y1="{y}" x2="222" y2="{y}" stroke="{colour}" stroke-width="3"/>')
            out.append(_text(230, y + 4, keypad))
        if five:
            start = 600 if keypad else 170  # a pin only the five buttons use: its wire runs across
            out.append(
                f'<line x1="{start}" y1="{y}" x2="612" y2="{y}" stroke="{colour}" stroke-width="3" '
                'stroke-opacity="0.5"/>'
            )
            out.append(_text(620, y + 4, five))
    y = TOP + ROW * len(wires) + 20
    notes = [
        "Power: cell -> TP4056 (B+/B-) -> OUT+ -> slide switch -> AP2112K-3.3 IN; its OUT to 3V3 (not VIN).",
        "Switch the handset off before plugging USB into the DevKit: its own regulator then feeds 3V3 alone.",
        "Keypad rows are driven open drain, columns read with pull-ups; buttons go to GND (internal pull-ups).",
        "Never wire keys to GPIO 0, 2, 12, 15 (strapping), 6-11 (flash), 1, 3 (serial) or 34-39 (input only);",
        "on a WROVER (PSRAM) board GPIO 16 and 17 are the PSRAM's too. The battery needs ADC1 (32-39).",
    ]
    for i, line in enumerate(notes):
        out.append(_text(20, y + i * 20, line, 12))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> None:
    SVG.parent.mkdir(parents=True, exist_ok=True)
    SVG.write_text(svg())
    print("wrote", SVG.relative_to(ROOT))


if __name__ == "__main__":
    main()
