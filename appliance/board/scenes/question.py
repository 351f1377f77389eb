"""An open question: the text, its unit and clues, who has locked in (never what), the countdown.

Used by Confident? (and by any game whose question screen is text plus lock-ins). The countdown ring
appears only when the state has ``remaining`` (a time limit applies, e.g. Fast Play).
"""

from __future__ import annotations

from collections.abc import Sequence

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scenes.common import footer, header, live_countdown, pills_height, player_pills
from appliance.board.state import Board


def draw_open(
    canvas: Canvas,
    board: Board,
    title: str,
    subtitle: str,
    text: str,
    unit: str,
    clues: Sequence[str],
    answered: Sequence[str],
    banner: str,
) -> None:
    area = header(canvas, title, subtitle)
    area = footer(canvas, board, area)
    names = board.in_game()
    players_height = pills_height(canvas, area.width, len(names))
    clue_height = canvas.u(64) * len(clues)
    panel = Rect(area.left, area.top, area.width,
                 area.height - players_height - clue_height - canvas.u(100))
    canvas.panel(panel)
    inner = panel.inflate(-canvas.u(56), -canvas.u(40))
    if board.timed:
        radius = canvas.u(80)
        centre = (inner.right - radius, inner.top + radius)
        live_countdown(canvas, board, centre, radius)
        inner.width -= 2 * radius + canvas.u(24)
    pictured = canvas.shows(board.image)
    if pictured and board.image:  # a picture question: the picture at the left, as big as fits, the question beside
        picture = Rect(inner.left, inner.top, round(inner.width * 0.6), inner.height)
        canvas.image(picture, board.image)
        inner = Rect(picture.right + canvas.u(32), inner.top, inner.right - picture.right - canvas.u(32),
                     inner.height)
    unit_height = canvas.u(60) if unit else 0
    question_box = Rect(inner.left, inner.top, inner.width, inner.height - unit_height)
    canvas.text(question_box, text, 56 if pictured else 72, theme.TEXT, role="title")
    if unit:
        canvas.text(Rect(inner.left, question_box.bottom, inner.width, unit_height), f"Answer in {unit}", 40,
                    theme.GOLD, max_lines=1)
    y = panel.bottom + canvas.u(16)
    for clue in clues:
        canvas.text(Rect(area.left, y, area.width, canvas.u(60)), f"Hint: {clue}", 40, theme.GOLD, max_lines=1)
        y += canvas.u(64)
    banner_box = Rect(area.left, y, area.width, canvas.u(60))
    done = set(answered)
    canvas.text(banner_box, f"{banner}   ({len(done & set(names))}/{len(names)} locked in)", 38, theme.MUTED,
                max_lines=1)
    top = banner_box.bottom + canvas.u(16)
    players = Rect(area.left, top, area.width, area.bottom - top)
    player_pills(canvas, board, players, names, mark=lambda n: "lock" if n in done else "",
                 dim=lambda n: board.offline(n))
