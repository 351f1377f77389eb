"""The quiz program's one wall clock: every wall-clock reading of ``quizbox run`` (the store's stamps, the
good copy's time, health.json, the heartbeat's ``at``, the start-up report) goes through :func:`now`.
Timers, buzz order and liveness run on the monotonic clock and never read it.

The Pi has no clock battery: its wall clock jumps when it first reaches a time server, often mid-evening.
``QUIZBOX_WALL_CLOCK_SHIFT`` names a file holding seconds to add to the system's wall clock (read on each
call while it is set): the fault tests move the wall clock under the real quiz program with it
(tests/faults/test_clock_jump.py; libfaketime 0.9.10, Debian's, makes Python's ``time.sleep`` fail with
EINVAL when the monotonic clock is left real). Unset, as on every installed box, it is ``time.time``."""

from __future__ import annotations

import os
import time

SHIFT_FILE = os.environ.get("QUIZBOX_WALL_CLOCK_SHIFT", "")


def now() -> float:
    """Seconds since 1970 as the box's wall clock says."""
    if not SHIFT_FILE:
        return time.time()
    try:
        with open(SHIFT_FILE, encoding="ascii") as f:
            shift = float(f.read().strip() or 0)
    except (OSError, ValueError):
        shift = 0.0
    return time.time() + shift
