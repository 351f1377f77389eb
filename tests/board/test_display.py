"""The display loop, headless: thread-safe updates, redraws only on change or animation, PNG mirror."""

from __future__ import annotations

import threading
import time

import pygame
import pytest

from appliance.board import Board, render
from appliance.board.display import _counted_down, drivers_for
from appliance.errors import ConfigError
from tests.board.fixtures import board_states

SIZE = (640, 360)


def run_for(board: Board, seconds: float, during=None) -> None:  # type: ignore[no-untyped-def]
    """Run the loop on this (main) thread for ``seconds``; ``during`` runs on another thread meanwhile."""
    stop = threading.Event()
    timer = threading.Timer(seconds, stop.set)
    timer.start()
    worker = threading.Thread(target=during, args=(board,)) if during else None
    if worker:
        worker.start()
    try:
        board.run(stop)
    finally:
        timer.cancel()
        if worker:
            worker.join()


def test_idle_board_draws_once_and_then_sleeps() -> None:
    with Board(SIZE, display="headless") as board:
        board.update(board_states()["lobby"])
        run_for(board, 0.8)
        assert board.driver == "dummy"
        assert board.frames == 1


def test_update_from_another_thread_redraws() -> None:
    states = board_states()

    def feed(b: Board) -> None:
        time.sleep(0.2)
        b.update(states["confident-intro"])
        time.sleep(0.2)
        b.update(states["allin-intro"])

    with Board(SIZE, display="headless") as board:
        board.update(states["lobby"])
        run_for(board, 0.8, feed)
        assert board.frames == 3
        png = board.snapshot_png()
    assert png.startswith(b"\x89PNG")


def test_animation_redraws_until_it_settles() -> None:
    with Board(SIZE, display="headless") as board:
        board.update(board_states()["squizz-roll"])  # the die rolls for 1.6 s
        run_for(board, 2.2)
        frames = board.frames
    assert 20 <= frames <= 60  # about 30 frames a second while rolling, one still frame after


def test_snapshot_is_the_last_frame() -> None:
    state = board_states()["poker-intro"]
    with Board(SIZE, display="headless") as board:
        board.update(state)
        run_for(board, 0.3)
        shown = pygame.image.load(__import__("io").BytesIO(board.snapshot_png()))
    expected = render(state, SIZE, 0.0)
    assert pygame.image.tobytes(shown, "RGB") == pygame.image.tobytes(expected, "RGB")


def test_snapshot_before_any_frame_renders_the_state() -> None:
    board = Board(SIZE, display="headless")
    assert board.snapshot_png().startswith(b"\x89PNG")


def test_countdown_runs_locally_and_stops_at_zero() -> None:
    state = {**board_states()["confident-question"], "remaining": 10.0}
    assert _counted_down(state, 3.5)["remaining"] == pytest.approx(6.5)
    assert _counted_down(state, 30)["remaining"] == 0.0
    assert _counted_down({**state, "paused": True}, 3.5)["remaining"] == 10.0


def test_countdown_redraws_each_second_only() -> None:
    state = {**board_states()["confident-question"], "remaining": 20.0}
    with Board(SIZE, display="headless") as board:
        board.update(state)
        run_for(board, 2.3)
        assert 3 <= board.frames <= 4  # the first frame, then one per shown second


@pytest.mark.parametrize("bad", ["tv", "", "KMSDRM"])
def test_unknown_display_is_refused(bad: str) -> None:
    with pytest.raises(ConfigError, match="display"):
        Board(SIZE, display=bad)


def test_tiny_size_is_refused() -> None:
    with pytest.raises(ConfigError, match="at least 320x240"):
        Board((100, 100), display="headless")


def test_driver_choice() -> None:
    assert drivers_for("headless", {}) == ["dummy"]
    assert drivers_for("kmsdrm", {}) == ["kmsdrm"]
    assert drivers_for("window", {}) == [""]
    assert drivers_for("auto", {"DISPLAY": ":0"})[0] == ""
    assert drivers_for("auto", {"SDL_VIDEODRIVER": "dummy"}) == ["dummy"]
    assert drivers_for("auto", {})[-1] == "dummy"


def test_a_window_that_cannot_open_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    board = Board(SIZE, display="kmsdrm")
    with pytest.raises(ConfigError, match="no screen for board display 'kmsdrm'"):
        board.open()
    board.close()
