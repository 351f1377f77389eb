"""Every scene for every game phase, from engine-driven states, against the stored reference images.

References live in tests/board/reference/ and are rewritten only by ``python -m tests.board.regenerate``.
"""

from __future__ import annotations

import pygame
import pytest

from tests.board.snapshots import PIXEL_BUDGET, cases, differing_share, frame, reference_path

CASES = cases()


@pytest.mark.parametrize(("name", "state", "now", "size_key"), CASES, ids=[f"{c[0]}-{c[3]}p" for c in CASES])
def test_scene_matches_reference(name: str, state: dict, now: float, size_key: str) -> None:
    path = reference_path(name, size_key)
    assert path.exists(), f"no reference image {path.name}: run python -m tests.board.regenerate {name}"
    expected = pygame.image.load(str(path))
    actual = frame(state, now, size_key)
    share = differing_share(actual, expected)
    assert share <= PIXEL_BUDGET, (
        f"{name} at {size_key}p differs from {path.name} in {share:.2%} of its pixels "
        f"(budget {PIXEL_BUDGET:.2%}); if the change is intended, regenerate and commit the references"
    )


def test_comparison_catches_a_changed_scene() -> None:
    """The tolerance is not so loose that a different scene passes as the reference."""
    name, state, now, size_key = next(c for c in CASES if c[0] == "confident-question" and c[3] == "720")
    paused = {**state, "paused": True}
    expected = pygame.image.load(str(reference_path(name, size_key)))
    assert differing_share(frame(paused, now, size_key), expected) > PIXEL_BUDGET
    moved = {**state, "remaining": 3.0}
    assert differing_share(frame(moved, now, size_key), expected) > 0


def test_every_scene_of_every_game_is_covered() -> None:
    from appliance.board.compose import choose
    from appliance.board.state import Board

    covered = {choose(Board(state)).name for _, state, _, _ in CASES}
    expected = {
        "lobby", "winners", "squizz-final",
        "confident-intro", "confident-question", "confident-reveal",
        "poker-intro", "poker-ranges", "poker-betting", "poker-showdown",
        "allin-intro", "allin-question", "allin-reveal",
        "squizz-intro", "squizz-roll", "squizz-question", "squizz-reveal",
        "buzzer-waiting", "buzzer-armed", "buzzer-answering",
    }
    assert expected <= covered
    assert any(state.get("paused") for _, state, _, _ in CASES)
