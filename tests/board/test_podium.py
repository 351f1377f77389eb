"""The room's podium (issue 30 item 1): at a night's end and a room game's end, the top three big on their steps
and every other team below in columns, everyone on the one screen at 28 px or more at 1080p."""

from __future__ import annotations

import pytest

from appliance.board.compose import choose, compose
from appliance.board.samples import room_views
from appliance.board.state import Board

VIEWS = {count: room_views(count) for count in (12, 40)}


@pytest.mark.parametrize("scene", ["night-podium", "confident-winners"])
@pytest.mark.parametrize("count", [12, 40])
def test_every_team_is_on_the_podium_screen_once(scene: str, count: int) -> None:
    state = VIEWS[count][scene]
    board = Board(state)
    canvas, _ = compose(state, (1920, 1080), 30.0)
    texts = [p.text for p in canvas.placements]
    assert min(p.px for p in canvas.placements) >= 28
    names = [p["name"] for p in state["players"]]
    for name in names:  # a name's pill carries its seat badge; the columns may show the seat number alone
        assert name in texts or str(board.seat_number(name)) in texts, f"{name} missing"
    below = [p for p in canvas.placements if p.text.endswith(("points", "point", "pts")) and p.box[1] > 1080 * 0.4]
    assert len(below) >= count - 6  # at most two names on each of the three steps, everyone else below


@pytest.mark.parametrize("scene", ["night-podium", "confident-winners"])
def test_the_top_three_are_big_and_the_rest_in_columns(scene: str) -> None:
    state = VIEWS[40][scene]
    board = Board(state)
    assert choose(board).name in ("night-podium", "winners")
    canvas, _ = compose(state, (1920, 1080), 30.0)
    winner = (state.get("night") or state["view"])["winners"][0]
    big = [p for p in canvas.placements if p.text == winner]
    assert big and big[0].px >= 40, big
    # the places below: at least 20 rows of them, in several columns
    lefts = {p.box[0] for p in canvas.placements if p.text.isdigit() and p.box[1] > 1080 * 0.5}
    assert len(lefts) >= 4
