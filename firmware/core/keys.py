# The handset's keys, shared by the ports: the 4x4 keypad's labels, the five buttons' names, and the
# debouncer that turns raw scans into presses (the ESP32 scans from its main loop, the Pi Zero on a thread).
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
