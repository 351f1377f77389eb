"""All In (seed 003): bet all your chips on how the reader answered; the last player with chips wins.

* :mod:`~appliance.games.allin.actions`: the inputs (card, read, split, close, end);
* :mod:`~appliance.games.allin.engine`: :class:`AllInEngine`, the pure rules engine;
* :mod:`~appliance.games.allin.scenario`: ``ADAPTER`` for ``quizbox replay``.
"""

from __future__ import annotations

from appliance.games.allin.actions import Close, CloseReason, EndGame, Read, Split, StartQuestion
from appliance.games.allin.engine import AllInEngine

__all__ = [
    "AllInEngine",
    "Close",
    "CloseReason",
    "EndGame",
    "Read",
    "Split",
    "StartQuestion",
]
