"""Pairing: every handset logs in to the box's mosquitto with its own account, made when the quizmaster
accepts it; and the broker's password file and ACL, which say who may log in and publish or read what.

Why accounts make the topic the identity: mosquitto does not tell a subscriber who published a message,
so the hub cannot ask "which account sent this input?". It does not need to: the ACL lets account
``<id>`` publish only on ``quizbox/<box>/handset/<id>/...`` (and read only its own prompt, ack and time,
and the public board), so a message on handset ``<id>``'s input topic was published by account ``<id>``
(or by the appliance or the admin page, which are the box's own services). The hub then checks that
the topic's id has an account (:meth:`Pairing.may_speak`), and the session maps the id to its seat:
topic = credentials = seat.

How a handset gets its account, with no secret ever sent to it:

1. The handset makes up its own secret once (16-64 printable characters) and keeps it in flash.
2. It logs in as user ``<id>`` with that secret; the broker refuses (no account yet). It then logs in as
   the public ``pairing`` account, whose only right is to publish on ``quizbox/<box>/pairing/<id>``,
   and sends ``{"v": 1, "id": "<id>", "name": "Ann", "secret": "<its secret>"}`` there every few
   seconds, showing ``Pair code 1234`` (:func:`pair_code` of its secret) on its screen.
3. The hub lists the request on the admin page with the same code. The quizmaster accepts the handset
   whose screen shows that code; :meth:`Pairing.accept` writes ``<id>:<PBKDF2 hash of the secret>`` to
   the password file and the handset's block to the ACL (mosquitto re-reads both: on the box,
   quizbox-mosquitto-reload.path sends it SIGHUP).
4. The handset's next login as ``<id>`` works; it says hello and plays.

Anyone on the pub's Wi-Fi can use the pairing account, but it can only ask: it reads nothing, and the
first request for an id stands until the quizmaster accepts or removes it (a copycat with another
secret cannot replace it, and its code would differ from the one on the real handset's screen). An id
that already has an account is never re-paired this way: remove it first. Phone handsets
(``phone-...``, web/phones.py) have no account of their own: the admin page is their MQTT client and
binds each browser to one handset id.

File formats: the password file is mosquitto_passwd's (``user:$7$<iterations>$<salt>$<hash>``,
PBKDF2-HMAC-SHA512, mosquitto 2.0); the ACL is ``ACL_TEMPLATE``, the same text as deploy/acl.template
with the pairing account's block. Both are written atomically, 0640, keeping the group they had (the
installer gives them to group mosquitto, which must go on reading them).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from appliance.errors import ConfigError, QuizboxError
from firmware import protocol

log = logging.getLogger(__name__)

APPLIANCE_USER = "appliance"
WEB_USER = "web"
PAIRING_USER = "pairing"
PAIRING_PASSWORD = "quizbox-pairing"  # public on purpose: the account can only ask to be paired
PHONE_PREFIX = "phone-"  # phone handsets' ids (web/phones.py): the admin page speaks for them
DEFAULT_DIR = Path("/etc/quizbox/mosquitto")
ITERATIONS = 101  # mosquitto_passwd's own default for $7$ hashes
SALT_BYTES = 12
MIN_SECRET, MAX_SECRET = 16, 64
MAX_PENDING = 16  # requests kept at once; the oldest goes first

ACL_HANDSET_MARK = "#@handset"
ACL_TEMPLATE = """\
# Quizbox broker ACL for box {box}: written by deploy/install.sh from deploy/acl.template, with one
# block per handset account in /etc/quizbox/mosquitto/passwd (deploy/configure.py, render_acl).
# Do not edit: pairing adds the account and renders this file again. Format: mosquitto.conf(5),
# "acl_file"; a client may do only what a line of its own user block allows, anonymous clients nothing.

# The appliance runs the games: it reads and writes everything of its box.
user {appliance}
topic readwrite quizbox/{box}/#

# The admin page: sends commands, reads the state, the board and whether the quiz program is up...
user {web}
topic write quizbox/{box}/admin/command
topic read quizbox/{box}/admin/state
topic read quizbox/{box}/board
topic read quizbox/{box}/appliance/status
# ...and is the MQTT client of every phone handset ("phone-..."; web/phones.py): a phone reaches only the
# web server, which binds each browser to one handset id, so the broker is never open to the pub's Wi-Fi.
topic write quizbox/{box}/handset/+/input
topic write quizbox/{box}/handset/+/hello
topic write quizbox/{box}/handset/+/telemetry
topic write quizbox/{box}/handset/+/status
topic write quizbox/{box}/handset/+/clock
topic read quizbox/{box}/handset/+/prompt
topic read quizbox/{box}/handset/+/ack
topic read quizbox/{box}/handset/+/time

# A handset without an account yet (appliance/edge/pairing.py): the public pairing account may only ask for
# one, on quizbox/{box}/pairing/<handset id>; it reads nothing.
user {pairing}
topic write quizbox/{box}/pairing/+

#@handset: the block below is repeated for every handset; the account's user name is the handset id.
# Handset {handset} publishes only its own input, hello, telemetry, status and clock answers, and reads
# only its own prompt, ack and time, and the public board.
user {handset}
topic write quizbox/{box}/handset/{handset}/input
topic write quizbox/{box}/handset/{handset}/hello
topic write quizbox/{box}/handset/{handset}/telemetry
topic write quizbox/{box}/handset/{handset}/status
topic write quizbox/{box}/handset/{handset}/clock
topic read quizbox/{box}/handset/{handset}/prompt
topic read quizbox/{box}/handset/{handset}/ack
topic read quizbox/{box}/handset/{handset}/time
topic read quizbox/{box}/board
"""


class PairingError(QuizboxError):
    """Pairing refused (a bad request, no request to accept, a wrong code) or the files cannot be written."""



class PasswdFileError(PairingError, ConfigError):
    """The password file does not read as ``user:hash`` lines: pairing cannot work, and for the
    installer (deploy/configure.py, which shares this code) it is a broken configuration."""

# -- the password file -------------------------------------------------------------------------------------


def hash_password(password: str, salt: bytes | None = None, iterations: int = ITERATIONS) -> str:
    """A mosquitto 2.0 ``$7$`` hash: PBKDF2-HMAC-SHA512, 64-byte key, base64 salt and key."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    key = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations, 64)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(key).decode()}"


def verify_password(password: str, hashed: str) -> bool:
    """True if ``hashed`` (a ``$7$`` or mosquitto 1.x ``$6$`` hash) is ``password``'s."""
    parts = hashed.split("$")
    try:
        if len(parts) == 5 and parts[1] == "7":
            iterations, salt, key = int(parts[2]), base64.b64decode(parts[3]), base64.b64decode(parts[4])
            got = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations, len(key))
        elif len(parts) == 4 and parts[1] == "6":
            salt, key = base64.b64decode(parts[2]), base64.b64decode(parts[3])
            got = hashlib.sha512(password.encode() + salt).digest()
        else:
            return False
    except ValueError:
        return False
    return hmac.compare_digest(got, key)


def parse_passwd(text: str) -> dict[str, str]:
    """``user -> hash`` in file order; blank lines and ``#`` comments are dropped."""
    accounts: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        user, sep, hashed = line.partition(":")
        if not sep or not user or not hashed:
            raise PasswdFileError(f"password file line {number} is not user:hash: {line[:40]!r}")
        accounts[user] = hashed
    return accounts


def format_passwd(accounts: dict[str, str]) -> str:
    return "".join(f"{user}:{hashed}\n" for user, hashed in accounts.items())


# -- the ACL ----------------------------------------------------------------------------------------------------


def is_handset_account(user: str, appliance_user: str = APPLIANCE_USER) -> bool:
    """Whether broker account ``user`` is a handset's (a valid handset id, not a service account)."""
    if user in (appliance_user, WEB_USER, PAIRING_USER, APPLIANCE_USER) or user.startswith(PHONE_PREFIX):
        return False
    try:
        protocol.handset_topic("x", user, "input")
    except protocol.ProtocolError:
        return False
    return True


def render_acl(box: str, handsets: list[str], appliance_user: str = APPLIANCE_USER) -> str:
    """The ACL: the services' rights, the pairing account's, then one block per handset id, in order."""
    protocol.box_topic(box)
    head, _, block = ACL_TEMPLATE.partition(ACL_HANDSET_MARK)
    _, _, block = block.partition("\n")
    text = head.format(box=box, appliance=appliance_user, web=WEB_USER, pairing=PAIRING_USER)
    for handset in handsets:
        if not is_handset_account(handset, appliance_user):
            raise PairingError(f"{handset!r} cannot be a handset's broker account")
        text += "\n" + block.format(box=box, handset=handset)
    return text


def pair_code(secret: str) -> str:
    """The four digits a handset shows while it waits to be paired; the admin page shows the same."""
    return f"{int.from_bytes(hashlib.sha256(secret.encode()).digest()[:4], 'big') % 10000:04d}"


def pairing_topic(box: str, handset: str) -> str:
    return protocol.pairing_topic(box, handset)  # built in one place, with the other topics


def pairing_wildcard(box: str) -> str:
    return protocol.pairing_wildcard(box)


# -- the files on disk ---------------------------------------------------------------------------------------


class Accounts:
    """The box's mosquitto password file and ACL, kept in step (``folder``/passwd and ``folder``/acl).

    Every change rewrites both (the password file first: a handset gets its rights in the same reload of
    mosquitto as its account) and then calls ``reload`` (None on the box, where a systemd path unit has
    mosquitto re-read them; the tests send SIGHUP)."""

    def __init__(self, box: str, folder: Path = DEFAULT_DIR, appliance_user: str = APPLIANCE_USER,
                 reload: Callable[[], None] | None = None) -> None:
        protocol.box_topic(box)
        self.box = box
        self.folder = Path(folder)
        self.passwd = self.folder / "passwd"
        self.acl = self.folder / "acl"
        self.appliance_user = appliance_user
        self.reload = reload
        self._seen: tuple[float, int] | None = None
        self._cached: dict[str, str] = {}

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One writer at a time (the appliance and the admin page may both pair)."""
        try:
            fd = os.open(self.folder / ".pairing.lock", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise PairingError(f"cannot change the broker accounts in {self.folder}: {exc.strerror}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def read(self) -> dict[str, str]:
        """Every account (user -> hash); re-read only when the file changed."""
        try:
            stat = self.passwd.stat()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise PairingError(f"cannot read {self.passwd}: {exc.strerror}") from exc
        if self._seen != (stat.st_mtime, stat.st_size):
            try:
                text = self.passwd.read_text(encoding="utf-8")
            except OSError as exc:
                raise PairingError(f"cannot read {self.passwd}: {exc.strerror}") from exc
            self._cached, self._seen = parse_passwd(text), (stat.st_mtime, stat.st_size)
        return dict(self._cached)

    def has(self, user: str) -> bool:
        return user in self.read()

    def handsets(self) -> list[str]:
        return [u for u in self.read() if is_handset_account(u, self.appliance_user)]

    def set_password(self, user: str, password: str) -> None:
        """Give ``user`` (a service or a handset) ``password``."""
        if not user or ":" in user or "\n" in user:
            raise PairingError(f"broker user name {user!r} may not be empty or hold ':'")
        with self._locked():
            accounts = self.read()
            current = accounts.get(user)
            if current is None or not verify_password(password, current):
                accounts[user] = hash_password(password)
            self._write(accounts)

    def remove(self, user: str) -> bool:
        """Take ``user``'s account away; False if it had none."""
        with self._locked():
            accounts = self.read()
            if accounts.pop(user, None) is None:
                return False
            self._write(accounts)
            return True

    def _write(self, accounts: dict[str, str]) -> None:
        """Both files, each only if its text changes; mosquitto reloads only if one did."""
        handsets = [u for u in accounts if is_handset_account(u, self.appliance_user)]
        changed = _write_private(self.passwd, format_passwd(accounts))
        changed = _write_private(self.acl, render_acl(self.box, handsets, self.appliance_user)) or changed
        self._seen = None
        if changed and self.reload is not None:
            self.reload()


def _write_private(path: Path, text: str) -> bool:
    """Write atomically, 0640, keeping the owner and group the file had (mosquitto reads it as its group);
    False (untouched) if it holds ``text`` already."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        if path.exists() and path.read_text(encoding="utf-8") == text:
            return False
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if path.exists():
            old = path.stat()
            mine = tmp.stat()
            if (old.st_uid, old.st_gid) != (mine.st_uid, mine.st_gid):
                os.chown(tmp, old.st_uid if os.geteuid() == 0 else -1, old.st_gid)
        tmp.chmod(0o640)
        os.replace(tmp, path)
        return True
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise PairingError(f"cannot write {path}: {exc.strerror} (nothing changed)") from exc


# -- requests and the quizmaster's answer ----------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    handset: str
    name: str | None
    secret: str
    code: str
    at: float


class Pairing:
    """Handsets asking for an account, and what accepting or removing one does to the broker's files."""

    def __init__(self, accounts: Accounts, clock: Callable[[], float] = time.monotonic) -> None:
        self.accounts = accounts
        self.clock = clock
        self.pending: OrderedDict[str, Request] = OrderedDict()

    def ensure_service_account(self) -> None:
        """The public pairing account and the ACL with its block (on every start: self-healing)."""
        self.accounts.set_password(PAIRING_USER, PAIRING_PASSWORD)

    def may_speak(self, handset: str) -> bool:
        """Whether a message on handset ``handset``'s topics can be from that handset: it has an account,
        or it is a phone the admin page speaks for."""
        if handset.startswith(PHONE_PREFIX):
            return True
        if not is_handset_account(handset, self.accounts.appliance_user):
            return False
        try:
            return self.accounts.has(handset)
        except PairingError as exc:  # an unreadable password file: mosquitto cannot log anyone in either
            log.error("%s", exc)
            return False

    def request(self, handset: str, payload: bytes) -> Request:
        """Read a pairing request from the pairing topic of ``handset``; PairingError or ProtocolError
        if it is refused (the first request for an id stands; an id with an account stays as it is)."""
        obj = protocol.decode(payload)
        if obj.get("v", protocol.VERSION) != protocol.VERSION:
            raise protocol.ProtocolError("unsupported protocol version")
        if obj.get("id", handset) != handset:
            raise protocol.ProtocolError("id does not match topic")
        if not is_handset_account(handset, self.accounts.appliance_user):
            raise PairingError(f"{handset!r} cannot be paired (a reserved or phone id)")
        name = obj.get("name")
        if name is not None and (not isinstance(name, str) or not 0 < len(name.strip()) <= protocol.MAX_NAME):
            raise protocol.ProtocolError("bad name")
        secret = obj.get("secret")
        if (not isinstance(secret, str) or not MIN_SECRET <= len(secret) <= MAX_SECRET
                or not all(33 <= ord(c) < 127 for c in secret)):
            raise protocol.ProtocolError(f"secret must be {MIN_SECRET}-{MAX_SECRET} printable ASCII characters")
        if self.accounts.has(handset):
            raise PairingError(f"{handset} already has an account: remove it before pairing it again")
        known = self.pending.get(handset)
        if known is not None:
            if not hmac.compare_digest(known.secret, secret):
                raise PairingError(f"{handset} already asked with another secret (code {known.code})")
            return known  # the handset asking again while it waits
        made = Request(handset, name.strip() if name else None, secret, pair_code(secret), self.clock())
        self.pending[handset] = made
        while len(self.pending) > MAX_PENDING:
            dropped, _ = self.pending.popitem(last=False)
            log.warning("pairing request of %s dropped: too many waiting", dropped)
        return made

    def accept(self, handset: str, code: str | None = None) -> bool:
        """The quizmaster accepts ``handset``: its requested account is made (True), or it has one
        already or is a phone (False). ``code``, when given, must be the code its request showed."""
        if handset.startswith(PHONE_PREFIX) or self.accounts.has(handset):
            return False
        request = self.pending.get(handset)
        if request is None:
            raise PairingError(f"{handset} has not asked to be paired: switch it on near the box")
        if code is not None and not hmac.compare_digest(str(code), request.code):
            raise PairingError(f"{handset} shows another code than {code}: do not accept it")
        self.accounts.set_password(handset, request.secret)
        del self.pending[handset]
        log.info("handset %s paired: it has its own broker account now", handset)
        return True

    def remove(self, handset: str) -> bool:
        """Forget ``handset``'s request and take its account away (it can log in no more)."""
        self.pending.pop(handset, None)
        if not is_handset_account(handset, self.accounts.appliance_user):
            return False
        return self.accounts.remove(handset)

    def requests(self) -> dict[str, dict[str, str | None]]:
        """handset id -> its code and name, for every request waiting for the quizmaster."""
        return {h: {"code": r.code, "name": r.name} for h, r in self.pending.items()}


def request_payload(handset: str, secret: str, name: str | None = None) -> bytes:
    """A pairing request as a handset sends it (for handset code and tests)."""
    body: dict[str, object] = {"v": protocol.VERSION, "id": handset, "secret": secret}
    if name:
        body["name"] = name
    return json.dumps(body, separators=(",", ":")).encode()
