# Freezes the handset firmware into a custom MicroPython build for the ESP32, so its bytecode and constants
# run from flash instead of being loaded into the heap (84 KB of RAM as .mpy files, bench/firmware_heap.py).
# Build (docs/hardware.md, "A frozen build"), from a MicroPython 1.29 checkout with ESP-IDF set up:
#
#   cd ports/esp32
#   make BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/quizbox/firmware/esp32/manifest.py
#
# Paths here are relative to this file. The device then needs only main.py, boot.py and config.json on
# its filesystem. This file is read by MicroPython's build tools, not imported by the firmware.

# the ESP32 port's own frozen modules; they bring umqtt.simple (micropython-lib), which the link uses
include("$(PORT_DIR)/boards/manifest.py")  # noqa: F821

FILES = [
    "__init__.py",
    "protocol.py",
    "core/__init__.py",
    "core/allowed.py",
    "core/battery.py",
    "core/bot.py",
    "core/config.py",
    "core/editor.py",
    "core/fields.py",
    "core/handset.py",
    "core/keys.py",
    "core/mdns.py",
    "core/numtext.py",
    "core/pairing.py",
    "core/seq.py",
    "core/ui.py",
    "esp32/__init__.py",
    "esp32/app.py",
    "esp32/battery.py",
    "esp32/config.py",
    "esp32/keys.py",
    "esp32/link.py",
    "esp32/ssd1306.py",
    "esp32/wifi.py",
]

# the firmware package from the repository root (two folders up); core/fb.py and core/font8.py draw
# CPython's screens only, boot.py and main.py stay files on the device
package("firmware", files=FILES, base_path="../..", opt=3)  # noqa: F821
