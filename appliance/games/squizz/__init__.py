"""sQuizz (seed 004): pick the smallest, middle or largest of three values and bet a token on it; with
readers for 2-8 players, or the room form for up to 40, where the box reads (docs/rules.md squizz-room).

* :mod:`~appliance.games.squizz.table`: tokens and reads per player count, team forming, the room form's
  limits and the set-up page's fields;
* :mod:`~appliance.games.squizz.card`: the card (three propositions with different values);
* :mod:`~appliance.games.squizz.actions`: the die roll, the answer and the host's close;
* :mod:`~appliance.games.squizz.engine`: :class:`SquizzEngine`, the pure rules engine;
* :mod:`~appliance.games.squizz.scenario`: ``ADAPTER`` for ``quizbox replay``.
"""

from __future__ import annotations

from appliance.games.squizz.actions import Answer, Close, CloseReason, EndGame, StartQuestion
from appliance.games.squizz.card import DealCard, card_from_scenario
from appliance.games.squizz.engine import SquizzEngine
from appliance.games.squizz.table import form_teams, team_name

__all__ = [
    "Answer",
    "DealCard",
    "Close",
    "CloseReason",
    "EndGame",
    "SquizzEngine",
    "StartQuestion",
    "card_from_scenario",
    "form_teams",
    "team_name",
]
