# The handset's MQTT connection on umqtt.simple: keepalive pings, a retained "offline" last will and
# "online" on connect, reconnect with exponential backoff, and handset.connected() on every connect (it
# re-subscribes and re-sends an unacked input with the same seq). It is the core's transport.
#
# Nothing here waits without a bound, and nothing the network does escapes as a crash:
# * each connection cycle resolves the box's address once: "<box>.local" by an mDNS query of our own
#   (firmware/core/mdns.py) whose answer is read without blocking, so keys are scanned meanwhile; no
#   answer within LOOKUP_MS shows "box not found" and retries with the backoff;
# * umqtt.simple opens its own socket, so it is handed a socket factory (its module's `socket` name) that
#   sets CONNECT_TIMEOUT_S before the TCP connect and the CONNACK wait, and returns the socket wrapped;
# * the wrapper keeps a timeout where umqtt.simple's wait_msg() calls setblocking(True) (which would mean
#   "for ever"), and reads a packet's rest within READ_TIMEOUT_S, so a half-received packet times out;
#   it never takes settimeout(None) either: umqtt.simple 1.8 (the official ESP32 images' frozen copy)
#   calls it in connect() when no timeout is passed, which would let the TCP connect and the CONNACK
#   wait block for ever; CONNECT_TIMEOUT_S stands in;
# * any exception from connect/subscribe/check_msg/ping/publish (OSError, umqtt's MQTTException for a
#   SUBACK 0x80, an IndexError on a short CONNACK) is a lost link: the socket is closed, the link retries;
# * Wi-Fi is checked every poll (wlan.isconnected()): a lost access point is noticed at once, not after
#   1.5 keepalives of broker silence, and reconnecting it never blocks (firmware/esp32/wifi.py).
#
# umqtt.simple sends no pings by itself and cannot tell a PINGRESP from silence, so the wrapper also
# notes when bytes last arrived: no byte for 1.5 keepalives means the link is dead.
#
# With a firmware.core.pairing.Pairing, the client logs in with its user name and password (set as
# umqtt.simple's ``user``/``pswd`` attributes, which its connect() sends); a refused login (umqtt's
# MQTTException with CONNACK code 4 or 5) sends the pairing request and tries again every RETRY_MS.

from firmware import protocol
from firmware.core import mdns
from firmware.core import pairing as pairing_module

BACKOFF_MIN_MS = 1000
BACKOFF_MAX_MS = 30000
CONNECT_TIMEOUT_S = 4  # the TCP connect, then the CONNACK
LOOKUP_MS = 3000  # an mDNS lookup gives up after this long...
ASK_MS = 1000  # ...asking again this often
READ_TIMEOUT_S = 2  # the rest of a packet once its first byte came; a SUBACK

# what the screen says while there is no link (handset.status)
FINDING = "finding box"
NOT_FOUND = "box not found"
CONNECTING = "connecting"
NO_ANSWER = "no answer"

try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython tests inject the clock
    ticks_ms = None

    def ticks_add(a, b):
        return a + b

    def ticks_diff(a, b):
        return a - b


class _Watched:
    """A socket that records when it last received bytes, never blocks for ever, and reads a packet's
    rest whole (or raises OSError) instead of handing umqtt.simple a short read."""

    def __init__(self, sock, link):
        self._sock = sock
        self._link = link
        self._waiting = True  # blocking reads (with a timeout), as a new socket

    def read(self, n):
        data = self._sock.read(n)
        if data:
            self._link.heard = self._link.clock()
        if not self._waiting or data is None or len(data) >= n:
            return data
        if not data:
            raise OSError(104)  # ECONNRESET: the box closed the connection
        got = bytearray(data)
        while len(got) < n:  # a short read in blocking mode: the rest within the timeout, or OSError
            more = self._sock.read(n - len(got))
            if not more:
                raise OSError(104)
            got += more
            self._link.heard = self._link.clock()
        return bytes(got)

    def setblocking(self, flag):
        self._waiting = flag
        if flag:  # umqtt.simple's wait_msg() after its first byte: the rest must come in time
            self._sock.settimeout(READ_TIMEOUT_S)
        else:
            self._sock.setblocking(False)

    def settimeout(self, value):
        if value is None:  # umqtt.simple 1.8's connect() without a timeout: never "for ever"
            value = CONNECT_TIMEOUT_S
        self._waiting = value != 0
        self._sock.settimeout(value)

    def __getattr__(self, name):
        return getattr(self._sock, name)


class _Sockets:
    """What umqtt.simple calls its ``socket`` module: sockets with a timeout, the address resolved once."""

    def __init__(self, link):
        self.link = link

    def socket(self, *args):
        import usocket

        sock = usocket.socket(*args)
        sock.settimeout(CONNECT_TIMEOUT_S)
        return _Watched(sock, self.link)

    def getaddrinfo(self, host, port, *args):
        if self.link.address is not None:
            return [(2, 1, 0, "", self.link.address)]
        import usocket

        return usocket.getaddrinfo(host, port, *args)


def _umqtt_client(link, client_id, host, port, keepalive):
    from umqtt import simple

    simple.socket = link.sockets  # umqtt.simple's connect() opens its socket through this
    return simple.MQTTClient(client_id, host, port, keepalive=keepalive)


def _getaddrinfo(host, port):
    import usocket

    return usocket.getaddrinfo(host, port)[0][-1]


class Lookup:
    """Finds ``host`` ("<box>.local") without blocking: an mDNS query now and every ASK_MS, the answer
    read when it comes (poll()); OSError after LOOKUP_MS with no answer."""

    def __init__(self, host, port, clock, socket_module=None, group=mdns.GROUP):
        """``group``: where queries go (the mDNS multicast group; tests: a responder's own address)."""
        if socket_module is None:
            import usocket as socket_module
        self.host = host
        self.port = port
        self.clock = clock
        self.net = socket_module
        self.sock = socket_module.socket(socket_module.AF_INET, socket_module.SOCK_DGRAM)
        self.sock.setblocking(False)
        self.group = socket_module.getaddrinfo(group[0], group[1])[0][-1]
        self.qid = clock() & 0xFFFF
        self.started = clock()
        self.asked = None
        self.queries = 0

    def poll(self):
        """The box's socket address once it answered, else None; OSError when it will not."""
        now = self.clock()
        while True:
            try:
                packet = self.sock.recvfrom(512)[0]
            except OSError:
                break  # EAGAIN: nothing waiting
            ip = mdns.answer(packet, self.host)
            if ip is not None:
                self.close()
                return self.net.getaddrinfo(ip, self.port)[0][-1]
        if ticks_diff(now, self.started) >= LOOKUP_MS:
            self.close()
            raise OSError("no mDNS answer for " + self.host)
        if self.asked is None or ticks_diff(now, self.asked) >= ASK_MS:
            self.asked = now
            self.queries += 1
            try:  # noqa: SIM105 - MicroPython has no contextlib
                self.sock.sendto(mdns.query(self.host, self.qid), self.group)
            except OSError:
                pass  # e.g. no route yet: the next ask tries again
        return None

    def close(self):
        if self.sock is not None:
            try:  # noqa: SIM105 - MicroPython has no contextlib
                self.sock.close()
            except OSError:
                pass
            self.sock = None


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
        wifi=None,
        pairing=None,
        resolve=None,
    ):
        """``make_client(id, host, port, keepalive)``: an umqtt.simple-like client (tests); None: the real
        one. ``resolve(host, port)``: the socket address (None: an mDNS Lookup for "<box>.local", else
        getaddrinfo; with a fake client, none).
        ``wifi``: up() says whether Wi-Fi is connected and reconnects it without blocking; status() is
        what the screen says meanwhile."""
        self.box = box
        self.id = handset_id
        self.host = host
        self.port = port
        self.keepalive_ms = keepalive * 1000
        self.keepalive = keepalive
        if make_client is None:
            self.make_client = lambda *args: _umqtt_client(self, *args)
            self.resolve = resolve or _getaddrinfo
        else:
            self.make_client = make_client
            self.resolve = resolve
        self.lookup = None  # the mDNS lookup under way
        self.sockets = _Sockets(self)
        self.clock = clock or ticks_ms
        self.rng = rng
        self.wifi = wifi
        self.pairing = pairing  # firmware.core.pairing.Pairing, or None: anonymous
        self.handset = None  # attached after the Handset is made with this link as its transport
        self.client = None
        self.address = None  # the box's socket address, resolved once per connection cycle
        self.backoff = BACKOFF_MIN_MS
        self.next_try = self.clock()
        self.heard = 0
        self.pinged = 0
        self.connects = 0
        self.lost = 0

    # -- transport interface of firmware.core.handset -----------------------------------------------------
    def publish(self, topic, payload, retain=False):
        if self.client is None:
            raise OSError("not connected")
        try:
            self.client.publish(topic.encode(), payload, retain)
        except OSError:
            raise
        except Exception as err:  # a broken socket can fail in other ways: the handset expects OSError
            raise OSError(str(err)) from None

    def subscribe(self, topic):
        if self.client is None:
            raise OSError("not connected")
        try:
            self.client.subscribe(topic.encode())
        except OSError:
            raise
        except Exception as err:  # umqtt's MQTTException(0x80): the broker refused the subscription
            raise OSError("subscribe refused " + str(err)) from None

    # -- life cycle ----------------------------------------------------------------------------------------
    def _on_message(self, topic, msg):
        if self.handset is None:
            return
        try:
            self.handset.on_message(topic.decode(), msg)
        except Exception as err:  # the packet was read whole: a handset bug must not drop the link
            print("message not handled:", repr(err))

    def _status(self, text):
        if self.handset is not None:
            self.handset.set_status(text)

    def find(self):
        """Start a connection attempt: the mDNS lookup of the box (answered over the next polls), or the
        connection itself when no lookup is needed."""
        self.address = None
        if self.resolve is not _getaddrinfo or not self.host.endswith(".local"):
            self.connect()  # an address, a DNS name, or the tests' own resolver: resolved in connect()
            return
        if self.handset is None or self.handset.status != NOT_FOUND:
            self._status(FINDING)  # (a box not found stays so while the lookups go on)
        try:
            self.lookup = Lookup(self.host, self.port, self.clock)
        except OSError:
            self._lost(NOT_FOUND)

    def _poll_lookup(self):
        try:
            address = self.lookup.poll()
        except OSError:
            self.lookup = None
            self._lost(NOT_FOUND)
            return
        if address is not None:
            self.lookup = None
            self.address = address
            self.connect(address)

    def connect(self, address=None):
        """One connection attempt; True on success. On failure the next try waits (backoff). ``address``:
        the box's socket address already looked up."""
        status = protocol.status_topic(self.box, self.id).encode()
        self.address = address
        if address is None and self.resolve is not None:
            self._status(FINDING)
            try:
                self.address = self.resolve(self.host, self.port)
            except Exception:  # OSError(-202) on an ESP32: mDNS did not answer
                self._lost(NOT_FOUND)
                return False
        self._status(CONNECTING)
        client = None
        try:
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
                code = _connack_code(err)
                if code is None:
                    raise  # e.g. an IndexError on a CONNACK cut short: a lost link below
                self._close(client)
                if self.pairing is not None and code in pairing_module.REFUSED:
                    self._refused()
                else:
                    self._lost(NO_ANSWER)  # e.g. 3, server unavailable: try again with the backoff
                return False
            if self.pairing is not None and self.pairing.refusals:
                self.pairing.accepted()  # paired: the handset's own screen comes back
            if not isinstance(client.sock, _Watched):
                client.sock = _Watched(client.sock, self)
            client.sock.settimeout(READ_TIMEOUT_S)
            self.client = client
            self.heard = self.pinged = self.clock()
            client.publish(status, protocol.ONLINE.encode(), True)
            if self.handset is not None:
                self.handset.connected()
        except Exception:  # noqa: BLE001 - OSError, MQTTException, a short read: all mean the link is lost
            if self.client is None and client is not None:
                self._close(client)
            self._lost(NO_ANSWER)
            return False
        self._status("")
        self.backoff = BACKOFF_MIN_MS
        self.connects += 1
        return True

    def _refused(self):
        """The login was refused: ask to be paired (if the handset can) and try again in RETRY_MS."""
        if self.pairing.refused():
            self._ask()
        self._status("")
        if self.handset is not None:
            self.handset.disconnected()  # draws the pairing screen
        self.next_try = ticks_add(self.clock(), pairing_module.RETRY_MS)

    def _ask(self):
        """One pairing request, sent as the public pairing account; a failure waits for the next try."""
        # the box's pairing broker first (its port + PAIRING_PORT_OFFSET); a box without one refuses the
        # connection, and the request goes to its own port
        for port in (self.port + pairing_module.PAIRING_PORT_OFFSET, self.port):
            client = None
            try:
                client = self.make_client(self.pairing.pairing_client_id(), self.host, port, self.keepalive)
                client.user, client.pswd = pairing_module.PAIRING_USER, pairing_module.PAIRING_PASSWORD
                client.connect()
                client.publish(self.pairing.topic.encode(), self.pairing.request())
                client.disconnect()
                return
            except Exception:  # OSError or umqtt's MQTTException: the box is not there or not ready yet
                if client is not None:
                    self._close(client)

    @staticmethod
    def _close(client):
        try:  # noqa: SIM105 - MicroPython has no contextlib
            client.sock.close()
        except Exception:  # noqa: BLE001 - no socket yet (None), or already broken
            pass

    def _lost(self, why=NO_ANSWER):
        if self.lookup is not None:
            self.lookup.close()
            self.lookup = None
        client, self.client = self.client, None
        if client is not None:
            self._close(client)
            self.lost += 1
        self.address = None
        self._status(why)
        if self.handset is not None and self.handset.online:
            self.handset.disconnected()
        wait = self.backoff
        if self.rng is not None:
            wait += self.rng.getrandbits(10) * wait // 4096  # up to +25%: handsets do not all retry at once
        self.next_try = ticks_add(self.clock(), wait)
        self.backoff = min(self.backoff * 2, BACKOFF_MAX_MS)

    def poll(self):
        """Call from the main loop: read messages, ping, notice a dead link, reconnect when due. Never
        raises, never blocks longer than a socket timeout."""
        if self.wifi is not None and not self.wifi.up():
            if self.client is not None or self.lookup is not None:
                self._lost(self.wifi.status())
                self.backoff = BACKOFF_MIN_MS  # the box is not to blame: try it as soon as Wi-Fi is back
                self.next_try = self.clock()
            else:
                self._status(self.wifi.status())
            return
        now = self.clock()
        if self.lookup is not None:
            self._poll_lookup()
            return
        if self.client is None:
            if ticks_diff(now, self.next_try) >= 0:
                self.find()
            return
        try:
            self.client.check_msg()
            now = self.clock()
            if ticks_diff(now, self.heard) > self.keepalive_ms * 3 // 2:
                raise OSError("no answer from the broker")
            if ticks_diff(now, self.pinged) >= self.keepalive_ms // 2:
                self.pinged = now
                self.client.ping()
        except Exception:  # noqa: BLE001 - OSError, a half packet, a malformed one: the link is lost
            self._lost(NO_ANSWER)

    def close(self):
        """A clean goodbye: "offline" retained, then disconnect (no last will needed)."""
        if self.client is None:
            return
        try:
            self.client.publish(protocol.status_topic(self.box, self.id).encode(), protocol.OFFLINE.encode(), True)
            self.client.disconnect()
        except Exception:  # noqa: BLE001 - going anyway
            self._close(self.client)
        self.client = None


def _connack_code(err):
    """The CONNACK return code umqtt.simple's MQTTException carries, or None for another error."""
    if err.args and isinstance(err.args[0], int) and not isinstance(err, (IndexError, KeyError)):
        return err.args[0]
    return None
