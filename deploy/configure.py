"""The installer's file work: Quizbox config, admin-page config, the broker's settings and its accounts.

Run by deploy/install.sh with the system's python3 (standard library only; it imports the config
parser and the protocol module from this checkout, which need nothing else):

    python3 deploy/configure.py --root /           # the Pi
    python3 deploy/configure.py --root /tmp/x      # a test tree

Idempotent: a second run with nothing changed rewrites no file. What it keeps and what it rewrites:

* ``/etc/quizbox/handset.json`` (``--handset``, a Pi Zero handset): written once for box ``--box-id``.
* ``/etc/quizbox/quizbox.toml``: written once (from quizbox.toml.template, with a random broker password
  for the appliance); never overwritten, the quizmaster edits it.
* ``/etc/quizbox/web.toml``: the admin page's config, generated from quizbox.toml on every run with the
  admin page's own broker account (its password is kept from run to run).
* ``/etc/mosquitto/conf.d/quizbox.conf``: the broker's settings (systemd/mosquitto-quizbox.conf, with the
  path of this system's dynamic security plugin), replaced on every run.
* ``/var/lib/mosquitto/dynamic-security.json``: the broker's accounts, kept by mosquitto's dynamic
  security plugin. Made once with ``mosquitto_ctrl dynsec init`` (the appliance's account is its admin);
  never rewritten after, mosquitto changes it as pairing adds and removes handsets. A box installed with
  the old ``/etc/quizbox/mosquitto/passwd`` and ``acl`` is migrated: each paired handset's ``$7$`` hash
  (PBKDF2-SHA512, the format the plugin keeps too) goes into the new file as it is, so handsets keep
  their passwords; the old files are removed.

After mosquitto runs with it, ``--sync-accounts`` gives every role its rights and the admin page and the
pairing account their passwords (appliance/edge/accounts.py, the same code the appliance runs at start).

A handset's account by hand (pairing from the admin page is the usual way):

    sudo python3 deploy/configure.py --add-handset esp32-a1b2c3      # prints its password
    sudo python3 deploy/configure.py --remove-handset esp32-a1b2c3

Joining this box to a league (docs/league.md; the admin page's "Join a league" form runs the same code):

    sudo python3 deploy/configure.py --join-league league.example.com:8883 QBL1-...

On an installed box the form cannot write /etc (the admin page's system is read-only): it writes a request
that quizbox-league-join.service (root) takes with ``--join-league-request`` (the same join_with_code).

Files holding passwords are written 0640 (the installer gives them to group quizbox); a rewrite keeps the
owner and group the file had.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import socket
import stat
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

# the accounts: one implementation for the installer and the appliance (standard library only)
from appliance.edge.accounts import (  # noqa: E402
    APPLIANCE_USER,
    DYNSEC_FILE,
    PLUGIN_NAME,
    WEB_USER,
    AccountsError,
    BrokerAccounts,
    Dynsec,
    appliance_role_in_file,
    installer_transport,
    is_handset_account,
)
from appliance.errors import ConfigError  # noqa: E402
from appliance.infra.config import Config, parse_config  # noqa: E402  (after the path set-up above)
from appliance.league import topics as league_topics  # noqa: E402
from firmware import protocol  # noqa: E402

# Handset ids that can never be handsets' broker accounts: they are the two accounts above.
RESERVED_IDS = (APPLIANCE_USER, WEB_USER)

HANDSET_CONFIG = "etc/quizbox/handset.json"
CONFIG = "etc/quizbox/quizbox.toml"
WEB_CONFIG = "etc/quizbox/web.toml"
DROPIN = "etc/mosquitto/conf.d/quizbox.conf"
DYNSEC = DYNSEC_FILE.lstrip("/")
OLD_PASSWD = "etc/quizbox/mosquitto/passwd"  # before the dynamic security plugin: migrated, then removed
OLD_ACL = "etc/quizbox/mosquitto/acl"
PLUGIN_LINE = "plugin /usr/lib/mosquitto_dynamic_security.so"  # in the drop-in: this system's path goes here


# -- configs -------------------------------------------------------------------------------------------


def new_password() -> str:
    return secrets.token_urlsafe(24)


def render_config(template: str, box_id: str, box_name: str, password: str) -> str:
    """The first quizbox.toml; refused (ConfigError) unless the result parses as a Quizbox config."""
    try:
        protocol.box_topic(box_id)
    except protocol.ProtocolError:
        raise ConfigError(
            f"box id {box_id!r} must be 1-{protocol.MAX_ID} letters, digits, '-' or '_' (it is part of every "
            "MQTT topic and of the box's network name)"
        ) from None
    text = template.format(
        box_id=box_id,
        box_name=json.dumps(box_name)[1:-1],
        appliance_user=APPLIANCE_USER,
        appliance_password=password,
    )
    parse_config(text, "quizbox.toml.template")
    return text


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    raise ConfigError(f"cannot write {value!r} to TOML")


def render_web_config(config: dict[str, Any], web_password: str) -> str:
    """web.toml: every section of quizbox.toml, with the admin page's own account in [broker]."""
    lines = [
        "# The admin page's settings, generated by deploy/install.sh from quizbox.toml on every run.",
        "# Do not edit: change quizbox.toml and re-run the installer. The [broker] account is the admin",
        "# page's own (its rights: RIGHTS[\"web\"] in appliance/edge/accounts.py).",
    ]
    for section, values in config.items():
        values = dict(values)
        if section == "broker":
            values["username"] = WEB_USER
            values["password"] = web_password
        lines.append(f"\n[{section}]")
        lines.extend(f"{key} = {toml_value(value)}" for key, value in values.items())
    text = "\n".join(lines) + "\n"
    parse_config(text, "web.toml")
    return text


# -- files -----------------------------------------------------------------------------------------------


def write_file(path: Path, text: str, mode: int) -> str:
    """Write ``text`` atomically with ``mode``; 'created', 'updated' or 'unchanged' (untouched)."""
    existed = path.exists()
    if existed and path.read_text(encoding="utf-8") == text:
        if (path.stat().st_mode & 0o7777) != mode:
            path.chmod(mode)
        return "unchanged"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    tmp.chmod(mode)
    if existed and os.geteuid() == 0:
        old = path.stat()  # keep the owner the installer gave it (mosquitto reads passwd as its group)
        os.chown(tmp, old.st_uid, old.st_gid)
    os.replace(tmp, path)
    return "updated" if existed else "created"


def read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc


def configure(root: Path, box_id: str, box_name: str) -> list[str]:
    """Do the file work under ``root``; one line per file saying what happened."""
    report: list[str] = []
    config_path = root / CONFIG
    if config_path.exists():
        report.append(f"kept     /{CONFIG} (yours: never overwritten)")
    else:
        template = (HERE / "quizbox.toml.template").read_text(encoding="utf-8")
        text = render_config(template, box_id, box_name, new_password())
        report.append(f"{write_file(config_path, text, 0o640):8} /{CONFIG}")
    config = read_toml(config_path)
    parsed = box_config(root)
    broker = parsed.broker

    web_path = root / WEB_CONFIG
    web_password = ""
    if web_path.exists():
        old = read_toml(web_path).get("broker", {})
        if old.get("username") == WEB_USER and isinstance(old.get("password"), str):
            web_password = old["password"]
    web_password = web_password or new_password()
    web_text = render_web_config(config, web_password)
    report.append(f"{write_file(web_path, web_text, 0o640):8} /{WEB_CONFIG}")

    report.append(f"{write_file(root / DROPIN, render_dropin(plugin_path(root)), 0o644):8} /{DROPIN}")
    return report + init_accounts(root, parsed.box.id, broker.username, broker.password)


def box_config(root: Path) -> Config:
    """The box's settings, refused unless the installer can manage its broker accounts."""
    config_path = root / CONFIG
    parsed = parse_config(config_path.read_text(encoding="utf-8"), str(config_path))
    broker = parsed.broker
    if broker.host not in ("127.0.0.1", "localhost", "::1") or not broker.username:
        raise ConfigError(
            f"/{CONFIG}: [broker] must be this box's own mosquitto (host = \"127.0.0.1\") with a username "
            f"and password for the installer to manage its accounts; it says host={broker.host!r}, "
            f"username={broker.username!r}"
        )
    if broker.username == WEB_USER:
        raise ConfigError(f"/{CONFIG}: [broker] username {WEB_USER!r} is the admin page's account")
    return parsed


# -- the broker's accounts ------------------------------------------------------------------------------


def plugin_path(root: Path) -> str:
    """This system's mosquitto_dynamic_security.so (Debian: /usr/lib/<arch>/); the host's in a test root."""
    for base in (root, Path("/")):
        found = sorted(base.glob(f"usr/lib/*/{PLUGIN_NAME}")) + sorted(base.glob(f"usr/lib/{PLUGIN_NAME}"))
        if found:
            return "/" + str(found[0].relative_to(base))
    raise ConfigError(f"mosquitto's {PLUGIN_NAME} is missing (apt-get install mosquitto: 2.0 or newer)")


def render_dropin(plugin: str) -> str:
    text = (REPO / "systemd" / "mosquitto-quizbox.conf").read_text(encoding="utf-8")
    if text.count(PLUGIN_LINE) != 1:
        raise ConfigError(f"systemd/mosquitto-quizbox.conf must have the line {PLUGIN_LINE!r} once")
    return text.replace(PLUGIN_LINE, f"plugin {plugin}")


def init_accounts(root: Path, box: str, appliance_user: str, appliance_password: str) -> list[str]:
    """The plugin's file, made once (``mosquitto_ctrl dynsec init``: mosquitto's own code hashes the
    appliance's password), with the handsets of an old password file moved in."""
    path = root / DYNSEC
    if path.exists():
        return [f"kept     /{DYNSEC} (mosquitto keeps the accounts in it)"]
    exe = shutil.which("mosquitto_ctrl")
    if exe is None:
        raise ConfigError("mosquitto_ctrl is missing (apt-get install mosquitto-clients)")
    path.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([exe, "dynsec", "init", str(path), appliance_user, appliance_password],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0 or not path.exists():
        raise ConfigError(f"mosquitto_ctrl dynsec init failed: {(done.stderr or done.stdout).strip()}")
    path.chmod(0o600)
    appliance_role_in_file(path, box, appliance_user)
    return [f"created  /{DYNSEC}", *migrate(root, path, appliance_user)]


def _write_json(path: Path, data: object) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=1)
    os.replace(tmp, path)


def migrate(root: Path, dynsec: Path, appliance_user: str) -> list[str]:
    """Move the paired handsets of a box installed with a password file into the plugin's file: a
    mosquitto_passwd ``$7$<iterations>$<salt>$<hash>`` line is the plugin's own client entry (salt and
    hash base64, PBKDF2-SHA512), so no password is known or re-hashed. Their roles follow at
    ``--sync-accounts``. A ``$6$`` hash (mosquitto 1.x) cannot move: that handset pairs again."""
    old = root / OLD_PASSWD
    if not old.exists():
        return []
    data = json.loads(dynsec.read_text(encoding="utf-8"))
    report = []
    for number, raw in enumerate(old.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        user, _, hashed = line.partition(":")
        if not is_handset_account(user, appliance_user):
            continue  # the services' accounts are made again from their passwords in the configs
        parts = hashed.split("$")
        if len(parts) != 5 or parts[1] != "7" or not parts[2].isdigit():
            report.append(f"dropped  handset {user} (line {number}: not a $7$ hash): pair it again")
            continue
        data["clients"].append({"username": user, "password": parts[4], "salt": parts[3],
                                "iterations": int(parts[2]), "roles": []})
        report.append(f"migrated handset {user}: it keeps its password")
    _write_json(dynsec, data)
    for name in (OLD_PASSWD, OLD_ACL):
        (root / name).unlink(missing_ok=True)
        report.append(f"removed  /{name} (the accounts are in /{DYNSEC} now)")
    return report


def broker_accounts(root: Path, port: int | None = None) -> tuple[BrokerAccounts, Config]:
    """The box's accounts, reached as the appliance through its own mosquitto."""
    config = box_config(root)
    b = config.broker
    transport = installer_transport(b.host, port or b.port, b.username, b.password)
    return BrokerAccounts(config.box.id, Dynsec(transport), appliance_user=b.username), config


def wait_for_broker(host: str, port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((host, port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise ConfigError(f"mosquitto does not answer on {host}:{port}") from None
            time.sleep(0.2)


def sync_accounts(root: Path, port: int | None = None, timeout: float = 15.0) -> list[str]:
    """Every role with its rights, the admin page's and the pairing account's passwords, every handset's
    role (the broker runs with the plugin)."""
    config = box_config(root)
    wait_for_broker(config.broker.host, port or config.broker.port, timeout)
    try:
        accounts, _ = broker_accounts(root, port)
    except AccountsError as exc:
        raise ConfigError(str(exc)) from exc
    web = read_toml(root / WEB_CONFIG).get("broker", {}).get("password")
    if not isinstance(web, str) or not web:
        raise ConfigError(f"/{WEB_CONFIG} has no [broker] password: run the installer")
    try:
        handsets = accounts.setup(web_password=web)
    except AccountsError as exc:
        raise ConfigError(str(exc)) from exc
    return [f"accounts the broker's roles, the admin page's and the pairing account; {len(handsets)} handsets"]


def add_handset(root: Path, handset_id: str, password: str = "", port: int | None = None) -> tuple[str, list[str]]:
    """Give handset ``handset_id`` a broker account (a new password unless one is given), bound to the
    client id the handset derives from it. Returns the password and what was done."""
    accounts, config = broker_accounts(root, port)
    try:
        protocol.handset_topic(config.box.id, handset_id, "input")
    except protocol.ProtocolError:
        raise ConfigError(
            f"handset id {handset_id!r} must be 1-{protocol.MAX_ID} letters, digits, '-' or '_'"
        ) from None
    if not is_handset_account(handset_id, config.broker.username):
        raise ConfigError(f"handset id {handset_id!r} is reserved for a service account")
    password = password or new_password()
    try:
        accounts.add_handset(handset_id, password)
    except AccountsError as exc:
        raise ConfigError(str(exc)) from exc
    return password, [f"account  handset {handset_id}"]


def remove_handset(root: Path, handset_id: str, port: int | None = None) -> list[str]:
    """Take handset ``handset_id``'s account away (it can no longer log in)."""
    accounts, _ = broker_accounts(root, port)
    try:
        had = accounts.remove_handset(handset_id)
    except AccountsError as exc:
        raise ConfigError(str(exc)) from exc
    if not had:
        raise ConfigError(f"there is no handset account {handset_id!r}")
    return [f"removed  handset {handset_id}'s account"]


def configure_handset(root: Path, box_id: str) -> list[str]:
    """A Pi Zero handset: /etc/quizbox/handset.json for box ``box_id``, written once and then kept."""
    path = root / HANDSET_CONFIG
    if path.exists():
        return [f"kept     /{HANDSET_CONFIG} (yours: never overwritten)"]
    from firmware.pizero import config as handset_config

    settings = json.loads((HERE / "handset.json.template").read_text(encoding="utf-8"))
    settings["box"] = box_id
    text = json.dumps(settings, indent=2) + "\n"
    try:
        handset_config.parse(text, b"\0\0\0")
    except handset_config.ConfigError as exc:
        raise ConfigError(f"handset settings for box {box_id!r}: {exc}") from None
    return [f"{write_file(path, text, 0o640):8} /{HANDSET_CONFIG}"]


# -- the league (docs/league.md) ---------------------------------------------------------------------------

LEAGUE_DROPIN = "etc/mosquitto/conf.d/quizbox-league.conf"
LEAGUE_CA = "etc/quizbox/league/ca.pem"
LEAGUE_BRIDGE = "quizbox-league"


def _check_address(host: str, port: int) -> None:
    if not host or any(c.isspace() for c in host) or len(host) > 253:
        raise ConfigError(f"the league's broker address {host!r} is not a host name or address")
    if not 1 <= port <= 65535:
        raise ConfigError(f"the league's broker port {port} is not 1-65535")


def render_bridge(box: str, host: str, port: int, password: str, cafile: str,
                  restart: tuple[int, int] = (5, 60)) -> str:
    """A member box's bridge to the league's broker: TLS (the league's CA), the box's own league account,
    QoS 1 both ways, a persistent session (``cleansession false``: the league's broker queues the plans and
    acks for a box that is offline, this broker queues the results, kept in its persistence file), and a
    reconnect every ``restart`` (first, most) seconds."""
    protocol.box_topic(box)
    _check_address(host, port)
    if not password or any(c.isspace() for c in password):
        raise ConfigError("the league account's password is empty or has spaces")
    first, most = restart
    if not 1 <= first <= most:
        raise ConfigError(f"restart_timeout {first} {most}: the first wait must be 1 s or more, at most the last")
    return "\n".join([
        "# Quizbox: this box's bridge to its league (docs/league.md). Written by deploy/configure.py",
        "# --join-league; do not edit (join again to change it). Needs 'persistence true' (quizbox.conf).",
        f"connection {LEAGUE_BRIDGE}",
        f"address {host}:{port}",
        f"bridge_cafile {cafile}",
        "bridge_insecure false",
        "bridge_protocol_version mqttv311",
        f"remote_username {box}",
        f"remote_password {password}",
        f"remote_clientid {league_topics.bridge_client_id(box)}",
        f"local_clientid {league_topics.bridge_client_id(box)}-local",
        "cleansession false",
        "try_private true",  # the league sees a bridge: retained plans and acks stay retained here
        "notifications false",
        f"restart_timeout {first} {most}",
        "keepalive_interval 30",
        f"topic league/result/{box}/# out 1",
        "topic league/plan/# in 1",
        f"topic league/ack/{box}/# in 1",
        f"topic {league_topics.TABLE_TOPIC} in 1",
        "",
    ])


def join_league(root: Path, box: str, host: str, port: int, password: str, ca_pem: str,
                restart: tuple[int, int] = (5, 60)) -> list[str]:
    """Write the league's CA and this box's bridge under ``root``; everything is checked before anything is
    written, so a bad join changes no file. mosquitto reads a new bridge when it restarts."""
    if not ca_pem.startswith("-----BEGIN CERTIFICATE-----") or "-----END CERTIFICATE-----" not in ca_pem:
        raise ConfigError("the league's CA is not a PEM certificate")
    text = render_bridge(box, host, port, password, "/" + LEAGUE_CA, restart)
    if root != Path("/"):
        text = text.replace(f"bridge_cafile /{LEAGUE_CA}", f"bridge_cafile {root / LEAGUE_CA}")
    return [f"{write_file(root / LEAGUE_CA, ca_pem, 0o644):8} /{LEAGUE_CA}",
            f"{write_file(root / LEAGUE_DROPIN, text, 0o640):8} /{LEAGUE_DROPIN} (restart mosquitto to use it)"]


def parse_address(address: str) -> tuple[str, int | None]:
    """``host`` or ``host:port`` (``[v6]:port`` too) as typed for the league's broker; ConfigError if malformed."""
    text = address.strip()
    host, port = text, None
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest and not rest.startswith(":"):
            raise ConfigError(f"the league's broker address {address!r} is not host[:port]")
        text_port = rest[1:]
    elif text.count(":") == 1:
        host, _, text_port = text.partition(":")
    else:
        text_port = ""
    if text_port:
        if not text_port.isdigit():
            raise ConfigError(f"the league's broker address {address!r}: the port {text_port!r} is not a number")
        port = int(text_port)
    if not host or not all(c.isalnum() or c in ".-_:" for c in host):
        raise ConfigError(f"the league's broker address {address!r} is not a host name or address")
    _check_address(host, port or 1)
    return host, port


def redeem_code(url: str, box: str, secret: str, timeout: float = 15.0) -> object:
    """POST the code's box and secret to the league's page once; its JSON answer (ConfigError if it cannot
    be reached or says no, with the league's own words)."""
    import urllib.error
    import urllib.request

    body = json.dumps({"box": box, "secret": secret}).encode()
    request = urllib.request.Request(url + "/league/join", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:  # noqa: S310 (http(s) only: joincode)
            return json.loads(answer.read(65536))
    except urllib.error.HTTPError as exc:
        try:
            said = json.loads(exc.read(4096)).get("error", "")
        except (ValueError, AttributeError):
            said = ""
        raise ConfigError(f"the league refused the join code: {said or exc}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise ConfigError(f"cannot reach the league's page at {url}: {getattr(exc, 'reason', exc)}; "
                          "nothing was changed, try again when it is reachable") from None
    except ValueError:
        raise ConfigError(f"the league's page at {url} did not answer with JSON: is it the league box?") from None


def join_with_code(root: Path, address: str, code_text: str, restart: tuple[int, int] = (5, 60),
                   timeout: float = 15.0) -> list[str]:
    """Join this box to a league (``--join-league ADDRESS CODE``, the admin page's form): the league broker's
    address and the league box's one-time code. Everything that can be checked here is checked before the
    code is used (a used code is gone); then the league's answer, then the files (:func:`join_league`)."""
    from appliance.league.joincode import check_answer, parse_code
    from appliance.league.payloads import LeagueError

    try:
        host, port = parse_address(address)
        code = parse_code(code_text)
        box = box_config(root).box.id
        if code.box != box:
            raise ConfigError(f"this join code is for box {code.box!r}, and this box is {box!r}: "
                              "ask the league for a code for this box")
        render_bridge(box, host, port or 8883, "check", "/" + LEAGUE_CA, restart)
        for target in (root / LEAGUE_DROPIN, root / LEAGUE_CA):
            folder = next(p for p in (target.parent, *target.parent.parents) if p.exists())
            if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
                raise ConfigError(f"this program cannot write /{target.relative_to(root)}: join as root "
                                  f"(sudo quizbox league join ADDRESS CODE); the code was not used")
        answer = check_answer(code, redeem_code(code.url, code.box, code.secret, timeout))
    except LeagueError as exc:
        raise ConfigError(str(exc)) from None
    lines = join_league(root, box, host, port or int(answer["port"]), answer["password"], answer["ca"], restart)
    return [*lines, f"joined the league at {host}:{port or answer['port']} as {box}"]


# -- a league join asked on the admin page (docs/league.md "Joining from the admin page") ------------------
# The admin page runs as user quizbox on a read-only system: it writes the request (0600) into a folder of its
# own; quizbox-league-join.path starts quizbox-league-join.service (root), which runs
# ``configure.py --join-league-request``: the request is checked again here, the same join_with_code joins,
# mosquitto restarts only after a join, and the outcome goes to a result file the page reads.

LEAGUE_REQUEST = "var/lib/quizbox/league-join/request.json"
LEAGUE_RESULT = "var/lib/quizbox-league-join/result.json"  # the root unit's StateDirectory: root's folder
REQUEST_BYTES = 4096
REQUEST_FIELDS = {"request": 32, "address": 260, "code": 2000}  # each field's most characters


def _printable(value: object, name: str, most: int) -> str:
    if not isinstance(value, str) or not value or len(value) > most or not value.isprintable():
        raise ConfigError(f"the join request's {name} is not 1-{most} printable characters: nothing was changed")
    return value


def check_join_request(data: object) -> dict[str, str]:
    """The request's fields, each checked (it comes from the less trusted admin page); ConfigError if not."""
    if not isinstance(data, dict) or set(data) != set(REQUEST_FIELDS):
        raise ConfigError("the join request is not {request, address, code}: nothing was changed")
    fields = {name: _printable(data[name], name, most) for name, most in REQUEST_FIELDS.items()}
    if not all(c in "0123456789abcdef" for c in fields["request"]):
        raise ConfigError("the join request's id is not hexadecimal: nothing was changed")
    return fields


def write_join_request(root: Path, address: str, code: str) -> str:
    """The admin page's side: the request for the root unit (mode 0600, replaced atomically); its id."""
    request = secrets.token_hex(8)
    fields = check_join_request({"request": request, "address": address.strip(), "code": code.strip()})
    path = root / LEAGUE_REQUEST
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{request}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(fields, out)
    os.replace(tmp, path)
    return request


def read_join_request(path: Path) -> dict[str, str]:
    """The root side's read: a regular file (a link is not followed), at most REQUEST_BYTES, JSON, checked."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise ConfigError(f"the join request cannot be read ({exc.strerror}): nothing was changed") from None
    with os.fdopen(fd, "rb") as source:
        if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
            raise ConfigError("the join request is not a plain file: nothing was changed")
        raw = source.read(REQUEST_BYTES + 1)
    if len(raw) > REQUEST_BYTES:
        raise ConfigError(f"the join request is longer than {REQUEST_BYTES} bytes: nothing was changed")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ConfigError("the join request is not JSON: nothing was changed") from None
    return check_join_request(data)


def write_join_result(root: Path, result: dict[str, Any]) -> None:
    path = root / LEAGUE_RESULT
    path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
    write_file(path, json.dumps(result, indent=1) + "\n", 0o644)


def read_join_result(root: Path) -> dict[str, Any] | None:
    """The last outcome (the admin page's side), or None when there is none or it cannot be read."""
    try:
        data = json.loads((root / LEAGUE_RESULT).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def restart_broker() -> str:
    """``systemctl restart mosquitto.service`` (no shell); '' when it restarted, else systemd's words."""
    done = subprocess.run(["systemctl", "restart", "mosquitto.service"], capture_output=True, text=True,
                          timeout=90, check=False)
    return "" if done.returncode == 0 else (done.stderr.strip() or f"systemctl exited {done.returncode}")[:300]


def join_from_request(root: Path, restart: Any = restart_broker, timeout: float = 15.0) -> dict[str, Any]:
    """The root unit's work on one request: take it (it is removed whatever happens, so it is tried once),
    check it, join with :func:`join_with_code`, restart the broker only after a join, write the outcome.
    ``restart`` is called with no argument and returns '' or why it failed."""
    path = root / LEAGUE_REQUEST
    if not os.path.lexists(path):
        return {}
    try:
        fields: dict[str, str] = {}
        try:
            fields = read_join_request(path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        lines = join_with_code(root, fields["address"], fields["code"], timeout=timeout)
    except (ConfigError, AccountsError, protocol.ProtocolError) as exc:
        result: dict[str, Any] = {"request": fields.get("request", ""), "state": "refused", "words": [str(exc)]}
    except Exception as exc:  # a bug, not a refusal: the page is told, the unit fails with the traceback
        write_join_result(root, {"request": fields.get("request", ""), "state": "failed", "at": int(time.time()),
                                 "words": [f"the join failed unexpectedly ({type(exc).__name__}: {exc}); "
                                           "see sudo journalctl -u quizbox-league-join"]})
        raise
    else:
        why = restart()
        lines.append("mosquitto restarted: the bridge to the league is up" if not why else
                     f"the bridge is written, but mosquitto did not restart ({why}): sudo systemctl restart mosquitto")
        result = {"request": fields["request"], "state": "ok" if not why else "restart-failed", "words": lines}
    result["at"] = int(time.time())
    write_join_result(root, result)
    return result


def render_league_broker(plugin: str, dynsec_file: str, certfile: str, keyfile: str, tls_port: int = 8883,
                         local_port: int = 1883) -> str:
    """The league box's broker: members only over TLS, the league's own service on loopback, accounts and
    rights by the dynamic security plugin (appliance/league/topics.py), retained results persisted."""
    return "\n".join([
        "# Quizbox league broker (docs/league.md), written by deploy/configure.py.",
        "per_listener_settings false",
        "allow_anonymous false",
        f"plugin {plugin}",
        f"plugin_opt_config_file {dynsec_file}",
        "message_size_limit 262144",
        "set_tcp_nodelay true",
        "max_queued_messages 100000",
        "max_inflight_messages 0",
        "persistent_client_expiration 30d",
        f"listener {local_port} 127.0.0.1",
        f"listener {tls_port}",
        f"certfile {certfile}",
        f"keyfile {keyfile}",
        "",
    ])


def league_certificates(directory: Path, names: list[str]) -> list[str]:
    """A CA and the league broker's certificate for ``names`` (host names or IP addresses) in
    ``directory`` (ca.pem, server.pem, server.key), made once with the openssl CLI."""
    exe = shutil.which("openssl")
    if exe is None:
        raise ConfigError("openssl is missing (apt-get install openssl)")
    if not names:
        raise ConfigError("the league broker's certificate needs at least one host name or address")
    directory.mkdir(parents=True, exist_ok=True)
    if (directory / "server.pem").exists():
        return [f"kept     {directory}/server.pem"]
    san = ",".join(("IP:" if n.replace(".", "").isdigit() or ":" in n else "DNS:") + n for n in names)

    def run(*args: str) -> None:
        done = subprocess.run([exe, *args], capture_output=True, text=True, check=False, cwd=directory)
        if done.returncode != 0:
            raise ConfigError(f"openssl {args[0]} failed: {done.stderr.strip()[:300]}")

    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "3650",
        "-subj", "/CN=Quizbox league CA", "-keyout", "ca.key", "-out", "ca.pem")
    run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", f"/CN={names[0]}",
        "-keyout", "server.key", "-out", "server.csr")
    (directory / "san.ext").write_text(f"subjectAltName={san}\n", encoding="utf-8")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-days", "3650", "-extfile", "san.ext", "-out", "server.pem")
    (directory / "ca.key").chmod(0o600)
    key = directory / "server.key"
    key.chmod(0o640)  # mosquitto reads it after dropping root: its group gets it
    if os.geteuid() == 0:
        import grp

        with contextlib.suppress(KeyError):
            os.chown(key, 0, grp.getgrnam("mosquitto").gr_gid)
    return [f"created  {directory}/ca.pem, server.pem ({san})"]


def league_role_in_file(path: Path, user: str) -> None:
    """The league service's account gets its own role (every league topic and the plugin's) instead of
    ``mosquitto_ctrl dynsec init``'s admin role, before mosquitto runs."""
    data = json.loads(path.read_text(encoding="utf-8"))
    role = league_topics.SERVICE_ROLE
    data["roles"] = [r for r in data["roles"] if r.get("rolename") not in ("admin", role)]
    data["roles"].append({"rolename": role, "acls": league_topics.acl_entries(league_topics.SERVICE_RIGHTS)})
    for client in data["clients"]:
        if client.get("username") == user:
            client["roles"] = [{"rolename": role}]
    _write_json(path, data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default="/", help="install under this directory (default /)")
    parser.add_argument("--box-id", default="quizbox", help="box id for a first install (default quizbox)")
    parser.add_argument("--box-name", default="Quizbox", help="box name for a first install")
    parser.add_argument("--handset", action="store_true", help="a Pi Zero handset of box --box-id")
    parser.add_argument("--add-handset", metavar="ID", help="give handset ID a broker account; prints its password")
    parser.add_argument("--remove-handset", metavar="ID", help="take handset ID's broker account away")
    parser.add_argument("--sync-accounts", action="store_true",
                        help="give the running broker's accounts their rights and passwords")
    parser.add_argument("--port", type=int, help="the broker's port (default: quizbox.toml's)")
    parser.add_argument("--join-league", nargs=2, metavar=("ADDRESS", "CODE"),
                        help="join a league: its broker's host[:port] and the league box's one-time join code")
    parser.add_argument("--join-league-request", action="store_true",
                        help="join with the request the admin page wrote (quizbox-league-join.service, as root)")
    args = parser.parse_args(argv)
    try:
        if args.join_league:
            lines = join_with_code(Path(args.root), *args.join_league)
        elif args.join_league_request:
            result = join_from_request(Path(args.root))
            lines = [f"league join {result['state']}: {word}" for word in result.get("words", [])] or [
                f"no join request at /{LEAGUE_REQUEST}"]
        elif args.add_handset:
            password, lines = add_handset(Path(args.root), args.add_handset, port=args.port)
            lines.append(f"handset {args.add_handset}: broker user name {args.add_handset}, password {password}")
        elif args.remove_handset:
            lines = remove_handset(Path(args.root), args.remove_handset, port=args.port)
        elif args.sync_accounts:
            lines = sync_accounts(Path(args.root), port=args.port)
        elif args.handset:
            lines = configure_handset(Path(args.root), args.box_id)
        else:
            lines = configure(Path(args.root), args.box_id, args.box_name)
        for line in lines:
            print(f"configure: {line}")
    except (ConfigError, AccountsError, protocol.ProtocolError) as exc:
        print(f"configure: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
