"""A sQuizz card: a prompt and three propositions A, B, C with exact values (rules.md sQuizz 4).

:func:`card_from_json` reads a card as decks and scenario files write it and refuses, with
:class:`DeckError`, one whose three values are not all different: the die's smallest / middle /
largest would not name one proposition.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar, Self

from appliance.errors import DeckError, MalformedInput
from appliance.games.base import HOST, JSON, Action
from appliance.games.numbers import check_number, format_plain, parse_number

LETTERS = ("A", "B", "C")

TARGETS = {1: "smallest", 2: "middle", 3: "largest"}
"""Die face -> which value the players must identify (seed 004, "Round"; rules.md sQuizz 3)."""


@dataclass(frozen=True)
class Card(Action):
    """The host deals the question's card; ``labels[i]`` and ``values[i]`` belong to ``LETTERS[i]``."""

    kind: ClassVar[str] = "card"
    prompt: str
    labels: tuple[str, ...]
    values: tuple[Decimal, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.prompt, str) or not self.prompt.strip():
            raise DeckError(f"a sQuizz card needs a prompt, got {self.prompt!r}")
        for name in ("labels", "values"):
            items = getattr(self, name)
            if not isinstance(items, tuple | list) or len(items) != len(LETTERS):
                raise DeckError(f"a sQuizz card has {len(LETTERS)} {name} (A, B, C), got {items!r}")
            object.__setattr__(self, name, tuple(items))
        for letter, label, value in zip(LETTERS, self.labels, self.values, strict=True):
            if not isinstance(label, str) or not label.strip():
                raise DeckError(f"proposition {letter} needs a label, got {label!r}")
            try:
                check_number(value, f"proposition {letter}'s value")
            except MalformedInput as exc:
                raise DeckError(str(exc)) from exc
        if len(set(self.values)) != len(LETTERS):
            shown = ", ".join(f"{x} {format_plain(v)}" for x, v in zip(LETTERS, self.values, strict=True))
            raise DeckError(f"the three values must all be different (rules.md sQuizz 4), got {shown}")

    @classmethod
    def from_json(cls, fields: Mapping[str, Any]) -> Self:
        """Rebuild from :meth:`Action.to_json` output (values are stored as text in the log)."""
        values = fields.get("values")
        if not isinstance(values, list | tuple) or not all(isinstance(v, str) for v in values):
            raise MalformedInput(f"a logged sQuizz card has its values as text, got {values!r}")
        return cls(**{**fields, "values": tuple(parse_number(v) for v in values)})

    def letter_for(self, die: int) -> str:
        """The correct answer for a die face: 1 smallest, 2 middle, 3 largest value."""
        ranked = sorted(range(len(LETTERS)), key=lambda i: self.values[i])
        return LETTERS[ranked[die - 1]]

    def values_by_letter(self) -> dict[str, str]:
        """The values by letter, in the plain decimal output form."""
        return {letter: format_plain(v) for letter, v in zip(LETTERS, self.values, strict=True)}

    def labels_by_letter(self) -> dict[str, str]:
        return dict(zip(LETTERS, self.labels, strict=True))

    def to_deck_json(self) -> JSON:
        """The card in the deck / scenario form that :func:`card_from_json` reads."""
        return {
            "prompt": self.prompt,
            "propositions": [
                {"label": label, "value": format_plain(value)}
                for label, value in zip(self.labels, self.values, strict=True)
            ],
        }


def card_from_json(data: object) -> Card:
    """A card from ``{"prompt", "propositions": [{"label", "value"} x 3]}`` (A, B, C in order);
    values are text in any form :func:`parse_number` reads. The card is dealt by the host."""
    if not isinstance(data, Mapping):
        raise DeckError(f"a sQuizz card is an object with prompt and propositions, got {data!r}")
    prompt = data.get("prompt")
    if not isinstance(prompt, str):
        raise DeckError(f"a sQuizz card needs a prompt (text), got {prompt!r}")
    propositions = data.get("propositions")
    if not isinstance(propositions, list) or len(propositions) != len(LETTERS):
        raise DeckError(f"a sQuizz card has {len(LETTERS)} propositions (A, B, C), got {propositions!r}")
    labels: list[str] = []
    values: list[Decimal] = []
    for letter, proposition in zip(LETTERS, propositions, strict=True):
        if not isinstance(proposition, Mapping) or set(proposition) != {"label", "value"}:
            raise DeckError(f'proposition {letter} is {{"label", "value"}}, got {proposition!r}')
        value = proposition["value"]
        if not isinstance(value, str):
            raise DeckError(f"proposition {letter}'s value is written as text, got {value!r}")
        try:
            values.append(parse_number(value))
        except MalformedInput as exc:
            raise DeckError(f"proposition {letter}'s value: {exc}") from exc
        labels.append(proposition["label"])
    return Card(HOST, prompt, tuple(labels), tuple(values))
