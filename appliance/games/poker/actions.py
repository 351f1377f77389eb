"""Estimation poker inputs (seed 002; rules.md "Estimation poker").

Host inputs: start a question (its card and the ante in force), start betting (locks the ranges),
end the game. Player inputs: a secret range, the betting actions, and a voluntary reveal after the
showdown. ``__post_init__`` refuses what cannot be read at all with :class:`MalformedInput`; whether
the rules accept a well-formed input now is the engine's ``verify_<kind>``. Bet and raise amounts
are checked by the engine (a negative or fractional ``to`` is a rules refusal, ``BadAmount``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar, Self

from appliance.errors import DeckError, MalformedInput
from appliance.games import fields
from appliance.games.base import HOST, Action
from appliance.games.numbers import check_number

HINTS = 2
"""A card holds two hints, shown after betting rounds 1 and 2 (seed 002, steps 3 and 4)."""


def _stored_number(value: object, what: str) -> Decimal:
    """A number as the action log stores it (``str(Decimal)``), or a Decimal already."""
    if isinstance(value, str):
        try:
            value = Decimal(value)
        except InvalidOperation as exc:
            raise MalformedInput(f"{what} {value!r} in the log is not a number") from exc
    return check_number(value, what)


@dataclass(frozen=True)
class StartQuestion(Action):
    """The host starts a question: the card (question, exact answer, two hints) and the ante in
    force, which the session works out from the schedule (see ``schedule.ante_at``)."""

    kind: ClassVar[str] = "question"
    question: str
    answer: Decimal
    hints: tuple[str, ...]
    ante: int

    def __post_init__(self) -> None:
        fields.text(self.question, "a poker card needs the question as text", error=DeckError)
        check_number(self.answer, "the card's answer")
        hints = self.hints
        if isinstance(hints, str) or not isinstance(hints, tuple | list) or len(hints) != HINTS:
            raise DeckError(f"a poker card holds exactly {HINTS} hints, got {hints!r}")
        for number, hint in enumerate(hints, 1):
            fields.text(hint, f"hint {number} of the card must be non-empty text", error=DeckError)
        object.__setattr__(self, "hints", tuple(hints))
        fields.whole(self.ante, "the ante must be a whole number of chips")

    @classmethod
    def deal(cls, question: str, answer: Decimal, hints: tuple[str, ...] | list[str], ante: int) -> Self:
        """The host's start-question action (``player`` is always :data:`HOST`)."""
        return cls(HOST, question, answer, tuple(hints), ante)

    @classmethod
    def from_json(cls, fields: Mapping[str, Any]) -> Self:
        data = dict(fields)
        data["answer"] = _stored_number(data.get("answer"), "the card's answer")
        hints = data.get("hints")
        if isinstance(hints, list):
            data["hints"] = tuple(hints)
        return cls(**data)


@dataclass(frozen=True)
class StartBetting(Action):
    """The host starts betting round 1: ranges lock, a player without one is folded (rules.md 4)."""

    kind: ClassVar[str] = "betting"

    @classmethod
    def now(cls) -> Self:
        return cls(HOST)


@dataclass(frozen=True)
class EndGame(Action):
    """The host stops the game or the deck ran out: the most chips wins, ties share (rules.md 12)."""

    kind: ClassVar[str] = "end"

    @classmethod
    def now(cls) -> Self:
        return cls(HOST)


@dataclass(frozen=True)
class EnterRange(Action):
    """A player's secret range [low, high], both ends included; may be changed until betting starts."""

    kind: ClassVar[str] = "range"
    low: Decimal
    high: Decimal

    def __post_init__(self) -> None:
        check_number(self.low, "the range's low end")
        check_number(self.high, "the range's high end")

    @classmethod
    def from_json(cls, fields: Mapping[str, Any]) -> Self:
        data = dict(fields)
        data["low"] = _stored_number(data.get("low"), "the range's low end")
        data["high"] = _stored_number(data.get("high"), "the range's high end")
        return cls(**data)


@dataclass(frozen=True)
class Check(Action):
    kind: ClassVar[str] = "check"


@dataclass(frozen=True)
class Call(Action):
    kind: ClassVar[str] = "call"


@dataclass(frozen=True)
class Fold(Action):
    kind: ClassVar[str] = "fold"


@dataclass(frozen=True)
class AllIn(Action):
    """Put every chip in: a call for less, a call, a bet or a raise, whatever the stack makes it."""

    kind: ClassVar[str] = "allin"


@dataclass(frozen=True)
class Bet(Action):
    """The first bet of a round; ``to`` is the player's total bet this round after the action."""

    kind: ClassVar[str] = "bet"
    to: int


@dataclass(frozen=True)
class Raise(Action):
    """A raise; ``to`` is the player's total bet this round after the action."""

    kind: ClassVar[str] = "raise"
    to: int


@dataclass(frozen=True)
class Reveal(Action):
    """After the showdown, a player whose range was not shown chooses to show it (rules.md 11)."""

    kind: ClassVar[str] = "reveal"


BETTING_ACTIONS: tuple[type[Action], ...] = (Check, Call, Fold, AllIn, Bet, Raise)
"""The inputs of a betting round, each on the player's own turn (rules.md Estimation poker 5)."""

ALL_ACTIONS: tuple[type[Action], ...] = (
    StartQuestion,
    StartBetting,
    EndGame,
    EnterRange,
    *BETTING_ACTIONS,
    Reveal,
)
