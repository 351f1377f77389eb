"""How the box's optional parts are doing, for the admin page and ``quizbox doctor``.

Only the rules may stop a game. The board (the TV), its sound, the GPIO buttons and the mDNS
announcement are *optional parts*: each one that fails is retried in the background with a growing
delay (:class:`Retry`) while the game goes on, and its state is kept here in plain words. The state is
written to ``<data_dir>/health.json`` on every change (atomically: a temporary file renamed over the
old one), where the admin page and the doctor read it; the same file carries the last start's recovery
report (appliance/box/recovery.py), so what a power cut cost is said in one place.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from appliance.infra import wallclock

log = logging.getLogger(__name__)

FILE = "health.json"
PARTS = {
    "board": "TV board",
    "sound": "board sound",
    "gpio": "box buttons and lamp",
    "mdns": "mDNS announcement (<box>.local)",
    "copy": "database's good copy",
    "league": "league link (results out, plans in)",
    "pairing": "pairing broker (new handsets ask on port 1884)",
}
"""Optional part -> its name for people."""


@dataclass(frozen=True)
class Part:
    ok: bool
    text: str  # what is seen (ok) or what is wrong and what the box does about it
    since: float  # wall clock (time.time) of the last change


class Health:
    """The optional parts' states, the recovery report and the file they are written to; thread-safe."""

    def __init__(self, folder: Path | None, clock: Callable[[], float] = wallclock.now) -> None:
        self.path = None if folder is None else Path(folder) / FILE
        self.clock = clock
        self._lock = threading.Lock()
        self.parts: dict[str, Part] = {}
        self.recovery: dict[str, Any] = {}
        self.started = clock()

    def ok(self, part: str, text: str) -> None:
        self._set(part, True, text)

    def failing(self, part: str, text: str) -> None:
        self._set(part, False, text)

    def set_recovery(self, report: dict[str, Any]) -> None:
        with self._lock:
            self.recovery = dict(report)
        self.save()

    def problems(self) -> dict[str, str]:
        with self._lock:
            return {name: p.text for name, p in self.parts.items() if not p.ok}

    def _set(self, part: str, ok: bool, text: str) -> None:
        with self._lock:
            old = self.parts.get(part)
            if old is not None and (old.ok, old.text) == (ok, text):
                return
            self.parts[part] = Part(ok, text, self.clock())
        (log.info if ok else log.warning)("%s: %s", PARTS.get(part, part), text)
        self.save()

    def as_json(self) -> dict[str, Any]:
        with self._lock:
            return {"started": self.started, "pid": os.getpid(),
                    "parts": {name: asdict(p) for name, p in self.parts.items()},
                    "recovery": dict(self.recovery)}

    def save(self) -> None:
        """Write the file (a failing disk is logged, never raised: health must not stop the game)."""
        if self.path is None:
            return
        try:
            write_json(self.path, self.as_json())
        except OSError as exc:
            log.warning("cannot write %s: %s", self.path, exc)


def write_json(path: Path, data: dict[str, Any]) -> None:
    """``data`` to ``path`` atomically (a reader sees the old file or the new one, never half)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1, sort_keys=True)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def read(folder: Path) -> dict[str, Any] | None:
    """What the running (or last) appliance wrote, or None when there is no readable file."""
    try:
        data = json.loads((Path(folder) / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def problem_lines(data: dict[str, Any] | None) -> list[str]:
    """The failing parts as sentences: "TV board: no screen (kmsdrm not available); trying again in 20 s"."""
    if not data or not isinstance(data.get("parts"), dict):
        return []
    lines = []
    for name, part in sorted(data["parts"].items()):
        if isinstance(part, dict) and not part.get("ok", True):
            lines.append(f"{PARTS.get(name, name)}: {part.get('text', '')}")
    return lines


class Retry:
    """Run ``attempt`` in a background thread until it returns without raising, waiting ``first``
    seconds after the first failure and twice as long after each next one, up to ``longest``. Each
    failure is reported as ``failing`` on ``part`` with the time of the next try; success as ``ok``."""

    def __init__(self, health: Health, part: str, attempt: Callable[[], str], first: float = 2.0,
                 longest: float = 60.0) -> None:
        self.health = health
        self.part = part
        self.attempt = attempt
        self.first, self.longest = first, longest
        self.tries = 0
        self.done = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"retry-{part}", daemon=True)

    def start(self) -> Retry:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        delay = self.first
        while not self._stop.is_set():
            self.tries += 1
            try:
                note = self.attempt()
            except Exception as exc:  # an optional part failing in any way is reported, never raised
                self.health.failing(self.part, f"{_plain(exc)}; trying again in {delay:.0f} s")
                if self._stop.wait(delay):
                    return
                delay = min(delay * 2, self.longest)
                continue
            self.health.ok(self.part, note)
            self.done.set()
            return


def backoff(first: float, longest: float) -> Callable[[], float]:
    """Delays ``first``, twice that, ... up to ``longest``: a fresh sequence per call of this function."""
    delay = [first / 2]

    def step() -> float:
        delay[0] = min(delay[0] * 2, longest)
        return delay[0]

    return step


def _plain(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0][:300]
