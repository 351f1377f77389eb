"""From a board state to a frame: pick the scene, draw it on the studio background, pause on top.

``now`` is the animation clock: seconds since the scene's moment began (see :class:`Choice`). The
renderer reads the state and never decides a rule: every fact on the frame is in the state.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pygame

from appliance.board.canvas import Canvas, Placement, new_canvas
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


def compose(
    state: Mapping[str, Any], size: tuple[int, int], now: float = 0.0, into: pygame.Surface | None = None
) -> tuple[Canvas, Choice]:
    """Draw ``state`` at ``size``; returns the canvas (surface and text placements) and the scene. With
    ``into`` (a surface of ``size``) the frame is drawn on it, replacing what it held.

    Once the scene's animation is over, a frame of the state differs from the one a second before only
    in what changes by itself (the countdown): the rest is the scene's *layer*, kept (:data:`LAYERS`)
    from the state's second frame on (most states are drawn once); each frame is then the layer and the
    countdown drawn over it."""
    board = Board(state if isinstance(state, Mapping) else {})
    canvas = new_canvas(size, now, into)
    choice = choose(board)
    if now < choice.animation:
        if choice.layered and not board.paused:  # what moves over a layer kept for the whole animation
            return _animate(canvas, board, choice, size), choice
        _draw(canvas, board, choice)  # every frame of this animation is a new picture
        return canvas, choice
    # paused, the countdown stands still: the whole frame is the layer
    still = board.paused or board.raw.get("remaining") is None
    key = (size, _text(board.raw, "" if still else "remaining"))
    layer = LAYERS.copy_onto(key, canvas.surface)
    if layer == Layers.TIMED:  # this scene reads the time left itself: its layer is of the exact time
        key = (size, _text(board.raw, ""))
        layer = LAYERS.copy_onto(key, canvas.surface)
    if isinstance(layer, Layer):
        canvas.placements.extend(layer.placements)
        live = layer.live
    elif not LAYERS.seen(key):  # drawn once only, most states are: keeping a copy would be wasted
        _draw(canvas, board, choice)
        return canvas, choice
    else:
        canvas.live = [] if not still else None  # paused: the pause veils the countdown, in the layer
        _draw(canvas, board, choice)
        live, canvas.live = tuple(canvas.live or ()), None
        if board.remaining_reads and not still:
            LAYERS.mark_timed(key)
            key = (size, _text(board.raw, ""))
        LAYERS.keep(key, canvas.surface, tuple(canvas.placements), live)
    for part in live:
        part(canvas, board)
    return canvas, choice


def _animate(canvas: Canvas, board: Board, choice: Choice, size: tuple[int, int]) -> Canvas:
    """A frame of a layered animation (:attr:`Choice.layered`): the layer of everything that stands still,
    drawn on the animation's first frame and kept (:data:`LAYERS`), then the parts that move drawn over it.
    Issue 30: a 40-seat scene's animation frame within 4.2 ms, as its still frames are."""
    key = (size, _text(board.raw, ""), "animating", None if choice.stage is None else choice.stage(canvas.now))
    layer = LAYERS.copy_onto(key, canvas.surface)
    if isinstance(layer, Layer):
        canvas.placements.extend(layer.placements)
        live = layer.live
    else:
        canvas.live = []
        _draw(canvas, board, choice)
        live, canvas.live = tuple(canvas.live), None
        LAYERS.keep(key, canvas.surface, tuple(canvas.placements), live)
    for part in live:
        part(canvas, board)
    return canvas


def _draw(canvas: Canvas, board: Board, choice: Choice) -> None:
    background(canvas)
    choice.draw(canvas, board)
    if board.paused:
        pause.draw(canvas, board)


def _text(state: Mapping[str, Any], leave_out: str) -> str:
    """``state`` as one canonical string (a layer's key), without the ``leave_out`` field."""
    return json.dumps({k: v for k, v in state.items() if k != leave_out}, sort_keys=True, default=repr)


@dataclass(frozen=True)
class Layer:
    """A scene's frame for one state without the parts that change by themselves (``live``)."""

    surface: pygame.Surface
    placements: tuple[Placement, ...]
    live: tuple[Callable[[Canvas, Any], None], ...]


class Layers:
    """The layers of the last few states drawn (a 1080p layer is 8 MB: only a few are kept, and the
    surface of the one dropped is drawn on by the next, not allocated again). Thread safe: a layer is
    copied from and onto only under the lock (the admin page's picture is drawn on another thread)."""

    TIMED = "timed"
    """In place of a layer: the scene reads the time left itself, so its layer is keyed by it too."""

    def __init__(self, most: int = 3) -> None:
        self.most = most
        self._lock = threading.Lock()
        self._layers: OrderedDict[Hashable, Layer | str] = OrderedDict()
        self._spare: pygame.Surface | None = None
        self._seen: OrderedDict[Hashable, None] = OrderedDict()

    def seen(self, key: Hashable) -> bool:
        """Whether a frame of ``key`` was drawn before (its layer is kept from the second one on)."""
        with self._lock:
            before = key in self._seen
            self._seen[key] = None
            self._seen.move_to_end(key)
            while len(self._seen) > 8 * self.most:
                self._seen.popitem(last=False)
            return before

    def copy_onto(self, key: Hashable, surface: pygame.Surface) -> Layer | str | None:
        """The layer of ``key`` blitted on ``surface`` (returned, with its placements and live parts);
        :data:`TIMED` or None (nothing blitted) when there is none."""
        with self._lock:
            layer = self._layers.get(key)
            if layer is None:
                return None
            self._layers.move_to_end(key)
            if isinstance(layer, Layer):
                surface.blit(layer.surface, (0, 0))
            return layer

    def keep(self, key: Hashable, frame: pygame.Surface, placements: tuple[Placement, ...],
             live: tuple[Callable[[Canvas, Any], None], ...]) -> None:
        """Keep a copy of ``frame`` as the layer of ``key``."""
        with self._lock:
            spare, self._spare = self._spare, None
            if spare is None or spare.get_size() != frame.get_size():
                spare = pygame.Surface(frame.get_size())
            spare.blit(frame, (0, 0))
            self._put(key, Layer(spare, placements, live))

    def mark_timed(self, key: Hashable) -> None:
        with self._lock:
            self._put(key, self.TIMED)

    def _put(self, key: Hashable, layer: Layer | str) -> None:
        self._layers[key] = layer
        self._layers.move_to_end(key)
        while self._kept() > self.most or len(self._layers) > 4 * self.most:
            _, dropped = self._layers.popitem(last=False)
            if isinstance(dropped, Layer):
                self._spare = dropped.surface

    def _kept(self) -> int:
        return sum(isinstance(layer, Layer) for layer in self._layers.values())

    def clear(self) -> None:
        with self._lock:
            self._layers.clear()
            self._seen.clear()
            self._spare = None


LAYERS = Layers()


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
