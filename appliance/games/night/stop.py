"""A round's game played again from its stored log, and ended by its stopped rule when the
quizmaster finishes it early (rules.md Quiz night 2 and 5).

"Finish now and score" is not "abandon": the round counts, placed on the state it has. Each game's
stopped rule is its host's end of the game (most points or chips wins, ties share: rules.md
Confident 7, Estimation poker 12, All In 6, sQuizz 6; the buzzer round's highest total). That end is
taken between questions. A question still in play when the round is stopped has not been scored
yet, so it does not count: its bets go back and the round is placed on the state after its last
finished question (the product's decision; rules.md is silent). The buzzer round is the exception:
its points are in as soon as a judgement is given, so its open question is closed and the points it
gave stay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from appliance.errors import IllegalAction, QuizboxError
from appliance.games.base import Action, Engine
from appliance.games.night.kinds import RoundKind


class BadRoundLog(IllegalAction):
    """A round's log that does not play again on its game (a stored log from another round, or cut)."""


class RoundNotOver(IllegalAction):
    """A round finished (not stopped) whose game is not over yet."""


@dataclass(frozen=True)
class Played:
    """A round's game as its log left it, ended by the stopped rule when asked."""

    engine: Engine
    stopped: bool
    """True when the stopped rule ended the game (it was not over by itself)."""
    dropped: int
    """Actions of a question in play that the stop left out (0 when none)."""


def replay_log(kind: RoundKind, seats: Sequence[str], options: Mapping[str, Any], log: Sequence[Any]) -> Engine:
    """The round's engine with every logged action applied again (each verified again)."""
    engine = kind.engine(list(seats), options)
    for number, data in enumerate(log, 1):
        try:
            action = data if isinstance(data, Action) else engine.action_from_json(data)
            engine.apply(action)
        except QuizboxError as exc:
            raise BadRoundLog(f"the {kind.title} round's log does not play again at action {number}: {exc}") from exc
    return engine


def play_round(
    kind: RoundKind, seats: Sequence[str], options: Mapping[str, Any], log: Sequence[Any], stop: bool
) -> Played:
    """The round's game from its log; with ``stop``, ended by its stopped rule unless it is over."""
    engine = replay_log(kind, seats, options, log)
    if engine.finished:
        return Played(engine, False, 0)
    if not stop:
        raise RoundNotOver(
            f"the {kind.title} round is not over ({engine.status()}): finish it now to score it as it stands, "
            "or abandon it"
        )
    ended = _end_now(kind, engine)
    if ended is not None:
        return Played(ended, True, 0)
    # A question is in play: end the game on the state after its last finished question.
    actions = engine.log
    trial = kind.engine(list(seats), options)
    last = 0 if trial.can(kind.end()) else -1
    for index, action in enumerate(actions, 1):
        trial.apply(action)
        if trial.can(kind.end()):
            last = index
    if last < 0:
        raise RoundNotOver(f"the {kind.title} round cannot be ended by its stopped rule ({engine.status()})")
    kept = kind.engine(list(seats), options)
    for action in actions[:last]:
        kept.apply(action)
    kept.apply(kind.end())
    return Played(kept, True, len(actions) - last)


def _end_now(kind: RoundKind, engine: Engine) -> Engine | None:
    """The game ended at once (a buzzer question closed first), or None if it cannot be ended now."""
    trial = engine.clone()
    for close in kind.closers:
        action = close()
        if trial.can(action):
            trial.apply(action)
    end = kind.end()
    if not trial.can(end):
        return None
    trial.apply(end)
    return trial
