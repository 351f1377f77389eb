"""What the TV and each handset may show of a buzzer round.

The TV's view is the shape appliance/board/scenes/buzzer.py draws (``phase`` waiting | armed |
answering, ``buzzes`` in press order, ``answering``, ``wrong``, ``locked_out``, ``scores``), plus
``closed`` as a phase, ``right``, ``reaction_ms``, ``winners`` and ``ending``. While buzzes settle
the order is not final, so the TV shows only the presses already judged until the first is declared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from appliance.games.base import JSON
from appliance.games.buzzer.state import Phase

if TYPE_CHECKING:
    from appliance.games.buzzer.engine import BuzzerEngine

BOARD_PHASE = {
    Phase.CLOSED: "closed",
    Phase.WAITING: "waiting",
    Phase.ARMED: "armed",
    Phase.SETTLING: "armed",
    Phase.ANSWERING: "answering",
    Phase.OVER: "over",
}


def public_view(engine: BuzzerEngine) -> JSON:
    question = engine.current
    phase = Phase(engine.phase)
    view: JSON = {
        "phase": BOARD_PHASE[phase],
        "scores": dict(engine.scores),
        "lockout": engine.options["lockout"],
        "points": {"right": engine.options["points_right"], "wrong": engine.options["points_wrong"]},
        "number": 0,
        "question": None,
        "buzzes": [],
        "reaction_ms": {},
        "answering": None,
        "wrong": [],
        "locked_out": [],
        "right": None,
        "finished": engine.finished,
        "winners": engine.winners(),
        "ending": "deck_ran_out" if engine.finished else None,
    }
    if question is None:
        return view
    order = question.order()
    if phase is Phase.SETTLING:
        order = [b for b in order if b.player in question.wrong]
    armed_at = question.armed_at if question.armed_at is not None else 0
    view.update(
        number=question.number,
        question=question.text or None,
        buzzes=[b.player for b in order],
        reaction_ms={b.player: b.at - armed_at for b in order},
        answering=question.answering,
        wrong=list(question.wrong),
        locked_out=list(question.locked_out),
        right=question.right,
    )
    return view


def private_view(engine: BuzzerEngine, player: str) -> JSON:
    question = engine.current
    live = question if question is not None and not question.closed else None
    return {
        "player": player,
        "score": engine.scores[player],
        "buzzed": live is not None and live.buzzed(player),
        "locked_out": live is not None and player in live.locked_out,
        "answering": live is not None and live.answering == player,
    }
