"""Standings: each game's totals as a leaderboard of bars (scores, stacks, chips, correct answers)."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
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


def draw_table(canvas: Canvas, board: Board, area: Rect, rows: list[Standing], unit: str,
               shown: list[float] | None = None, winners: frozenset[str] = frozenset()) -> None:
    """One bar per player, longest for the most; ``shown[i]`` (0..1) lets a row count up in a reveal."""
    if not rows:
        return
    gap = canvas.u(12)
    height = min(canvas.u(92), (area.height - gap * (len(rows) - 1)) // len(rows))
    most = max(max(abs(r.value) for r in rows), 1)
    narrow = area.width < canvas.u(1200)
    name_width = round(area.width * (0.4 if narrow else 0.26))
    value_width = round(area.width * (0.28 if narrow else 0.2))
    places = ranks([r.value for r in rows])
    for index, row in enumerate(rows):
        fraction = 1.0 if shown is None else shown[index]
        if fraction <= 0:
            continue
        box = Rect(area.left, area.top + index * (height + gap), area.width, height)
        colour = board.colour(row.name)
        place = Rect(box.left, box.top, canvas.u(70), box.height)
        canvas.text(place, f"{places[index]}", 44, theme.GOLD if row.name in winners else theme.MUTED, role="title",
                    max_lines=1)
        pill = Rect(place.right + canvas.u(8), box.top, name_width, box.height)
        canvas.pill(pill, colour, row.name, 38)
        track = Rect(pill.right + canvas.u(20), box.top + box.height // 5,
                     box.right - value_width - pill.right - canvas.u(40), box.height - 2 * (box.height // 5))
        pygame.draw.rect(canvas.surface, theme.PANEL, track, border_radius=canvas.u(10))
        value = round(row.value * fraction)
        if row.value > 0:
            bar = Rect(track.left, track.top, max(canvas.u(10), round(track.width * value / most)), track.height)
            pygame.draw.rect(canvas.surface, colour, bar, border_radius=canvas.u(10))
        label = Rect(box.right - value_width, box.top, value_width, box.height)
        words = f"{value} {unit if abs(value) != 1 else unit.rstrip('s')}"
        colour = theme.GOLD if row.name in winners else theme.TEXT
        canvas.text(label, words, 42, colour, role="title", align="right", max_lines=1)
