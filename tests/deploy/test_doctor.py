"""quizbox doctor: every check's problem message and fix, staged with injected probes, and the real
probes against the box's own broker (mosquitto with the Quizbox drop-in and accounts)."""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from appliance.box import doctor, units
from appliance.edge.accounts import client_id
from appliance.edge.broker import free_port
from appliance.edge.mqtt import Connection
from appliance.errors import ConfigError
from appliance.infra.config import Config, parse_config
from firmware import protocol
from tests.deploy.boxbroker import BOX, Box, running_box
from tests.deploy.tools import REPO

JUNE_2025 = 1_750_000_000.0


def pi_config(data_dir: Path, **changes: dict[str, Any]) -> Config:
    """The settings the installer writes on a Pi (GPIO switched on), with ``changes`` per section."""
    sections: dict[str, dict[str, Any]] = {
        "box": {"id": BOX, "data_dir": str(data_dir)},
        "broker": {"host": "127.0.0.1", "port": 1883, "username": "appliance", "password": "secret"},
        "board": {"display": "kmsdrm"},
        "gpio": {"enabled": True},
    }
    for name, values in changes.items():
        sections.setdefault(name, {}).update(values)
    text = "".join(f"[{name}]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items())
                   for name, values in sections.items())
    return parse_config(text, "/etc/quizbox/quizbox.toml")


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return pi_config(tmp_path)


def healthy(**changes: Any) -> doctor.Probes:
    """Probes of a box where everything is as it should be; ``changes`` break one thing."""
    statuses = {
        protocol.appliance_status_topic(BOX): b"online",
        protocol.status_topic(BOX, "h1"): b"online",
        protocol.status_topic(BOX, "h2"): b"offline",
    }
    probes = doctor.Probes(
        login=lambda conn, timeout: ("ok", "") if conn.username else ("refused", "Not authorized"),
        retained=lambda conn, topics, seconds: dict(statuses),
        sdl_drivers=lambda: ["x11", "wayland", "KMSDRM", "offscreen", "dummy"],
        dri_devices=lambda: ["/dev/dri/card0", "/dev/dri/card1"],
        connectors=lambda: {"HDMI-A-1": "connected", "HDMI-A-2": "disconnected"},
        unit_state=lambda unit: "inactive" if unit == "display-manager" else "active",
        user_groups=lambda user: {"quizbox", "gpio", "video", "render", "input", "audio"},
        gpio_chips=lambda: ["/dev/gpiochip0"],
        free_bytes=lambda path: 12_000_000_000,
        db_check=lambda path: "ok",
        now=lambda: JUNE_2025,
        ntp_synced=lambda: True,
        timeout=1.0,
        listen_seconds=0.1,
    )
    return replace(probes, **changes)


def test_a_healthy_box_passes_every_check(config: Config) -> None:
    findings = doctor.run_checks(config, healthy())
    assert [name for name, _ in findings] == [
        "Services", "Broker", "Handsets", "Display", "GPIO", "Disk", "Database", "Clock", "Power cuts",
        "Optional parts"]
    assert all(f.ok for _, f in findings), findings
    notes = dict((name, f.note) for name, f in findings)
    assert notes["Handsets"] == "1 connected: h1; 1 more seen before but off now"
    assert notes["Display"] == "a screen is connected on HDMI-A-1"
    assert notes["GPIO"] == "buttons on GPIO 17 (next) and 27 (pause), lamp on GPIO 22"
    assert notes["Disk"].startswith("12.0 GB free")


def test_main_prints_plain_words_and_exits_0_when_all_is_well(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "quizbox.toml"
    path.write_text(f'[box]\nid = "{BOX}"\ndata_dir = "{tmp_path}"\n[broker]\nhost = "127.0.0.1"\n'
                    'username = "appliance"\npassword = "x"\n[board]\ndisplay = "headless"\n')
    assert doctor.main(argparse.Namespace(config=str(path)), healthy()) == 0
    out = capsys.readouterr().out
    assert f"  ok       Settings: {path}, box '{BOX}'" in out
    assert "PROBLEM" not in out
    assert out.rstrip().endswith("All is well: ready for the quiz.")


def test_main_lists_each_problem_with_its_fix_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "quizbox.toml"
    path.write_text(f'[box]\nid = "{BOX}"\ndata_dir = "{tmp_path}"\n[broker]\nhost = "127.0.0.1"\n'
                    'username = "appliance"\npassword = "x"\n')
    probes = healthy(connectors=lambda: {"HDMI-A-1": "disconnected"}, now=lambda: 86_400.0)
    assert doctor.main(argparse.Namespace(config=str(path)), probes) == 1
    out = capsys.readouterr().out
    assert "  PROBLEM  Display: No TV or monitor is found on the HDMI ports.\n           How to fix: Plug" in out
    assert "  PROBLEM  Clock: The clock says 1970-01-0" in out
    assert out.rstrip().endswith("2 problem(s) to fix.")


# -- settings --------------------------------------------------------------------------------------


def test_unreadable_settings_say_run_it_with_sudo(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    def denied(path: object) -> Config:
        raise ConfigError("cannot read config file /etc/quizbox/quizbox.toml: [Errno 13] Permission denied")

    monkeypatch.setattr(doctor, "load_config", denied)
    assert doctor.main(argparse.Namespace(config=None), healthy()) == 1
    out = capsys.readouterr().out
    assert "How to fix: Run the doctor as root: sudo quizbox doctor" in out
    assert "Broker" not in out, "nothing else is checked without the settings"


def test_broken_settings_name_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "quizbox.toml"
    path.write_text("[web]\nport = 0\n")
    assert doctor.main(argparse.Namespace(config=str(path)), healthy()) == 1
    out = capsys.readouterr().out
    assert "The settings are not right:" in out and "web.port must be a port 1-65535, got 0" in out
    assert "Correct the file where the message says" in out


# -- services ----------------------------------------------------------------------------------------


def services(config: Config, **down: str) -> doctor.Finding:
    """The Services check on a box whose units are active but those in ``down`` (unit -> state)."""
    states = {unit: down.get(unit.replace("-", "_"), "active") for unit, _ in doctor.UNITS}
    finding = doctor.check_services(config, healthy(unit_state=lambda u: states[u]))
    assert not finding.ok
    return finding


def test_a_stopped_service_is_named_with_the_command_that_restarts_it(config: Config) -> None:
    finding = services(config, quizbox="failed", quizbox_web="inactive")
    assert finding.wrong == ("Not running (systemd says failed): the quiz program (quizbox); no game can be "
                             "played. Not running (systemd says inactive): the admin page (quizbox-web); the "
                             "quizmaster has no admin page and phones cannot play.")
    assert finding.fix.startswith("sudo systemctl reset-failed quizbox; sudo systemctl restart quizbox.")
    assert "journalctl -u quizbox -n 50 -p warning" in finding.fix
    assert finding.fix.endswith("(then the same for the others)")


def test_a_box_whose_connection_limits_failed_is_not_well_and_says_what_that_means(config: Config) -> None:
    """Issue 38: the doctor said nothing of quizbox-limits, so a box without its per-address connection
    limits passed; the installer called the same cause a warning, then FAILED. Now both say one sentence."""
    finding = services(config, quizbox_limits="failed")
    assert finding.wrong == ("Not running (systemd says failed): the per-address connection limits "
                             "(quizbox-limits); the game plays, but one guest on the Wi-Fi can hold every "
                             "connection to the broker and the admin page (docs/security.md).")
    assert finding.fix.startswith("sudo systemctl reset-failed quizbox-limits; sudo systemctl restart quizbox-limits.")


def test_a_box_whose_league_join_watch_is_down_is_not_well(config: Config) -> None:
    """Without quizbox-league-join.path the admin page's Join a league form waits for ever (docs/league.md)."""
    states = {unit: "inactive" if unit == "quizbox-league-join.path" else "active" for unit, _ in doctor.UNITS}
    finding = doctor.check_services(config, healthy(unit_state=lambda u: states[u]))
    assert finding.wrong == ("Not running (systemd says inactive): the admin page's league join "
                             "(quizbox-league-join.path); the admin page's \"Join a league\" form waits for ever; "
                             "sudo quizbox league join still works (docs/league.md).")
    assert finding.fix.startswith("sudo systemctl reset-failed quizbox-league-join.path; "
                                  "sudo systemctl restart quizbox-league-join.path.")
    assert units.see_why("quizbox-league-join.path") == (
        "See why: sudo journalctl -b -u quizbox-league-join.path | tail -n 30")
    assert units.see_why("quizbox") == "See why: sudo journalctl -b -u quizbox.service | tail -n 30"


def test_the_doctor_checks_every_unit_the_installer_installs() -> None:
    systemd = Path(REPO, "systemd")
    paths = {p.name for p in systemd.glob("quizbox*.path")}
    installed = {p.name for p in systemd.glob("quizbox*.service")} | paths
    installed.discard("quizbox-handset.service")  # a Pi Zero handset's, not a box's
    # a oneshot started by a path unit is idle between runs: the doctor checks its path unit
    installed -= {name.removesuffix(".path") + ".service" for name in paths}
    checked = {unit if "." in unit else f"{unit}.service" for unit, _ in doctor.UNITS}
    assert installed | {"mosquitto.service"} == checked
    # and the installer installs and enables every one of them on a box
    script = Path(REPO, "deploy", "install.sh").read_text(encoding="utf-8")
    units = script.split("# -- units, broker settings, config", 1)[1]
    box = units.split('if [ "$MODE" = box ]; then', 1)[1].split("\nelse\n", 1)[0]
    enabled = box.split("enable=(", 1)[1].split(")", 1)[0].split()
    assert set(enabled) == checked
    for name in {p.name for p in systemd.glob("quizbox*")} - {"quizbox-handset.service", "quizbox.service.d"}:
        assert name in box, f"install.sh does not install systemd/{name}"


def test_without_systemd_there_are_no_services_to_check(config: Config) -> None:
    finding = doctor.check_services(config, healthy(unit_state=lambda u: "unknown"))
    assert finding.ok and "systemd is not running here" in finding.note


# -- broker ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "wrong", "fix"),
    [
        ("no-listener", "Nothing answers at 127.0.0.1:1883: the broker (mosquitto) is not running.",
         "sudo systemctl restart mosquitto"),
        ("unknown-host", "The broker's address '127.0.0.1' cannot be found", 'on the box itself it is "127.0.0.1"'),
        ("timeout", "did not answer within 1 seconds", "nothing blocks port 1883"),
        ("refused", "refused the quiz program's user name or password (user 'appliance')",
         "dynsec setClientPassword appliance"),
        ("tls", "The secure connection to the broker failed: certificate verify failed.", "Check ca_file"),
        ("error", "Logging in to the broker at 127.0.0.1:1883 failed: certificate verify failed.",
         "journalctl -u mosquitto"),
    ],
)
def test_each_broker_failure_says_what_and_how(config: Config, outcome: str, wrong: str, fix: str) -> None:
    finding = doctor.check_broker(config, healthy(login=lambda conn, t: (outcome, "certificate verify failed")))
    assert not finding.ok
    assert wrong in finding.wrong
    assert fix in finding.fix


def test_a_broker_that_lets_strangers_in_is_a_problem(config: Config) -> None:
    finding = doctor.check_broker(config, healthy(login=lambda conn, t: ("ok", "")))
    assert not finding.ok
    assert "lets anyone connect without a password" in finding.wrong
    assert "/etc/mosquitto/conf.d/quizbox.conf" in finding.fix


def test_no_broker_host_means_a_private_broker_handsets_cannot_reach(tmp_path: Path) -> None:
    config = pi_config(tmp_path)
    config = replace(config, broker=replace(config.broker, host=""))
    finding = doctor.check_broker(config, healthy())
    assert "handsets on the network cannot reach" in finding.wrong
    assert 'Set host = "127.0.0.1" under [broker] in /etc/quizbox/quizbox.toml' in finding.fix


# -- handsets ----------------------------------------------------------------------------------------


def test_handsets_wait_for_the_broker(config: Config) -> None:
    finding = doctor.check_handsets(config, healthy(), broker_ok=False)
    assert (finding.ok, finding.fix) == (False, "Fix the broker problem above first.")


@pytest.mark.parametrize("status", [None, b"offline"])
def test_a_quiz_program_not_on_the_broker_is_named(config: Config, status: bytes | None) -> None:
    seen = {} if status is None else {protocol.appliance_status_topic(BOX): status}
    finding = doctor.check_handsets(config, healthy(retained=lambda c, t, s: seen), broker_ok=True)
    assert not finding.ok
    assert finding.wrong.startswith(f"The quiz program for box '{BOX}' is not connected to the broker")
    assert "sudo systemctl restart quizbox" in finding.fix


def test_no_handset_online_lists_the_ones_seen_before(config: Config) -> None:
    seen = {protocol.appliance_status_topic(BOX): b"online", protocol.status_topic(BOX, "h2"): b"offline",
            protocol.status_topic(BOX, "h9"): b"offline"}
    finding = doctor.check_handsets(config, healthy(retained=lambda c, t, s: seen), broker_ok=True)
    assert finding.wrong == "No handset is connected to the box right now (2 seen before: h2, h9)."
    assert "Switch the handsets on" in finding.fix and "docs/deploy.md" in finding.fix


def test_a_failed_listen_is_a_problem_not_a_crash(config: Config) -> None:
    def broken(c: Connection, t: object, s: float) -> dict[str, bytes]:
        raise ConnectionResetError("reset by peer")

    finding = doctor.check_handsets(config, healthy(retained=broken), broker_ok=True)
    assert finding.wrong == "Listening for the handsets failed: reset by peer."


# -- display -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "wrong", "fix"),
    [
        ({"sdl_drivers": lambda: ["x11", "wayland", "offscreen", "dummy", "evdev"]},
         "its SDL library has no kmsdrm driver (only x11, wayland, offscreen, dummy, evdev)",
         "builds pygame against Raspberry Pi OS's own SDL"),
        ({"dri_devices": lambda: []}, "no graphics device (/dev/dri/card*)", "dtoverlay=vc4-kms-v3d"),
        ({"connectors": lambda: {"HDMI-A-1": "disconnected", "Composite-1": "connected"}},
         "No TV or monitor is found on the HDMI ports.", "sudo systemctl restart quizbox"),
        ({"unit_state": lambda u: "active"}, "A desktop is running and holds the screen",
         "sudo systemctl set-default multi-user.target"),
        ({"user_groups": lambda u: None}, "There is no 'quizbox' user", "sudo ./deploy/install.sh"),
        ({"user_groups": lambda u: {"quizbox", "video"}}, "is not in the render group",
         "sudo usermod -aG video,render quizbox"),
    ],
)
def test_each_display_problem_says_what_and_how(config: Config, changes: dict[str, Any], wrong: str,
                                                fix: str) -> None:
    finding = doctor.check_display(config, healthy(**changes))
    assert not finding.ok
    assert wrong in finding.wrong
    assert fix in finding.fix


def test_no_pygame_is_a_problem(config: Config) -> None:
    def missing() -> list[str]:
        raise ImportError("No module named 'pygame'")

    finding = doctor.check_display(config, healthy(sdl_drivers=missing))
    assert finding.wrong == "pygame, which draws the board, cannot be loaded: No module named 'pygame'."


@pytest.mark.parametrize("mode", ["headless", "window"])
def test_a_board_without_the_tv_is_not_checked_for_one(tmp_path: Path, mode: str) -> None:
    config = pi_config(tmp_path, board={"display": mode})
    finding = doctor.check_display(config, healthy(dri_devices=lambda: [], connectors=lambda: {}))
    assert finding.ok and f"display = {mode}" in finding.note


# -- gpio --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gpio", "changes", "wrong"),
    [
        ({"led_pin": 40}, {}, "[gpio] led_pin is 40, but the Pi's header has GPIO 2 to 27."),
        ({"pause_pin": 17}, {}, "[gpio] next_pin and pause_pin are both GPIO 17"),
        ({}, {"gpio_chips": lambda: []}, "This machine has no GPIO chip (/dev/gpiochip*)"),
        ({}, {"user_groups": lambda u: {"quizbox", "video"}}, "is not in the gpio group"),
    ],
)
def test_each_gpio_problem_says_what(tmp_path: Path, gpio: dict[str, Any], changes: dict[str, Any],
                                     wrong: str) -> None:
    finding = doctor.check_gpio(pi_config(tmp_path, gpio=gpio), healthy(**changes))
    assert not finding.ok
    assert wrong in finding.wrong
    assert "/etc/quizbox/quizbox.toml" in finding.fix or "usermod -aG gpio quizbox" in finding.fix


def test_gpio_switched_off_needs_no_chip(tmp_path: Path) -> None:
    finding = doctor.check_gpio(pi_config(tmp_path, gpio={"enabled": False}), healthy(gpio_chips=lambda: []))
    assert finding.ok and finding.note == "no buttons wired ([gpio] enabled = false)"


# -- disk, database, clock -----------------------------------------------------------------------------


def test_a_nearly_full_card_is_a_problem(config: Config) -> None:
    finding = doctor.check_disk(config, healthy(free_bytes=lambda p: 150_000_000))
    assert finding.wrong.startswith("Only 150 MB free on the SD card")
    assert "journalctl --vacuum-size" in finding.fix


def test_a_missing_data_folder_is_a_problem(tmp_path: Path) -> None:
    finding = doctor.check_disk(pi_config(tmp_path / "gone"), healthy())
    assert finding.wrong == f"The data folder {tmp_path / 'gone'} does not exist."


def test_a_damaged_database_names_the_file_and_keeps_a_copy_in_the_fix(config: Config, tmp_path: Path) -> None:
    (tmp_path / "quizbox.db").write_bytes(b"")
    finding = doctor.check_database(config, healthy(db_check=lambda p: "database disk image is malformed"))
    assert finding.wrong == f"The database {tmp_path / 'quizbox.db'} cannot be used: database disk image is malformed."
    assert f"sudo cp {tmp_path / 'quizbox.db'} {tmp_path / 'quizbox.db'}.broken" in finding.fix


def test_no_database_yet_is_fine(config: Config) -> None:
    finding = doctor.check_database(config, healthy(db_check=lambda p: pytest.fail("nothing to check")))
    assert finding.ok and "no database" in finding.note


def test_the_real_database_check_tells_good_from_damaged(tmp_path: Path) -> None:
    good = tmp_path / "good.db"
    with sqlite3.connect(good) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not a database at all" * 200)
    assert doctor.sqlite_check(good) == "ok"
    assert doctor.sqlite_check(bad) == "file is not a database"


def test_a_clock_in_1970_is_a_problem(config: Config) -> None:
    finding = doctor.check_clock(config, healthy(now=lambda: 3_600.0 * 30))
    assert "The clock says 1970-01-0" in finding.wrong  # whatever the time zone
    assert "sudo date -s" in finding.fix


def test_an_unsynchronised_but_plausible_clock_is_fine_with_a_note(config: Config) -> None:
    finding = doctor.check_clock(config, healthy(ntp_synced=lambda: False))
    assert finding.ok and finding.note.endswith("not confirmed by a time server (fine for a quiz)")


# -- the real probes, against the box's own broker -------------------------------------------------------


@pytest.fixture(scope="module")
def box() -> Iterator[Box]:
    yield from running_box()


@pytest.mark.mqtt
def test_real_login_probe_tells_ok_refused_and_nobody_home(box: Box) -> None:
    ok = Connection("127.0.0.1", box.port, "appliance", box.passwords["appliance"])
    assert doctor.mqtt_login(ok, 5) == ("ok", "")
    assert doctor.mqtt_login(replace(ok, password="wrong"), 5)[0] == "refused"
    assert doctor.mqtt_login(Connection("127.0.0.1", box.port), 5)[0] == "refused"
    assert doctor.mqtt_login(Connection("127.0.0.1", free_port()), 5)[0] == "no-listener"


@pytest.mark.mqtt
def test_the_doctor_sees_the_box_and_its_handsets_through_the_real_broker(box: Box, tmp_path: Path) -> None:
    retained = [(protocol.appliance_status_topic(BOX), "appliance"), (protocol.status_topic(BOX, "h1"), "h1")]
    for topic, user in retained:
        # a handset's account logs in only with its own client id (appliance/edge/accounts.py)
        own = client_id(user, box.passwords[user]) if user == "h1" else f"doctor-test-{user}"
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=own)
        client.username_pw_set(user, box.passwords[user])
        client.connect("127.0.0.1", box.port)
        client.loop_start()
        client.publish(topic, b"online", qos=1, retain=True).wait_for_publish(timeout=5)
        client.disconnect()
        client.loop_stop()
    config = pi_config(tmp_path, broker={"port": box.port, "password": box.passwords["appliance"]})
    probes = healthy(login=doctor.mqtt_login, retained=doctor.mqtt_retained, listen_seconds=1.0)
    found = dict(doctor.run_checks(config, probes))
    assert found["Broker"].note == f"reachable at 127.0.0.1:{box.port}, logged in as appliance, strangers kept out"
    assert found["Handsets"].note == "1 connected: h1"


def test_real_probes_of_this_machine_answer_in_their_own_terms(tmp_path: Path) -> None:
    assert "dummy" in doctor.sdl_video_drivers()
    groups = doctor.user_groups("root")
    assert groups is not None and "root" in groups
    assert doctor.user_groups("no-such-user-here") is None
    assert doctor.free_bytes(tmp_path / "not" / "yet") > 0
    assert all(state for state in doctor.drm_connectors().values())
