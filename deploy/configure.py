"""The installer's file work: Quizbox config, admin-page config and the broker's accounts and ACL.

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
* ``/etc/quizbox/mosquitto/passwd``: mosquitto's password file (``user:$7$101$salt$hash``, PBKDF2-SHA512
  as ``mosquitto_passwd`` writes it). The appliance's and the admin page's lines are set from the two
  configs; every other line (paired handsets) is kept as it is.
* ``/etc/quizbox/mosquitto/acl``: rendered from acl.template on every run: the appliance's and the admin
  page's rights, then one block per handset account in the password file (whose user name is its
  handset id). Pairing adds a password line and renders the ACL again with :func:`render_acl`.

Files holding passwords are written 0640 (the installer gives them to group quizbox or mosquitto; a
rewrite keeps the owner and group the file had).

Until pairing does it from the admin page, a handset gets its broker account by hand:

    sudo python3 deploy/configure.py --add-handset esp32-a1b2c3      # prints its password
    sudo python3 deploy/configure.py --remove-handset esp32-a1b2c3

(quizbox-mosquitto-reload.path has mosquitto read the new files at once.)
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import os
import secrets
import sys
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from appliance.config import Config, parse_config  # noqa: E402  (after the path set-up above)
from appliance.errors import ConfigError  # noqa: E402
from firmware import protocol  # noqa: E402

APPLIANCE_USER = "appliance"
WEB_USER = "web"
# Handset ids that can never be handsets' broker accounts: they are the two accounts above.
RESERVED_IDS = (APPLIANCE_USER, WEB_USER)
ITERATIONS = 101  # mosquitto_passwd's own default for $7$ hashes
SALT_BYTES = 12

HANDSET_CONFIG = "etc/quizbox/handset.json"
CONFIG = "etc/quizbox/quizbox.toml"
WEB_CONFIG = "etc/quizbox/web.toml"
PASSWD = "etc/quizbox/mosquitto/passwd"
ACL = "etc/quizbox/mosquitto/acl"


# -- mosquitto password file ------------------------------------------------------------------------


def hash_password(password: str, salt: bytes | None = None, iterations: int = ITERATIONS) -> str:
    """A mosquitto 2.0 ``$7$`` hash: PBKDF2-HMAC-SHA512, 64-byte key, base64 salt and key."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    key = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations, 64)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(key).decode()}"


def verify_password(password: str, hashed: str) -> bool:
    """True if ``hashed`` (a ``$7$`` or ``$6$`` line part) is ``password``'s hash."""
    parts = hashed.split("$")
    try:
        if len(parts) == 5 and parts[1] == "7":
            iterations, salt, key = int(parts[2]), base64.b64decode(parts[3]), base64.b64decode(parts[4])
            got = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations, len(key))
        elif len(parts) == 4 and parts[1] == "6":  # mosquitto 1.x: SHA512(password + salt)
            salt, key = base64.b64decode(parts[2]), base64.b64decode(parts[3])
            got = hashlib.sha512(password.encode() + salt).digest()
        else:
            return False
    except ValueError:
        return False
    return hmac.compare_digest(got, key)


def parse_passwd(text: str) -> dict[str, str]:
    """``user -> hash`` in file order; blank lines and ``#`` comments are dropped."""
    accounts: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        user, sep, hashed = line.partition(":")
        if not sep or not user or not hashed:
            raise ConfigError(f"password file line {number} is not user:hash: {line[:40]!r}")
        accounts[user] = hashed
    return accounts


def format_passwd(accounts: dict[str, str]) -> str:
    return "".join(f"{user}:{hashed}\n" for user, hashed in accounts.items())


def set_account(accounts: dict[str, str], user: str, password: str) -> bool:
    """Give ``user`` ``password`` in ``accounts``; False (nothing changed) if it already has it."""
    if ":" in user or not user:
        raise ConfigError(f"broker user name {user!r} may not be empty or hold ':'")
    current = accounts.get(user)
    if current is not None and verify_password(password, current):
        return False
    accounts[user] = hash_password(password)
    return True


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
        "# page's own (see /etc/quizbox/mosquitto/acl).",
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


ACL_HANDSET_MARK = "#@handset"


def render_acl(template: str, box_id: str, appliance_user: str, handsets: list[str]) -> str:
    """The ACL: the template's box part, then its handset block once per handset id, in order.

    The block starts at the line beginning with ``#@handset``; ``{handset}`` in it is the handset id.
    """
    protocol.box_topic(box_id)
    head, mark, block = template.partition(ACL_HANDSET_MARK)
    if not mark:
        raise ConfigError(f"ACL template has no {ACL_HANDSET_MARK} line")
    _, _, block = block.partition("\n")
    text = head.format(box=box_id, appliance=appliance_user, web=WEB_USER)
    for handset in handsets:
        protocol.handset_topic(box_id, handset, "input")  # ProtocolError for an id topics cannot carry
        if handset in RESERVED_IDS:
            raise ConfigError(f"handset id {handset!r} is reserved for the {handset} account")
        text += "\n" + block.format(box=box_id, handset=handset)
    return text


def handset_accounts(accounts: dict[str, str], appliance_user: str) -> tuple[list[str], list[str]]:
    """``(handset ids, ignored names)``: accounts other than the appliance's and the admin page's;
    names that cannot be a handset id (no topic can carry them) are ignored, and get no rights."""
    handsets: list[str] = []
    ignored: list[str] = []
    for user in accounts:
        if user in (appliance_user, WEB_USER):
            continue
        try:
            protocol.handset_topic("x", user, "input")
        except protocol.ProtocolError:
            ignored.append(user)
        else:
            handsets.append(user)
    return handsets, ignored


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

    accounts = read_accounts(root)
    set_account(accounts, broker.username, broker.password)
    set_account(accounts, WEB_USER, web_password)
    return report + write_accounts(root, parsed, accounts)


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


def read_accounts(root: Path) -> dict[str, str]:
    path = root / PASSWD
    return parse_passwd(path.read_text(encoding="utf-8")) if path.exists() else {}


def write_accounts(root: Path, config: Config, accounts: dict[str, str]) -> list[str]:
    """The password file, then the ACL rendered for its handset accounts (in that order: a handset
    gets its rights in the same reload of mosquitto as its account, never before)."""
    report = [f"{write_file(root / PASSWD, format_passwd(accounts), 0o640):8} /{PASSWD}"]
    handsets, ignored = handset_accounts(accounts, config.broker.username)
    template = (HERE / "acl.template").read_text(encoding="utf-8")
    acl = render_acl(template, config.box.id, config.broker.username, handsets)
    for user in ignored:
        report.append(f"ignored  broker account {user!r}: not a valid handset id, so it may do nothing")
    report.append(f"{write_file(root / ACL, acl, 0o640):8} /{ACL}")
    return report


def add_handset(root: Path, handset_id: str, password: str = "") -> tuple[str, list[str]]:
    """Give handset ``handset_id`` a broker account (a new password unless one is given): by hand
    until pairing does it. Returns the password and what was written."""
    config = box_config(root)
    try:
        protocol.handset_topic(config.box.id, handset_id, "input")
    except protocol.ProtocolError:
        raise ConfigError(
            f"handset id {handset_id!r} must be 1-{protocol.MAX_ID} letters, digits, '-' or '_'"
        ) from None
    if handset_id in (config.broker.username, WEB_USER):
        raise ConfigError(f"handset id {handset_id!r} is reserved for the {handset_id} account")
    accounts = read_accounts(root)
    password = password or new_password()
    set_account(accounts, handset_id, password)
    return password, write_accounts(root, config, accounts)


def remove_handset(root: Path, handset_id: str) -> list[str]:
    """Take handset ``handset_id``'s account away (it can no longer log in)."""
    config = box_config(root)
    accounts = read_accounts(root)
    if handset_id in (config.broker.username, WEB_USER) or handset_id not in accounts:
        raise ConfigError(f"there is no handset account {handset_id!r}")
    del accounts[handset_id]
    return write_accounts(root, config, accounts)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default="/", help="install under this directory (default /)")
    parser.add_argument("--box-id", default="quizbox", help="box id for a first install (default quizbox)")
    parser.add_argument("--box-name", default="Quizbox", help="box name for a first install")
    parser.add_argument("--handset", action="store_true", help="a Pi Zero handset of box --box-id")
    parser.add_argument("--add-handset", metavar="ID", help="give handset ID a broker account; prints its password")
    parser.add_argument("--remove-handset", metavar="ID", help="take handset ID's broker account away")
    args = parser.parse_args(argv)
    try:
        if args.add_handset:
            password, lines = add_handset(Path(args.root), args.add_handset)
            lines.append(f"handset {args.add_handset}: broker user name {args.add_handset}, password {password}")
        elif args.remove_handset:
            lines = remove_handset(Path(args.root), args.remove_handset)
        elif args.handset:
            lines = configure_handset(Path(args.root), args.box_id)
        else:
            lines = configure(Path(args.root), args.box_id, args.box_name)
        for line in lines:
            print(f"configure: {line}")
    except (ConfigError, protocol.ProtocolError) as exc:
        print(f"configure: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
