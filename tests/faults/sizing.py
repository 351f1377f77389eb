"""How many faults a fault loop injects: the full count, or a smaller one in CI.

The suite must stay within CI's time, and the kill loops are its longest tests. With ``CI=true`` they
inject fewer faults (each loop still finishes its games and checks every acked input, so every path a
kill can hit is still taken), unless ``QUIZBOX_FULL_FAULTS=1`` asks for the full counts: ``make faults``
runs the fault and security tests that way, and the README's fault figures come from it.
"""

from __future__ import annotations

import os


def full_counts() -> bool:
    """Whether the fault loops run their full counts: outside CI, or when ``make faults`` asks."""
    return os.environ.get("QUIZBOX_FULL_FAULTS") == "1" or os.environ.get("CI", "").lower() != "true"


def sized(full: int, ci: int) -> int:
    """``full`` faults, or ``ci`` (fewer) in CI unless the full counts are asked for."""
    if ci > full:
        raise ValueError(f"a CI count ({ci}) larger than the full count ({full})")
    return full if full_counts() else ci
