"""What the TV, a handset and the store may see of a Confident? game.

* public: scores and the boosts crossed off on the scoreboard; for the open question only who has
  answered (boards are secret until the reveal, and so is the card's answer); after settlement every
  board as written, the ranges after copies and swaps, sizes, points and totals;
* private: the player's own board, remaining boosts and score, and what their handset may offer;
* snapshot: everything, for equality checks (refusals change nothing, a rebuild is exact).

Numbers appear as :func:`~appliance.games.numbers.format_plain` strings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from appliance.games.base import JSON
from appliance.games.confident.actions import Answer
from appliance.games.confident.settlement import Settlement
from appliance.games.numbers import format_plain
from appliance.games.ranges import Range

if TYPE_CHECKING:
    from appliance.games.confident.engine import ConfidentEngine, Question


def range_json(board: Range | None) -> list[str] | None:
    return None if board is None else board.to_json()


def board_json(board: Answer | None) -> JSON | None:
    """A board as written (before copies and swaps)."""
    if board is None:
        return None
    return {
        "range": range_json(board.range),
        "copy": board.copy,
        "swap": None if board.swap is None else list(board.swap),
        "double": board.double,
    }


def settlement_json(players: tuple[str, ...], result: Settlement) -> JSON:
    return {
        "answer": format_plain(result.answer),
        "copied_from": {p: result.sources[p] for p in players},
        "swap_groups": [list(group) for group in result.swap_groups],
        "ranges": {p: range_json(result.ranges[p]) for p in players},
        "sizes": {p: None if (s := result.sizes[p]) is None else format_plain(s) for p in players},
        "correct": {p: result.correct[p] for p in players},
        "smallest": [p for p in players if p in result.smallest],
        "points": {p: result.points[p] for p in players},
        "capped": [p for p in players if p in result.capped],
        "scores": {p: result.scores[p] for p in players},
        "crossed": list(result.crossed),
        "winners": list(result.winners),
    }


def _revealed_boosts(engine: ConfidentEngine) -> dict[str, list[str]]:
    """Each player's boosts crossed off on the scoreboard: played on a question that has been settled."""
    settled = {q.number for q in engine.questions if q.settlement is not None}  # once, not once a player
    return {player: [boost.value for boost, number in engine.boosts_used[player].items() if number in settled]
            for player in engine.players}


def _question_public(engine: ConfidentEngine, question: Question) -> JSON:
    view: JSON = {
        "number": question.number,
        "question": question.card.question,
        "unit": question.card.unit,
        "answered": [p for p in engine.players if p in question.boards],
        "closed": None if question.closed is None else question.closed.value,
    }
    if question.settlement is not None:
        view["boards"] = {p: board_json(question.boards.get(p)) for p in engine.players}
        view.update(settlement_json(engine.players, question.settlement))
    return view


def public_view(engine: ConfidentEngine) -> JSON:
    question = engine.current
    return {
        "target": engine.target,
        "variants": list(engine.options["variants"]),
        "fast_play_seconds": engine.options["fast_play_seconds"],
        "scores": dict(engine.scores),
        "boosts_used": _revealed_boosts(engine),
        "question": None if question is None else _question_public(engine, question),
        "finished": engine.finished,
        "winners": engine.winners(),
        "ending": None if engine.ending is None else engine.ending.value,
    }


def private_view(engine: ConfidentEngine, player: str) -> JSON:
    question = engine.current
    return {
        "player": player,
        "phase": engine.phase,
        "question": None if question is None else question.number,
        "board": None if question is None else board_json(question.boards.get(player)),
        "boosts_left": [boost.value for boost in engine.boosts_left(player)],
        "score": engine.scores[player],
        "legal": engine.legal_inputs(player),
    }


def state(engine: ConfidentEngine) -> JSON:
    """Confident's part of the engine's snapshot (the base adds players, options, phase, winners, log)."""
    return {
        "scores": dict(engine.scores),
        "boosts_used": {
            p: {boost.value: number for boost, number in sorted(engine.boosts_used[p].items())} for p in engine.players
        },
        "questions": [
            {
                "number": q.number,
                "card": {"question": q.card.question, "answer": format_plain(q.card.answer), "unit": q.card.unit},
                "boards": {p: board_json(q.boards[p]) for p in engine.players if p in q.boards},
                "closed": None if q.closed is None else q.closed.value,
                "settlement": None if q.settlement is None else settlement_json(engine.players, q.settlement),
            }
            for q in engine.questions
        ],
        "ending": None if engine.ending is None else engine.ending.value,
    }
