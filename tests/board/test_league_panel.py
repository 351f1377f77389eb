"""The league's table on a member box's TV between rounds (appliance/board/scenes/league.py): its top ten
beside the night's standing, every name whole and at least the minimum size at 720p, 1080p and 4K; a night
without a league table keeps the standing alone; a malformed table draws what it can."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from appliance.board.compose import compose
from appliance.board.samples import night_views

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]
TEAMS = ["Owls", "Foxes", "Bats", "Cats", "Dogs", "Emus"]
LONG = ["Wolfgang-Amadeus-Mozartt", "Maximilian Alexander III", "Bartholomew Higginbottom",
        "Anne-Sophie Vandermeulen", "Étienne Montgomery-Woods", "The Quizzy McQuizfaces",
        "Les Quizerables United", "Universally Challenged", "Agatha Quiztie Fanclub", "Quiz Team Aguilera",
        "One Too Many"]


def standing(league: Any = None) -> dict[str, Any]:
    state = copy.deepcopy(night_views(TEAMS)["night-standing"])
    state["scene"] = "night"
    if league is not None:
        state["night"]["league"] = league
    return state


def table(names: list[str]) -> list[dict[str, Any]]:
    return [{"place": i + 1, "team": n, "box": "pub-a", "points": 1000 - 37 * i, "nights": 9, "wins": 1}
            for i, n in enumerate(names)]


@pytest.mark.parametrize("size", SIZES)
def test_the_league_top_ten_is_drawn_whole_beside_the_standing(size: tuple[int, int]) -> None:
    canvas, _ = compose(standing(table(LONG)), size, now=10.0)
    texts = {p.text: p for p in canvas.placements}
    assert "League table" in texts
    for name in LONG[:10]:
        placed = texts[name]
        assert placed.lines == (name,) and not placed.below_min, (name, placed)
        x, y, w, h = placed.rect
        bx, by, bw, bh = placed.box
        assert bx <= x and x + w <= bx + bw and by <= y and y + h <= by + bh
    assert LONG[10] not in texts  # the top ten only
    assert "1000" in texts and texts["1000"].rect[0] > texts[LONG[0]].rect[0]
    for team in TEAMS:  # the night's own standing still shows every team, left of the panel
        assert texts[team].rect[0] + texts[team].rect[2] < texts["League table"].box[0]


def test_no_league_table_no_panel_and_a_bad_one_draws_what_it_can() -> None:
    plain, _ = compose(standing(), (1920, 1080), now=10.0)
    assert "League table" not in {p.text for p in plain.placements}
    bad = [{"team": "Owls", "place": "x", "points": None}, "junk", {"place": 2}, {"team": "Bats", "points": 5}]
    canvas, _ = compose(standing(bad), (1920, 1080), now=10.0)
    texts = [p.text for p in canvas.placements]
    assert "League table" in texts and texts.count("Owls") >= 2 and "5" in texts
    assert not any(p.below_min for p in canvas.placements if p.text in ("League table", "Bats"))
