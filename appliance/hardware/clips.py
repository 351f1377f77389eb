"""A card's sound through the TV (issue 34): played when its question is shown, again at the quizmaster's
word, and in the buzzer round started when the buzzers are armed, stopped at the first press (the board's
``answering``), resumed from where it stopped after a wrong answer (armed again).

:class:`CardSound` follows the board states the TV draws (it decides nothing the state does not say) and
drives a :class:`ClipPlayer`, which keeps the clip's position on the box's clock: ``started_at`` is the
box's monotonic time the clip (re)started, and the position at a stop is the time it played. Presses stay
ordered by the handsets' corrected clocks in the buzzer engine; the clip's start is on the box's clock, the
same clock the engine's arm time is on, so the clip never changes who was first.

The mixer is behind :class:`Mixer` (the hardware edge): :class:`PygameMusic` streams the file with
pygame's ``mixer.music`` (it decodes OGG, MP3 and WAV and can start at a position); the tests inject a
double or run it on SDL's dummy audio driver. With no audio device the box says so once (``problem``) and
carries on silent.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

import pygame

log = logging.getLogger(__name__)


class Mixer(Protocol):
    def play(self, path: Path, start: float) -> None: ...

    def stop(self) -> None: ...


class PygameMusic:
    """pygame's music stream on the box's audio output (``device``: an SDL device name; empty: the default)."""

    def __init__(self, device: str = "") -> None:
        if not pygame.mixer.get_init():
            pygame.mixer.init(devicename=device or None)

    def play(self, path: Path, start: float) -> None:
        pygame.mixer.music.load(os.fspath(path))
        pygame.mixer.music.play(start=start)

    def stop(self) -> None:
        pygame.mixer.music.stop()


class ClipPlayer:
    """One clip at a time, its position kept on ``clock`` (the box's monotonic clock)."""

    def __init__(self, mixer: Mixer, clock: Callable[[], float]) -> None:
        self.mixer = mixer
        self.clock = clock
        self.path: Path | None = None
        self.offset = 0.0  # seconds into the clip where the current (or last) play started
        self.started_at: float | None = None  # the box's clock when it (re)started; None while stopped

    @property
    def playing(self) -> bool:
        return self.started_at is not None

    def position(self) -> float:
        """Seconds into the clip now (where it stopped, while stopped)."""
        return self.offset + (self.clock() - self.started_at if self.started_at is not None else 0.0)

    def start(self, path: Path) -> None:
        """Play ``path`` from its beginning."""
        self.path, self.offset = path, 0.0
        self._play()

    def pause(self) -> float:
        """Stop where it is; returns the position (the buzzer: the first press)."""
        if self.started_at is not None:
            self.offset = self.position()
            self.started_at = None
            self.mixer.stop()
        return self.offset

    def resume(self) -> None:
        """Go on from where it stopped."""
        if self.path is not None and self.started_at is None:
            self._play()

    def stop(self) -> None:
        self.pause()
        self.path, self.offset = None, 0.0

    def _play(self) -> None:
        assert self.path is not None
        self.mixer.play(self.path, self.offset)
        self.started_at = self.clock()


class CardSound:
    """Follows the board: which card's sound, and whether it plays, from each state the TV is given."""

    def __init__(self, player: ClipPlayer, locate: Callable[[str], Path | None]) -> None:
        self.player = player
        self.locate = locate
        self._card: tuple[Any, ...] | None = None
        self._plays = 0
        self.events: list[tuple[str, float, float]] = []
        """What the clip did: (``start``/``pause``/``resume``/``stop``, the box's clock, the position)."""

    def follow(self, state: Mapping[str, Any]) -> None:
        media = state.get("media") if isinstance(state.get("media"), Mapping) else {}
        assert isinstance(media, Mapping)
        audio = media.get("audio") if state.get("scene") == "playing" else None
        card = (state.get("game"), media.get("card"), audio) if isinstance(audio, str) else None
        plays = media.get("plays", 0) if isinstance(media.get("plays", 0), int) else 0
        view = state.get("view") if isinstance(state.get("view"), Mapping) else {}
        assert isinstance(view, Mapping)
        buzzer = state.get("game") == "buzzer"
        phase = view.get("phase")
        if card is None:
            if self._card is not None:
                self._do("stop")
            self._card = None
            return
        if card != self._card:
            if self._card is not None:
                self._do("stop")
            self._card, self._plays = card, plays
            if not buzzer or phase == "armed":
                self._start(str(audio))
            return
        if plays != self._plays:  # the quizmaster's "play the sound again"
            self._plays = plays
            self._start(str(audio))
            return
        if buzzer and state.get("paused") is not True:
            if phase == "armed" and not self.player.playing:
                if self.player.path is None:
                    self._start(str(audio))  # armed for the first time
                else:
                    self._do("resume")  # armed again after a wrong answer: from where it stopped
            elif phase != "armed" and self.player.playing:
                self._do("pause")  # the first press (or the question closed)
        elif state.get("paused") is True and self.player.playing:
            self._do("pause")

    def _start(self, ref: str) -> None:
        path = self.locate(ref)
        if path is None:
            log.warning("the box has no sound %s", ref)
            return
        self.player.start(path)
        self.events.append(("start", self.player.clock(), 0.0))

    def _do(self, what: str) -> None:
        if what == "pause":
            self.player.pause()
        elif what == "resume":
            self.player.resume()
        else:
            self.player.stop()
        self.events.append((what, self.player.clock(), self.player.position()))


def card_sound(device: str, locate: Callable[[str], Path | None], clock: Callable[[], float],
               report: Callable[[str], None]) -> CardSound | None:
    """The TV's card sounds on the audio output ``device``; None (and ``report`` said once why) when the box
    has no audio device: the quiz carries on silent."""
    try:
        mixer = PygameMusic(device)
    except pygame.error as exc:
        report(f"no audio device for the cards' sounds ({exc}); the quiz carries on silent")
        return None
    return CardSound(ClipPlayer(mixer, clock), locate)
