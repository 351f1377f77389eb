# Battery level from an ADC pin on a resistor divider (the curve is firmware/core/battery.py's).

from firmware.core.battery import percent


class Battery:
    """``divider``: battery voltage over pin voltage (2.0 for two equal resistors)."""

    SAMPLES = 8

    def __init__(self, pin, divider=2.0, adc_class=None, pin_class=None):
        if adc_class is None:
            from machine import ADC as adc_class
            from machine import Pin as pin_class
        self.adc = adc_class(pin_class(pin), atten=adc_class.ATTN_11DB)
        self.divider = divider

    def millivolts(self):
        total = 0
        for _ in range(self.SAMPLES):
            total += self.adc.read_uv()  # calibrated by the ESP32's eFuse values
        return int(total / self.SAMPLES * self.divider / 1000)

    def percent(self):
        return percent(self.millivolts())
