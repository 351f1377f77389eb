# ESP32 main: the handset. Copied to the device's root (see docs/hardware.md, "Flashing"). Hold OK (D on
# the keypad) while powering on to stay at the REPL without the app; Ctrl-C reboots into the REPL once.
from firmware.esp32 import app

app.run()
