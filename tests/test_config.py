"""The TOML config: defaults, validation with messages naming the key, nothing half-applied."""

from __future__ import annotations

from pathlib import Path

import pytest

from appliance.errors import ConfigError
from appliance.infra.config import Config, load_config, parse_config


def test_empty_config_is_a_working_demo_box() -> None:
    config = parse_config("")
    assert config == Config(source="<config>")
    assert config.broker.host == "" and config.box.join == "open"


def test_values_are_read_into_sections() -> None:
    config = parse_config('[box]\nid = "red-lion"\njoin = "approve"\n[broker]\nhost = "10.0.0.2"\nport = 8883\n')
    assert (config.box.id, config.box.join, config.broker.host, config.broker.port) == (
        "red-lion", "approve", "10.0.0.2", 8883)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[box\n", "not valid TOML"),
        ("[pub]\n", "unknown section [pub]"),
        ("box = 1\n", "[box] must be a table"),
        ("[box]\ncolour = 1\n", "unknown key box.colour"),
        ('[broker]\nport = "1883"\n', "broker.port must be a whole number"),
        ("[broker]\nport = 70000\n", "port 1-65535"),
        ("[gpio]\nenabled = 1\n", "gpio.enabled must be bool"),
        ('[box]\njoin = "maybe"\n', "box.join must be one of open, approve"),
        ('[box]\nid = "my box"\n', "box.id"),
        ('[board]\ndisplay = "hologram"\n', "board.display must be one of"),
    ],
)
def test_bad_config_names_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_config(text, "quizbox.toml")


def test_load_config_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "q.toml"
    path.write_text('[box]\nname = "The Red Lion"\n', encoding="utf-8")
    assert load_config(path).box.name == "The Red Lion"
    monkeypatch.setenv("QUIZBOX_CONFIG", str(path))
    assert load_config().source == str(path)
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "missing.toml")
    path.write_bytes(b"\xff\xfe[box]")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(path)
