"""Confident? inputs, one small frozen record each (see appliance.games.base).

Host actions (``player`` is :data:`~appliance.games.base.HOST`): :class:`StartQuestion` opens a question with
its card, :class:`Close` closes entries (everyone in, or the time-out: Fast Play or a quizmaster who
stops waiting), :class:`Settle` reveals and scores, :class:`EndGame` ends the game when the deck has run
out. The one player input is :class:`Answer`: a range or a copy, optionally a swap and a double.

Records check their own shape (types, numbers within the parser's bounds) and raise
:class:`~appliance.errors.MalformedInput`; whether the rules allow them is the engine's business.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any, ClassVar, Self

from appliance.errors import MalformedInput
from appliance.games.base import Action
from appliance.games.numbers import check_number, parse_number
from appliance.games.ranges import Range


class Boost(StrEnum):
    """The three Confidence Boosts; each player has one of each per game (rules.md Confident 5)."""

    COPY = "copy"
    SWAP = "swap"
    DOUBLE = "double"


class CloseReason(StrEnum):
    """Why entries closed: every player is in, or the time ran out (Fast Play, or the quizmaster)."""

    EVERYONE_IN = "everyone_in"
    TIMEOUT = "timeout"


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise MalformedInput(f"{what} must be text, got {type(value).__name__} {value!r}")
    return value


def _decimal(value: object, what: str) -> Decimal:
    """A number from a stored log or a record built in code: text is parsed, a Decimal is checked."""
    if isinstance(value, str):
        return parse_number(value)
    return check_number(value, what)


def _fields(data: Mapping[str, Any], known: set[str], required: set[str], kind: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise MalformedInput(f"unknown field(s) {', '.join(unknown)} in a Confident {kind} action")
    missing = sorted(required - set(data))
    if missing:
        raise MalformedInput(f"a Confident {kind} action needs {', '.join(missing)}, got {dict(data)!r}")


@dataclass(frozen=True)
class StartQuestion(Action):
    """The host opens a question: the card's question, its exact answer and its unit."""

    kind: ClassVar[str] = "question"
    question: str
    answer: Decimal
    unit: str = ""

    def __post_init__(self) -> None:
        if not _text(self.question, "the question").strip():
            raise MalformedInput("a Confident card needs a question, got an empty one")
        check_number(self.answer, "the card's answer")
        _text(self.unit, "the card's unit")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        _fields(data, {"player", "question", "answer", "unit"}, {"player", "question", "answer"}, cls.kind)
        return cls(data["player"], data["question"], _decimal(data["answer"], "answer"), data.get("unit", ""))


@dataclass(frozen=True)
class Answer(Action):
    """A player's board: a ``range`` (bottom, top) or a ``copy`` of another player, optionally a
    ``swap`` of two other players and a ``double`` (rules.md Confident 5 and 6)."""

    kind: ClassVar[str] = "answer"
    range: Range | None = None
    copy: str | None = None
    swap: tuple[str, str] | None = None
    double: bool = False

    def __post_init__(self) -> None:
        _text(self.player, "the player")
        if self.range is not None:
            if not isinstance(self.range, tuple | list) or len(self.range) != 2:
                raise MalformedInput(f"a range is [bottom, top], got {self.range!r}")
            bottom = check_number(self.range[0], "the range's bottom")
            top = check_number(self.range[1], "the range's top")
            object.__setattr__(self, "range", Range(bottom, top))
        if self.copy is not None:
            _text(self.copy, "the name to copy")
        if self.swap is not None:
            if not isinstance(self.swap, tuple | list) or len(self.swap) != 2:
                raise MalformedInput(f"a swap names two players, got {self.swap!r}")
            first, second = (_text(name, "a name to swap") for name in self.swap)
            object.__setattr__(self, "swap", (first, second))
        if not isinstance(self.double, bool):
            raise MalformedInput(f"double is true or false, got {self.double!r}")

    @property
    def boosts(self) -> tuple[Boost, ...]:
        """The boosts this board plays, in settlement order."""
        played = ((Boost.COPY, self.copy is not None), (Boost.SWAP, self.swap is not None))
        return tuple(boost for boost, used in (*played, (Boost.DOUBLE, self.double)) if used)

    def describe(self, named: Callable[[str], str] = str) -> str:
        """The board in words, for refusal messages; ``named`` words another player (with their seat
        number, rules.md The room 2)."""
        parts = []
        if self.range is not None:
            parts.append(f"range {self.range.describe()}")
        if self.copy is not None:
            parts.append(f"copy {named(self.copy)}")
        if self.swap is not None:
            parts.append(f"swap {named(self.swap[0])} and {named(self.swap[1])}")
        if self.double:
            parts.append("double")
        return ", ".join(parts) or "an empty board"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        _fields(data, {"player", "range", "copy", "swap", "double"}, {"player"}, cls.kind)
        written = data.get("range")
        board: Range | None = None
        if written is not None:
            if not isinstance(written, list | tuple) or len(written) != 2:
                raise MalformedInput(f"a range is [bottom, top], got {written!r}")
            board = Range(_decimal(written[0], "bottom"), _decimal(written[1], "top"))
        swap = data.get("swap")
        if swap is not None and (not isinstance(swap, list | tuple) or len(swap) != 2):
            raise MalformedInput(f"a swap names two players, got {swap!r}")
        return cls(
            data["player"],
            board,
            data.get("copy"),
            None if swap is None else (swap[0], swap[1]),
            data.get("double", False),
        )


@dataclass(frozen=True)
class Close(Action):
    """The host closes entries; a player with no board by then has no range (rules.md Confident 4)."""

    kind: ClassVar[str] = "close"
    reason: str = CloseReason.EVERYONE_IN.value

    def __post_init__(self) -> None:
        if self.reason not in {reason.value for reason in CloseReason}:
            known = ", ".join(reason.value for reason in CloseReason)
            raise MalformedInput(f"entries close for one of {known}; got {self.reason!r}")


@dataclass(frozen=True)
class Settle(Action):
    """The host reveals the boards and the answer; copies, swaps, scoring, doubles follow."""

    kind: ClassVar[str] = "settle"


@dataclass(frozen=True)
class EndGame(Action):
    """The host ends the game because the deck ran out: highest total wins, ties share (rules.md
    Confident 7)."""

    kind: ClassVar[str] = "end"
