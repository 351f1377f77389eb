"""Confident? (rules.md Confident): the question with who has answered, then the reveal.

Reads appliance/games/confident/views.py public_view. While a question is open the view holds who has
answered and never a range; after settlement it holds the ranges after copies and swaps, points and
totals, which the reveal draws as bars on one number line with the answer marked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scenes import intro, numberline, question
from appliance.board.scenes.common import footer, header, progress
from appliance.board.scenes.scoreboard import short_points
from appliance.board.scenes.select import Choice
from appliance.board.state import Board, as_int, as_list, as_map, as_number, as_text

REVEAL_SECONDS = 1.5


def choose(board: Board) -> Choice:
    q = as_map(board.view.get("question"))
    if not q:
        return Choice("confident-intro", intro.draw, ("confident", "intro"))
    number = as_int(q.get("number"), 0)
    if "answer" in q:
        return Choice("confident-reveal", draw_reveal, ("confident", number, "reveal"), REVEAL_SECONDS, layered=True)
    return Choice("confident-question", draw_question, ("confident", number, "question"))


def goal(board: Board, target: int | None) -> str:
    """What wins: the target, and in a quiz night's round with a card count or a time box, the most points
    when it runs out (a capped round's header said only "First to 30 points wins", issue 31.14)."""
    if not target:
        return ""
    playing = as_map(as_map(board.raw.get("night")).get("playing"))
    cards, minutes = as_int(playing.get("cards")), as_int(playing.get("minutes"))
    if cards:
        return f"First to {target} points, or the most after {cards} question{'' if cards == 1 else 's'}"
    if minutes:
        return f"First to {target} points, or the most after {minutes} minute{'' if minutes == 1 else 's'}"
    return f"First to {target} points wins"


def draw_question(canvas: Canvas, board: Board) -> None:
    q = as_map(board.view.get("question"))
    target = as_int(board.view.get("target"))
    closed = as_text(q.get("closed"))
    question.draw_open(
        canvas,
        board,
        title=f"Confident? · Question {as_int(q.get('number'), 0)}",
        subtitle=goal(board, target),
        text=as_text(q.get("question")),
        unit=as_text(q.get("unit")),
        clues=[],
        answered=[as_text(p) for p in as_list(q.get("answered"))],
        banner="Entries closed" if closed else "Write your range: how confident are you?",
    )


def boost_notes(q: Mapping[str, Any], name: str) -> list[str]:
    """The short words beside a range: copied, swapped, x2 (doubled), capped (Final Hurdle)."""
    boards = as_map(q.get("boards"))
    board = as_map(boards.get(name))
    notes = []
    if as_text(board.get("copy")):
        notes.append("copied")
    if any(name in as_list(group) for group in as_list(q.get("swap_groups"))):
        notes.append("swapped")
    if board.get("double") is True:
        notes.append("×2")
    if name in as_list(q.get("capped")):
        notes.append("capped")
    return notes


def boost_summary(q: Mapping[str, Any]) -> str:
    """Who copied whom, which boards moved and who doubled, in one line of words."""
    boards = as_map(q.get("boards"))
    parts = []
    copies = [
        f"{p} copied {as_text(as_map(b).get('copy'))}" for p, b in boards.items() if as_text(as_map(b).get("copy"))
    ]
    if copies:
        parts.append("; ".join(copies))
    for group in as_list(q.get("swap_groups")):
        names = [as_text(n) for n in as_list(group)]
        if len(names) == 2:
            parts.append(f"{names[0]} and {names[1]} swapped boards")
        elif names:
            moves = [f"{a} to {b}" for a, b in zip(names, [*names[1:], names[0]], strict=True)]
            parts.append("boards passed on: " + ", ".join(moves))
    doubles = [p for p, b in boards.items() if as_map(b).get("double") is True]
    if doubles:
        parts.append("doubled: " + ", ".join(doubles))
    return " · ".join(parts)


def draw_reveal(canvas: Canvas, board: Board) -> None:
    q = as_map(board.view.get("question"))
    area = header(canvas, f"Question {as_int(q.get('number'), 0)}: the answer", as_text(q.get("question")))
    area = footer(canvas, board, area)
    summary = boost_summary(q)
    if len(board.in_game()) > 12:  # a room: the winning range named, as well as outlined in gold
        best = [f"{board.seat_number(as_text(p)) or '?'} {as_text(p)}" for p in as_list(q.get("smallest"))]
        lead = f"Smallest right range: {', '.join(best)}" if best else "Nobody was right"
        summary = f"{lead} · {summary}" if summary else lead
        if not canvas.fits(Rect(0, 0, area.width, canvas.u(90)), summary, 32, max_lines=2):
            summary = lead
    if summary:
        strip = Rect(area.left, area.bottom - canvas.u(90), area.width, canvas.u(90))
        canvas.text(strip, summary, 32, theme.MUTED, max_lines=2)
        area = Rect(area.left, area.top, area.width, strip.top - area.top - canvas.u(8))
    ranges = as_map(q.get("ranges"))
    correct = as_map(q.get("correct"))
    smallest = {as_text(p) for p in as_list(q.get("smallest"))}
    rows = []
    for name in board.in_game():
        low, high = numberline.parse_range(ranges.get(name))
        rows.append(numberline.Row(name, low, high, " · ".join(boost_notes(q, name)),
                                   dim=correct.get(name) is not True, best=as_text(name) in smallest))
    points = as_map(q.get("points"))
    scores = as_map(q.get("scores"))
    grow = progress(canvas.now, REVEAL_SECONDS)

    def right(c: Canvas, box: Rect, row: numberline.Row) -> None:
        if grow < 1:
            return
        mark = box.height * 2 // 5
        centre = (box.left + mark, box.centery)
        if correct.get(row.name) is True:
            c.tick(centre, mark, theme.GOLD if row.name in smallest else theme.RIGHT)
        else:
            c.cross(centre, mark)
        gained = as_int(points.get(row.name), 0) or 0
        total = as_int(scores.get(row.name), 0) or 0
        text_box = Rect(box.left + 2 * mark + c.u(12), box.top, box.width - 2 * mark - c.u(12), box.height)
        wide = box.width >= c.u(300)
        words = f"{gained:+d} · {short_points(total)}" if wide else f"{gained:+d}"  # a room: this question's
        c.text(text_box, words, 40, theme.TEXT, role="title", align="left", max_lines=1)

    numberline.draw(canvas, board, area, rows, as_number(q.get("answer")), grow, right, right_width=0.2,
                    seat=board.seat_number, grow_at=lambda now: progress(now, REVEAL_SECONDS))
