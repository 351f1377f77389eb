"""The MQTT broker the appliance talks through.

A configured broker (``[broker] host``) is used as it is. Without one (the demo, a developer's laptop) the
appliance starts its own on a free loopback port: the ``mosquitto`` binary when one is on PATH, with a
generated config, else the embedded amqtt broker in-process.

Settings that matter (measured, see issue 2): ``set_tcp_nodelay true`` (else a round trip costs ~44-88 ms
of Nagle delay instead of ~0.5 ms) and a raised ``max_queued_messages`` (the default 1000 silently dropped
two thirds of a 32-client QoS 1 burst). amqtt sends retained messages to clients that never subscribed to
them, so nothing secret is ever retained.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Protocol, Self

from appliance.errors import ConfigError

log = logging.getLogger(__name__)

MOSQUITTO_SETTINGS = """\
set_tcp_nodelay true
max_queued_messages 100000
max_inflight_messages 0
persistence false
"""
MESSAGE_SIZE_LIMIT = 262144  # systemd/mosquitto-quizbox.conf's: the box's own broker drops anything bigger


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int
    kind: str  # "external", "mosquitto" or "amqtt"


class RunningBroker(Protocol):
    address: BrokerAddress

    def stop(self) -> None: ...


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago on ``host``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(host: str, port: int, timeout: float = 10.0) -> None:
    """Block until ``host:port`` accepts TCP connections; ConfigError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise ConfigError(f"broker at {host}:{port} did not start within {timeout:.0f} s") from None
            time.sleep(0.02)


def mosquitto_binary() -> str | None:
    """The mosquitto executable, looked up on PATH and in /usr/sbin (Debian puts it there)."""
    found = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")
    return found


def dynsec_plugin() -> str | None:
    """mosquitto's dynamic security plugin (Debian: /usr/lib/<arch>/mosquitto_dynamic_security.so)."""
    found = sorted(Path("/usr/lib").glob("*/mosquitto_dynamic_security.so"))
    found += [p for p in (Path("/usr/lib/mosquitto_dynamic_security.so"),
                          Path("/usr/local/lib/mosquitto_dynamic_security.so")) if p.exists()]
    return str(found[0]) if found else None


class MosquittoProcess:
    """One mosquitto process run from a config in a temporary folder of its own (:attr:`folder`), which
    :meth:`stop` removes; a context manager. A subclass writes the config and calls :meth:`_launch`;
    :attr:`NICE` lowers the process's scheduling priority."""

    NICE = 0
    config_path: Path
    _log: IO[bytes]
    _proc: subprocess.Popen[bytes]

    def __init__(self, binary: str | None, prefix: str) -> None:
        exe = binary or mosquitto_binary()
        if exe is None:
            raise ConfigError("mosquitto is not installed (apt-get install mosquitto)")
        self._exe = exe
        self._dir = tempfile.TemporaryDirectory(prefix=prefix)
        self.folder = Path(self._dir.name)

    def _launch(self, config_path: Path, log_name: str) -> None:
        """Start mosquitto on ``config_path``, its output to ``log_name`` in :attr:`folder`."""
        self.config_path = config_path
        self._log = open(self.folder / log_name, "wb")  # noqa: SIM115 (closed in stop)
        self._proc = self._spawn()

    def _spawn(self) -> subprocess.Popen[bytes]:
        nice = self.NICE
        return subprocess.Popen([self._exe, "-c", str(self.config_path)], stdout=self._log,
                                stderr=subprocess.STDOUT,
                                preexec_fn=(lambda: os.nice(nice)) if nice else None)  # noqa: PLW1509

    @property
    def pid(self) -> int:
        return self._proc.pid

    def alive(self) -> bool:
        return self._proc.poll() is None

    def kill(self) -> None:
        """SIGKILL, as a crash would (for fault tests)."""
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGKILL)
            self._proc.wait()

    def _terminate(self) -> None:
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()

    def stop(self) -> None:
        self._terminate()
        self._log.close()
        self._dir.cleanup()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class MosquittoBroker(MosquittoProcess):
    """A private mosquitto on a free loopback port with a generated config; a context manager.

    With ``admin`` (user, password) it runs as the box's broker does: no anonymous clients, accounts kept
    by the dynamic security plugin (a fresh file made with ``mosquitto_ctrl dynsec init``, ``admin`` its
    administrator with its role for box ``box``: appliance.edge.accounts sets up the rest), and the box's
    ``message_size_limit``."""

    def __init__(self, port: int | None = None, extra_config: str = "", binary: str | None = None,
                 admin: tuple[str, str] | None = None, box: str = "quizbox",
                 roles_in_file: Callable[[Path], None] | None = None) -> None:
        super().__init__(binary, "quizbox-mosquitto-")
        self.port = port or free_port()
        access = "allow_anonymous true\n"
        self.dynsec_file: Path | None = None
        if admin is not None:
            plugin, ctrl = dynsec_plugin(), shutil.which("mosquitto_ctrl")
            if plugin is None or ctrl is None:
                self._dir.cleanup()
                raise ConfigError("mosquitto's dynamic security plugin or mosquitto_ctrl is missing "
                                  "(apt-get install mosquitto mosquitto-clients)")
            self.dynsec_file = self.folder / "dynamic-security.json"
            subprocess.run([ctrl, "dynsec", "init", str(self.dynsec_file), *admin], check=True,
                           capture_output=True)
            from appliance.edge.accounts import appliance_role_in_file

            appliance_role_in_file(self.dynsec_file, box, admin[0])  # as deploy/configure.py does
            if roles_in_file is not None:  # e.g. the league service's role (deploy/configure.py)
                roles_in_file(self.dynsec_file)
            access = (f"allow_anonymous false\nplugin {plugin}\nplugin_opt_config_file {self.dynsec_file}\n"
                      f"message_size_limit {MESSAGE_SIZE_LIMIT}\n")
        conf = self.folder / "mosquitto.conf"
        conf.write_text(
            f"listener {self.port} 127.0.0.1\n{access}{MOSQUITTO_SETTINGS}{extra_config}",
            encoding="utf-8",
        )
        self._launch(conf, "mosquitto.log")
        self.address = BrokerAddress("127.0.0.1", self.port, "mosquitto")
        try:
            wait_for_port("127.0.0.1", self.port)
        except ConfigError:
            self.stop()
            raise

    def restart(self) -> None:
        """Stop and start again on the same port (for fault tests; after :meth:`kill` too)."""
        self._terminate()
        self._proc = self._spawn()
        wait_for_port("127.0.0.1", self.port)


class EmbeddedBroker:
    """amqtt running on its own asyncio loop in a daemon thread; a context manager."""

    def __init__(self, port: int | None = None) -> None:
        from amqtt.broker import Broker

        self.port = port or free_port()
        self.address = BrokerAddress("127.0.0.1", self.port, "amqtt")
        config: dict[str, Any] = {
            "listeners": {"default": {"type": "tcp", "bind": f"127.0.0.1:{self.port}"}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
        }
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._error: BaseException | None = None

        async def start() -> Any:
            broker = Broker(config, loop=self._loop)
            await broker.start()
            return broker

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            try:
                self._broker = self._loop.run_until_complete(start())
            except BaseException as exc:  # reported to the starting thread
                self._error = exc
                self._ready.set()
                return
            self._ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name="amqtt-broker", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._error is not None:
            raise ConfigError(f"embedded broker failed to start: {self._error}")
        wait_for_port("127.0.0.1", self.port)

    def stop(self) -> None:
        if not self._thread.is_alive():
            return
        future = asyncio.run_coroutine_threadsafe(self._broker.shutdown(), self._loop)
        with contextlib.suppress(Exception):
            future.result(timeout=5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    def __enter__(self) -> EmbeddedBroker:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


class ExternalBroker:
    """A broker someone else runs (the configured one); stopping it is a no-op."""

    def __init__(self, host: str, port: int) -> None:
        self.address = BrokerAddress(host, port, "external")

    def stop(self) -> None:
        return None


def start_broker(host: str = "", port: int = 1883, prefer: str = "auto") -> RunningBroker:
    """The configured broker, or a private one (``prefer``: auto | mosquitto | amqtt)."""
    if host:
        return ExternalBroker(host, port)
    if prefer in ("auto", "mosquitto") and mosquitto_binary():
        return MosquittoBroker()
    if prefer == "mosquitto":
        raise ConfigError("mosquitto is not installed (apt-get install mosquitto)")
    log.info("mosquitto not found on PATH: using the embedded amqtt broker")
    return EmbeddedBroker()
