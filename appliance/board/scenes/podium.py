"""The podium for a room (issue 30): the top three big on their steps, then every other place of the room in
columns read down each (place, seat number, the name where every name fits, the total), all on one screen up
to 40 places at 28 px or more at 1080p.

Drawn at a quiz night's end (:func:`appliance.board.scenes.night.draw_podium`) and at a room game's end
(:func:`appliance.board.scenes.results.draw_winners`). Pure: the places and totals are the caller's rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scenes.common import beside_badge, progress, seat_pill, texts_fit
from appliance.board.state import Board

RISE_SECONDS = 1.2
"""The steps rise over this long."""
STEPS = {1: 1.0, 2: 0.72, 3: 0.5}
SLOTS = ((2, 0), (1, 1), (3, 2))
"""Second on the left, first in the middle, third on the right."""
TIED_SHOWN = 3
"""At most this many names on one step: more level on it show as "and N more" (their places are below)."""
CELL_UNITS = 56
"""A row of the places below the podium."""
CELL_WIDTH_UNITS = 250
"""The narrowest column of places: the place, the seat badge and a total of four digits."""

Row = tuple[str, int, int]
"""(player, place, total), best first."""


def words(total: int, unit: str) -> str:
    return f"{total} {unit if abs(total) != 1 else unit.rstrip('s')}"


def on_step(rows: Sequence[Row], place: int) -> list[str]:
    """The names drawn on ``place``'s step: all who share it, or the first few of a crowd."""
    names = [name for name, p, _ in rows if p == place]
    return names if len(names) <= TIED_SHOWN else names[:TIED_SHOWN - 1]


def draw(canvas: Canvas, board: Board, area: Rect, rows: Sequence[Row], unit: str = "points",
         backdrop: Callable[[Canvas, Rect], None] | None = None) -> None:
    """The podium of ``rows`` in ``area``; ``backdrop(canvas, rect)`` draws behind the steps first (confetti). The steps
    and the backdrop are drawn through :meth:`Canvas.later`: a scene that calls this may be layered
    (:attr:`Choice.layered`), the places below drawn once for the whole animation."""
    stepped = {name for place in (1, 2, 3) for name in on_step(rows, place)}
    rest = [row for row in rows if row[0] not in stepped]
    gap = canvas.u(8)
    cols = _columns(canvas, area, len(rest))
    per = -(-len(rest) // cols) if rest else 0
    rest_height = per * (canvas.u(CELL_UNITS) + gap)
    podium_height = area.height - rest_height - (canvas.u(20) if rest else 0)
    podium = Rect(area.left, area.top, area.width, min(podium_height, round(area.height * (0.8 if rest else 0.95))))

    def rising(on: Canvas, now: Board) -> None:  # what moves: the confetti and the steps rising with the top three
        if backdrop is not None:
            backdrop(on, Rect(podium.left, podium.top, podium.width, podium.height // 2))
        _steps(on, now, podium, rows, unit)

    canvas.later(rising, board)
    if rest:
        places = Rect(area.left, area.bottom - rest_height, area.width, rest_height)
        _places(canvas, board, places, rest, unit, cols, per)


def _columns(canvas: Canvas, area: Rect, count: int) -> int:
    """Columns for ``count`` places: as few as keep them within half of ``area``, as many as fit."""
    if count <= 0:
        return 1
    gap = canvas.u(24)
    most = max(1, (area.width + gap) // (canvas.u(CELL_WIDTH_UNITS) + gap))
    cols = 1
    while cols < most and -(-count // cols) * canvas.u(CELL_UNITS + 8) > area.height * 0.45:
        cols += 1
    return cols


def _steps(canvas: Canvas, board: Board, podium: Rect, rows: Sequence[Row], unit: str) -> None:
    width = podium.width // 3
    rise = progress(canvas.now, RISE_SECONDS)
    pill_height = min(canvas.u(76), podium.height // 6)
    for place, column in SLOTS:
        names = [name for name, p, _ in rows if p == place]
        if not names:
            continue
        total = next(t for _, p, t in rows if p == place)
        more = len(names) - len(on_step(rows, place))
        room = podium.height - TIED_SHOWN * (pill_height + canvas.u(10)) if more else \
            podium.height - len(names) * (pill_height + canvas.u(10))
        names = on_step(rows, place)
        block_height = round(min(podium.height * 0.55, room) * STEPS[place] * rise)
        block = Rect(podium.left + column * width + canvas.u(16), podium.bottom - block_height,
                     width - canvas.u(32), block_height)
        pygame.draw.rect(canvas.surface, theme.GOLD if place == 1 else theme.PANEL_EDGE, block,
                         border_radius=canvas.u(14))
        if block.height > canvas.u(150):
            canvas.text(Rect(block.left, block.top, block.width, canvas.u(100)), str(place), 90, theme.BACKGROUND,
                        role="title", max_lines=1)
        lines = [*names, ""] if more else names
        for index, name in enumerate(lines):
            top = block.top - (len(lines) - index) * (pill_height + canvas.u(10))
            box = Rect(block.left, top, block.width, pill_height)
            if name:
                seat_pill(canvas, board, box, name, 40)
            else:  # a crowd level on the step: its other names are among the places below
                canvas.text(box, f"and {more} more below", 36, theme.TEXT, role="title", max_lines=1)
        if block.height > canvas.u(70):
            canvas.text(Rect(block.left, block.bottom - canvas.u(66), block.width, canvas.u(60)), words(total, unit),
                        40, theme.BACKGROUND if place == 1 else theme.TEXT, role="title", max_lines=1)


def _places(canvas: Canvas, board: Board, area: Rect, rows: Sequence[Row], unit: str, cols: int, per: int) -> None:
    gap, col_gap = canvas.u(8), canvas.u(24)
    width = (area.width - col_gap * (cols - 1)) // cols
    height = canvas.u(CELL_UNITS)
    place_width = canvas.u(64)
    value_width = round(width * 0.3)
    pill = Rect(0, 0, min(canvas.u(560), width - place_width - value_width - canvas.u(16)), height)
    named = texts_fit(canvas, beside_badge(canvas, pill), [name for name, _, _ in rows], 36)
    if not named:
        pill.width = canvas.badge_box(pill).width + canvas.u(8)
        value_width = width - place_width - pill.width - canvas.u(16)
    short = not texts_fit(canvas, Rect(0, 0, value_width, height), [words(t, unit) for _, _, t in rows], 36)
    for index, (name, place, total) in enumerate(rows):
        col, line = divmod(index, per)
        box = Rect(area.left + col * (width + col_gap), area.top + line * (height + gap), width, height)
        canvas.text(Rect(box.left, box.top, place_width, height), str(place), 38, theme.MUTED, role="title",
                    max_lines=1)
        seat_pill(canvas, board, Rect(box.left + place_width + canvas.u(8), box.top, pill.width, height), name, 36,
                  text=None if named else "")
        said = str(total) if short else words(total, unit)
        canvas.text(Rect(box.right - value_width, box.top, value_width, height), said, 36, theme.TEXT, role="title",
                    align="right", max_lines=1)
