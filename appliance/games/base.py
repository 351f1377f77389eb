"""The engine base every game builds on (Confident?, estimation poker, All In, sQuizz).

Rules engines are pure: no MQTT, pygame, Flask, clock or global randomness. Whatever varies from
outside (a die roll, the ante in force, a time-out) enters as an action in the log, so the log alone
rebuilds the state exactly (replay, persistence after power loss, undo).

Conventions, per action kind ``x`` (``Action.kind``):

* ``verify_x(action)`` raises :class:`IllegalAction` (or a subclass) naming the input and the state;
* ``can_x(action)`` is derived from it (see :meth:`Engine.can`);
* ``x(action)`` verifies, records the action in the log, applies it, then calls :meth:`Engine._advance`,
  the one place that moves the phase machine on.

Generic entry points :meth:`Engine.verify`, :meth:`Engine.can` and :meth:`Engine.apply` dispatch on
``Action.kind`` so the handset, the hub and the engine all ask the same rule.
"""

from __future__ import annotations

import copy
import keyword
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from decimal import Decimal
from enum import StrEnum
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from appliance.errors import ConfigError, IllegalAction, MalformedInput

JSON = dict[str, Any]

HOST = ""
"""The ``player`` of actions taken by the quizmaster or the session (start a question, roll, reveal)."""


class WrongPhase(IllegalAction):
    """The action exists but not in the phase the game is in."""

    code: ClassVar[str] = "wrong_phase"


class NotYourTurn(IllegalAction):
    """Another player is to act."""

    code: ClassVar[str] = "not_your_turn"


class UnknownPlayer(IllegalAction):
    """The action names a player who is not seated in this game."""


@dataclass(frozen=True)
class Action:
    """One input, small and immutable. ``player`` is a seat name, or ``HOST`` for host actions."""

    kind: ClassVar[str] = "action"
    player: str

    def to_json(self) -> JSON:
        """The action as a JSON-able dict (for the action log); :func:`action_from_json` reverses it."""
        data: JSON = {"kind": self.kind}
        for item in fields(self):  # the record's fields, not its class constants (kind, ...)
            data[item.name] = _to_jsonable(getattr(self, item.name))
        return data


@dataclass(frozen=True)
class Totals:
    """The points table every public view carries as ``standings``: its heading, what a point counts
    (plural: "points", "chips", "correct") and each player's number in seat order. The board's
    leaderboards and the web's game page read it instead of working it out from each game's keys."""

    heading: str
    unit: str
    points: Mapping[str, int]

    def to_json(self) -> JSON:
        return {"heading": self.heading, "unit": self.unit, "points": dict(self.points)}


class Views(Protocol):
    """A game's ``views`` module: what the TV and each handset may show (appliance.games.<game>.views)."""

    def public_view(self, engine: Any, /) -> JSON: ...

    def private_view(self, engine: Any, player: str, /) -> JSON: ...


QuestionT = TypeVar("QuestionT")


class Questions(Generic[QuestionT]):
    """The questions an engine has played, in order (mixed into the engines that play questions)."""

    questions: list[QuestionT]

    @property
    def current(self) -> QuestionT | None:
        """The question being played or, between questions, the last one played."""
        return self.questions[-1] if self.questions else None

    def question_over(self, question: QuestionT) -> bool:
        """Whether ``question`` is over (revealed, settled, closed: each game says)."""
        raise NotImplementedError

    def open_question(self) -> QuestionT | None:
        """The question being played, or None between questions."""
        question = self.current
        return question if question is not None and not self.question_over(question) else None

    def _open(self) -> QuestionT:
        """The question being played; only called where the phase says there is one."""
        question = self.open_question()
        if question is None:
            raise AssertionError(f"no open question in phase {getattr(self, 'phase', '?')}")
        return question


class CloseReason(StrEnum):
    """Why the host closed the inputs (splits, answers) before every player was in."""

    TIMEOUT = "timeout"
    """The session's time limit (``answer_seconds``) ran out."""
    HOST = "host"
    """The quizmaster stopped waiting (*next*), e.g. for a handset that is gone for good."""


@dataclass(frozen=True)
class CloseInputs(Action):
    """The host closes a question's inputs while some players have not given theirs (a game says what
    happens to them: its ``close``). ``missing`` names the inputs in refusals ("the splits")."""

    kind: ClassVar[str] = "close"
    missing: ClassVar[str] = "the inputs"
    reason: str = CloseReason.HOST.value

    def __post_init__(self) -> None:
        if self.reason not in {reason.value for reason in CloseReason}:
            known = ", ".join(reason.value for reason in CloseReason)
            raise MalformedInput(f"{self.missing} close for one of {known}; got {self.reason!r}")

    @classmethod
    def by(cls, reason: CloseReason) -> Self:
        """The host's close (``player`` is always :data:`HOST`)."""
        return cls(HOST, reason.value)


def _to_jsonable(value: Any) -> Any:
    if isinstance(value, str | int | float) or value is None:  # most fields: names, amounts, flags
        return value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple | list):
        return [_to_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _to_jsonable(v) for k, v in value.items()}
    return value


class Engine(ABC):
    """Base of every rules engine: seats, options, the action log, verify/can/apply, phases, views."""

    game: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    actions: ClassVar[Mapping[str, type[Action]]] = {}
    """Every action kind this engine accepts, ``kind -> record type``; used to load a stored log."""
    defaults: ClassVar[Mapping[str, Any]] = {}
    """The options a game starts with when the set-up leaves them out (those that do not depend on the
    seats: a default "first player" is the first seat). The set-up page shows these."""
    views: ClassVar[Views]
    """The game's views module: its public (TV) and private (handset) views."""
    final_phase: ClassVar[str] = "over"
    """The phase the game is in once it is over (:attr:`finished`)."""

    _phase: StrEnum
    """Where the phase machine is (each engine's own ``Phase`` enum); moved only by ``_advance``."""

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None) -> None:
        names = list(players)
        if len(set(names)) != len(names):
            raise ConfigError(f"player names must be different, got {names}")
        if any(not isinstance(n, str) or not n.strip() for n in names):
            raise ConfigError(f"every player needs a non-empty name, got {names}")
        if not self.min_players <= len(names) <= self.max_players:
            raise ConfigError(
                f"{self.game or type(self).__name__} takes {self.min_players} to {self.max_players} "
                f"players, got {len(names)}"
            )
        self.players: tuple[str, ...] = tuple(names)
        self.options: JSON = self.validate_options(dict(options or {}))
        self.log: list[Action] = []
        self._winners: list[str] = []

    # -- options -----------------------------------------------------------------------------------

    def validate_options(self, options: JSON) -> JSON:
        """Return the complete options (defaults filled in) or raise :class:`ConfigError`."""
        return options

    # -- the generic entry points ------------------------------------------------------------------

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` (or a subclass) unless ``action`` is legal now."""
        self._method("verify_", action)(action)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now (derived from :meth:`verify`)."""
        try:
            self.verify(action)
        except IllegalAction:
            return False
        return True

    def apply(self, action: Action) -> None:
        """Verify ``action``, then apply it; on refusal nothing changes."""
        self._method("", action)(action)

    def _method(self, prefix: str, action: Action) -> Callable[[Action], None]:
        """The engine's ``verify_x`` or ``x`` for ``action.kind``; a kind that is a Python keyword
        (poker's ``raise``) is applied by the method with a trailing underscore (``raise_``)."""
        if type(action) not in self.actions.values():
            raise IllegalAction(f"{type(action).__name__} is not an input of {self.game}")
        name = prefix + action.kind
        if keyword.iskeyword(name):
            name += "_"
        method: Callable[[Action], None] = getattr(self, name)
        return method

    def _record(self, action: Action) -> None:
        """Append an accepted action to the log; call only after verification passed."""
        self.log.append(action)

    def status(self) -> str:
        """What the game is waiting for, in words (refusal messages name it); engines say more."""
        return f"the game is in phase {self.phase}"

    @abstractmethod
    def legal_inputs(self, player: str) -> object:
        """What ``player`` may input now, in the game's own terms (what a handset prompt offers); asked of
        the same verification as the input itself, so every input it offers is accepted."""

    def _require_host(self, action: Action) -> None:
        """Refuse ``action`` unless the host (or the session) takes it."""
        if action.player != HOST:
            raise NotYourTurn(f"only the host may {action.kind} (got {action.player!r}); {self.status()}")

    def _require_phase(self, action: Action, *phases: str) -> None:
        """Refuse ``action`` unless the game is in one of ``phases`` (an engine's phase enum values)."""
        if self.phase not in phases:
            raise WrongPhase(f"{action.kind} from {action.player or 'the host'} refused: {self.status()}")

    def _check_player(self, player: str) -> None:
        if player not in self.players:
            raise UnknownPlayer(f"{player!r} is not playing (players: {', '.join(self.players)})")

    # -- seat numbers (rules.md The room 2) ----------------------------------------------------------

    def seat(self, player: str) -> int:
        """``player``'s seat number: their place in seat order, 1 first."""
        self._check_player(player)
        return self.players.index(player) + 1

    def named(self, player: str) -> str:
        """``player`` as a refusal names them: the name and, for a seated player, the seat number."""
        return f"{player} (seat {self.players.index(player) + 1})" if player in self.players else repr(player)

    def player_at(self, given: object) -> str:
        """The player a handset names, by name or by seat number (rules.md The room 2): a seated player's
        exact name is that player (a team called "7" stays the team, not seat 7); otherwise whole digits
        are a seat number. Raises :class:`UnknownPlayer` naming the seats there are."""
        text = str(given).strip() if isinstance(given, str | int) and not isinstance(given, bool) else ""
        if text in self.players:
            return text
        if text.isdigit() and 1 <= int(text) <= len(self.players):
            return self.players[int(text) - 1]
        what = f"seat {text}" if text.isdigit() else repr(given)
        raise UnknownPlayer(f"{what} is nobody here: the seats are 1 to {len(self.players)}, each a player's "
                            "number beside their name")

    # -- phases ------------------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """The current phase's name (each engine has an explicit enum of them)."""
        return self._phase._value_  # not .value, a descriptor call: phase is read ten times in a poker bet

    @property
    def finished(self) -> bool:
        """True once the game is over and :meth:`winners` is final."""
        return self.phase == self.final_phase

    def winners(self) -> list[str]:
        """Winners in seat order; empty until :attr:`finished`."""
        return list(self._winners)

    # -- views -------------------------------------------------------------------------------------

    def public_view(self) -> JSON:
        """What the TV may show now (never a secret the rules have not revealed): ``game``, ``phase`` and
        ``players``, the game's own view, and the points table under ``standings`` (:class:`Totals`)."""
        view: JSON = {"game": self.game, "phase": self.phase, "players": list(self.players),
                      "seat_numbers": {p: n for n, p in enumerate(self.players, 1)}}  # rules.md The room 2
        view.update(self.views.public_view(self))  # a game may say its phase in the board's words
        view["standings"] = self.totals().to_json()
        return view

    def private_view(self, player: str) -> JSON:
        """What only ``player``'s handset may show (own range, own tokens, own chips)."""
        return {"seat": self.seat(player), **self.views.private_view(self, player)}

    @abstractmethod
    def totals(self) -> Totals:
        """The points table as the public may see it now."""

    def snapshot(self) -> JSON:
        """The complete state, secrets included, as plain JSON-able data; equal states give equal
        snapshots. Used to prove that a refused input changes nothing and that a rebuild is exact."""
        return {
            "players": list(self.players),
            "options": dict(self.options),
            "phase": self.phase,
            "winners": self.winners(),
            **self.state(),
            "log": [action.to_json() for action in self.log],
        }

    @abstractmethod
    def state(self) -> JSON:
        """The game's own part of :meth:`snapshot` (stacks, tokens, questions...), secrets included."""

    # -- the log -----------------------------------------------------------------------------------

    @classmethod
    def rebuild(
        cls, players: Sequence[str], options: Mapping[str, Any] | None, log: Iterable[Action]
    ) -> Self:
        """A new engine with ``log`` applied in order (every action verified again)."""
        engine = cls(players, options)
        for action in log:
            engine.apply(action)
        return engine

    def undo(self) -> Self:
        """A new engine rebuilt without the last action of the log."""
        return self.rebuild(self.players, self.options, self.log[:-1])

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        """Reverse of :meth:`Action.to_json` for this engine's action kinds."""
        kind = data.get("kind")
        record = self.actions.get(kind) if isinstance(kind, str) else None
        if record is None:
            raise MalformedInput(f"unknown {self.game} action kind {kind!r}")
        fields = {k: v for k, v in data.items() if k != "kind"}
        try:
            return record.from_json(fields) if hasattr(record, "from_json") else record(**fields)
        except TypeError as exc:
            raise MalformedInput(f"bad {self.game} {kind} action {dict(data)!r}: {exc}") from exc

    def clone(self) -> Self:
        """A deep copy (for what-if checks such as legal-input queries)."""
        return copy.deepcopy(self)
