"""Helpers shared by the Confident? tests: build engines, write boards, play whole questions."""

from __future__ import annotations

from decimal import Decimal

import pytest

from appliance.errors import IllegalAction
from appliance.games.base import HOST, Action
from appliance.games.confident.actions import Answer, Close, Settle, StartQuestion
from appliance.games.confident.engine import ConfidentEngine
from appliance.games.confident.settlement import Settlement

ANN, BOB, CAT, DAN, EVE = "ann", "bob", "cat", "dan", "eve"
FOUR = (ANN, BOB, CAT, DAN)


def new(players: tuple[str, ...] = FOUR, **options: object) -> ConfidentEngine:
    return ConfidentEngine(players, options)


def ask(answer: str = "12", question: str = "The moon. How many people have been on it?") -> StartQuestion:
    return StartQuestion(HOST, question, Decimal(answer), "people")


def board(
    player: str,
    bottom: str,
    top: str,
    *,
    swap: tuple[str, str] | None = None,
    double: bool = False,
) -> Answer:
    return Answer(player, (Decimal(bottom), Decimal(top)), swap=swap, double=double)


def copy(player: str, whom: str, *, swap: tuple[str, str] | None = None, double: bool = False) -> Answer:
    return Answer(player, copy=whom, swap=swap, double=double)


def play(engine: ConfidentEngine, *actions: Action) -> ConfidentEngine:
    for action in actions:
        engine.apply(action)
    return engine


def settle_question(engine: ConfidentEngine, answer: str, *boards: Answer) -> Settlement:
    """Ask, write ``boards``, close (time-out unless everyone is in), settle; the settlement."""
    play(engine, ask(answer), *boards)
    everyone = len({b.player for b in boards}) == len(engine.players)
    play(engine, Close(HOST, "everyone_in" if everyone else "timeout"), Settle(HOST))
    question = engine.current
    assert question is not None and question.settlement is not None
    return question.settlement


def refused(engine: ConfidentEngine, action: Action, error: type[IllegalAction], match: str) -> None:
    """``action`` is refused with ``error`` and a message matching ``match``; nothing changes."""
    before = engine.snapshot()
    assert not engine.can(action)
    with pytest.raises(error, match=match):
        engine.apply(action)
    assert engine.snapshot() == before
