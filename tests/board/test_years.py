"""Issue 31.6: years on the TV got a thousands comma ("Answer: 1,912", "1,953") while the number line's axis
wrote 1910: a whole number of four digits is written without a separator, larger ones keep it."""

from __future__ import annotations

from appliance.board.compose import compose
from appliance.board.samples import room_states
from appliance.board.state import show_number


def test_four_digit_whole_numbers_have_no_separator() -> None:
    assert [show_number(v) for v in ("1912", 1953, "-1066", 999)] == ["1912", "1953", "-1066", "999"]
    assert [show_number(v) for v in (10000, "3200000", "1234.5")] == ["10,000", "3,200,000", "1,234.5"]
    assert show_number(1912, compact=True) == "1912"


def test_the_reveal_writes_the_answer_as_the_axis_does() -> None:
    state = room_states()["confident-reveal-24"]
    canvas, _ = compose(state, (1920, 1080), 30.0)
    texts = [p.text for p in canvas.placements]
    assert "Answer: 1665" in texts and not any("1,665" in t for t in texts), texts
