"""The ante schedule (rules.md Estimation poker 1): the ante doubles every N minutes or every N questions.

The engine never reads a clock. The session calls :func:`ante_at` when it starts a question and passes
the result in the question's start action, so a new ante takes effect only when the next question
starts and the action log alone replays the game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from appliance.errors import ConfigError, MalformedInput
from appliance.games import fields

DEFAULT_EVERY_MINUTES = 20
"""rules.md Estimation poker 1: by default the ante doubles every 20 minutes."""

GROWTH = 2
"""The ante doubles at each step of the schedule (rules.md Estimation poker 1)."""


class Unit(StrEnum):
    MINUTES = "minutes"
    QUESTIONS = "questions"


@dataclass(frozen=True)
class AnteSchedule:
    """The ante starts at ``start`` and doubles every ``every`` minutes or questions."""

    start: int
    every: int
    unit: Unit

    def describe(self) -> str:
        """In words, for the host and the board: ``"10, doubling every 20 minutes"``."""
        step = f"{self.every} {self.unit.value}" if self.every != 1 else self.unit.value.rstrip("s")
        return f"{self.start}, doubling every {step}"

    def to_json(self) -> dict[str, int]:
        """The ``ante_every`` option that describes this schedule (see :func:`parse_schedule`)."""
        return {self.unit.value: self.every}


def parse_schedule(value: object, start: int) -> AnteSchedule:
    """The schedule from the game option ``ante_every``: ``{"minutes": N}`` or ``{"questions": N}``
    with N a whole number of at least 1; ``None`` means the default (every 20 minutes)."""
    if value is None:
        return AnteSchedule(start, DEFAULT_EVERY_MINUTES, Unit.MINUTES)
    if not isinstance(value, Mapping) or len(value) != 1:
        raise ConfigError(f'poker option ante_every must be {{"minutes": N}} or {{"questions": N}}, got {value!r}')
    ((unit, every),) = value.items()
    if unit not in {u.value for u in Unit}:
        raise ConfigError(f"poker option ante_every counts minutes or questions, not {unit!r}")
    count = fields.whole(every, f"poker option ante_every needs a whole number of {unit} of at least 1", low=1,
                         error=ConfigError)
    return AnteSchedule(start, count, Unit(unit))


def ante_at(schedule: AnteSchedule, elapsed_seconds: float, questions_played: int) -> int:
    """The ante in force for a question that starts ``elapsed_seconds`` after the game started, with
    ``questions_played`` questions already played: the starting ante doubled once per full period."""
    if (
        isinstance(elapsed_seconds, bool)
        or not isinstance(elapsed_seconds, int | float)
        or not math.isfinite(elapsed_seconds)
        or elapsed_seconds < 0
    ):
        raise MalformedInput(f"elapsed time must be a number of seconds >= 0, got {elapsed_seconds!r}")
    fields.whole(questions_played, "questions played must be a whole number >= 0", low=0)
    if schedule.unit is Unit.MINUTES:
        steps = int(elapsed_seconds // (schedule.every * 60))
    else:
        steps = questions_played // schedule.every
    return int(schedule.start * GROWTH**steps)
