"""deploy/install.sh: shellcheck-clean, and a dry run into a temporary root puts every file where it
belongs with the right permissions; a second run upgrades in place, keeps the data and the settings."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.deploy.tools import REPO, load_configure, need

INSTALL = Path(REPO, "deploy", "install.sh")
configure = load_configure()

BOX_FILES = {
    "etc/systemd/system/quizbox.service": (0o644, "systemd/quizbox.service"),
    "etc/systemd/system/quizbox-web.service": (0o644, "systemd/quizbox-web.service"),
    "etc/systemd/system/quizbox-limits.service": (0o644, "systemd/quizbox-limits.service"),
    "etc/systemd/system/quizbox-league-join.path": (0o644, "systemd/quizbox-league-join.path"),
    "etc/systemd/system/quizbox-league-join.service": (0o644, "systemd/quizbox-league-join.service"),
    "etc/systemd/system/mosquitto.service.d/quizbox-limits.conf": (
        0o644, "systemd/mosquitto.service.d/quizbox-limits.conf"),
    "etc/quizbox/limits.nft": (0o644, "deploy/limits.nft"),
    "etc/mosquitto/conf.d/quizbox.conf": (0o644, None),  # the drop-in with this system's plugin path
    "etc/quizbox/quizbox.toml": (0o640, None),
    "etc/quizbox/web.toml": (0o640, None),
    "var/lib/mosquitto/dynamic-security.json": (0o600, None),  # the broker's accounts, kept by mosquitto
}
BOX_DIRS = {"etc/quizbox": 0o755, "var/lib/quizbox": 0o750, "opt/quizbox": 0o755, "var/lib/mosquitto": 0o755,
            "etc/systemd/system/mosquitto.service.d": 0o755}


def install(root: Path, *args: str, fail: str = "") -> tuple[str, list[list[str]]]:
    """Run the installer into ``root``: its output and the commands it would have run, split into words
    (``fail``: a command that fails in the dry run)."""
    out = subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=120,
        env={**os.environ, "QUIZBOX_ROOT": str(root), "QUIZBOX_DRY_RUN_FAIL": fail},
    )
    assert out.returncode == (1 if fail else 0), out.stdout + out.stderr
    commands = [shlex.split(line.removeprefix("would run: ")) for line in out.stdout.splitlines()
                if line.startswith("would run: ")]
    return out.stdout, commands


def commands_end(commands: list[list[str]], tail: list[str]) -> bool:
    """Whether a command ends with ``tail`` (after runuser's prefix)."""
    return any(c[-len(tail):] == tail for c in commands)


def tree(root: Path) -> dict[str, int]:
    """Every file, folder and link under ``root`` with its permission bits (links: 0)."""
    found = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        found[rel] = 0 if path.is_symlink() else path.stat().st_mode & 0o7777
    return found


def test_shellcheck_finds_nothing() -> None:
    shellcheck = need("shellcheck", "shellcheck")
    out = subprocess.run([shellcheck, "--severity=style", str(INSTALL)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout


def test_every_file_lands_where_it_belongs(tmp_path: Path) -> None:
    install(tmp_path, "--box-id", "pub_one", "--box-name", "The Red Lion")
    found = tree(tmp_path)
    for rel, (mode, source) in BOX_FILES.items():
        assert found.get(rel) == mode, rel
        if source:
            assert (tmp_path / rel).read_bytes() == Path(REPO, source).read_bytes(), rel
    for rel, mode in BOX_DIRS.items():
        assert found.get(rel) == mode, rel
    assert os.readlink(tmp_path / "usr/local/bin/quizbox") == "/opt/quizbox/venv/bin/quizbox"
    assert "etc/systemd/system/quizbox-handset.service" not in found
    assert (tmp_path / "opt/quizbox/src/pyproject.toml").exists(), "the copy the service user builds from"
    unexpected = {rel for rel in found if not rel.startswith("opt/quizbox/src")} - set(BOX_FILES) - set(BOX_DIRS) - {
        "etc", "etc/systemd", "etc/systemd/system", "etc/mosquitto", "etc/mosquitto/conf.d", "opt", "usr",
        "usr/local", "usr/local/bin", "usr/local/bin/quizbox", "var", "var/lib"}
    assert not unexpected, f"files nobody asked for: {sorted(unexpected)}"
    config = configure.read_toml(tmp_path / "etc/quizbox/quizbox.toml")
    assert (config["box"]["id"], config["box"]["name"]) == ("pub_one", "The Red Lion")


def test_the_system_commands_are_printed_not_run(tmp_path: Path) -> None:
    out, commands = install(tmp_path)
    apt = next(c for c in commands if c[:2] == ["apt-get", "install"])
    for package in ("mosquitto", "nftables", "python3-venv", "libsdl2-dev", "libsdl2-ttf-dev", "fonts-dejavu-core"):
        assert package in apt, package
    assert ["useradd", "--system", "--user-group", "--home-dir", "/var/lib/quizbox", "--no-create-home",
            "--shell", "/usr/sbin/nologin", "--comment", "Quizbox", "quizbox"] in commands
    usermod = next(c for c in commands if c[0] == "usermod")
    assert set(usermod[3].split(",")) == {"gpio", "video", "input", "render", "audio"}
    venv = str(tmp_path / "opt/quizbox/venv")
    as_app = ["runuser", "-u", "quizbox", "--", "env", "HOME=/var/lib/quizbox",
              "PIP_CACHE_DIR=/var/lib/quizbox/.cache/pip"]
    assert [*as_app, "python3", "-m", "venv", "--system-site-packages", venv] in commands
    stage = str(tmp_path / "opt/quizbox/src")
    # built by the service user from a copy: the owner's checkout gets no root-owned build files
    assert [*as_app, f"{venv}/bin/pip", "install", "--upgrade", "--no-binary", "pygame", stage] in commands
    assert ["systemctl", "enable", "quizbox-limits.service", "mosquitto.service", "quizbox.service",
            "quizbox-web.service", "quizbox-league-join.path"] in commands
    restarts = [c[2] for c in commands if c[:2] == ["systemctl", "restart"]]
    assert restarts == ["quizbox-limits.service", "mosquitto.service", "quizbox.service", "quizbox-web.service",
                        "quizbox-league-join.path"]
    sync = next(i for i, c in enumerate(commands) if "--sync-accounts" in c)
    assert commands.index(["systemctl", "restart", "mosquitto.service"]) < sync < commands.index(
        ["systemctl", "restart", "quizbox.service"]), "accounts once the broker runs, before the box starts"
    assert ["chown", "mosquitto:mosquitto", f"{tmp_path}/var/lib/mosquitto/dynamic-security.json"] in commands
    assert commands.index(next(c for c in commands if c[0] == "useradd")) < commands.index(
        ["systemctl", "daemon-reload"])
    assert "http://quizbox.local/" in out


def test_a_second_run_upgrades_in_place_and_keeps_data_and_settings(tmp_path: Path) -> None:
    install(tmp_path, "--box-id", "pub")
    data = tmp_path / "var/lib/quizbox/quizbox.db"
    data.write_bytes(b"games and decks")
    settings = tmp_path / "etc/quizbox/quizbox.toml"
    edited = settings.read_text().replace('name = "Quizbox"', 'name = "The Lion"')
    settings.write_text(edited)
    unit = tmp_path / "etc/systemd/system/quizbox.service"
    unit.write_text("an old version\n")
    secrets = {name: (tmp_path / name).read_bytes() for name in ("var/lib/mosquitto/dynamic-security.json",)}
    before = tree(tmp_path)

    out, commands = install(tmp_path, "--box-id", "other")
    assert data.read_bytes() == b"games and decks"
    assert settings.read_text() == edited
    assert "kept     /etc/quizbox/quizbox.toml" in out
    assert unit.read_bytes() == Path(REPO, "systemd/quizbox.service").read_bytes(), "the unit is upgraded"
    assert {name: (tmp_path / name).read_bytes() for name in secrets} == secrets
    assert tree(tmp_path) == before
    assert configure.read_toml(tmp_path / "etc/quizbox/web.toml")["box"]["name"] == "The Lion"
    assert ["systemctl", "restart", "quizbox.service"] in commands


def test_a_unit_that_fails_is_reported_and_the_install_goes_on(tmp_path: Path) -> None:
    """Before: a failed unit aborted the installer before it printed the admin address (issue 17)."""
    out, commands = install(tmp_path, fail="systemctl restart quizbox.service")
    restarts = [c[2] for c in commands if c[:2] == ["systemctl", "restart"]]
    assert restarts == ["quizbox-limits.service", "mosquitto.service", "quizbox.service",
                        "quizbox-web.service", "quizbox-league-join.path"], "it went on"
    assert ("FAILED: Not running (systemd says failed): the quiz program (quizbox); no game can be played. "
            "See why: sudo journalctl -b -u quizbox.service") in out
    assert "http://quizbox.local/" in out


def test_connection_limits_that_fail_get_one_verdict_the_doctors_and_exit_1(tmp_path: Path) -> None:
    """Issue 38: a kernel that refuses limits.nft was a "warning" (limits off, goes on), then the same cause
    "FAILED: quizbox-limits.service is not running", exit 1, while the doctor said nothing of the limits.
    Now the one verdict is the doctor's sentence, and the exit status is 1."""
    from appliance.box import units

    out, _ = install(tmp_path, fail="systemctl restart quizbox-limits.service")
    verdicts = [line for line in out.splitlines() if "FAILED" in line or "warning" in line]
    assert verdicts == [f"install: FAILED: {units.down('quizbox-limits', 'failed')} "
                        f"{units.see_why('quizbox-limits')}"], out
    assert "one guest on the Wi-Fi can hold every connection" in verdicts[0]


def test_a_pi_zero_handset_runs_its_i2c_at_400_khz(tmp_path: Path) -> None:
    boot = tmp_path / "boot/firmware/config.txt"
    boot.parent.mkdir(parents=True)
    boot.write_text("dtparam=i2c_arm=on\n")
    install(tmp_path, "--handset")
    install(tmp_path, "--handset")  # a second run adds nothing
    assert boot.read_text() == "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n"


def test_a_pi_zero_handset_gets_only_the_handset(tmp_path: Path) -> None:
    _, commands = install(tmp_path, "--handset")
    found = tree(tmp_path)
    assert found["etc/systemd/system/quizbox-handset.service"] == 0o644
    assert found["etc/quizbox/handset.json"] == 0o640
    assert not [rel for rel in found if ("mosquitto" in rel or rel.endswith("quizbox.service"))
                and not rel.startswith("opt/quizbox/src/")]
    apt = next(c for c in commands if c[:2] == ["apt-get", "install"])
    assert "mosquitto" not in apt and "libsdl2-dev" not in apt
    assert commands_end(commands, [str(tmp_path / "opt/quizbox/venv/bin/pip"), "install", "--upgrade",
                                   f"{tmp_path}/opt/quizbox/src[pizero]"])
    assert ["systemctl", "enable", "quizbox-handset.service"] in commands
    assert ["raspi-config", "nonint", "do_i2c", "0"] in commands
    assert ["raspi-config", "nonint", "do_spi", "0"] in commands
    settings = tmp_path / "etc/quizbox/handset.json"
    settings.write_text('{"box": "lion", "name": "Table 3"}\n')
    install(tmp_path, "--handset")
    assert settings.read_text() == '{"box": "lion", "name": "Table 3"}\n', "the handset's settings are kept"


@pytest.mark.parametrize(("args", "message"), [(["--colour", "red"], "unknown option --colour"),
                                               (["--box-id", "red lion"], "box id 'red lion' must be")])
def test_bad_arguments_are_refused_with_a_reason(tmp_path: Path, args: list[str], message: str) -> None:
    out = subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "QUIZBOX_ROOT": str(tmp_path)})
    assert out.returncode != 0
    assert message in out.stderr
