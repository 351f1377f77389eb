"""Buttons on the Pi's GPIO through gpiozero; each press lands in a queue the main loop drains.

* five buttons: gpiozero Buttons (to ground, pull-ups, gpiozero's bounce time); up/down repeat when held;
* a 4x4 keypad: rows are outputs driven low one at a time, columns inputs with pull-ups, scanned on a
  thread and debounced like the ESP32's (firmware.core.keys).

``pin_factory`` is gpiozero's (tests: MockFactory); None uses gpiozero's default for the board.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

from gpiozero import Button, Device, DigitalInputDevice

from firmware.core.keys import FIVE_NAMES, KEYPAD_MAP, REPEAT_DELAY_MS, REPEAT_MS, REPEATING, Debouncer

BOUNCE_S = 0.025
SCAN_S = 0.005


class OpenDrainRow:
    """A keypad row as an open-drain output, on gpiozero's pin API: on() pulls it to ground (an output at
    0), off() lets it float (an input, no pull), so it is never driven high. gpiozero's output devices
    are push-pull only, hence the pin's function is switched."""

    def __init__(self, number: int, pin_factory: Any) -> None:
        self.pin = pin_factory.pin(number)
        self.off()

    def on(self) -> None:
        self.pin.function = "output"
        self.pin.state = 0

    def off(self) -> None:
        self.pin.function = "input"
        self.pin.pull = "floating"

    def close(self) -> None:
        self.pin.close()


class FiveButtons:
    def __init__(self, pins: dict[str, int], pin_factory: Any = None) -> None:
        self.events: queue.Queue[str] = queue.Queue()
        self.buttons = []
        for name in FIVE_NAMES:
            repeat = name in REPEATING
            button = Button(
                pins[name],
                pull_up=True,
                bounce_time=BOUNCE_S,
                hold_time=REPEAT_DELAY_MS / 1000,
                hold_repeat=repeat,
                pin_factory=pin_factory,
            )
            if repeat:
                button.when_pressed = lambda _b=None, n=name, b=button: self._pressed(n, b)
                button.when_held = lambda _b=None, n=name, b=button: self._held(n, b)
            else:
                button.when_pressed = lambda _b=None, n=name: self.events.put(n)
            self.buttons.append(button)

    def _pressed(self, name: str, button: Any) -> None:
        button.hold_time = REPEAT_DELAY_MS / 1000  # every press waits the full delay before repeating
        self.events.put(name)

    def _held(self, name: str, button: Any) -> None:
        button.hold_time = REPEAT_MS / 1000  # after the first repeat, faster
        self.events.put(name)

    def close(self) -> None:
        for button in self.buttons:
            button.close()


class Keypad:
    def __init__(self, rows: list[int], cols: list[int], pin_factory: Any = None) -> None:
        if len(rows) != 4 or len(cols) != 4:
            raise ValueError("a 4x4 keypad needs 4 row and 4 column pins")
        self.events: queue.Queue[str] = queue.Queue()
        self.cols = [DigitalInputDevice(n, pull_up=True, pin_factory=pin_factory) for n in cols]
        # open drain, as the ESP32's: a row is pulled to ground or let float, never driven high, so two keys
        # held in one column cannot short a high row to a low one
        factory = pin_factory or Device.pin_factory  # set by the columns' devices when it was None
        self.rows = [OpenDrainRow(n, factory) for n in rows]
        self.debouncer = Debouncer()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="keypad-scan", daemon=True)
        self._thread.start()

    def scan(self) -> str | None:
        found = None
        for r, row in enumerate(self.rows):
            row.on()  # active low: this row to ground
            for c, col in enumerate(self.cols):
                if found is None and col.is_active:
                    found = KEYPAD_MAP[r][c]
            row.off()
        return found

    def _run(self) -> None:
        while not self._stop.is_set():
            key = self.debouncer.update(self.scan(), int(time.monotonic() * 1000))
            if key is not None:
                self.events.put(key)
            self._stop.wait(SCAN_S)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1)
        for device in self.rows + self.cols:
            device.close()
