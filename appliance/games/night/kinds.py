"""The five round kinds of a night (rules.md Quiz night 1): the four games and the buzzer round.

For each: its engine, the host action that ends the game by its own "stopped" rule (the quizmaster
ends it, or its deck or time box runs out), the actions that close a question in progress without
changing what it has scored so far (only the buzzer: its points are in as soon as a judgement is),
and how the game's end state places the players (:mod:`~appliance.games.night.placement`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from appliance.errors import ConfigError
from appliance.games import registry
from appliance.games.allin.actions import EndGame as AllInEnd
from appliance.games.base import HOST, Action, Engine
from appliance.games.buzzer.actions import Close as BuzzerClose
from appliance.games.buzzer.actions import EndGame as BuzzerEnd
from appliance.games.confident.actions import EndGame as ConfidentEnd
from appliance.games.fields import whole
from appliance.games.night.placement import KEYS, Key
from appliance.games.poker.actions import EndGame as PokerEnd
from appliance.games.squizz.actions import EndGame as SquizzEnd


@dataclass(frozen=True)
class RoundKind:
    game: str
    title: str
    """The game's name as the TV and the admin page show it (the registry's)."""
    engine: type[Engine]
    end: Callable[[], Action]
    """The host's end of the game: most points or chips wins, ties share (each game's stopped rule)."""
    closers: tuple[Callable[[], Action], ...]
    """Host actions that close a question in progress, keeping what it scored (tried before ``end``)."""
    keys: Callable[[Engine], dict[str, Key]]
    flow_options: tuple[str, ...] = ()
    """Options the round's flow takes, not its engine (timings: the registry's ``flow_options``)."""

    def engine_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """A round's options as its engine takes them: without the flow's own (its timings)."""
        return {k: v for k, v in options.items() if k not in self.flow_options}

    def check_flow_options(self, options: Mapping[str, Any]) -> None:
        """The flow's own options are whole numbers of at most :data:`MAX_FLOW_OPTION` (seconds, ms or a
        count; the flow checks its own range when the round starts); ConfigError says which is not."""
        for name in self.flow_options:
            if name in options:
                whole(options[name], f"{name} must be a whole number from 0 to {MAX_FLOW_OPTION}", low=0,
                      high=MAX_FLOW_OPTION, error=ConfigError)


MAX_FLOW_OPTION = 3600


def _host(record: type[Action]) -> Callable[[], Action]:
    return lambda: record(HOST)


_STOP: Mapping[str, tuple[Callable[[], Action], tuple[Callable[[], Action], ...]]] = {
    "confident": (_host(ConfidentEnd), ()),
    "poker": (_host(PokerEnd), ()),
    "allin": (_host(AllInEnd), ()),
    "squizz": (_host(SquizzEnd), ()),
    "buzzer": (_host(BuzzerEnd), (_host(BuzzerClose),)),
}
"""Each game's end by its stopped rule, and what closes a question in play first (the buzzer's)."""

KINDS: Mapping[str, RoundKind] = {
    spec.id: RoundKind(spec.id, spec.title, spec.engine, *_STOP[spec.id], KEYS[spec.id], spec.flow_options)
    for spec in registry.SPECS
}
"""Every round kind a run-sheet may hold (every game of the registry), in the order the admin page offers
them; a game the night cannot place or stop would fail here on import."""
