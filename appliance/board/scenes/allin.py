"""All In (rules.md All In): the statement, the reader, who is excluded, who has locked in, then the
chip splits revealed together as bars, and the eliminations. A card with a picture (issue 34) shows it at
the left of the statement once the statement is read.

Reads appliance/games/allin/views.py public_view: before the reveal it holds who has locked in and
never a split or the reader's answer (rules.md All In 3 and 5); the board shows exactly that.
"""

from __future__ import annotations

import pygame

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scenes import intro
from appliance.board.scenes.common import footer, header, progress, room_grid, rows, seat_pill
from appliance.board.scenes.select import Choice
from appliance.board.state import Board, as_int, as_list, as_map, as_text

REVEAL_SECONDS = 1.4
"""How long the split bars take to grow at the reveal (all at once: the splits are revealed together)."""


def choose(board: Board) -> Choice:
    question = as_map(board.view.get("question"))
    if not question:
        return Choice("allin-intro", intro.draw, ("allin", "intro"))
    number = as_int(question.get("number"), 0)
    if question.get("revealed") is True:
        return Choice("allin-reveal", draw_reveal, ("allin", number, "reveal"), REVEAL_SECONDS, layered=True)
    return Choice("allin-question", draw_question, ("allin", number, "question"))


def _chips(board: Board) -> dict[str, int]:
    chips = as_map(board.view.get("chips"))
    return {name: as_int(chips.get(name), 0) or 0 for name in board.in_game()}


def _statement_panel(canvas: Canvas, board: Board, question: dict[str, object] | object, box: Rect) -> None:
    q = as_map(question)
    canvas.panel(box)
    inner = box.inflate(-canvas.u(48), -canvas.u(32))
    statement = as_text(q.get("statement"))
    reader = as_text(q.get("reader"))
    if statement and canvas.shows(board.image) and board.image:  # a picture card: the picture at the left
        picture = Rect(inner.left, inner.top, round(inner.width * 0.45), inner.height)
        canvas.image(picture, board.image)
        inner = Rect(picture.right + canvas.u(32), inner.top, inner.right - picture.right - canvas.u(32),
                     inner.height)
    if statement:
        canvas.text(inner, f"“{statement}”", 64, theme.TEXT, role="title")
    else:
        canvas.text(inner, f"{reader} is choosing a statement…", 56, theme.MUTED, role="title")


def draw_question(canvas: Canvas, board: Board) -> None:
    question = as_map(board.view.get("question"))
    number = as_int(question.get("number"), 0)
    reader = as_text(question.get("reader"))
    area = header(canvas, f"All In · Question {number}", f"Reader: {reader}")
    area = footer(canvas, board, area)
    room = len(board.in_game()) > 8
    pictured = canvas.shows(board.image) and bool(as_text(question.get("statement")))
    share = (0.4 if room else 0.5) if pictured else (0.3 if room else 0.42)
    statement_box = Rect(area.left, area.top, area.width, round(area.height * share))
    _statement_panel(canvas, board, question, statement_box)
    table = Rect(area.left, statement_box.bottom + canvas.u(24), area.width,
                 area.bottom - statement_box.bottom - canvas.u(24))
    excluded = as_text(question.get("excluded"))
    locked = {as_text(p) for p in as_list(question.get("locked_in"))}
    bettors = {as_text(p) for p in as_list(question.get("bettors"))}
    read = bool(as_text(question.get("statement")))
    chips = _chips(board)
    names = board.in_game()
    cells = room_grid(canvas, table, len(names), canvas.u(10), 6, min_width=230) if room else _cells(
        canvas, table, len(names))
    for name, cell in zip(names, cells, strict=True):
        if name == reader:
            status, mark = "reader", ""
        elif name == excluded:
            status, mark = "excluded", "cross"
        elif chips.get(name, 0) == 0:
            status, mark = "out", ""
        elif name in locked:
            status, mark = "locked in", "lock"
        elif read and name in bettors:
            status, mark = "splitting…", ""
        else:
            status, mark = "", ""
        if room:
            _room_seat(canvas, board, cell, name, chips.get(name, 0), status, mark)
        else:
            _seat(canvas, board, cell, name, chips.get(name, 0), status, mark, dim=status in ("out", "excluded"))


def _room_seat(canvas: Canvas, board: Board, cell: Rect, name: str, chips: int, status: str, mark: str) -> None:
    """A room's seat: its seat number on its colour, the chips (or "reader", "out"), a lock or a cross."""
    chip = Rect(cell.left, cell.top, canvas.u(80), cell.height)
    canvas.pill(chip, board.colour(name), "", 40, dim=status in ("out", "excluded"), seat=board.seat_number(name))
    radius = min(cell.height * 2 // 5, canvas.u(22))
    words = Rect(chip.right + canvas.u(10), cell.top, cell.right - chip.right - 2 * radius - canvas.u(20), cell.height)
    text = status if status in ("reader", "out") else f"{chips} chips"
    canvas.text(words, text, 36, theme.GOLD if status == "reader" else theme.TEXT, role="title", align="left",
                max_lines=1)
    if mark:
        centre = (cell.right - radius, cell.centery)
        {"lock": canvas.lock, "cross": canvas.cross}[mark](centre, radius)


def _cells(canvas: Canvas, table: Rect, count: int) -> list[Rect]:
    cols = count if count <= 4 else -(-count // 2)
    lines = 1 if count <= 4 else 2
    gap = canvas.u(20)
    width = (table.width - gap * (cols - 1)) // max(1, cols)
    height = min((table.height - gap * (lines - 1)) // lines, canvas.u(230))
    cells = []
    for i in range(count):
        row, col = divmod(i, cols)
        cells.append(Rect(table.left + col * (width + gap), table.top + row * (height + gap), width, height))
    return cells


def _seat(canvas: Canvas, board: Board, cell: Rect, name: str, chips: int, status: str, mark: str,
          dim: bool) -> None:
    canvas.panel(cell, theme.PANEL, board.colour(name), radius=16, width=4)
    inner = cell.inflate(-canvas.u(20), -canvas.u(16))
    name_box = Rect(inner.left, inner.top, inner.width, min(canvas.u(88), round(inner.height * 0.42)))
    seat_pill(canvas, board, name_box, name, 38, dim=dim)
    parts = rows(Rect(inner.left, name_box.bottom + canvas.u(8), inner.width,
                      inner.bottom - name_box.bottom - canvas.u(8)), 2, canvas.u(4))
    canvas.text(parts[0], f"{chips} chips", 44, theme.TEXT, role="title", max_lines=1)
    if status:
        status_box = parts[1]
        if mark:
            radius = min(status_box.height // 2, canvas.u(22))
            centre = (status_box.left + radius, status_box.centery)
            {"lock": canvas.lock, "cross": canvas.cross}[mark](centre, radius)
            status_box = Rect(status_box.left + 2 * radius + canvas.u(8), status_box.top,
                              status_box.width - 2 * radius - canvas.u(8), status_box.height)
        colour = theme.GOLD if status in ("reader", "locked in") else theme.MUTED
        canvas.text(status_box, status, 34, colour, max_lines=1)


def draw_reveal(canvas: Canvas, board: Board) -> None:
    question = as_map(board.view.get("question"))
    number = as_int(question.get("number"), 0)
    answer = question.get("answer") is True
    area = header(canvas, f"All In · Question {number}", f"Reader: {as_text(question.get('reader'))}")
    area = footer(canvas, board, area)
    top = Rect(area.left, area.top, area.width, round(area.height * (0.3 if len(board.in_game()) <= 12 else 0.22)))
    statement, verdict = top.copy(), top.copy()
    statement.width = round(top.width * 0.7)
    verdict.left, verdict.width = statement.right + canvas.u(24), top.right - statement.right - canvas.u(24)
    _statement_panel(canvas, board, question, statement)
    side = theme.TRUE_SIDE if answer else theme.FALSE_SIDE
    canvas.panel(verdict, side, None)
    canvas.text(verdict.inflate(-canvas.u(24), -canvas.u(24)), "TRUE" if answer else "FALSE", 110,
                theme.ink_on(side), role="title", max_lines=1)
    splits = as_map(question.get("splits"))
    lost = as_map(question.get("lost"))
    chips = _chips(board)
    bettors = [as_text(p) for p in as_list(question.get("bettors")) if as_text(p) in splits]
    bars = Rect(area.left, top.bottom + canvas.u(24), area.width, area.bottom - top.bottom - canvas.u(24))
    if not bettors:
        canvas.text(bars, "Nobody could bet on this one.", 48, theme.MUTED)
        return
    grow = progress(canvas.now, REVEAL_SECONDS)
    most = max((as_int(as_map(splits[p]).get("true"), 0) or 0) + (as_int(as_map(splits[p]).get("false"), 0) or 0)
               for p in bettors) or 1
    room = len(bettors) > 8
    boxes = room_grid(canvas, bars, len(bettors), canvas.u(8), 1, min_width=440, down=True) if room else _bar_rows(
        canvas, bars, len(bettors))
    amounts = {}
    for name, row in zip(bettors, boxes, strict=True):
        split = as_map(splits[name])
        on_true = as_int(split.get("true"), 0) or 0
        on_false = as_int(split.get("false"), 0) or 0
        amounts[name] = (on_true, on_false)
        _split_bar(canvas, board, row, name, on_true, on_false, most, answer, 0.0 if grow < 1 else grow,
                   as_int(lost.get(name), 0) or 0, chips.get(name, 0), room)
    if grow >= 1:
        return

    def growing(on: Canvas, _: Board) -> None:  # the bars grow over a still layer (Choice.layered)
        now = progress(on.now, REVEAL_SECONDS)
        for name, row in zip(bettors, boxes, strict=True):
            _split_parts(on, _split_boxes(on, row, room)[2], *amounts[name], most, answer, now)

    canvas.later(growing, board)


def _bar_rows(canvas: Canvas, area: Rect, count: int) -> list[Rect]:
    gap = canvas.u(12)
    height = min(canvas.u(110), (area.height - gap * (count - 1)) // count)
    return [Rect(area.left, area.top + i * (height + gap), area.width, height) for i in range(count)]


def _split_bar(canvas: Canvas, board: Board, row: Rect, name: str, on_true: int, on_false: int, most: int,
               answer: bool, grow: float, lost: int, chips_after: int, room: bool = False) -> None:
    """One bettor's split; in a ``room`` its seat number stands for the name and the result is short."""
    name_box, result, track = _split_boxes(canvas, row, room)
    seat_pill(canvas, board, name_box, name, 36, dim=chips_after == 0, text="" if room else None)
    pygame.draw.rect(canvas.surface, theme.PANEL, track, border_radius=canvas.u(8))
    _split_parts(canvas, track, on_true, on_false, most, answer, grow)
    if grow < 1:
        return
    if chips_after == 0:
        text, colour = "OUT" if room else f"−{lost} · OUT", theme.WARNING
    elif lost:
        text, colour = f"−{lost}" if room else f"−{lost} · {chips_after} left", theme.TEXT
    else:
        text, colour = "safe" if room else f"safe: {chips_after}", theme.TEXT
    # a room's columns stand side by side: the result sits against its own bar, not the next column's seat
    canvas.text(result, text, 40, colour, role="title", align="left" if room else "right", max_lines=1)


def _split_boxes(canvas: Canvas, row: Rect, room: bool) -> tuple[Rect, Rect, Rect]:
    """A split's name box, result box and bar track in ``row``."""
    name_box = Rect(row.left, row.top, canvas.u(80) if room else round(row.width * 0.2), row.height)
    result = Rect(0, row.top, round(row.width * (0.26 if room else 0.22)), row.height)
    result.right = row.right - (canvas.u(24) if room else 0)
    track = Rect(name_box.right + canvas.u(20), row.top + row.height // 8,
                 result.left - name_box.right - canvas.u(40), row.height - row.height // 4)
    return name_box, result, track


def _split_parts(canvas: Canvas, track: Rect, on_true: int, on_false: int, most: int, answer: bool,
                 grow: float) -> None:
    """The true and false parts of a split on its ``track``, ``grow`` (0..1) of their length."""
    scale = track.width / most
    x = track.left
    for amount, side, label in ((on_true, True, "T"), (on_false, False, "F")):
        width = round(amount * scale * grow)
        if width <= 0:
            continue
        colour = theme.TRUE_SIDE if side else theme.FALSE_SIDE
        if side != answer and grow >= 1:
            colour = theme.mix(colour, theme.BACKGROUND, 0.65)
        part = Rect(x, track.top, width, track.height)
        pygame.draw.rect(canvas.surface, colour, part, border_radius=canvas.u(8))
        inside = part.inflate(-canvas.u(8), -canvas.u(4))
        words = f"{label} {amount}"
        if grow >= 1 and width >= canvas.u(90) and canvas.fits(inside, words, 34, "title", 1):
            canvas.text(inside, words, 34, theme.ink_on(colour), role="title", max_lines=1)
        x = part.right
