"""What the TV and each handset may show of a sQuizz game.

Before the end the public view never holds a bet token's value or a total (rules.md sQuizz 5);
before a question's reveal it holds no answer and no card value, only who has locked in. After the
reveal the answers, the card's values and who was correct are public, and so is who was closed out
without an answer (``missed``; the token that used up stays on their handset). The reader's handset shows
the values and the correct answer of their own card (they read it from the card); in the room form nobody
reads (``reader`` is None) and no handset sees a value before the reveal.

Every view carries each player's seat number (``seat_numbers``: name -> place in seat order, 1 first;
rules.md The room 2: the public one from the engine's base, a handset's own here) and a handset's view its
own (``seat``, from the base).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from appliance.games.base import JSON
from appliance.games.squizz.card import TARGETS
from appliance.games.squizz.state import Question

if TYPE_CHECKING:
    from appliance.games.squizz.engine import SquizzEngine


def public_view(engine: SquizzEngine) -> JSON:
    question = engine.current
    return {
        "readers": not engine.room,
        "reads_per_player": engine.reads_per_player,
        "tokens_per_player": len(engine.token_set),
        "questions_total": engine.total_questions,
        "next_reader": engine.next_reader(),
        "correct_counts": dict(engine.correct_counts),
        "question": None if question is None else _public_question(question),
        "finished": engine.finished,
        "scores": engine.scores() if engine.finished else None,
        "winners": engine.winners(),
    }


def _public_question(question: Question) -> JSON:
    card = question.card
    view: JSON = {
        "number": question.number,
        "reader": question.reader,
        "die": question.die,
        "target": TARGETS[question.die],
        "prompt": None if card is None else card.prompt,
        "texts": None if card is None else card.texts_by_letter(),
        "locked_in": [p for p in question.answerers if p in question.answers],
        "waiting_for": question.waiting_for,
        "revealed": question.revealed,
        "closed": question.closed,
        "missed": [p for p in question.answerers if p in question.missed],
    }
    if question.revealed:
        assert card is not None
        view["answers"] = {p: question.answers[p].answer for p in question.answerers if p in question.answers}
        view["correct_answer"] = question.correct_letter
        view["values"] = card.values_by_letter()
        view["correct"] = list(question.correct)
    return view


def private_view(engine: SquizzEngine, player: str) -> JSON:
    answers: list[JSON] = []
    for q in engine.questions:
        if player in q.answers:
            mine = q.answers[player]
            correct = (player in q.correct) if q.revealed else None
            answers.append({"question": q.number, "answer": mine.answer, "token": mine.token, "correct": correct})
        elif player in q.missed:  # closed out: wrong, and the lowest unused token is used up
            answers.append({"question": q.number, "answer": None, "token": q.missed[player], "correct": False})
    view: JSON = {
        "player": player,
        "seat_numbers": seat_numbers(engine),
        "tokens": list(engine.tokens[player]),
        "answers": answers,
        "points": sum(engine.pile[player]),
        "role": None,
        "prompt": engine.legal_inputs(player),
    }
    question = engine.current
    if question is None or question.revealed:
        return view
    view["role"] = "reader" if player == question.reader else "answerer"
    if player == question.reader and question.card is not None:
        view["values"] = question.card.values_by_letter()
        view["correct_answer"] = question.card.letter_for(question.die)
    return view


def seat_numbers(engine: SquizzEngine) -> dict[str, int]:
    """Each player's seat number, in seat order."""
    return {player: seat for seat, player in enumerate(engine.players, 1)}
