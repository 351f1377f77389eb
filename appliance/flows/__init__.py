"""Each game's flow: the pure engine wrapped with what the table sees (prompts, the board's view, the
host's *next*, time limits). See appliance.session.flow for the contract and
appliance.session.engine_flow for what the games share.

:data:`TABLE` is the table side of the game registry: one :class:`TableSpec` per
:class:`~appliance.games.registry.GameSpec`, pairing the pure spec with its flow. The session finds a
game's flow here (:func:`flow_factory`); tests and benches add their own small games with
:func:`register_flow`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from appliance.errors import MalformedInput
from appliance.flows.allin import AllInFlow
from appliance.flows.buzzer import BuzzerFlow
from appliance.flows.confident import ConfidentFlow
from appliance.flows.poker import PokerFlow
from appliance.flows.squizz import SquizzFlow
from appliance.games import registry
from appliance.games.registry import GameSpec
from appliance.session.flow import FlowFactory


@dataclass(frozen=True)
class TableSpec:
    """A game at the table: its pure spec and the flow the session runs."""

    game: GameSpec
    flow: FlowFactory

    @property
    def id(self) -> str:
        return self.game.id


def _table(*pairs: tuple[str, FlowFactory]) -> Mapping[str, TableSpec]:
    return {game: TableSpec(registry.spec(game), flow) for game, flow in pairs}


TABLE: Mapping[str, TableSpec] = _table(
    (ConfidentFlow.game, ConfidentFlow),
    (PokerFlow.game, PokerFlow),
    (AllInFlow.game, AllInFlow),
    (SquizzFlow.game, SquizzFlow),
    (BuzzerFlow.game, BuzzerFlow),
)

_EXTRA: dict[str, FlowFactory] = {}


def register_flow(game: str, factory: FlowFactory) -> None:
    """Register a flow factory for a game outside the registry (tests register their own small games)."""
    _EXTRA[game] = factory


def flow_factory(game: str) -> FlowFactory:
    """The flow factory of ``game``: a registered game's, else an extra one; MalformedInput otherwise."""
    if game in _EXTRA:
        return _EXTRA[game]
    table = TABLE.get(game)
    if table is None:
        raise MalformedInput(f"unknown game {game!r}; known: {', '.join([*TABLE, *_EXTRA])}")
    return table.flow
