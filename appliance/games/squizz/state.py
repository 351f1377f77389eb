"""sQuizz state records: the phases and one question's record."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from appliance.games.base import JSON
from appliance.games.squizz.actions import Answer
from appliance.games.squizz.card import DealCard


class Phase(StrEnum):
    ROLL = "roll"
    """Between questions: waiting for the host's die roll that opens the next question."""
    CARD = "card"
    """The die is rolled; waiting for the host to deal the card."""
    ANSWERING = "answering"
    """Every non-reader (in the room form: every player) picks an answer and a token; the reveal follows the
    last one or the host's close."""
    OVER = "over"


@dataclass
class Question:
    """One question: open until ``revealed``, then kept as the record of what happened."""

    number: int
    reader: str | None
    """Who reads the card; None in the room form, where the box reads it (docs/rules.md squizz-room)."""
    die: int
    answerers: tuple[str, ...]
    card: DealCard | None = None
    answers: dict[str, Answer] = field(default_factory=dict)
    closed: str | None = None
    """Why the host closed the answers (a ``CloseReason`` value); None when every answer came in."""
    missed: dict[str, int] = field(default_factory=dict)
    """Answerers who had not answered when the host closed -> the token that used up (wrong, lost)."""
    correct_letter: str | None = None
    correct: tuple[str, ...] = ()
    revealed: bool = False

    @property
    def waiting_for(self) -> list[str]:
        """Answerers who have not answered yet (nor been closed out), in seat order."""
        return [p for p in self.answerers if p not in self.answers and p not in self.missed]

    def snapshot(self) -> JSON:
        card = self.card
        return {
            "number": self.number,
            "reader": self.reader,
            "die": self.die,
            "answerers": list(self.answerers),
            "card": None if card is None else card.scenario_json(),
            "answers": {p: {"answer": a.answer, "token": a.token} for p, a in self.answers.items()},
            "closed": self.closed,
            "missed": dict(self.missed),
            "correct_letter": self.correct_letter,
            "correct": list(self.correct),
            "revealed": self.revealed,
        }
