# ESP32 port (MicroPython): boot.py and main.py go to the device's root, this package to /lib/firmware/esp32.
