"""The rules engines. Each game is a package ``appliance.games.<name>`` with:

* ``engine``: the pure engine (a subclass of :class:`appliance.games.base.Engine`);
* ``scenario``: a :class:`appliance.games.scenario.ScenarioAdapter` for ``quizbox replay``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

GAMES: tuple[str, ...] = ("confident", "poker", "allin", "squizz")


def game_module(game: str, part: str) -> ModuleType:
    """Import ``appliance.games.<game>.<part>``; refuses names outside :data:`GAMES`."""
    if game not in GAMES:
        from appliance.errors import MalformedInput

        raise MalformedInput(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    return importlib.import_module(f"appliance.games.{game}.{part}")
