"""``quizbox doctor``: looks the box over and says, in plain words, what is wrong and how to fix it.

Each check is a small function ``check_x(config, probes) -> Finding``. A finding is fine (with a note
of what was seen) or a problem (what is wrong, how to fix it); a check reports the first problem it
meets, in the order of cause (no driver before no cable). Everything a check looks at goes through
:class:`Probes`, so the tests stage every failure without a Pi.
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import grp
import os
import pwd
import shutil
import socket
import sqlite3
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from appliance.box import recovery, units
from appliance.edge.accounts import private_client_id
from appliance.edge.mqtt import Connection
from appliance.errors import ConfigError
from appliance.infra import health
from appliance.infra.config import Config, load_config
from firmware import protocol

SERVICE_USER = "quizbox"
INSTALLER = "the installer again (in the Quizbox folder: sudo ./deploy/install.sh)"
MIN_FREE_MB = 200
MIN_YEAR = 2024  # a Pi without a clock battery that never reached a time server thinks it is 1970
GPIO_PINS = range(2, 28)  # the header's GPIO 2-27 (0 and 1 belong to the HAT EEPROM)
UNITS = tuple((unit, what) for unit, what, _ in units.UNITS)  # every unit the installer installs on a box


@dataclass(frozen=True)
class Finding:
    ok: bool
    wrong: str = ""  # what is wrong, in plain words
    fix: str = ""  # what to do about it
    note: str = ""  # what was seen, when all is well


def fine(note: str) -> Finding:
    return Finding(True, note=note)


def problem(wrong: str, fix: str) -> Finding:
    return Finding(False, wrong=wrong, fix=fix)


# -- probes ------------------------------------------------------------------------------------------


def mqtt_login(conn: Connection, timeout: float) -> tuple[str, str]:
    """Log in to the broker: ``(outcome, detail)``; outcome is ok, no-listener, unknown-host, timeout,
    refused (user name or password), tls or error."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    done = threading.Event()
    result: list[tuple[str, str]] = []

    def on_connect(client: mqtt.Client, userdata: object, flags: object, reason: object, props: object) -> None:
        value = getattr(reason, "value", reason)
        result.append(("ok", "") if value == 0 else ("refused" if value in (4, 5, 134, 135) else "error", str(reason)))
        done.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=private_client_id("quizbox-doctor"))
    client.connect_timeout = timeout
    client.on_connect = on_connect
    if conn.username:
        client.username_pw_set(conn.username, conn.password or None)
    try:
        if conn.tls:
            client.tls_set(ca_certs=conn.ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
        client.connect(conn.host, conn.port, keepalive=10)
    except ConnectionRefusedError as exc:
        return "no-listener", str(exc)
    except socket.gaierror as exc:
        return "unknown-host", str(exc)
    except TimeoutError as exc:
        return "timeout", str(exc)
    except (ssl.SSLError, ssl.CertificateError) as exc:
        return "tls", str(exc)
    except (OSError, ValueError) as exc:
        return "error", str(exc)
    client.loop_start()
    try:
        if not done.wait(timeout):
            return "timeout", "no answer to the login"
        return result[0]
    finally:
        client.disconnect()
        client.loop_stop()


def mqtt_retained(conn: Connection, topics: Sequence[str], seconds: float) -> dict[str, bytes]:
    """The retained messages on ``topics`` (wildcards allowed) that arrive within ``seconds``."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    seen: dict[str, bytes] = {}
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=private_client_id("quizbox-doctor-r"))
    if conn.username:
        client.username_pw_set(conn.username, conn.password or None)
    if conn.tls:
        client.tls_set(ca_certs=conn.ca_file or None, cert_reqs=ssl.CERT_REQUIRED)

    def on_connect(client: mqtt.Client, userdata: object, flags: object, reason: object, props: object) -> None:
        for topic in topics:
            client.subscribe(topic, qos=0)

    def on_message(client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if msg.retain:
            seen[msg.topic] = bytes(msg.payload)

    client.on_connect = on_connect
    client.on_message = on_message
    client.connect(conn.host, conn.port, keepalive=10)
    client.loop_start()
    time.sleep(seconds)
    client.disconnect()
    client.loop_stop()
    return seen


def sdl_video_drivers() -> list[str]:
    """The video drivers compiled into the SDL library that pygame loads (ImportError: no pygame)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame.display  # noqa: F401  (loads SDL)

    with open("/proc/self/maps", encoding="utf-8") as maps:
        paths = {line.split()[-1] for line in maps if "libSDL2-2" in line and ".so" in line}
    if not paths:
        raise ImportError("pygame is loaded but its SDL library was not found")
    lib = ctypes.CDLL(sorted(paths)[0])
    lib.SDL_GetVideoDriver.restype = ctypes.c_char_p
    lib.SDL_GetVideoDriver.argtypes = [ctypes.c_int]
    return [lib.SDL_GetVideoDriver(i).decode() for i in range(lib.SDL_GetNumVideoDrivers())]


def drm_connectors() -> dict[str, str]:
    """Screen connectors and their state, e.g. ``{"HDMI-A-1": "connected", "HDMI-A-2": "disconnected"}``."""
    found: dict[str, str] = {}
    for status in sorted(glob.glob("/sys/class/drm/card*-*/status")):
        name = Path(status).parent.name.split("-", 1)[1]
        found[name] = Path(status).read_text(encoding="ascii").strip()
    return found


def unit_state(unit: str) -> str:
    """``systemctl is-active``: active, inactive, failed, activating...; unknown without systemd."""
    if not shutil.which("systemctl") or not os.path.isdir("/run/systemd/system"):
        return "unknown"
    out = subprocess.run(["systemctl", "is-active", unit], capture_output=True, text=True, timeout=10)
    return out.stdout.strip() or "unknown"


def user_groups(user: str) -> set[str] | None:
    """The groups of ``user``, or None when there is no such user."""
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        return None
    groups = {g.gr_name for g in grp.getgrall() if user in g.gr_mem}
    with_primary = grp.getgrgid(entry.pw_gid).gr_name
    return groups | {with_primary}


def sqlite_check(path: Path) -> str:
    """``PRAGMA quick_check`` on a read-only connection: "ok", or what SQLite says is wrong."""
    try:
        db = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True, timeout=2)
    except sqlite3.Error as exc:
        return str(exc)
    try:
        rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error as exc:
        return str(exc)
    finally:
        db.close()
    return "; ".join(str(r[0]) for r in rows[:3])


def ntp_synced() -> bool | None:
    """Whether systemd-timesyncd (or chrony) has set the clock from a time server; None: cannot tell."""
    if not shutil.which("timedatectl"):
        return None
    out = subprocess.run(
        ["timedatectl", "show", "-p", "NTPSynchronized", "--value"], capture_output=True, text=True, timeout=10
    )
    value = out.stdout.strip()
    return {"yes": True, "no": False}.get(value)


def free_bytes(path: Path) -> int:
    """Free bytes on the file system holding ``path`` (or its nearest existing parent)."""
    while not path.exists() and path != path.parent:
        path = path.parent
    return shutil.disk_usage(path).free


@dataclass
class Probes:
    """What the checks look at; the defaults look at this machine."""

    login: Callable[[Connection, float], tuple[str, str]] = mqtt_login
    retained: Callable[[Connection, Sequence[str], float], dict[str, bytes]] = mqtt_retained
    sdl_drivers: Callable[[], list[str]] = sdl_video_drivers
    dri_devices: Callable[[], list[str]] = field(default=lambda: sorted(glob.glob("/dev/dri/card*")))
    connectors: Callable[[], dict[str, str]] = drm_connectors
    unit_state: Callable[[str], str] = unit_state
    user_groups: Callable[[str], set[str] | None] = user_groups
    gpio_chips: Callable[[], list[str]] = field(default=lambda: sorted(glob.glob("/dev/gpiochip*")))
    free_bytes: Callable[[Path], int] = free_bytes
    db_check: Callable[[Path], str] = sqlite_check
    now: Callable[[], float] = time.time
    ntp_synced: Callable[[], bool | None] = ntp_synced
    timeout: float = 5.0
    listen_seconds: float = 1.5


# -- checks ----------------------------------------------------------------------------------------------


def _restart(unit: str) -> str:
    return (
        f"sudo systemctl reset-failed {unit}; sudo systemctl restart {unit}. "
        f"To see why it stopped: journalctl -u {unit} -n 50 -p warning"
    )


def check_services(config: Config, probes: Probes) -> Finding:
    states = {unit: probes.unit_state(unit) for unit, _ in UNITS}
    if all(state == "unknown" for state in states.values()):
        return fine("systemd is not running here, so there are no Quizbox services to look at")
    down = [(unit, states[unit]) for unit, _ in UNITS if states[unit] != "active"]
    if not down:
        return fine("the connection limits, the broker, the quiz program, the admin page and its league join "
                    "watch are running")
    unit, _ = down[0]
    return problem(  # the installer's words for the same cause (appliance/box/units.py)
        " ".join(units.down(u, state) for u, state in down),
        _restart(unit) + ("" if len(down) == 1 else " (then the same for the others)"),
    )


def connection_of(config: Config) -> Connection:
    b = config.broker
    return Connection(b.host, b.port, b.username, b.password, b.tls, b.ca_file, b.keepalive)


def check_broker(config: Config, probes: Probes) -> Finding:
    b = config.broker
    if not b.host:
        return problem(
            "The settings name no broker ([broker] host is empty), so the quiz program starts a private one "
            "that handsets on the network cannot reach.",
            f'Set host = "127.0.0.1" under [broker] in {config.source}, or run {INSTALLER}.',
        )
    where = f"{b.host}:{b.port}"
    outcome, detail = probes.login(connection_of(config), probes.timeout)
    if outcome == "no-listener":
        return problem(
            f"Nothing answers at {where}: the broker (mosquitto) is not running.",
            _restart("mosquitto") + " (a typo in /etc/mosquitto/conf.d/ is the usual cause).",
        )
    if outcome == "unknown-host":
        return problem(
            f"The broker's address {b.host!r} cannot be found on the network.",
            f'Check host under [broker] in {config.source}: on the box itself it is "127.0.0.1".',
        )
    if outcome == "timeout":
        return problem(
            f"The broker at {where} did not answer within {probes.timeout:.0f} seconds.",
            f"Check that the box is on the network and that nothing blocks port {b.port}.",
        )
    if outcome == "refused":
        return problem(
            f"The broker refused the quiz program's user name or password (user {b.username!r}).",
            "The broker keeps its own copy of that password (its account plugin); if quizbox.toml's was changed, "
            f"give the broker the new one: sudo mosquitto_ctrl -u {b.username} -P '<old password>' dynsec "
            f"setClientPassword {b.username} '<new password>' (docs/deploy.md, Accounts).",
        )
    if outcome == "tls":
        return problem(
            f"The secure connection to the broker failed: {detail}.",
            f"Check ca_file under [broker] in {config.source}, or set tls = false for the box's own broker.",
        )
    if outcome != "ok":
        return problem(f"Logging in to the broker at {where} failed: {detail}.", _restart("mosquitto"))
    if b.username:
        anonymous = Connection(b.host, b.port, tls=b.tls, ca_file=b.ca_file)
        if probes.login(anonymous, probes.timeout)[0] == "ok":
            return problem(
                "The broker lets anyone connect without a password, so any phone in the pub could press "
                "buttons for the players.",
                f"The Quizbox broker settings are missing or overruled: run {INSTALLER}, which puts them in "
                "/etc/mosquitto/conf.d/quizbox.conf.",
            )
    return fine(f"reachable at {where}, logged in as {b.username or '(no user)'}, strangers kept out")


def check_handsets(config: Config, probes: Probes, broker_ok: bool) -> Finding:
    if not broker_ok:
        return problem(
            "The handsets cannot be looked at while the broker is unreachable.",
            "Fix the broker problem above first.",
        )
    box = config.box.id
    topics = [protocol.appliance_status_topic(box), protocol.appliance_heartbeat_topic(box),
              protocol.handset_wildcard(box, "status")]
    try:
        seen = probes.retained(connection_of(config), topics, probes.listen_seconds)
    except OSError as exc:
        return problem(f"Listening for the handsets failed: {exc}.", "Run the doctor again in a minute.")
    silent = _heartbeat_age(seen.get(protocol.appliance_heartbeat_topic(box)), probes.now())
    if silent is not None and silent * 1000 >= protocol.STALE_MS:
        return problem(
            f"The box is not answering: the quiz program for box {box!r} sent its last heartbeat "
            f"{silent:.0f} s ago (the broker may still say \"online\": a word it kept from before it restarted).",
            _restart("quizbox"),
        )
    if seen.get(protocol.appliance_status_topic(box)) != protocol.ONLINE.encode():
        return problem(
            f"The quiz program for box {box!r} is not connected to the broker: it is stopped, crashed, "
            "or runs with another box id.",
            _restart("quizbox"),
        )
    online: list[str] = []
    offline: list[str] = []
    for topic, payload in sorted(seen.items()):
        try:
            handset, _ = protocol.parse_handset_topic(box, topic)
        except protocol.ProtocolError:
            continue
        (online if payload == protocol.ONLINE.encode() else offline).append(handset)
    if not online:
        before = f" ({len(offline)} seen before: {', '.join(offline)})" if offline else ""
        return problem(
            f"No handset is connected to the box right now{before}.",
            "Switch the handsets on. One that keeps looking for the box is not on the box's Wi-Fi or has no "
            "account yet: see docs/deploy.md, 'Handsets'.",
        )
    gone = f"; {len(offline)} more seen before but off now" if offline else ""
    return fine(f"{len(online)} connected: {', '.join(online)}{gone}")


def _heartbeat_age(payload: bytes | None, now: float) -> float | None:
    """Seconds since the appliance's retained heartbeat was sent (None: no readable heartbeat)."""
    if payload is None:
        return None
    try:
        beat = protocol.parse_heartbeat(protocol.decode(payload))
    except protocol.ProtocolError:
        return None
    return max(0.0, now - float(beat["at"]) / 1000)


PART_FIXES = {
    "board": "Switch the TV on and check its HDMI cable (the box tries again by itself); meanwhile the admin "
             "page's Live page shows what the TV would.",
    "sound": "Check the speaker or the TV's sound; the box tries again by itself.",
    "gpio": "Check the buttons' wiring and the [gpio] pins in the settings; the box tries again by itself.",
    "mdns": "Phones and handsets cannot find <box>.local: check the network; the box tries again by itself. "
            "Handsets with the box's address set still work.",
    "pairing": "New handsets cannot pair meanwhile (paired ones play on): check that nothing else holds the "
               "port (sudo ss -ltnp 'sport = 1884') and restart the quiz program (sudo systemctl restart quizbox).",
    "copy": "Free some space on the SD card (sudo journalctl --vacuum-size=100M); the next question's copy "
            "is made by itself.",
}


def check_parts(config: Config, probes: Probes) -> Finding:
    """The optional parts the running quiz program reports on (appliance/infra/health.py)."""
    data = health.read(config.data_path)
    if data is None:
        return fine("no report from the quiz program yet")
    failing = [(name, part) for name, part in sorted((data.get("parts") or {}).items())
               if isinstance(part, dict) and not part.get("ok", True)]
    if not failing:
        named = ", ".join(health.PARTS.get(n, n) for n in sorted(data.get("parts") or {})) or "none in use"
        return fine(f"working: {named}")
    return problem(
        " ".join(f"The {health.PARTS.get(name, name)}: {part.get('text', '')}." for name, part in failing)
        + " The game goes on without it.",
        " ".join(PART_FIXES.get(name, "") for name, _ in failing).strip(),
    )


def check_recovery(config: Config, probes: Probes) -> Finding:
    """What the last start found after a power cut (appliance/box/recovery.py)."""
    data = health.read(config.data_path)
    report = (data or {}).get("recovery")
    if isinstance(report, dict) and report.get("found"):
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(report.get("at") or 0)))
        detail = str(report.get("detail") or "")
        return problem(
            f"At the start of {when}: {report.get('text', '')}" + (f" (SQLite said: {detail})" if detail else ""),
            "Nothing to repair: the box went on from the last good point. Tell the players whose answers were "
            "lost to answer again; keep a damaged file for a while, then delete it.",
        )
    good = recovery.good_copy_of(config.data_path / "quizbox.db")
    if good.exists():
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(good.stat().st_mtime))
        return fine(f"nothing lost at the last start; last good copy of the database from {when}")
    return fine("nothing lost at the last start")


def check_display(config: Config, probes: Probes) -> Finding:
    mode = config.board.display
    if mode == "headless":
        return fine("no board on a screen ([board] display = headless)")
    if mode == "window":
        return fine("the board opens in a desktop window ([board] display = window)")
    try:
        drivers = probes.sdl_drivers()
    except (ImportError, OSError) as exc:
        return problem(f"pygame, which draws the board, cannot be loaded: {exc}.", f"Run {INSTALLER}.")
    if "kmsdrm" not in (d.lower() for d in drivers):
        return problem(
            "This pygame cannot draw on the TV without a desktop: its SDL library has no kmsdrm driver "
            f"(only {', '.join(drivers) or 'none'}).",
            f"Run {INSTALLER}: it builds pygame against Raspberry Pi OS's own SDL, which has it.",
        )
    if not probes.dri_devices():
        return problem(
            "The Pi shows no graphics device (/dev/dri/card*): the KMS display driver is off.",
            "Put the line dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt (Raspberry Pi OS has it unless "
            "it was removed) and reboot.",
        )
    connectors = {n: s for n, s in probes.connectors().items() if n.startswith("HDMI")}
    if not any(state == "connected" for state in connectors.values()):
        return problem(
            "No TV or monitor is found on the HDMI ports.",
            "Plug the TV into the HDMI port next to the power socket, switch it on and choose that input, "
            "then: sudo systemctl restart quizbox (a TV switched on after the box needs this restart).",
        )
    if probes.unit_state("display-manager") == "active":
        return problem(
            "A desktop is running and holds the screen, so the board cannot have it.",
            "sudo systemctl set-default multi-user.target && sudo reboot (the installer does this; start the "
            "desktop by hand with sudo systemctl start display-manager when you need it).",
        )
    groups = probes.user_groups(SERVICE_USER)
    if groups is None:
        return problem(f"There is no {SERVICE_USER!r} user: Quizbox is not installed here.", f"Run {INSTALLER}.")
    missing = sorted({"video", "render"} - groups)
    if missing:
        return problem(
            f"The {SERVICE_USER} user is not in the {' and '.join(missing)} group, so it may not use the screen.",
            f"sudo usermod -aG video,render {SERVICE_USER} && sudo systemctl restart quizbox (or run {INSTALLER}).",
        )
    on = ", ".join(n for n, s in connectors.items() if s == "connected")
    return fine(f"a screen is connected on {on}")


def check_gpio(config: Config, probes: Probes) -> Finding:
    g = config.gpio
    if not g.enabled:
        return fine("no buttons wired ([gpio] enabled = false)")
    pins = {"next_pin": g.next_pin, "pause_pin": g.pause_pin, "led_pin": g.led_pin}
    for key, pin in pins.items():
        if pin not in GPIO_PINS:
            return problem(
                f"[gpio] {key} is {pin}, but the Pi's header has GPIO 2 to 27.",
                f"Put the GPIO number of the pin you wired (2-27) as {key} in {config.source}.",
            )
    for key, pin in pins.items():
        twins = [other for other, p in pins.items() if p == pin and other != key]
        if twins:
            return problem(
                f"[gpio] {key} and {twins[0]} are both GPIO {pin}: each button and the lamp need their own pin.",
                f"Give each of next_pin, pause_pin and led_pin a different GPIO number in {config.source}.",
            )
    if not probes.gpio_chips():
        return problem(
            "This machine has no GPIO chip (/dev/gpiochip*): it is not a Raspberry Pi, or GPIO is off.",
            f"Set enabled = false under [gpio] in {config.source} if the box has no buttons wired.",
        )
    groups = probes.user_groups(SERVICE_USER)
    if groups is None or "gpio" not in groups:
        return problem(
            f"The {SERVICE_USER} user is not in the gpio group, so the buttons cannot be read.",
            f"sudo usermod -aG gpio {SERVICE_USER} && sudo systemctl restart quizbox (or run {INSTALLER}).",
        )
    return fine(f"buttons on GPIO {g.next_pin} (next) and {g.pause_pin} (pause), lamp on GPIO {g.led_pin}")


def check_disk(config: Config, probes: Probes) -> Finding:
    path = config.data_path
    free_mb = probes.free_bytes(path) // 1_000_000
    if free_mb < MIN_FREE_MB:
        return problem(
            f"Only {free_mb} MB free on the SD card (where {path} lives); the box needs {MIN_FREE_MB} MB "
            "for its games and logs.",
            "Free some space: sudo journalctl --vacuum-size=100M && sudo apt-get clean; or copy the box to "
            "a bigger SD card.",
        )
    if not path.is_dir():
        return problem(
            f"The data folder {path} does not exist.",
            f"sudo systemctl restart quizbox creates it; or run {INSTALLER}.",
        )
    return fine(f"{free_mb / 1000:.1f} GB free for {path}")


def check_database(config: Config, probes: Probes) -> Finding:
    path = config.data_path
    files = sorted(p for pattern in ("*.db", "*.sqlite", "*.sqlite3") for p in path.glob(pattern))
    if not files:
        return fine(f"no database in {path} yet: the first game or deck creates it")
    for db in files:
        if ".damaged-" in db.name:
            continue  # kept aside after a power cut (check_recovery says so)
        verdict = probes.db_check(db)
        if verdict != "ok":
            return problem(
                f"The database {db} cannot be used: {verdict}.",
                f"sudo systemctl stop quizbox; sudo cp {db} {db}.broken (keep it); restore {db} from a backup, "
                f"or move it aside (sudo mv {db} {db}.old) so an empty one is made; sudo systemctl start quizbox.",
            )
    return fine(", ".join(p.name for p in files) + " checked, no damage found")


def check_clock(config: Config, probes: Probes) -> Finding:
    now = probes.now()
    shown = time.strftime("%Y-%m-%d %H:%M", time.localtime(now))
    if time.gmtime(now).tm_year < MIN_YEAR:
        return problem(
            f"The clock says {shown}, which cannot be right: the Pi has no clock battery and has not reached a "
            "time server since it was switched on.",
            "Connect the box to a network with internet for a minute (it sets the clock by itself), or set it "
            "by hand: sudo date -s '2025-06-01 20:00'.",
        )
    synced = probes.ntp_synced()
    if synced is False:
        return fine(f"{shown}, not confirmed by a time server (fine for a quiz)")
    return fine(shown)


def run_checks(config: Config, probes: Probes) -> list[tuple[str, Finding]]:
    broker = check_broker(config, probes)
    return [
        ("Services", check_services(config, probes)),
        ("Broker", broker),
        ("Handsets", check_handsets(config, probes, broker.ok)),
        ("Display", check_display(config, probes)),
        ("GPIO", check_gpio(config, probes)),
        ("Disk", check_disk(config, probes)),
        ("Database", check_database(config, probes)),
        ("Clock", check_clock(config, probes)),
        ("Power cuts", check_recovery(config, probes)),
        ("Optional parts", check_parts(config, probes)),
    ]


def check_config(path: str | None) -> tuple[Config | None, Finding]:
    try:
        config = load_config(path)
    except ConfigError as exc:
        if "Permission denied" in str(exc):
            return None, problem(f"The settings cannot be read: {exc}.", "Run the doctor as root: sudo quizbox doctor")
        return None, problem(
            f"The settings are not right: {exc}.",
            "Correct the file where the message says, or move it aside and run " + INSTALLER + " for a fresh one.",
        )
    return config, fine(f"{config.source}, box {config.box.id!r}")


def report(findings: Sequence[tuple[str, Finding]]) -> str:
    lines = []
    for name, finding in findings:
        if finding.ok:
            lines.append(f"  ok       {name}: {finding.note}")
        else:
            lines.append(f"  PROBLEM  {name}: {finding.wrong}")
            lines.append(f"           How to fix: {finding.fix}")
    problems = sum(not f.ok for _, f in findings)
    lines.append("")
    lines.append("All is well: ready for the quiz." if not problems else f"{problems} problem(s) to fix.")
    return "\n".join(lines)


def main(args: argparse.Namespace, probes: Probes | None = None) -> int:
    """``quizbox doctor [--config FILE]``: exit 0 when all is well, 1 when something needs fixing."""
    config, settings = check_config(getattr(args, "config", None))
    findings = [("Settings", settings)]
    if config is not None:
        findings += run_checks(config, probes or Probes())
    print("Quizbox doctor\n")
    print(report(findings), flush=True)
    return 0 if all(f.ok for _, f in findings) else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="quizbox doctor", description="check the box and say what to fix")
    parser.add_argument("--config", help="config file (default $QUIZBOX_CONFIG or /etc/quizbox/quizbox.toml)")
    sys.exit(main(parser.parse_args()))
