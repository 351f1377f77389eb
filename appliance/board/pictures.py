"""The cards' pictures on the TV: loaded once by reference, scaled to a box once per size (issue 34).

The board state names a picture by its media reference (``<sha256>.png``, appliance/infra/media.py),
never its bytes, so the retained board stays small. The box hands its media reader to :func:`use` when it
starts; the board then decodes a picture the first time a frame needs it and keeps it
(:data:`KEPT` pictures, least recently used dropped first), and keeps each scaled copy for its box size,
so the next frame and the next second's countdown only blit. A reference the box cannot read draws
nothing (the question still shows): the board never fails on a missing file. Thread safe, like
:mod:`appliance.board.memo` (the admin page's picture of the TV draws on another thread).
"""

from __future__ import annotations

import io
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable

import pygame

log = logging.getLogger(__name__)

KEPT = 8
"""Decoded pictures (and their scaled copies) kept: a round's next questions come one at a time."""

Reader = Callable[[str], bytes | None]

_lock = threading.Lock()
_reader: Reader = lambda ref: None  # noqa: E731 - no media until the box says where they are
_decoded: OrderedDict[str, pygame.Surface | None] = OrderedDict()
_scaled: OrderedDict[tuple[str, int, int], pygame.Surface] = OrderedDict()
loads = 0
"""How many times a picture was read and decoded (the tests check the TV loads it once)."""


def use(reader: Reader) -> None:
    """Where the board reads a picture's bytes by reference; forgets every picture kept."""
    global _reader
    with _lock:
        _reader = reader
        _decoded.clear()
        _scaled.clear()


def fitted_size(size: tuple[int, int], box: tuple[int, int]) -> tuple[int, int]:
    """``size`` scaled to fit inside ``box``, its shape kept (never stretched), never scaled up."""
    width, height = size
    if width <= 0 or height <= 0:
        return (0, 0)
    scale = min(box[0] / width, box[1] / height, 1.0)
    return (max(1, round(width * scale)), max(1, round(height * scale)))


def readable(ref: str) -> bool:
    """Whether the board can show the picture ``ref`` (read and decoded once, then kept)."""
    with _lock:
        return _source(ref) is not None


def picture(ref: str, box: tuple[int, int]) -> pygame.Surface | None:
    """The picture ``ref`` fitted into a box of ``box`` pixels, or None when it cannot be read."""
    with _lock:
        key = (ref, box[0], box[1])
        if key in _scaled:
            _scaled.move_to_end(key)
            return _scaled[key]
        source = _source(ref)
        if source is None:
            return None
        size = fitted_size(source.get_size(), box)
        scaled = source if size == source.get_size() else pygame.transform.smoothscale(source, size)
        _scaled[key] = scaled
        while len(_scaled) > 3 * KEPT:
            _scaled.popitem(last=False)
        return scaled


def _source(ref: str) -> pygame.Surface | None:
    """The decoded picture (the lock held)."""
    global loads
    if ref not in _decoded:
        _decoded[ref] = _load(ref)
        loads += 1
        while len(_decoded) > KEPT:
            dropped, _ = _decoded.popitem(last=False)
            for old in [k for k in _scaled if k[0] == dropped]:
                del _scaled[old]
    _decoded.move_to_end(ref)
    return _decoded[ref]


def _load(ref: str) -> pygame.Surface | None:
    try:
        data = _reader(ref)
        if data is None:
            log.warning("the board has no picture %s", ref)
            return None
        image = pygame.image.load(io.BytesIO(data), ref)
    except (OSError, pygame.error, ValueError) as exc:
        log.warning("the board cannot read the picture %s: %s", ref, exc)
        return None
    return image.convert_alpha() if pygame.display.get_init() and pygame.display.get_surface() else image
