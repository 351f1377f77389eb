"""Estimation poker (rules.md Estimation poker): the table while ranges go in and bets go round, then
the showdown with the shown ranges on a number line. A card with a picture (issue 34) shows it at the
left of the question while ranges go in and bets go round.

Reads appliance/games/poker/views.py public_view: stacks, bets this round, pots and side pots, whose
turn and the legal actions, the hints and answer only once shown, ranges only at the showdown (or a
folded player's voluntary reveal). The time to the next ante increase is the session's business: a
flow may add ``ante_next`` to the view, ``{"ante": n, "seconds": s}`` or ``{"ante": n, "questions": k}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scenes import intro, numberline, poker_room
from appliance.board.scenes.common import beside_badge, footer, header, live_countdown, progress, seat_pill, texts_fit
from appliance.board.scenes.select import Choice
from appliance.board.state import Board, as_int, as_list, as_map, as_number, as_text, show_number

REVEAL_SECONDS = 1.5


def choose(board: Board) -> Choice:
    q = as_map(board.view.get("question"))
    if not q:
        return Choice("poker-intro", intro.draw, ("poker", "intro"))
    number = as_int(q.get("number"), 0)
    if q.get("outcome"):
        return Choice("poker-showdown", draw_showdown, ("poker", number, "showdown"), REVEAL_SECONDS)
    if poker_room.room_tables(board):  # above 8 players: the room's tables side by side (rules.md room-5)
        phase = "ranges" if as_text(board.view.get("phase")) == "ranges" else "betting"
        return Choice("poker-tables", poker_room.draw, ("poker", number, "tables", phase))
    if as_text(board.view.get("phase")) == "ranges":
        return Choice("poker-ranges", draw_table, ("poker", number, "ranges"))
    return Choice("poker-betting", draw_table, ("poker", number, "betting"))


def offer_words(offer: Mapping[str, Any]) -> str:
    """A legal action in the table's words, each the total bet it goes to: "call to 20", "raise to
    40-500", "all-in to 500"."""
    kind = as_text(offer.get("kind"))
    low, high = as_int(offer.get("min_to")), as_int(offer.get("max_to"))
    span = "" if low is None else (f"{low}" if high in (None, low) else f"{low}–{high}")
    if kind in ("check", "fold"):
        return kind
    if kind == "call":  # the total bet to, as a raise says it (a phone says the chips it adds)
        return f"call to {span}" if span else "call"
    if kind == "raise":
        return f"raise to {span}".strip()
    if kind == "allin":
        total = high if high is not None else span
        return f"all-in to {total}" if total not in (None, "") else "all-in"
    return f"{kind} {span}".strip()


def ante_words(board: Board, q: Mapping[str, Any]) -> str:
    ante = as_int(q.get("ante"))
    words = f"Ante {ante}" if ante is not None else "Ante"
    nxt = as_map(board.view.get("ante_next"))
    next_ante = as_int(nxt.get("ante"))
    seconds = nxt.get("seconds")
    if next_ante is not None and isinstance(seconds, int | float) and not isinstance(seconds, bool):
        minutes, secs = divmod(max(0, int(seconds)), 60)
        words += f" · {next_ante} in {minutes}:{secs:02d}"
    elif next_ante is not None and as_int(nxt.get("questions")) is not None:
        k = as_int(nxt.get("questions"))
        words += f" · {next_ante} in {k} question{'s' if k != 1 else ''}"
    else:
        schedule = as_text(board.view.get("ante_schedule"))
        if schedule:
            words += f" ({schedule})"
    return words


def _question_panel(canvas: Canvas, board: Board, q: Mapping[str, Any], box: Rect) -> None:
    canvas.panel(box)
    inner = box.inflate(-canvas.u(40), -canvas.u(28))
    hints = [as_text(h) for h in as_list(q.get("hints"))]
    answer = q.get("answer")
    extra = [f"Hint {i}: {h}" for i, h in enumerate(hints, 1)]
    if answer is not None:
        extra.append(f"Answer: {show_number(answer)}")
    if board.timed:
        radius = canvas.u(64)
        live_countdown(canvas, board, (inner.right - radius, inner.top + radius), radius)
        inner.width -= 2 * radius + canvas.u(20)
    if canvas.shows(board.image) and board.image:  # a picture card: the picture at the left of the question
        picture = Rect(inner.left, inner.top, round(inner.width * 0.4), inner.height)
        canvas.image(picture, board.image)
        inner = Rect(picture.right + canvas.u(32), inner.top, inner.right - picture.right - canvas.u(32),
                     inner.height)
    line = canvas.u(56)
    text_box = Rect(inner.left, inner.top, inner.width, inner.height - line * len(extra))
    canvas.text(text_box, as_text(q.get("question")), 60, theme.TEXT, role="title")
    for index, words in enumerate(extra):
        colour = theme.GOLD if words.startswith("Answer") else theme.TRUE_SIDE
        canvas.text(Rect(inner.left, text_box.bottom + index * line, inner.width, line), words, 40, colour,
                    max_lines=1)


def draw_table(canvas: Canvas, board: Board) -> None:
    view = board.view
    q = as_map(view.get("question"))
    ranges_phase = as_text(view.get("phase")) == "ranges"
    round_number = as_int(q.get("round"))
    subtitle = "Enter your secret range" if ranges_phase else f"Betting round {round_number or ''}".strip()
    if board.view.get("final_table") is True:  # the room's last 8 or fewer, at one table on the whole screen
        subtitle = f"Final table · {subtitle}"
    area = header(canvas, f"Estimation Poker · Question {as_int(q.get('number'), 0)}", subtitle)
    area = footer(canvas, board, area)
    hint_count = len(as_list(q.get("hints"))) + (1 if q.get("answer") is not None else 0)
    question_units = 400 if canvas.shows(board.image) else 230  # a picture card's panel is taller (issue 34)
    top = Rect(area.left, area.top, area.width, canvas.u(question_units) + canvas.u(56) * hint_count)
    _question_panel(canvas, board, q, top)
    rest = Rect(area.left, top.bottom + canvas.u(20), area.width, area.bottom - top.bottom - canvas.u(20))
    side = Rect(0, rest.top, round(rest.width * (0.24 if view.get("final_table") is True else 0.3)), rest.height)
    side.right = rest.right
    seats = Rect(rest.left, rest.top, side.left - rest.left - canvas.u(24), rest.height)
    _seats(canvas, board, seats, q, ranges_phase)
    _pots(canvas, board, side, q, ranges_phase)


def _seat_status(board: Board, q: Mapping[str, Any], name: str, ranges_phase: bool) -> tuple[str, str]:
    """(status words, mark) for one seat."""
    if name in {as_text(p) for p in as_list(board.view.get("out"))} or name not in as_list(q.get("dealt")):
        return "out", ""
    if ranges_phase:
        return ("range in", "lock") if name in as_list(q.get("ranges_in")) else ("thinking…", "")
    if name in as_list(q.get("folded")):
        return "folded", "cross"
    if name in as_list(q.get("all_in")):
        return "ALL-IN", ""
    if name == as_text(board.view.get("to_act")):
        return "to act", ""
    return "", ""


def _seats(canvas: Canvas, board: Board, area: Rect, q: Mapping[str, Any], ranges_phase: bool) -> None:
    names = board.in_game()
    table = {as_text(p) for p in as_list(board.view.get("table_players"))}
    if table:  # room tables (rules.md Estimation poker 13): the view's table, at most 8 seats
        names = [name for name in names if name in table]
    stacks, bets = as_map(board.view.get("stacks")), as_map(q.get("bets"))
    cols = min(4, max(1, len(names) if len(names) <= 4 else -(-len(names) // 2)))
    lines = -(-len(names) // cols)
    gap = canvas.u(16)
    width = (area.width - gap * (cols - 1)) // cols
    tallest = canvas.u(320 if board.view.get("final_table") is True else 220)  # the final table fills the screen
    height = min(tallest, (area.height - gap * (lines - 1)) // max(1, lines))
    badged: bool | None = None
    for index, name in enumerate(names):
        row, col = divmod(index, cols)
        cell = Rect(area.left + col * (width + gap), area.top + row * (height + gap), width, height)
        status, mark = _seat_status(board, q, name, ranges_phase)
        turn = status == "to act"
        canvas.panel(cell, theme.mix(theme.GOLD, theme.PANEL, 0.7) if turn else theme.PANEL,
                     theme.GOLD if turn else board.colour(name), radius=16, width=6 if turn else 3)
        inner = cell.inflate(-canvas.u(16), -canvas.u(12))
        name_height = min(round(inner.height * 0.44), canvas.u(96))  # a taller pill would only widen its badge
        third = (inner.height - name_height) // 2
        pill = Rect(inner.left, inner.top, inner.width, name_height)
        if badged is None:  # the seat badge where every name still fits beside it (8 colours never repeat)
            badged = texts_fit(canvas, beside_badge(canvas, pill), names, 34)
        if badged:
            seat_pill(canvas, board, pill, name, 34, dim=status in ("folded", "out"))
        else:
            canvas.pill(pill, board.colour(name), name, 34, dim=status in ("folded", "out"))
        bet = as_int(bets.get(name), 0) or 0
        stack_box = Rect(inner.left, inner.top + name_height, inner.width, third)
        canvas.text(stack_box, f"{as_int(stacks.get(name), 0)} chips", 40, theme.TEXT, role="title", max_lines=1)
        words = " · ".join(w for w in (status, f"bet {bet}" if bet else "") if w)
        status_box = Rect(inner.left, inner.top + name_height + third, inner.width, inner.height - name_height - third)
        if mark:
            radius = min(status_box.height // 2, canvas.u(20))
            {"lock": canvas.lock, "cross": canvas.cross}[mark]((status_box.left + radius, status_box.centery), radius)
            status_box = Rect(status_box.left + 2 * radius + canvas.u(6), status_box.top,
                              status_box.width - 2 * radius - canvas.u(6), status_box.height)
        colour = theme.GOLD if status in ("ALL-IN", "to act", "range in") else theme.MUTED
        canvas.text(status_box, words, 32, colour, role="title", max_lines=1)


def _pots(canvas: Canvas, board: Board, box: Rect, q: Mapping[str, Any], ranges_phase: bool) -> None:
    canvas.panel(box)
    inner = box.inflate(-canvas.u(28), -canvas.u(24))
    lines: list[tuple[str, float, tuple[int, int, int]]] = []
    pots = [as_map(p) for p in as_list(q.get("pots"))]
    for index, pot in enumerate(pots):
        name = "Pot" if index == 0 else f"Side pot {index}"
        lines.append((f"{name}: {as_int(pot.get('amount'), 0)}", 48 if index == 0 else 38, theme.GOLD))
    if not pots:
        lines.append(("Pot: 0", 48, theme.GOLD))
    to_act = as_text(board.view.get("to_act"))
    if to_act and not ranges_phase:
        offers = [offer_words(as_map(o)) for o in as_list(board.view.get("legal"))]
        lines.append((f"{to_act} to act: " + (" · ".join(offers) or "…"), 36, theme.TEXT))
    lines.append((ante_words(board, q), 34, theme.MUTED))
    heights = [canvas.u(70) if size >= 48 else canvas.u(110) if "to act" in words else canvas.u(90)
               for words, size, _ in lines]
    scale = min(1.0, inner.height / max(1, sum(heights)))
    y = inner.top
    for (words, size, colour), height in zip(lines, heights, strict=True):
        h = round(height * scale)
        canvas.text(Rect(inner.left, y, inner.width, h), words, size, colour, role="title" if size >= 48 else "body")
        y += h


def draw_showdown(canvas: Canvas, board: Board) -> None:
    q = as_map(board.view.get("question"))
    outcome = as_map(q.get("outcome"))
    area = header(canvas, f"Showdown · Question {as_int(q.get('number'), 0)}", as_text(q.get("question")))
    area = footer(canvas, board, area)
    won: dict[str, int] = {}
    for pot in as_list(outcome.get("pots")):
        for name, share in as_map(as_map(pot).get("shares")).items():
            won[name] = won.get(name, 0) + (as_int(share, 0) or 0)
    ranges = as_map(q.get("ranges"))
    folded = {as_text(p) for p in as_list(q.get("folded"))}
    rows = []
    for name in [as_text(p) for p in as_list(q.get("dealt"))]:
        low, high = numberline.parse_range(ranges.get(name))
        note = "folded" if name in folded else ""
        if low is None and name not in folded:
            note = "not shown"
        rows.append(numberline.Row(name, low, high, note, dim=name in folded or name not in won,
                                   hidden=low is None))  # a folded range is its player's to show
    stacks = as_map(board.view.get("stacks"))
    grow = progress(canvas.now, REVEAL_SECONDS)

    def right(c: Canvas, box: Rect, row: numberline.Row) -> None:
        if grow < 1:
            return
        gain = won.get(row.name, 0)
        stack = as_int(stacks.get(row.name), 0) or 0
        words = f"+{gain} · {stack}" if gain else (f"{stack}" if stack else "OUT")
        c.text(box, words, 40, theme.GOLD if gain else theme.MUTED, role="title", align="right", max_lines=1)

    numberline.draw(canvas, board, area, rows, as_number(q.get("answer")), grow, right, right_width=0.2)
