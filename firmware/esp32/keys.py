# Buttons on the ESP32's GPIO: a 4x4 matrix keypad or five buttons, scanned from the main loop and
# debounced (firmware/core/keys.py).

from firmware.core.keys import FIVE_NAMES, KEYPAD_MAP, REPEATING, Debouncer  # noqa: F401


class Keypad:
    """A 4x4 matrix: rows driven low one at a time (open drain), columns read with pull-ups."""

    def __init__(self, row_pins, col_pins, pin_class=None):
        if pin_class is None:
            from machine import Pin as pin_class
        if len(row_pins) != 4 or len(col_pins) != 4:
            raise ValueError("a 4x4 keypad needs 4 row and 4 column pins")
        self.rows = [pin_class(n, pin_class.OPEN_DRAIN, value=1) for n in row_pins]
        self.cols = [pin_class(n, pin_class.IN, pin_class.PULL_UP) for n in col_pins]
        self.debouncer = Debouncer()

    def scan(self):
        """The key held now (the first found), or None."""
        found = None
        for r, row in enumerate(self.rows):
            row.value(0)
            for c, col in enumerate(self.cols):
                if found is None and col.value() == 0:
                    found = KEYPAD_MAP[r][c]
            row.value(1)
        return found

    def poll(self, now):
        return self.debouncer.update(self.scan(), now)


class Buttons:
    """Five buttons to ground with pull-ups: up, down, left, right, OK."""

    def __init__(self, pins, pin_class=None):
        if pin_class is None:
            from machine import Pin as pin_class
        self.pins = [(name, pin_class(pins[name], pin_class.IN, pin_class.PULL_UP)) for name in FIVE_NAMES]
        self.debouncer = Debouncer(REPEATING)

    def scan(self):
        for name, pin in self.pins:
            if pin.value() == 0:
                return name
        return None

    def poll(self, now):
        return self.debouncer.update(self.scan(), now)
