"""What a frame can take from the frames before it: fitted texts and rendered lines (issue 22).

A board frame is drawn afresh for every animation step and countdown second, but most of what is on it
(titles, names, numbers) is the same text in the same box as in the frame before. Fitting a text
(wrapping and shrinking, dozens of measurements) and rasterising its lines are pure functions of the
text, the box, the size, the font and the colour, so both are kept here and the next frame blits them.

The rendered lines are bounded by their pixels (:data:`LINE_PIXELS`), not by their count: a line of a
1080p title is 100 times the pixels of a pill's name. Thread safe: the admin page's picture of the TV is
drawn on the web server's thread while the display loop draws on its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

import pygame

from appliance.board import theme as look
from appliance.board.textfit import Fit, fit, fits
from appliance.board.theme import Colour

LINE_PIXELS = 6_000_000
"""At most this many pixels of rendered lines are kept (24 MB at 4 bytes a pixel)."""
FITS = 4096
"""At most this many fitted texts are kept."""


@lru_cache(maxsize=FITS)
def fitted(text: str, width: int, height: int, max_px: int, min_px: int, role: str, max_lines: int | None) -> Fit:
    """:func:`appliance.board.textfit.fit` of ``text`` in the ``role``'s font (the same arguments give the
    same fit: the fonts do not change while the box runs)."""
    return fit(text, width, height, max_px, min_px, measure(role), max_lines)


@lru_cache(maxsize=FITS)
def fitting(text: str, width: int, height: int, max_px: int, min_px: int, role: str, max_lines: int | None) -> bool:
    """:func:`appliance.board.textfit.fits`: whether :func:`fitted` is at the minimum size or above."""
    return fits(text, width, height, max_px, min_px, measure(role), max_lines)


class Lines:
    """Rendered lines of text by (role, px, text, colour), the least recently used dropped first."""

    def __init__(self, budget: int = LINE_PIXELS) -> None:
        self.budget = budget
        self.pixels = 0
        self._lock = threading.Lock()
        self._images: OrderedDict[tuple[str, int, str, tuple[int, ...]], pygame.Surface] = OrderedDict()

    def __len__(self) -> int:
        return len(self._images)

    def get(self, role: str, px: int, text: str, colour: Colour) -> pygame.Surface:
        """The line as :meth:`pygame.font.Font.render` draws it (antialiased, transparent around the
        glyphs). The image is shared: blit it, never draw on it."""
        key = (role, px, text, tuple(colour))
        with self._lock:
            image = self._images.get(key)
            if image is not None:
                self._images.move_to_end(key)
                return image
        image = look.font(role, px).render(text, True, colour)
        width, height = image.get_size()
        with self._lock:
            if key not in self._images:
                self._images[key] = image
                self.pixels += width * height
            while self.pixels > self.budget and len(self._images) > 1:
                _, old = self._images.popitem(last=False)
                self.pixels -= old.get_width() * old.get_height()
        return image

    def clear(self) -> None:
        with self._lock:
            self._images.clear()
            self.pixels = 0


LINES = Lines()


def measure(role: str) -> Callable[[int, str], tuple[int, int]]:
    """``measure(px, text)``: a line's width in the ``role``'s font and the board's line step."""
    def width_and_step(px: int, text: str) -> tuple[int, int]:
        return width(role, px, text), look.line_step(px)

    return width_and_step


@lru_cache(maxsize=16384)
def width(role: str, px: int, text: str) -> int:
    """How wide ``text`` is in the ``role``'s font at ``px`` (fitting measures the same words again and
    again: each candidate line, at each size tried)."""
    return look.font(role, px).size(text)[0] if text else 0
