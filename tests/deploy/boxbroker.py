"""A box's broker for tests: the real mosquitto with Debian's own main config including the Quizbox
drop-in that deploy/configure.py writes, and the accounts it makes in the dynamic security plugin
(``--sync-accounts``, plus two handsets h1 and h2 given accounts by hand), with only paths and ports
moved into a temporary folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from appliance.edge.broker import free_port, wait_for_port
from tests.deploy.tools import REPO, load_configure, need

BOX = "pub"
DROPIN = Path(REPO, "systemd", "mosquitto-quizbox.conf")
DEBIAN_MAIN = Path(REPO, "tests", "deploy", "debian-mosquitto.conf")
configure = load_configure()


@dataclass
class Box:
    root: Path
    port: int
    passwords: dict[str, str]
    log: Path
    pid: int


def _rewrite(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"expected {old!r} once"
    return text.replace(old, new)


def running_box() -> Iterator[Box]:
    """Start the box's broker (a generator for a fixture: yields once, stops mosquitto after)."""
    exe = need("mosquitto", "mosquitto")
    # not under pytest's tmp_path: its parents are 0700, and mosquitto (user mosquitto) must get in
    with tempfile.TemporaryDirectory(prefix="quizbox-box-") as name:
        yield from _box(exe, Path(name))


def _box(exe: str, tmp: Path, before_start: Callable[[Path], None] | None = None) -> Iterator[Box]:
    root = tmp / "root"
    if before_start is not None:
        before_start(root)  # e.g. an install made by an older installer
    configure.configure(root, BOX, "The Pub")
    configure.configure(root, BOX, "The Pub")  # a later re-run of the installer changes nothing
    config = configure.read_toml(root / configure.CONFIG)
    web = configure.read_toml(root / configure.WEB_CONFIG)
    passwords = {"appliance": config["broker"]["password"], "web": web["broker"]["password"]}

    port = free_port()
    data, conf_d = tmp / "data", tmp / "conf.d"
    data.mkdir()
    conf_d.mkdir()
    main = DEBIAN_MAIN.read_text()
    main = _rewrite(main, "pid_file /run/mosquitto/mosquitto.pid", f"pid_file {data}/mosquitto.pid")
    main = _rewrite(main, "persistence_location /var/lib/mosquitto/", f"persistence_location {data}/")
    main = _rewrite(main, "log_dest file /var/log/mosquitto/mosquitto.log", f"log_dest file {data}/mosquitto.log")
    main = _rewrite(main, "include_dir /etc/mosquitto/conf.d", f"include_dir {conf_d}")
    dropin = (root / configure.DROPIN).read_text()
    dropin = _rewrite(dropin, "listener 1883", f"listener {port} 127.0.0.1")
    dropin = _rewrite(dropin, f"/{configure.DYNSEC}", str(root / configure.DYNSEC))
    (conf_d / "quizbox.conf").write_text(dropin)
    (tmp / "mosquitto.conf").write_text(main)
    if os.geteuid() == 0:
        # as on the Pi: mosquitto drops root and keeps its accounts file as user mosquitto
        shutil.chown(data, "mosquitto")
        os.chmod(tmp, 0o755)
        for folder in (root, root / "var", root / "var/lib"):
            os.chmod(folder, 0o755)
        shutil.chown(root / configure.DYNSEC, "mosquitto", "mosquitto")
        shutil.chown((root / configure.DYNSEC).parent, "mosquitto", "mosquitto")
    stderr = tmp / "stderr.log"
    with open(stderr, "wb") as err:
        proc = subprocess.Popen([exe, "-c", str(tmp / "mosquitto.conf")], stdout=err, stderr=subprocess.STDOUT)
    try:
        try:
            wait_for_port("127.0.0.1", port, timeout=10)
        except Exception:
            pytest.fail(f"mosquitto did not start: {stderr.read_text()}")
        configure.sync_accounts(root, port=port)  # what the installer runs once mosquitto is up
        passwords["h1"] = "one-secret-of-h1"
        configure.add_handset(root, "h1", passwords["h1"], port=port)
        passwords["h2"], _ = configure.add_handset(root, "h2", port=port)
        configure.sync_accounts(root, port=port)  # a later re-run keeps them
        yield Box(root, port, passwords, stderr, proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
