"""How each game's public board view reads for the quizmaster: the points table, whose move it is and
what the host's *next* does now.

Each game's reading is its registry entry's (``appliance.games.<game>.standing``); a game outside the
registry (a test game, a plug-in) gets the generic reading (:func:`appliance.games.standings.generic`).
Only the view is read, so nothing here can show a secret, and nothing decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from appliance.games.registry import read_standing
from appliance.games.standings import Standing

__all__ = ["Standing", "read"]


def read(game: str | None, view: Mapping[str, Any] | None, players: Sequence[str] = ()) -> Standing:
    """The standing of ``game`` from its public ``view`` (players in seat order for the table)."""
    return read_standing(game, view, players)
