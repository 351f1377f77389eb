"""What the TV and each handset may show of an All In game.

The public view never holds the reader's answer or any split before the reveal, only who has
locked in (rules.md All In 3 and 5); the card's other two statements are never read aloud, so only
the reader's handset shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from appliance.games.allin.state import Question, split_json
from appliance.games.base import JSON

if TYPE_CHECKING:
    from appliance.games.allin.engine import AllInEngine


def public_view(engine: AllInEngine) -> JSON:
    question = engine.current
    return {
        "chips": dict(engine.chips),
        "exclusion_cards": {p: p not in engine.exclusion_used for p in engine.players},
        "next_reader": None if engine.finished else engine.next_reader(),
        "question": None if question is None else _public_question(question),
        "finished": engine.finished,
        "winners": engine.winners(),
        "ending": engine.ending.value if engine.ending else None,
    }


def _public_question(question: Question) -> JSON:
    read = question.pick is not None
    view: JSON = {
        "number": question.number,
        "reader": question.reader,
        "pick": question.pick,
        "statement": question.statements[question.pick] if question.pick is not None else None,
        "excluded": question.excluded,
        "bettors": list(question.bettors),
        "locked_in": [p for p in question.bettors if p in question.splits] if read else [],
        "waiting_for": question.waiting_for if read else [],
        "revealed": question.revealed,
        "closed": question.closed,
        "sat_out": list(question.sat_out),
    }
    if question.revealed:
        view["answer"] = question.answer
        view["splits"] = {p: split_json(question.splits[p]) for p in question.bettors}
        view["lost"] = {p: question.lost[p] for p in question.bettors}
    return view


def private_view(engine: AllInEngine, player: str) -> JSON:
    view: JSON = {
        "player": player,
        "chips": engine.chips[player],
        "exclusion_card": player not in engine.exclusion_used,
        "role": None,
        "prompt": engine.legal_inputs(player),
    }
    question = engine.current
    if question is None or question.revealed:
        return view
    view["role"] = _role(engine, question, player)
    if player == question.reader:
        view["statements"] = list(question.statements)
        view["pick"] = question.pick
        view["answer"] = question.answer
    if player in question.splits:
        view["split"] = split_json(question.splits[player])
    return view


def _role(engine: AllInEngine, question: Question, player: str) -> str:
    if player == question.reader:
        return "reader"
    if player == question.excluded:
        return "excluded"
    if engine.chips[player] == 0:
        return "out"
    return "bettor"
