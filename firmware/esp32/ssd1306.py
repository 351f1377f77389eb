# SSD1306 128x64 OLED over I2C: a framebuf.FrameBuffer (MONO_VLSB, the controller's page layout) with
# show() sending the whole buffer. Command values from the SSD1306 datasheet.
#
# The display never takes the handset down: an I2C error (a NACK from a loose wire, a brown-out that
# reset the controller) is retried RETRIES times; then the handset carries on without a display and
# tries again every RETRY_MS, sending the init sequence before the frame once it answers.
# A controller that resets and goes on ACKing (a dip on its supply) comes back dark with its RAM lost, and
# nothing NACKs to say so: every WAKE_MS refresh() sends the settings (the init sequence without its
# display-off, so a lit screen does not blink) and the frame again, so it is lit within WAKE_MS.

import framebuf

RETRIES = 2
RETRY_MS = 1000
WAKE_MS = 5000

try:
    from time import ticks_diff, ticks_ms
except ImportError:  # CPython tests
    import time

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b


ADDRESS = 0x3C

_INIT = (
    0xAE,  # display off
    0x20,
    0x00,  # horizontal addressing
    0x40,  # start line 0
    0xA1,  # column 127 is SEG0 (mirror)
    0xA8,
    63,  # multiplex: 64 rows
    0xC8,  # scan COM from the bottom (flip)
    0xD3,
    0x00,  # no display offset
    0xDA,
    0x12,  # COM pins: alternative, no remap (128x64)
    0xD5,
    0x80,  # clock divide / oscillator
    0xD9,
    0xF1,  # pre-charge (internal VCC)
    0xDB,
    0x30,  # VCOMH deselect level
    0x81,
    0xCF,  # contrast
    0xA4,  # show RAM
    0xA6,  # not inverted
    0x8D,
    0x14,  # charge pump on (internal VCC)
    0xAF,  # display on
)


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, i2c, width=128, height=64, addr=ADDRESS, clock=None):
        self.i2c = i2c
        self.clock = clock or ticks_ms
        self.absent_since = None  # clock of the last failed try while the display does not answer
        self.errors = 0
        self.addr = addr
        self.width = width
        self.height = height
        self.pages = height // 8
        self.buffer = bytearray(width * self.pages)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self._frame_parts = (b"\x40", self.buffer)  # "data follows", then the buffer itself: no 1 KB copy
        self._cmd = bytearray(2)
        self._cmd[0] = 0x80
        self.present = self._try(self._init)
        self.woken = self.clock()

    def command(self, cmd):
        self._cmd[1] = cmd
        self.i2c.writeto(self.addr, self._cmd)

    def _init(self):
        for cmd in _INIT:
            self.command(cmd)

    def _wake(self):
        for cmd in _INIT[1:]:  # all but display-off
            self.command(cmd)
        self._frame()

    def _frame(self):
        for cmd in (0x21, 0, self.width - 1, 0x22, 0, self.pages - 1):  # the whole screen
            self.command(cmd)
        self.i2c.writevto(self.addr, self._frame_parts)  # one I2C transaction of both parts

    def _try(self, send):
        for _ in range(1 + RETRIES):
            try:
                send()
                return True
            except OSError:
                self.errors += 1
        self.absent_since = self.clock()
        return False

    def show(self):
        """Send the frame; True if the display took it. Never raises."""
        if not self.present:
            if self.absent_since is not None and ticks_diff(self.clock(), self.absent_since) < RETRY_MS:
                return False  # carry on without a display for a while
            if not self._try(self._init):
                return False
            self.present = True
        if self._try(self._frame):
            return True
        self.present = False  # re-initialised when it answers again (it may have been reset)
        return False

    def refresh(self):
        """Call every pass: sends the frame again once a display that stopped answering is back, and
        every WAKE_MS the settings and the frame (a controller that reset while still ACKing)."""
        if not self.present:
            self.show()
            return
        now = self.clock()
        if ticks_diff(now, self.woken) >= WAKE_MS:
            self.woken = now
            self.present = self._try(self._wake)

    def contrast(self, value):
        self._try(lambda: (self.command(0x81), self.command(value & 0xFF)))

    def power(self, on):
        self._try(lambda: self.command(0xAF if on else 0xAE))
