"""deploy/configure.py: the installer's config and broker work (the drop-in, the dynamic security
plugin's file made once, the migration of a box installed with a password file), and that running it
twice changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from appliance.edge.accounts import acls
from appliance.errors import ConfigError
from appliance.infra.config import parse_config
from tests.deploy.tools import REPO, load_configure, need

configure = load_configure()
FILES = (configure.CONFIG, configure.WEB_CONFIG, configure.DROPIN, configure.DYNSEC)


def _modes(root: Path) -> dict[str, int]:
    return {name: (root / name).stat().st_mode & 0o777 for name in FILES}


def test_first_run_writes_the_configs_the_drop_in_and_the_accounts_file(tmp_path: Path) -> None:
    report = configure.configure(tmp_path, "pub_one", 'The "Red" Lion')
    assert [line.split()[0] for line in report] == ["created"] * 4
    assert _modes(tmp_path) == {configure.CONFIG: 0o640, configure.WEB_CONFIG: 0o640, configure.DROPIN: 0o644,
                                configure.DYNSEC: 0o600}
    config = parse_config((tmp_path / configure.CONFIG).read_text())
    assert (config.box.id, config.box.name, config.box.data_dir) == ("pub_one", 'The "Red" Lion', "/var/lib/quizbox")
    assert (config.broker.host, config.broker.port, config.broker.username) == ("127.0.0.1", 1883, "appliance")
    assert len(config.broker.password) >= 24
    web = parse_config((tmp_path / configure.WEB_CONFIG).read_text())
    assert (web.box, web.web, web.board) == (config.box, config.web, config.board)
    assert web.broker.username == "web" and web.broker.password != config.broker.password
    dropin = (tmp_path / configure.DROPIN).read_text()
    plugin = next(line.split(" ", 1)[1] for line in dropin.splitlines() if line.startswith("plugin "))
    assert Path(plugin).exists() and plugin.endswith("/mosquitto_dynamic_security.so")
    data = json.loads((tmp_path / configure.DYNSEC).read_text())
    (appliance,) = data["clients"]  # made by mosquitto_ctrl (mosquitto hashed the password), with its role
    assert appliance["username"] == "appliance" and config.broker.password not in json.dumps(data)
    assert appliance["roles"] == [{"rolename": "quizbox-appliance"}]
    assert [r["rolename"] for r in data["roles"]] == ["quizbox-appliance"]  # not init's read-everything admin
    assert data["roles"][0]["acls"] == acls("appliance", "pub_one")
    assert not (tmp_path / "etc/quizbox/mosquitto").exists(), "no password or ACL file"


def test_second_run_changes_nothing(tmp_path: Path) -> None:
    configure.configure(tmp_path, "pub", "Pub")
    before = {name: (tmp_path / name).read_bytes() for name in FILES}
    report = configure.configure(tmp_path, "ignored", "Ignored")
    assert [line.split()[0] for line in report] == ["kept", "unchanged", "unchanged", "kept"]
    assert {name: (tmp_path / name).read_bytes() for name in FILES} == before


def test_the_quizmasters_edits_are_kept_and_passed_on(tmp_path: Path) -> None:
    configure.configure(tmp_path, "pub", "Pub")
    config_path = tmp_path / configure.CONFIG
    web_password = tomllib.loads((tmp_path / configure.WEB_CONFIG).read_text())["broker"]["password"]
    edited = (config_path.read_text().replace('id = "pub"', 'id = "lion"')
              .replace('name = "Pub"', 'name = "The Lion"').replace("port = 80\n", "port = 8080\n"))
    config_path.write_text(edited)
    configure.configure(tmp_path, "pub", "Pub")
    assert config_path.read_text() == edited
    web = parse_config((tmp_path / configure.WEB_CONFIG).read_text())
    assert (web.box.id, web.box.name, web.web.port, web.broker.password) == ("lion", "The Lion", 8080, web_password)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('host = "127.0.0.1"', 'host = "broker.example"', "must be this box's own mosquitto"),
        ('username = "appliance"', 'username = ""', "must be this box's own mosquitto"),
        ('username = "appliance"', 'username = "web"', "the admin page's account"),
        ('id = "pub"', 'id = "p u b"', "box.id"),
    ],
)
def test_settings_the_installer_cannot_manage_are_refused_and_nothing_changes(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    configure.configure(tmp_path, "pub", "Pub")
    config_path = tmp_path / configure.CONFIG
    config_path.write_text(config_path.read_text().replace(old, new))
    before = {name: (tmp_path / name).read_bytes() for name in FILES}
    with pytest.raises(ConfigError, match=message):
        configure.configure(tmp_path, "pub", "Pub")
    assert {name: (tmp_path / name).read_bytes() for name in FILES} == before


def test_the_script_says_what_is_wrong_with_a_bad_box_id(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(Path(REPO, "deploy", "configure.py")), "--root", str(tmp_path),
                          "--box-id", "red lion"], capture_output=True, text=True)
    assert out.returncode == 2
    assert "box id 'red lion' must be 1-32 letters, digits, '-' or '_'" in out.stderr
    assert not (tmp_path / configure.CONFIG).exists()


def test_the_pi_zero_settings_name_the_box_and_are_kept(tmp_path: Path) -> None:
    from firmware.pizero import config as handset_config

    assert configure.configure_handset(tmp_path, "pub_one") == ["created  /etc/quizbox/handset.json"]
    path = tmp_path / configure.HANDSET_CONFIG
    assert path.stat().st_mode & 0o777 == 0o640
    settings = handset_config.parse(path.read_text(), b"\x01\x02\x03")
    assert (settings["box"], settings["handset"], settings["broker"]["host"]) == ("pub_one", "pizero-010203", None)
    path.write_text(path.read_text().replace('"name": null', '"name": "Table 3"'))
    edited = path.read_text()
    assert configure.configure_handset(tmp_path, "other") == [
        "kept     /etc/quizbox/handset.json (yours: never overwritten)"]
    assert path.read_text() == edited


def _old_install(root: Path) -> dict[str, str]:
    """A box installed by the old installer: its password file made by the real mosquitto_passwd."""
    tool = need("mosquitto_passwd", "mosquitto")
    folder = root / "etc/quizbox/mosquitto"
    folder.mkdir(parents=True)
    passwd = folder / "passwd"
    passwords = {"appliance": "old-appliance-pw", "web": "old-web-password", "h1": "h1s-own-secret-000001",
                 "esp32-a1b2c3": "esp32s-own-secret-0002"}
    for user, password in passwords.items():
        subprocess.run([tool, *([] if passwd.exists() else ["-c"]), "-b", str(passwd), user, password], check=True)
    with passwd.open("a") as out:
        out.write("h6:$6$c2FsdA==$aGFzaA==\n")  # a mosquitto 1.x hash: cannot move
    (folder / "acl").write_text("user appliance\ntopic readwrite quizbox/pub/#\n")
    return passwords


def test_an_old_password_file_is_migrated_without_knowing_a_password(tmp_path: Path) -> None:
    _old_install(tmp_path)
    old = {line.split(":", 1)[0]: line.split(":", 1)[1] for line in
           (tmp_path / "etc/quizbox/mosquitto/passwd").read_text().splitlines()}
    report = configure.configure(tmp_path, "pub", "Pub")
    assert "migrated handset h1: it keeps its password" in report
    assert "migrated handset esp32-a1b2c3: it keeps its password" in report
    assert any(line.startswith("dropped  handset h6") and "pair it again" in line for line in report)
    data = json.loads((tmp_path / configure.DYNSEC).read_text())
    clients = {c["username"]: c for c in data["clients"]}
    assert set(clients) == {"appliance", "h1", "esp32-a1b2c3"}  # the services are made from their configs
    _, _, iterations, salt, hashed = old["h1"].split("$")
    assert (clients["h1"]["password"], clients["h1"]["salt"], clients["h1"]["iterations"]) == (
        hashed, salt, int(iterations))
    assert not (tmp_path / configure.OLD_PASSWD).exists() and not (tmp_path / configure.OLD_ACL).exists()


@pytest.mark.mqtt
def test_a_migrated_handset_logs_in_with_its_old_password_on_the_new_broker() -> None:
    import tempfile
    import time

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from appliance.edge.accounts import client_id
    from tests.deploy.boxbroker import _box

    olds: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="quizbox-box-") as name:
        gen = _box(need("mosquitto", "mosquitto"), Path(name),
                   before_start=lambda root: olds.update(_old_install(root)))
        box = next(gen)
        try:
            user = "esp32-a1b2c3"  # (h1 is given a new password by the harness)
            got: list[int] = []
            c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id(user, olds[user]))
            c.username_pw_set(user, olds[user])
            c.on_connect = lambda cl, u, f, rc, p: got.append(rc.value)
            c.connect("127.0.0.1", box.port)
            c.loop_start()
            deadline = time.monotonic() + 5
            while not got and time.monotonic() < deadline:
                time.sleep(0.02)
            c.disconnect()
            c.loop_stop()
            assert got == [0], "the migrated handset keeps its password"
            c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="x")
            c.username_pw_set("appliance", olds["appliance"])  # the old services' passwords are gone
            got.clear()
            c.on_connect = lambda cl, u, f, rc, p: got.append(rc.value)
            c.connect("127.0.0.1", box.port)
            c.loop_start()
            deadline = time.monotonic() + 5
            while not got and time.monotonic() < deadline:
                time.sleep(0.02)
            c.disconnect()
            c.loop_stop()
            assert got and got[0] != 0
        finally:
            gen.close()
