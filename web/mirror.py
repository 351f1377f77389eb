"""The TV's picture for the admin page: the board renderer (``appliance.board.render_png``, the same
code the TV runs) draws the retained board state into a PNG, once per board change: the settled frame
of the scene's animation, as the TV shows it once the animation has run."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping
from typing import Any

SIZE = (960, 540)

_lock = threading.Lock()
_cache: dict[str, bytes] = {}


def board_png(board: Mapping[str, Any] | None, size: tuple[int, int] = SIZE) -> bytes:
    """The board as a PNG at ``size`` (cached for the last state; pygame drawing is serialised)."""
    key = json.dumps([board, size], sort_keys=True, default=str)
    with _lock:
        cached = _cache.get(key)
        if cached is not None:
            return cached
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        from appliance.board import moment, render_png

        state = dict(board or {})
        # the settled frame (the end of the scene's animation), not its first: a reveal's answer and points
        data = render_png(state, size, moment(state)[1])
        _cache.clear()
        _cache[key] = data
        return data
