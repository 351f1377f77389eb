# A tiny framebuf.FrameBuffer for CPython: the MONO_VLSB format of the SSD1306 (one byte per column of 8
# rows), the drawing calls the handset UI uses, and MicroPython's 8x8 font, so tests and
# `quizbox handset-sim --show` render exactly the pixels a handset shows. Also writes PNG (zlib + struct,
# no dependency) and terminal text.

import struct
import zlib

from firmware.core import font8

WIDTH = 128
HEIGHT = 64


class FrameBuffer:
    def __init__(self, width=WIDTH, height=HEIGHT, buffer=None):
        self.width = width
        self.height = height
        self.buffer = buffer if buffer is not None else bytearray(width * ((height + 7) // 8))

    # -- framebuf API ------------------------------------------------------------------------------------
    def fill(self, c):
        value = 0xFF if c else 0
        for i in range(len(self.buffer)):
            self.buffer[i] = value

    def pixel(self, x, y, c=None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        index = (y >> 3) * self.width + x
        bit = 1 << (y & 7)
        if c is None:
            return 1 if self.buffer[index] & bit else 0
        if c:
            self.buffer[index] |= bit
        else:
            self.buffer[index] &= ~bit & 0xFF
        return None

    def fill_rect(self, x, y, w, h, c):
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self.width), min(y + h, self.height)
        for yy in range(y0, y1):
            for xx in range(x0, x1):
                self.pixel(xx, yy, c)

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def text(self, s, x, y, c=1):
        # like framebuf: the UTF-8 bytes of s, anything outside 32..127 as glyph 127
        for byte in s.encode():
            if byte == 0:
                break
            code = byte if font8.FIRST <= byte <= font8.LAST else font8.LAST
            start = 8 * (code - font8.FIRST)
            for j in range(8):
                column = font8.GLYPHS[start + j]
                xx = x + j
                if 0 <= xx < self.width:
                    for bit in range(8):
                        if column >> bit & 1:
                            self.pixel(xx, y + bit, c)
            x += 8

    # -- output ---------------------------------------------------------------------------------------------
    def rows(self):
        """The pixels as lists of 0/1, top row first."""
        return [[self.pixel(x, y) for x in range(self.width)] for y in range(self.height)]

    def png(self, scale=4, on=(120, 220, 255), off=(8, 12, 20), border=2):
        """PNG bytes of the screen, each pixel a ``scale`` x ``scale`` square, OLED-like colours."""
        w = (self.width + 2 * border) * scale
        h = (self.height + 2 * border) * scale
        raw = bytearray()
        for y in range(-border, self.height + border):
            line = bytearray()
            for x in range(-border, self.width + border):
                lit = 0 <= x < self.width and 0 <= y < self.height and self.pixel(x, y)
                line += bytes(on if lit else off) * scale
            for _ in range(scale):
                raw += b"\x00" + line
        return _png(w, h, bytes(raw))

    def terminal(self):
        """The screen as text, two pixel rows per line with half blocks, framed."""
        out = ["+" + "-" * self.width + "+"]
        for y in range(0, self.height, 2):
            line = ""
            for x in range(self.width):
                top, bottom = self.pixel(x, y), self.pixel(x, y + 1) if y + 1 < self.height else 0
                line += " \u2584\u2580\u2588"[top * 2 + bottom]
            out.append("|" + line + "|")
        out.append("+" + "-" * self.width + "+")
        return "\n".join(out)


def _png(w, h, raw):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8-bit RGB
    body = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body
