"""The night's board scenes (appliance/board/scenes/night.py) from states the real session and night
runner made (tests/night/board_states.py), against stored reference images; rewritten only by
``python -m tests.night.board_states --references``."""

from __future__ import annotations

from typing import Any

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.board.compose import choose, compose
from appliance.board.state import Board
from tests.board.snapshots import PIXEL_BUDGET, SIZES, differing_share, frame, reference_path
from tests.night.board_states import night_states

STATES = night_states()
CASES = [(name, state, now, key) for name, state, now in STATES for key in SIZES]


@pytest.mark.parametrize(("name", "state", "now", "size_key"), CASES, ids=[f"{c[0]}-{c[3]}p" for c in CASES])
def test_night_scene_matches_reference(name: str, state: dict[str, Any], now: float, size_key: str) -> None:
    path = reference_path(name, size_key)
    assert path.exists(), f"no reference image {path.name}: run python -m tests.night.board_states --references"
    share = differing_share(frame(state, now, size_key), pygame.image.load(str(path)))
    assert share <= PIXEL_BUDGET, f"{name} at {size_key}p differs from {path.name} in {share:.2%} of its pixels"


def test_every_night_scene_is_covered_and_its_text_fits() -> None:
    names = {choose(Board(state)).name for _, state, _ in STATES}
    assert names == {"night-standing", "night-interval", "night-tiebreak", "night-podium"}
    for name, state, now in STATES:
        for size in SIZES.values():
            canvas, _ = compose(state, size, now)
            small = [p.text for p in canvas.placements if p.below_min]
            assert not small, f"{name} at {size}: text below the minimum size: {small}"


def test_the_standing_counts_up_the_last_round_then_settles() -> None:
    standing = next(state for name, state, _ in STATES if name == "night-standing")
    early, late, later = (frame(standing, t, "720") for t in (0.5, 5.0, 9.0))
    assert differing_share(early, late) > PIXEL_BUDGET  # the bars grow and the rows move
    assert differing_share(late, later) == 0.0  # then it is a still frame
    words = [p.text for p in compose(standing, SIZES["720"], 0.0)[0].placements]
    assert "+4" in words and "1 pt" in words and "1 pts" not in words  # Bob: +4 counting up from 1 point


def test_the_podium_and_the_next_round_come_from_the_night() -> None:
    podium = next(state for name, state, _ in STATES if name == "night-podium")
    words = [p.text for p in compose(podium, SIZES["1080"], 6.0)[0].placements]
    assert "Cat won on the tie-break" in words and "11 points" in words
    standing = next(state for name, state, _ in STATES if name == "night-standing")
    words = [p.text for p in compose(standing, SIZES["1080"], 5.0)[0].placements]
    # the seat number beside the name (rules.md The room 2)
    assert "Next: Round 3: The final (points x2)" in words and "Sitting out: 4 Dan" in words


@settings(max_examples=60, deadline=None)
@given(
    base=st.sampled_from([name for name, _, _ in STATES]),
    night=st.dictionaries(st.sampled_from(["title", "table", "standings", "rounds", "last", "next", "cards", "tied",
                                           "winners", "players", "played", "standing", "phase"]),
                          st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                                       lambda inner: st.lists(inner, max_size=3)
                                       | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8),
                          max_size=4),
)
def test_a_malformed_night_block_still_draws(base: str, night: dict[str, Any]) -> None:
    state = next(s for name, s, _ in STATES if name == base)
    broken = {**state, "night": {**state["night"], **night}}
    canvas, choice = compose(broken, SIZES["720"], 1.0)
    assert choice.name.startswith("night")
