"""The sQuizz part of the scenario format (docs/scenarios.md, section "squizz").

* options: with readers (the rulebook's form, up to 8 players) optional ``first_reader`` (tokens and
  reads follow the player count); ``readers``: true (the default up to 8 players) or false, the room form
  (the only form above 8 players, where ``true`` is malformed), with optional ``tokens`` (2-12, default 6:
  the game has that many questions); ``tokens`` with readers, or ``first_reader`` in the room form, is
  malformed (the engine's ConfigError, exit 2; docs/rules.md squizz-room);
* question: ``die`` (1 smallest, 2 middle, 3 largest) and ``card`` (``prompt``, three
  ``propositions`` ``{"label": "Yoda", "value": "900"}``: the label is the proposition's text, its letter
  its position, A, B, C): the host's roll, then the card;
* steps: each non-reader's ``{"player", "answer": "A"|"B"|"C", "token": n}`` (in the room form every
  player's); the answers reveal themselves when the last one is in (rules.md sQuizz 5);
* one more step, the host's ``{"player": "", "action": "close"}`` with optional ``"reason"``
  (``"host"``, the default, or ``"timeout"``) while answers are missing: each missing answerer is
  wrong and uses up their lowest unused token, then the reveal (the product's decision,
  :class:`~appliance.games.squizz.actions.Close`);
* question result: ``reader`` (null in the room form), ``correct`` (seat order), plus ``die``,
  ``correct_answer``, ``answers`` (of those who answered) and ``missed`` (closed-out player -> the token that used up);
  final result: ``scores``, ``correct_counts``, ``winners``, ``finished``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from appliance.errors import MalformedInput
from appliance.games.base import JSON, Action, Engine
from appliance.games.scenario import GameAdapter, ScenarioAdapter, step_keys, step_player
from appliance.games.squizz.actions import Answer, Close, CloseReason, EndGame, StartQuestion
from appliance.games.squizz.card import card_from_scenario
from appliance.games.squizz.engine import SquizzEngine

ANSWER_KEYS = frozenset({"answer", "token"})
CLOSE_KEYS = frozenset({"action", "reason"})


class SquizzAdapter(GameAdapter[SquizzEngine]):
    step_keys = ANSWER_KEYS | CLOSE_KEYS

    def start_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        """The host's roll, then the card; both are read before either is applied."""
        squizz = self.engine(engine)
        if "die" not in question:
            raise MalformedInput("a sQuizz question needs its die (1 smallest, 2 middle, 3 largest)")
        roll = StartQuestion.host(question["die"])
        card = card_from_scenario(question.get("card"))
        squizz.apply(roll)
        squizz.apply(card)

    def parse_step(self, step: Mapping[str, Any]) -> Action:
        return parse_step(step)

    def finish_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        self.require_played(self.engine(engine), lambda current: current.revealed)

    def question_result(self, engine: Engine) -> JSON:
        question = self.last_question(self.engine(engine))
        return {
            "reader": question.reader,
            "correct": list(question.correct),
            "die": question.die,
            "correct_answer": question.correct_letter,
            "answers": {p: question.answers[p].answer for p in question.answerers if p in question.answers},
            "missed": {p: question.missed[p] for p in question.answerers if p in question.missed},
        }

    def totals(self, engine: SquizzEngine) -> JSON:
        return {"scores": engine.scores(), "correct_counts": dict(engine.correct_counts)}


def parse_step(step: Mapping[str, Any]) -> Answer | Close | EndGame:
    """One scenario step as a sQuizz answer, the host's close or end; :class:`MalformedInput` if none."""
    player, keys = step_player(step), step_keys(step)
    if keys == ANSWER_KEYS:
        return Answer(player, step["answer"], step["token"])
    if "action" in keys and keys <= CLOSE_KEYS and step["action"] == Close.kind:
        return Close(player, step.get("reason", CloseReason.HOST.value))
    if keys == {"action"} and step["action"] == EndGame.kind:
        return EndGame(player)  # the host stops the game after a question's reveal (rules.md sQuizz 6 decides)
    raise MalformedInput(
        f'a sQuizz step is {{"player", "answer", "token"}} or the host\'s {{"action": "close"}} or '
        f'{{"action": "end"}}, got {dict(step)!r}'
    )


ADAPTER: ScenarioAdapter = SquizzAdapter(SquizzEngine)
