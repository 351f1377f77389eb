# Stub of MicroPython's network module: a WLAN that connects after a few polls (or never).
STA_IF = 0

polls_to_connect = 3  # None: the access point never answers
rssi = -58


class WLAN:
    def __init__(self, interface):
        self.interface = interface
        self.on = False
        self.connecting = None
        self.connects = 0

    def active(self, on=None):
        if on is not None:
            self.on = on
        return self.on

    def connect(self, ssid, password):
        self.connects += 1
        self.connecting = polls_to_connect

    def isconnected(self):
        if self.connecting is None:
            return False
        if self.connecting > 0:
            self.connecting -= 1
            return False
        return True

    def disconnect(self):
        self.connecting = None

    def status(self, what=None):
        if what == "rssi":
            return rssi
        return 0
