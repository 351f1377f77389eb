"""The five round kinds of a night (rules.md Quiz night 1): the four games and the buzzer round.

For each: its engine, the host action that ends the game by its own "stopped" rule (the quizmaster
ends it, or its deck or time box runs out), the actions that close a question in progress without
changing what it has scored so far (only the buzzer: its points are in as soon as a judgement is),
and how the game's end state places the players (:mod:`~appliance.games.night.placement`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from appliance.games.allin.actions import End as AllInEnd
from appliance.games.allin.engine import AllInEngine
from appliance.games.base import HOST, Action, Engine
from appliance.games.buzzer.actions import Close as BuzzerClose
from appliance.games.buzzer.actions import End as BuzzerEnd
from appliance.games.buzzer.engine import BuzzerEngine
from appliance.games.confident.actions import End as ConfidentEnd
from appliance.games.confident.engine import ConfidentEngine
from appliance.games.night.placement import KEYS, Key
from appliance.games.poker.actions import EndGame as PokerEnd
from appliance.games.poker.engine import PokerEngine
from appliance.games.squizz.actions import End as SquizzEnd
from appliance.games.squizz.engine import SquizzEngine


@dataclass(frozen=True)
class RoundKind:
    game: str
    title: str
    """The game's name as the TV and the admin page show it."""
    engine: type[Engine]
    end: Callable[[], Action]
    """The host's end of the game: most points or chips wins, ties share (each game's stopped rule)."""
    closers: tuple[Callable[[], Action], ...]
    """Host actions that close a question in progress, keeping what it scored (tried before ``end``)."""
    keys: Callable[[Engine], dict[str, Key]]


def _host(record: type[Action]) -> Callable[[], Action]:
    return lambda: record(HOST)


KINDS: Mapping[str, RoundKind] = {
    "confident": RoundKind("confident", "Confident?", ConfidentEngine, _host(ConfidentEnd), (),
                           KEYS["confident"]),
    "poker": RoundKind("poker", "Estimation poker", PokerEngine, _host(PokerEnd), (), KEYS["poker"]),
    "allin": RoundKind("allin", "All In", AllInEngine, _host(AllInEnd), (), KEYS["allin"]),
    "squizz": RoundKind("squizz", "sQuizz", SquizzEngine, _host(SquizzEnd), (), KEYS["squizz"]),
    "buzzer": RoundKind("buzzer", "Buzzer round", BuzzerEngine, _host(BuzzerEnd),
                        (_host(BuzzerClose),), KEYS["buzzer"]),
}
"""Every round kind a run-sheet may hold, in the order the admin page offers them."""
