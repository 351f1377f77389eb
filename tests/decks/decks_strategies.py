"""Hypothesis strategies for valid decks of every type, built as records (so a round trip can compare)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import strategies as st

from appliance.decks.hints import read_hint
from appliance.decks.model import (
    CATEGORIES,
    DECK_TYPES,
    DIFFICULTIES,
    LABELS,
    AllInCard,
    BuzzerCard,
    Card,
    Deck,
    DeckInfo,
    DeckType,
    EstimationCard,
    Proposition,
    SquizzCard,
)
from appliance.decks.validate import MAX_LENGTH, MAX_TAGS, normalise, question_keys
from appliance.games.numbers import format_plain

_ALPHABET = st.sampled_from(
    list("abcxyzABCXYZ0123456789 .,;:!?'\"()[]{}<>/\\|=+-*@#%&_^~`$")
    + ["é", "ß", "ñ", "€", "°", "²", "中", "日", "😀", "\u00a0", "\u200d", "\u2028"]
)
_LOWER = st.sampled_from(list("abcdefghijklmnopqrstuvwxyz0123456789"))
_RISKY_STARTS = ["=", "+", "-", "@", "'", "''", "'=", "'-", "=cmd|' /C calc'!A0", "-2+3", "@SUM(A1)"]


def texts(limit: str, *, empty: bool = False) -> st.SearchStrategy[str]:
    """Text as the validator keeps it: stripped, no control characters, within the limit; often starting
    with a character a spreadsheet would run as a formula."""
    body = st.text(_ALPHABET, max_size=24)
    raw = st.one_of(body, st.builds(lambda a, b: a + b, st.sampled_from(_RISKY_STARTS), body))
    stripped = raw.map(str.strip).filter(lambda t: len(t) <= MAX_LENGTH[limit])
    return stripped if empty else stripped.filter(lambda t: bool(t) and bool(normalise(t)))


numbers = st.builds(
    lambda digits, places: Decimal(digits).scaleb(-places),
    st.integers(min_value=-(10**15), max_value=10**15),
    st.integers(min_value=0, max_value=12),
)
ids = st.builds(lambda first, rest: first + rest, _LOWER, st.text(st.one_of(_LOWER, st.just("-")), max_size=15))
tags = st.lists(
    st.builds(lambda first, rest: first + rest, _LOWER, st.text(st.one_of(_LOWER, st.just("-")), max_size=9)),
    max_size=MAX_TAGS,
    unique=True,
).map(tuple)


def _common() -> st.SearchStrategy[dict[str, object]]:
    return st.fixed_dictionaries(
        {
            "id": ids,
            "category": st.sampled_from(CATEGORIES),
            "difficulty": st.sampled_from(DIFFICULTIES),
            "family": st.booleans(),
            "tags": tags,
        }
    )


@st.composite
def estimation_cards(draw: st.DrawFn) -> EstimationCard:
    answer = draw(numbers)
    unit = draw(texts("unit", empty=True))
    if draw(st.booleans()):
        hints = (f"More than {format_plain(answer - 1)}.", f"Less than {format_plain(answer + 1)} {unit}".strip())
    else:
        free = texts("hint").filter(lambda h: read_hint(h, unit) is None)
        first = draw(free)
        second = draw(free.filter(lambda h: normalise(h) != normalise(first)))
        hints = (first, second)
    return EstimationCard(
        **draw(_common()),  # type: ignore[arg-type]
        question=draw(texts("question")),
        answer=answer,
        unit=unit,
        fact=draw(texts("fact")),
        hints=hints,
        source=draw(texts("source")),
    )


@st.composite
def allin_cards(draw: st.DrawFn) -> AllInCard:
    statements = draw(st.lists(texts("statement"), min_size=3, max_size=3, unique_by=normalise))
    return AllInCard(**draw(_common()), statements=tuple(statements))  # type: ignore[arg-type]


@st.composite
def squizz_cards(draw: st.DrawFn) -> SquizzCard:
    values = draw(st.lists(numbers, min_size=3, max_size=3, unique=True))
    names = draw(st.lists(texts("text"), min_size=3, max_size=3, unique_by=normalise))
    propositions = tuple(
        Proposition(letter, text, value) for letter, text, value in zip(LABELS, names, values, strict=True)
    )
    return SquizzCard(
        **draw(_common()),  # type: ignore[arg-type]
        prompt=draw(texts("prompt")),
        unit=draw(texts("unit", empty=True)),
        propositions=propositions,  # type: ignore[arg-type]
        source=draw(texts("source")),
    )


@st.composite
def buzzer_cards(draw: st.DrawFn) -> BuzzerCard:
    answers = draw(
        st.lists(texts("answer").filter(lambda t: ";" not in t), min_size=1, max_size=4, unique_by=normalise)
    )
    return BuzzerCard(
        **draw(_common()),  # type: ignore[arg-type]
        question=draw(texts("question")),
        answer=answers[0],
        alternatives=tuple(answers[1:]),
        source=draw(texts("source")),
    )


CARDS: dict[DeckType, st.SearchStrategy[Card]] = {
    "estimation": estimation_cards(),
    "allin": allin_cards(),
    "squizz": squizz_cards(),
    "buzzer": buzzer_cards(),
}


def _distinct(cards: list[Card]) -> bool:
    keys = [key for card in cards for key in question_keys(card)]
    return len(keys) == len(set(keys))


@st.composite
def decks(draw: st.DrawFn, deck_type: DeckType | None = None) -> Deck:
    """A valid deck: unique card ids, no question twice."""
    kind: DeckType = deck_type if deck_type is not None else draw(st.sampled_from(DECK_TYPES))
    cards = draw(st.lists(CARDS[kind], min_size=1, max_size=4, unique_by=lambda c: c.id).filter(_distinct))
    info = DeckInfo(
        id=draw(ids),
        name=draw(texts("name")),
        type=kind,
        description=draw(texts("description", empty=True)),
        language=draw(st.sampled_from(["en", "fr", "en-GB", "pt-BR"])),
    )
    return Deck(info=info, cards=tuple(cards))
