# Stub of MicroPython's framebuf for CPython tests (MicroPython has the real one): firmware.core.fb's
# FrameBuffer behind framebuf's constructor.
from firmware.core import fb

MONO_VLSB = 0


class FrameBuffer(fb.FrameBuffer):
    def __init__(self, buffer, width, height, format=MONO_VLSB):
        if format != MONO_VLSB:
            raise ValueError("only MONO_VLSB in this stub")
        fb.FrameBuffer.__init__(self, width, height, buffer)
