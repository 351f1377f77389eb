"""The appliance's configuration: one TOML file outside the code (``/etc/quizbox/quizbox.toml`` on a Pi).

Every key has a default, so an empty or missing file is a working demo box. A bad file is refused as a
whole with :class:`ConfigError` naming the file, the key and what was expected; nothing is half-applied.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from appliance.errors import ConfigError
from appliance.infra.settings import with_stored
from firmware import protocol

DEFAULT_PATH = Path("/etc/quizbox/quizbox.toml")
ENV_PATH = "QUIZBOX_CONFIG"


@dataclass(frozen=True)
class BoxConfig:
    id: str = "quizbox"
    name: str = "Quizbox"
    data_dir: str = "~/.local/share/quizbox"
    join: str = "open"  # "open": any handset is accepted; "approve": the admin accepts each one
    media_cap_mb: int = 500  # the most the decks' pictures and sounds take on the box's disk (issue 34)


@dataclass(frozen=True)
class BrokerConfig:
    host: str = ""  # empty: start a local mosquitto (or the embedded broker) on a free loopback port
    port: int = 1883
    username: str = ""
    password: str = ""
    tls: bool = False
    ca_file: str = ""
    keepalive: int = protocol.KEEPALIVE  # s: the same as the handsets' (docs/protocol.md)


@dataclass(frozen=True)
class BoardConfig:
    display: str = "auto"  # auto | window | kmsdrm | headless
    width: int = 1920
    height: int = 1080
    sound: bool = False
    audio_device: str = ""  # the cards' sounds: an SDL audio device name; empty: the system's default (HDMI)


@dataclass(frozen=True)
class WebConfig:
    host: str = "0.0.0.0"
    port: int = 8080
    phones: int = 120  # phone places: 40 teams with 3 phones each (the Settings page; docs/security.md)


@dataclass(frozen=True)
class GpioConfig:
    enabled: bool = False
    next_pin: int = 17
    pause_pin: int = 27
    led_pin: int = 22


@dataclass(frozen=True)
class GameConfig:
    answer_seconds: int = 0  # time limit for entries where a round leaves its own blank; 0 = none
    fast_play_seconds: int = 10


@dataclass(frozen=True)
class Config:
    box: BoxConfig = field(default_factory=BoxConfig)
    broker: BrokerConfig = field(default_factory=BrokerConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    web: WebConfig = field(default_factory=WebConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    game: GameConfig = field(default_factory=GameConfig)
    source: str = "(defaults)"

    @property
    def data_path(self) -> Path:
        return Path(os.path.expanduser(self.box.data_dir))


_SECTIONS: dict[str, type] = {
    "box": BoxConfig,
    "broker": BrokerConfig,
    "board": BoardConfig,
    "web": WebConfig,
    "gpio": GpioConfig,
    "game": GameConfig,
}

_CHOICES = {
    ("box", "join"): ("open", "approve"),
    ("board", "display"): ("auto", "window", "kmsdrm", "headless"),
}


def parse_config(text: str, source: str = "<config>") -> Config:
    """Parse TOML text into a :class:`Config`; :class:`ConfigError` names the key and the problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from exc
    sections: dict[str, Any] = {}
    for name, value in data.items():
        if name not in _SECTIONS:
            raise ConfigError(f"{source}: unknown section [{name}] (known: {', '.join(_SECTIONS)})")
        if not isinstance(value, dict):
            raise ConfigError(f"{source}: [{name}] must be a table")
        sections[name] = _section(source, name, _SECTIONS[name], value)
    return Config(**sections, source=source)


def _section(source: str, name: str, cls: type, values: dict[str, Any]) -> Any:
    known = {f.name: f for f in fields(cls)}
    default = cls()
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        if key not in known:
            raise ConfigError(f"{source}: unknown key {name}.{key} (known: {', '.join(known)})")
        expected = type(getattr(default, key))
        if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise ConfigError(f"{source}: {name}.{key} must be a whole number, got {value!r}")
        if expected is not int and not isinstance(value, expected):
            raise ConfigError(f"{source}: {name}.{key} must be {expected.__name__}, got {value!r}")
        choices = _CHOICES.get((name, key))
        if choices and value not in choices:
            raise ConfigError(f"{source}: {name}.{key} must be one of {', '.join(choices)}, got {value!r}")
        if key.endswith("port") and not 0 < value < 65536:
            raise ConfigError(f"{source}: {name}.{key} must be a port 1-65535, got {value}")
        if key == "media_cap_mb" and value < 1:
            raise ConfigError(f"{source}: {name}.{key} must be at least 1 (megabytes), got {value}")
        kwargs[key] = value
    section = replace(default, **kwargs)
    if name == "box":
        _check_box_id(source, section.id)
    return section


def _check_box_id(source: str, box_id: str) -> None:
    from firmware import protocol

    try:
        protocol.box_topic(box_id)
    except protocol.ProtocolError as exc:
        raise ConfigError(
            f"{source}: box.id {box_id!r} must be 1-{protocol.MAX_ID} letters, digits, '-' or '_'"
        ) from exc


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Load the config from ``path``, ``$QUIZBOX_CONFIG`` or the default path; defaults if absent; then the
    values set on the admin page's Settings page (:mod:`appliance.infra.settings`) over it.

    A path given explicitly (argument or environment) must exist.
    """
    explicit = path if path is not None else os.environ.get(ENV_PATH)
    target = Path(explicit) if explicit else DEFAULT_PATH
    if not target.exists():
        if explicit:
            raise ConfigError(f"config file {target} does not exist")
        return with_stored(Config())
    try:
        text = target.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config file {target}: {exc}") from exc
    return with_stored(parse_config(text, str(target)))
