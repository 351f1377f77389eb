"""Estimation poker's room tables on one TV (rules.md room-5, Estimation poker 13-14): up to five tables
of eight side by side, each with its pot, every seat's chips and bet this round, and who is to act.

Reads the room's public view (appliance/games/poker/room_views.py): ``tables``, one line per table (its
players with chips, ``to_act``, ``pot``, ``bets``, ``folded``, ``all_in``, ``ranges_in``, ``waiting``,
``hand_over``), the room's ``stacks`` and the shared question. Each seat is its seat number in a badge
(the name beside it where every name of the room fits at the board's minimum size; rules.md "The room" 2),
so every text a player reads is 28 px or more at 1080p with 40 seats. The final table (``final_table``)
is an ordinary table of up to 8 and is drawn by :func:`appliance.board.scenes.poker.draw_table`. A card
with a picture (issue 34) shows it at the left of the question strip, which grows for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scenes.common import beside_badge, footer, header, live_countdown, seat_pill, texts_fit
from appliance.board.state import Board, as_int, as_list, as_map, as_text


def room_tables(board: Board) -> list[Mapping[str, Any]]:
    """The tables of a room game still dealt into tables (none for a game of 8 or at the final table)."""
    tables = [as_map(t) for t in as_list(board.view.get("tables"))]
    if len(tables) < 2 or board.view.get("final_table") is True:
        return []
    return tables


def draw(canvas: Canvas, board: Board) -> None:
    view = board.view
    q = as_map(view.get("question"))
    tables = room_tables(board)
    ranges_phase = as_text(view.get("phase")) == "ranges"
    round_number = as_int(q.get("round"))
    doing = "Enter your secret range" if ranges_phase else f"Betting round {round_number or ''}".strip()
    ante = as_int(q.get("ante"))
    subtitle = f"{doing} · {len(tables)} tables" + (f" · ante {ante}" if ante is not None else "")
    area = header(canvas, f"Estimation Poker · Question {as_int(q.get('number'), 0)}", subtitle)
    area = footer(canvas, board, area)
    strip = _question(canvas, board, q, area)
    rest = Rect(area.left, strip.bottom + canvas.u(16), area.width, area.bottom - strip.bottom - canvas.u(16))
    gap = canvas.u(16)
    width = (rest.width - gap * (len(tables) - 1)) // max(1, len(tables))
    most = max((len(as_list(t.get("players"))) for t in tables), default=1)
    names = [as_text(p) for t in tables for p in as_list(t.get("players"))]
    row = _row_height(canvas, rest, most)
    pill = Rect(0, 0, round((width - canvas.u(24)) * 0.5), row)
    named = texts_fit(canvas, beside_badge(canvas, pill), names, 34)
    for index, table in enumerate(tables):
        box = Rect(rest.left + index * (width + gap), rest.top, width, rest.height)
        _table(canvas, board, box, table, row, named, ranges_phase)


def _question(canvas: Canvas, board: Board, q: Mapping[str, Any], area: Rect) -> Rect:
    """The card (and the hints and answer once shown) across the top; returns its panel."""
    hints = [f"Hint {i}: {as_text(h)}" for i, h in enumerate(as_list(q.get("hints")), 1)]
    if q.get("answer") is not None:
        hints.append(f"Answer: {as_text(q.get('answer'))}")
    line = canvas.u(50)
    pictured = canvas.shows(board.image)
    box = Rect(area.left, area.top, area.width, canvas.u(PICTURE_UNITS if pictured else 120) + line * len(hints))
    canvas.panel(box)
    inner = box.inflate(-canvas.u(32), -canvas.u(16))
    if pictured and board.image:  # a picture card: the picture at the left of the question (issue 34)
        picture = Rect(inner.left, inner.top, round(inner.width * 0.3), inner.height)
        canvas.image(picture, board.image)
        inner = Rect(picture.right + canvas.u(24), inner.top, inner.right - picture.right - canvas.u(24),
                     inner.height)
    if board.timed:
        radius = min(inner.height // 2, canvas.u(54))
        live_countdown(canvas, board, (inner.right - radius, inner.top + radius), radius)
        inner.width -= 2 * radius + canvas.u(16)
    text = Rect(inner.left, inner.top, inner.width, inner.height - line * len(hints))
    canvas.text(text, as_text(q.get("question")), 52, theme.TEXT, role="title", max_lines=2)
    for index, words in enumerate(hints):
        colour = theme.GOLD if words.startswith("Answer") else theme.TRUE_SIDE
        canvas.text(Rect(inner.left, text.bottom + index * line, inner.width, line), words, 36, colour, max_lines=1)
    return box


PICTURE_UNITS = 250
"""The question strip's height with a picture card: the tables' rows give up the rest, never under 28 px."""

HEAD_UNITS = 120
"""A table's head: its number and pot on one line, who is to act on the next."""


def _row_height(canvas: Canvas, area: Rect, seats: int) -> int:
    spare = area.height - canvas.u(HEAD_UNITS) - canvas.u(24)
    return min(canvas.u(76), (spare - canvas.u(6) * (seats - 1)) // max(1, seats))


def _table(canvas: Canvas, board: Board, box: Rect, table: Mapping[str, Any], row: int, named: bool,
           ranges_phase: bool) -> None:
    players = [as_text(p) for p in as_list(table.get("players"))]
    to_act = as_text(table.get("to_act"))
    canvas.panel(box, edge=theme.GOLD if to_act and not ranges_phase else theme.PANEL_EDGE)
    inner = box.inflate(-canvas.u(16), -canvas.u(16))
    half = canvas.u(HEAD_UNITS) // 2
    title = Rect(inner.left, inner.top, inner.width // 2, half)
    canvas.text(title, f"Table {as_int(table.get('number'), 0)}", 40, theme.TEXT, role="title", align="left",
                max_lines=1)
    pot = Rect(title.right, inner.top, inner.width - title.width, half)
    canvas.text(pot, f"Pot {as_int(table.get('pot'), 0)}", 40, theme.GOLD, role="title", align="right", max_lines=1)
    status = Rect(inner.left, title.bottom, inner.width, half)
    if table.get("waiting") is True:
        words, colour = "waiting alone", theme.MUTED
    elif table.get("hand_over") is True:
        words, colour = "hand over", theme.MUTED
    elif ranges_phase:
        count = len(as_list(table.get("ranges_in")))
        words, colour = f"{count} of {len(players)} ranges in", theme.TEXT
    elif to_act:
        words, colour = f"{board.seat_number(to_act) or '?'} to act", theme.GOLD
    else:
        words, colour = "", theme.MUTED
    canvas.text(status, words, 36, colour, role="title", align="left", max_lines=1)
    stacks, bets = as_map(board.view.get("stacks")), as_map(table.get("bets"))
    folded = {as_text(p) for p in as_list(table.get("folded"))}
    all_in = {as_text(p) for p in as_list(table.get("all_in"))}
    ranges_in = {as_text(p) for p in as_list(table.get("ranges_in"))}
    top = status.bottom + canvas.u(8)
    pill_width = round(inner.width * 0.5) if named else canvas.badge_box(Rect(0, 0, 0, row)).width + canvas.u(8)
    for index, name in enumerate(players):
        line = Rect(inner.left, top + index * (row + canvas.u(6)), inner.width, row)
        acting = name == to_act and not ranges_phase
        if acting:
            canvas.panel(line.inflate(canvas.u(8), canvas.u(4)), theme.mix(theme.GOLD, theme.PANEL, 0.6), theme.GOLD,
                         radius=12, width=3)
        pill = Rect(line.left, line.top, pill_width, row)
        seat_pill(canvas, board, pill, name, 34, dim=name in folded, text=None if named else "")
        right = Rect(pill.right + canvas.u(10), line.top, line.right - pill.right - canvas.u(10), row)
        chips = as_int(stacks.get(name), 0) or 0
        bet = as_int(bets.get(name), 0) or 0
        if ranges_phase:
            said = ("range in", theme.GOLD) if name in ranges_in else (f"{chips}", theme.TEXT)
        elif name in folded:
            said = (f"{chips} folded", theme.MUTED)
        elif name in all_in:
            said = (f"ALL-IN {bet}" if bet else "ALL-IN", theme.GOLD)
        else:
            said = (f"{chips} · bet {bet}" if bet else f"{chips}", theme.GOLD if acting else theme.TEXT)
        canvas.text(right, said[0], 34, said[1], role="title", align="right", max_lines=1)
