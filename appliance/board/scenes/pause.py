"""Pause: the current scene stays visible, dimmed, under a banner (the quizmaster paused the game)."""

from __future__ import annotations

from functools import lru_cache

import pygame

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.state import Board


def draw(canvas: Canvas, board: Board) -> None:
    band = Rect(0, 0, canvas.rect.width, canvas.u(300))
    band.center = canvas.rect.center
    # the veil where the band does not cover it (blending a whole 1080p frame is most of a pause frame)
    veil = _veil(canvas.surface.get_size())
    frame = canvas.rect
    for part in (Rect(0, 0, frame.width, band.top), Rect(0, band.bottom, frame.width, frame.bottom - band.bottom)):
        canvas.surface.blit(veil, part.topleft, part)
    pygame.draw.rect(canvas.surface, theme.PANEL, band)
    pygame.draw.line(canvas.surface, theme.GOLD, band.topleft, band.topright, canvas.u(6))
    pygame.draw.line(canvas.surface, theme.GOLD, band.bottomleft, band.bottomright, canvas.u(6))
    title = Rect(band.left, band.top + canvas.u(30), band.width, canvas.u(150))
    canvas.text(title, "PAUSED", 130, theme.GOLD, role="title", max_lines=1)
    note = Rect(band.left + canvas.theme.margin, title.bottom, band.width - 2 * canvas.theme.margin, canvas.u(90))
    canvas.text(note, board.message or "Back in a moment: the quizmaster will resume the game.", 40, theme.TEXT)


@lru_cache(maxsize=4)
def _veil(size: tuple[int, int]) -> pygame.Surface:
    """The dimming layer for a frame of ``size`` (made once: a full-frame surface is 8 MB at 1080p)."""
    veil = pygame.Surface(size, pygame.SRCALPHA)
    veil.fill((*theme.BACKGROUND, 205))
    return veil
