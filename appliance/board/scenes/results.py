"""The end of a game: the winner(s) and the final leaderboard; sQuizz reveals its totals one by one.

sQuizz keeps every token's value hidden until the end (rules.md sQuizz 5-6): its final screen is the
dramatic reveal, totals appearing from the lowest to the highest, then the winners.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pygame

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scenes import podium
from appliance.board.scenes.common import footer, game_title, header, progress, seat_pill
from appliance.board.scenes.scoreboard import draw_table, ranks, standings, unit
from appliance.board.scenes.select import Choice
from appliance.board.state import Board, as_list, as_text

CONFETTI_SECONDS = 4.0
STEP_SECONDS = 1.5
"""sQuizz final reveal: one total every 1.5 s, lowest first."""

ENDINGS = {
    "deck_ran_out": "The deck ran out: the highest total wins.",
    "deck_out": "The deck ran out: the most chips wins.",
    "stopped": "Game stopped: the most chips wins.",
    "nobody_with_chips": "Nobody has chips left: the last reader wins.",
    "last_with_chips": "Last player with chips!",
    "target": "Target reached!",
}

ROOM_PODIUM = 8
"""Above this many players a game's end is the room's podium (:mod:`podium`), the table's banner and bars below."""

STOPPED = "Finished early by the quizmaster: scored as it stood."
ABANDONED = "Game abandoned by the quizmaster: no winner."


def winners(board: Board) -> list[str]:
    return [as_text(w) for w in as_list(board.view.get("winners")) if as_text(w)]


def choose(board: Board) -> Choice:
    if board.game == "squizz" and unit(board) == "points":
        steps = len(board.in_game())
        # the totals one by one, then the winners' confetti to its end (the settled frame has none left)
        # layered: the totals already counted stand still; the one counting up (then the confetti) moves
        return Choice("squizz-final", draw_squizz_final, ("results", "squizz"), STEP_SECONDS * steps + CONFETTI_SECONDS,
                      layered=True, stage=lambda now: min(int(now // STEP_SECONDS), steps))
    # the confetti (and a room podium's rising steps) move over a still layer: the table or the places below
    return Choice("winners", draw_winners, ("results", board.game), CONFETTI_SECONDS, layered=True)


def _winner_banner(canvas: Canvas, board: Board, box: Rect, names: list[str]) -> None:
    if not names:
        canvas.text(box, "Game over", 96, theme.GOLD, role="title")
        return
    title = Rect(box.left, box.top, box.width, box.height * 2 // 5)
    canvas.text(title, "The winner is" if len(names) == 1 else "The winners are", 64, theme.GOLD, role="title",
                max_lines=1)
    pills = Rect(box.left, title.bottom, box.width, box.height - title.height)
    count = len(names)
    width = min(canvas.u(640), (pills.width - canvas.u(24) * (count - 1)) // count)
    height = min(pills.height - canvas.u(16), canvas.u(130))
    left = pills.centerx - (count * width + (count - 1) * canvas.u(24)) // 2
    for index, name in enumerate(names):
        pill = Rect(left + index * (width + canvas.u(24)), pills.top + canvas.u(8), width, height)
        seat_pill(canvas, board, pill, name, 72)


def draw_winners(canvas: Canvas, board: Board) -> None:
    names = winners(board)
    ending = ENDINGS.get(as_text(board.view.get("ending")), "")
    if board.view.get("stopped") is True:
        ending = STOPPED  # the quizmaster's "finish now and score"
    elif board.raw.get("ending") == "abandoned":
        ending = ABANDONED
    area = header(canvas, f"{game_title(board.game)} · game over", ending)
    area = footer(canvas, board, area)
    if len(board.in_game()) > ROOM_PODIUM:  # a room: the top three on the podium, every other place below
        rows = standings(board)
        places = ranks([r.value for r in rows])
        shown = [(r.name, place, r.value) for r, place in zip(rows, places, strict=True)]
        podium.draw(canvas, board, area, shown, unit(board), lambda on, box: _confetti(on, box, on.now))
        return
    banner = Rect(area.left, area.top, area.width, round(area.height * (0.38 if len(board.in_game()) <= 12 else 0.3)))

    def celebrate(on: Canvas, now: Board) -> None:  # what moves: the confetti through the winners' banner
        _confetti(on, banner, on.now)
        _winner_banner(on, now, banner, names)

    canvas.later(celebrate, board)
    table = Rect(area.left, banner.bottom + canvas.u(24), area.width, area.bottom - banner.bottom - canvas.u(24))
    draw_table(canvas, board, table, standings(board), unit(board), winners=frozenset(names))


def draw_squizz_final(canvas: Canvas, board: Board) -> None:
    rows = standings(board)
    area = header(canvas, "sQuizz: the final scores", "Every token turned over…")
    area = footer(canvas, board, area)
    count = len(rows)
    stage = int(canvas.now // STEP_SECONDS)  # the total counting up now: every one before it is counted
    done = canvas.now >= count * STEP_SECONDS
    banner = Rect(area.left, area.top, area.width, round(area.height * 0.3))
    names = winners(board) if done else []
    table = Rect(area.left, banner.bottom + canvas.u(24), area.width, area.bottom - banner.bottom - canvas.u(24))
    counted = [1.0 if count - 1 - index < stage else 0.0 for index in range(count)]  # the lowest (last row) first
    draw_table(canvas, board, table, rows, "points", counted, frozenset(names))
    if done:

        def celebrate(on: Canvas, now: Board) -> None:
            _confetti(on, banner, on.now - count * STEP_SECONDS)
            _winner_banner(on, now, banner, names)

        canvas.later(celebrate, board)
        return
    canvas.text(banner, "And the totals are…", 80, theme.GOLD, role="title")

    def counting(on: Canvas, now: Board) -> None:
        order = int(on.now // STEP_SECONDS)
        if order >= count:
            return
        shown = [progress(on.now - order * STEP_SECONDS, 1.0) if count - 1 - index == order else 0.0
                 for index in range(count)]
        draw_table(on, now, table, rows, "points", shown)

    canvas.later(counting, board)


def _confetti(canvas: Canvas, box: Rect, t: float) -> None:
    """Gold and palette flakes falling through the banner for the first seconds (deterministic)."""
    if t < 0 or t >= CONFETTI_SECONDS:
        return
    top, fall = box.top - canvas.u(40), box.height + canvas.u(80)
    draw = pygame.draw.rect
    for x, speed, start, size, colour in _flakes(box.left, box.width, canvas.theme.height):
        y = top + ((start + t * speed) % 1.0) * fall
        draw(canvas.surface, colour, (round(x), round(y), size, size // 2 + 2))


@lru_cache(maxsize=8)
def _flakes(left: int, width: int, height: int) -> tuple[tuple[float, float, float, int, theme.Colour], ...]:
    """The flakes (x, speed, where in its fall it starts, size, colour) for a banner: the same every frame
    of the confetti, so drawn from once per banner rather than once per frame."""
    rng = random.Random(7)
    colours = [theme.GOLD, theme.TRUE_SIDE, theme.RIGHT, theme.FALSE_SIDE, theme.TEXT]
    units = theme.Theme(1, height)
    flakes = []
    for _ in range(90):
        x = left + rng.random() * width
        speed = 0.4 + rng.random() * 0.6
        start = rng.random()
        size = units.u(8 + rng.random() * 10)
        flakes.append((x, speed, start, size, rng.choice(colours)))
    return tuple(flakes)
