"""The systemd units: `systemd-analyze verify` on them as installed (a dry-run install into a temporary
root holding this machine's own system units), and the promises of issue 9 read from their lines."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.deploy.tools import REPO, load_configure, need

UNITS = ("quizbox.service", "quizbox-web.service", "quizbox-handset.service", "quizbox-limits.service",
         "quizbox-league-join.path", "quizbox-league-join.service")
configure = load_configure()


def unit(name: str) -> dict[str, dict[str, str]]:
    """A unit file's sections; a key given more than once (After=, PathChanged=) has its values joined
    by spaces, as systemd adds them up."""
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for raw in Path(REPO, "systemd", name).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current[key] = f"{current[key]} {value}" if key in current else value
    return sections


def installed_tree(root: Path) -> None:
    """A dry-run install of the box and the handset under ``root``, plus what apt and pip would have put
    there (stand-ins for the executables) and this machine's own system units for the targets."""
    for args in ([], ["--handset"]):
        out = subprocess.run(["bash", str(Path(REPO, "deploy", "install.sh")), "--root", str(root), *args],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
    for exe in ("opt/quizbox/venv/bin/quizbox", "opt/quizbox/venv/bin/python", "bin/systemctl", "usr/sbin/nft"):
        path = root / exe
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("#!/bin/sh\n")
        path.chmod(0o755)
    system = Path("/usr/lib/systemd/system")
    if not (system / "multi-user.target").exists():
        system = Path("/lib/systemd/system")
    shutil.copytree(system, root / "usr/lib/systemd/system", symlinks=True)


def test_systemd_analyze_verify_finds_nothing(tmp_path: Path) -> None:
    analyze = need("systemd-analyze", "systemd")
    installed_tree(tmp_path)
    out = subprocess.run([analyze, "verify", f"--root={tmp_path}", *(f"/etc/systemd/system/{u}" for u in UNITS)],
                         capture_output=True, text=True, timeout=120)
    # verify exits 0 on unknown keys and bad values too, with a warning: any word from it is a failure
    assert (out.returncode, out.stdout + out.stderr) == (0, "")


def test_verify_does_catch_a_broken_unit(tmp_path: Path) -> None:
    analyze = need("systemd-analyze", "systemd")
    installed_tree(tmp_path)
    broken = tmp_path / "etc/systemd/system/quizbox.service"
    broken.write_text(broken.read_text().replace("WatchdogSec=30", "WatchdogSeconds=30"))
    out = subprocess.run([analyze, "verify", f"--root={tmp_path}", "/etc/systemd/system/quizbox.service"],
                         capture_output=True, text=True, timeout=120)
    assert "Unknown key 'WatchdogSeconds'" in out.stdout + out.stderr


def test_the_appliance_is_a_notify_service_with_a_watchdog_restarted_on_failure() -> None:
    service = unit("quizbox.service")["Service"]
    assert service["Type"] == "notify"
    assert int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "on-failure"
    assert service["ExecStart"] == "/opt/quizbox/venv/bin/quizbox run --config /etc/quizbox/quizbox.toml"
    assert configure.CONFIG == "etc/quizbox/quizbox.toml"
    assert service["StateDirectory"] == "quizbox"


def test_the_appliance_runs_as_its_own_user_with_the_screen_gpio_and_input() -> None:
    service = unit("quizbox.service")["Service"]
    assert (service["User"], service["Group"]) == ("quizbox", "quizbox")
    assert {"gpio", "video", "input", "render"} <= set(service["SupplementaryGroups"].split())
    # the board owns tty1: no login prompt under it, key presses go to the quiz only
    assert service["TTYPath"] == "/dev/tty1"
    assert "getty@tty1.service" in unit("quizbox.service")["Unit"]["Conflicts"].split()


def test_every_service_starts_on_power_up_after_the_network_and_the_broker() -> None:
    for name in ("quizbox.service", "quizbox-web.service", "quizbox-handset.service"):
        parsed = unit(name)
        assert parsed["Install"]["WantedBy"] == "multi-user.target", name
        assert "network-online.target" in parsed["Unit"]["After"].split(), name
        assert parsed["Service"]["User"] == "quizbox", name
        assert parsed["Service"]["Restart"] in ("on-failure", "always"), name
    for name in ("quizbox.service", "quizbox-web.service"):
        assert "mosquitto.service" in unit(name)["Unit"]["Wants"].split(), name


def test_the_admin_page_runs_with_its_own_config_and_may_take_port_80() -> None:
    service = unit("quizbox-web.service")["Service"]
    assert service["ExecStart"] == "/opt/quizbox/venv/bin/quizbox web --config /etc/quizbox/web.toml"
    assert configure.WEB_CONFIG == "etc/quizbox/web.toml"
    assert service["AmbientCapabilities"] == "CAP_NET_BIND_SERVICE"


def test_the_handset_unit_runs_the_pi_zero_firmware() -> None:
    service = unit("quizbox-handset.service")["Service"]
    assert service["ExecStart"] == ("/opt/quizbox/venv/bin/python -m firmware.pizero "
                                    "--config /etc/quizbox/handset.json --state /var/lib/quizbox-handset")
    assert configure.HANDSET_CONFIG == "etc/quizbox/handset.json"
    assert service["StateDirectory"] == "quizbox-handset", "the only place the handset may write"
    assert service["Restart"] == "always"
    assert {"gpio", "spi", "i2c"} <= set(service["SupplementaryGroups"].split())


def test_no_unit_reloads_the_broker_any_more() -> None:
    """The broker's plugin changes accounts while it runs: no password file to watch, no reload."""
    assert not list(Path(REPO, "systemd").glob("quizbox-mosquitto-reload.*"))


def test_a_league_join_asked_on_the_admin_page_is_done_by_root_with_the_installers_code() -> None:
    """The admin page (user quizbox, read-only system) writes the request into its own state folder; the
    path unit starts the root oneshot, which runs configure.py --join-league-request on it."""
    watch = unit("quizbox-league-join.path")
    assert watch["Path"]["PathExists"] == "/" + configure.LEAGUE_REQUEST
    assert watch["Path"]["Unit"] == "quizbox-league-join.service"
    assert watch["Install"]["WantedBy"] == "multi-user.target"
    web = unit("quizbox-web.service")["Service"]
    assert configure.LEAGUE_REQUEST.startswith(f"var/lib/{web['StateDirectory']}/"), "the page may write it"
    service = unit("quizbox-league-join.service")["Service"]
    assert service["Type"] == "oneshot" and "User" not in service
    assert service["ExecStart"] == ("/opt/quizbox/venv/bin/python -B /opt/quizbox/src/deploy/configure.py "
                                    "--join-league-request")
    assert f"var/lib/{service['StateDirectory']}/result.json" == configure.LEAGUE_RESULT
    writable = service["ReadWritePaths"].split()
    for target in (configure.LEAGUE_DROPIN, configure.LEAGUE_CA, configure.LEAGUE_REQUEST):
        assert any(("/" + target).startswith(folder + "/") for folder in writable), target
