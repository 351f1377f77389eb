# Stub of MicroPython's machine module for tests (CPython and the MicroPython WebAssembly port): pins
# wired to a simulated keypad matrix and buttons, an ADC with a settable voltage, an I2C bus that records.

IN = 1
OUT = 2
OPEN_DRAIN = 3
PULL_UP = 1

pins = {}  # number -> Pin
pressed = set()  # (row_pin, col_pin) pairs closed by a held keypad key
grounded = set()  # pins held low by a button
microvolts = {}  # ADC pin -> reading


def reset_board():
    pins.clear()
    pressed.clear()
    grounded.clear()
    microvolts.clear()


class Pin:
    IN = IN
    OUT = OUT
    OPEN_DRAIN = OPEN_DRAIN
    PULL_UP = PULL_UP

    def __init__(self, number, mode=IN, pull=None, value=None):
        self.number = number
        self.mode = mode
        self.pull = pull
        self.level = 1 if value is None else value
        pins[number] = self

    def value(self, v=None):
        if v is not None:
            self.level = 1 if v else 0
            return None
        if self.mode != IN:
            return self.level
        if self.number in grounded:
            return 0
        for row, col in pressed:
            if col == self.number and row in pins and pins[row].level == 0:
                return 0
        return 1 if self.pull == PULL_UP else 0


class ADC:
    ATTN_11DB = 3

    def __init__(self, pin, atten=None):
        self.pin = pin
        self.atten = atten

    def read_uv(self):
        return microvolts.get(self.pin.number, 0)


class I2C:
    def __init__(self, *args, **kwargs):
        self.writes = []

    def writeto(self, addr, data):
        self.writes.append((addr, bytes(data)))


def unique_id():
    return b"\x24\x0a\xc4\x12\x34\x56"
