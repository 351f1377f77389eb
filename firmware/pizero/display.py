"""The SSD1306 through luma.oled: the core draws on firmware.core.fb's framebuffer, show() hands the
pixels to a luma device (a real ssd1306 on I2C, or luma.core's dummy device in tests and simulation)."""

from __future__ import annotations

from typing import Any

from PIL import Image

from firmware.core.fb import FrameBuffer

I2C_HZ = 400_000  # fast mode: a whole frame (1 KB) in ~25 ms instead of ~90 ms at the Pi's 100 kHz default


def ssd1306(port: int = 1, address: int = 0x3C) -> Any:
    """The OLED on I2C ``port``. The bus speed is the kernel's: the handset installer sets it to I2C_HZ
    with ``dtparam=i2c_arm_baudrate=400000`` in /boot/firmware/config.txt (docs/hardware.md)."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306 as device

    return device(i2c(port=port, address=address), width=128, height=64)


class Screen(FrameBuffer):
    """A framebuf-like screen whose show() draws on ``device`` (anything with luma's display(image))."""

    def __init__(self, device: Any) -> None:
        super().__init__(128, 64)
        self.device = device

    def image(self) -> Image.Image:
        img = Image.new("1", (self.width, self.height))
        img.putdata([255 * bit for row in self.rows() for bit in row])
        return img

    def show(self) -> None:
        self.device.display(self.image().convert(self.device.mode))
