# The handset's MQTT connection on umqtt.simple: keepalive pings, a retained "offline" last will and
# "online" on connect, reconnect with exponential backoff, and handset.connected() on every connect (it
# re-subscribes and re-sends an unacked input with the same seq). It is the core's transport.
#
# umqtt.simple sends no pings by itself and cannot tell a PINGRESP from silence, so the socket is
# wrapped to note when bytes last arrived: no byte for 1.5 keepalives means the link is dead.
#
# With a firmware.core.pairing.Pairing, the client logs in with its user name and password (set as
# umqtt.simple's ``user``/``pswd`` attributes, which its connect() sends); a refused login (umqtt's
# MQTTException with CONNACK code 4 or 5) sends the pairing request and tries again every RETRY_MS.

from firmware import protocol
from firmware.core import pairing as pairing_module

BACKOFF_MIN_MS = 1000
BACKOFF_MAX_MS = 30000

try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython tests inject the clock
    ticks_ms = None

    def ticks_add(a, b):
        return a + b

    def ticks_diff(a, b):
        return a - b


class _Watched:
    """A socket that records when it last received bytes."""

    def __init__(self, sock, link):
        self._sock = sock
        self._link = link

    def read(self, *args):
        data = self._sock.read(*args)
        if data:
            self._link.heard = self._link.clock()
        return data

    def __getattr__(self, name):
        return getattr(self._sock, name)


def _umqtt_client(client_id, host, port, keepalive):
    from umqtt.simple import MQTTClient

    return MQTTClient(client_id, host, port, keepalive=keepalive)


class Link:
    def __init__(
        self,
        box,
        handset_id,
        host,
        port=1883,
        keepalive=30,
        make_client=None,
        clock=None,
        rng=None,
        before_connect=None,
        pairing=None,
    ):
        self.box = box
        self.id = handset_id
        self.host = host
        self.port = port
        self.keepalive_ms = keepalive * 1000
        self.keepalive = keepalive
        self.make_client = make_client or _umqtt_client
        self.clock = clock or ticks_ms
        self.rng = rng
        self.before_connect = before_connect  # e.g. bring Wi-Fi back up; may raise OSError
        self.pairing = pairing  # firmware.core.pairing.Pairing, or None: anonymous
        self.handset = None  # attached after the Handset is made with this link as its transport
        self.client = None
        self.backoff = BACKOFF_MIN_MS
        self.next_try = self.clock()
        self.heard = 0
        self.pinged = 0
        self.connects = 0

    # -- transport interface of firmware.core.handset -----------------------------------------------------
    def publish(self, topic, payload, retain=False):
        if self.client is None:
            raise OSError("not connected")
        self.client.publish(topic.encode(), payload, retain)

    def subscribe(self, topic):
        if self.client is None:
            raise OSError("not connected")
        self.client.subscribe(topic.encode())

    # -- life cycle ----------------------------------------------------------------------------------------
    def _on_message(self, topic, msg):
        if self.handset is not None:
            self.handset.on_message(topic.decode(), msg)

    def connect(self):
        """One connection attempt; True on success. On failure the next try waits (backoff)."""
        status = protocol.status_topic(self.box, self.id).encode()
        try:
            if self.before_connect is not None:
                self.before_connect()
            # a client id nobody can derive from the board (pairing.client_id): a guest using it would
            # knock the handset off
            own_id = self.pairing.client_id() if self.pairing is not None else self.id
            client = self.make_client(own_id, self.host, self.port, self.keepalive)
            if self.pairing is not None:
                client.user, client.pswd = self.pairing.username, self.pairing.password
            client.set_callback(self._on_message)
            client.set_last_will(status, protocol.OFFLINE.encode(), True, 1)
            try:
                client.connect()
            except OSError:
                raise
            except Exception as err:  # umqtt.simple's MQTTException(code): the broker answered "no"
                if _connack_code(err) is None:
                    raise
                self._close(client)
                if self.pairing is not None and _connack_code(err) in pairing_module.REFUSED:
                    self._refused()
                else:
                    self._lost()  # e.g. 3, server unavailable: try again with the backoff
                return False
            if self.pairing is not None and self.pairing.refusals:
                self.pairing.accepted()  # paired: the handset's own screen comes back
            client.sock = _Watched(client.sock, self)
            self.client = client
            self.heard = self.pinged = self.clock()
            client.publish(status, protocol.ONLINE.encode(), True)
            if self.handset is not None:
                self.handset.connected()
        except OSError:
            self._lost()
            return False
        self.backoff = BACKOFF_MIN_MS
        self.connects += 1
        return True

    def _refused(self):
        """The login was refused: ask to be paired (if the handset can) and try again in RETRY_MS."""
        if self.pairing.refused():
            self._ask()
        if self.handset is not None:
            self.handset.disconnected()  # draws the pairing screen
        self.next_try = ticks_add(self.clock(), pairing_module.RETRY_MS)

    def _ask(self):
        """One pairing request, sent as the public pairing account; a failure waits for the next try."""
        client = self.make_client(self.pairing.pairing_client_id(), self.host, self.port, self.keepalive)
        client.user, client.pswd = pairing_module.PAIRING_USER, pairing_module.PAIRING_PASSWORD
        try:
            client.connect()
            client.publish(self.pairing.topic.encode(), self.pairing.request())
            client.disconnect()
        except Exception:  # OSError or umqtt's MQTTException: the box is not there or not ready yet
            self._close(client)

    @staticmethod
    def _close(client):
        try:  # noqa: SIM105 - MicroPython has no contextlib
            client.sock.close()
        except (OSError, AttributeError):
            pass

    def _lost(self):
        client, self.client = self.client, None
        if client is not None:
            try:  # noqa: SIM105 - MicroPython has no contextlib
                client.sock.close()
            except OSError:
                pass
        if self.handset is not None and self.handset.online:
            self.handset.disconnected()
        wait = self.backoff
        if self.rng is not None:
            wait += self.rng.getrandbits(10) * wait // 4096  # up to +25%: handsets do not all retry at once
        self.next_try = ticks_add(self.clock(), wait)
        self.backoff = min(self.backoff * 2, BACKOFF_MAX_MS)

    def poll(self):
        """Call from the main loop: read messages, ping, notice a dead link, reconnect when due."""
        now = self.clock()
        if self.client is None:
            if ticks_diff(now, self.next_try) >= 0:
                self.connect()
            return
        try:
            self.client.check_msg()
            now = self.clock()
            if ticks_diff(now, self.heard) > self.keepalive_ms * 3 // 2:
                raise OSError("no answer from the broker")
            if ticks_diff(now, self.pinged) >= self.keepalive_ms // 2:
                self.pinged = now
                self.client.ping()
        except OSError:
            self._lost()

    def close(self):
        """A clean goodbye: "offline" retained, then disconnect (no last will needed)."""
        if self.client is None:
            return
        try:
            self.client.publish(protocol.status_topic(self.box, self.id).encode(), protocol.OFFLINE.encode(), True)
            self.client.disconnect()
        except OSError:
            pass
        self.client = None


def _connack_code(err):
    """The CONNACK return code umqtt.simple's MQTTException carries, or None for another error."""
    if err.args and isinstance(err.args[0], int):
        return err.args[0]
    return None
