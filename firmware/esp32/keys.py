# Buttons on the ESP32's GPIO: a 4x4 matrix keypad or five buttons, scanned from the main loop and
# debounced (firmware/core/keys.py).

from firmware.core.keys import FIVE_NAMES, KEYPAD_MAP, REPEATING, Debouncer  # noqa: F401

try:
    from time import ticks_add, ticks_diff, ticks_us
except ImportError:  # CPython tests inject the clocks
    ticks_us = None

    def ticks_add(a, b):
        return a + b

    def ticks_diff(a, b):
        return a - b


EDGE_MS = 200  # an edge older than this when the debounced press comes is not that press's


class _Keys:
    """What both layouts share: the debounced poll, and the time of the press taken at the pin's falling
    edge (Pin.irq, ticks_us), not at the debounced poll 25 ms or more later (a buzzer's time)."""

    def _edges(self, pins, pin_class, clock_us):
        self.clock_us = clock_us or ticks_us
        self.edge = None  # ticks_us of the first falling edge since the last press was taken
        self.scanning = False
        self.pressed_ms = None  # the press time poll() returned a key for, on the poll's ms clock
        irq = getattr(pin_class, "IRQ_FALLING", None)
        if irq is None:
            return
        for pin in pins:
            pin.irq(trigger=irq, handler=self._on_edge)

    def _on_edge(self, pin):
        # a soft IRQ: no allocation, only the first edge counts; the scan's own edges do not
        if self.edge is None and not self.scanning:
            self.edge = self.clock_us()

    def poll(self, now):
        key = self.debouncer.update(self.scan(), now)
        if key is not None:
            self.pressed_ms = now
            edge = self.edge
            if edge is not None:
                early = ticks_diff(self.clock_us(), edge) // 1000
                if 0 <= early <= EDGE_MS:
                    self.pressed_ms = ticks_add(now, -early)
            self.edge = None
        elif self.debouncer.stable is None and self.debouncer.raw is None:
            self.edge = None  # released: the next edge starts the next press
        return key


class Keypad(_Keys):
    """A 4x4 matrix: rows driven low one at a time (open drain), columns read with pull-ups. Between
    scans every row is low, so a press pulls its column low at once (the edge the IRQ stamps). A scan
    allocates nothing."""

    def __init__(self, row_pins, col_pins, pin_class=None, clock_us=None):
        if pin_class is None:
            from machine import Pin as pin_class
        if len(row_pins) != 4 or len(col_pins) != 4:
            raise ValueError("a 4x4 keypad needs 4 row and 4 column pins")
        self.rows = [pin_class(n, pin_class.OPEN_DRAIN, value=0) for n in row_pins]
        self.cols = [pin_class(n, pin_class.IN, pin_class.PULL_UP) for n in col_pins]
        self.debouncer = Debouncer()
        self._edges(self.cols, pin_class, clock_us)

    def scan(self):
        """The key held now (the first found), or None."""
        rows = self.rows
        cols = self.cols
        self.scanning = True
        for r in range(4):
            rows[r].value(1)
        found = None
        for r in range(4):
            rows[r].value(0)
            for c in range(4):
                if found is None and cols[c].value() == 0:
                    found = KEYPAD_MAP[r][c]
            rows[r].value(1)
        for r in range(4):
            rows[r].value(0)  # idle: every row low, for the edge interrupt
        self.scanning = False
        return found


class Buttons(_Keys):
    """Five buttons to ground with pull-ups: up, down, left, right, OK."""

    def __init__(self, pins, pin_class=None, clock_us=None):
        if pin_class is None:
            from machine import Pin as pin_class
        self.names = FIVE_NAMES
        self.pins = [pin_class(pins[name], pin_class.IN, pin_class.PULL_UP) for name in FIVE_NAMES]
        self.debouncer = Debouncer(REPEATING)
        self._edges(self.pins, pin_class, clock_us)

    def scan(self):
        pins = self.pins
        for i in range(5):
            if pins[i].value() == 0:
                return self.names[i]
        return None
