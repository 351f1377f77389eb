"""The All In part of the scenario format (docs/scenarios.md, section "allin").

* options: ``chips`` (15) and ``max_players`` (6);
* card: ``statements`` (three strings), dealt by the host when the question starts;
* steps: the reader's ``{"player", "pick": 0|1|2, "answer": true|false}`` with optional
  ``"exclude": name``, then each bettor's ``{"player", "split": {"true": n, "false": m}}``. The
  splits reveal themselves when the last one is in (rules.md All In 5).
* two more steps for the host: ``{"player": "", "action": "end"}`` for the deck running out
  (rules.md All In 6), accepted between questions, i.e. after a question's last split; and
  ``{"player": "", "action": "close"}`` with optional ``"reason"`` (``"host"``, the default, or
  ``"timeout"``) while splits are missing: the missing bettors sit the question out with all their
  chips and the reveal follows (the product's decision, :class:`~appliance.games.allin.actions.Close`).
* question result: ``reader``, ``chips`` (after the reveal), plus ``pick``, ``answer``, ``excluded``,
  ``lost``, ``sat_out``; final result: ``chips``, ``winners``, ``finished``, plus ``ending``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from appliance.errors import MalformedInput
from appliance.games.allin.actions import Close, CloseReason, EndGame, Read, Split, StartQuestion
from appliance.games.allin.engine import AllInEngine
from appliance.games.base import JSON, Engine
from appliance.games.scenario import ScenarioAdapter

READ_KEYS = frozenset({"pick", "answer", "exclude"})
IGNORED_KEYS = frozenset({"player", "expect_error"})


def _allin(engine: Engine) -> AllInEngine:
    if not isinstance(engine, AllInEngine):
        raise TypeError(f"the All In adapter needs an AllInEngine, got {type(engine).__name__}")
    return engine


class AllInAdapter:
    game = "allin"

    def new_engine(self, players: Sequence[str], options: Mapping[str, Any]) -> Engine:
        return AllInEngine(list(players), options)

    def start_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        card = question.get("card")
        if not isinstance(card, Mapping) or "statements" not in card:
            raise MalformedInput(f"an All In question needs a card with statements, got {card!r}")
        _allin(engine).apply(StartQuestion.deal(card["statements"]))

    def step(self, engine: Engine, step: Mapping[str, Any]) -> None:
        _allin(engine).apply(parse_step(step))

    def finish_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        allin = _allin(engine)
        current = allin.current
        if current is not None and not current.revealed:
            raise MalformedInput(f"question {current.number} has no more steps but {allin.status()}")

    def question_result(self, engine: Engine) -> JSON:
        allin = _allin(engine)
        question = allin.current
        if question is None:
            raise MalformedInput("no question has been played")
        return {
            "reader": question.reader,
            "chips": dict(question.chips_after),
            "pick": question.pick,
            "answer": question.answer,
            "excluded": question.excluded,
            "lost": {p: question.lost[p] for p in allin.players if p in question.lost},
            "sat_out": list(question.sat_out),
        }

    def final_result(self, engine: Engine) -> JSON:
        allin = _allin(engine)
        return {
            "chips": dict(allin.chips),
            "winners": allin.winners(),
            "finished": allin.finished,
            "ending": allin.ending.value if allin.ending else None,
        }


def parse_step(step: Mapping[str, Any]) -> Read | Split | Close | EndGame:
    """One scenario step as an All In input; :class:`MalformedInput` if it is none of them."""
    player = step.get("player")
    if not isinstance(player, str):
        raise MalformedInput(f"a step needs a player name, got {step!r}")
    keys = set(step) - IGNORED_KEYS
    if keys and keys <= READ_KEYS:
        if not {"pick", "answer"} <= keys:
            raise MalformedInput(f"the reader's step needs pick and answer, got {dict(step)!r}")
        return Read(player, step["pick"], step["answer"], step.get("exclude"))
    if keys == {"split"}:
        split = step["split"]
        if not isinstance(split, Mapping) or set(split) != {"true", "false"}:
            raise MalformedInput(f'a split is {{"true": n, "false": m}}, got {split!r}')
        return Split(player, split["true"], split["false"])
    if keys == {"action"} and step["action"] == EndGame.kind:
        return EndGame(player)
    if keys <= {"action", "reason"} and step.get("action") == Close.kind:
        return Close(player, step.get("reason", CloseReason.HOST.value))
    raise MalformedInput(
        f"an All In step is a read (pick, answer, exclude), a split, or the host's close or end, got {dict(step)!r}"
    )


ADAPTER: ScenarioAdapter = AllInAdapter()
