"""A buzzer round with a sound card (issue 34): the clip starts when the buzzers are armed, stops at the
first press, goes on from where it stopped after a wrong answer, and the presses keep their order (the
handsets' corrected clocks). The real session and buzzer flow with a hand-driven box clock; the mixer is
pygame's on SDL's dummy audio driver, and a recording double at the hardware edge reads where each play
started."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pygame
import pytest

from appliance.edge.handsets import Handset
from appliance.flows import flow_factory
from appliance.games.dealt import DealtCard
from appliance.hardware.clips import CardSound, ClipPlayer, PygameMusic
from appliance.infra.media import ref_for
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from tests.buzzer.wiring import CommandSession
from tests.decks.media_samples import wav

PLAYERS = ["Ann", "Bob", "Cat"]
CLIP = wav(20.0, 8000)
REF = ref_for(CLIP, "wav")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Recording:
    """The mixer at the hardware edge, recording each play's file and start position, then playing it on
    the real mixer (SDL's dummy driver)."""

    def __init__(self, real: PygameMusic) -> None:
        self.real = real
        self.plays: list[tuple[str, float]] = []
        self.stops = 0

    def play(self, path: Path, start: float) -> None:
        self.plays.append((path.name, round(start, 3)))
        self.real.play(path, start)

    def stop(self) -> None:
        self.stops += 1
        self.real.stop()


@pytest.fixture
def mixer(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    real = PygameMusic()
    yield Recording(real)
    pygame.mixer.quit()


def test_the_clip_starts_when_armed_stops_at_the_first_press_and_resumes_after_a_wrong_answer(
        tmp_path: Path, mixer: Recording) -> None:
    (tmp_path / REF).write_bytes(CLIP)
    clock = Clock()
    session = CommandSession(clock, random.Random(1), store=Store(tmp_path / "q.db"), flows=flow_factory)
    hs = {p: Handset(id=p.lower(), name=p, accepted=True, online=True) for p in PLAYERS}
    cards = [DealtCard("s/1", {"question": "Name that tune", "answer": "Beeps", "audio": REF}),
             DealtCard("s/2", {"question": "Second", "answer": "Two"})]
    session.start_game(GameSetup("buzzer", PLAYERS, {}, cards), {p: p.lower() for p in PLAYERS})
    sound = CardSound(ClipPlayer(mixer, clock), lambda ref: tmp_path / ref if ref == REF else None)

    def board() -> dict[str, Any]:
        state = session.board_state(hs.values(), lambda _: "#ffffff")
        sound.follow(state)
        return state

    def buzz(player: str, at: float, age_ms: int) -> str:
        clock.now = at
        prompt = session.prompt_for(hs[player])[0]
        return session.handle_input(hs[player].id, prompt["id"], "buzz", {"pressed": 1, "age_ms": age_ms})

    assert board()["view"]["phase"] == "waiting" and mixer.plays == []  # shown, not armed: silent
    clock.now = 101.0
    session.flow_command("arm", {"cmd": "arm"})
    assert board()["view"]["phase"] == "armed"
    assert mixer.plays == [(REF, 0.0)] and sound.player.started_at == 101.0  # on the box's clock
    assert os.environ.get("SDL_AUDIODRIVER") == "dummy" and pygame.mixer.music.get_busy()
    # Bob's press reaches the box first, but Ann's handset pressed earlier (its corrected clock says so)
    buzz("Bob", 104.0, age_ms=10)  # pressed at 103.990
    assert board()["view"]["phase"] == "armed" and sound.player.playing  # the settle window: not final yet
    buzz("Ann", 104.05, age_ms=400)  # pressed at 103.650: earlier, arrived later
    clock.now = 104.2
    session.tick()
    state = board()
    assert state["view"]["phase"] == "answering" and state["view"]["answering"] == "Ann"  # the press order
    assert sound.events[-1] == ("pause", 104.2, pytest.approx(3.2))  # stopped when the first press is final
    assert not sound.player.playing
    clock.now = 110.0
    session.flow_command("wrong", {"cmd": "wrong"})  # Ann wrong: Bob, who pressed next, answers
    assert board()["view"]["answering"] == "Bob" and not sound.player.playing  # still stopped
    clock.now = 115.0
    session.flow_command("wrong", {"cmd": "wrong"})  # Bob wrong too: armed again for Cat
    assert board()["view"]["phase"] == "armed"
    assert mixer.plays == [(REF, 0.0), (REF, 3.2)]  # from where it stopped, not from the start
    clock.now = 117.5
    assert sound.player.position() == pytest.approx(5.7)
    buzz("Cat", 117.5, age_ms=0)
    clock.now = 117.8
    session.tick()
    assert board()["view"]["answering"] == "Cat" and sound.player.position() == pytest.approx(6.0)
    clock.now = 120.0
    session.flow_command("right", {"cmd": "right"})
    board()
    assert not sound.player.playing


def test_a_sound_plays_when_the_question_shows_and_again_at_the_quizmasters_word(tmp_path: Path,
                                                                                mixer: Recording) -> None:
    (tmp_path / REF).write_bytes(CLIP)
    clock = Clock()
    session = CommandSession(clock, random.Random(1), store=Store(tmp_path / "q.db"), flows=flow_factory)
    hs = {p: Handset(id=p.lower(), name=p, accepted=True, online=True) for p in PLAYERS}
    cards = [DealtCard("e/1", {"question": "How many beeps?", "answer": "7", "unit": "beeps", "audio": REF,
                               "hints": ["More than 2.", "Fewer than 20."]})]
    session.start_game(GameSetup("confident", PLAYERS, {}, cards), {p: p.lower() for p in PLAYERS})
    sound = CardSound(ClipPlayer(mixer, clock), lambda ref: tmp_path / ref)
    sound.follow(session.board_state(hs.values(), lambda _: "#ffffff"))
    assert mixer.plays == [(REF, 0.0)]
    clock.now = 104.0
    sound.follow(session.board_state(hs.values(), lambda _: "#ffffff"))
    assert mixer.plays == [(REF, 0.0)]  # the same state: not started again
    assert session.play_sound() == "the sound plays again"
    sound.follow(session.board_state(hs.values(), lambda _: "#ffffff"))
    assert mixer.plays == [(REF, 0.0), (REF, 0.0)] and sound.player.started_at == 104.0


def test_no_audio_device_is_said_once_and_the_quiz_carries_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from appliance.hardware import clips

    said: list[str] = []

    def no_device(device: str = "") -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(clips, "PygameMusic", no_device)
    assert clips.card_sound("", lambda ref: None, lambda: 0.0, said.append) is None
    assert said == ["no audio device for the cards' sounds (No available audio device); the quiz carries on silent"]
