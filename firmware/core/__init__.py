# Handset core: prompt screens and input editing, shared by the ESP32 port, the Pi Zero port and
# `quizbox handset-sim`. MicroPython-compatible: no typing, dataclasses, Decimal or CPython-only modules;
# hardware and transport are injected.
