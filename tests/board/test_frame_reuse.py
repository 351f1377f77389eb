"""What a frame takes over from the frames before it (issue 22): the scene's layer, fitted texts, rendered
lines, the display loop's two frame buffers. A frame drawn with any of them is the frame drawn whole."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from appliance.board import Board, compose, moment
from appliance.board.compose import LAYERS
from appliance.board.memo import LINES, Lines
from appliance.board.samples import board_states
from appliance.board.scenes.squizz import ROLL_SECONDS
from tests.night.board_states import night_states

SIZE = (960, 540)
STATES = board_states()


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def whole(state: dict[str, Any], now: float) -> tuple[bytes, list[Any]]:
    """The frame with nothing kept from before: no layers, no rendered lines."""
    LAYERS.clear()
    LINES.clear()
    canvas, _ = compose(state, SIZE, now)
    return pixels(canvas.surface), sorted(canvas.placements, key=repr)


def reused(state: dict[str, Any], now: float, into: pygame.Surface | None = None) -> tuple[bytes, list[Any]]:
    canvas, _ = compose(state, SIZE, now, into=into)
    return pixels(canvas.surface), sorted(canvas.placements, key=repr)


@pytest.mark.parametrize("name", ["confident-question", "poker-ranges"])
def test_a_countdown_over_the_scenes_layer_is_the_frame_drawn_whole(name: str) -> None:
    """The layer is drawn once for the state; every second the countdown is drawn over it, and the
    frame is the one drawn whole at that time left."""
    first = {**STATES[name], "remaining": 9.5}
    later = {**STATES[name], "remaining": 3.2}
    expected = whole(later, 30.0)
    assert whole(first, 30.0) != expected  # the countdown shows on the frame
    LAYERS.clear()
    assert reused(first, 30.0) != expected  # the state's first frame: drawn whole, nothing kept
    reused(first, 30.0)  # its second: the layer is kept
    assert reused(later, 30.0) == expected  # the layer and the countdown at 3.2 s
    assert reused(later, 30.0) == expected


def test_a_scene_that_reads_the_time_itself_keeps_a_layer_per_time() -> None:
    """A night's break screen writes the time left in its own words: its layer is never reused for
    another time left."""
    name, state, now = next((n, s, t) for n, s, t in night_states() if isinstance(s.get("remaining"), int | float))
    other = {**state, "remaining": float(state["remaining"]) + 75.0}
    expected = whole(other, now)
    LAYERS.clear()
    for _ in range(3):
        reused(state, now)
    assert reused(other, now) == expected, name
    assert reused(other, now) == expected, name


def test_a_paused_frame_over_a_layer_is_the_frame_drawn_whole() -> None:
    paused = {**STATES["confident-question"], "paused": True, "message": "Quizmaster on a break"}
    expected = whole(paused, 30.0)
    for _ in range(3):  # drawn whole, then its layer kept, then the layer
        assert reused(paused, 30.0) == expected


@pytest.mark.parametrize("name", list(STATES))
def test_a_settled_frame_does_not_change_with_the_clock(name: str) -> None:
    """Once the scene's animation is over its frame stands still (what the layer and the display loop's
    settled frame both rely on)."""
    _, animation = moment(STATES[name])
    LAYERS.clear()
    assert whole(STATES[name], animation) == whole(STATES[name], animation + 45.0)


def test_the_squizz_reveal_shows_the_die_rolled_from_its_first_frame() -> None:
    """The reveal is a moment of its own with no animation: the display loop draws it at its clock's
    0, which showed the die mid-roll and "…" in place of the target until issue 22."""
    state = STATES["squizz-reveal"]
    assert moment(state)[1] == 0
    assert whole(state, 0.0) == whole(state, ROLL_SECONDS + 30.0)


def test_a_frame_drawn_on_a_used_buffer_is_the_frame_drawn_whole() -> None:
    buffer = pygame.Surface(SIZE)
    for name in ("poker-betting", "lobby", "squizz-roll", "confident-question"):
        expected = whole(STATES[name], 0.5)
        for _ in range(3):
            assert reused(STATES[name], 0.5, into=buffer) == expected, name
    with pytest.raises(ValueError, match="cannot be drawn on a 100x100 surface"):
        compose(STATES["lobby"], SIZE, 0.0, into=pygame.Surface((100, 100)))


def test_only_a_few_layers_are_kept() -> None:
    """A 1080p layer is 8 MB: the oldest goes when a fourth state is drawn twice."""
    LAYERS.clear()
    names = ["lobby", "poker-betting", "allin-reading", "buzzer-armed"]
    for name in names:
        for _ in range(2):
            reused(STATES[name], 30.0)
    kept = [name for name in names if LAYERS.copy_onto((SIZE, _key(STATES[name])), pygame.Surface(SIZE))]
    assert kept == names[1:]


def _key(state: dict[str, Any]) -> str:
    from appliance.board.compose import _text

    return _text(state, "" if state.get("remaining") is None else "remaining")


def test_rendered_lines_are_kept_within_their_pixel_budget() -> None:
    lines = Lines(budget=20_000)
    first = lines.get("body", 30, "Ann", (255, 255, 255))
    assert lines.get("body", 30, "Ann", (255, 255, 255)) is first  # kept: the same image again
    for word in ("Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"):
        lines.get("title", 60, word, (240, 196, 40))
    assert lines.pixels <= 20_000
    assert lines.get("body", 30, "Ann", (255, 255, 255)) is not first  # the oldest went first


def test_the_snapshot_is_not_overwritten_by_the_frames_after_it() -> None:
    """The loop draws the next frame on its other buffer: the last frame stays whole."""
    board = Board(SIZE, display="headless")
    board.draw(STATES["lobby"], 0.0)
    shown = board.snapshot_png()
    board.draw(STATES["poker-betting"], 0.0)
    board.draw(STATES["squizz-reveal"], 0.0)
    board.draw(STATES["lobby"], 0.0)
    assert board.snapshot_png() == shown


def test_an_open_screen_is_drawn_on_and_its_last_frame_outlives_it() -> None:
    board = Board(SIZE, display="headless")
    board.open()
    board.draw(STATES["poker-betting"], 30.0)
    screen = pygame.display.get_surface()
    assert pixels(screen) == whole(STATES["poker-betting"], 30.0)[0]
    shown = board.snapshot_png()
    board.close()
    assert board.snapshot_png() == shown


def _layered_states() -> list[tuple[str, dict[str, Any]]]:
    from appliance.board.samples import room_views

    room = room_views(12)
    return [("squizz-roll", STATES["squizz-roll"]), ("squizz-question", STATES["squizz-question"]),
            ("night-podium-12", room["night-podium"]), ("confident-winners-12", room["confident-winners"]),
            ("allin-reveal", STATES["allin-reveal"]), ("allin-reveal-12", room["allin-reveal"]),
            ("confident-reveal", STATES["confident-reveal"]), ("poker-winners", STATES["poker-winners"]),
            ("confident-reveal-40", room_views(40)["confident-reveal"])]


@pytest.mark.parametrize(("name", "state"), _layered_states(), ids=lambda v: v if isinstance(v, str) else "")
def test_a_layered_animation_frame_is_the_frame_drawn_whole(name: str, state: dict[str, Any]) -> None:
    """Issue 30 item 6: a layered scene's animation (the die's roll, the podium's rise, All In's split bars)
    keeps what stands still from its first frame and draws only what moves; each later frame is that frame drawn
    whole."""
    from appliance.board.compose import choose
    from appliance.board.state import Board as BoardState

    choice = choose(BoardState(state))
    assert choice.layered and choice.animation > 0.5, name
    expected = whole(state, 0.45)
    assert whole(state, 0.05) != expected  # it moves
    LAYERS.clear()
    reused(state, 0.05)  # the animation's first frame: its layer is kept
    assert reused(state, 0.45) == expected
    assert reused(state, 0.30) == whole(state, 0.30)


def test_sqizz_totals_stand_still_once_counted_and_the_next_counts_over_them() -> None:
    """sQuizz's final totals (issue 30 item 6): a layer per total counted; the one counting up drawn over it."""
    from appliance.board.samples import room_views

    for state in (STATES["squizz-final"], room_views(12)["squizz-final"]):
        expected = {t: whole(state, t) for t in (1.6, 2.2, 3.1, 4.0)}
        assert expected[1.6] != expected[3.1] != expected[4.0]  # a total more each 1.5 s
        LAYERS.clear()
        for t in (1.6, 2.2, 3.1, 4.0, 2.2):
            assert reused(state, t) == expected[t], t


@pytest.mark.parametrize("seats", [12, 40])
def test_the_night_standing_counts_and_moves_over_its_layer_as_drawn_whole(seats: int) -> None:
    """Issue 30 item 6: while the night's standing counts up only the bars and totals are drawn over a layer;
    while it moves each row is drawn once on its own image and moved. Each frame is the frame drawn whole,
    its texts placed where the whole frame places them."""
    from appliance.board.samples import room_views
    from appliance.board.scenes.night import COUNT_SECONDS, MOVE_SECONDS

    state = room_views(seats)["night-standing"]
    times = (0.05, 0.6, 1.9, COUNT_SECONDS + 0.05, COUNT_SECONDS + 0.5, COUNT_SECONDS + MOVE_SECONDS - 0.05)
    expected = {t: whole(state, t) for t in times}
    assert len({frame for frame, _ in expected.values()}) == len(times)  # it counts, then it moves
    LAYERS.clear()
    for t in (*times, 0.6, COUNT_SECONDS + 0.5):
        assert reused(state, t) == expected[t], t
