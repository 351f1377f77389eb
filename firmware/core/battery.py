# Battery level from the cell voltage (a 1-cell LiPo: 4.2 V full, 3.3 V empty under load), shared by the
# ports: each reads the voltage its own way (ESP32 ADC, Pi Zero MCP3008).
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
