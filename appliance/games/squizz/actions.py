"""sQuizz inputs besides the card (seed 004; rules.md sQuizz): the die roll, a player's answer, the
host's close of the answers and the host's end of the game before every read was played.

``__post_init__`` refuses what cannot be read (a wrong type) with :class:`MalformedInput`; whether
the rules accept a well-formed input now is the engine's ``verify_<kind>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from appliance.errors import MalformedInput
from appliance.games import fields
from appliance.games.base import HOST, Action, CloseInputs
from appliance.games.base import CloseReason as CloseReason  # re-exported: the reasons of this close


def _whole(name: str, value: object) -> None:
    fields.whole(value, f"{name} must be a whole number")


@dataclass(frozen=True)
class StartQuestion(Action):
    """The host rolls the die and the question starts (rules.md sQuizz 3): 1, 2 or 3, rolled by the session
    with its RNG; the card follows."""

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


@dataclass(frozen=True)
class Close(CloseInputs):
    """The host closes the answers while some answerers have not answered.

    The product's decision where the rulebook and rules.md sQuizz are silent (an answerer whose
    handset is gone would otherwise hold the game forever): each answerer who has not answered is
    wrong and uses up their lowest unused bet token, which is lost like any wrong token; so every
    player still uses every token exactly once over the game (rules.md sQuizz 1 and 5). The answers
    that are in are then revealed as when the last answer is in.
    """

    missing: ClassVar[str] = "the answers"


@dataclass(frozen=True)
class EndGame(Action):
    """The host ends the game between questions before every read was played (the quizmaster stops
    the round, or the deck ran out): the totals are revealed and rules.md sQuizz 6 decides as at the
    end (most points; tie: more correct answers; still tied: shared). Used by a quiz night's
    "finish now and score" (rules.md Quiz night 2: a stopped round is placed on the state it has)."""

    kind: ClassVar[str] = "end"

    @classmethod
    def now(cls) -> Self:
        return cls(HOST)
