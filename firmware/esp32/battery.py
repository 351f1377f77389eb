# Battery level from an ADC pin on a resistor divider (a 1-cell LiPo: 4.2 V full, 3.3 V empty under load).

# (millivolts, percent) along a typical LiPo discharge curve; linear in between
CURVE = ((3300, 0), (3500, 8), (3600, 20), (3700, 42), (3800, 60), (3900, 74), (4000, 85), (4100, 94), (4200, 100))


def percent(millivolts):
    if millivolts <= CURVE[0][0]:
        return 0
    for i in range(1, len(CURVE)):
        mv, pc = CURVE[i]
        if millivolts <= mv:
            mv0, pc0 = CURVE[i - 1]
            return pc0 + (pc - pc0) * (millivolts - mv0) // (mv - mv0)
    return 100


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
