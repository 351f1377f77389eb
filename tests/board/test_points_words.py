"""Issue 31 (cosmetic): the night's standing said "1 pts"."""

from __future__ import annotations

from appliance.board.compose import compose
from appliance.board.scenes.scoreboard import short_points
from tests.night.board_states import night_states


def test_one_point_is_one_pt() -> None:
    assert [short_points(v) for v in (1, -1, 0, 12)] == ["1 pt", "-1 pt", "0 pts", "12 pts"]


def test_the_night_standing_never_says_1_pts() -> None:
    for name, state, _ in night_states():
        canvas, _ = compose(state, (1280, 720), 0.0)  # the standing counting up from the last round
        texts = [p.text for p in canvas.placements]
        assert not any(t == "1 pts" or t.endswith(" 1 pts") for t in texts), (name, texts)
