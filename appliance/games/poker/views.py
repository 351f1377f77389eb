"""What the TV and each handset may show of an estimation poker game.

The public view never holds a range before the showdown, nor the answer or a hint before the rules
show it (seed 002: hint 1 after round 1, hint 2 after round 2, the answer after round 3, everything
at a run-out). At the showdown it shows the ranges of the players in it; a folded player's range only
if they chose to reveal it (rules.md Estimation poker 11). The fold-to-one winner's range stays
hidden unless they reveal it (rules.md 8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from appliance.games.base import JSON
from appliance.games.poker.pots import form_pots
from appliance.games.poker.state import Question

if TYPE_CHECKING:
    from appliance.games.poker.engine import PokerEngine


def public_view(engine: PokerEngine) -> JSON:
    question = engine.current
    to_act = engine.to_act
    return {
        "stacks": dict(engine.stacks),
        "out": _out(engine, question),
        "ante_schedule": engine.schedule.describe(),
        "next_first": None if engine.finished or (question and not question.settled) else engine.next_first(),
        "to_act": to_act,
        "legal": [offer.to_json() for offer in engine.offered_inputs(to_act)] if to_act else [],
        "question": None if question is None else _public_question(engine, question),
        "finished": engine.finished,
        "winners": engine.winners(),
        "ending": engine.ending.value if engine.ending else None,
    }


def _out(engine: PokerEngine, question: Question | None) -> list[str]:
    """Players with no chips left (rules.md 12); during a question, those not dealt into it (an all-in
    player has no chips behind but is still in)."""
    if question is not None and not question.settled:
        return [p for p in engine.players if p not in question.dealt]
    return [p for p in engine.players if engine.stacks[p] == 0]


def _public_question(engine: PokerEngine, question: Question) -> JSON:
    betting = question.round
    view: JSON = {
        "number": question.number,
        "question": question.text,
        "ante": question.ante,
        "first": question.first,
        "dealt": list(question.dealt),
        "round": betting.number if betting and not question.settled else None,
        "hints": question.hints_shown(),
        "answer": question.answer_text() if question.answer_shown else None,
        "ranges_in": [p for p in question.dealt if p in question.ranges],
        "bets": {p: betting.bet(p) for p in question.dealt} if betting else {},
        "put_in": dict(question.put_in),
        "folded": [p for p in question.dealt if p in question.folded],
        "all_in": engine.all_in(question) if not question.settled else [],
        "pots": [
            {"amount": pot.amount, "eligible": list(pot.eligible)}
            for pot in form_pots(question.dealt, question.put_in, question.folded, engine.all_in(question))
        ]
        if not question.settled
        else [],
        "ranges": {p: r.to_json() for p, r in question.shown_ranges().items()},
        "outcome": question.outcome.to_json() if question.outcome else None,
    }
    return view


def private_view(engine: PokerEngine, player: str) -> JSON:
    question = engine.current
    own = question.ranges.get(player) if question is not None else None
    betting = question.round if question is not None else None
    return {
        "player": player,
        "stack": engine.stacks[player],
        "range": own.to_json() if own else None,
        "may_enter_range": engine.phase == "ranges" and question is not None and player in question.dealt,
        "bet": betting.bet(player) if betting and question and not question.settled else 0,
        "to_call": betting.owed(player) if betting and engine.to_act == player else 0,
        "your_turn": engine.to_act == player,
        "legal": [offer.to_json() for offer in engine.offered_inputs(player)],
        "may_reveal": _may_reveal(question, player),
    }


def _may_reveal(question: Question | None, player: str) -> bool:
    return (
        question is not None
        and question.settled
        and player in question.ranges
        and player not in question.shown_ranges()
    )
