"""From a board state to a frame: pick the scene, draw it on the studio background, pause on top.

``now`` is the animation clock: seconds since the scene's moment began (see :class:`Choice`). The
renderer reads the state and never decides a rule: every fact on the frame is in the state.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from types import ModuleType
from typing import Any

import pygame

from appliance.board.canvas import Canvas, new_canvas
from appliance.board.scenes import allin, buzzer, confident, lobby, night, pause, poker, results, squizz
from appliance.board.scenes.common import background
from appliance.board.scenes.select import Choice
from appliance.board.state import Board
from appliance.games import registry

SCENES: Mapping[str, ModuleType] = {
    scene.__name__.rpartition(".")[2]: scene for scene in (allin, buzzer, confident, poker, squizz)
}
"""The game scenes by module name: what a registry entry's ``scene`` names."""

GAMES: Mapping[str, ModuleType] = {spec.id: SCENES[spec.scene] for spec in registry.SPECS}
"""Game id -> the scene that draws it while playing."""


def choose(board: Board) -> Choice:
    if board.scene.startswith("night"):  # between a quiz night's rounds (appliance/session/night.py)
        return night.choose(board)
    if board.scene == "results" and board.game:
        return results.choose(board)
    scene = GAMES.get(board.game or "")
    if board.scene == "playing" and scene is not None:
        choice: Choice = scene.choose(board)
        return choice
    return Choice("lobby", lobby.draw, ("lobby",))


def compose(state: Mapping[str, Any], size: tuple[int, int], now: float = 0.0) -> tuple[Canvas, Choice]:
    """Draw ``state`` at ``size``; returns the canvas (surface and text placements) and the scene."""
    board = Board(state if isinstance(state, Mapping) else {})
    canvas = new_canvas(size, now)
    choice = choose(board)
    background(canvas)
    choice.draw(canvas, board)
    if board.paused:
        pause.draw(canvas, board)
    return canvas, choice


def render(state: Mapping[str, Any], size: tuple[int, int], now: float = 0.0) -> pygame.Surface:
    """The frame for ``state`` at ``size`` (pure: the same state, size and ``now`` give the same frame)."""
    return compose(state, size, now)[0].surface


def render_png(state: Mapping[str, Any], size: tuple[int, int], now: float = 0.0) -> bytes:
    """The frame for ``state`` as PNG bytes: how the admin page shows the TV (the board's one public
    drawing function outside the board)."""
    import io

    out = io.BytesIO()
    pygame.image.save(render(state, size, now), out, "board.png")
    return out.getvalue()


def moment(state: Mapping[str, Any]) -> tuple[Hashable, float]:
    """The scene's moment key and how long its animation runs (for the display loop)."""
    choice = choose(Board(state if isinstance(state, Mapping) else {}))
    return (choice.name, choice.key), choice.animation
