"""sQuizz inputs besides the card (seed 004; rules.md sQuizz): the die roll and a player's answer.

``__post_init__`` refuses what cannot be read (a wrong type) with :class:`MalformedInput`; whether
the rules accept a well-formed input now is the engine's ``verify_<kind>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from appliance.errors import MalformedInput
from appliance.games.base import HOST, Action


def _whole(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedInput(f"{name} must be a whole number, got {value!r}")


@dataclass(frozen=True)
class Roll(Action):
    """The die as rolled by the session with its RNG (rules.md sQuizz 3): 1, 2 or 3."""

    kind: ClassVar[str] = "roll"
    die: int

    def __post_init__(self) -> None:
        _whole("the die", self.die)

    @classmethod
    def host(cls, die: int) -> Self:
        return cls(HOST, die)


@dataclass(frozen=True)
class Answer(Action):
    """A non-reader's secret answer (A, B or C) with one unused bet token (rules.md sQuizz 5)."""

    kind: ClassVar[str] = "answer"
    answer: str
    token: int

    def __post_init__(self) -> None:
        if not isinstance(self.answer, str):
            raise MalformedInput(f"answer must be A, B or C, got {self.answer!r}")
        _whole("token", self.token)
