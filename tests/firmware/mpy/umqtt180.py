# umqtt.simple as the official ESP32 images freeze it (micropython-lib's umqtt.simple 1.8.x), where its
# behaviour differs from 1.3.4 (the PyPI copy vendored in umqtt/simple.py) in what the handset's link meets.
# Read in micropython-lib's micropython/umqtt.simple/umqtt/simple.py of that release:
#
# * connect(clean_session=True, timeout=None) first closes a socket left from an earlier connect, then
#   opens its socket and calls self.sock.settimeout(timeout) on it before getaddrinfo and the TCP
#   connect: called without a timeout that is settimeout(None), which removes any timeout the socket
#   had, so the TCP connect and the wait for CONNACK can block for ever;
# * the user name and password are sent only when the user name is truthy (`if self.user:`).
#
# The packets on the wire (CONNECT, SUBSCRIBE, PUBLISH, PINGREQ) and wait_msg()/check_msg() (with their
# setblocking(True) after the first byte) are the same as 1.3.4's, so the rest is 1.3.4's own code.
# faults.main("1.8.0") puts this module in place of umqtt.simple (sys.modules), so the link imports it.

from umqtt import simple as _base

socket = _base.socket  # the link replaces this module's `socket` with its own factory, as with 1.3.4
MQTTException = _base.MQTTException
VERSION = "1.8.0"


class _Opened:
    """The socket connect() opened (with its timeout set as 1.8.0 sets it), for 1.3.4's code to use."""

    def __init__(self, sock, net):
        self.sock = sock
        self.net = net

    def socket(self, *args):
        return self.sock

    def getaddrinfo(self, *args):
        return self.net.getaddrinfo(*args)


class MQTTClient(_base.MQTTClient):
    def connect(self, clean_session=True, timeout=None):
        if self.sock:
            self.sock.close()
        sock = socket.socket()
        sock.settimeout(timeout)  # 1.8.0: None when no timeout is passed
        if not self.user:
            self.user = None  # 1.8.0 logs in only with a truthy user name
        saved = _base.socket
        _base.socket = _Opened(sock, socket)
        try:
            return _base.MQTTClient.connect(self, clean_session)
        finally:
            _base.socket = saved
