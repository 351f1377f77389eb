"""Three real mosquitto brokers on loopback for the league tests: the league's (dynamic security, a TLS
listener with a CA made here by the installer's code) and a pub's, whose bridge the installer's code writes."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from appliance.edge.accounts import BrokerAccounts, Dynsec, PahoTransport
from appliance.edge.broker import MosquittoBroker, free_port
from appliance.infra.league_store import LeagueStore
from appliance.infra.store import Store
from appliance.league import topics
from tests.deploy.tools import load_configure

configure = load_configure()
LEAGUE_PASSWORD = "league-secret-pw"
APPLIANCE = ("appliance", "appliance-pw")
RESTART = (1, 2)  # the bridge's restart_timeout in the tests (the installer's default is 5 60)
# as root, mosquitto drops to user mosquitto before its plugin reads the accounts file in its private
# temporary directory: the test brokers keep root (the Pi's mosquitto runs as its own user on its own files)
KEEP_ROOT = "user root\n" if os.geteuid() == 0 else ""


def broker_dir(path: Path) -> Path:
    """A directory mosquitto can use after it drops root (to user mosquitto): readable, with a data
    directory it may write its persistence file to."""
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o755)
    data = path / "data"
    data.mkdir(exist_ok=True)
    data.chmod(0o777)
    return path


def wait_until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.05)


class League:
    def __init__(self, directory: Path) -> None:
        self.dir = broker_dir(directory)
        configure.league_certificates(directory / "tls", ["127.0.0.1", "localhost"])
        self.ca_pem = (directory / "tls" / "ca.pem").read_text(encoding="utf-8")
        self.tls_port = free_port()
        tls = directory / "tls"
        self.broker = MosquittoBroker(
            admin=(topics.SERVICE_USER, LEAGUE_PASSWORD),
            roles_in_file=lambda path: configure.league_role_in_file(path, topics.SERVICE_USER),
            extra_config=(f"{KEEP_ROOT}persistence true\npersistence_location {directory / 'data'}/\n"
                          f"listener {self.tls_port} 127.0.0.1\ncertfile {tls / 'server.pem'}\n"
                          f"keyfile {tls / 'server.key'}\n"),
        )
        self.store = LeagueStore(Store(directory / "league.db"))
        self.transport = PahoTransport("127.0.0.1", self.broker.port, topics.SERVICE_USER, LEAGUE_PASSWORD)
        self.dynsec = Dynsec(self.transport)

    def stop(self) -> None:
        self.transport.close()
        self.broker.stop()


class Pub:
    """A pub box: its own broker (accounts as the appliance has them, persistence on, the league bridge)
    and its store; ``link`` is its member link once started."""

    def __init__(self, directory: Path, box: str, league: League, password: str) -> None:
        self.dir, self.box = broker_dir(directory), box
        lines = configure.join_league(directory, box, "127.0.0.1", league.tls_port, password, league.ca_pem, RESTART)
        assert any("quizbox-league.conf" in line for line in lines)
        bridge = (directory / configure.LEAGUE_DROPIN).read_text(encoding="utf-8")
        self.broker = MosquittoBroker(
            admin=APPLIANCE, box=box,
            extra_config=(f"{KEEP_ROOT}persistence true\npersistence_location {directory / 'data'}/\n"
                          f"autosave_interval 1\n{bridge}"),
        )
        transport = PahoTransport("127.0.0.1", self.broker.port, *APPLIANCE)
        BrokerAccounts(box, Dynsec(transport), appliance_user=APPLIANCE[0]).setup(web_password="web-pw")
        transport.close()
        self.store = Store(directory / "pub.db")
        self.league = LeagueStore(self.store)


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))
