# A handset's config file, shared by the ports (config.json; see firmware/esp32/config.example.json and
# docs/hardware.md "Provisioning"): each port passes its own defaults (pins, Wi-Fi keys or none) and id
# prefix. Missing keys take defaults; a wrong value raises ConfigError with a message short enough for
# the OLED.

import json

from firmware import protocol


class ConfigError(ValueError):
    pass


def _merge(defaults, given, where):
    if not isinstance(given, dict):
        raise ConfigError(where + " must be an object")
    out = {}
    for key in defaults:
        value = given.get(key, defaults[key])
        if isinstance(defaults[key], dict) and key in given:
            value = _merge(defaults[key], given[key], key)
        out[key] = value
    for key in given:
        if key not in defaults:
            raise ConfigError("unknown key " + str(key)[:20])
    return out


def parse(text, unique_id, defaults, prefix):
    """The config from JSON text; ``defaults`` and the handset id ``prefix`` differ per board (the
    Pi Zero port has its own pins and no Wi-Fi keys: its OS joins the network)."""
    try:
        given = json.loads(text)
    except ValueError:
        raise ConfigError("config.json is not JSON") from None
    cfg = _merge(defaults, given, "config")
    if "wifi" in defaults and not cfg["wifi"]["ssid"]:
        raise ConfigError("wifi ssid missing")
    if cfg["handset"] is None:
        cfg["handset"] = prefix + "".join(f"{b:02x}" for b in unique_id[-3:])
    try:
        protocol.box_topic(cfg["box"])
        protocol.handset_topic(cfg["box"], cfg["handset"], "hello")
    except protocol.ProtocolError as err:
        raise ConfigError(str(err)) from None
    if cfg["name"] is not None and (not isinstance(cfg["name"], str) or len(cfg["name"]) > protocol.MAX_NAME):
        raise ConfigError("name: up to 24 chars")
    if cfg["layout"] not in (protocol.LAYOUT_KEYPAD, protocol.LAYOUT_FIVE):
        raise ConfigError("layout: keypad or five")
    port = cfg["broker"]["port"]
    if not isinstance(port, int) or not 0 < port < 65536:
        raise ConfigError("broker port 1-65535")
    keepalive = cfg["broker"]["keepalive"]
    if not isinstance(keepalive, int) or not 5 <= keepalive <= 300:
        raise ConfigError("keepalive 5-300 s")
    _check_account(cfg)
    return cfg


def _check_account(cfg):
    """The broker account: a user name that is a non-empty string or null, a password string."""
    broker = cfg["broker"]
    user = broker["username"]
    if user is not None and (not isinstance(user, str) or not user or len(user) > 64 or ":" in user):
        raise ConfigError("username: text, no ':'")
    password = broker["password"]
    if not isinstance(password, str) or len(password) > 64:
        raise ConfigError("password: text <= 64")
    for c in password:
        if not 33 <= ord(c) < 127:
            raise ConfigError("password: ASCII, no space")


def broker_host(cfg):
    """The configured broker host, else the box's mDNS host name ``<box>.local`` (the appliance announces
    itself under that name: ``_`` becomes ``-``, lower case)."""
    host = cfg["broker"]["host"]
    if host:
        return host
    return cfg["box"].replace("_", "-").lower() + ".local"


def load(path, unique_id, defaults, prefix):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        raise ConfigError("no " + path) from None
    return parse(text, unique_id, defaults, prefix)
