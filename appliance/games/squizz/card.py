"""A sQuizz card as the engine deals it: a prompt and three propositions A, B, C with exact values.

Cards whose three values are not all different are refused with :class:`DeckError` (rules.md
sQuizz 4): the die's smallest / middle / largest would not name one proposition. Decks are checked
on import by :mod:`appliance.decks.validate`; :meth:`Card.from_deck` deals one of those records, and
:func:`card_from_scenario` reads the scenario file form ``{"prompt", "propositions": [{"label": "Yoda",
"value": "900"}, ...]}``: as the contract (shared/scenarios/README.md, sQuizz) has it, ``label`` is the
proposition's text as the board shows it and its letter is its position (first A, second B, third C).
The older Quizbox form ``{"label": "A", "value": "900", "text": "Yoda"}`` still reads: with ``text``,
the label must be the position's letter; a label that is its position's letter stands for no text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar, Self

from appliance.decks.model import SquizzCard
from appliance.errors import DeckError, MalformedInput
from appliance.games.base import HOST, JSON, Action
from appliance.games.numbers import check_number, format_plain, parse_number

LETTERS = ("A", "B", "C")

REQUIRED_KEYS = frozenset({"label", "value"})
"""Keys of a proposition in the scenario form; ``text`` is optional."""

TARGETS = {1: "smallest", 2: "middle", 3: "largest"}
"""Die face -> which value the players must identify (seed 004, "Round"; rules.md sQuizz 3)."""


@dataclass(frozen=True)
class Card(Action):
    """The host deals the question's card; ``texts[i]`` and ``values[i]`` belong to ``LETTERS[i]``.
    A text may be empty (a scenario needs only the values); the values must all differ."""

    kind: ClassVar[str] = "card"
    prompt: str
    texts: tuple[str, ...]
    values: tuple[Decimal, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.prompt, str) or not self.prompt.strip():
            raise DeckError(f"a sQuizz card needs a prompt, got {self.prompt!r}")
        for name in ("texts", "values"):
            items = getattr(self, name)
            if not isinstance(items, tuple | list) or len(items) != len(LETTERS):
                raise DeckError(f"a sQuizz card has {len(LETTERS)} {name} (A, B, C), got {items!r}")
            object.__setattr__(self, name, tuple(items))
        for letter, text, value in zip(LETTERS, self.texts, self.values, strict=True):
            if not isinstance(text, str):
                raise DeckError(f"proposition {letter}'s text must be text, got {text!r}")
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

    @classmethod
    def from_deck(cls, card: SquizzCard) -> Self:
        """The host's card action for a validated deck card."""
        return cls(
            HOST, card.prompt, tuple(p.text for p in card.propositions), tuple(p.value for p in card.propositions)
        )

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
                {"label": letter, "value": format_plain(value), "text": text}
                for letter, text, value in zip(LETTERS, self.texts, self.values, strict=True)
            ],
        }


def card_from_scenario(data: object) -> Card:
    """The host's card from the scenario form (module docstring); values are text in any form
    :func:`parse_number` reads. Anything else is a :class:`DeckError` naming the proposition."""
    if not isinstance(data, Mapping):
        raise DeckError(f"a sQuizz card is an object with prompt and propositions, got {data!r}")
    prompt = data.get("prompt")
    if not isinstance(prompt, str):
        raise DeckError(f"a sQuizz card needs a prompt (text), got {prompt!r}")
    propositions = data.get("propositions")
    if not isinstance(propositions, list) or len(propositions) != len(LETTERS):
        raise DeckError(f"a sQuizz card has {len(LETTERS)} propositions (A, B, C), got {propositions!r}")
    texts: list[str] = []
    values: list[Decimal] = []
    for letter, proposition in zip(LETTERS, propositions, strict=True):
        keys = set(proposition) if isinstance(proposition, Mapping) else set()
        if not REQUIRED_KEYS <= keys <= REQUIRED_KEYS | {"text"}:
            raise DeckError(f'proposition {letter} is {{"label", "value", optional "text"}}, got {proposition!r}')
        label = proposition["label"]
        if not isinstance(label, str):
            raise DeckError(f"proposition {letter}'s label is its text, got {label!r}")
        if "text" in proposition and label != letter:
            raise DeckError(
                f"proposition {letter} is labelled {label!r} and has a text; with a text, labels go A, B, C in order"
            )
        value = proposition["value"]
        if not isinstance(value, str):
            raise DeckError(f"proposition {letter}'s value is written as text, got {value!r}")
        try:
            values.append(parse_number(value))
        except MalformedInput as exc:
            raise DeckError(f"proposition {letter}'s value: {exc}") from exc
        texts.append(proposition.get("text", "" if label == letter else label))
    return Card(HOST, prompt, tuple(texts), tuple(values))
