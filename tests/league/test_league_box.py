"""``quizbox league serve`` as its own process (its mosquitto with dynamic security, its SQLite, its page),
``quizbox league invite`` and ``plan``, and a box joined to it by the installer's ``--join-league``: a bad
address, a damaged or used code, a code for another box or a league that cannot be reached is refused with
a clear error and changes no file; a good join writes the bridge, which carries the league's plan in."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.edge.accounts import BrokerAccounts, Dynsec, PahoTransport
from appliance.edge.broker import MosquittoBroker, free_port
from appliance.errors import ConfigError
from appliance.infra.league_store import LeagueStore
from appliance.infra.store import Store
from appliance.league.member import MemberLink
from tests.conftest import _need_mosquitto
from tests.league.brokers import APPLIANCE, KEEP_ROOT, broker_dir, configure, wait_until

pytestmark = [pytest.mark.mqtt, pytest.mark.timeout(120)]
REPO = Path(__file__).resolve().parents[2]
PLAN = {"v": 1, "plan": "week-1", "title": "Week 1", "rounds": [{"game": "buzzer", "title": "Fast", "cards": 3}],
        "cards": {}}


def quizbox(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "appliance.box.cli", *args], capture_output=True, text=True,
                          timeout=60, cwd=REPO, check=False)


class LeagueProcess:
    def __init__(self, data: Path) -> None:
        self.data, self.tls_port, self.web_port = data, free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.web_port}"
        self.log = open(data.parent / "league-box.log", "w+")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "appliance.box.cli", "league", "serve", "--data", str(data), "--name", "127.0.0.1",
             "--tls-port", str(self.tls_port), "--local-port", str(free_port()), "--web-host", "127.0.0.1",
             "--web-port", str(self.web_port)], stdout=self.log, stderr=subprocess.STDOUT, cwd=REPO)
        wait_until(lambda: self.proc.poll() is not None or "table on" in self.output(), 60, "the league box up")
        assert self.proc.poll() is None, self.output()

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def page(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return bytes(answer.read())

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)
        self.log.close()


@pytest.fixture
def base() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="quizbox-leaguebox-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def member_root(base: Path, box: str) -> Path:
    root = base / box
    configure.configure(root, box, box.title())
    return root


def bridge_files(root: Path) -> list[Path]:
    return [p for p in (root / configure.LEAGUE_DROPIN, root / configure.LEAGUE_CA) if p.exists()]


def test_the_league_box_serves_its_table_and_a_box_joins_it_with_a_code(base: Path) -> None:
    _need_mosquitto()
    league = LeagueProcess(base / "league")
    try:
        page = league.page("/").decode()
        assert "<h1>League table</h1>" in page and "results.csv" in page
        assert league.page("/results.csv").startswith(b"\xef\xbb\xbfresult_id,")
        root = member_root(base, "pub-a")

        made = quizbox("league", "invite", "pub-a", "--data", str(league.data), "--url", league.url)
        assert made.returncode == 0, made.stderr
        code = made.stdout.split()[-1]
        assert code.startswith("QBL1-")

        # refused before the code is used: nothing written, and the code still works after
        with pytest.raises(ConfigError, match="not a host name"):
            configure.join_with_code(root, "league example", code)
        with pytest.raises(ConfigError, match="port 'x' is not a number"):
            configure.join_with_code(root, "127.0.0.1:x", code)
        with pytest.raises(ConfigError, match="starts with QBL1-"):
            configure.join_with_code(root, "127.0.0.1", "hello")
        other = quizbox("league", "invite", "pub-b", "--data", str(league.data), "--url", league.url)
        with pytest.raises(ConfigError, match="for box 'pub-b', and this box is 'pub-a'"):
            configure.join_with_code(root, "127.0.0.1", other.stdout.split()[-1])
        away = quizbox("league", "invite", "pub-a", "--data", str(league.data), "--url",
                       f"http://127.0.0.1:{free_port()}").stdout.split()[-1]  # a league page nobody answers at
        with pytest.raises(ConfigError, match="cannot reach the league's page"):
            configure.join_with_code(root, "127.0.0.1", away, timeout=5)
        assert bridge_files(root) == []
        code = quizbox("league", "invite", "pub-a", "--data", str(league.data), "--url",
                       league.url).stdout.split()[-1]  # a new code (the one before it is dead now)

        joined = subprocess.run([sys.executable, str(REPO / "deploy" / "configure.py"), "--root", str(root),
                                 "--join-league", f"127.0.0.1:{league.tls_port}", code],
                                capture_output=True, text=True, timeout=60, check=False)
        assert joined.returncode == 0, joined.stderr
        assert "joined the league" in joined.stdout
        bridge = (root / configure.LEAGUE_DROPIN).read_text(encoding="utf-8")
        for line in ("connection quizbox-league", f"address 127.0.0.1:{league.tls_port}", "remote_username pub-a",
                     "cleansession false", "bridge_insecure false", "topic league/result/pub-a/# out 1"):
            assert line in bridge.splitlines()
        again = subprocess.run([sys.executable, str(REPO / "deploy" / "configure.py"), "--root", str(root),
                                "--join-league", f"127.0.0.1:{league.tls_port}", code],
                               capture_output=True, text=True, timeout=60, check=False)
        assert again.returncode == 2 and "used already" in again.stderr
        assert (root / configure.LEAGUE_DROPIN).read_text(encoding="utf-8") == bridge  # unchanged

        # the bridge as written carries the league's plan (sent by `quizbox league plan`) into the box
        pub = broker_dir(base / "pub-a-broker")
        broker = MosquittoBroker(admin=APPLIANCE, box="pub-a", extra_config=(
            f"{KEEP_ROOT}persistence true\npersistence_location {pub / 'data'}/\n{bridge}"))
        try:
            transport = PahoTransport("127.0.0.1", broker.port, *APPLIANCE)
            BrokerAccounts("pub-a", Dynsec(transport), appliance_user=APPLIANCE[0]).setup(web_password="web-pw")
            transport.close()
            (base / "plan.json").write_text(json.dumps(PLAN), encoding="utf-8")
            sent = quizbox("league", "plan", str(base / "plan.json"), "--data", str(league.data))
            assert sent.returncode == 0, sent.stderr
            store = LeagueStore(Store(pub / "pub.db"))
            link = MemberLink(store, "pub-a", "127.0.0.1", broker.port, *APPLIANCE)
            try:
                wait_until(lambda: store.plan("week-1"), 30, "the plan over the bridge")
            finally:
                link.close()
        finally:
            broker.stop()
        bad = quizbox("league", "plan", str(base / "missing.json"), "--data", str(league.data))
        assert bad.returncode == 2 and "cannot read the plan" in bad.stderr
    finally:
        league.stop()
    assert league.proc.returncode == 0, league.output()


def test_the_league_commands_say_what_is_missing(base: Path) -> None:
    done = quizbox("league", "invite", "pub-a", "--data", str(base / "none"), "--url", "http://x")
    assert done.returncode == 2 and "start the league box once" in done.stderr
    assert not os.path.exists(base / "none" / "league.db")
    joined = quizbox("league", "join", "league example", "QBL1-xyz", "--root", str(base))
    assert joined.returncode == 2 and "is not a host name or address" in joined.stderr
    assert not (base / configure.LEAGUE_DROPIN).exists()
