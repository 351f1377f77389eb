"""The handset screenshots in docs/img (handset-*.png), rendered from the core.

``python -m tests.firmware.doc_images`` rewrites them; tests/firmware/test_doc_images.py fails when a
change to the screens leaves the docs' pictures stale.
"""

from __future__ import annotations

from pathlib import Path

from firmware import protocol as P
from tests.firmware import samples
from tests.firmware.support import ack, make, press, show

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"

# name -> (layout, prompt id, keys, then an ack: None, or (ok, message))
SHOTS: dict[str, tuple[str, str, list[str], tuple[bool, str] | None]] = {
    "handset-keypad-range": ("keypad", "r1", ["1", "2", ".", "5", "mag", "next", "2", "0", "mag"], None),
    "handset-five-range": ("five", "r2", ["up", "up", "up", "right", "right", "up", "up", "right", "up"], None),
    "handset-keypad-bet": ("keypad", "b2", ["3", "next", "1", "2", "0"], None),
    "handset-keypad-split": ("keypad", "s1", ["9"], None),
    "handset-five-token": ("five", "t1", ["up", "up", "right", "down"], None),
    "handset-keypad-review": ("keypad", "r2", ["8", "8", "0", "0", "next", "9", "mag", "ok"], None),
    "handset-keypad-refused": (
        "keypad",
        "b1",
        ["3", "next", "3", "0", "ok", "ok"],
        (False, "Bet at least 60: the ante rose"),
    ),
    "handset-keypad-locked": ("keypad", "r1", ["1", "next", "2", "0", "0", "ok", "ok"], (True, "range 1 - 200")),
    "handset-keypad-waiting": ("keypad", "w1", [], None),
    "handset-keypad-buzz": ("keypad", "z1", [], None),
    "handset-keypad-number": ("keypad", "n2", ["3", "3", "0"], None),
    "handset-five-number": ("five", "n1", ["up", "right"] + ["up"] * 9 + ["right"] + ["up"] * 8 + ["right"], None),
    "handset-keypad-box-silent": ("keypad", "r1", ["1", "next", "2", "0", "0"], None),
    "handset-keypad-offline": ("keypad", "r1", ["1", "next", "2", "0", "0", "ok", "ok"], None),
}
# shots whose link is not the usual one: the box silent (connected, no heartbeat), or the handset offline
LINK = {"handset-keypad-box-silent": "silent", "handset-keypad-offline": "offline"}


def render_all() -> dict[str, bytes]:
    out = {}
    for name, (layout, prompt_id, keys, answer) in SHOTS.items():
        handset, _, fb = make(layout)
        handset.battery = 82
        handset.connected()
        show(handset, samples.by_id(prompt_id))
        sent = press(handset, keys)
        if answer is not None:
            ack(handset, sent[-1], *answer)
        if LINK.get(name) == "silent":
            handset.clock_ms.now += P.STALE_MS  # nothing heard from the box since the connect
            handset.tick()
        elif LINK.get(name) == "offline":
            handset.disconnected()
        out[name] = fb.png()
    return out


def main() -> None:
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    for name, png in render_all().items():
        (DOCS_IMG / (name + ".png")).write_bytes(png)
        print(DOCS_IMG / (name + ".png"))


if __name__ == "__main__":
    main()
