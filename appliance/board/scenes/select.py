"""Which scene a board state shows: a :class:`Choice` names it, draws it, and says how it animates."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from appliance.board.canvas import Canvas
from appliance.board.state import Board

Draw = Callable[[Canvas, Board], None]


@dataclass(frozen=True)
class Choice:
    """A scene for one state.

    ``key`` identifies the *moment* (e.g. "question 3 revealed"): the animation clock ``now`` given to
    the renderer counts from when the key last changed, so a late lock-in does not replay the die roll.
    ``animation`` is how many seconds after that the frame still changes (0: a still frame); ``layered``
    says which parts do."""

    name: str
    draw: Draw
    key: Hashable = ()
    animation: float = 0.0
    layered: bool = False
    stage: Callable[[float], Hashable] | None = None
    """For a layered scene whose still part grows as it animates (sQuizz's totals, one row at a time): the
    stage at a time ``now``; the layer is drawn again when it changes."""
    """The scene draws everything that moves during its animation through :meth:`Canvas.later`: the rest is one
    layer, drawn on the animation's first frame and kept for the others (appliance/board/compose.py)."""
