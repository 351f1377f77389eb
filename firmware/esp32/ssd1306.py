# SSD1306 128x64 OLED over I2C: a framebuf.FrameBuffer (MONO_VLSB, the controller's page layout) with
# show() sending the whole buffer. Command values from the SSD1306 datasheet.

import framebuf

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
    def __init__(self, i2c, width=128, height=64, addr=ADDRESS):
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.height = height
        self.pages = height // 8
        self.buffer = bytearray(width * self.pages)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self._data = bytearray(1 + len(self.buffer))
        for cmd in _INIT:
            self.command(cmd)

    def command(self, cmd):
        self.i2c.writeto(self.addr, bytes((0x80, cmd)))

    def show(self):
        for cmd in (0x21, 0, self.width - 1, 0x22, 0, self.pages - 1):  # the whole screen
            self.command(cmd)
        self._data[0] = 0x40  # data follows
        self._data[1:] = self.buffer
        self.i2c.writeto(self.addr, self._data)

    def contrast(self, value):
        self.command(0x81)
        self.command(value & 0xFF)

    def power(self, on):
        self.command(0xAF if on else 0xAE)
