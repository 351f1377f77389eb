"""A sQuizz card as the engine deals it: a prompt and three propositions A, B, C with exact values.

Cards whose three values are not all different are refused with :class:`DeckError` (rules.md
sQuizz 4): the die's smallest / middle / largest would not name one proposition. Decks are checked
on import by :mod:`appliance.decks.validate`, and :func:`card_from_scenario` reads the scenario file
form ``{"prompt", "propositions": [{"label": "Yoda", "value": "900"}, ...]}``.

A proposition's ``label`` is its text, as the board shows it ("Eiffel Tower"); its letter is its
position: the first is A, the second B, the third C (docs/rules.md sQuizz 4). Decks, the dealt card
fields and the board's view use the same meaning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar, Self

from appliance.errors import DeckError, MalformedInput
from appliance.games import fields
from appliance.games.base import HOST, JSON, Action
from appliance.games.numbers import check_number, format_plain, parse_number

LETTERS = ("A", "B", "C")

PROPOSITION_KEYS = frozenset({"label", "value"})
"""Keys of a proposition in the scenario form: its text (``label``) and its value."""
CARD_KEYS = frozenset({"prompt", "propositions"})
"""Keys of a card in the scenario form (which proposition is right follows from the question's die)."""

TARGETS = {1: "smallest", 2: "middle", 3: "largest"}
"""Die face -> which value the players must identify (seed 004, "Round"; rules.md sQuizz 3)."""


@dataclass(frozen=True)
class DealCard(Action):
    """The host deals the question's card; ``texts[i]`` and ``values[i]`` belong to ``LETTERS[i]``.
    A text may be empty (a scenario needs only the values); the values must all differ."""

    kind: ClassVar[str] = "card"
    prompt: str
    texts: tuple[str, ...]
    values: tuple[Decimal, ...]

    def __post_init__(self) -> None:
        fields.text(self.prompt, "a sQuizz card needs a prompt", error=DeckError)
        for name in ("texts", "values"):
            items = getattr(self, name)
            if not isinstance(items, tuple | list) or len(items) != len(LETTERS):
                raise DeckError(f"a sQuizz card has {len(LETTERS)} {name} (A, B, C), got {items!r}")
            object.__setattr__(self, name, tuple(items))
        for letter, text, value in zip(LETTERS, self.texts, self.values, strict=True):
            fields.text(text, f"proposition {letter}'s text must be text", blank=True, error=DeckError)
            try:
                check_number(value, f"proposition {letter}'s value")
            except MalformedInput as exc:
                raise DeckError(str(exc)) from exc
        if len(set(self.values)) != len(LETTERS):
            shown = ", ".join(f"{x} {format_plain(v)}" for x, v in zip(LETTERS, self.values, strict=True))
            raise DeckError(f"the three values must all be different (rules.md sQuizz 4), got {shown}")

    @classmethod
    def from_json(cls, fields: Mapping[str, Any]) -> Self:
        """Rebuild from :meth:`Action.to_json` output. The log stores each value as ``str(Decimal)``,
        read back with ``Decimal`` so the value is exactly the one logged (``0.00`` stays ``0.00``);
        ``__post_init__`` then bounds it like any other card value."""
        values = fields.get("values")
        if not isinstance(values, list | tuple) or not all(isinstance(v, str) for v in values):
            raise MalformedInput(f"a logged sQuizz card has its values as text, got {values!r}")
        try:
            exact = tuple(Decimal(v) for v in values)
        except InvalidOperation as exc:
            raise MalformedInput(f"a logged sQuizz card value is not a number: {values!r}") from exc
        return cls(**{**fields, "values": exact})

    def letter_for(self, die: int) -> str:
        """The correct answer for a die face: 1 smallest, 2 middle, 3 largest value."""
        ranked = sorted(range(len(LETTERS)), key=lambda i: self.values[i])
        return LETTERS[ranked[die - 1]]

    def values_by_letter(self) -> dict[str, str]:
        """The values by letter, in the plain decimal output form."""
        return {letter: format_plain(v) for letter, v in zip(LETTERS, self.values, strict=True)}

    def texts_by_letter(self) -> dict[str, str]:
        return dict(zip(LETTERS, self.texts, strict=True))

    def scenario_json(self) -> JSON:
        """The card in the scenario form :func:`card_from_scenario` reads."""
        return {
            "prompt": self.prompt,
            "propositions": [
                {"label": text, "value": format_plain(value)}
                for text, value in zip(self.texts, self.values, strict=True)
            ],
        }


def card_from_scenario(data: object) -> DealCard:
    """The host's card from the scenario form (module docstring); values are text in any form
    :func:`parse_number` reads. Anything else is a :class:`DeckError` naming the proposition."""
    if not isinstance(data, Mapping):
        raise DeckError(f"a sQuizz card is an object with prompt and propositions, got {data!r}")
    unknown = sorted(set(data) - CARD_KEYS)
    if unknown:
        raise DeckError(f"unknown sQuizz card key(s) {', '.join(map(str, unknown))} in {dict(data)!r} (a card has "
                        "prompt and propositions; which one is right follows from the question's die)")
    prompt = data.get("prompt")
    prompt = fields.text(prompt, "a sQuizz card needs a prompt (text)", blank=True, error=DeckError)
    propositions = data.get("propositions")
    if not isinstance(propositions, list) or len(propositions) != len(LETTERS):
        raise DeckError(f"a sQuizz card has {len(LETTERS)} propositions (A, B, C), got {propositions!r}")
    texts: list[str] = []
    values: list[Decimal] = []
    for letter, proposition in zip(LETTERS, propositions, strict=True):
        keys = set(proposition) if isinstance(proposition, Mapping) else set()
        if keys != PROPOSITION_KEYS:
            raise DeckError(
                f'proposition {letter} is {{"label": its text, "value"}} (its letter is its position), '
                f"got {proposition!r}"
            )
        label = proposition["label"]
        label = fields.text(label, f"proposition {letter}'s label is its text", blank=True, error=DeckError)
        value = fields.text(proposition["value"], f"proposition {letter}'s value is written as text", blank=True,
                            error=DeckError)
        try:
            values.append(parse_number(value))
        except MalformedInput as exc:
            raise DeckError(f"proposition {letter}'s value: {exc}") from exc
        texts.append(label)
    return DealCard(HOST, prompt, tuple(texts), tuple(values))
