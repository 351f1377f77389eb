"""Test doubles for the handset core: a transport that records, a tiny appliance that acks, screen reading."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from firmware import protocol as P
from firmware.core import font8
from firmware.core.fb import FrameBuffer
from firmware.core.handset import Handset

BOX = "box1"
HID = "h1"


class Transport:
    """Records publishes and subscriptions; ``up`` False makes publish fail like a dead socket."""

    def __init__(self) -> None:
        self.published: list[tuple[str, bytes, bool]] = []
        self.subscribed: list[str] = []
        self.up = True

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        if not self.up:
            raise OSError("connection lost")
        self.published.append((topic, payload, retain))

    def subscribe(self, topic: str) -> None:
        self.subscribed.append(topic)

    def on(self, leaf: str) -> list[dict[str, Any]]:
        topic = P.handset_topic(BOX, HID, leaf)
        return [P.decode(p) for t, p, _ in self.published if t == topic]

    def inputs(self) -> list[dict[str, Any]]:
        return [P.parse_input(HID, obj) for obj in self.on("input")]


class Clock:
    def __init__(self) -> None:
        self.now = 1000

    def __call__(self) -> int:
        return self.now


def make(layout: str = "keypad", screen: bool = True) -> tuple[Handset, Transport, FrameBuffer]:
    transport = Transport()
    fb = FrameBuffer()
    handset = Handset(BOX, HID, transport, screen=fb if screen else None, layout=layout, clock_ms=Clock(), name="Ann")
    return handset, transport, fb


def show(handset: Handset, prompt: dict[str, Any]) -> None:
    assert handset.on_message(P.prompt_topic(BOX, HID), P.encode(prompt))


def ack(handset: Handset, seq: int, ok: bool = True, msg: str = "") -> None:
    assert handset.on_message(P.ack_topic(BOX, HID), P.encode(P.make_ack(seq, ok, msg)))


def press(handset: Handset, keys: str | list[str]) -> list[int]:
    """Press keys (a list, or a string of single-character keys); the seqs of inputs sent."""
    sent = []
    for key in keys:
        seq = handset.press(key)
        if seq is not None:
            sent.append(seq)
    return sent


# -- reading the screen --------------------------------------------------------------------------------------


def _glyph(ch: str) -> bytes:
    code = ord(ch) if font8.FIRST <= ord(ch) <= font8.LAST else font8.LAST
    start = 8 * (code - font8.FIRST)
    return bytes(font8.GLYPHS[start : start + 8])


def shows(fb: FrameBuffer, text: str) -> bool:
    """Whether ``text`` is drawn somewhere on the screen, in full and alone in its 8-pixel band
    (lit on dark, or dark on lit), at any pixel position."""
    normal = b"".join(_glyph(c) for c in text)
    inverted = bytes(~b & 0xFF for b in normal)
    buf, width = fb.buffer, fb.width
    for y in range(fb.height - 7):
        page, shift = y >> 3, y & 7
        low = buf[page * width : (page + 1) * width]
        high = buf[(page + 1) * width : (page + 2) * width] if shift else bytes(width)
        band = bytes(((a >> shift) | (b << (8 - shift))) & 0xFF for a, b in zip(low, high, strict=True))
        if normal in band or inverted in band:
            return True
    return False


LINK_X = 104  # the status bar's link icon: 8x8 pixels from here, dark on the lit bar (ui.status_bar)


def link_icon(fb: FrameBuffer) -> list[str]:
    """The link icon's pixels, one string a row: "#" dark (drawn), "." lit (the bar)."""
    return ["".join("." if fb.pixel(x, y) else "#" for x in range(LINK_X, LINK_X + 8)) for y in range(8)]


def status_bar_outside_the_icon(fb: FrameBuffer) -> list[int]:
    """The status bar's pixels left and right of the link icon (title, battery)."""
    return [fb.pixel(x, y) for y in range(8) for x in range(128) if not LINK_X <= x < LINK_X + 8]


def save_png(fb: FrameBuffer, name: str) -> Path:
    """Write a screenshot to the tests' output folder (artifacts/handset-screens, or $QUIZBOX_ARTIFACTS)."""
    root = Path(os.environ.get("QUIZBOX_ARTIFACTS", Path(__file__).resolve().parents[2] / "artifacts"))
    folder = root / "handset-screens"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (name + ".png")
    path.write_bytes(fb.png())
    return path
