"""Typed, immutable deck records (deck file format v1, /work/notes/deck-format.md).

A :class:`Deck` holds cards of one type: :class:`EstimationCard` (Confident? and estimation poker),
:class:`AllInCard`, :class:`SquizzCard` or :class:`BuzzerCard` (the buzzer round).
Records are only built by :mod:`appliance.decks.validate`
(from a file or the admin page), so every value here has passed every check: numbers are exact
:class:`~decimal.Decimal` values, texts are stripped, limits hold. A :class:`Problem` is one reason a
deck was refused, with where it is in the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Literal

DeckType = Literal["estimation", "allin", "squizz", "buzzer"]
DECK_TYPES: tuple[DeckType, ...] = ("estimation", "allin", "squizz", "buzzer")

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")

CATEGORIES: tuple[str, ...] = (
    # the ten named by the format note
    "space",
    "history",
    "food",
    "sport",
    "nature",
    "geography",
    "science",
    "people",
    "pop-culture",
    "money",
    # a few more, mostly for All In's personal statements
    "animals",
    "music",
    "art",
    "technology",
    "language",
    "travel",
    "work",
    "home",
    "school",
    "love",
    "life",
)
"""The category vocabulary: a card's ``category`` must be one of these."""

Label = Literal["A", "B", "C"]
LABELS: tuple[Label, ...] = ("A", "B", "C")


@dataclass(frozen=True)
class CardBase:
    """What every card has: an id unique in its deck, a category, a difficulty, a family flag, tags; and
    what any card may have: a picture (``image``) and a sound (``audio``), each the name of a file of the
    deck's media (in a deck's zip, its path there; on the box, its media reference: see
    :mod:`appliance.decks.bundle`), or None."""

    id: str
    category: str
    difficulty: Difficulty
    family: bool
    tags: tuple[str, ...]
    image: str | None = field(default=None, kw_only=True)
    audio: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class EstimationCard(CardBase):
    """A question with one exact numeric answer, two hints that narrow it down, a fact and a source."""

    question: str
    answer: Decimal
    unit: str
    fact: str
    hints: tuple[str, str]
    source: str


@dataclass(frozen=True)
class AllInCard(CardBase):
    """Three personal statements; the reader picks one and answers it True or False (rules.md All In 3)."""

    statements: tuple[str, str, str]


@dataclass(frozen=True)
class Proposition:
    """One of a sQuizz card's three answers: its letter (A, B or C: its position on the card), its text (what
    the deck file calls its ``label``, as the board shows it) and its exact value (rules.md sQuizz 4)."""

    letter: Label
    text: str
    value: Decimal


@dataclass(frozen=True)
class SquizzCard(CardBase):
    """A prompt and three propositions whose values are all different (rules.md sQuizz 4)."""

    prompt: str
    unit: str
    propositions: tuple[Proposition, Proposition, Proposition]
    source: str


@dataclass(frozen=True)
class BuzzerCard(CardBase):
    """A question with a short answer the quizmaster judges at a glance, the other answers that also count
    (``alternatives``: "Holland" beside "the Netherlands", possibly none) and a source."""

    question: str
    answer: str
    alternatives: tuple[str, ...]
    source: str


Card = EstimationCard | AllInCard | SquizzCard | BuzzerCard

def with_media(card: Card, image: str | None, audio: str | None) -> Card:
    """The card with this picture and sound (None: none)."""
    return replace(card, image=image, audio=audio)


CARD_CLASSES: dict[DeckType, type[EstimationCard] | type[AllInCard] | type[SquizzCard] | type[BuzzerCard]] = {
    "estimation": EstimationCard,
    "allin": AllInCard,
    "squizz": SquizzCard,
    "buzzer": BuzzerCard,
}


@dataclass(frozen=True)
class DeckInfo:
    """A deck's description: everything but the cards (a CSV file carries cards only)."""

    id: str
    name: str
    type: DeckType
    description: str = ""
    language: str = "en"


@dataclass(frozen=True)
class Deck:
    """A validated deck: its description and its cards, all of ``info.type``, ids unique."""

    info: DeckInfo
    cards: tuple[Card, ...]

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def type(self) -> DeckType:
        return self.info.type

    def card(self, card_id: str) -> Card:
        """The card with this id; raises KeyError naming the deck when there is none."""
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(f"deck {self.info.id!r} has no card {card_id!r}")


@dataclass(frozen=True)
class Problem:
    """One reason a deck is refused, located in the file.

    ``line`` is the 1-based line of a CSV file (or of a JSON syntax error); ``card`` is the 1-based
    position of the card in the file's ``cards`` list (JSON) and ``card_id`` its id when it has one;
    ``field`` names the JSON field (0-based: ``hints[1]`` is the second hint, ``propositions[0].value``)
    or the CSV column (``hint2``, ``a_value``).
    ``file`` names the file when several are read (the shipped decks). All are None where they do not
    apply (a problem with the whole file).
    """

    message: str
    file: str | None = None
    line: int | None = None
    card: int | None = None
    card_id: str | None = None
    field: str | None = None

    def where(self) -> str:
        """The location in words: ``line 7 (est-0006), column 'answer'``, ``card 3 (est-0003), field
        'hints[1]'``, ``estimation-space.json card 2``; ``file`` for a problem with the whole file."""
        parts: list[str] = [self.file] if self.file is not None else []
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.card is not None:
            parts.append(f"card {self.card}")
        if self.card_id is not None:
            parts.append(
                f"({self.card_id})" if self.line is not None or self.card is not None else f"card {self.card_id}"
            )
        place = " ".join(parts)
        if self.field is not None:
            what = "column" if self.line is not None and self.card is None else "field"
            place = f"{place}, {what} {self.field!r}" if place else f"{what} {self.field!r}"
        return place or "file"

    def __str__(self) -> str:
        return f"{self.where()}: {self.message}"
