"""A handset screen in a terminal (and/or a PNG file) and keys from the keyboard: what
``quizbox handset-sim --show`` uses so a developer can see a simulated handset and press it.

Keypad layout: digits, ``.``, ``-``, ``m`` or ``k`` (magnitude), Backspace (delete), Tab or space (next
field), Enter (OK). Five buttons: arrow keys or w/a/s/d, Enter (OK).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from firmware import protocol
from firmware.core.fb import FrameBuffer

KEYPAD_KEYS = {
    ".": ".",
    ",": ".",
    "-": "-",
    "m": "mag",
    "k": "mag",
    "x": "mag",
    "\x7f": "del",
    "\x08": "del",
    "\t": "next",
    " ": "next",
    "\r": "ok",
    "\n": "ok",
}
KEYPAD_KEYS.update({d: d for d in "0123456789"})
FIVE_KEYS = {
    "\x1b[A": "up",
    "\x1b[B": "down",
    "\x1b[D": "left",
    "\x1b[C": "right",
    "w": "up",
    "s": "down",
    "a": "left",
    "d": "right",
    "\r": "ok",
    "\n": "ok",
    " ": "ok",
}
LEGEND = {
    protocol.LAYOUT_KEYPAD: "keys: 0-9 . - m=k/M/B/T/x10^ Backspace=del Tab=next Enter=OK  Ctrl-C quits",
    protocol.LAYOUT_FIVE: "keys: arrows or w/a/s/d, Enter=OK  Ctrl-C quits",
}


def key_for(typed: str, layout: str) -> str | None:
    """The handset key for a keystroke (or an arrow's escape sequence), None if it means nothing."""
    table = FIVE_KEYS if layout == protocol.LAYOUT_FIVE else KEYPAD_KEYS
    return table.get(typed)


class TerminalScreen(FrameBuffer):
    """Redraws the whole terminal on each show(); with ``png`` also writes the screen to that file."""

    def __init__(
        self,
        out: IO[str] | None = None,
        png: str | os.PathLike[str] | None = None,
        layout: str = protocol.LAYOUT_KEYPAD,
        title: str = "",
    ) -> None:
        super().__init__(128, 64)
        self.out = out
        self.png_path = Path(png) if png else None
        self.layout = layout
        self.title = title

    def show(self) -> None:
        if self.out is not None:
            head = self.title + "\n" if self.title else ""
            self.out.write("\x1b[H\x1b[2J" + head + self.terminal() + "\n" + LEGEND[self.layout] + "\n")
            self.out.flush()
        if self.png_path is not None:
            tmp = self.png_path.with_suffix(".tmp")
            tmp.write_bytes(self.png())
            tmp.replace(self.png_path)  # a viewer never sees half a file


def read_keys(layout: str, stream: IO[str] | None = None) -> Iterator[str]:
    """Handset keys typed on ``stream`` (stdin by default; raw mode while reading if it is a TTY)."""
    stream = stream or sys.stdin
    raw = stream.isatty()
    if raw:
        import termios
        import tty

        saved = termios.tcgetattr(stream.fileno())
        tty.setcbreak(stream.fileno())
    try:
        while True:
            ch = stream.read(1)
            if not ch:
                return
            if ch == "\x1b":
                ch += stream.read(2)  # an arrow: ESC [ A..D
            key = key_for(ch, layout)
            if key is not None:
                yield key
    finally:
        if raw:
            termios.tcsetattr(stream.fileno(), termios.TCSADRAIN, saved)


def attach(
    handset: Any,
    lock: Any,
    out: IO[str] | None = None,
    png: str | os.PathLike[str] | None = None,
    keys: IO[str] | None = None,
) -> threading.Thread | None:
    """Show ``handset`` (a firmware.core Handset) in the terminal and/or a PNG, and press it from ``keys``
    (a text stream; stdin for a developer) on a daemon thread; every call into the handset holds ``lock``.
    Returns the key thread, or None without ``keys``. This is ``quizbox handset-sim --show``."""
    handset.screen = TerminalScreen(out, png, handset.layout, title=f"handset {handset.id} ({handset.layout})")
    with lock:
        handset.render()
    if keys is None:
        return None

    def press_keys() -> None:
        for key in read_keys(handset.layout, keys):
            with lock:
                handset.press(key)

    thread = threading.Thread(target=press_keys, name=f"keys-{handset.id}", daemon=True)
    thread.start()
    return thread
