"""Buzzer round (the appliance's own mode, rules.md "Buzzer round"): first to buzz answers.

* :mod:`~appliance.games.buzzer.actions`: the inputs (ask, arm, press, declare, judge, close, end);
* :mod:`~appliance.games.buzzer.engine`: :class:`BuzzerEngine`, the pure rules engine;
* :mod:`~appliance.games.buzzer.views`: what the TV and each handset may show.

The handsets' clock offsets and the settle window live outside the engine (appliance/edge/clocksync.py,
appliance/flows/buzzer.py): a press reaches the engine with its time already on the appliance clock.
"""

from __future__ import annotations

from appliance.games.buzzer.actions import Arm, Close, Declare, EndGame, Judge, Press, StartQuestion
from appliance.games.buzzer.engine import BuzzerEngine

__all__ = [
    "Arm",
    "BuzzerEngine",
    "Close",
    "Declare",
    "EndGame",
    "Judge",
    "Press",
    "StartQuestion",
]
