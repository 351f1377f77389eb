"""``quizbox league``: a league box (docs/league.md "Setting up a chain").

    quizbox league serve --data DIR --name league.example   its broker, its service and its web page
    quizbox league invite BOX --data DIR                    a one-time join code for member box BOX
    quizbox league plan FILE --data DIR                     send a league plan to every member

Everything the league keeps is in ``--data``: its SQLite store (``league.db``), its CA and broker
certificate (``tls/``, made once by the installer's code), its broker's accounts
(``dynamic-security.json``, made once; mosquitto's dynamic security plugin keeps it), its broker's
config and persistence, and the service account's password (``service.json``, mode 0600). Run again
with the same ``--data``, the box keeps its members, their accounts and the season.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import logging
import os
import secrets
import shutil
import subprocess
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

from appliance.edge.accounts import Dynsec, PahoTransport
from appliance.edge.broker import dynsec_plugin, free_port, mosquitto_binary, wait_for_port
from appliance.errors import ConfigError
from appliance.infra.league_store import LeagueStore
from appliance.infra.store import Store
from appliance.league import topics
from appliance.league.joincode import JoinCode, new_code, secret_hash
from appliance.league.payloads import read_plan
from appliance.league.service import LeagueService

log = logging.getLogger(__name__)
INSTALLER = Path(__file__).resolve().parents[2] / "deploy" / "configure.py"


@functools.cache
def installer() -> ModuleType:
    """deploy/configure.py, the installer's file work (a script, not a package): the league's CA,
    certificate, broker config and service role are made by the same code the tests and the Pi use
    (loaded once: it puts the checkout on sys.path as it loads)."""
    spec = importlib.util.spec_from_file_location("quizbox_configure", INSTALLER)
    if spec is None or spec.loader is None or not INSTALLER.exists():
        raise ConfigError(f"the installer's code is missing ({INSTALLER}): run from the Quizbox folder")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def service_password(data: Path) -> str:
    """The league service's broker password, made once and kept in ``service.json`` (0600)."""
    path = data / "service.json"
    if path.exists():
        saved = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(saved, dict) and isinstance(saved.get("password"), str):
            return str(saved["password"])
        raise ConfigError(f"{path} is damaged: it should hold the league service's password")
    password = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump({"password": password}, out)
    return password


def ca_pem(data: Path) -> str:
    path = data / "tls" / "ca.pem"
    if not path.exists():
        raise ConfigError(f"{path} is missing: start the league box once with 'quizbox league serve --data {data}'")
    return path.read_text(encoding="utf-8")


def invite(data: Path, box: str, url: str) -> JoinCode:
    """A one-time join code for ``box`` (the running service reads the same store, so it redeems it)."""
    code = new_code(url, box, ca_pem(data))
    store = Store(data / "league.db")
    try:
        LeagueStore(store).add_member(box, secret_hash(code.secret))
    finally:
        store.close()
    return code


class LeagueBox(contextlib.ExitStack):
    """The league's broker (mosquitto with dynamic security: members over TLS on ``tls_port``, the service
    on loopback), its service and its web page; leaving the ``with`` block stops them in reverse order."""

    def __init__(self, data: Path, names: list[str], tls_port: int = 8883, local_port: int = 1884,
                 web_host: str = "0.0.0.0", web_port: int = 8090) -> None:
        super().__init__()
        self.data, self.names, self.tls_port = data, names, tls_port
        self.local_port = local_port or free_port()
        self.web_host, self.web_port = web_host, web_port
        self.service: LeagueService | None = None
        self.url = ""

    def _broker_files(self) -> Path:
        """Certificates, the accounts file (made once) and the broker config; the config's path."""
        configure = installer()
        data = self.data
        for line in configure.league_certificates(data / "tls", self.names):
            log.info("league: %s", line)
        password = service_password(data)
        plugin, ctrl = dynsec_plugin(), shutil.which("mosquitto_ctrl")
        if plugin is None or ctrl is None:
            raise ConfigError("mosquitto's dynamic security plugin or mosquitto_ctrl is missing "
                              "(apt-get install mosquitto mosquitto-clients)")
        accounts = data / "dynamic-security.json"
        if not accounts.exists():
            subprocess.run([ctrl, "dynsec", "init", str(accounts), topics.SERVICE_USER, password], check=True,
                           capture_output=True)
            configure.league_role_in_file(accounts, topics.SERVICE_USER)
        (data / "persist").mkdir(exist_ok=True)
        text = configure.render_league_broker(plugin, str(accounts), str(data / "tls" / "server.pem"),
                                              str(data / "tls" / "server.key"), self.tls_port, self.local_port)
        # as root mosquitto would drop to its own user, who cannot read this folder: it keeps the caller's
        text += f"persistence true\npersistence_location {data / 'persist'}/\nautosave_interval 10\n"
        text += "user root\n" if os.geteuid() == 0 else ""
        config = data / "mosquitto.conf"
        config.write_text(text, encoding="utf-8")
        return config

    def start(self) -> LeagueBox:
        from web.connections import guarded_server
        from web.league import create_league_app

        self.data.mkdir(parents=True, exist_ok=True)
        self.data.chmod(0o700)
        config = self._broker_files()
        exe = mosquitto_binary()
        if exe is None:
            raise ConfigError("mosquitto is not installed (apt-get install mosquitto)")
        log_file = self.enter_context(open(self.data / "mosquitto.log", "ab"))  # noqa: SIM115
        broker = subprocess.Popen([exe, "-c", str(config)], stdout=log_file, stderr=subprocess.STDOUT)
        self.callback(_stop, broker)
        wait_for_port("127.0.0.1", self.local_port)
        password = service_password(self.data)
        transport = PahoTransport("127.0.0.1", self.local_port, topics.SERVICE_USER, password)
        self.callback(transport.close)
        store = Store(self.data / "league.db")
        self.callback(store.close)
        self.service = LeagueService(LeagueStore(store), "127.0.0.1", self.local_port, topics.SERVICE_USER,
                                     password, Dynsec(transport))
        self.callback(self.service.close)
        self.service.client.wait(15)
        app = create_league_app(self.service, self.names[0], self.tls_port, ca_pem(self.data))
        server = guarded_server(app, self.web_host, self.web_port)
        thread = threading.Thread(target=_serve, args=(server,), name="league-web", daemon=True)
        thread.start()
        self.callback(_stop_web, server)
        self.web_port = int(server.effective_port)
        self.url = f"http://{self.names[0]}:{self.web_port}"
        return self


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _serve(server: Any) -> None:
    with contextlib.suppress(OSError):  # _stop_web closed a socket the loop was watching
        server.run()


def _stop_web(server: Any) -> None:
    """waitress's loop ends when its channels and listener are closed (as web.ServerThread.stop does)."""
    while server._map:
        for channel in list(server._map.values()):
            channel.handle_close()
    server.task_dispatcher.shutdown()


def local_port(data: Path) -> int:
    """The loopback port of the league box's broker, from the config ``serve`` wrote."""
    try:
        text = (data / "mosquitto.conf").read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"no league box in {data}: start it with 'quizbox league serve --data {data}'") from exc
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "listener" and parts[2] == "127.0.0.1":
            return int(parts[1])
    raise ConfigError(f"{data / 'mosquitto.conf'} has no loopback listener for the league's service")


def publish_plan(data: Path, path: Path) -> dict[str, Any]:
    """Send the plan in ``path`` (JSON, checked by :func:`read_plan`) through the running league box's
    broker, retained: every member gets it, now or when its bridge comes back."""
    port = local_port(data)
    try:
        plan = read_plan(path.read_bytes())
    except OSError as exc:
        raise ConfigError(f"cannot read the plan {path}: {exc}") from exc
    store = Store(data / "league.db")
    try:
        LeagueStore(store).save_plan(plan["plan"], plan)
    finally:
        store.close()
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    done = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"quizbox-league-plan-{secrets.token_hex(3)}")
    client.username_pw_set(topics.SERVICE_USER, service_password(data))
    client.on_connect = lambda *_: done.set()
    try:
        client.connect("127.0.0.1", port, 30)
    except OSError as exc:
        raise ConfigError(f"the league box's broker is not running on port {port}: {exc}") from exc
    client.loop_start()
    try:
        if not done.wait(10):
            raise ConfigError(f"the league box's broker on port {port} did not take the service's login")
        info = client.publish(topics.plan_topic(plan["plan"]), json.dumps(plan).encode(), qos=1, retain=True)
        info.wait_for_publish(10)
    finally:
        client.disconnect()
        client.loop_stop()
    return plan
