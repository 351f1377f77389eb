"""Host buttons and status LED on gpiozero's MockFactory (injected explicitly), and the sound cues."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from appliance.errors import ConfigError
from appliance.hardware.host import HostControls
from appliance.hardware.sound import CUES, Sounds, cue_name, tone


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    pins = MockFactory()
    yield pins
    pins.close()


def press(factory: MockFactory, pin: int) -> None:
    device = factory.pin(pin)
    device.drive_low()  # buttons pull up: pressed is low
    time.sleep(0.1)
    device.drive_high()
    time.sleep(0.1)


def test_buttons_call_their_handlers(factory: MockFactory) -> None:
    calls: list[str] = []
    with HostControls(17, 27, 22, lambda: calls.append("next"), lambda: calls.append("pause"), factory):
        press(factory, 17)
        press(factory, 27)
        press(factory, 17)
    assert calls == ["next", "pause", "next"]


def test_a_failing_handler_does_not_stop_the_buttons(factory: MockFactory) -> None:
    calls: list[str] = []

    def refuse() -> None:
        calls.append("next")
        raise RuntimeError("nothing to move on to")

    with HostControls(17, 27, 22, refuse, lambda: calls.append("pause"), factory):
        press(factory, 17)
        press(factory, 27)
    assert calls == ["next", "pause"]


def test_led_shows_the_state(factory: MockFactory) -> None:
    with HostControls(17, 27, 22, lambda: None, lambda: None, factory) as host:
        led = factory.pin(22)
        assert led.state is False
        host.show("running")
        assert led.state is True
        host.show("waiting")
        time.sleep(0.05)
        seen = {led.state}
        time.sleep(0.6)
        seen.add(led.state)
        assert seen == {True, False}  # blinking
        host.show("stopped")
        assert led.state is False
        with pytest.raises(ValueError, match="LED state"):
            host.show("disco")


def test_led_state_from_the_board_state() -> None:
    assert HostControls.state_for({"scene": "lobby"}) == "stopped"
    assert HostControls.state_for({"scene": "playing", "can_advance": False}) == "running"
    assert HostControls.state_for({"scene": "playing", "can_advance": True}) == "waiting"
    assert HostControls.state_for({"scene": "playing", "paused": True}) == "waiting"
    assert HostControls.state_for({"scene": "results"}) == "stopped"


@pytest.mark.parametrize(("pins", "message"), [((17, 17, 22), "must all differ"), ((17, 27, 99), "led_pin")])
def test_bad_pins_are_refused(factory: MockFactory, pins: tuple[int, int, int], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        HostControls(*pins, lambda: None, lambda: None, factory)


def test_devices_are_released_on_close(factory: MockFactory) -> None:
    with HostControls(17, 27, 22, lambda: None, lambda: None, factory):
        pass
    with HostControls(17, 27, 22, lambda: None, lambda: None, factory):  # the same pins again
        pass


def test_sound_off_is_silent_and_harmless() -> None:
    sounds = Sounds(False)
    assert not sounds.active
    sounds.play("reveal")
    sounds.cue_for(("allin-reveal", ()))
    sounds.close()


def test_sound_on_without_a_speaker_does_not_fail() -> None:
    sounds = Sounds(True)  # SDL_AUDIODRIVER=dummy in tests: opens, or stays silent
    sounds.play("fanfare")
    sounds.close()
    assert not sounds.active


def test_cues() -> None:
    assert cue_name(("confident-reveal", ())) == "reveal"
    assert cue_name(("poker-showdown", ())) == "reveal"
    assert cue_name(("winners", ())) == "fanfare"
    assert cue_name(("squizz-roll", ())) == "roll"
    assert cue_name(("lobby", ())) is None
    stereo = tone(CUES["tick"], 22050, 2)
    assert len(stereo) == 2 * 2 * int(22050 * 0.03)
