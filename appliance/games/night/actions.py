"""A night's inputs, one small frozen record each (see appliance.games.base).

Host actions (``player`` is :data:`~appliance.games.base.HOST`): change the rounds still to come
(:class:`AddRound`, :class:`SkipRound`, :class:`MoveRound`, :class:`SeatRound`), start the next
round (:class:`StartRound`), end the round in play (:class:`FinishRound`, which carries the round's
own game log, so the night's points come from nothing but that log: rules.md Quiz night 5;
:class:`AbandonRound`), and the tie-break's cards (:class:`TiebreakCard`, :class:`CloseCard`),
and score corrections (:class:`CorrectScore`).
The one player input is :class:`EnterNumber`: a tied player's number for the tie-break card.

Records check their own shape and raise :class:`~appliance.errors.MalformedInput`; whether the
night allows them now is the engine's business.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar, Self

from appliance.errors import MalformedInput
from appliance.games.base import HOST, JSON, Action
from appliance.games.night.plan import RoundPlan
from appliance.games.numbers import check_number, parse_number

MAX_ROUND_LOG = 100_000
"""The most actions one round's log may hold (a long poker game is a few thousand)."""


def _round_id(value: object, what: str = "a round") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise MalformedInput(f"{what} is named by its number (1 or more), got {json.dumps(value)}")
    return value


def _number(value: object, what: str) -> Decimal:
    """A number as a handset, a form or a stored log gives it: text in any form the parser reads."""
    if isinstance(value, str):
        return parse_number(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return parse_number(str(value))
    return check_number(value, what)


@dataclass(frozen=True)
class AddRound(Action):
    """The host adds a round to the rounds still to come: before round ``before``, or last."""

    kind: ClassVar[str] = "add_round"
    plan: RoundPlan
    before: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.plan, RoundPlan):
            raise MalformedInput(f"a round to add is a plan, got {self.plan!r}")
        if self.before is not None:
            _round_id(self.before, "the round to add before")

    def to_json(self) -> JSON:
        return {"kind": self.kind, "player": self.player, "plan": self.plan.to_json(), "before": self.before}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(data["player"], RoundPlan.from_json(data.get("plan")), data.get("before"))


@dataclass(frozen=True)
class SkipRound(Action):
    """The host skips a round still to come: it is not played and scores nobody anything."""

    kind: ClassVar[str] = "skip_round"
    round: int

    def __post_init__(self) -> None:
        _round_id(self.round)


@dataclass(frozen=True)
class MoveRound(Action):
    """The host moves a round still to come before another round still to come, or last."""

    kind: ClassVar[str] = "move_round"
    round: int
    before: int | None = None

    def __post_init__(self) -> None:
        _round_id(self.round)
        if self.before is not None:
            _round_id(self.before, "the round to move before")


@dataclass(frozen=True)
class SeatRound(Action):
    """The host changes who sits a round before it starts (rules.md Quiz night 1)."""

    kind: ClassVar[str] = "seat_round"
    round: int
    seats: tuple[str, ...]

    def __post_init__(self) -> None:
        _round_id(self.round)
        if isinstance(self.seats, str) or not isinstance(self.seats, Sequence):
            raise MalformedInput(f"seats are a list of player names, got {self.seats!r}")
        if not all(isinstance(name, str) and name for name in self.seats):
            raise MalformedInput(f"seats are non-empty names, got {list(self.seats)!r}")
        object.__setattr__(self, "seats", tuple(self.seats))


@dataclass(frozen=True)
class StartRound(Action):
    """The host starts the next round still to come."""

    kind: ClassVar[str] = "start_round"

    @classmethod
    def now(cls) -> Self:
        return cls(HOST)


@dataclass(frozen=True)
class FinishRound(Action):
    """The round in play is over: ``log`` is its game's whole action log (as stored, JSON). With
    ``stopped`` the quizmaster (or the round's deck, card count or time box) ended it early: it is
    placed on the state it has by its game's stopped rule ("finish now and score")."""

    kind: ClassVar[str] = "finish_round"
    log: tuple[JSON, ...]
    stopped: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.log, str | bytes) or not isinstance(self.log, Sequence):
            raise MalformedInput(f"a round's log is a list of actions, got {type(self.log).__name__}")
        if len(self.log) > MAX_ROUND_LOG:
            raise MalformedInput(f"a round's log holds at most {MAX_ROUND_LOG} actions, got {len(self.log)}")
        if not all(isinstance(item, Mapping) for item in self.log):
            raise MalformedInput("every action of a round's log is an object")
        object.__setattr__(self, "log", tuple(dict(item) for item in self.log))
        if not isinstance(self.stopped, bool):
            raise MalformedInput(f"stopped is true or false, got {self.stopped!r}")

    @classmethod
    def of(cls, log: Sequence[Action], stopped: bool = False) -> Self:
        """The host's finish of a round whose game engine has ``log``."""
        return cls(HOST, tuple(action.to_json() for action in log), stopped)


@dataclass(frozen=True)
class AbandonRound(Action):
    """The host abandons the round in play: it does not count (nobody scores for it)."""

    kind: ClassVar[str] = "abandon_round"


@dataclass(frozen=True)
class TiebreakCard(Action):
    """The host opens a tie-break card: an estimation question with its exact answer (rules.md Quiz
    night 4)."""

    kind: ClassVar[str] = "tiebreak_card"
    question: str
    answer: Decimal

    def __post_init__(self) -> None:
        if not isinstance(self.question, str) or not self.question.strip():
            raise MalformedInput(f"a tie-break card needs its question as text, got {self.question!r}")
        object.__setattr__(self, "answer", _number(self.answer, "the tie-break card's answer"))

    @classmethod
    def deal(cls, question: str, answer: Decimal | str) -> Self:
        return cls(HOST, question, _number(answer, "the tie-break card's answer"))


@dataclass(frozen=True)
class EnterNumber(Action):
    """A tied player's one exact number for the open tie-break card (the handset's ``number`` prompt)."""

    kind: ClassVar[str] = "number"
    number: Decimal

    def __post_init__(self) -> None:
        if not isinstance(self.player, str):
            raise MalformedInput(f"a number comes from a player's name, got {self.player!r}")
        object.__setattr__(self, "number", _number(self.number, f"{self.player}'s number"))


@dataclass(frozen=True)
class CloseCard(Action):
    """The host closes the tie-break card before every tied player entered a number (a time-out):
    those who entered one are compared; a tied player with none falls behind them."""

    kind: ClassVar[str] = "close_card"


MAX_CORRECTION = 100
"""The most points one score correction adds or takes (rules.md Quiz night 7)."""
MAX_REASON = 120
MAX_TEAM_NAME = 24
"""A player's name (firmware/protocol.py MAX_NAME)."""


@dataclass(frozen=True)
class CorrectScore(Action):
    """The host adds ``points`` to ``team``'s night standing (negative: takes them), with a ``reason``: a
    bonus, a penalty, a marking error (rules.md Quiz night 7). ``team`` is a player of the night."""

    kind: ClassVar[str] = "correct_score"
    team: str
    points: int
    reason: str

    def __post_init__(self) -> None:
        if not isinstance(self.team, str) or not self.team:
            raise MalformedInput(f"a score correction names a team of the night, got {self.team!r}")
        points = self.points
        if not isinstance(points, int) or isinstance(points, bool) or not 0 < abs(points) <= MAX_CORRECTION:
            raise MalformedInput(f"a score correction is a whole number from -{MAX_CORRECTION} to {MAX_CORRECTION}, "
                                 f"not 0; got {json.dumps(points, default=str)} for {self.team}")
        reason = self.reason.strip() if isinstance(self.reason, str) else ""
        if not reason or len(reason) > MAX_REASON:
            raise MalformedInput(f"a score correction for {self.team} needs its reason (1 to {MAX_REASON} "
                                 f"characters), got {self.reason!r}")
        object.__setattr__(self, "reason", reason)

    @classmethod
    def of(cls, team: str, points: int, reason: str) -> Self:
        return cls(HOST, team, points, reason)


@dataclass(frozen=True)
class JoinNight(Action):
    """The host adds a latecomer ``team`` to the night in progress: 0 points so far, seated in every round
    still to come that seats everyone (rules.md Quiz night 1)."""

    kind: ClassVar[str] = "join_night"
    team: str

    def __post_init__(self) -> None:
        if not isinstance(self.team, str) or not self.team.strip() or len(self.team) > MAX_TEAM_NAME:
            raise MalformedInput(f"a latecomer is a name of 1 to {MAX_TEAM_NAME} characters, got {self.team!r}")

    @classmethod
    def of(cls, team: str) -> Self:
        return cls(HOST, team)


NIGHT_ACTIONS: tuple[type[Action], ...] = (
    AddRound,
    SkipRound,
    MoveRound,
    SeatRound,
    StartRound,
    FinishRound,
    AbandonRound,
    TiebreakCard,
    EnterNumber,
    CloseCard,
    CorrectScore,
    JoinNight,
)
