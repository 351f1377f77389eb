"""Issue 31 (cosmetic): the buzzer round left half the TV empty until the first buzz."""

from __future__ import annotations

from appliance.board.compose import compose
from tests.board.fixtures import board_states


def test_before_the_first_buzz_the_left_half_says_what_comes() -> None:
    state = board_states()["buzzer-waiting"]
    canvas, _ = compose(state, (1920, 1080), 0.0)
    # rect: (left, top, width, height) where the text landed
    left = [p for p in canvas.placements if p.rect[0] + p.rect[2] <= 1920 * 0.6 and p.rect[1] > 380]
    texts = [p.text for p in left]
    assert "Listen to the question" in texts, texts
    assert sum(p.rect[3] for p in left) > 1080 // 8  # not a lone "No buzz yet" line
