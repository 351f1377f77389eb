# Pairing on the handset (MicroPython and CPython): the broker account the handset logs in with, and the
# request it sends while it has none. The appliance side is appliance/edge/pairing.py (its docstring tells the
# whole story); the ESP32 cannot carry that module, so its constants and formats are repeated here and
# tests/firmware/test_pairing.py checks they agree byte for byte.
#
# 1. No password in the config: the handset makes a secret once (random, 32 hex digits) and keeps it (a
#    file); it logs in as user <handset id> with that secret.
# 2. The broker refuses (no account yet): it logs in as the public pairing account, publishes the request
#    on quizbox/<box>/pairing/<id> and shows "Pair code 1234 / ask the quizmaster".
#    The request goes to the box's pairing broker, on the box's port + PAIRING_PORT_OFFSET (1884 beside 1883):
#    a process of its own, so a flood of requests never slows the game (issue 38); a box older than that has
#    none (the connection is refused), and the request goes to the box's own port as before.
# 3. Every few seconds it tries (id, secret) again; once the quizmaster accepted it, the login works and
#    the secret is its password from then on.

import hashlib

from firmware import protocol

PAIRING_USER = "pairing"
PAIRING_PASSWORD = "quizbox-pairing"  # public on purpose: the account can only ask to be paired
MIN_SECRET, MAX_SECRET = 16, 64
SECRET_BYTES = 16  # 32 hex digits
RETRY_MS = 5000  # while waiting for the quizmaster: ask again and try the own account this often
PAIRING_PORT_OFFSET = 1  # the pairing broker listens on the box's port + this (docs/protocol.md section 2)
REFUSED = (4, 5, 134, 135)  # CONNACK codes for a bad user name/password or not authorised (3.1.1, 5)


def is_secret(text):
    """Whether ``text`` can be a pairing secret: 16-64 printable ASCII characters, no space."""
    if not isinstance(text, str) or not MIN_SECRET <= len(text) <= MAX_SECRET:
        return False
    return all(33 <= ord(c) < 127 for c in text)


def make_secret(urandom):
    """A fresh secret from ``urandom(n) -> bytes`` (os.urandom on both ports)."""
    return "".join(f"{b:02x}" for b in urandom(SECRET_BYTES))


def client_id(handset, secret):
    """The MQTT client id of handset ``handset`` whose password is ``secret``: its id and 64 bits of a hash
    of the secret, so nobody can derive it from what the board shows (a guest logging in with the public
    pairing account and a handset's client id would make mosquitto drop the handset). The broker binds the
    account to it (appliance.edge.accounts)."""
    digest = hashlib.sha256(("quizbox-client-id:" + secret).encode()).digest()
    return handset + "-" + "".join(f"{b:02x}" for b in digest[:8])


def pairing_client_id(urandom):
    """A fresh client id for one pairing request (random: nobody can knock it off)."""
    return "pair-" + "".join(f"{b:02x}" for b in urandom(8))


def pair_code(secret):
    """The four digits shown while waiting: appliance.edge.pairing.pair_code's."""
    digest = hashlib.sha256(secret.encode()).digest()
    return "{:04d}".format(int.from_bytes(digest[:4], "big") % 10000)


def _json_str(text):
    # json.dumps of a str as CPython writes it (ensure_ascii): MicroPython writes non-ASCII raw
    out = ['"']
    for c in text:
        n = ord(c)
        if c == '"' or c == "\\":
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c == "\b":
            out.append("\\b")
        elif c == "\f":
            out.append("\\f")
        elif 32 <= n < 127:
            out.append(c)
        elif n < 0x10000:
            out.append(f"\\u{n:04x}")
        else:
            n -= 0x10000
            out.append(f"\\u{0xD800 | (n >> 10):04x}\\u{0xDC00 | (n & 0x3FF):04x}")
    out.append('"')
    return "".join(out)


def request_payload(handset, secret, name=None):
    """The request, the same bytes as appliance.edge.pairing.request_payload (MicroPython dicts keep no
    order, so the JSON is written by hand)."""
    text = '{"v":' + str(protocol.VERSION) + ',"id":' + _json_str(handset) + ',"secret":' + _json_str(secret)
    if name:
        text += ',"name":' + _json_str(name)
    return (text + "}").encode()


def pairing_topic(box, handset):
    return protocol.pairing_topic(box, handset)  # built in one place, with the other topics


def _urandom():
    """os.urandom (the ESP32's hardware RNG; CPython's), else random bits on a port without it (the
    WebAssembly build the tests run on, never a handset)."""
    import os

    if hasattr(os, "urandom"):
        return os.urandom
    import random

    return lambda n: bytes(random.getrandbits(8) for _ in range(n))


class SecretFile:
    """The secret kept in a file (ESP32: the flash filesystem; Pi Zero: the --state folder)."""

    def __init__(self, path):
        self.path = path

    def load(self):
        """The stored secret, or None if there is none or it is not a valid secret (a new one is made:
        the handset then has to be paired again)."""
        try:
            with open(self.path) as f:
                text = f.read().strip()
        except OSError:
            return None
        return text if is_secret(text) else None

    def save(self, secret):
        with open(self.path, "w") as f:
            f.write(secret)


class Pairing:
    """The credentials the handset logs in with, and whether it is waiting to be paired.

    ``username`` None or "" means the handset id; ``password`` "" means "not paired yet": the secret in
    ``store`` (made now if there is none) is the password. ``store`` None keeps a new secret in memory."""

    def __init__(self, box, handset_id, username=None, password="", name=None, store=None, urandom=None):
        self.box = box
        self.id = handset_id
        self.name = name
        self.username = username or handset_id
        self.topic = pairing_topic(box, handset_id)
        if password:
            self.password = password
        else:
            secret = store.load() if store is not None else None
            if secret is None:
                secret = make_secret(urandom or _urandom())
                if store is not None:
                    store.save(secret)
            self.password = secret
        self.waiting = False  # refused, request sent: the screen shows the pair code
        self.refusals = 0

    def can_pair(self):
        """Pairing makes account <id> with the secret as its password: other user names cannot pair."""
        return self.username == self.id and is_secret(self.password)

    def refused(self):
        """The broker refused (username, password): True if the handset asks to be paired now (else a
        wrong configured account: the screen says so)."""
        self.refusals += 1
        self.waiting = self.can_pair()
        return self.waiting

    def accepted(self):
        self.waiting = False
        self.refusals = 0

    def code(self):
        return pair_code(self.password)

    def client_id(self):
        """The client id of the handset's own login (the broker lets its account use no other)."""
        return client_id(self.username, self.password)

    def pairing_client_id(self):
        return pairing_client_id(_urandom())

    def request(self):
        return request_payload(self.id, self.password, self.name)

    def lines(self):
        """What the screen shows while the login is refused."""
        if self.waiting:
            return ["Pair code " + self.code(), "", "ask the", "quizmaster", "", self.id]
        return ["LOGIN REFUSED", "", "check broker", "username and", "password in", "the config", "", self.id]


class PairingScreen:
    """The handset's screen, showing the pairing lines instead of the handset's view after a refusal."""

    def __init__(self, screen, pairing):
        self.screen = screen
        self.pairing = pairing

    def __getattr__(self, name):
        return getattr(self.screen, name)

    def show(self):
        if self.pairing.refusals:
            self.screen.fill(0)
            for i, line in enumerate(self.pairing.lines()[:8]):
                self.screen.text(line[:16], 0, i * 8, 1)
        show = getattr(self.screen, "show", None)
        if show is not None:
            show()
