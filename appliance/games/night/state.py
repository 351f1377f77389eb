"""Night state records: the phases, each round of the run-sheet as it stands, the tie-break cards."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from appliance.games.base import JSON, Engine
from appliance.games.night.plan import RoundPlan
from appliance.games.numbers import format_plain


class Phase(StrEnum):
    BETWEEN = "between"
    """No round in play; the next round still to come waits for the host's start."""
    PLAYING = "playing"
    """A round is in play (its game runs in the session); the night waits for its end."""
    TIEBREAK = "tiebreak"
    """Every round is over and players are tied for first: waiting for a tie-break card."""
    CARD = "card"
    """A tie-break card is open: each tied player enters one number."""
    FINISHED = "finished"
    """Every round is over and one player is ahead: the night's winner."""


class Status(StrEnum):
    PLANNED = "planned"
    """Still to come: it may be moved, skipped or reseated."""
    PLAYING = "playing"
    FINISHED = "finished"
    """Its game ended by itself."""
    STOPPED = "stopped"
    """Finished now and scored by its game's stopped rule (the quizmaster, a card count, a time box)."""
    ABANDONED = "abandoned"
    """Ended without counting: nobody scores for it."""
    SKIPPED = "skipped"
    """Never played."""


DONE = frozenset({Status.FINISHED, Status.STOPPED, Status.ABANDONED, Status.SKIPPED})
SCORED = frozenset({Status.FINISHED, Status.STOPPED})


@dataclass
class Round:
    """One round of the night: its plan, where it stands and, once scored, its places and points."""

    number: int
    """The round's id: its position in the run-sheet when it was made (stays when rounds move)."""
    plan: RoundPlan
    seats: tuple[str, ...]
    status: Status = Status.PLANNED
    places: dict[str, int] = field(default_factory=dict)
    """Per seated player, seat order: 1 for first; shared places repeat (1, 1, 3)."""
    points: dict[str, int] = field(default_factory=dict)
    """Per night player: the round's night points, multiplier applied; 0 for those who sat out."""
    log: tuple[JSON, ...] = ()
    """The round's game log as the night received it when the round ended."""
    engine: Engine | None = None
    """The round's game as it ended (stopped rule applied); rebuilt from ``log``, not stored."""
    dropped: int = 0
    """Actions of a question in play left out when the round was stopped."""

    def snapshot(self) -> JSON:
        return {
            "number": self.number,
            "plan": self.plan.to_json(),
            "seats": list(self.seats),
            "status": self.status.value,
            "places": dict(self.places),
            "points": dict(self.points),
            "log_length": len(self.log),
            "dropped": self.dropped,
        }


@dataclass
class Tiebreak:
    """One tie-break card: who played it, their numbers, and who is still tied after it."""

    number: int
    question: str
    answer: Decimal
    tied: tuple[str, ...]
    """The players tied for first when the card opened, seat order: only they may enter a number."""
    numbers: dict[str, Decimal] = field(default_factory=dict)
    closed: bool = False
    distances: dict[str, Decimal] = field(default_factory=dict)
    """Per tied player who entered a number: its absolute distance to the answer (exact)."""
    ahead: tuple[str, ...] = ()
    """After the card: the tied players closest to the answer (still tied when more than one)."""

    @property
    def waiting_for(self) -> list[str]:
        return [p for p in self.tied if p not in self.numbers]

    def distances_json(self) -> dict[str, str]:
        return {p: format_plain(self.distances[p]) for p in self.tied if p in self.distances}

    def snapshot(self) -> JSON:
        return {
            "number": self.number,
            "question": self.question,
            "answer": format_plain(self.answer),
            "tied": list(self.tied),
            "numbers": {p: format_plain(n) for p, n in self.numbers.items()},
            "closed": self.closed,
            "distances": self.distances_json(),
            "ahead": list(self.ahead),
        }
