"""The board's display loop: a pygame window, the Pi's screen (SDL kmsdrm) or nothing (headless).

:meth:`Board.update` may be called from any thread (the MQTT callback); :meth:`Board.run` is the
pygame loop and belongs to the main thread. The loop draws a frame only when the state changed, an
animation is running, or a countdown's shown second changed; otherwise it sleeps on an event, so an
idle board uses next to no CPU.

The animation clock handed to :func:`render` counts from when the scene's *moment* began (see
:class:`~appliance.board.scenes.select.Choice`); a countdown is advanced locally from the
``remaining`` the state had when it arrived, so the session need not republish every second.
"""

from __future__ import annotations

import io
import logging
import os
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from types import TracebackType
from typing import Any

import pygame

from appliance.board import theme as look
from appliance.board.compose import compose, moment
from appliance.errors import ConfigError

log = logging.getLogger(__name__)

DISPLAYS = ("auto", "window", "kmsdrm", "headless")
FRAME_SECONDS = 1 / 30
"""Frame interval while an animation runs."""
SOUND_RETRY_SECONDS = 60.0
"""How often board sound that could not open is tried again."""
IDLE_POLL_SECONDS = 0.25
"""How often an idle loop wakes to read window events and the stop flag."""

Clock = Callable[[], float]


def drivers_for(display: str, environ: Mapping[str, str] | None = None) -> list[str]:
    """SDL video drivers to try, in order, for a ``display`` setting.

    ``auto``: a desktop window when a desktop is there (DISPLAY / WAYLAND_DISPLAY), else the console's
    screen through kmsdrm when the machine has a DRM device, and headless (dummy) as the last resort."""
    env = os.environ if environ is None else environ
    if display == "window":
        return [""]  # SDL picks x11 / wayland / cocoa itself
    if display == "kmsdrm":
        return ["kmsdrm"]
    if display == "headless":
        return ["dummy"]
    chosen = env.get("SDL_VIDEODRIVER", "")
    if chosen:
        return [chosen, "dummy"] if chosen != "dummy" else ["dummy"]
    order = []
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        order.append("")
    if os.path.exists("/dev/dri/card0") or os.path.exists("/dev/dri/card1"):
        order.append("kmsdrm")
    order.append("dummy")
    return order


class Board:
    """The TV board. ``with Board(size) as board: board.update(state); board.run(stop)``."""

    def __init__(
        self,
        size: tuple[int, int] = (1920, 1080),
        display: str = "auto",
        sound: bool = False,
        clock: Clock = time.monotonic,
        report: Callable[[str, bool, str], None] | None = None,
        clips: Callable[[], Any] | None = None,
    ) -> None:
        if display not in DISPLAYS:
            raise ConfigError(f"board display must be one of {', '.join(DISPLAYS)}, got {display!r}")
        width, height = size
        if width < 320 or height < 240:
            raise ConfigError(f"board size must be at least 320x240, got {width}x{height}")
        self.size = (int(width), int(height))
        self.display = display
        self.sound_enabled = sound
        self.clock = clock
        # how the optional parts are doing: report("board" | "sound", ok, words) (appliance/infra/health.py)
        self.report = report or (lambda part, ok, text: None)
        self.clips = clips
        """Makes the follower of the cards' sounds (appliance/hardware/clips.py ``card_sound``), or None."""
        self.driver: str | None = None
        self.frames = 0
        self._lock = threading.Lock()
        self._frame_lock = threading.Lock()  # held while a frame is drawn on the screen
        self._wake = threading.Event()
        self._state: dict[str, Any] = {"v": 1, "scene": "lobby"}
        self._arrived = clock()
        self._serial = 0
        self._last: pygame.Surface | None = None
        self._spare: pygame.Surface | None = None  # the frame buffer the next frame is drawn on
        self._screen: pygame.Surface | None = None

    # -- any thread ----------------------------------------------------------------------------------

    def update(self, state: Mapping[str, Any]) -> None:
        """Show ``state`` next (thread safe; returns at once)."""
        with self._lock:
            self._state = dict(state)
            self._arrived = self.clock()
            self._serial += 1
        self._wake.set()

    def snapshot_png(self) -> bytes:
        """The last frame drawn, as PNG (drawn now from the current state if none was yet)."""
        with self._frame_lock, self._lock:
            # a copy: the loop draws the next frame on the screen or the frame after next on this buffer
            # (it holds the frame lock while drawing on the screen, and takes the lock to swap buffers)
            frame = self._last.copy() if self._last is not None else None
            state = self._state
        if frame is None:
            frame = compose(state, self.size, 0.0)[0].surface
        buffer = io.BytesIO()
        pygame.image.save(frame, buffer, "frame.png")
        return buffer.getvalue()

    # -- the main thread ---------------------------------------------------------------------------

    def __enter__(self) -> Board:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def open(self) -> None:
        """Open the screen: the first SDL driver that works for the ``display`` setting."""
        if self._screen is not None:
            return
        errors = []
        for driver in drivers_for(self.display):
            if driver:
                os.environ["SDL_VIDEODRIVER"] = driver
            try:
                pygame.display.init()
                flags = pygame.FULLSCREEN if driver == "kmsdrm" else 0
                self._screen = pygame.display.set_mode(self.size, flags)
            except pygame.error as exc:
                errors.append(f"{driver or 'desktop'}: {exc}")
                pygame.display.quit()
                continue
            self.driver = pygame.display.get_driver()
            pygame.display.set_caption("Quizbox")
            if driver == "kmsdrm":
                pygame.mouse.set_visible(False)
            log.info("board on SDL driver %s at %sx%s", self.driver, *self.size)
            look.warm(self.size[1])
            return
        raise ConfigError(f"no screen for board display {self.display!r}: {'; '.join(errors)}")

    def screenless(self) -> bool:
        """Open on SDL's dummy driver although a screen was wanted (``auto`` found none that works)."""
        return self.driver == "dummy" and self.display != "headless"

    def close(self) -> None:
        if self._screen is not None:
            with self._frame_lock, self._lock:
                if self._last is not None and self._last is self._screen:
                    self._last = self._screen.copy()  # the last frame outlives the screen
            self._screen = None
            pygame.display.quit()

    def run(self, stop: threading.Event) -> None:
        """The loop: draw when needed, sleep otherwise, until ``stop`` is set (or the window closes)."""
        self.open()
        sounds = self._sounds()
        card_sound = self.clips() if self.clips is not None else None  # None: no audio device, said once
        sound_tried = self.clock()
        drawn: tuple[int, int | None, Hashable] | None = None
        moment_key: Hashable = None
        moment_start = self.clock()
        try:
            while not stop.is_set():
                if self.sound_enabled and not sounds.active and self.clock() - sound_tried >= SOUND_RETRY_SECONDS:
                    sounds, sound_tried = self._sounds(), self.clock()  # a speaker plugged in later
                self._events(stop)
                with self._lock:
                    state, arrived, serial = self._state, self._arrived, self._serial
                if card_sound is not None:
                    card_sound.follow(state)  # a card's sound: started, stopped, resumed as the state says
                key, animation = moment(state)
                if key != moment_key:
                    moment_key, moment_start = key, arrived
                    sounds.cue_for(key)
                now = self.clock()
                t = now - moment_start
                shown = _counted_down(state, now - arrived)
                second = _shown_second(shown)
                animating = t < animation
                signature = (serial, second, ("frame", round(t / FRAME_SECONDS)) if animating else "still")
                if signature != drawn:
                    if drawn is not None and second is not None and second != drawn[1] and second <= 5:
                        sounds.play("tick")
                    self.draw(shown, min(t, animation) if not animating else t)
                    drawn = signature
                self._sleep(stop, animating, shown)
        finally:
            if card_sound is not None:
                card_sound.player.stop()
            sounds.close()
            self.close()

    def _sounds(self) -> Any:
        from appliance.hardware.sound import Sounds

        sounds = Sounds(self.sound_enabled)
        if self.sound_enabled:
            self.report("sound", sounds.active, "on" if sounds.active else
                        f"off: {sounds.problem}; trying again every {SOUND_RETRY_SECONDS:.0f} s")
        return sounds

    def draw(self, state: Mapping[str, Any], t: float) -> None:
        """One frame of the loop: ``state`` at animation time ``t``, on the screen if it is open.

        An open screen of the board's size is drawn on directly (under the frame lock, so that
        :meth:`snapshot_png` copies a whole frame); otherwise two frame buffers take turns: the frame is
        drawn on the one not shown last, so the last frame stays whole for :meth:`snapshot_png`."""
        screen = self._screen
        if screen is not None and screen.get_size() == self.size:
            with self._frame_lock:
                compose(state, self.size, t, into=screen)
                pygame.display.flip()
                with self._lock:
                    self._last = screen
            self.frames += 1
            return
        if self._last is not None and self._last is screen:
            self._last = None  # the screen is not drawn on any more: it is not the last frame
        spare = self._spare
        canvas, _ = compose(state, self.size, t, into=spare)
        frame = canvas.surface
        with self._lock:
            self._spare, self._last = self._last, frame
        if screen is not None:
            screen.blit(frame, (0, 0))
            pygame.display.flip()
        self.frames += 1

    def _events(self, stop: threading.Event) -> None:
        for event in pygame.event.get():
            escape = event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.driver != "kmsdrm"
            if event.type == pygame.QUIT or escape:
                stop.set()

    def _sleep(self, stop: threading.Event, animating: bool, state: Mapping[str, Any]) -> None:
        if animating:
            stop.wait(FRAME_SECONDS)
            return
        timeout = IDLE_POLL_SECONDS
        remaining = state.get("remaining")
        if isinstance(remaining, float) and remaining > 0:
            timeout = min(timeout, remaining - int(remaining) + 0.01)
        if self._wake.wait(timeout):
            self._wake.clear()


def _counted_down(state: Mapping[str, Any], elapsed: float) -> Mapping[str, Any]:
    """``state`` with ``remaining`` lowered by the time since it arrived (not while paused)."""
    remaining = state.get("remaining")
    if state.get("paused") is True or isinstance(remaining, bool) or not isinstance(remaining, int | float):
        return state
    return {**state, "remaining": max(0.0, float(remaining) - elapsed)}


def _shown_second(state: Mapping[str, Any]) -> int | None:
    remaining = state.get("remaining")
    if isinstance(remaining, bool) or not isinstance(remaining, int | float):
        return None
    return max(0, int(remaining + 0.999))
