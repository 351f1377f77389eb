"""All In inputs (seed 003; rules.md "All In"): the host deals a card, the reader reads, bettors split;
the host may close the splits without the bettors still missing.

Each input is a frozen record. ``__post_init__`` refuses what cannot be read at all (a wrong type,
a card without three statements) with :class:`MalformedInput`; whether the rules accept a
well-formed input now is the engine's ``verify_<kind>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from appliance.errors import DeckError, MalformedInput
from appliance.games import fields
from appliance.games.base import HOST, Action, CloseInputs
from appliance.games.base import CloseReason as CloseReason  # re-exported: the reasons of this close

STATEMENTS = 3
"""A card holds three statements (rules.md All In 3)."""


def _whole(name: str, value: object) -> None:
    fields.whole(value, f"{name} must be a whole number")


@dataclass(frozen=True)
class StartQuestion(Action):
    """The host deals the next card: three statements (the session draws it from the deck)."""

    kind: ClassVar[str] = "card"
    statements: tuple[str, ...]

    def __post_init__(self) -> None:
        statements = self.statements
        if isinstance(statements, str) or not isinstance(statements, tuple | list):
            raise DeckError(f"an All In card holds a list of {STATEMENTS} statements, got {statements!r}")
        if len(statements) != STATEMENTS:
            raise DeckError(f"an All In card holds {STATEMENTS} statements, got {len(statements)}")
        for number, text in enumerate(statements, 1):
            fields.text(text, f"statement {number} of the card must be non-empty text", error=DeckError)
        object.__setattr__(self, "statements", tuple(statements))

    @classmethod
    def deal(cls, statements: tuple[str, ...] | list[str]) -> Self:
        """The host's card action (``player`` is always :data:`HOST`)."""
        return cls(HOST, tuple(statements))


@dataclass(frozen=True)
class Read(Action):
    """The reader picks a statement (0-2), answers it secretly, and may play their exclusion card."""

    kind: ClassVar[str] = "read"
    pick: int
    answer: bool
    exclude: str | None = None

    def __post_init__(self) -> None:
        _whole("pick", self.pick)
        if not isinstance(self.answer, bool):
            raise MalformedInput(f"answer must be true or false, got {self.answer!r}")
        if self.exclude is not None and not isinstance(self.exclude, str):
            raise MalformedInput(f"exclude must be a player's name, got {self.exclude!r}")


@dataclass(frozen=True)
class Split(Action):
    """A bettor's secret split of ALL their chips between True and False."""

    kind: ClassVar[str] = "split"
    on_true: int
    on_false: int

    def __post_init__(self) -> None:
        _whole("chips on True", self.on_true)
        _whole("chips on False", self.on_false)


@dataclass(frozen=True)
class Close(CloseInputs):
    """The host closes the splits while some bettors have not split.

    The product's decision where the rulebook and rules.md All In are silent (a bettor whose
    handset is gone would otherwise hold the game forever): every bettor who has not split sits
    the question out and keeps all their chips, as if excluded (rules.md All In 4-5: nothing is
    created or lost for them); the splits that are in are revealed as when the last split is in.
    """

    missing: ClassVar[str] = "the splits"


@dataclass(frozen=True)
class EndGame(Action):
    """The host ends the game because the deck ran out (rules.md All In 6: most chips wins)."""

    kind: ClassVar[str] = "end"

    @classmethod
    def deck_out(cls) -> Self:
        return cls(HOST)
