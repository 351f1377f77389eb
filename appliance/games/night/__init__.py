"""A quiz night (rules.md "Quiz night"): a run-sheet of rounds, one night standing, a tie-break.

* :mod:`~appliance.games.night.plan`: :class:`RoundPlan`, one round of the run-sheet;
* :mod:`~appliance.games.night.kinds`: the five round kinds (four games and the buzzer round);
* :mod:`~appliance.games.night.placement`: each round's places and night points;
* :mod:`~appliance.games.night.stop`: a round's game from its log, ended by its stopped rule;
* :mod:`~appliance.games.night.actions`: the night's inputs;
* :mod:`~appliance.games.night.engine`: :class:`NightEngine`, the pure night engine;
* :mod:`~appliance.games.night.views`: what the TV and the handsets may show.
"""

from __future__ import annotations

from appliance.games.night.actions import (
    AbandonRound,
    AddRound,
    CloseCard,
    CorrectScore,
    EnterNumber,
    FinishRound,
    JoinNight,
    MoveRound,
    SeatRound,
    SkipRound,
    StartRound,
    TiebreakCard,
)
from appliance.games.night.engine import AlreadyEntered, NightEngine, NoSuchRound, NotTied, NotToCome
from appliance.games.night.kinds import KINDS, RoundKind
from appliance.games.night.plan import RoundPlan
from appliance.games.night.state import Phase, Status
from appliance.games.night.stop import BadRoundLog, RoundNotOver

__all__ = [
    "KINDS",
    "AbandonRound",
    "AddRound",
    "AlreadyEntered",
    "BadRoundLog",
    "CloseCard",
    "CorrectScore",
    "EnterNumber",
    "FinishRound",
    "JoinNight",
    "MoveRound",
    "NightEngine",
    "NoSuchRound",
    "NotTied",
    "NotToCome",
    "Phase",
    "RoundKind",
    "RoundNotOver",
    "RoundPlan",
    "SeatRound",
    "SkipRound",
    "StartRound",
    "Status",
    "TiebreakCard",
]
