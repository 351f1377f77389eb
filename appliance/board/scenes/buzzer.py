"""Buzzer round (rules.md Buzzer round): the order of the buzzes and who is answering.

No buzzer engine exists yet; the board reads this view (the shape a buzzer flow is asked to publish,
used by tests/board/fixtures.py until then)::

    {"game": "buzzer", "phase": "waiting" | "armed" | "answering",
     "number": 3, "question": "optional text the quizmaster reads",
     "buzzes": ["cat", "ann"],       # in handset-clock order (rules.md Buzzer 2)
     "answering": "cat" | None,
     "wrong": ["ann"],               # already judged wrong on this question
     "locked_out": ["bob"],          # pressed before the buzzers were armed (rules.md Buzzer 1)
     "scores": {"ann": 2, ...}}
"""

from __future__ import annotations

import pygame

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scenes.common import ROOM_ROW, footer, header, player_pills, seat_pill
from appliance.board.scenes.scoreboard import draw_table, standings
from appliance.board.scenes.select import Choice
from appliance.board.state import Board, as_int, as_list, as_text

PULSE_SECONDS = 2.0


def choose(board: Board) -> Choice:
    phase = as_text(board.view.get("phase"), "waiting")
    number = as_int(board.view.get("number"), 0)
    answering = as_text(board.view.get("answering"))
    revealed = isinstance(board.view.get("answer"), dict)
    return Choice(f"buzzer-{phase}", draw, ("buzzer", number, phase, answering, revealed),
                  PULSE_SECONDS if phase == "armed" else 0.0)


ROOM_PICTURE_UNITS = 300
"""The question panel's height with a picture in a room of more than 8 (420 at a table)."""


def draw(canvas: Canvas, board: Board) -> None:
    view = board.view
    phase = as_text(view.get("phase"), "waiting")
    number = as_int(view.get("number"), 0)
    subtitle = {"waiting": "Wait for it…", "armed": "BUZZ NOW!", "answering": ""}.get(phase, "")
    reveal = view.get("answer") if isinstance(view.get("answer"), dict) else None
    area = header(canvas, f"Buzzer Round · Question {number}" if number else "Buzzer Round", subtitle)
    area = footer(canvas, board, area)
    text = as_text(view.get("question"))
    pictured = canvas.shows(board.image)
    # a picture question's panel is taller; a room's less so, its buzz order keeps 28 px names at 40 seats
    tall = (ROOM_PICTURE_UNITS if len(board.in_game()) > 8 else 420) if pictured else 200
    top = Rect(area.left, area.top, area.width, canvas.u(tall) if text else 0)
    if text:
        canvas.panel(top)
        inner = top.inflate(-canvas.u(40), -canvas.u(24))
        if pictured and board.image:  # a picture question: the picture at the left of the question
            picture = Rect(inner.left, inner.top, round(inner.width * 0.45), inner.height)
            canvas.image(picture, board.image)
            inner = Rect(picture.right + canvas.u(32), inner.top, inner.right - picture.right - canvas.u(32),
                         inner.height)
        canvas.text(inner, text, 60, theme.TEXT, role="title")
    rest = Rect(area.left, top.bottom + canvas.u(20), area.width, area.bottom - top.bottom - canvas.u(20))
    left = Rect(rest.left, rest.top, round(rest.width * 0.55), rest.height)
    right = Rect(left.right + canvas.u(32), rest.top, rest.right - left.right - canvas.u(32), rest.height)
    answering = as_text(view.get("answering"))
    if reveal is not None and as_text(reveal.get("text")):  # the question is over: its answer, for the room
        spot = Rect(left.left, left.top, left.width, canvas.u(200))
        pygame.draw.rect(canvas.surface, theme.GOLD, spot, border_radius=canvas.u(24))
        also = [as_text(a) for a in as_list(reveal.get("also")) if as_text(a)]
        canvas.text(Rect(spot.left + canvas.u(24), spot.top + canvas.u(10), spot.width - canvas.u(48), canvas.u(110)),
                    f"Answer: {as_text(reveal.get('text'))}", 64, theme.BACKGROUND, role="title", max_lines=1)
        if also:
            canvas.text(Rect(spot.left + canvas.u(24), spot.top + canvas.u(120), spot.width - canvas.u(48),
                             canvas.u(64)), "Also right: " + ", ".join(also), 36, theme.BACKGROUND, max_lines=1)
        left = Rect(left.left, spot.bottom + canvas.u(20), left.width, left.bottom - spot.bottom - canvas.u(20))
    elif phase == "answering" and answering:
        spot = Rect(left.left, left.top, left.width, canvas.u(180))
        pygame.draw.rect(canvas.surface, theme.GOLD, spot, border_radius=canvas.u(24))
        canvas.text(Rect(spot.left, spot.top, spot.width, canvas.u(60)), "Answering", 40, theme.BACKGROUND,
                    role="title", max_lines=1)
        seat_pill(canvas, board, Rect(spot.left + canvas.u(24), spot.top + canvas.u(66), spot.width - canvas.u(48),
                                      canvas.u(100)), answering, 64)
        left = Rect(left.left, spot.bottom + canvas.u(20), left.width, left.bottom - spot.bottom - canvas.u(20))
    elif phase == "armed":
        pulse = 0.5 + 0.5 * abs(((canvas.now * 2) % 2) - 1) if canvas.now < PULSE_SECONDS else 1.0
        ring = Rect(0, 0, canvas.u(260), canvas.u(260))
        ring.center = (left.centerx, left.top + canvas.u(150))
        pygame.draw.circle(canvas.surface, theme.mix(theme.PANEL, theme.WRONG, pulse), ring.center, ring.width // 2)
        canvas.text(ring.inflate(-canvas.u(40), -canvas.u(80)), "BUZZ!", 72, theme.TEXT, role="title", max_lines=1)
        left = Rect(left.left, ring.bottom + canvas.u(20), left.width, left.bottom - ring.bottom - canvas.u(20))
    elif phase == "waiting" and not as_list(view.get("buzzes")):
        # before the first buzz the left half was empty (issue 31): the room is told what comes
        spot = Rect(left.left, left.top, left.width, min(left.height, canvas.u(300)))
        canvas.panel(spot)
        canvas.text(Rect(spot.left + canvas.u(24), spot.top + canvas.u(20), spot.width - canvas.u(48), canvas.u(120)),
                    "Listen to the question", 64, theme.GOLD, role="title", max_lines=1)
        canvas.text(Rect(spot.left + canvas.u(24), spot.top + canvas.u(150), spot.width - canvas.u(48),
                         spot.height - canvas.u(170)),
                    "Buzz as soon as the buzzers open: the first to buzz answers", 40, theme.TEXT, max_lines=2)
        left = Rect(left.left, spot.bottom + canvas.u(20), left.width, left.bottom - spot.bottom - canvas.u(20))
    _order(canvas, board, left)
    table = standings(board)
    most = 2 * max(1, (right.height - canvas.u(64)) // canvas.u(ROOM_ROW + 12))
    if len(table) > most:  # a room: the leaders, and how many more there are (the results show them all)
        canvas.text(Rect(right.left, right.top, right.width, canvas.u(56)), f"Top {most} of {len(table)}", 40,
                    theme.MUTED, align="left", max_lines=1)
        right = Rect(right.left, right.top + canvas.u(64), right.width, right.height - canvas.u(64))
        table = table[:most]
    draw_table(canvas, board, right, table, "points")


def _order(canvas: Canvas, board: Board, area: Rect) -> None:
    view = board.view
    buzzes = [as_text(b) for b in as_list(view.get("buzzes")) if as_text(b)]
    wrong = {as_text(w) for w in as_list(view.get("wrong"))}
    locked_out = [as_text(b) for b in as_list(view.get("locked_out")) if as_text(b)]
    title = Rect(area.left, area.top, area.width, canvas.u(56))
    canvas.text(title, "Buzz order" if buzzes else "No buzz yet", 40, theme.MUTED, align="left", max_lines=1)
    names = buzzes + [n for n in locked_out if n not in buzzes]
    body = Rect(area.left, title.bottom + canvas.u(8), area.width, area.bottom - title.bottom - canvas.u(8))

    def label(name: str) -> str:
        if name in locked_out and name not in buzzes:
            return f"{name} (too early)"
        return f"{buzzes.index(name) + 1}. {name}"

    player_pills(canvas, board, body, names, mark=lambda n: "cross" if n in wrong or n in locked_out else "",
                 dim=lambda n: n in wrong or n in locked_out, max_columns=2, label=label)
