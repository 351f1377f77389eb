"""Buzzer round state records: the phases and one question's buzzes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from appliance.games.base import JSON


class Phase(StrEnum):
    CLOSED = "closed"
    """No question open: before the first one, or after one ended (right answer, closed, nobody left)."""
    WAITING = "waiting"
    """A question is on, the buzzers are not armed: a press now is early (rules.md Buzzer 1)."""
    ARMED = "armed"
    """Buzzers armed, nobody waiting to answer."""
    SETTLING = "settling"
    """Buzzes are in; the flow waits a short settle window for earlier presses still on the way."""
    ANSWERING = "answering"
    """The earliest press not yet judged answers; the quizmaster marks it right or wrong."""
    OVER = "over"


@dataclass(frozen=True)
class Buzz:
    """One press of one player on one question; ``arrival`` breaks equal times (first in, first)."""

    player: str
    at: int
    arrival: int

    def key(self) -> tuple[int, int]:
        return self.at, self.arrival


@dataclass
class Question:
    number: int
    text: str
    armed_at: int | None = None
    buzzes: dict[str, Buzz] = field(default_factory=dict)
    """Each player's buzz, in arrival order (a dict: "has Ann buzzed?" is asked per handset per change)."""
    locked_out: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    answering: str | None = None
    right: str | None = None
    closed: bool = False
    """Over: answered right, closed by the quizmaster, or nobody left who may buzz."""

    def order(self) -> list[Buzz]:
        """Every buzz by press time (rules.md Buzzer 2), then by arrival for equal times."""
        return sorted(self.buzzes.values(), key=Buzz.key)

    def buzzed(self, player: str) -> bool:
        return player in self.buzzes

    def next_in_line(self) -> str | None:
        """The earliest press neither judged nor answering now."""
        for buzz in self.order():
            if buzz.player not in self.wrong and buzz.player != self.answering:
                return buzz.player
        return None

    def snapshot(self) -> JSON:
        return {
            "number": self.number,
            "text": self.text,
            "armed_at": self.armed_at,
            "buzzes": [{"player": b.player, "at": b.at, "arrival": b.arrival} for b in self.buzzes.values()],
            "locked_out": list(self.locked_out),
            "wrong": list(self.wrong),
            "answering": self.answering,
            "right": self.right,
            "closed": self.closed,
        }
