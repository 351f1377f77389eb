"""Keeping the garbage collector out of the way of inputs."""

from __future__ import annotations

import gc


def settle_memory() -> None:
    """Collect what is garbage now, then freeze what is left out of the cyclic collector's scans.

    A full collection scans every object the process holds (a game's cards, the registry, the modules):
    tens of milliseconds on a Pi, and whatever input arrives meanwhile waits for it. What lives until now
    lives on (the program, the running game), so it is frozen (gc.freeze); the next call (a new game)
    unfreezes it first, so what the last game left in cycles is still collected."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
