"""The firmware stands on its own: no port imports the appliance, and the Pi Zero port shares the ESP32's
helpers only through firmware/core (issue 14: the cross imports go)."""

from __future__ import annotations

import ast
from pathlib import Path

from zeroconf import ServiceInfo

from firmware.pizero.discovery import MQTT_SERVICE, broker_of

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_firmware_file_imports_the_appliance() -> None:
    offenders = {
        str(p.relative_to(FIRMWARE)): sorted(n for n in _imports(p) if n.split(".")[0] in ("appliance", "web", "tests"))
        for p in FIRMWARE.rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_ports_share_only_through_the_core() -> None:
    for port, other in (("pizero", "esp32"), ("esp32", "pizero")):
        for path in (FIRMWARE / port).glob("*.py"):
            assert not [n for n in _imports(path) if n.startswith("firmware." + other)], path
    for path in (FIRMWARE / "core").glob("*.py"):
        assert not [n for n in _imports(path) if n.startswith(("firmware.esp32", "firmware.pizero"))], path


def _info(txt: dict[str, str], addresses: list[str]) -> ServiceInfo:
    return ServiceInfo(
        MQTT_SERVICE,
        "pub1." + MQTT_SERVICE,
        port=1883,
        properties=txt,
        server="pub1.local.",
        parsed_addresses=addresses,
    )


def test_pizero_discovery_takes_only_a_quizbox_broker_of_its_box() -> None:
    assert broker_of(_info({"app": "quizbox", "box": "pub1"}, ["192.0.2.9"]), "pub1") == ("192.0.2.9", 1883)
    assert broker_of(_info({"app": "quizbox", "box": "pub1"}, []), None) == ("pub1.local", 1883)
    assert broker_of(_info({"app": "quizbox", "box": "pub2"}, ["192.0.2.9"]), "pub1") is None
    assert broker_of(_info({"app": "homeassistant"}, ["192.0.2.9"]), None) is None


def test_the_frozen_manifest_lists_every_device_file() -> None:
    """firmware/esp32/manifest.py, run as MicroPython's build runs it, freezes exactly the files an ESP32
    imports: every firmware, core and ESP32 module but the CPython-only screens and boot/main."""
    calls: list[tuple[str, tuple[object, ...], dict[str, object]]] = []

    def record(name: str):  # type: ignore[no-untyped-def]
        return lambda *args, **kwargs: calls.append((name, args, kwargs))

    manifest = FIRMWARE / "esp32" / "manifest.py"
    exec(
        compile(manifest.read_text(), str(manifest), "exec"), {n: record(n) for n in ("include", "package", "require")}
    )
    [package] = [c for c in calls if c[0] == "package"]
    assert package[1] == ("firmware",)
    base = (manifest.parent / str(package[2]["base_path"])).resolve()
    files = set(package[2]["files"])  # type: ignore[call-overload]
    for name in files:
        assert (base / "firmware" / name).is_file(), name
    device = {"__init__.py", "protocol.py"}
    device |= {"core/" + p.name for p in (FIRMWARE / "core").glob("*.py")} - {"core/fb.py", "core/font8.py"}
    device |= {"esp32/" + p.name for p in (FIRMWARE / "esp32").glob("*.py")} - {
        "esp32/boot.py",
        "esp32/main.py",
        "esp32/manifest.py",
    }
    assert files == device
    assert ("include", ("$(PORT_DIR)/boards/manifest.py",), {}) in calls  # the port's modules, umqtt.simple
