# Stub of MicroPython's socket module for the fault-injection tests (tests/firmware/mpy/faults.py): every
# call goes to ``world``, a scripted network the test sets up (a box that answers MQTT, or fails to).
#
# Timeouts follow MicroPython's sockets: settimeout(None) and setblocking(True) block forever,
# settimeout(0) and setblocking(False) never block (read returns None when nothing is waiting), a positive
# timeout raises OSError(ETIMEDOUT) when it runs out. The world raises its Hang (a BaseException, so no
# `except Exception` hides it) where a real socket would block forever.

AF_INET = 2
SOCK_STREAM = 1
SOCK_DGRAM = 2
world = None


def getaddrinfo(host, port, af=0, type=0, proto=0, flags=0):
    return world.getaddrinfo(host, port)


class socket:
    def __init__(self, af=AF_INET, type=SOCK_STREAM, proto=0):
        self.timeout = None  # seconds; None: blocking, 0: non-blocking
        self.closed = False
        self.type = type
        self.inbox = []  # datagrams waiting (UDP)
        world.opened(self)

    def settimeout(self, value):
        self.timeout = value

    def setblocking(self, flag):
        self.timeout = None if flag else 0

    def connect(self, addr):
        world.connect(self, addr)

    def read(self, n=-1):
        return world.read(self, n)

    def write(self, data, n=None):
        if isinstance(data, str):
            data = data.encode()  # MicroPython writes a str's bytes (umqtt.simple sends its client id so)
        data = bytes(data if n is None else data[:n])
        world.write(self, data)
        return len(data)

    def sendto(self, data, addr):
        return world.sendto(self, bytes(data), addr)

    def recvfrom(self, n):
        if self.inbox:
            return self.inbox.pop(0)
        if self.timeout is None:
            return world.recvfrom(self, n)
        raise OSError(11)  # EAGAIN

    def close(self):
        if not self.closed:
            self.closed = True
            world.closed(self)
