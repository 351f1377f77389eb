"""The contract between ``quizbox replay`` and each game (see docs/scenarios.md).

Each game's ``appliance.games.<game>.scenario`` module exposes ``ADAPTER``, an object with these
methods. The replay driver owns the file format (reading, ``expect`` comparison, exit codes); the
adapter turns the game's part of it into engine actions and results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from appliance.games.base import JSON, Engine


class ScenarioAdapter(Protocol):
    game: str

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
