"""The join QR code for phones, drawn from segno's module matrix (pure Python, no image files)."""

from __future__ import annotations

from functools import lru_cache

import pygame
import segno

QUIET_ZONE = 4
"""Modules of white border the QR standard asks for around the code."""


@lru_cache(maxsize=8)
def _matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    code = segno.make_qr(text, error="m")
    return tuple(tuple(bool(cell) for cell in row) for row in code.matrix)


def modules(text: str) -> int:
    """Modules per side of the code for ``text``, quiet zone included."""
    return len(_matrix(text)) + 2 * QUIET_ZONE


def draw_qr(surface: pygame.Surface, text: str, box: pygame.Rect) -> pygame.Rect:
    """Draw the QR code for ``text`` as large as fits ``box`` with whole-pixel modules, centred.

    Whole pixels per module keep every module the same size, which phone cameras need."""
    matrix = _matrix(text)
    side = len(matrix) + 2 * QUIET_ZONE
    scale = max(1, min(box.width, box.height) // side)
    size = side * scale
    area = pygame.Rect(0, 0, size, size)
    area.center = box.center
    surface.blit(_code(text, scale), area)
    return area


@lru_cache(maxsize=8)
def _code(text: str, scale: int) -> pygame.Surface:
    """The code for ``text`` at ``scale`` pixels a module, quiet zone included, drawn once (the lobby
    shows the same code on every frame: one blit instead of a rectangle per dark module)."""
    matrix = _matrix(text)
    side = (len(matrix) + 2 * QUIET_ZONE) * scale
    code = pygame.Surface((side, side))
    code.fill((255, 255, 255))
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                pygame.draw.rect(code, (0, 0, 0), ((x + QUIET_ZONE) * scale, (y + QUIET_ZONE) * scale, scale, scale))
    return code
