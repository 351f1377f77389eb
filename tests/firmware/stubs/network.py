# Stub of MicroPython's network module: a WLAN that connects after a few polls (or never), an access
# point that can vanish (``ap_up``), and the hostname() setting.
STA_IF = 0
STAT_IDLE = 1000
STAT_CONNECTING = 1001
STAT_GOT_IP = 1010
STAT_NO_AP_FOUND = 201
STAT_WRONG_PASSWORD = 202

polls_to_connect = 3  # None: the access point never answers
join_ms = None  # a join takes this long on ``clock`` instead (a slow access point or DHCP)
clock = None
rssi = -58
ap_up = True  # False: the access point is gone (a connected WLAN drops, a new connect never completes)
name = "mpy-esp32"
names = []  # every hostname() set


def hostname(value=None):
    global name
    if value is None:
        return name
    name = value
    names.append(value)


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
        self.began = clock() if clock else 0

    def _slow(self):
        """None without a timed join; else whether the timed join is done."""
        if join_ms is None or self.connecting is None:
            return None
        return clock() - self.began >= join_ms

    def isconnected(self):
        if not ap_up:
            self.connecting = None if self.connecting == 0 else self.connecting
        if self.connecting is None or not self.on:
            return False
        if not ap_up:
            return False
        if self._slow() is not None:
            return self._slow()
        if self.connecting > 0:
            self.connecting -= 1
            return False
        return True

    def disconnect(self):
        self.connecting = None

    def status(self, what=None):
        if what == "rssi":
            return rssi
        if self.connecting is None:
            return STAT_IDLE
        if self._slow() is not None and ap_up:
            return STAT_GOT_IP if self._slow() else STAT_CONNECTING
        if self.connecting == 0 and ap_up:
            return STAT_GOT_IP
        return STAT_CONNECTING if ap_up else STAT_NO_AP_FOUND
