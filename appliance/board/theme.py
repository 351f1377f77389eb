"""The board's look: colours, fonts and sizes, all derived from the frame height.

Everything is measured in *units*: one unit is 1/1080 of the frame height, so a layout drawn at 720p,
1080p or 4K is the same picture at a different scale. The smallest text anywhere on the board is
:data:`MIN_TEXT_UNITS` units high (about 1/36 of the screen): readable from the back of a pub room
on a living-room TV.

Player colours come from the state (the handset's own colour, Okabe-Ito based: colour-blind safe).
The board's own colours avoid the red/green pair as the only carrier of meaning: right and wrong are
always a shape (tick, cross) and a word as well as a colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pygame

from appliance.palette import PALETTE

Colour = tuple[int, int, int]

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
FONT_FILES = {"title": "OpenSans-ExtraBold.ttf", "body": "OpenSans-Semibold.ttf"}
"""Font roles -> shipped files (Open Sans, Apache 2.0; see appliance/data/fonts/README.txt)."""

MIN_TEXT_UNITS = 30
"""The smallest text height on the board, in units (30 px at 1080p, 20 px at 720p, 60 px at 4K)."""

BACKGROUND: Colour = (11, 16, 38)
BACKGROUND_GLOW: Colour = (28, 44, 98)
PANEL: Colour = (24, 32, 68)
PANEL_EDGE: Colour = (60, 76, 140)
TEXT: Colour = (245, 245, 250)
BADGE: Colour = (16, 20, 40)  # a seat number's badge: white on near-black whatever the team's colour
MUTED: Colour = (170, 178, 205)
GOLD: Colour = (240, 196, 40)
RIGHT: Colour = (0, 158, 115)  # Okabe-Ito bluish green, always with a tick
WRONG: Colour = (213, 94, 0)  # Okabe-Ito vermillion, always with a cross
WARNING: Colour = (230, 159, 0)
TRUE_SIDE: Colour = (86, 180, 233)  # sky blue
FALSE_SIDE: Colour = (230, 159, 0)  # orange: the pair stays apart for every colour vision


def hex_colour(text: object, fallback: Colour = TEXT) -> Colour:
    """``"#RRGGBB"`` -> an RGB tuple; anything else -> ``fallback`` (the board never fails on a colour)."""
    if isinstance(text, str) and len(text) == 7 and text.startswith("#"):
        try:
            return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))
        except ValueError:
            return fallback
    return fallback


def seat_colour(index: int) -> Colour:
    """The palette colour for seat ``index`` (used when the state names no handset colour)."""
    return hex_colour(PALETTE[index % len(PALETTE)])


def ink_on(colour: Colour) -> Colour:
    """Black or white text, whichever reads better on ``colour`` (relative luminance, WCAG)."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else float(((s + 0.055) / 1.055) ** 2.4)

    r, g, b = (channel(c) for c in colour)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return (10, 10, 20) if luminance > 0.22 else TEXT


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """``a`` blended towards ``b`` by ``t`` (0..1)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@dataclass(frozen=True)
class Theme:
    """Sizes for one frame size; ``u(n)`` turns units into pixels."""

    width: int
    height: int

    @property
    def unit(self) -> float:
        return self.height / 1080

    def u(self, units: float) -> int:
        return max(1, round(units * self.unit))

    @property
    def min_text(self) -> int:
        return self.u(MIN_TEXT_UNITS)

    @property
    def margin(self) -> int:
        return self.u(48)


def font(role: str, px: int) -> pygame.font.Font:
    """The shipped font for ``role`` at ``px`` pixels (pygame's default font if the file is missing)."""
    return _font(role, max(4, px))


def warm(height: int) -> None:
    """Load every font size a board of ``height`` pixels draws text at (the minimum to 200 units), so that a
    scene's first frame does not open font files (issue 30: a first frame within 16.7 ms)."""
    units = Theme(1, height)
    for role in FONT_FILES:
        for px in range(units.min_text - 2, units.u(200) + 1):
            font(role, px)


@lru_cache(maxsize=1024)
def _font(role: str, px: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    path = FONT_DIR / FONT_FILES.get(role, FONT_FILES["body"])
    if path.is_file():
        return pygame.font.Font(str(path), px)
    return pygame.font.Font(None, px)


LINE_SPACING = 1.2
"""Line step as a multiple of the font size: Open Sans's glyphs (accents included) stay inside it."""


def line_step(px: int) -> int:
    """The distance from one line of text to the next at font size ``px``."""
    return round(px * LINE_SPACING)
