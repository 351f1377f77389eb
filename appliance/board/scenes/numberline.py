"""Ranges as bars on one number line with the answer marked (Confident reveal, poker showdown).

One row per player: their name on their colour at the left, their range as a bar in that colour on the
shared line (a dot for a range of size 0), the range's ends written beside it, and a caller-drawn
column at the right (points, pot shares). The scale is chosen by :mod:`appliance.board.scale`
(linear, log, or symmetric log across zero) from every range end and the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

import pygame

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scale import Scale, choose_scale
from appliance.board.state import Board, as_list, as_number, show_number
from appliance.games.numbers import format_compact

LABEL_SIZE = 30
"""Range labels are written at the board's minimum size: the bars carry the picture."""


@dataclass(frozen=True)
class Row:
    name: str
    low: Decimal | None  # None: no range (copy cycle, timed out, folded unseen)
    high: Decimal | None
    note: str = ""  # e.g. "copied Bob · ×2"
    dim: bool = False
    hidden: bool = False  # no range drawn because its player keeps it hidden (poker), not because there is none
    best: bool = False  # the winning range: outlined in gold (found at a glance in a room)


def empty_words(row: Row) -> str:
    """What a row without a range says: its note alone for a range kept hidden, else "no range"."""
    if row.hidden and row.note:
        return row.note
    return "no range" + (f" · {row.note}" if row.note else "")


def parse_range(value: object) -> tuple[Decimal | None, Decimal | None]:
    ends = as_list(value)
    if len(ends) != 2:
        return None, None
    low, high = as_number(ends[0]), as_number(ends[1])
    if low is None or high is None:
        return None, None
    return low, high


def draw(
    canvas: Canvas,
    board: Board,
    area: Rect,
    rows: Sequence[Row],
    answer: Decimal | None,
    grow: float,
    right: Callable[[Canvas, Rect, Row], None] | None = None,
    right_width: float = 0.16,
    seat: Callable[[str], int | None] | None = None,
    grow_at: Callable[[float], float] | None = None,
) -> None:
    """The rows on one line. With ``seat`` (a player's seat number), a room that would squeeze the rows
    below a readable height is drawn by :func:`draw_room` instead. With ``grow_at`` (the growth at an animation
    time), the growing bars are drawn through :meth:`Canvas.later`, over a still layer (``Choice.layered``)."""
    values = [v for r in rows for v in (r.low, r.high) if v is not None]
    if answer is not None:
        values.append(answer)
    scale = choose_scale(values)
    if seat is not None:
        room = area.height - canvas.u(56) - canvas.u(60)
        if len(rows) * canvas.u(ROOM_ROW + 10) > room:
            draw_room(canvas, board, area, rows, answer, grow, right, scale, seat, grow_at)
            return
    name_width = round(area.width * (0.17 if len(rows) <= 5 else 0.24))
    if seat is not None:  # the seat badge takes its own room, not the name's
        name_width += canvas.badge_box(Rect(0, 0, name_width, canvas.u(60))).width + canvas.u(10)
    right_px = round(area.width * right_width) if right else 0
    gap = canvas.u(20)
    line = Rect(area.left + name_width + gap, area.top, area.width - name_width - right_px - 2 * gap, area.height)
    axis_height = canvas.u(60)
    body = Rect(area.left, area.top + canvas.u(56), area.width, area.height - axis_height - canvas.u(56))
    count = max(1, len(rows))
    row_gap = canvas.u(10)
    row_height = min(canvas.u(120), (body.height - row_gap * (count - 1)) // count)

    def x_of(value: Decimal | float) -> int:
        return line.left + round(scale.position(value) * line.width)

    _axis(canvas, line, body.top + count * (row_height + row_gap), scale, x_of)
    for index, row in enumerate(rows):
        box = Rect(area.left, body.top + index * (row_height + row_gap), area.width, row_height)
        _row(canvas, board, box, name_width, line, row, x_of, grow, seat, grow_at)
        if right is not None:
            right(canvas, Rect(area.right - right_px, box.top, right_px, box.height), row)
    if answer is not None and grow >= 1:
        x = x_of(answer)
        bottom = body.top + count * (row_height + row_gap)
        pygame.draw.line(canvas.surface, theme.GOLD, (x, area.top + canvas.u(50)), (x, bottom), canvas.u(6))
        label = Rect(0, area.top, canvas.u(460), canvas.u(52))
        label.centerx = min(max(x, line.left + label.width // 2), line.right - label.width // 2)
        pygame.draw.rect(canvas.surface, theme.GOLD, label, border_radius=canvas.u(12))
        canvas.text(label.inflate(-canvas.u(16), 0), f"Answer: {show_number(str(answer))}", 38,
                    theme.ink_on(theme.GOLD), role="title", max_lines=1)


def _axis(canvas: Canvas, line: Rect, y: int, scale: Scale, x_of: Callable[[float], int]) -> None:
    pygame.draw.line(canvas.surface, theme.MUTED, (line.left, y), (line.right, y), canvas.u(3))
    ticks = scale.ticks(5 if line.width > canvas.u(900) else 3)
    label_width = canvas.u(150)
    last_right = -10**9
    for value in ticks:
        x = x_of(value)
        pygame.draw.line(canvas.surface, theme.MUTED, (x, y - canvas.u(8)), (x, y + canvas.u(8)), canvas.u(3))
        box = Rect(0, y + canvas.u(10), label_width, canvas.u(46))
        box.centerx = x
        if box.left <= last_right:
            continue
        canvas.text(box, format_compact(Decimal(repr(value))), 30, theme.MUTED, max_lines=1)
        last_right = box.right
    if scale.kind != "linear":
        note = Rect(line.right - canvas.u(300), y - canvas.u(50), canvas.u(300), canvas.u(40))
        canvas.text(note, "log scale", 30, theme.MUTED, align="right", max_lines=1)


def _bar(ends: tuple[int, int], grow: float, centre_y: int, thick: int, least: int) -> Rect:
    """A range's bar between its ends' x, ``grow`` (0..1) of its width about its middle, at least ``least``."""
    left, right = ends
    half = max(least / 2, (right - left) / 2) * grow
    return Rect(round((left + right) / 2 - half), centre_y - thick // 2, max(least, round(2 * half)), thick)


def _track(canvas: Canvas, box: Rect, line: Rect, row: Row, x_of: Callable[[Decimal], int]) -> tuple[int, int] | None:
    """A row's track across the line; where the range's ends fall on it, or None ("no range" written)."""
    pygame.draw.line(canvas.surface, theme.PANEL_EDGE, (line.left, box.centery), (line.right, box.centery),
                     canvas.u(2))
    if row.low is None or row.high is None:
        canvas.text(Rect(line.left, box.top, line.width, box.height), empty_words(row), 30, theme.MUTED,
                    max_lines=1)
        return None
    return x_of(row.low), x_of(row.high)


def _ends(row: Row, dash: str) -> str:
    """A range's ends as written beside its bar, ``dash`` between them (one number for a range of size 0)."""
    ends = show_number(str(row.low), compact=True)
    if row.high != row.low:
        ends += f"{dash}{show_number(str(row.high), compact=True)}"
    return ends


def _beside(bar: Rect, line: Rect, box: Rect, gap: int) -> tuple[Rect, Rect]:
    """The room on ``line`` after ``bar`` and before it, ``gap`` away from it, as high as the row's ``box``."""
    return (Rect(bar.right + gap, box.top, line.right - bar.right - gap, box.height),
            Rect(line.left, box.top, bar.left - gap - line.left, box.height))


def _grown_bar(canvas: Canvas, board: Board, ends: tuple[int, int] | None, grow: float,
               grow_at: Callable[[float], float] | None,
               draw: Callable[[Canvas, tuple[int, int], float], Rect]) -> Rect | None:
    """Draw a row's bar between ``ends`` (None: no range, nothing to draw) with ``draw`` at ``grow`` (0..1) of
    its width; while it grows and ``grow_at`` gives the growth at a frame's time, draw it on every frame instead
    (canvas.later). The bar drawn now, or None: no bar to label (yet)."""
    if ends is None:
        return None
    if grow < 1 and grow_at is not None:
        growth = grow_at

        def growing(on: Canvas, _: Board) -> None:
            draw(on, ends, growth(on.now))

        canvas.later(growing, board)
        return None
    return draw(canvas, ends, grow)


def _table_bar(canvas: Canvas, y: int, row: Row, colour: theme.Colour, ends: tuple[int, int], grow: float) -> Rect:
    """A row's bar on a table's line, ``grow`` (0..1) of its width."""
    bar = _bar(ends, grow, y, canvas.u(40), canvas.u(20))
    fill = theme.mix(colour, theme.BACKGROUND, 0.55) if row.dim else colour
    pygame.draw.rect(canvas.surface, fill, bar, border_radius=canvas.u(20))
    pygame.draw.rect(canvas.surface, theme.TEXT, bar, width=canvas.u(2), border_radius=canvas.u(20))
    return bar


def _row(canvas: Canvas, board: Board, box: Rect, name_width: int, line: Rect, row: Row,
         x_of: Callable[[Decimal], int], grow: float, seat: Callable[[str], int | None] | None = None,
         grow_at: Callable[[float], float] | None = None) -> None:
    colour = board.colour(row.name)
    pill = Rect(box.left, box.top + canvas.u(4), name_width, box.height - canvas.u(8))
    canvas.pill(pill, colour, row.name, 34, dim=row.dim, seat=seat(row.name) if seat else None)
    track_y = box.centery
    bar = _grown_bar(canvas, board, _track(canvas, box, line, row, x_of), grow, grow_at,
                     lambda on, span, growth: _table_bar(on, track_y, row, colour, span, growth))
    if bar is None or grow < 1:
        return
    fill = theme.mix(colour, theme.BACKGROUND, 0.55) if row.dim else colour
    text = _ends(row, " – ") + (f" · {row.note}" if row.note else "")
    after, before = _beside(bar, line, box, canvas.u(14))
    inside = bar.inflate(-canvas.u(16), 0)
    inside.height = box.height
    inside.centery = box.centery
    needed = canvas.fit(Rect(0, 0, 10**5, box.height), text, LABEL_SIZE, max_lines=1).width
    if after.width >= needed or (after.width >= before.width and before.width < needed and inside.width < needed):
        canvas.text(after, text, LABEL_SIZE, theme.TEXT, align="left", max_lines=1)
    elif before.width >= needed or inside.width < needed:
        canvas.text(before, text, LABEL_SIZE, theme.TEXT, align="right", max_lines=1)
    else:
        canvas.text(inside, text, LABEL_SIZE, theme.ink_on(fill), role="title", max_lines=1)


ROOM_ROW = 44
"""Units: a room's range row (its seat number at the minimum size, in its colour)."""


def draw_room(canvas: Canvas, board: Board, area: Rect, rows: Sequence[Row], answer: Decimal | None, grow: float,
              right: Callable[[Canvas, Rect, Row], None] | None, scale: Scale,
              seat: Callable[[str], int | None], grow_at: Callable[[float], float] | None = None) -> None:
    """A room's ranges: in columns read down in seat order, every column the same line (one scale), each
    range a bar with its seat number at its left, the answer a gold line through every column, the
    winning ranges outlined in gold; the range's ends are written where they fit beside the bar."""
    gap, col_gap = canvas.u(8), canvas.u(36)
    top = area.top + canvas.u(60)
    body = Rect(area.left, top, area.width, area.bottom - canvas.u(60) - top)
    cols = 1
    while cols < 4 and -(-len(rows) // cols) * (canvas.u(ROOM_ROW) + gap) - gap > body.height:
        cols += 1
    per = -(-len(rows) // cols)
    height = min(canvas.u(64), (body.height - gap * (per - 1)) // per)
    width = (area.width - col_gap * (cols - 1)) // cols
    chip = canvas.u(76)
    right_px = canvas.u(130) if right else 0
    for col in range(cols):
        column = Rect(area.left + col * (width + col_gap), body.top, width, per * (height + gap) - gap)
        line = Rect(column.left + chip + canvas.u(16), column.top, column.width - chip - right_px - canvas.u(32),
                    column.height)

        def x_of(value: Decimal | float, line: Rect = line) -> int:
            return line.left + round(scale.position(value) * line.width)

        _axis(canvas, line, column.bottom + canvas.u(8), scale, x_of)
        for index, row in enumerate(rows[col * per:(col + 1) * per]):
            box = Rect(column.left, column.top + index * (height + gap), column.width, height)
            _room_row(canvas, board, box, chip, line, row, x_of, grow, seat(row.name), grow_at)
            if right is not None:
                right(canvas, Rect(column.right - right_px, box.top, right_px, box.height), row)
        if answer is not None and grow >= 1:
            x = x_of(answer)
            pygame.draw.line(canvas.surface, theme.GOLD, (x, area.top + canvas.u(50)), (x, column.bottom),
                             canvas.u(5))
            label = Rect(0, area.top, min(canvas.u(420), column.width), canvas.u(52))
            label.centerx = min(max(x, column.left + label.width // 2), column.right - label.width // 2)
            pygame.draw.rect(canvas.surface, theme.GOLD, label, border_radius=canvas.u(12))
            canvas.text(label.inflate(-canvas.u(16), 0), f"Answer: {show_number(str(answer))}", 38,
                        theme.ink_on(theme.GOLD), role="title", max_lines=1)


def _room_bar(canvas: Canvas, box: Rect, row: Row, colour: theme.Colour, ends: tuple[int, int], grow: float) -> Rect:
    """A room row's bar, ``grow`` (0..1) of its width; outlined in gold once grown if it is a winning range."""
    thick = box.height * 3 // 5
    bar = _bar(ends, grow, box.centery, thick, canvas.u(16))
    fill = theme.mix(colour, theme.BACKGROUND, 0.55) if row.dim else colour
    pygame.draw.rect(canvas.surface, fill, bar, border_radius=thick // 2)
    best = row.best and grow >= 1
    pygame.draw.rect(canvas.surface, theme.GOLD if best else theme.TEXT, bar.inflate(canvas.u(6), canvas.u(6))
                     if best else bar, width=canvas.u(5) if best else canvas.u(2), border_radius=thick // 2)
    return bar


def _room_row(canvas: Canvas, board: Board, box: Rect, chip: int, line: Rect, row: Row,
              x_of: Callable[[Decimal], int], grow: float, number: int | None,
              grow_at: Callable[[float], float] | None = None) -> None:
    colour = board.colour(row.name)
    pill = Rect(box.left, box.top, chip, box.height)
    if row.best and grow >= 1:
        pygame.draw.rect(canvas.surface, theme.GOLD, pill.inflate(canvas.u(8), canvas.u(8)),
                         border_radius=(box.height + canvas.u(8)) // 2)
    canvas.pill(pill, colour, "", 40, dim=row.dim, seat=number)
    bar = _grown_bar(canvas, board, _track(canvas, box, line, row, x_of), grow, grow_at,
                     lambda on, span, growth: _room_bar(on, box, row, colour, span, growth))
    if bar is None or grow < 1:
        return
    ends = _ends(row, "–")
    needed = canvas.fit(Rect(0, 0, 10**5, box.height), ends, LABEL_SIZE, max_lines=1).width
    after, before = _beside(bar, line, box, canvas.u(10))
    if after.width >= needed:
        canvas.text(after, ends, LABEL_SIZE, theme.TEXT, align="left", max_lines=1)
    elif before.width >= needed:
        canvas.text(before, ends, LABEL_SIZE, theme.TEXT, align="right", max_lines=1)
