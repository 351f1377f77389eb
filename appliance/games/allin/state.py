"""All In state records: the phases, how a game ended, and one question's record."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from appliance.games.allin.actions import Split
from appliance.games.base import JSON


class Phase(StrEnum):
    CARD = "card"
    """Between questions: waiting for the host to deal the next card."""
    READING = "reading"
    """The reader picks a statement, answers it and may exclude a player."""
    BETTING = "betting"
    """The bettors split their chips; the reveal follows the last split or the host's close."""
    OVER = "over"


class Ending(StrEnum):
    LAST_WITH_CHIPS = "last_with_chips"
    """Exactly one player has chips (rules.md All In 6)."""
    NOBODY_WITH_CHIPS = "nobody_with_chips"
    """Nobody has chips: the reader of that question wins (rules.md All In 6)."""
    DECK_OUT = "deck_out"
    """The host ended the game: most chips wins, ties share (rules.md All In 6)."""


@dataclass
class Question:
    """One question: open until ``revealed``, then kept as the record of what happened."""

    number: int
    reader: str
    statements: tuple[str, ...]
    pick: int | None = None
    answer: bool | None = None
    excluded: str | None = None
    bettors: tuple[str, ...] = ()
    """Who bets: after a close, only those who had split (the rest are in ``sat_out``)."""
    splits: dict[str, Split] = field(default_factory=dict)
    closed: str | None = None
    """Why the host closed the splits (a ``CloseReason`` value); None when every split came in."""
    sat_out: tuple[str, ...] = ()
    """Bettors who had not split when the host closed: they keep their chips, as if excluded."""
    lost: dict[str, int] = field(default_factory=dict)
    chips_after: dict[str, int] = field(default_factory=dict)
    revealed: bool = False

    @property
    def waiting_for(self) -> list[str]:
        """Bettors who have not split yet, in seat order."""
        return [p for p in self.bettors if p not in self.splits]

    def snapshot(self) -> JSON:
        return {
            "number": self.number,
            "reader": self.reader,
            "statements": list(self.statements),
            "pick": self.pick,
            "answer": self.answer,
            "excluded": self.excluded,
            "bettors": list(self.bettors),
            "splits": {p: split_json(s) for p, s in self.splits.items()},
            "closed": self.closed,
            "sat_out": list(self.sat_out),
            "lost": dict(self.lost),
            "chips_after": dict(self.chips_after),
            "revealed": self.revealed,
        }


def split_json(split: Split) -> JSON:
    return {"true": split.on_true, "false": split.on_false}
