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

from collections.abc import Mapping
from typing import Any

from appliance.errors import MalformedInput
from appliance.games.allin.actions import Close, CloseReason, EndGame, Read, Split, StartQuestion
from appliance.games.allin.engine import AllInEngine
from appliance.games.base import JSON, Action, Engine
from appliance.games.scenario import GameAdapter, ScenarioAdapter, step_keys, step_player

READ_KEYS = frozenset({"pick", "answer", "exclude"})


class AllInAdapter(GameAdapter[AllInEngine]):
    step_keys = READ_KEYS | {"split", "action", "reason"}

    def start_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        card = question.get("card")
        if not isinstance(card, Mapping) or "statements" not in card:
            raise MalformedInput(f"an All In question needs a card with statements, got {card!r}")
        unknown = sorted(set(card) - {"statements"})
        if unknown:
            raise MalformedInput(f"unknown All In card key(s) {', '.join(map(str, unknown))} in {dict(card)!r} "
                                 "(a card has statements only: the reader's answer is a step)")
        self.engine(engine).apply(StartQuestion.deal(card["statements"]))

    def parse_step(self, step: Mapping[str, Any]) -> Action:
        return parse_step(step)

    def finish_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        self.require_played(self.engine(engine), lambda current: current.revealed)

    def question_result(self, engine: Engine) -> JSON:
        allin = self.engine(engine)
        question = self.last_question(allin)
        return {
            "reader": question.reader,
            "chips": dict(question.chips_after),
            "pick": question.pick,
            "answer": question.answer,
            "excluded": question.excluded,
            "lost": {p: question.lost[p] for p in allin.players if p in question.lost},
            "sat_out": list(question.sat_out),
        }

    def totals(self, engine: AllInEngine) -> JSON:
        return {"chips": dict(engine.chips)}


def parse_step(step: Mapping[str, Any]) -> Read | Split | Close | EndGame:
    """One scenario step as an All In input; :class:`MalformedInput` if it is none of them."""
    player, keys = step_player(step), step_keys(step)
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


ADAPTER: ScenarioAdapter = AllInAdapter(AllInEngine)
