"""The sQuizz scene with the room form at 24 seats (docs/rules.md squizz-room): no reader, every team answers.
The TV's redraw for 40 is a later issue; this checks that today's scene draws every moment of a 24-seat room
game without a crash and says who reads (the box), never "Reader:" with no name."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from appliance.board import compose
from tests.board.fixtures import Play, envelope

SEATS = [f"Team {n:02d}" for n in range(1, 25)]
CARD = {"prompt": "Height in metres", "propositions": [{"label": "Big Ben", "value": "96"},
                                                      {"label": "Eiffel Tower", "value": "330"},
                                                      {"label": "Leaning Tower of Pisa", "value": "57"}]}


def room_states() -> Iterator[tuple[str, dict[str, Any]]]:
    play = Play("squizz", SEATS, {"tokens": 2})
    play.start({"card": CARD, "die": 3})
    yield "question", envelope("squizz", play.view(), SEATS)
    for n, name in enumerate(SEATS[:10]):
        play.step({"player": name, "answer": "B" if n % 2 else "A", "token": 1})
    yield "question-10-in", envelope("squizz", play.view(), SEATS)
    for name in SEATS[10:]:
        play.step({"player": name, "answer": "B", "token": 1})
    yield "reveal", envelope("squizz", play.view(), SEATS)
    play.start({"card": CARD, "die": 1})
    for name in SEATS:
        play.step({"player": name, "answer": "C", "token": 2})
    yield "final", envelope("squizz", play.view(), SEATS)


@pytest.mark.parametrize(("name", "state"), list(room_states()), ids=lambda v: v if isinstance(v, str) else "")
def test_the_24_seat_room_form_draws_and_names_the_box_as_reader(name: str, state: dict[str, Any]) -> None:
    assert state["view"]["readers"] is False
    for now in (0.4, 30.0):
        canvas, _ = compose(state, (1920, 1080), now)
        texts = [p.text for p in canvas.placements]
        assert texts, name
        assert not any(t.strip() == "Reader:" for t in texts), texts
        if name != "final":
            assert "The box reads · everyone answers" in texts, texts


@pytest.mark.parametrize("count", [2, 12, 40])
def test_the_reveal_says_how_many_of_the_room_were_right(count: int) -> None:
    """Issue 30 item 1: each card's reveal counts the room's right answers ("N of 40 right") and how many
    chose each wrong proposition, at 28 px or more at 1080p."""
    from appliance.board.compose import compose as draw
    from appliance.board.samples import room_views

    state = room_views(count)["squizz-reveal"]
    q = state["view"]["question"]
    right = q["correct_answer"]
    canvas, _ = draw(state, (1920, 1080), 30.0)
    shown = {p.text: p for p in canvas.placements}
    said = f"{len(q['correct'])} of {count} right"
    assert said in shown and shown[said].px >= 28, sorted(shown)
    assert 0 < len(q["correct"]) <= count
    for letter in "ABC":
        if letter != right:
            chose = sum(1 for a in q["answers"].values() if a == letter)
            assert f"{chose} of {count} chose {letter}" in shown
