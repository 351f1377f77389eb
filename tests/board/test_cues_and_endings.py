"""The TV's cues match what the quizmaster's button does (issue 20): no "press NEXT" while players are
still answering; an offline seat's code; which ending the quizmaster chose; the admin page's picture is
the settled frame of the scene, not the first frame of its animation."""

from __future__ import annotations

import io
from typing import Any

import pygame

from appliance.board import compose
from appliance.board.compose import moment, render
from appliance.board.scenes.results import ABANDONED, STOPPED
from tests.board.fixtures import board_states
from web.mirror import SIZE, board_png

TV = (1280, 720)


def texts(state: dict[str, Any], now: float = 30.0) -> str:
    canvas, _ = compose(state, TV, now)
    return "\n".join(p.text for p in canvas.placements)


def test_no_next_cue_while_players_are_answering() -> None:
    state = {**board_states()["confident-question"], "can_advance": True, "waiting": True}
    assert "press NEXT" not in texts(state)
    assert "press NEXT" in texts({**state, "waiting": False})


def test_an_offline_seat_shows_its_code() -> None:
    state = {**board_states()["poker-betting"], "seats_away": ["Cat"]}
    assert "Cat: handset away, ask the quizmaster" in texts(state)  # no code on the TV (issue 32)
    assert "handset away" not in texts(board_states()["poker-betting"])


def test_the_results_say_which_ending() -> None:
    winners = board_states()["poker-winners"]
    stopped = {**winners, "view": {**winners["view"], "stopped": True}, "ending": "stopped"}
    assert STOPPED in texts(stopped)
    abandoned = {**board_states()["confident-question"], "scene": "results", "ending": "abandoned"}
    assert ABANDONED in texts(abandoned)


def _pixels(png: bytes) -> bytes:
    return pygame.image.tobytes(pygame.image.load(io.BytesIO(png), "x.png"), "RGB")


def test_the_admin_picture_is_the_settled_frame() -> None:
    state = board_states()["confident-reveal"]
    _, animation = moment(state)
    assert animation > 0
    first = pygame.image.tobytes(render(state, SIZE, 0.0), "RGB")
    settled = pygame.image.tobytes(render(state, SIZE, animation), "RGB")
    assert first != settled  # the reveal animates: the first frame lacks what the settled one shows
    assert _pixels(board_png(state)) == settled


def test_squizz_years_are_written_as_years() -> None:
    state = board_states()["squizz-reveal"]
    question = dict(state["view"]["question"])
    question.update({"prompt": "Year of the first ascent of Everest?", "values": {"A": "1953", "B": "1963",
                                                                                    "C": "12500"}})
    shown = texts({**state, "view": {**state["view"], "question": question}})
    assert "1953" in shown and "1963" in shown and "1,963" not in shown
    other = {**question, "prompt": "Height in metres?"}
    assert "12,500" in texts({**state, "view": {**state["view"], "question": other}})  # not a year: grouped
