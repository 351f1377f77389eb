# Wi-Fi station mode from the config file; ensure() is the link's before_connect hook.

WAIT_MS = 15000


class Wifi:
    def __init__(self, ssid, password, network_module=None, sleep_ms=None):
        if network_module is None:
            import network as network_module
        if sleep_ms is None:
            from time import sleep_ms
        self.sleep_ms = sleep_ms
        self.wlan = network_module.WLAN(network_module.STA_IF)
        self.ssid = ssid
        self.password = password

    def ensure(self):
        """Connected to the access point, or OSError after WAIT_MS."""
        if self.wlan.isconnected():
            return
        self.wlan.active(True)
        self.wlan.connect(self.ssid, self.password)
        waited = 0
        while not self.wlan.isconnected():
            if waited >= WAIT_MS:
                raise OSError("no Wi-Fi " + self.ssid[:20])
            self.sleep_ms(100)
            waited += 100

    def rssi(self):
        try:
            value = self.wlan.status("rssi")
        except (OSError, ValueError):
            return None
        return value if isinstance(value, int) and -130 <= value <= 0 else None
