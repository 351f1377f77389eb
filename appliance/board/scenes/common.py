"""Pieces every scene uses: the background, the header and footer, player pills, the countdown."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

import pygame

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.state import Board
from appliance.board.theme import line_step
from appliance.games import registry

GAME_TITLES: Mapping[str, str] = {spec.id: spec.title for spec in registry.SPECS}


def game_title(game: str | None) -> str:
    return registry.title(game)


@lru_cache(maxsize=4)
def _background(size: tuple[int, int]) -> pygame.Surface:
    """A dark studio floor with a soft spotlight from the top (drawn once per frame size)."""
    width, height = size
    surface = pygame.Surface(size)
    surface.fill(theme.BACKGROUND)
    steps = 24
    for i in range(steps):
        t = i / steps
        colour = theme.mix(theme.BACKGROUND_GLOW, theme.BACKGROUND, t**0.7)
        box = Rect(0, 0, round(width * (1.5 - t)), round(height * (1.3 - t) * 1.1))
        box.center = (width // 2, -round(height * 0.15) + round(height * 0.1 * t))
        pygame.draw.ellipse(surface, colour, box)
    return surface


def background(canvas: Canvas) -> None:
    canvas.surface.blit(_background(canvas.surface.get_size()), (0, 0))


def header(canvas: Canvas, title: str, subtitle: str = "") -> Rect:
    """The title line at the top (gold), an optional subtitle; returns the space left below it."""
    area = canvas.rect.inflate(-2 * canvas.theme.margin, 0)
    title_box = Rect(area.left, canvas.u(24), area.width, canvas.u(96))
    canvas.text(title_box, title, 80, theme.GOLD, role="title", max_lines=1)
    top = title_box.bottom
    if subtitle:
        # One line when it fits; a long question (a reveal's subtitle) takes up to three.
        sub_box = Rect(area.left, top, area.width, canvas.u(52))
        for lines in (2, 3, 4):
            if canvas.fits(sub_box, subtitle, 40):
                break
            sub_box.height = lines * line_step(canvas.theme.min_text) + canvas.u(8)
        canvas.text(sub_box, subtitle, 40, theme.MUTED)
        top = sub_box.bottom
    return Rect(area.left, top + canvas.u(16), area.width, canvas.rect.height - top - canvas.u(16))


def footer(canvas: Canvas, board: Board, area: Rect) -> Rect:
    """The session's message and the host's cue along the bottom; returns ``area`` minus that strip."""
    parts = []
    if board.message:
        parts.append(board.message)
    waiting = board.raw.get("waiting") is True  # players are still answering: NEXT would cut them off
    if board.can_advance and not board.paused and not waiting:
        parts.append("Quizmaster: press NEXT")
    away = board.raw.get("seats_away")
    if isinstance(away, list) and away:  # a seat whose handset is offline: its code is the quizmaster's
        parts.append(f"{', '.join(str(n) for n in away[:4])}{' ...' if len(away) > 4 else ''}: handset away, "
                     "ask the quizmaster")
    if not parts:
        return Rect(area.left, area.top, area.width, area.height - canvas.u(24))
    strip_height = canvas.u(64)
    strip = Rect(area.left, area.bottom - strip_height - canvas.u(16), area.width, strip_height)
    canvas.text(strip, "   |   ".join(parts), 34, theme.MUTED, max_lines=2)
    return Rect(area.left, area.top, area.width, strip.top - area.top - canvas.u(8))


def rows(area: Rect, count: int, gap: int) -> list[Rect]:
    """``area`` cut into ``count`` rows of equal height."""
    if count <= 0:
        return []
    height = (area.height - gap * (count - 1)) // count
    return [Rect(area.left, area.top + i * (height + gap), area.width, height) for i in range(count)]


def columns(area: Rect, count: int, gap: int) -> list[Rect]:
    if count <= 0:
        return []
    width = (area.width - gap * (count - 1)) // count
    return [Rect(area.left + i * (width + gap), area.top, width, area.height) for i in range(count)]


def grid(area: Rect, count: int, gap: int, max_columns: int = 4, max_row: int | None = None) -> list[Rect]:
    """``count`` cells filling ``area`` row by row (at most ``max_columns`` per row)."""
    if count <= 0:
        return []
    cols = min(count, max_columns)
    lines = -(-count // cols)
    cells: list[Rect] = []
    for row in rows(area, lines, gap):
        if max_row is not None and row.height > max_row:
            row = Rect(row.left, row.top, row.width, max_row)
        cells.extend(columns(row, cols, gap))
    return cells[:count]


def stack_top(area: Rect, count: int, height: int, gap: int) -> list[Rect]:
    """``count`` rows of ``height`` from the top of ``area`` (shrunk evenly when they do not fit)."""
    if count <= 0:
        return []
    if count * height + (count - 1) * gap > area.height:
        return rows(area, count, gap)
    return [Rect(area.left, area.top + i * (height + gap), area.width, height) for i in range(count)]


PILL_ROW = 84
"""Units: a pill's height where there is room."""
ROOM_ROW = 52
"""Units: the lowest pill row of a room (a line of the minimum text, 36 units, inside the seat badge)."""


def seat_pill(canvas: Canvas, board: Board, box: Rect, name: str, size: float = 40, dim: bool = False,
              text: str | None = None) -> Rect:
    """``name`` (or ``text`` for it) on the player's colour, their seat number in a badge at its left."""
    return canvas.pill(box, board.colour(name), name if text is None else text, size, dim,
                       seat=board.seat_number(name))


def beside_badge(canvas: Canvas, pill: Rect) -> Rect:
    """The box a pill's text has beside its seat badge."""
    inner = pill.inflate(-max(pill.height // 2, canvas.u(16)), -canvas.u(2))
    badge = canvas.badge_box(pill)
    return Rect(badge.right + canvas.u(10), inner.top, inner.right - badge.right - canvas.u(10), inner.height)


def texts_fit(canvas: Canvas, box: Rect, texts: Sequence[str], size: float) -> bool:
    """Whether every text fits ``box`` at the board's minimum size or above (a room's layout shows the names
    only when all of them fit: seat numbers alone otherwise, never a name below the minimum)."""
    return box.width > 0 and all(canvas.fits(box, text, size) for text in texts)


def room_grid(canvas: Canvas, area: Rect, count: int, gap: int, max_columns: int = 4,
              min_width: float = 150, down: bool = False) -> list[Rect]:
    """``count`` cells for pills: as :func:`grid` with rows of up to :data:`PILL_ROW` units while they keep
    :data:`ROOM_ROW`; more columns when a room would squeeze them lower (cells at least ``min_width``
    units wide). ``down``: numbered down each column first (a ranking reads down)."""
    if count <= 0:
        return []
    row = canvas.u(ROOM_ROW)
    cols = min(count, max_columns)
    most = max(cols, (area.width + gap) // (canvas.u(min_width) + gap))
    while cols < most and -(-count // cols) * (row + gap) - gap > area.height:
        cols += 1
    lines = -(-count // cols)
    height = min(canvas.u(PILL_ROW), (area.height - gap * (lines - 1)) // lines)
    width = (area.width - gap * (cols - 1)) // cols
    cells = []
    for index in range(count):
        line, col = (index % lines, index // lines) if down else divmod(index, cols)
        cells.append(Rect(area.left + col * (width + gap), area.top + line * (height + gap), width, height))
    return cells


def pills_height(canvas: Canvas, width: int, count: int, max_columns: int = 4, lines: int = 4) -> int:
    """The height a strip of ``count`` pills asks for: rows of :data:`PILL_ROW` units for a table, and for a
    room at most ``lines`` rows of :data:`ROOM_ROW` (as many columns as that takes)."""
    gap = canvas.u(16)
    if count <= 2 * max_columns:
        rows_ = -(-count // max_columns) or 1
        return rows_ * canvas.u(PILL_ROW) + (rows_ - 1) * gap
    gap = canvas.u(10)
    most = max(max_columns, (width + gap) // (canvas.u(150) + gap))
    rows_ = max(-(-count // most), min(lines, -(-count // max_columns)))
    return rows_ * canvas.u(ROOM_ROW + 8) + (rows_ - 1) * gap


def player_pills(
    canvas: Canvas,
    board: Board,
    area: Rect,
    names: Sequence[str],
    mark: Callable[[str], str] | None = None,
    dim: Callable[[str], bool] | None = None,
    max_columns: int = 4,
    label: Callable[[str], str] | None = None,
    short: Callable[[str], str] | None = None,
) -> dict[str, Rect]:
    """Each name as a pill in its colour with its seat number, an optional mark ("lock", "tick", "cross", "")
    on the right. A room gets more columns (:func:`room_grid`); where the names (``label``) would not fit at
    the minimum size, every pill shows ``short`` (default: nothing) beside its seat number instead."""
    gap = canvas.u(16) if len(names) <= 2 * max_columns else canvas.u(10)
    cells = room_grid(canvas, area, len(names), gap, max_columns)
    marked = {name: mark(name) if mark else "" for name in names}
    texts = {name: label(name) if label else name for name in names}
    if cells:
        pill = cells[0].copy()
        if any(marked.values()):
            pill.width -= pill.height + canvas.u(8)
        if not texts_fit(canvas, beside_badge(canvas, pill), list(texts.values()), 40):
            texts = {name: short(name) if short else "" for name in names}
    placed: dict[str, Rect] = {}
    for name, cell in zip(names, cells, strict=False):
        kind = marked[name]
        pill = cell.copy()
        if kind:
            pill.width -= cell.height + canvas.u(8)
        seat_pill(canvas, board, pill, name, 40, bool(dim and dim(name)), texts[name])
        if kind:
            centre = (cell.right - cell.height // 2, cell.centery)
            radius = cell.height * 2 // 5
            if kind == "lock":
                canvas.lock(centre, radius)
            elif kind == "tick":
                canvas.tick(centre, radius)
            elif kind == "cross":
                canvas.cross(centre, radius)
        placed[name] = cell
    return placed


RING_SPANS = (10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 1200, 3600)
"""The state says how long is left, not how long there was: the ring is full at the next span up."""


def countdown(canvas: Canvas, centre: tuple[int, int], radius: int, remaining: float) -> None:
    """A ring emptying with the time left and the whole seconds left in it (gold, then vermillion)."""
    total = next((span for span in RING_SPANS if span >= remaining), remaining)
    seconds = max(0, int(remaining + 0.999))
    colour = theme.WRONG if remaining <= 5 else theme.GOLD
    fraction = remaining / total if total > 0 else 0.0
    canvas.ring(centre, radius, fraction, colour, max(3, radius // 7))
    box = Rect(0, 0, radius * 2 - radius // 2, radius)
    box.center = centre
    canvas.text(box, str(seconds), radius * 1.0 / canvas.theme.unit, theme.TEXT, role="title", max_lines=1)


def live_countdown(canvas: Canvas, board: Board, centre: tuple[int, int], radius: int) -> None:
    """:func:`countdown` of the board's time left, drawn on every frame (a scene's layer does not hold it)."""

    def draw(on: Canvas, now: Board) -> None:
        remaining = now.remaining
        if remaining is not None:
            countdown(on, centre, radius, remaining)

    canvas.later(draw, board)


def progress(t: float, duration: float) -> float:
    """0..1 over ``duration`` seconds, eased out (fast start, gentle stop)."""
    if duration <= 0 or t >= duration:
        return 1.0
    x = max(0.0, t / duration)
    return 1 - (1 - x) ** 3
