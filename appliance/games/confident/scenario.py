"""The Confident? part of the scenario format (docs/scenarios.md, section "confident").

* options: ``target`` (15), ``variants``, and ``fast_play_seconds`` (10; no effect without a clock);
* card: ``question``, ``answer`` (a number string), optional ``unit``; asking it opens the question;
* a player's step: ``range`` [bottom, top] or ``copy`` (a name); optional ``swap`` [name, name] and
  ``double``: true. A player with no step has no range;
* host steps (``"player": ""``): ``{"action": "close"}`` with optional ``"reason"``
  (``"timeout"``, the default, or ``"everyone_in"``): the time-out, after which boards are refused
  (Fast Play); ``{"action": "settle"}``; ``{"action": "end"}``: the deck ran out (between questions,
  i.e. after the question's settle step);
* after the steps, entries close (everyone in, or the time-out) and the question is settled unless
  host steps already did;
* question result: ``ranges``, ``points``, ``scores``, plus ``answer``, ``sizes``, ``correct``,
  ``copied_from``, ``swap_groups``, ``capped``, ``crossed``; final result: ``scores``, ``winners``,
  ``finished``, plus ``ending``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from appliance.errors import MalformedInput
from appliance.games.base import HOST, JSON, Action, Engine
from appliance.games.confident.actions import Answer, Close, CloseReason, EndGame, Settle, StartQuestion
from appliance.games.confident.engine import ConfidentEngine, Phase
from appliance.games.confident.views import settlement_json
from appliance.games.numbers import parse_number
from appliance.games.ranges import Range
from appliance.games.scenario import GameAdapter, ScenarioAdapter, step_keys, step_player

CARD_KEYS = frozenset({"question", "answer", "unit"})
ANSWER_KEYS = frozenset({"range", "copy", "swap", "double"})
HOST_KEYS = frozenset({"action", "reason"})
HOST_ACTIONS = {"settle": Settle, "end": EndGame}


def parse_card(card: object) -> StartQuestion:
    """A scenario card as the host's :class:`StartQuestion`."""
    if not isinstance(card, Mapping):
        raise MalformedInput(f"a Confident card is an object with question and answer, got {card!r}")
    unknown = sorted(set(card) - CARD_KEYS)
    if unknown:
        raise MalformedInput(f"unknown Confident card key(s) {', '.join(unknown)} in {dict(card)!r}")
    if "question" not in card or "answer" not in card:
        raise MalformedInput(f"a Confident card needs question and answer, got {dict(card)!r}")
    unit = card.get("unit", "")
    if not isinstance(unit, str):
        raise MalformedInput(f"a card's unit is text, got {unit!r}")
    return StartQuestion(HOST, card["question"], parse_number(card["answer"]), unit)


def parse_step(step: Mapping[str, Any]) -> Action:
    """One scenario step as a Confident input; :class:`MalformedInput` if it is none."""
    player, keys = step_player(step), step_keys(step)
    if player == HOST:
        return _host_step(step, keys)
    strange = sorted(keys - ANSWER_KEYS)
    if strange:
        raise MalformedInput(
            f"unknown key(s) {', '.join(strange)} in {player}'s step {dict(step)!r}; a Confident step has "
            "range or copy, optionally swap and double"
        )
    board = None
    if "range" in step:
        written = step["range"]
        if not isinstance(written, list) or len(written) != 2:
            raise MalformedInput(f"a range is [bottom, top], got {written!r}")
        board = Range(parse_number(written[0]), parse_number(written[1]))
    swap = step.get("swap")
    if swap is not None and (not isinstance(swap, list) or len(swap) != 2):
        raise MalformedInput(f"a swap is [name, name], got {swap!r}")
    return Answer(
        player, board, step.get("copy"), None if swap is None else (swap[0], swap[1]), step.get("double", False)
    )


def _host_step(step: Mapping[str, Any], keys: set[str]) -> Action:
    action = step.get("action")
    if not keys <= HOST_KEYS or action not in {"close", *HOST_ACTIONS}:
        raise MalformedInput(f'a host step (player "") is {{"action": "close" | "settle" | "end"}}, got {dict(step)!r}')
    if action == "close":
        return Close(HOST, step.get("reason", CloseReason.TIMEOUT.value))
    if "reason" in step:
        raise MalformedInput(f"only close takes a reason, got {dict(step)!r}")
    return HOST_ACTIONS[action](HOST)


class ConfidentAdapter(GameAdapter[ConfidentEngine]):
    step_keys = ANSWER_KEYS | HOST_KEYS

    def start_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        self.engine(engine).apply(parse_card(question.get("card")))

    def parse_step(self, step: Mapping[str, Any]) -> Action:
        return parse_step(step)

    def finish_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        confident = self.engine(engine)
        current = confident.current
        if confident.phase == Phase.OPEN and current is not None:
            everyone = all(p in current.boards for p in confident.players)
            reason = CloseReason.EVERYONE_IN if everyone else CloseReason.TIMEOUT
            confident.apply(Close(HOST, reason.value))
        if confident.phase == Phase.CLOSED:
            confident.apply(Settle(HOST))

    def question_result(self, engine: Engine) -> JSON:
        confident = self.engine(engine)
        last = next((q.settlement for q in reversed(confident.questions) if q.settlement is not None), None)
        if last is None:
            raise MalformedInput(f"no question has been settled: {confident.status()}")
        result = settlement_json(confident.players, last)
        ordered = {key: result.pop(key) for key in ("ranges", "points", "scores")}
        return {**ordered, **result}

    def totals(self, engine: ConfidentEngine) -> JSON:
        return {"scores": dict(engine.scores)}


ADAPTER: ScenarioAdapter = ConfidentAdapter(ConfidentEngine)
