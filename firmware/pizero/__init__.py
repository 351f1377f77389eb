"""Pi Zero 2 W port (CPython): the shared handset core with gpiozero buttons, luma.oled and paho-mqtt."""
