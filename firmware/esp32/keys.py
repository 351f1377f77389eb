# Buttons on GPIO: a 4x4 matrix keypad or five buttons, scanned from the main loop and debounced.
#
# Keypad (a standard 4x4 membrane keypad, its letters relabelled):
#   1 2 3 A      A = mag (k/M/B/T/x10^)
#   4 5 6 B      B = del
#   7 8 9 C      C = next field
#   * 0 # D      * = minus, # = decimal point, D = OK

KEYPAD_MAP = (
    ("1", "2", "3", "mag"),
    ("4", "5", "6", "del"),
    ("7", "8", "9", "next"),
    ("-", "0", ".", "ok"),
)
FIVE_NAMES = ("up", "down", "left", "right", "ok")

DEBOUNCE_MS = 25  # a change must hold this long to count
REPEAT_DELAY_MS = 500  # five buttons: holding up/down scrolls on after this...
REPEAT_MS = 120  # ...every this often
REPEATING = ("up", "down")


class Debouncer:
    """Turns raw scans (the key held now, or None) into press events: one per stable press.

    Only one key counts at a time; a second key pressed while one is held is ignored (no chords).
    """

    def __init__(self, repeating=()):
        self.repeating = repeating
        self.raw = None  # last raw reading
        self.raw_since = 0
        self.stable = None  # debounced key held
        self.next_repeat = 0

    def update(self, key, now):
        """The key pressed by this scan, if any; ``now`` in ms (ticks)."""
        if key != self.raw:
            self.raw = key
            self.raw_since = now
            return None
        if key != self.stable and _diff(now, self.raw_since) >= DEBOUNCE_MS:
            self.stable = key
            if key is not None:
                self.next_repeat = _add(now, REPEAT_DELAY_MS)
                return key
            return None
        if key is not None and key == self.stable and key in self.repeating and _diff(now, self.next_repeat) >= 0:
            self.next_repeat = _add(now, REPEAT_MS)
            return key
        return None


try:
    from time import ticks_add as _add
    from time import ticks_diff as _diff
except ImportError:  # CPython tests: plain integers

    def _add(a, b):
        return a + b

    def _diff(a, b):
        return a - b


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
