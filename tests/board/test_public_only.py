"""The board reads state and never shows a secret; any state, however malformed, still draws a frame."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.board import compose
from tests.board.fixtures import board_states

SIZE = (1280, 720)


def texts(state: dict[str, Any]) -> str:
    canvas, _ = compose(state, SIZE, 30.0)
    return "\n".join(p.text for p in canvas.placements)


def test_open_poker_question_shows_no_range_and_no_answer() -> None:
    shown = texts(board_states()["poker-betting-allin"])
    for secret in ("8848", "8,848", "8000", "8,800 –", "5000", "100000"):
        assert secret not in shown
    assert "Pot" in shown  # the scene is there


def test_all_in_before_the_reveal_shows_neither_the_answer_nor_the_other_statements() -> None:
    shown = texts(board_states()["allin-betting"])
    assert "I once sang karaoke" in shown  # the statement read aloud
    for secret in ("TRUE", "FALSE", "Australia", "juggle", "T 15", "F 0"):
        assert secret not in shown


def test_squizz_question_shows_no_value_and_no_answer() -> None:
    shown = texts(board_states()["squizz-question"])
    for secret in ("400", "177", "Bob: A"):
        assert secret not in shown
    assert "Greenland shark" in shown


def test_confident_question_shows_who_answered_not_what() -> None:
    shown = texts(board_states()["confident-question"])
    assert "2/4 locked in" in shown
    for secret in ("8 – 15", "copied", "12 people"):
        assert secret not in shown


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=12,
)
keys = st.sampled_from(["scene", "game", "paused", "players", "seats", "view", "remaining", "message", "box",
                        "can_advance", "join"])


@settings(max_examples=150, deadline=None)
@given(
    base=st.sampled_from(sorted(board_states())),
    overrides=st.dictionaries(keys, json_values, max_size=4),
    view_overrides=st.dictionaries(st.sampled_from(["question", "phase", "players", "chips", "stacks", "scores",
                                                    "winners", "legal", "to_act", "pots"]), json_values, max_size=3),
)
def test_any_malformed_state_still_draws(base: str, overrides: dict[str, Any], view_overrides: dict[str, Any]) -> None:
    state = dict(board_states()[base])
    if isinstance(state.get("view"), dict):
        state["view"] = {**state["view"], **view_overrides}
    state.update(overrides)
    canvas, choice = compose(state, SIZE, 1.0)
    assert canvas.surface.get_size() == SIZE and choice.name
