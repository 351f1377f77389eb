"""Standings: each game's totals as a leaderboard of bars (scores, stacks, chips, correct answers)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import pygame

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scenes.common import ROOM_ROW, beside_badge, seat_pill, texts_fit
from appliance.board.state import Board, as_int
from appliance.games import registry
from appliance.games.standings import Standing as GameStanding


@dataclass(frozen=True)
class Standing:
    name: str
    value: int


def totals(board: Board) -> GameStanding:
    """The game's points table from its public view's ``standings`` block (appliance.games.base.Totals).

    sQuizz keeps token values hidden until the end (rules.md sQuizz 5): during the game its table is the
    correct answers, which are public; the points appear only once the game is over."""
    return registry.read_standing(board.game, board.view, board.in_game())


def unit(board: Board) -> str:
    """What the totals count ("points", "chips", "correct")."""
    return totals(board).unit


def standings(board: Board) -> list[Standing]:
    """Best first; equal totals keep seat order."""
    points = totals(board).points
    rows = [Standing(name, as_int(points.get(name), 0) or 0) for name in board.in_game()]
    return sorted(rows, key=lambda s: -s.value)


def ranks(values: list[int]) -> list[int]:
    """Places for totals sorted best first; equal totals share a place (1, 2, 2, 4)."""
    places: list[int] = []
    for index, value in enumerate(values):
        places.append(places[-1] if index and value == values[index - 1] else index + 1)
    return places


SHORT_UNITS = {"points": "pts"}
"""A unit as a room's narrow columns write it."""


def short_points(value: int) -> str:
    """"1 pt", "0 pts", "12 pts" (the TV said "1 pts", issue 31)."""
    return f"{value} pt" if abs(value) == 1 else f"{value} pts"


def table_columns(canvas: Canvas, area: Rect, count: int, most: int = 5) -> int:
    """How many columns a table of ``count`` rows takes in ``area``: one while its rows keep
    :data:`~appliance.board.scenes.common.ROOM_ROW` units, more for a room (a ranking reads down each)."""
    gap = canvas.u(12)
    cols = 1
    while cols < most and -(-count // cols) * (canvas.u(ROOM_ROW) + gap) - gap > area.height:
        cols += 1
    return cols


class TableGrid(NamedTuple):
    cols: int
    per: int  # rows per column
    col_gap: int
    width: int  # a row's
    height: int  # a row's


def table_grid(canvas: Canvas, area: Rect, count: int, gap: int, tallest: int) -> TableGrid:
    """Where a table of ``count`` rows goes in ``area``: in columns read down each (:func:`table_columns`),
    ``gap`` pixels between rows, a row at most ``tallest`` pixels high."""
    cols = table_columns(canvas, area, count)
    per = -(-count // cols)
    col_gap = canvas.u(32)
    width = (area.width - col_gap * (cols - 1)) // cols
    height = min(tallest, (area.height - gap * (per - 1)) // per)
    return TableGrid(cols, per, col_gap, width, height)


def draw_table(canvas: Canvas, board: Board, area: Rect, rows: list[Standing], unit: str,
               shown: list[float] | None = None, winners: frozenset[str] = frozenset()) -> None:
    """One bar per player, longest for the most; ``shown[i]`` (0..1) lets a row count up in a reveal. A room
    is drawn in columns, read down each (:func:`table_columns`); each row has its place, the seat number
    and the name (the seat number alone where not every name would fit), the bar while there is room for
    it, and the total."""
    if not rows:
        return
    gap = canvas.u(12)
    _, per, col_gap, width, height = table_grid(canvas, area, len(rows), gap, canvas.u(92))
    most = max(max(abs(r.value) for r in rows), 1)
    narrow = width < canvas.u(1200)
    wide = width >= canvas.u(900)
    name_width = round(width * (0.4 if narrow else 0.26)) if wide else round(width * 0.5)
    value_width = round(width * (0.28 if narrow else 0.2)) if wide else round(width * 0.32)
    sample = Rect(0, 0, name_width, height)
    names = texts_fit(canvas, beside_badge(canvas, sample), [r.name for r in rows], 38)
    places = ranks([r.value for r in rows])
    for index, row in enumerate(rows):
        fraction = 1.0 if shown is None else shown[index]
        if fraction <= 0:
            continue
        col, line = divmod(index, per)
        box = Rect(area.left + col * (width + col_gap), area.top + line * (height + gap), width, height)
        colour = board.colour(row.name)
        place = Rect(box.left, box.top, canvas.u(70), box.height)
        canvas.text(place, f"{places[index]}", 44, theme.GOLD if row.name in winners else theme.MUTED, role="title",
                    max_lines=1)
        pill = Rect(place.right + canvas.u(8), box.top, name_width, box.height)
        if not names:
            pill.width = canvas.badge_box(pill).width + canvas.u(8)
        seat_pill(canvas, board, pill, row.name, 38, text=None if names else "")
        value = round(row.value * fraction)
        label = Rect(box.right - value_width, box.top, value_width, box.height)
        track = Rect(pill.right + canvas.u(20), box.top + box.height // 5,
                     label.left - pill.right - canvas.u(40), box.height - 2 * (box.height // 5))
        if track.width >= canvas.u(60):
            pygame.draw.rect(canvas.surface, theme.PANEL, track, border_radius=canvas.u(10))
            if row.value > 0:
                bar = Rect(track.left, track.top, max(canvas.u(10), round(track.width * value / most)), track.height)
                pygame.draw.rect(canvas.surface, colour, bar, border_radius=canvas.u(10))
        said = unit if wide or names else SHORT_UNITS.get(unit, unit)
        words = f"{value} {said if abs(value) != 1 else said.rstrip('s')}"
        colour = theme.GOLD if row.name in winners else theme.TEXT
        canvas.text(label, words, 42, colour, role="title", align="right", max_lines=1)
