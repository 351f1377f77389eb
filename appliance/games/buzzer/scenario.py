"""The buzzer round's part of the scenario format: Quizbox's extension (docs/scenarios.md "buzzer"),
used by ``quizbox replay`` for a ``"game": "buzzer"`` file and for a night's buzzer rounds.

* options: ``lockout`` (true), ``points_right`` (1), ``points_wrong`` (0);
* card: ``question`` (text; may be empty for a question the quizmaster reads), optional ``answer``
  (text for the reader; the quizmaster judges, so it changes nothing);
* the question opens with the host's ask; its buzzers are armed at once at time 0, unless one of its
  steps is the host's ``{"player": "", "action": "arm", "at": ms}``: presses before that step are
  early (locked out with ``lockout``, refused without it, rules.md Buzzer 1);
* a player's step: ``{"player", "press": ms}``: the press time in whole milliseconds on the
  appliance's clock (already corrected for the handset's clock; rules.md Buzzer 2 orders by it);
* host steps: ``{"player": "", "action": "right"}`` / ``"wrong"`` (the quizmaster's judgement of the
  player answering; the settle window ends first by itself), ``"close"`` (the question ends, nobody
  else scores), ``"end"`` (after the question: the questions ran out, highest total wins);
* after the steps a question still open is closed (the quizmaster moves on);
* question result: ``order`` (who buzzed, by press time), ``locked_out``, ``right`` (null when
  nobody), ``wrong`` (in the order judged), ``points`` (what the question added per player),
  ``scores`` (totals after it); final result: ``scores``, ``winners``, ``finished``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from appliance.errors import MalformedInput
from appliance.games.base import HOST, JSON, Action, Engine
from appliance.games.buzzer.actions import Arm, Close, Declare, EndGame, Judge, Press, StartQuestion
from appliance.games.buzzer.engine import BuzzerEngine
from appliance.games.buzzer.state import Phase
from appliance.games.scenario import ScenarioAdapter

CARD_KEYS = frozenset({"question", "answer"})
IGNORED_KEYS = frozenset({"player", "expect_error"})
HOST_ACTIONS = ("arm", "right", "wrong", "close", "end")


def _buzzer(engine: Engine) -> BuzzerEngine:
    if not isinstance(engine, BuzzerEngine):
        raise TypeError(f"the buzzer adapter needs a BuzzerEngine, got {type(engine).__name__}")
    return engine


def _millis(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise MalformedInput(f"{what} is whole milliseconds (0 or more, a JSON integer), got {value!r}")
    return value


def parse_card(card: object) -> StartQuestion:
    if not isinstance(card, Mapping):
        raise MalformedInput(f"a buzzer card is an object with its question, got {card!r}")
    unknown = sorted(set(card) - CARD_KEYS)
    if unknown:
        raise MalformedInput(f"unknown buzzer card key(s) {', '.join(unknown)} in {dict(card)!r}")
    question = card.get("question", "")
    answer = card.get("answer", "")
    if not isinstance(question, str) or not isinstance(answer, str):
        raise MalformedInput(f"a buzzer card's question and answer are text, got {dict(card)!r}")
    return StartQuestion(HOST, question)


def _arms_itself(question: Mapping[str, Any]) -> bool:
    steps = question.get("steps")
    return isinstance(steps, list) and any(
        isinstance(s, Mapping) and s.get("player") == HOST and s.get("action") == "arm" for s in steps
    )


def parse_step(step: Mapping[str, Any]) -> Action:
    """One step as a buzzer input (a press or a host action); :class:`MalformedInput` if none."""
    player = step.get("player")
    if not isinstance(player, str):
        raise MalformedInput(f"a step needs a player name, got {dict(step)!r}")
    keys = set(step) - IGNORED_KEYS
    if player != HOST:
        if keys != {"press"}:
            raise MalformedInput(f'a player\'s buzzer step is {{"player", "press": ms}}, got {dict(step)!r}')
        return Press(player, _millis(step["press"], f"{player}'s press time"))
    action = step.get("action")
    if action == "arm" and keys <= {"action", "at"}:
        return Arm(HOST, _millis(step.get("at", 0), "the arming time"))
    if keys == {"action"} and action in HOST_ACTIONS:
        if action in ("right", "wrong"):
            return Judge(HOST, action == "right")
        return Close(HOST) if action == "close" else EndGame(HOST)
    raise MalformedInput(
        f"a host buzzer step is an action ({', '.join(HOST_ACTIONS)}; arm with an optional at), got {dict(step)!r}"
    )


class BuzzerAdapter:
    game = "buzzer"
    step_keys = frozenset({"press", "action", "at"})

    def new_engine(self, players: Sequence[str], options: Mapping[str, Any]) -> Engine:
        return BuzzerEngine(list(players), options)

    def start_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        buzzer = _buzzer(engine)
        ask = parse_card(question.get("card"))
        arms_itself = _arms_itself(question)
        buzzer.apply(ask)
        if not arms_itself:
            buzzer.apply(Arm(HOST, 0))

    def step(self, engine: Engine, step: Mapping[str, Any]) -> None:
        """Apply one step; a judgement first ends the settle window (the earliest press answers).
        If the step is refused nothing changes: the declare is tried on a copy first."""
        buzzer = _buzzer(engine)
        action = parse_step(step)
        if isinstance(action, Judge) and buzzer.phase == Phase.SETTLING.value:
            trial = buzzer.clone()
            trial.apply(Declare(HOST))
            trial.apply(action)
            buzzer.apply(Declare(HOST))
        buzzer.apply(action)

    def finish_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        buzzer = _buzzer(engine)
        current = buzzer.current
        if current is not None and not current.closed and not buzzer.finished:
            buzzer.apply(Close(HOST))

    def question_result(self, engine: Engine) -> JSON:
        buzzer = _buzzer(engine)
        question = buzzer.current
        if question is None:
            raise MalformedInput("no question has been played")
        points = dict.fromkeys(buzzer.players, 0)
        if question.right is not None:
            points[question.right] += buzzer.options["points_right"]
        for player in question.wrong:
            points[player] += buzzer.options["points_wrong"]
        return {
            "order": [buzz.player for buzz in question.order()],
            "locked_out": [p for p in buzzer.players if p in question.locked_out],
            "right": question.right,
            "wrong": list(question.wrong),
            "points": points,
            "scores": dict(buzzer.scores),
        }

    def final_result(self, engine: Engine) -> JSON:
        buzzer = _buzzer(engine)
        return {"scores": dict(buzzer.scores), "winners": buzzer.winners(), "finished": buzzer.finished}


ADAPTER: ScenarioAdapter = BuzzerAdapter()
