# ESP32 main: the handset. Copied to the device's root (see docs/hardware.md, "Flashing").
from firmware.esp32 import app

app.run()
