"""Snapshot cases and the image comparison shared by the test and the regeneration command."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from appliance.board import render
from tests.board.fixtures import snapshot_cases

REFERENCE_DIR = Path(__file__).resolve().parent / "reference"
SIZES: dict[str, tuple[int, int]] = {"1080": (1920, 1080), "720": (1280, 720)}

CHANNEL_TOLERANCE = 40
"""A pixel differs when one colour channel is off by more than this (anti-aliasing and font
rasteriser versions move edges by a few levels)."""
PIXEL_BUDGET = 0.004
"""At most this share of a frame's pixels may differ (0.4%: about 8,300 pixels at 1080p)."""


def cases() -> list[tuple[str, dict[str, Any], float, str]]:
    """(snapshot name, state, animation clock, size key) for every scene at every size."""
    return [(name, state, now, key) for name, state, now in snapshot_cases() for key in SIZES]


def reference_path(name: str, size_key: str) -> Path:
    return REFERENCE_DIR / f"{name}-{size_key}p.png"


def frame(state: dict[str, Any], now: float, size_key: str) -> pygame.Surface:
    return render(state, SIZES[size_key], now)


def differing_share(a: pygame.Surface, b: pygame.Surface) -> float:
    """Share of pixels whose colour differs by more than :data:`CHANNEL_TOLERANCE` in some channel."""
    if a.get_size() != b.get_size():
        return 1.0
    width, height = a.get_size()
    left = pygame.image.tobytes(a, "RGB")
    right = pygame.image.tobytes(b, "RGB")
    if left == right:
        return 0.0
    differing = 0
    for index in range(0, len(left), 3):
        if (
            abs(left[index] - right[index]) > CHANNEL_TOLERANCE
            or abs(left[index + 1] - right[index + 1]) > CHANNEL_TOLERANCE
            or abs(left[index + 2] - right[index + 2]) > CHANNEL_TOLERANCE
        ):
            differing += 1
    return differing / (width * height)
