"""Estimation poker state records: the phases, one question, and how its pots were paid."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from appliance.games.base import JSON
from appliance.games.numbers import format_plain
from appliance.games.poker.betting import Round
from appliance.games.poker.pots import Pot
from appliance.games.ranges import Range

REVEALS = 3
"""Hint 1, hint 2, then the answer: one after each of betting rounds 1-3 (seed 002)."""


class Phase(StrEnum):
    WAITING = "waiting"
    """No question yet: waiting for the host to start the first one."""
    RANGES = "ranges"
    """The question is shown; players enter their secret ranges until the host starts betting."""
    BETTING = "betting"
    """Betting rounds 1-4; hints and the answer appear as rounds end."""
    SHOWDOWN = "showdown"
    """The question is settled; folded players may show their ranges; waiting for the next one."""
    OVER = "over"


class Ending(StrEnum):
    LAST_WITH_CHIPS = "last_with_chips"
    """One player has all the chips (rules.md Estimation poker 12)."""
    STOPPED = "stopped"
    """The host stopped the game or the deck ran out: most chips wins, ties share (rules.md 12)."""


@dataclass(frozen=True)
class PotResult:
    """One pot as it was paid: the eligible players, the winners and each winner's share."""

    pot: Pot
    winners: tuple[str, ...]
    shares: dict[str, int]

    def to_json(self) -> JSON:
        return {
            "amount": self.pot.amount,
            "eligible": list(self.pot.eligible),
            "winners": list(self.winners),
            "shares": dict(self.shares),
        }


@dataclass(frozen=True)
class Outcome:
    """How a question ended: the pots (after uncalled chips went back), whose ranges the showdown
    showed, and the uncalled chips returned."""

    pots: tuple[PotResult, ...]
    shown: tuple[str, ...]
    returned: dict[str, int]
    showdown: bool

    def to_json(self) -> JSON:
        return {
            "pots": [p.to_json() for p in self.pots],
            "shown": list(self.shown),
            "returned": dict(self.returned),
            "showdown": self.showdown,
        }


@dataclass
class Question:
    """One question: open until ``outcome`` is set, then kept as the record of what happened."""

    number: int
    text: str
    answer: Decimal
    hints: tuple[str, ...]
    ante: int
    first: str
    """The question's first actor (rules.md 2); also where the odd-chip search starts (rules.md 10)."""
    dealt: tuple[str, ...]
    """Players with chips when it started, seat order: everyone else is out."""
    put_in: dict[str, int]
    """Chips each dealt player has put in this question, antes included."""
    ranges: dict[str, Range] = field(default_factory=dict)
    folded: set[str] = field(default_factory=set)
    round: Round | None = None
    revealed: int = 0
    """How many of hint 1, hint 2 and the answer are shown."""
    outcome: Outcome | None = None
    shown_by_choice: list[str] = field(default_factory=list)

    @property
    def settled(self) -> bool:
        return self.outcome is not None

    def live(self) -> list[str]:
        """Dealt players who have not folded, seat order."""
        return [p for p in self.dealt if p not in self.folded]

    def hints_shown(self) -> list[str]:
        return list(self.hints[: min(self.revealed, len(self.hints))])

    @property
    def answer_shown(self) -> bool:
        return self.revealed >= REVEALS

    def shown_ranges(self) -> dict[str, Range]:
        """Ranges the table may see: the showdown's, then voluntary reveals (rules.md 11)."""
        shown = list(self.outcome.shown) if self.outcome else []
        return {p: self.ranges[p] for p in self.dealt if p in shown or p in self.shown_by_choice}

    def snapshot(self) -> JSON:
        return {
            "number": self.number,
            "question": self.text,
            "answer": str(self.answer),
            "hints": list(self.hints),
            "ante": self.ante,
            "first": self.first,
            "dealt": list(self.dealt),
            "put_in": dict(self.put_in),
            "ranges": {p: [str(r.low), str(r.high)] for p, r in self.ranges.items()},
            "folded": sorted(self.folded),
            "round": self.round.snapshot() if self.round else None,
            "revealed": self.revealed,
            "outcome": self.outcome.to_json() if self.outcome else None,
            "shown_by_choice": list(self.shown_by_choice),
        }

    def answer_text(self) -> str:
        return format_plain(self.answer)
