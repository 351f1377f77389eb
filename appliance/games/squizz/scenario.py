"""The sQuizz part of the scenario format (shared/scenarios/README.md, section "squizz").

* options: optional ``first_reader`` (tokens and reads follow the player count);
* question: ``die`` (1 smallest, 2 middle, 3 largest) and ``card`` (``prompt``, three
  ``propositions`` ``{"label": "A", "value": "900"}`` for A, B, C in order, each with an optional
  ``text`` as in decks): the host's roll, then the card;
* steps: each non-reader's ``{"player", "answer": "A"|"B"|"C", "token": n}``; the answers reveal
  themselves when the last one is in (rules.md sQuizz 5);
* one more step, the host's ``{"player": "", "action": "close"}`` with optional ``"reason"``
  (``"host"``, the default, or ``"timeout"``) while answers are missing: each missing answerer is
  wrong and uses up their lowest unused token, then the reveal (the product's decision,
  :class:`~appliance.games.squizz.actions.Close`); and the host's ``{"player": "", "action": "end"}``
  after a question's reveal: the game ends before every read was played (the quizmaster stopped it),
  rules.md sQuizz 6 decides on the totals so far;
* question result: ``reader``, ``correct`` (seat order), plus ``die``, ``correct_answer``, ``answers``
  (of those who answered) and ``missed`` (closed-out player -> the token that used up);
  final result: ``scores``, ``correct_counts``, ``winners``, ``finished``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from appliance.errors import MalformedInput
from appliance.games.base import JSON, Engine
from appliance.games.scenario import ScenarioAdapter
from appliance.games.squizz.actions import Answer, Close, CloseReason, End, Roll
from appliance.games.squizz.card import card_from_scenario
from appliance.games.squizz.engine import SquizzEngine

ANSWER_KEYS = frozenset({"answer", "token"})
CLOSE_KEYS = frozenset({"action", "reason"})
IGNORED_KEYS = frozenset({"player", "expect_error"})


def _squizz(engine: Engine) -> SquizzEngine:
    if not isinstance(engine, SquizzEngine):
        raise TypeError(f"the sQuizz adapter needs a SquizzEngine, got {type(engine).__name__}")
    return engine


class SquizzAdapter:
    game = "squizz"

    def new_engine(self, players: Sequence[str], options: Mapping[str, Any]) -> Engine:
        return SquizzEngine(list(players), options)

    def start_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        """The host's roll, then the card; both are read before either is applied."""
        squizz = _squizz(engine)
        if "die" not in question:
            raise MalformedInput("a sQuizz question needs its die (1 smallest, 2 middle, 3 largest)")
        roll = Roll.host(question["die"])
        card = card_from_scenario(question.get("card"))
        squizz.apply(roll)
        squizz.apply(card)

    def step(self, engine: Engine, step: Mapping[str, Any]) -> None:
        _squizz(engine).apply(parse_step(step))

    def finish_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        squizz = _squizz(engine)
        current = squizz.current
        if current is not None and not current.revealed:
            raise MalformedInput(f"question {current.number} has no more steps but {squizz.status()}")

    def question_result(self, engine: Engine) -> JSON:
        question = _squizz(engine).current
        if question is None:
            raise MalformedInput("no question has been played")
        return {
            "reader": question.reader,
            "correct": list(question.correct),
            "die": question.die,
            "correct_answer": question.correct_letter,
            "answers": {p: question.answers[p].answer for p in question.answerers if p in question.answers},
            "missed": {p: question.missed[p] for p in question.answerers if p in question.missed},
        }

    def final_result(self, engine: Engine) -> JSON:
        squizz = _squizz(engine)
        return {
            "scores": squizz.scores(),
            "correct_counts": dict(squizz.correct_counts),
            "winners": squizz.winners(),
            "finished": squizz.finished,
        }


def parse_step(step: Mapping[str, Any]) -> Answer | Close | End:
    """One scenario step as a sQuizz answer, the host's close or end; :class:`MalformedInput` if none."""
    player = step.get("player")
    if not isinstance(player, str):
        raise MalformedInput(f"a step needs a player name, got {step!r}")
    keys = set(step) - IGNORED_KEYS
    if keys == ANSWER_KEYS:
        return Answer(player, step["answer"], step["token"])
    if "action" in keys and keys <= CLOSE_KEYS and step["action"] == Close.kind:
        return Close(player, step.get("reason", CloseReason.HOST.value))
    if keys == {"action"} and step["action"] == End.kind:
        return End(player)
    raise MalformedInput(
        f'a sQuizz step is {{"player", "answer", "token"}} or the host\'s {{"action": "close"}} or '
        f'{{"action": "end"}}, got {dict(step)!r}'
    )


ADAPTER: ScenarioAdapter = SquizzAdapter()
