"""The contract between ``quizbox replay`` and each game (see docs/scenarios.md).

Each game's ``appliance.games.<game>.scenario`` module exposes ``ADAPTER``, an object with these
methods (a :class:`GameAdapter`, which holds what the games share), named by the game's registry
entry. The replay driver owns the file format (reading, ``expect`` comparison, exit codes); the
adapter turns the game's part of it into engine actions and results.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from appliance.errors import MalformedInput
from appliance.games.base import JSON, Action, Engine


class ScenarioAdapter(Protocol):
    game: str
    step_keys: frozenset[str]
    """Every key a step of this game may carry besides ``player`` and ``expect_error``: any other makes
    the file malformed (exit 2), even on a step marked ``expect_error`` (a misspelt key is not a refusal)."""

    def new_engine(self, players: Sequence[str], options: Mapping[str, Any]) -> Engine:
        """The engine for the file's players and options (ConfigError/MalformedInput if bad)."""
        ...

    def start_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        """Apply what opens a question (its card, the die, the ante...) before its steps."""
        ...

    def step(self, engine: Engine, step: Mapping[str, Any]) -> None:
        """Parse one step into action(s) and apply them; raise a QuizboxError if refused (the
        engine state must then be exactly as before the step)."""
        ...

    def finish_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        """Apply what closes a question after its steps (close entries, reveal, settle)."""
        ...

    def question_result(self, engine: Engine) -> JSON:
        """The question's result as the scenario README defines it."""
        ...

    def final_result(self, engine: Engine) -> JSON:
        """The final result as the scenario README defines it."""
        ...


IGNORED_STEP_KEYS = frozenset({"player", "expect_error"})
"""Step keys every game reads the same way (the step's player; the replay's ``expect_error`` mark)."""

EngineT = TypeVar("EngineT", bound=Engine)


def step_player(step: Mapping[str, Any]) -> str:
    """The step's player ("" for the host); MalformedInput when it has none."""
    player = step.get("player")
    if not isinstance(player, str):
        raise MalformedInput(f"a step needs a player name, got {dict(step)!r}")
    return player


def step_keys(step: Mapping[str, Any]) -> set[str]:
    """The step's game keys (without ``player`` and ``expect_error``)."""
    return set(step) - IGNORED_STEP_KEYS


class GameAdapter(ABC, Generic[EngineT]):
    """What every game's adapter shares: making its engine, checking it is handed its own engine,
    applying a parsed step, and the final result's ``winners``, ``finished`` and ``ending`` around the
    game's own totals. A game writes its card, step and result parts."""

    def __init__(self, engine_type: type[EngineT]) -> None:
        self.engine_type = engine_type
        self.game: str = engine_type.game

    def new_engine(self, players: Sequence[str], options: Mapping[str, Any]) -> Engine:
        return self.engine_type(list(players), options)

    def engine(self, engine: Engine) -> EngineT:
        """``engine`` as this game's engine (a TypeError if the replay handed it another game's)."""
        if not isinstance(engine, self.engine_type):
            raise TypeError(f"the {self.game} adapter needs a {self.engine_type.__name__}, got {type(engine).__name__}")
        return engine

    @abstractmethod
    def parse_step(self, step: Mapping[str, Any]) -> Action:
        """One step as the game's input; MalformedInput if it is none of them."""

    def step(self, engine: Engine, step: Mapping[str, Any]) -> None:
        self.engine(engine).apply(self.parse_step(step))

    @abstractmethod
    def start_question(self, engine: Engine, question: Mapping[str, Any]) -> None: ...

    @abstractmethod
    def finish_question(self, engine: Engine, question: Mapping[str, Any]) -> None: ...

    @abstractmethod
    def question_result(self, engine: Engine) -> JSON: ...

    @abstractmethod
    def totals(self, engine: EngineT) -> JSON:
        """The final result's totals (``scores``, ``stacks``, ``chips``...)."""

    def final_result(self, engine: Engine) -> JSON:
        game = self.engine(engine)
        ending = getattr(game, "ending", None)
        result: JSON = {**self.totals(game), "winners": game.winners(), "finished": game.finished}
        if hasattr(game, "ending"):
            result["ending"] = None if ending is None else ending.value
        return result

    def last_question(self, engine: EngineT) -> Any:
        """The question just played (its result is asked for); MalformedInput before the first."""
        question = getattr(engine, "current", None)
        if question is None:
            raise MalformedInput("no question has been played")
        return question

    def require_played(self, engine: EngineT, played: Callable[[Any], bool]) -> None:
        """Refuse a question whose steps ran out before ``played(question)`` (revealed, settled) holds."""
        current = getattr(engine, "current", None)
        if current is not None and not played(current):
            raise MalformedInput(f"question {current.number} has no more steps but {engine.status()}")
