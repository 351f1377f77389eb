"""The box's broker accounts, kept by mosquitto's own dynamic security plugin.

mosquitto 2.0 (Debian and Raspberry Pi OS bookworm) ships ``mosquitto_dynamic_security.so``: clients
(user name, password hashed by mosquitto, optionally the one client id it may connect with), roles (lists
of ACLs) and the default access, kept in ``/var/lib/mosquitto/dynamic-security.json`` and changed while
the broker runs by JSON commands on ``$CONTROL/dynamic-security/v1``. The project writes no password or
ACL file and never reloads the broker: the installer creates the file once with ``mosquitto_ctrl dynsec
init`` (the appliance's account is its admin), and from then on the appliance (at every start, and when
the quizmaster accepts or removes a handset) and the installer (``deploy/configure.py --sync-accounts``)
send commands built here.

:data:`RIGHTS` is the one place that says what each kind of account may do. Every account has one role of
the same name: ``quizbox-appliance``, ``quizbox-web``, ``quizbox-pairing``, and ``quizbox-handset-<id>``
for each paired handset (mosquitto 2.0's plugin has no ``%u`` pattern in ACLs, measured in
tests/security/test_dynsec.py, so a handset's rights are :data:`RIGHTS` ``["handset"]`` filled in with
its id). Reads are ``subscribePattern`` + ``publishClientReceive``, writes ``publishClientSend``;
anything no ACL allows is denied (the plugin's default for publishing and subscribing).

This module is standard library only, so the installer (system python3, no venv yet) uses it too: the
commands are plain dicts, sent by a :data:`Transport` (paho in the appliance, ``mosquitto_rr`` in the
installer).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from appliance.errors import ConfigError, QuizboxError
from appliance.league.topics import acl_entries
from firmware import protocol
from firmware.core.pairing import PAIRING_PASSWORD as PAIRING_PASSWORD
from firmware.core.pairing import PAIRING_USER as PAIRING_USER
from firmware.core.pairing import client_id as client_id

log = logging.getLogger(__name__)

CONTROL_TOPIC = "$CONTROL/dynamic-security/v1"
RESPONSE_TOPIC = CONTROL_TOPIC + "/response"
APPLIANCE_USER = "appliance"
WEB_USER = "web"
PHONE_PREFIX = "phone-"  # phone handsets' ids (web/phones.py): the admin page speaks for them
ROLE_PREFIX = "quizbox-"
HANDSET_ROLE_PREFIX = ROLE_PREFIX + "handset-"
DYNSEC_FILE = "/var/lib/mosquitto/dynamic-security.json"
PLUGIN_NAME = "mosquitto_dynamic_security.so"

# What each kind of account may do: (access, topic) with access "read", "write" or "readwrite"; {box} is
# the box id, {handset} the handset's id. THE one definition: the appliance and the installer both apply it.
RIGHTS: dict[str, tuple[tuple[str, str], ...]] = {
    # The appliance runs the games (everything of its box) and keeps the accounts (the plugin's topics).
    "appliance": (
        ("readwrite", "quizbox/{box}/#"),
        ("readwrite", "$CONTROL/dynamic-security/#"),
        # a league member (docs/league.md): its bridge carries these to and from the league's broker
        ("write", "league/result/{box}/#"),
        ("read", "league/plan/#"),
        ("read", "league/ack/{box}/#"),
        ("read", "league/table"),
    ),
    # The admin page sends commands and reads the state, the board and whether the quiz program is up, and
    # it is the MQTT client of every phone handset ("phone-...", web/phones.py): phones reach only the web
    # server, which binds each browser to one handset id.
    "web": (
        ("write", "quizbox/{box}/admin/command"),
        ("read", "quizbox/{box}/admin/state"),
        ("read", "quizbox/{box}/board"),
        ("read", "quizbox/{box}/appliance/status"),
        ("read", "quizbox/{box}/appliance/heartbeat"),  # whether the box answers (appliance/box/pulse.py)
        ("write", "quizbox/{box}/handset/+/input"),
        ("write", "quizbox/{box}/handset/+/hello"),
        ("write", "quizbox/{box}/handset/+/telemetry"),
        ("write", "quizbox/{box}/handset/+/status"),
        ("write", "quizbox/{box}/handset/+/clock"),
        ("read", "quizbox/{box}/handset/+/prompt"),
        ("read", "quizbox/{box}/handset/+/ack"),
        ("read", "quizbox/{box}/handset/+/time"),
    ),
    # A handset without an account yet: the public pairing account may only ask for one. It reads nothing.
    "pairing": (("write", "quizbox/{box}/pairing/+"),),
    # A paired handset publishes only its own input, hello, telemetry, status and clock answers, and reads
    # only its own prompt, ack and time, and the public board.
    "handset": (
        ("write", "quizbox/{box}/handset/{handset}/input"),
        ("write", "quizbox/{box}/handset/{handset}/hello"),
        ("write", "quizbox/{box}/handset/{handset}/telemetry"),
        ("write", "quizbox/{box}/handset/{handset}/status"),
        ("write", "quizbox/{box}/handset/{handset}/clock"),
        ("read", "quizbox/{box}/handset/{handset}/prompt"),
        ("read", "quizbox/{box}/handset/{handset}/ack"),
        ("read", "quizbox/{box}/handset/{handset}/time"),
        ("read", "quizbox/{box}/board"),
        ("read", "quizbox/{box}/appliance/heartbeat"),  # "the box is not answering" when it goes stale
    ),
}

# The plugin's default for what no ACL mentions: nobody publishes or subscribes unless a role allows it.
DEFAULT_ACCESS = [
    {"acltype": "publishClientSend", "allow": False},
    {"acltype": "publishClientReceive", "allow": True},
    {"acltype": "subscribe", "allow": False},
    {"acltype": "unsubscribe", "allow": True},
]

Transport = Callable[[bytes], bytes]  # one request payload -> the plugin's response payload


class AccountsError(QuizboxError):
    """The broker refused an account command, or the plugin cannot be reached."""


def private_client_id(prefix: str) -> str:
    """A client id nobody can guess (``prefix`` + 64 random bits): a guest who logs in with a public
    credential and a client id that is in use makes mosquitto drop the client using it, so every client
    of the box's own uses one of these (handsets: :func:`client_id` of their secret)."""
    return f"{prefix}-{secrets.token_hex(8)}"


def is_handset_account(user: str, appliance_user: str = APPLIANCE_USER) -> bool:
    """Whether broker account ``user`` is a handset's (a valid handset id, not a service account)."""
    if user in (appliance_user, APPLIANCE_USER, WEB_USER, PAIRING_USER) or user.startswith(PHONE_PREFIX):
        return False
    try:
        protocol.handset_topic("x", user, "input")
    except protocol.ProtocolError:
        return False
    return True


def role_name(kind: str, handset: str | None = None) -> str:
    return HANDSET_ROLE_PREFIX + handset if kind == "handset" and handset else ROLE_PREFIX + kind


def acls(kind: str, box: str, handset: str | None = None) -> list[dict[str, Any]]:
    """The plugin's ACL entries for an account of ``kind`` (:data:`RIGHTS`)."""
    protocol.box_topic(box)
    if kind == "handset" and (handset is None or not is_handset_account(handset)):
        raise AccountsError(f"{handset!r} cannot be a handset's broker account")
    return acl_entries(tuple((access, pattern.format(box=box, handset=handset or ""))
                             for access, pattern in RIGHTS[kind]))


def appliance_role_in_file(path: str | os.PathLike[str], box: str, appliance_user: str) -> None:
    """``mosquitto_ctrl dynsec init`` gives the appliance a role "admin" that reads every topic: give it its
    own (RIGHTS["appliance"]) in the file instead, before mosquitto runs (changing its account while it is
    connected would disconnect it)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    name = role_name("appliance")
    data["roles"] = [r for r in data["roles"] if r.get("rolename") not in ("admin", name)]
    data["roles"].append({"rolename": name, "acls": acls("appliance", box)})
    for client in data["clients"]:
        if client.get("username") == appliance_user:
            client["roles"] = [{"rolename": name}]
    tmp = f"{path}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=1)
    os.replace(tmp, path)


def _acl_set(entries: Iterable[Mapping[str, Any]]) -> set[tuple[str, str, bool]]:
    return {(str(e.get("acltype")), str(e.get("topic")), bool(e.get("allow"))) for e in entries}


def ensure_role(kind: str, box: str, handset: str | None = None,
                roles: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Commands that leave role ``kind`` (for ``handset``) with exactly its :data:`RIGHTS`; nothing if
    ``roles`` (name -> the plugin's ACL list, from ``listRoles``) shows it has them already."""
    name, entries = role_name(kind, handset), acls(kind, box, handset)
    if roles is None or name not in roles:
        return [{"command": "createRole", "rolename": name, "acls": entries},
                {"command": "modifyRole", "rolename": name, "acls": entries}]
    if _acl_set(roles[name]) != _acl_set(entries):
        return [{"command": "modifyRole", "rolename": name, "acls": entries}]  # takes effect at once
    return []


def ensure_client(user: str, password: str | None, role: str, clientid: str | None = None) -> list[dict[str, Any]]:
    """Commands that make account ``user`` with ``password``, only ``role``, bound to ``clientid``; an
    account that exists is changed to that (the plugin disconnects a client whose account changed)."""
    create: dict[str, Any] = {"command": "createClient", "username": user, "roles": [{"rolename": role}]}
    modify: dict[str, Any] = {"command": "modifyClient", "username": user, "roles": [{"rolename": role}]}
    if password is not None:
        create["password"] = modify["password"] = password
    if clientid is not None:
        create["clientid"] = modify["clientid"] = clientid
    return [create, modify]


def _harmless(command: Mapping[str, Any], error: str) -> bool:
    """Errors that only say the create of a create/modify pair, or a delete, was not needed."""
    name = command.get("command")
    if name in ("createRole", "createClient") and "already exists" in error:
        return True
    return name in ("deleteRole", "deleteClient", "getClient") and "not found" in error


class Dynsec:
    """Sends commands to the plugin and checks every answer (``correlationData`` pairs them up)."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self._lock = threading.Lock()

    def run(self, commands: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Each command's response, in order; AccountsError naming the first that failed."""
        batch = []
        for number, command in enumerate(commands):
            batch.append({**command, "correlationData": f"q{number}"})
        if not batch:
            return []
        with self._lock:
            raw = self.transport(json.dumps({"commands": batch}).encode())
        try:
            answers = json.loads(raw.decode("utf-8"))["responses"]
            by_tag = {a.get("correlationData"): a for a in answers if isinstance(a, dict)}
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise AccountsError(f"the broker's account plugin answered something unreadable: {raw[:80]!r}") from exc
        out = []
        for command in batch:
            answer = by_tag.get(command["correlationData"])
            if answer is None:
                raise AccountsError(f"the broker did not answer {command['command']}")
            error = answer.get("error")
            if error and not _harmless(command, str(error)):
                who = command.get("username") or command.get("rolename") or ""
                raise AccountsError(f"the broker refused {command['command']} {who}: {error}")
            out.append(answer)
        return out


class BrokerAccounts:
    """The box's accounts as the appliance sees them: the services', and one per paired handset."""

    def __init__(self, box: str, dynsec: Dynsec, appliance_user: str = APPLIANCE_USER,
                 clock: Callable[[], float] = time.monotonic) -> None:
        protocol.box_topic(box)
        self.box = box
        self.dynsec = dynsec
        self.appliance_user = appliance_user
        self.clock = clock
        self._handsets: set[str] = set()
        self._checked: dict[str, float] = {}  # handset id -> when the broker last said it has no account
        self._silent_until = -1e9  # after the plugin failed to answer: no lookups (they block) for a while

    def setup(self, web_password: str | None = None) -> list[str]:
        """Every role with its rights, the public pairing account, the admin page's account (when
        ``web_password`` is given: the installer knows it) and every handset's role; safe to repeat (the
        appliance does it at every start) and it changes only what differs, so no connected client is
        disturbed. Returns the handset ids."""
        listed = self.dynsec.run([{"command": "listRoles", "verbose": True, "count": -1, "offset": 0},
                                  {"command": "listClients", "verbose": True, "count": -1, "offset": 0}])
        roles = {r["rolename"]: r.get("acls", []) for r in listed[0].get("data", {}).get("roles", [])}
        clients = {c["username"]: {r.get("rolename") for r in c.get("roles", [])}
                   for c in listed[1].get("data", {}).get("clients", [])}
        commands: list[dict[str, Any]] = [{"command": "setDefaultACLAccess", "acls": DEFAULT_ACCESS}]
        for kind in ("appliance", "web", "pairing"):
            commands += ensure_role(kind, self.box, roles=roles)
        mine = clients.get(self.appliance_user, set())
        if role_name("appliance") not in mine:
            # the appliance's own account: changing it would disconnect it, so it is made right in the file
            # (deploy/configure.py); here it only gets what it lacks, on a later start
            log.warning("the appliance's broker account has roles %s, not %s: re-run the installer",
                        sorted(r for r in mine if r), role_name("appliance"))
        if PAIRING_USER not in clients or clients[PAIRING_USER] != {role_name("pairing")}:
            commands += ensure_client(PAIRING_USER, PAIRING_PASSWORD, role_name("pairing"))
        if web_password is not None:
            commands += ensure_client(WEB_USER, web_password, role_name("web"))
        handsets = sorted(u for u in clients if is_handset_account(u, self.appliance_user))
        for handset in handsets:
            commands += ensure_role("handset", self.box, handset, roles=roles)
            if role_name("handset", handset) not in clients[handset]:
                commands.append({"command": "addClientRole", "username": handset,
                                 "rolename": role_name("handset", handset)})
        self.dynsec.run(commands)
        self._handsets = set(handsets)
        return handsets

    def list_handsets(self) -> list[str]:
        answer = self.dynsec.run([{"command": "listClients", "verbose": False, "count": -1, "offset": 0}])[0]
        users = answer.get("data", {}).get("clients", [])
        return sorted(u for u in users if isinstance(u, str) and is_handset_account(u, self.appliance_user))

    def has(self, handset: str) -> bool:
        """Whether ``handset`` has an account (what this appliance made, or, checked at most every 5 s per
        id, one made behind its back by ``configure.py --add-handset``)."""
        if handset in self._handsets:
            return True
        if not is_handset_account(handset, self.appliance_user):
            return False
        now = self.clock()
        if now - self._checked.get(handset, -1e9) < 5 or now < self._silent_until:
            return False
        self._checked[handset] = now
        if len(self._checked) > 4096:
            self._checked.clear()
        try:
            answer = self.dynsec.run([{"command": "getClient", "username": handset}])[0]
        except AccountsError as exc:
            log.error("cannot look up handset %s's account: %s", handset, exc)
            self._silent_until = now + 30
            return False
        if answer.get("data", {}).get("client"):
            self._handsets.add(handset)
            return True
        return False

    def add_handset(self, handset: str, secret: str) -> None:
        """An account for ``handset`` with password ``secret``, usable only with client id
        :func:`client_id` (handset, secret), and the handset's role."""
        if not is_handset_account(handset, self.appliance_user):
            raise AccountsError(f"{handset!r} cannot be a handset's broker account")
        role = role_name("handset", handset)
        self.dynsec.run(ensure_role("handset", self.box, handset)
                        + ensure_client(handset, secret, role, client_id(handset, secret)))
        self._handsets.add(handset)
        self._checked.pop(handset, None)

    def remove_handset(self, handset: str) -> bool:
        """Take ``handset``'s account away (mosquitto drops its connection); False if it had none."""
        if not is_handset_account(handset, self.appliance_user):
            return False
        had = self.has(handset)
        self.dynsec.run([{"command": "deleteClient", "username": handset},
                         {"command": "deleteRole", "rolename": role_name("handset", handset)}])
        self._handsets.discard(handset)
        return had

    def disable_handset(self, handset: str) -> None:
        """``handset`` may not log in until :meth:`enable_handset` (mosquitto drops its connection now)."""
        if is_handset_account(handset, self.appliance_user):
            self.dynsec.run([{"command": "disableClient", "username": handset}])

    def enable_handset(self, handset: str) -> None:
        if is_handset_account(handset, self.appliance_user):
            self.dynsec.run([{"command": "enableClient", "username": handset}])

    def pairing_here(self, allowed: bool) -> None:
        """Whether the public pairing account may log in to this broker: not while the pairing broker (a
        mosquitto of its own, appliance/edge/pairing_broker.py) takes the requests, so that a flood from
        the guest Wi-Fi cannot reach the game's broker by this door either (issue 38)."""
        self.dynsec.run([{"command": "enableClient" if allowed else "disableClient", "username": PAIRING_USER}])


class MemoryAccounts:
    """Handset accounts kept in memory, with :class:`BrokerAccounts`' interface: for a broker without the
    plugin where handset accounts only have to be pretended (the fuzz bench, the pairing rules' tests)."""

    def __init__(self, appliance_user: str = APPLIANCE_USER) -> None:
        self.appliance_user = appliance_user
        self.made: dict[str, str] = {}
        self.disabled: set[str] = set()

    def setup(self, web_password: str | None = None) -> list[str]:
        return sorted(self.made)

    def has(self, handset: str) -> bool:
        return handset in self.made

    def add_handset(self, handset: str, secret: str) -> None:
        if not is_handset_account(handset, self.appliance_user):
            raise AccountsError(f"{handset!r} cannot be a handset's broker account")
        self.made[handset] = secret

    def remove_handset(self, handset: str) -> bool:
        return self.made.pop(handset, None) is not None

    def disable_handset(self, handset: str) -> None:
        self.disabled.add(handset)

    def enable_handset(self, handset: str) -> None:
        self.disabled.discard(handset)

    def pairing_here(self, allowed: bool) -> None:
        (self.disabled.discard if allowed else self.disabled.add)(PAIRING_USER)


# -- transports ------------------------------------------------------------------------------------------


class PahoTransport:
    """Commands over an MQTT connection of the appliance's account (a private client id; paho)."""

    def __init__(self, host: str, port: int, username: str, password: str, timeout: float = 5.0,
                 tls: bool = False, ca_file: str = "") -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.timeout = timeout
        self._answers: list[bytes] = []
        self._cond = threading.Condition()
        self._ready = threading.Event()
        self._failed: str | None = None
        paho = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=private_client_id("quizbox-accounts"),
                           protocol=mqtt.MQTTv311)
        paho.username_pw_set(username, password)
        if tls:
            import ssl

            paho.tls_set(ca_certs=ca_file or None, cert_reqs=ssl.CERT_REQUIRED)

        def connected(client: Any, userdata: object, flags: object, reason: Any, properties: object) -> None:
            if reason.is_failure:
                self._failed = str(reason)
                self._ready.set()
                return
            client.subscribe(RESPONSE_TOPIC, qos=1)

        def subscribed(client: Any, userdata: object, mid: int, reasons: Any, properties: object) -> None:
            if any(r.is_failure for r in reasons):
                self._failed = "not allowed to read the account plugin's answers"
            self._ready.set()

        def message(client: Any, userdata: object, msg: Any) -> None:
            with self._cond:
                self._answers.append(bytes(msg.payload))
                self._cond.notify_all()

        paho.on_connect, paho.on_subscribe, paho.on_message = connected, subscribed, message
        paho.reconnect_delay_set(min_delay=1, max_delay=8)
        self.paho = paho
        try:
            paho.connect(host, port, 30)
        except OSError as exc:
            raise AccountsError(f"cannot reach the broker at {host}:{port} to manage accounts: {exc}") from exc
        paho.loop_start()
        if not self._ready.wait(timeout) or self._failed:
            self.close()
            raise AccountsError(f"the broker at {host}:{port} refused the account manager "
                                f"(user {username!r}): {self._failed or 'no answer'}")

    def __call__(self, payload: bytes) -> bytes:
        with self._cond:
            self._answers.clear()
            # QoS 0: a command is never sent twice (a change to an account the plugin disconnects for
            # would else be re-sent on every reconnect)
            info = self.paho.publish(CONTROL_TOPIC, payload, qos=0)
            deadline = time.monotonic() + self.timeout
            while not self._answers:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AccountsError("the broker's account plugin did not answer (is it loaded? "
                                        f"plugin {PLUGIN_NAME} in mosquitto's config): rc {info.rc}")
                self._cond.wait(left)
            return self._answers.pop(0)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.paho.disconnect()
            self.paho.loop_stop()


def installer_transport(host: str, port: int, username: str, password: str) -> Transport:
    """paho when it is there (the installer runs ``--sync-accounts`` with the box's venv), else
    ``mosquitto_rr`` (mosquitto-clients) for the system's bare python3."""
    try:
        import paho.mqtt.client  # noqa: F401
    except ImportError:
        return mosquitto_rr_transport(host, port, username, password)
    transport = PahoTransport(host, port, username, password)

    def send(payload: bytes) -> bytes:
        return transport(payload)

    return send


def mosquitto_rr_transport(host: str, port: int, username: str, password: str, timeout: int = 5) -> Transport:
    """Commands through ``mosquitto_rr`` (mosquitto-clients), for the installer: no Python packages needed.
    The password goes in a private options file, not on the command line."""
    exe = shutil.which("mosquitto_rr")
    if exe is None:
        raise ConfigError("mosquitto_rr is missing (apt-get install mosquitto-clients)")

    def send(payload: bytes) -> bytes:
        with tempfile.TemporaryDirectory(prefix="quizbox-rr-") as home:
            options = os.path.join(home, "mosquitto_rr")
            fd = os.open(options, os.O_WRONLY | os.O_CREAT, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(f"-u {username}\n-P {password}\n")
            done = subprocess.run(
                [exe, "-h", host, "-p", str(port), "-i", private_client_id("quizbox-install"),
                 "-t", CONTROL_TOPIC, "-e", RESPONSE_TOPIC, "-W", str(timeout), "-s"],
                input=payload, capture_output=True, env={**os.environ, "XDG_CONFIG_HOME": home}, check=False,
            )
        if done.returncode != 0:
            why = (done.stderr or done.stdout).decode("utf-8", "replace").strip() or f"exit {done.returncode}"
            raise AccountsError(f"mosquitto_rr could not talk to the account plugin at {host}:{port}: {why}")
        return done.stdout.strip()

    return send
