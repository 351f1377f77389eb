# Wi-Fi station mode from the config file, never blocking the main loop: up() is called every poll (by
# the link); it answers from wlan.isconnected() at once, and while Wi-Fi is down it starts a connect and
# lets it run: a new one starts only when the driver no longer says it is joining (STAT_CONNECTING) after
# WAIT_MS, or after JOIN_MS whatever it says, so a slow access point or DHCP server (a join of 20 s) is
# given the time it needs. Keys are scanned and the screen says what is happening (status()) meanwhile.

WAIT_MS = 15000  # a join that failed (no access point, refused) is started again after this long
JOIN_MS = 60000  # one still joining is left this long before it is started again
JOINING = "joining Wi-Fi"
BAD_PASSWORD = "Wi-Fi password?"

try:
    from time import ticks_diff
except ImportError:  # CPython tests

    def ticks_diff(a, b):
        return a - b


def hostname_for(handset_id):
    """A DHCP/mDNS host name of the handset's own: ``qb-`` and its id, letters, digits and ``-`` only."""
    out = ""
    for ch in "qb-" + handset_id.lower():
        out += ch if ("a" <= ch <= "z" or "0" <= ch <= "9") else "-"
    return out[:32].rstrip("-")


class Wifi:
    def __init__(self, ssid, password, network_module=None, clock=None, hostname=None):
        if network_module is None:
            import network as network_module
        if clock is None:
            from time import ticks_ms as clock
        self.network = network_module
        self.clock = clock
        if hostname and hasattr(network_module, "hostname"):
            network_module.hostname(hostname)  # before the interface is up, so DHCP sends it
        self.wlan = network_module.WLAN(network_module.STA_IF)
        self.ssid = ssid
        self.password = password
        self.started = None  # clock of the join in progress

    def activate(self):
        """The radio on (the ESP32's RNG is only truly random with it on: call before making secrets)."""
        self.wlan.active(True)

    def up(self):
        """True when connected; else a join is started (or restarted after WAIT_MS) and False. Never waits."""
        if self.wlan.isconnected():
            self.started = None
            return True
        now = self.clock()
        if self.started is None or self._stuck(ticks_diff(now, self.started)):
            again = self.started is not None
            self.started = now
            try:
                self.wlan.active(True)
                if again:
                    self.wlan.disconnect()  # the join that did not finish
                self.wlan.connect(self.ssid, self.password)
            except OSError:
                pass  # the driver refuses while it is busy: the next attempt tries again
        return False

    def _stuck(self, waited):
        if waited < WAIT_MS:
            return False
        if waited >= JOIN_MS:
            return True
        try:
            code = self.wlan.status()
        except (OSError, ValueError):
            return True
        return code != getattr(self.network, "STAT_CONNECTING", None)

    def status(self):
        """What the screen says while Wi-Fi is down."""
        try:
            code = self.wlan.status()
        except (OSError, ValueError):
            code = None
        if code is not None and code == getattr(self.network, "STAT_WRONG_PASSWORD", None):
            return BAD_PASSWORD
        return JOINING

    def rssi(self):
        try:
            value = self.wlan.status("rssi")
        except (OSError, ValueError):
            return None
        return value if isinstance(value, int) and -130 <= value <= 0 else None
