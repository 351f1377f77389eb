"""Issue 31 (cosmetic): the interval's countdown ring had speckles of the background inside its band (pygame's
thick and concentric thin arcs leave holes); the ring is one filled band."""

from __future__ import annotations

import math

import pygame
import pytest

from appliance.board.canvas import new_canvas


@pytest.mark.parametrize("fraction", [1.0, 0.75, 0.3])
def test_the_countdown_ring_has_no_holes(fraction: float) -> None:
    canvas = new_canvas((1920, 1080))
    canvas.surface.fill((0, 0, 0))
    gold = pygame.Color(240, 190, 40)
    centre, radius, width = (960, 540), 190, 27
    canvas.ring(centre, radius, fraction, gold, width)
    holes = []
    for r in range(radius - width + 3, radius - 2):
        for step in range(720):
            angle = math.pi / 2 + fraction * 2 * math.pi * (step + 0.5) / 720 * 0.97  # inside the arc's ends
            x = round(centre[0] + r * math.cos(angle))
            y = round(centre[1] - r * math.sin(angle))
            if canvas.surface.get_at((x, y)) != gold:
                holes.append((x, y))
    assert not holes, f"{len(holes)} background pixels inside the ring's band, e.g. {holes[:5]}"
