"""The box's edge bounds what one guest on the pub's Wi-Fi can hold open (docs/security.md).

From the security audit: mosquitto cannot bound connections per address and ran at systemd's 1024 open
files, so 1016 logins with the public pairing account from one address left it no file for anyone else.
The installer now gives mosquitto a higher open-files limit (a drop-in), a ``max_connections`` below it,
and an nftables table of its own capping connections per source address to the broker and the admin
page, loaded at every boot by quizbox-limits.service. The audit's live flood cannot pass on a machine
without those rules loaded, so these check what the installer writes and enables, that the kernel takes
the ruleset (``nft -c``), and that the numbers agree with each other.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from appliance.edge.pairing_broker import MAX_CONNECTIONS
from firmware.core.pairing import PAIRING_PORT_OFFSET
from tests.deploy.test_install import install
from tests.deploy.test_units import unit
from tests.deploy.tools import REPO, need
from web.settings import DEFAULTS

RULESET = Path(REPO, "deploy", "limits.nft")
BROKER_CONF = Path(REPO, "systemd", "mosquitto-quizbox.conf")
DROP_IN = Path(REPO, "systemd", "mosquitto.service.d", "quizbox-limits.conf")
HANDSETS = 32  # the handsets the broker settings are measured with (a game seats at most 12)


def nft_check(path: Path) -> subprocess.CompletedProcess[str]:
    """``nft -c -f path``: the kernel checks the ruleset and applies nothing. It needs CAP_NET_ADMIN."""
    nft = need("nft", "nftables")
    if os.geteuid() != 0 and os.environ.get("CI") != "true":
        pytest.skip("nft -c asks the kernel, which needs root (CAP_NET_ADMIN); run as root to check the ruleset")
    return subprocess.run([nft, "-c", "-f", str(path)], capture_output=True, text=True, timeout=30)


def per_address_caps(text: str) -> dict[tuple[int, str], int]:
    """(port, address family) -> the most connections one source address may hold, from the ruleset."""
    found = re.findall(r"tcp dport (\d+) ct state new add @\w+ \{ (ip6?) saddr ct count over (\d+) \}"
                       r" counter reject with tcp reset", text)
    return {(int(port), family): int(count) for port, family, count in found}


def setting(text: str, key: str) -> int:
    values = re.findall(rf"^{key}[ =](\d+)\s*$", text, re.MULTILINE)
    assert len(values) == 1, f"{key} set {len(values)} times"
    return int(values[0])


def test_the_installer_writes_the_ruleset_and_drop_in_and_loads_them_before_the_broker(tmp_path: Path) -> None:
    _out, commands = install(tmp_path)
    assert (tmp_path / "etc/quizbox/limits.nft").read_bytes() == RULESET.read_bytes()
    assert (tmp_path / "etc/systemd/system/mosquitto.service.d/quizbox-limits.conf").read_bytes() == \
        DROP_IN.read_bytes()
    assert (tmp_path / "etc/systemd/system/quizbox-limits.service").read_bytes() == \
        Path(REPO, "systemd/quizbox-limits.service").read_bytes()
    apt = next(c for c in commands if c[:2] == ["apt-get", "install"])
    assert "nftables" in apt
    enable = next(c for c in commands if c[:2] == ["systemctl", "enable"])
    assert "quizbox-limits.service" in enable, "the limits would not come back after a reboot"
    restarts = [c[2] for c in commands if c[:2] == ["systemctl", "restart"]]
    assert restarts.index("quizbox-limits.service") < restarts.index("mosquitto.service")
    reload = commands.index(["systemctl", "daemon-reload"])
    assert reload < commands.index(["systemctl", "restart", "mosquitto.service"]), "the drop-in is read"


def test_the_limits_unit_loads_the_installed_ruleset_and_survives_the_owners_nftables() -> None:
    limits = unit("quizbox-limits.service")
    assert limits["Service"]["Type"] == "oneshot" and limits["Service"]["RemainAfterExit"] == "yes"
    assert limits["Service"]["ExecStart"] == "/usr/sbin/nft -f /etc/quizbox/limits.nft"
    assert limits["Service"]["ExecReload"] == limits["Service"]["ExecStart"]
    # nftables.service flushes the whole ruleset when it starts: ours comes after it, and again with it
    assert "nftables.service" in limits["Unit"]["After"].split()
    assert limits["Unit"]["PartOf"] == "nftables.service"
    assert limits["Unit"]["ReloadPropagatedFrom"] == "nftables.service"
    assert {"mosquitto.service", "quizbox-web.service"} <= set(limits["Unit"]["Before"].split())
    assert limits["Service"]["ExecStop"] == "-/usr/sbin/nft delete table inet quizbox"
    assert limits["Install"]["WantedBy"] == "multi-user.target"


def test_the_ruleset_is_its_own_table_and_caps_the_broker_and_the_admin_page_per_address() -> None:
    text = RULESET.read_text()
    tables = re.findall(r"^table (\w+ \w+)", text, re.MULTILINE)
    assert set(tables) == {"inet quizbox"}, "it may touch no table but its own"
    assert "flush ruleset" not in text and "policy drop" not in text
    assert re.search(r"^table inet quizbox\ndelete table inet quizbox\n", text, re.MULTILINE), (
        "loading it again (a re-run, a reload) must replace the table, not add rules twice")
    caps = per_address_caps(text)
    assert caps == {(1883, "ip"): 64, (1883, "ip6"): 64, (1884, "ip"): 16, (1884, "ip6"): 16, (80, "ip"): 32,
                    (80, "ip6"): 32}
    # issue 38: the pairing broker (the game's port + 1) has its own, smaller cap: a handset asks on one
    # short connection at a time, and a guest's flood of logins is refused before the pairing broker
    assert 1883 + PAIRING_PORT_OFFSET == 1884
    assert caps[(1884, "ip")] < MAX_CONNECTIONS and caps[(1884, "ip")] < caps[(1883, "ip")]
    assert caps[(1883, "ip")] >= 2 * HANDSETS, "every handset behind one NAT, each with a stale connection"
    assert caps[(80, "ip")] >= int(DEFAULTS["CONNECTIONS_PER_ADDRESS"]), (
        "the web server's own cap (which logs) should act before the firewall's")
    # the quiz program and the admin page's phone links reach the broker on loopback, all from 127.0.0.1
    assert text.index('iif "lo" return') < text.index("tcp dport")


def test_the_kernel_takes_the_ruleset() -> None:
    out = nft_check(RULESET)
    assert out.returncode == 0, out.stderr


def test_the_kernel_check_does_catch_a_ruleset_it_cannot_load(tmp_path: Path) -> None:
    # the nftables wiki's caveat: a ct count set with a timeout is refused by the kernel, not the parser
    broken = tmp_path / "limits.nft"
    broken.write_text(RULESET.read_text().replace("flags dynamic", "flags dynamic, timeout"))
    out = nft_check(broken)
    assert out.returncode != 0 and "Operation not supported" in out.stderr, out.stderr


def test_the_brokers_max_connections_is_a_backstop_below_its_open_files() -> None:
    limit_nofile = setting(DROP_IN.read_text(), "LimitNOFILE")
    conf = BROKER_CONF.read_text()
    max_connections = setting(conf, "max_connections")
    assert conf.index("listener 1883") < conf.index("max_connections"), "a listener setting, after its listener"
    assert max_connections <= limit_nofile // 2, (
        f"max_connections {max_connections} leaves the broker too few of its {limit_nofile} files")
    assert max_connections > 2 * per_address_caps(RULESET.read_text())[(1883, "ip")], (
        "one address at its firewall cap must not reach the broker's total")
    assert setting(DROP_IN.read_text(), "LimitNOFILE") > 1024, "systemd's default soft limit was the bug"


ENFORCE = r"""
set -eu
# this shell: the box's own private network; a sleeper: a guest's, joined to it by a veth pair
unshare --net sleep 30 & guest=$!
trap 'kill $guest' EXIT
sleep 0.3
ip link set lo up
ip link add qbox type veth peer name qguest netns "$guest"
ip addr add 10.77.0.1/24 dev qbox
ip link set qbox up
nsenter -t "$guest" -n sh -c 'ip link set lo up && ip addr add 10.77.0.2/24 dev qguest && ip link set qguest up'
nft -f "$1"
"$2" -c '
import socket, subprocess, sys
broker = socket.socket()
broker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
broker.bind(("0.0.0.0", 1883))
broker.listen(1024)
def held(source_ns, host, tries):
    code = ("import socket\nheld = []\nfor _ in range(%d):\n"
            "    try: held.append(socket.create_connection((%r, 1883), timeout=2))\n"
            "    except OSError: pass\nprint(len(held))\n" % (tries, host))
    cmd = [sys.executable, "-c", code]
    if source_ns:
        cmd = ["nsenter", "-t", source_ns, "-n", *cmd]
    return int(subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=60).stdout)
print("guest", held(sys.argv[1], "10.77.0.1", 80))
print("loopback", held("", "127.0.0.1", 80))
' "$guest"
"""


def test_in_a_private_network_one_address_gets_64_broker_connections_and_loopback_is_not_counted(
        tmp_path: Path) -> None:
    """The ruleset really loaded (in a throw-away network namespace, never this machine's own)."""
    nft = need("nft", "nftables")
    for tool, package in (("unshare", "util-linux"), ("nsenter", "util-linux"), ("ip", "iproute2")):
        need(tool, package)
    if os.geteuid() != 0 and os.environ.get("CI") != "true":
        pytest.skip("a private network with a veth pair and nftables needs root")
    script = tmp_path / "enforce.sh"
    script.write_text(ENFORCE)
    out = subprocess.run(["unshare", "--net", "bash", str(script), str(RULESET), sys.executable],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PATH": f"{Path(nft).parent}:{os.environ.get('PATH', '')}"})
    assert out.returncode == 0, out.stdout + out.stderr
    assert "guest 64\n" in out.stdout, out.stdout  # the 65th to 80th were refused with a reset
    assert "loopback 80\n" in out.stdout, out.stdout  # the box's own programs are never counted
