"""Buzzer round inputs (rules.md "Buzzer round"): the quizmaster asks, arms and judges; players press.

Times are whole milliseconds on the appliance's game clock. A press enters already corrected: the
session turns the handset's own press stamp into appliance time with the handset's measured clock
offset (appliance/edge/clocksync.py) before it becomes a :class:`Press`, so the engine never sees a
handset clock and replays exactly from its log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from appliance.errors import MalformedInput
from appliance.games import fields
from appliance.games.base import Action


def _millis(name: str, value: object) -> None:
    fields.whole(value, f"{name} must be whole milliseconds")


@dataclass(frozen=True)
class StartQuestion(Action):
    """The host opens the next question (its text, if the card has one, for the TV); buzzers not armed."""

    kind: ClassVar[str] = "ask"
    question: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.question, str):
            raise MalformedInput(f"a question is text, got {self.question!r}")


@dataclass(frozen=True)
class Arm(Action):
    """The quizmaster arms the buzzers at ``at`` (rules.md Buzzer 1)."""

    kind: ClassVar[str] = "arm"
    at: int

    def __post_init__(self) -> None:
        _millis("the arming time", self.at)


@dataclass(frozen=True)
class Press(Action):
    """A player's buzz, pressed at ``at`` (the handset's stamp corrected to the appliance clock)."""

    kind: ClassVar[str] = "press"
    at: int

    def __post_init__(self) -> None:
        _millis("the press time", self.at)


@dataclass(frozen=True)
class Declare(Action):
    """The settle window is over: the earliest press answers (rules.md Buzzer 2)."""

    kind: ClassVar[str] = "declare"


@dataclass(frozen=True)
class Judge(Action):
    """The quizmaster marks the answer right or wrong; wrong passes to the next in order."""

    kind: ClassVar[str] = "judge"
    right: bool

    def __post_init__(self) -> None:
        if not isinstance(self.right, bool):
            raise MalformedInput(f"a judgement is right (true) or wrong (false), got {self.right!r}")


@dataclass(frozen=True)
class Close(Action):
    """The quizmaster ends the question without a right answer: nobody scores for it any more."""

    kind: ClassVar[str] = "close"


@dataclass(frozen=True)
class EndGame(Action):
    """The questions ran out: the highest total wins, equal totals share."""

    kind: ClassVar[str] = "end"
