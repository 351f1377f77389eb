"""Host controls on the box itself: a NEXT/reveal button, a PAUSE button and a status LED (gpiozero).

Pins come from the config (``[gpio]``, BCM numbers). ``pin_factory`` is passed to every device: tests
inject ``gpiozero.pins.mock.MockFactory`` explicitly; on a Pi it is None and gpiozero picks the real
pins. The LED tells the host the state at a glance: on while a game runs, blinking while the game
waits for the host (NEXT would do something, or the game is paused), off when nothing runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import TracebackType
from typing import Any

from gpiozero import LED, Button

from appliance.errors import ConfigError

log = logging.getLogger(__name__)

STATES = ("running", "waiting", "stopped")
BOUNCE_SECONDS = 0.05
BLINK_SECONDS = 0.5


class HostControls:
    """``with HostControls(17, 27, 22, on_next, on_pause) as host: host.show("running")``."""

    def __init__(
        self,
        next_pin: int,
        pause_pin: int,
        led_pin: int,
        on_next: Callable[[], None],
        on_pause: Callable[[], None],
        pin_factory: Any = None,
    ) -> None:
        pins = {"next_pin": next_pin, "pause_pin": pause_pin, "led_pin": led_pin}
        for name, pin in pins.items():
            if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
                raise ConfigError(f"gpio.{name} must be a BCM pin number 0-27, got {pin!r}")
        if len(set(pins.values())) != len(pins):
            raise ConfigError(f"gpio pins must all differ, got {pins}")
        self.state = "stopped"
        self._on_next, self._on_pause = on_next, on_pause
        self.next_button = Button(next_pin, bounce_time=BOUNCE_SECONDS, pin_factory=pin_factory)
        try:
            self.pause_button = Button(pause_pin, bounce_time=BOUNCE_SECONDS, pin_factory=pin_factory)
            self.led = LED(led_pin, pin_factory=pin_factory)
        except Exception:
            self.next_button.close()
            if hasattr(self, "pause_button"):
                self.pause_button.close()
            raise
        self.next_button.when_pressed = self._next
        self.pause_button.when_pressed = self._pause
        self.led.off()

    def _next(self) -> None:
        self._call(self._on_next, "next")

    def _pause(self) -> None:
        self._call(self._on_pause, "pause")

    @staticmethod
    def _call(handler: Callable[[], None], what: str) -> None:
        # A refused press (nothing to move on to, no game) must not kill gpiozero's callback thread.
        try:
            handler()
        except Exception:
            log.exception("host %s button: the handler failed", what)

    def show(self, state: str) -> None:
        """LED for ``state``: "running" on, "waiting" blinking, "stopped" off."""
        if state not in STATES:
            raise ValueError(f"LED state must be one of {', '.join(STATES)}, got {state!r}")
        if state == self.state:
            return
        self.state = state
        if state == "running":
            self.led.on()
        elif state == "waiting":
            self.led.blink(on_time=BLINK_SECONDS, off_time=BLINK_SECONDS)
        else:
            self.led.off()

    @staticmethod
    def state_for(board_state: dict[str, Any]) -> str:
        """The LED state for a board state: waiting when paused or NEXT has something to do."""
        if board_state.get("scene") != "playing":
            return "stopped"
        if board_state.get("paused") is True or board_state.get("can_advance") is True:
            return "waiting"
        return "running"

    def close(self) -> None:
        for device in (self.led, self.pause_button, self.next_button):
            device.close()

    def __enter__(self) -> HostControls:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
