"""The pairing desk's own broker: a second mosquitto process, only for pairing requests (issue 38).

Why a process of its own: a pairing flood from the guest Wi-Fi (300 logins with the public pairing account,
4 publishers as fast as they can) took players' first-ack p95 from 38 ms to 394 ms, because one mosquitto
thread served the flood and the game alike: every listener of one mosquitto shares its one event loop, so a
second listener with its own ``max_connections`` would bound the connections but not the work. Here the
flood lands on another process, which the kernel schedules on another core (the Pi has four) and at a
lower priority (``nice`` :data:`NICE`); the game's broker never sees a pairing request.

What it allows (:func:`render_config`): the public ``pairing`` account may only publish requests
(``quizbox/<box>/pairing/+``, at most :data:`MESSAGE_SIZE_LIMIT` bytes, never retained); the appliance's
account (its pairing desk) may only read them. At most :data:`MAX_CONNECTIONS` clients at once, a short
outgoing queue per client (:data:`MAX_QUEUED`: a flood faster than the desk reads is dropped by this broker,
not piled up in it), no persistence, and its log says errors only (a refused login is not a journal line).

Handsets reach it on the box's port + :data:`firmware.core.pairing.PAIRING_PORT_OFFSET` (1884 beside 1883,
docs/protocol.md section 2); the quiz program starts it, watches it and starts it again if it dies
(:class:`PairingBroker`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import pwd
import shutil
import socket
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

from appliance.edge.accounts import PAIRING_PASSWORD, PAIRING_USER
from appliance.edge.broker import BrokerAddress, MosquittoProcess, free_port, wait_for_port
from appliance.errors import ConfigError
from firmware import protocol
from firmware.core.pairing import PAIRING_PORT_OFFSET

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 512
"""Clients at once: a room's handsets ask one at a time for a moment each; beyond, a login is refused."""

MAX_QUEUED = 1000
"""Messages waiting to be sent to one client (the desk): past that, this broker drops them."""

MESSAGE_SIZE_LIMIT = 1024
"""Bytes: a request is ~120 (appliance/edge/pairing.py MAX_REQUEST is 512)."""

NICE = 10
"""The pairing broker's scheduling priority, below the game's broker and the quiz program."""

WATCH_EVERY = 1.0
"""Seconds between two looks at whether the pairing broker still runs."""


def pairing_port(port: int) -> int:
    """The pairing broker's port beside the game broker's ``port``."""
    return port + PAIRING_PORT_OFFSET


def free_port_pair() -> int:
    """A free loopback port whose :func:`pairing_port` is free too (a game broker and its pairing broker, in
    tests and benches)."""
    for _ in range(50):
        port = free_port()
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind(("127.0.0.1", pairing_port(port)))
            except OSError:
                continue
        return port
    raise ConfigError("no free port with a free pairing port beside it")


def port_free(bind: str, port: int) -> None:
    """ConfigError unless ``port`` can be listened on at ``bind`` ("" every interface)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        # as mosquitto binds: a port whose last connections are in TIME_WAIT (a restart) is free; a
        # listening one is not
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((bind or "0.0.0.0", port))  # noqa: S104 - the pairing broker listens on the Wi-Fi
        except OSError as exc:
            raise ConfigError(f"port {port} is taken by another program ({exc.strerror})") from None


def render_config(port: int, bind: str, password_file: str, acl_file: str) -> str:
    """mosquitto.conf of the pairing broker (``bind`` empty: every interface)."""
    return "\n".join([
        "# Quizbox pairing broker: pairing requests only (appliance/edge/pairing_broker.py, docs/security.md).",
        "per_listener_settings false",
        f"listener {port}{f' {bind}' if bind else ''}",
        f"max_connections {MAX_CONNECTIONS}",
        "allow_anonymous false",
        f"password_file {password_file}",
        f"acl_file {acl_file}",
        f"message_size_limit {MESSAGE_SIZE_LIMIT}",
        "retain_available false",
        f"max_queued_messages {MAX_QUEUED}",
        "max_queued_bytes 1048576",
        "max_inflight_messages 20",
        "persistence false",
        "set_tcp_nodelay true",
        "log_dest stderr",
        "log_type error",
        "connection_messages false",
        "",
    ])


def render_acl(box: str, desk_user: str) -> str:
    """Who may do what on the pairing broker: the public account asks, the desk reads."""
    wildcard = protocol.pairing_wildcard(box)
    return (f"user {PAIRING_USER}\ntopic write {wildcard}\n\n"
            f"user {desk_user}\ntopic read {wildcard}\n")


def write_accounts(directory: Path, box: str, desk_user: str, desk_password: str) -> tuple[Path, Path]:
    """The password file (hashed by mosquitto_passwd) and the ACL file in ``directory``."""
    exe = shutil.which("mosquitto_passwd") or shutil.which("mosquitto_passwd", path="/usr/sbin:/usr/local/bin")
    if exe is None:
        raise ConfigError("mosquitto_passwd is missing (apt-get install mosquitto)")
    if desk_user == PAIRING_USER or ":" in desk_user or not desk_user:
        raise ConfigError(f"the pairing desk cannot log in as {desk_user!r}")
    passwd, acl = directory / "pairing.passwd", directory / "pairing.acl"
    fd = os.open(passwd, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(f"{PAIRING_USER}:{PAIRING_PASSWORD}\n{desk_user}:{desk_password}\n")
    done = subprocess.run([exe, "-U", str(passwd)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ConfigError(f"mosquitto_passwd failed: {(done.stderr or done.stdout).strip()[:200]}")
    acl.write_text(render_acl(box, desk_user), encoding="utf-8")
    return passwd, acl


class PairingBroker(MosquittoProcess):
    """The pairing broker, run by the quiz program (or a test) and started again when it dies; a context
    manager. ``bind`` "" listens on every interface (the installed box), else on that address; ``extra_config``
    is added to its config."""

    NICE = NICE  # the module's: below the game's broker

    def __init__(self, box: str, desk_user: str, desk_password: str, port: int, bind: str = "127.0.0.1",
                 binary: str | None = None, extra_config: str = "") -> None:
        super().__init__(binary, "quizbox-pairing-")
        here = self.folder
        try:
            passwd, acl = write_accounts(here, box, desk_user, desk_password)
            port_free(bind, port)  # else the port answering below would be another program's
        except ConfigError:
            self._dir.cleanup()
            raise
        if os.geteuid() == 0:  # mosquitto started by root runs as user mosquitto: its files are given to it
            with contextlib.suppress(KeyError):
                owner = pwd.getpwnam("mosquitto")
                for path in (here, passwd, acl):
                    os.chown(path, owner.pw_uid, owner.pw_gid)
        self.port = port
        self.address = BrokerAddress(bind or "127.0.0.1", port, "mosquitto")
        config_path = here / "pairing-broker.conf"
        config_path.write_text(render_config(port, bind, str(passwd), str(acl)) + extra_config, encoding="utf-8")
        self.restarts = 0
        self.on_restart: Callable[[int | None], None] | None = None  # told each exit code (the health report)
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._launch(config_path, "pairing-broker.log")
        try:
            wait_for_port(self.address.host, port)
            if self._proc.poll() is not None:
                raise ConfigError(f"the pairing broker stopped at once (exit {self._proc.returncode})")
        except ConfigError:
            self.stop()
            raise
        self._watcher = threading.Thread(target=self._watch, name="pairing-broker-watch", daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        while not self._stopped.wait(WATCH_EVERY):
            with self._lock:
                if self._stopped.is_set() or self._proc.poll() is None:
                    continue
                code = self._proc.returncode
                log.error("the pairing broker stopped (exit %s): starting it again", code)
                self.restarts += 1
                self._proc = self._spawn()
                if self.on_restart is not None:
                    self.on_restart(code)

    def _terminate(self) -> None:
        """The watcher told first, so that it does not start again what is being stopped."""
        self._stopped.set()
        with self._lock:
            super()._terminate()
