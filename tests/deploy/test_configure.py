"""deploy/configure.py: the installer's config, password-file and ACL work, and that running it twice
changes nothing while the quizmaster's own settings are kept."""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from appliance.box.config import parse_config
from appliance.errors import ConfigError
from firmware import protocol
from tests.deploy.tools import REPO, load_configure, need

configure = load_configure()
FILES = (configure.CONFIG, configure.WEB_CONFIG, configure.PASSWD, configure.ACL)


def test_our_hash_is_the_format_mosquitto_passwd_writes() -> None:
    salt = bytes(range(12))
    hashed = configure.hash_password("s3cret", salt)
    key = hashlib.pbkdf2_hmac("sha512", b"s3cret", salt, 101, 64)
    assert hashed == f"$7$101${base64.b64encode(salt).decode()}${base64.b64encode(key).decode()}"
    assert configure.verify_password("s3cret", hashed)
    assert not configure.verify_password("s3cret!", hashed)


def test_we_read_the_hashes_mosquitto_passwd_makes(tmp_path: Path) -> None:
    tool = need("mosquitto_passwd", "mosquitto")
    passwd = tmp_path / "passwd"
    passwd.touch()
    subprocess.run([tool, "-b", str(passwd), "h1", "pa:ss word"], check=True)
    accounts = configure.parse_passwd(passwd.read_text())
    assert list(accounts) == ["h1"]
    assert configure.verify_password("pa:ss word", accounts["h1"])
    assert not configure.verify_password("pass word", accounts["h1"])


def test_old_sha512_hashes_still_verify() -> None:
    salt = b"0123456789ab"
    legacy = f"$6${base64.b64encode(salt).decode()}${base64.b64encode(hashlib.sha512(b'pw' + salt).digest()).decode()}"
    assert configure.verify_password("pw", legacy)
    assert not configure.verify_password("px", legacy)


@pytest.mark.parametrize("hashed", ["plain", "$7$x$AAAA$BBBB", "$7$101$!!$??", "$9$1$2$3"])
def test_a_mangled_hash_never_verifies(hashed: str) -> None:
    assert not configure.verify_password("pw", hashed)


def test_password_file_lines_round_trip_without_comments() -> None:
    text = "# paired handsets\nh1:$7$101$a$b\n\nweb:$7$101$c$d\n"
    accounts = configure.parse_passwd(text)
    assert accounts == {"h1": "$7$101$a$b", "web": "$7$101$c$d"}
    assert configure.format_passwd(accounts) == "h1:$7$101$a$b\nweb:$7$101$c$d\n"


@pytest.mark.parametrize("line", ["h1", ":$7$1$2$3", "h1:"])
def test_a_broken_password_line_is_named(line: str) -> None:
    with pytest.raises(ConfigError, match="line 2 is not user:hash"):
        configure.parse_passwd("h0:$7$1$2$3\n" + line + "\n")


def test_set_account_rewrites_only_a_changed_password() -> None:
    accounts = {"h1": configure.hash_password("one")}
    before = accounts["h1"]
    assert not configure.set_account(accounts, "h1", "one")
    assert accounts["h1"] == before
    assert configure.set_account(accounts, "h1", "two")
    assert configure.verify_password("two", accounts["h1"])
    with pytest.raises(ConfigError, match="may not be empty or hold ':'"):
        configure.set_account(accounts, "a:b", "x")


TEMPLATE = (Path(REPO) / "deploy" / "acl.template").read_text()


def test_the_acl_has_one_block_per_handset_that_names_only_its_own_topics() -> None:
    acl = configure.render_acl(TEMPLATE, "pub", "appliance", ["h1", "h2"])
    blocks = acl.split("\nuser ")
    assert [b.split("\n", 1)[0] for b in blocks[1:]] == ["appliance", "web", "h1", "h2"]
    h1 = [line for line in blocks[3].splitlines() if line.startswith("topic ")]
    assert h1 == [
        "topic write quizbox/pub/handset/h1/input",
        "topic write quizbox/pub/handset/h1/hello",
        "topic write quizbox/pub/handset/h1/telemetry",
        "topic write quizbox/pub/handset/h1/status",
        "topic write quizbox/pub/handset/h1/clock",
        "topic read quizbox/pub/handset/h1/prompt",
        "topic read quizbox/pub/handset/h1/ack",
        "topic read quizbox/pub/handset/h1/time",
        "topic read quizbox/pub/board",
    ]
    # the topics are the protocol's own
    leaves = ("input", "hello", "telemetry", "status", "clock", "prompt", "ack", "time")
    assert {t.split()[-1] for t in h1} == {protocol.handset_topic("pub", "h1", leaf) for leaf in leaves} | {
        protocol.board_topic("pub")}
    assert "{" not in acl and "%u" not in acl


def test_the_acl_refuses_reserved_and_impossible_handset_ids() -> None:
    with pytest.raises(ConfigError, match="reserved"):
        configure.render_acl(TEMPLATE, "pub", "appliance", ["web"])
    with pytest.raises(protocol.ProtocolError):
        configure.render_acl(TEMPLATE, "pub", "appliance", ["h/1"])
    with pytest.raises(ConfigError, match="#@handset"):
        configure.render_acl("user {appliance}\n", "pub", "appliance", [])


def test_handset_accounts_leave_out_the_two_services_and_names_no_topic_can_carry() -> None:
    accounts = {"appliance": "x", "h1": "x", "web": "x", "bob.smith": "x", "h2": "x"}
    assert configure.handset_accounts(accounts, "appliance") == (["h1", "h2"], ["bob.smith"])


def _modes(root: Path) -> dict[str, int]:
    return {name: (root / name).stat().st_mode & 0o777 for name in FILES}


def test_first_run_writes_four_private_files_that_parse(tmp_path: Path) -> None:
    report = configure.configure(tmp_path, "pub_one", 'The "Red" Lion')
    assert [line.split()[0] for line in report] == ["created"] * 4
    assert _modes(tmp_path) == dict.fromkeys(FILES, 0o640)
    config = parse_config((tmp_path / configure.CONFIG).read_text())
    assert (config.box.id, config.box.name, config.box.data_dir) == ("pub_one", 'The "Red" Lion', "/var/lib/quizbox")
    assert (config.broker.host, config.broker.port, config.broker.username) == ("127.0.0.1", 1883, "appliance")
    assert len(config.broker.password) >= 24
    assert config.board.display == "kmsdrm"
    web = parse_config((tmp_path / configure.WEB_CONFIG).read_text())
    assert (web.box, web.web, web.board) == (config.box, config.web, config.board)
    assert web.broker.username == "web" and web.broker.password != config.broker.password
    accounts = configure.parse_passwd((tmp_path / configure.PASSWD).read_text())
    assert configure.verify_password(config.broker.password, accounts["appliance"])
    assert configure.verify_password(web.broker.password, accounts["web"])
    assert "topic readwrite quizbox/pub_one/#" in (tmp_path / configure.ACL).read_text()


def test_second_run_changes_nothing(tmp_path: Path) -> None:
    configure.configure(tmp_path, "pub", "Pub")
    before = {name: (tmp_path / name).read_bytes() for name in FILES}
    report = configure.configure(tmp_path, "ignored", "Ignored")
    assert [line.split()[0] for line in report] == ["kept", "unchanged", "unchanged", "unchanged"]
    assert {name: (tmp_path / name).read_bytes() for name in FILES} == before


def test_the_quizmasters_edits_are_kept_and_passed_on(tmp_path: Path) -> None:
    configure.configure(tmp_path, "pub", "Pub")
    config_path = tmp_path / configure.CONFIG
    web_password = tomllib.loads((tmp_path / configure.WEB_CONFIG).read_text())["broker"]["password"]
    passwd = tmp_path / configure.PASSWD
    passwd.write_text(passwd.read_text() + "h7:" + configure.hash_password("seven") + "\n")
    edited = (config_path.read_text().replace('id = "pub"', 'id = "lion"')
              .replace('name = "Pub"', 'name = "The Lion"').replace("port = 80\n", "port = 8080\n"))
    edited = edited.replace(tomllib.loads(edited)["broker"]["password"], "a-new-password")
    config_path.write_text(edited)

    configure.configure(tmp_path, "pub", "Pub")
    assert config_path.read_text() == edited
    web = parse_config((tmp_path / configure.WEB_CONFIG).read_text())
    assert (web.box.id, web.box.name, web.web.port, web.broker.password) == ("lion", "The Lion", 8080, web_password)
    accounts = configure.parse_passwd(passwd.read_text())
    assert configure.verify_password("a-new-password", accounts["appliance"])
    assert configure.verify_password("seven", accounts["h7"]), "a paired handset keeps its account"
    acl = (tmp_path / configure.ACL).read_text()
    assert "topic write quizbox/lion/handset/h7/input" in acl and "quizbox/pub/" not in acl


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


def test_add_handset_gives_an_account_and_its_rights(tmp_path: Path) -> None:
    configure.configure(tmp_path, "pub", "Pub")
    password, report = configure.add_handset(tmp_path, "esp32-a1b2c3")
    assert [line.split()[0] for line in report] == ["updated", "updated"]
    accounts = configure.parse_passwd((tmp_path / configure.PASSWD).read_text())
    assert configure.verify_password(password, accounts["esp32-a1b2c3"]) and len(password) >= 24
    assert "topic write quizbox/pub/handset/esp32-a1b2c3/input" in (tmp_path / configure.ACL).read_text()
    configure.remove_handset(tmp_path, "esp32-a1b2c3")
    assert "esp32-a1b2c3" not in (tmp_path / configure.PASSWD).read_text()
    assert "esp32-a1b2c3" not in (tmp_path / configure.ACL).read_text()


@pytest.mark.parametrize(("handset", "message"), [("appliance", "reserved"), ("web", "reserved"),
                                                  ("h/1", "must be 1-32 letters")])
def test_add_handset_refuses_ids_that_cannot_be_handsets(tmp_path: Path, handset: str, message: str) -> None:
    configure.configure(tmp_path, "pub", "Pub")
    before = {name: (tmp_path / name).read_bytes() for name in FILES}
    with pytest.raises(ConfigError, match=message):
        configure.add_handset(tmp_path, handset)
    assert {name: (tmp_path / name).read_bytes() for name in FILES} == before


def test_removing_an_account_that_is_no_handset_is_refused(tmp_path: Path) -> None:
    configure.configure(tmp_path, "pub", "Pub")
    for name in ("web", "appliance", "nobody"):
        with pytest.raises(ConfigError, match=f"there is no handset account '{name}'"):
            configure.remove_handset(tmp_path, name)


def test_a_rewrite_keeps_the_files_owner_and_group(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can give a file away")
    configure.configure(tmp_path, "pub", "Pub")
    passwd = tmp_path / configure.PASSWD
    os.chown(passwd, 1234, 5678)
    configure.add_handset(tmp_path, "h1")
    assert (passwd.stat().st_uid, passwd.stat().st_gid) == (1234, 5678)


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


def test_the_script_adds_a_handset_and_prints_its_password(tmp_path: Path) -> None:
    configure.configure(tmp_path, "pub", "Pub")
    out = subprocess.run([sys.executable, str(Path(REPO, "deploy", "configure.py")), "--root", str(tmp_path),
                          "--add-handset", "h1"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    password = out.stdout.strip().splitlines()[-1].rsplit(" ", 1)[1]
    assert out.stdout.strip().splitlines()[-1] == f"configure: handset h1: broker user name h1, password {password}"
    accounts = configure.parse_passwd((tmp_path / configure.PASSWD).read_text())
    assert configure.verify_password(password, accounts["h1"])
