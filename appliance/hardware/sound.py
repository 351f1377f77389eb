"""Optional sound effects for the board (config ``board.sound``; off by default).

The cues are synthesised at start-up (short tones, no sound files to ship). Without an audio device,
or with sound off, every call does nothing: the board never fails for want of a speaker.
"""

from __future__ import annotations

import array
import logging
import math
from collections.abc import Hashable, Sequence

import pygame

from appliance.games import registry

log = logging.getLogger(__name__)

RATE = 22050

CUES: dict[str, Sequence[tuple[float, float]]] = {
    "question": ((660, 0.08), (880, 0.12)),
    "reveal": ((523, 0.1), (659, 0.1), (784, 0.1), (1047, 0.25)),
    "roll": tuple((300 + 40 * (i % 3), 0.04) for i in range(12)),
    "fanfare": ((523, 0.15), (523, 0.1), (784, 0.15), (1047, 0.45)),
    "tick": ((1200, 0.03),),
    "join": ((880, 0.06), (1320, 0.08)),
}
"""Cue name -> notes (frequency Hz, seconds)."""


def cue_name(key: Hashable) -> str | None:
    """The cue for a new scene moment (``(scene name, key)`` from :func:`appliance.board.compose.moment`):
    a game's own cues (its registry entry's ``cues``, by moment after the ``<game>-`` prefix) first."""
    name = key[0] if isinstance(key, tuple) and key and isinstance(key[0], str) else ""
    game, _, moment = name.partition("-")
    known = registry.GAMES.get(game)
    if known is not None and moment in known.cues:
        return known.cues[moment]
    if name.endswith(("-reveal", "-showdown")):
        return "reveal"
    if name == "winners":
        return "fanfare"
    if name.endswith("-question"):
        return "question"
    return None


def tone(notes: Sequence[tuple[float, float]], rate: int = RATE, channels: int = 1, volume: float = 0.35) -> bytes:
    """Signed 16-bit samples for ``notes``, each channel the same (a short fade so no note clicks)."""
    samples = array.array("h")
    for frequency, seconds in notes:
        count = int(rate * seconds)
        fade = max(1, min(count // 4, int(rate * 0.01)))
        for i in range(count):
            envelope = min(1.0, i / fade, (count - i) / fade)
            value = int(32767 * volume * envelope * math.sin(2 * math.pi * frequency * i / rate))
            samples.extend([value] * channels)
    return samples.tobytes()


class Sounds:
    """The board's cues; silent when ``enabled`` is False or no audio device can be opened."""

    def __init__(self, enabled: bool) -> None:
        self.active = False
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        if not enabled:
            return
        try:
            pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            rate, size, channels = pygame.mixer.get_init()
            if size != -16:
                raise pygame.error(f"the mixer opened with {size}-bit samples, not signed 16-bit")
            self._sounds = {
                name: pygame.mixer.Sound(buffer=tone(notes, rate, channels)) for name, notes in CUES.items()
            }
            self.active = True
        except pygame.error as exc:
            log.info("board sound off: no audio device (%s)", exc)
            if pygame.mixer.get_init():
                pygame.mixer.quit()

    def play(self, name: str) -> None:
        sound = self._sounds.get(name)
        if self.active and sound is not None:
            sound.play()

    def cue_for(self, key: Hashable) -> None:
        name = cue_name(key)
        if name is not None:
            self.play(name)

    def close(self) -> None:
        if self.active:
            self.active = False
            pygame.mixer.quit()
