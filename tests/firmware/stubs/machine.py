# Stub of MicroPython's machine module for tests (CPython and the MicroPython WebAssembly port): pins
# wired to a simulated keypad matrix and buttons, an ADC with a settable voltage, an I2C bus that records
# (and fails on demand, as an unplugged OLED NACKs), a watchdog that checks it is fed in time, reset().

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


IRQ_FALLING = 2


class Pin:
    IN = IN
    OUT = OUT
    OPEN_DRAIN = OPEN_DRAIN
    PULL_UP = PULL_UP
    IRQ_FALLING = IRQ_FALLING

    def irq(self, handler=None, trigger=IRQ_FALLING):
        self.handler = handler

    def fall(self):
        """A falling edge on this pin, as the hardware would interrupt."""
        if getattr(self, "handler", None) is not None:
            self.handler(self)

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
    last = None  # the bus made last (the app's, in a test of run())

    def __init__(self, *args, **kwargs):
        I2C.last = self
        self.on = False  # the SSD1306 behind it is lit (display-on 0xAF received since its last reset)
        self.writes = []  # the last few (addr, bytes)
        self.frames = 0  # display frames written (data writes starting 0x40)
        self.frame = None  # the last one, without its 0x40
        self.failing = 0  # this many writes raise OSError(ENODEV), as a device that does not answer
        self.down = False  # every write fails until this is cleared
        self.errors = 0

    def writeto(self, addr, data):
        if self.down or self.failing:
            self.failing = max(0, self.failing - 1)
            self.errors += 1
            raise OSError(19)  # ENODEV: no ACK
        data = bytes(data)
        self.writes.append((addr, data))
        del self.writes[:-64]
        if data[0] == 0x80 and data[1] in (0xAE, 0xAF):
            self.on = data[1] == 0xAF
        if data[0] == 0x40 and len(data) > 2:
            self.frames += 1
            self.frame = data[1:]

    def controller_reset(self):
        """The OLED's controller resets (a brown-out on its supply) and goes on ACKing: dark, its RAM lost."""
        self.on = False
        self.frame = None

    def writevto(self, addr, vector):
        """One transaction of several buffers (the SSD1306 driver's frame: 0x40, then the buffer)."""
        if self.down or self.failing:
            self.failing = max(0, self.failing - 1)
            self.errors += 1
            raise OSError(19)
        head, body = bytes(vector[0]), bytes(vector[1])
        self.writes.append((addr, head + body))
        del self.writes[:-64]
        if head == b"\x40":
            self.frames += 1
            self.frame = body


clock = None  # the tests' clock (a callable giving ms), for the watchdog


class WDT:
    """Records each feed; ``starved`` counts the gaps longer than the timeout (a real one resets)."""

    last = None

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        self.starved = 0
        self.longest = 0
        self.fed = clock() if clock else 0
        WDT.last = self

    def feed(self):
        now = clock() if clock else 0
        self.longest = max(self.longest, now - self.fed)
        if now - self.fed > self.timeout:
            self.starved += 1
        self.fed = now
        self.feeds += 1


class ResetCalled(Exception):
    pass


resets = 0


def reset():
    global resets
    resets += 1
    raise ResetCalled()


def unique_id():
    return b"\x24\x0a\xc4\x12\x34\x56"
