"""The TV's picture for the admin page: the board renderer (``appliance.board.render_png``, the same
code the TV runs) draws the retained board state into a PNG, once per board change."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping
from typing import Any

SIZE = (960, 540)

_lock = threading.Lock()
_cache: dict[str, bytes] = {}


def board_png(board: Mapping[str, Any] | None) -> bytes:
    """The board as a PNG (cached for the last state; pygame drawing is serialised)."""
    key = json.dumps(board, sort_keys=True, default=str)
    with _lock:
        cached = _cache.get(key)
        if cached is not None:
            return cached
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        from appliance.board import render_png

        data = render_png(dict(board or {}), SIZE)
        _cache.clear()
        _cache[key] = data
        return data
