"""The box's settings the quizmaster sets on the admin page (Settings), stored beside the box's data.

Each setting is a :class:`Setting` in :data:`SETTINGS`: the key of the config field it sets (``box.name``),
its label, kind and limits, and when it takes effect. A new setting is one more entry (and, if it is new to
the config, one more field in :mod:`appliance.infra.config`).

The values live in ``<data_dir>/settings.json`` (written whole or not at all). :func:`load_config` lays them
over the TOML file, so the quiz program and the admin page read the same values; a value set on the admin
page wins over the TOML file. A bad value is refused with :class:`~appliance.errors.ConfigError` naming the
setting, what it got and what it takes; nothing is stored until every value of a form is good.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from appliance.errors import ConfigError
from appliance.infra.files import write_whole

if TYPE_CHECKING:
    from appliance.infra.config import Config

FILE = "settings.json"
MAX_TEXT = 24

C = TypeVar("C")

RESOLUTIONS = (("1920x1080", "1920 x 1080 (Full HD)"), ("1280x720", "1280 x 720 (HD ready)"),
               ("3840x2160", "3840 x 2160 (4K: drawn at Full HD and scaled by the TV)"))


@dataclass(frozen=True)
class Setting:
    """One setting: ``key`` is ``section.field`` of the config (``board.resolution`` sets two fields)."""

    key: str
    label: str
    kind: str  # "text" | "whole" | "choice" | "flag"
    help: str
    applies: str  # when it takes effect, in the quizmaster's words
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    fields: tuple[str, ...] = ()  # the config fields it sets, when not the one its key names
    blank: bool = False  # a text setting that may be left empty (its default then)

    @property
    def section(self) -> str:
        return self.key.split(".", 1)[0]

    def targets(self) -> tuple[str, ...]:
        return self.fields or (self.key.split(".", 1)[1],)

    def show(self, config: Any) -> str:
        """The setting's value in ``config``, as the form shows it."""
        section = getattr(config, self.section)
        values = [getattr(section, name) for name in self.targets()]
        if self.kind == "flag":
            return "on" if values[0] else "off"
        return "x".join(str(v) for v in values)

    def parse(self, raw: object) -> dict[str, Any]:
        """The config fields ``raw`` sets; ConfigError says what the setting takes."""
        text = str(raw).strip() if raw is not None else ""
        if self.kind == "text":
            if not text and not self.blank:
                raise ConfigError(f"{self.label}: cannot be empty")
            if len(text) > MAX_TEXT:
                raise ConfigError(f"{self.label}: at most {MAX_TEXT} characters, got {len(text)}")
            if any(not c.isprintable() for c in text):
                raise ConfigError(f"{self.label}: letters, digits, spaces and punctuation only")
            return {self.targets()[0]: text}
        if self.kind == "whole":
            if not text.isdigit():
                raise ConfigError(f"{self.label}: a whole number from {self.low} to {self.high}, got {text!r}")
            value = int(text)
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                raise ConfigError(f"{self.label}: from {self.low} to {self.high}, got {value}")
            return {self.targets()[0]: value}
        if self.kind == "flag":
            if text not in ("on", "off"):
                raise ConfigError(f"{self.label}: on or off, got {text!r}")
            return {self.targets()[0]: text == "on"}
        if text not in dict(self.choices):
            raise ConfigError(f"{self.label}: one of {', '.join(dict(self.choices))}, got {text!r}")
        if len(self.targets()) > 1:
            return dict(zip(self.targets(), (int(part) for part in text.split("x")), strict=True))
        return {self.targets()[0]: text}


AT_ONCE = "at once"
AT_START = "when the box next starts (switch it off and on)"

MAX_PHONE_PLACES = 160
"""The most phone places the admin page offers: each phone's link holds 3 open files in the web process
(a socket and paho's wake-up pair); 160 x 3 + CONNECTION_LIMIT 400 + 64 spare stays below the 1024 files
select() can watch (web/settings.py, docs/security.md)."""

SETTINGS: tuple[Setting, ...] = (
    Setting("box.name", "The box's name", "text", "Shown on the TV, the phones and the admin page.", AT_START),
    Setting("box.join", "Join approval", "choice", "Open: any handset or phone joins. Approve: you accept "
            "each one on the Handsets page.", AT_START,
            choices=(("open", "Open: anyone joins"), ("approve", "Approve: I accept each handset"))),
    Setting("game.answer_seconds", "Answer time (seconds)", "whole", "The time to answer in a game or night "
            "round whose own answer time is left blank; 0: no limit, you move on.", AT_ONCE, low=0, high=600),
    Setting("web.phones", "Phone places", "whole", "How many phones may be handsets at once (a team may use "
            "several). A phone beyond them is turned away; the Handsets page says so.", AT_ONCE, low=1,
            high=MAX_PHONE_PLACES),
    Setting("board.sound", "Sound", "flag", "Sound effects on the TV's speakers.", AT_START),
    Setting("board.resolution", "The TV's resolution", "choice", "The picture the box draws for the TV.",
            AT_START, choices=RESOLUTIONS, fields=("width", "height")),
    Setting("board.audio_device", "Audio output", "text", "Where the cards' sounds play: an audio device's "
            "name; blank: the box's default (the TV's HDMI).", AT_START, blank=True),
    Setting("box.media_cap_mb", "Space for pictures and sounds (MB)", "whole", "The most the decks' pictures "
            "and sounds may take on the box's disk; an import beyond it is refused.", AT_START, low=1,
            high=100_000),
)
BY_KEY: dict[str, Setting] = {s.key: s for s in SETTINGS}


def path_for(data_dir: Path) -> Path:
    return data_dir / FILE


def read_stored(data_dir: Path) -> dict[str, str]:
    """The stored values (key -> the form's text); a missing file is none. A damaged file is refused."""
    path = path_for(data_dir)
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"{path}: not readable settings ({exc}); fix or delete it, then set them again") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: settings must be a JSON object")
    return {str(k): str(v) for k, v in data.items()}


def apply(config: C, values: Mapping[str, object], source: str = "settings") -> C:
    """``config`` with ``values`` (key -> text) laid over it; ConfigError names the first bad one."""
    by_section: dict[str, dict[str, Any]] = {}
    for key, raw in values.items():
        setting = BY_KEY.get(key)
        if setting is None:
            raise ConfigError(f"{source}: unknown setting {key!r} (known: {', '.join(BY_KEY)})")
        by_section.setdefault(setting.section, {}).update(setting.parse(raw))
    changes = {name: replace(getattr(config, name), **fields) for name, fields in by_section.items()}
    updated: C = replace(config, **changes)  # type: ignore[type-var]
    return updated


def with_stored(config: Config) -> Config:
    """``config`` with the settings stored in its data folder laid over it."""
    data_dir = config.data_path
    return apply(config, read_stored(data_dir), str(path_for(data_dir)))


def save(data_dir: Path, form: Mapping[str, object], base: C,
         writer: Callable[[Path, str], None] | None = None) -> C:
    """Check every setting in ``form`` against ``base`` and store them all, or none (ConfigError)."""
    values = {key: str(form[key]).strip() for key in BY_KEY if key in form}
    updated = apply(base, values, "the settings page")  # raises before anything is written
    stored = read_stored(data_dir) | values
    (writer or _write)(path_for(data_dir), json.dumps(stored, indent=1, ensure_ascii=False) + "\n")
    return updated


def _write(path: Path, text: str) -> None:
    write_whole(path, text, 0o640)
