"""The quality gate across card kinds (issue 35): no question asked twice in two kinds, no fact given two
values, buzzer answers short enough to judge at a glance, money always with its currency, and one family
flag for every card about the same subject.

Each check is its own test so a failure names the rule that broke; the checks themselves are tested on
made-up cards at the end, so each can fail.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal

import pytest

from appliance.decks import AllInCard, BuzzerCard, Card, Deck, EstimationCard, SquizzCard, shipped_decks
from tests.decks.test_deck_quality import cards_of, listing, rel_gap, similar_pairs, words

CROSS_KIND_WORDS_AT_LEAST = 0.6  # content words shared by an estimation and a buzzer question (Jaccard)
SAME_FACT_WITHIN = Decimal("0.15")  # two values of one fact this close (relative) are one value told twice

BUZZER_ANSWER_MAX = 32
"""Most characters of a buzzer answer or alternative: what a quizmaster reads at a glance on the answer card."""
LONG_ANSWERS: dict[str, bool] = {"buzzer": False, "estimation": True, "squizz": True, "allin": True}
"""Which deck types may hold answers longer than a buzzer can take: only buzzer decks are dealt to the buzzer
round (an estimation answer is typed on a handset, a sQuizz value is compared, an All In card has none)."""

CURRENCY = re.compile(
    r"[£$€¥₹]|\b(pounds?|pence|penny|dollars?|cents?|euros?|yen|rupees?|francs?|kronor|krona|roubles?|pesos?|bitcoins?)\b",
    re.IGNORECASE,
)
MONEY_TALK = re.compile(
    r"\b(cost|costs|paid|pay|lent|lend|borrowed|owe|owed|earned|earn|bank account|won more than|won at least|"
    r"prize of|spent more than|spend more than|tip of)\b",
    re.IGNORECASE,
)
AMOUNT = re.compile(r"\d")

ADULT_SUBJECTS: dict[str, re.Pattern[str]] = {
    "lotteries": re.compile(r"\blotter|\blotto\b|\bjackpot|\bpowerball|\beuromillions", re.IGNORECASE),
    "casinos and betting": re.compile(r"\bcasino|\bbetting\b|\bbookmaker|\bslot machine", re.IGNORECASE),
    "alcohol": re.compile(
        r"\b(beer|wine|whisky|whiskey|vodka|gin|rum|champagne|cocktail|alcohol|hangover|got drunk|pint of)\b",
        re.IGNORECASE,
    ),
}
"""Subjects the format calls not family (docs/decks.md, "family"): every card about one of them carries the same
family flag, so a family night gets all of a subject or none of it."""


@pytest.fixture(scope="module")
def decks() -> list[Deck]:
    return shipped_decks()


def card_texts(card: Card) -> list[str]:
    """What a card says, as the table hears or reads it."""
    if isinstance(card, EstimationCard):
        return [card.question]
    if isinstance(card, BuzzerCard):
        return [card.question, card.answer]
    if isinstance(card, AllInCard):
        return list(card.statements)
    return [card.prompt, *(p.text for p in card.propositions)]


# ---------------------------------------------------------------- the checks


def cross_kind_repeats(estimation: Sequence[EstimationCard], buzzer: Sequence[BuzzerCard]) -> list[tuple[str, ...]]:
    """Pairs of an estimation and a buzzer question that ask the same thing (their content words overlap)."""
    texts = [(c.id, c.question) for c in estimation] + [(c.id, c.question) for c in buzzer]
    split = len(estimation)
    return similar_pairs(texts, words_at_least=CROSS_KIND_WORDS_AT_LEAST, also=lambda i, j: i < split <= j)


def two_values_of_one_fact(
    estimation: Sequence[EstimationCard], squizz: Sequence[SquizzCard]
) -> list[tuple[str, str, str, str]]:
    """(card, value, other card, other value) where one fact is told with two different values: a sQuizz
    proposition whose prompt and text are all words of an estimation question in the same unit with a value
    close to its answer, or the same proposition on two sQuizz cards with two values."""
    found: list[tuple[str, str, str, str]] = []
    told: dict[tuple[str, frozenset[str], str], tuple[str, Decimal]] = {}
    for card in squizz:
        for p in card.propositions:
            subject = words(p.text)
            key = (card.unit, words(card.prompt), " ".join(sorted(subject)))
            earlier = told.setdefault(key, (card.id, p.value))
            if earlier[1] != p.value:
                found.append((earlier[0], str(earlier[1]), card.id, str(p.value)))
            asked = words(card.prompt) | subject
            for est in estimation:
                if est.unit != card.unit or est.answer == p.value or not subject:
                    continue
                if asked <= words(est.question) and rel_gap(est.answer, p.value) <= SAME_FACT_WITHIN:
                    found.append((est.id, str(est.answer), card.id, str(p.value)))
    return found


def too_long_for_a_buzzer(decks: Iterable[Deck]) -> list[tuple[str, str, str]]:
    """(deck, card, answer) for every answer longer than a buzzer can take in a deck type that may not."""
    long = []
    for deck in decks:
        if LONG_ANSWERS[deck.type]:
            continue
        for card in deck.cards:
            assert isinstance(card, BuzzerCard)
            long += [(deck.id, card.id, a) for a in (card.answer, *card.alternatives) if len(a) > BUZZER_ANSWER_MAX]
    return long


def money_without_currency(cards: Iterable[Card]) -> list[tuple[str, str]]:
    """(card, text) where a text talks money and gives an amount with no currency."""
    return [
        (card.id, text)
        for card in cards
        for text in card_texts(card)
        if MONEY_TALK.search(text) and AMOUNT.search(text) and not CURRENCY.search(text)
    ]


def family_disagreements(cards: Iterable[Card]) -> dict[str, list[tuple[str, bool]]]:
    """Each adult subject whose cards do not all carry the same family flag, with those cards and flags."""
    about: dict[str, list[tuple[str, bool]]] = {subject: [] for subject in ADULT_SUBJECTS}
    for card in cards:
        text = " ".join(card_texts(card))
        for subject, pattern in ADULT_SUBJECTS.items():
            if pattern.search(text):
                about[subject].append((card.id, card.family))
    return {s: found for s, found in about.items() if len({flag for _, flag in found}) > 1}


def all_cards(decks: list[Deck]) -> list[Card]:
    return [card for deck in decks for card in deck.cards]


# ---------------------------------------------------------------- the shipped decks


def test_no_buzzer_question_repeats_an_estimation_question(decks: list[Deck]) -> None:
    repeats = cross_kind_repeats(cards_of(decks, EstimationCard), cards_of(decks, BuzzerCard))
    assert repeats == [], listing(repeats)


def test_no_fact_is_told_with_two_different_values(decks: list[Deck]) -> None:
    found = two_values_of_one_fact(cards_of(decks, EstimationCard), cards_of(decks, SquizzCard))
    assert found == [], listing(found)


def test_every_answer_a_buzzer_round_deals_is_short_enough_to_judge_at_a_glance(decks: list[Deck]) -> None:
    assert {d.type for d in decks} <= set(LONG_ANSWERS), "a new deck type must say whether it allows long answers"
    long = too_long_for_a_buzzer(decks)
    assert long == [], listing(long)


def test_every_sum_of_money_names_its_currency(decks: list[Deck]) -> None:
    found = money_without_currency(all_cards(decks))
    assert found == [], listing(found)


def test_cards_about_the_same_adult_subject_share_one_family_flag(decks: list[Deck]) -> None:
    mixed = family_disagreements(all_cards(decks))
    assert mixed == {}, listing(mixed.items())


# ---------------------------------------------------------------- the checks themselves


def _est(card_id: str, question: str, answer: str, unit: str) -> EstimationCard:
    return EstimationCard(card_id, "geography", "easy", True, (), question, Decimal(answer), unit, "f", ("a", "b"), "s")


def _buzz(card_id: str, question: str, answer: str = "Lima", *alternatives: str) -> BuzzerCard:
    return BuzzerCard(card_id, "geography", "easy", True, (), question, answer, alternatives, "s")


def _sq(card_id: str, prompt: str, unit: str, *props: tuple[str, str]) -> SquizzCard:
    from appliance.decks import Proposition

    a, b, c = (Proposition(letter, text, Decimal(v)) for letter, (text, v) in zip("ABC", props, strict=True))
    return SquizzCard(card_id, "geography", "easy", True, (), prompt, unit, (a, b, c), "s")  # type: ignore[arg-type]


def test_the_cross_kind_check_finds_a_question_asked_in_two_kinds_and_spares_others() -> None:
    est = [_est("e1", "What is the capital city of Peru?", "1", ""), _est("e2", "How tall is Everest?", "8849", "m")]
    buzz = [_buzz("b1", "What is Peru's capital city?"), _buzz("b2", "Who painted Guernica?", "Picasso")]
    assert [(a, b) for a, _, b, _ in cross_kind_repeats(est, buzz)] == [("e1", "b1")]


def test_the_same_fact_check_finds_two_values_and_spares_different_facts() -> None:
    est = [_est("e1", "Australia's area, in square kilometres?", "7688287", "km²")]
    squizz = [
        _sq("s1", "Area of...", "km²", ("Canada", "9984670"), ("Australia", "7741220"), ("India", "3287263")),
        _sq("s2", "Area of...", "km²", ("Chile", "756102"), ("India", "3287590"), ("Peru", "1285216")),
        _sq("s3", "Coastline of...", "km", ("Australia", "25760"), ("Chile", "6435"), ("Peru", "2414")),
    ]
    found = two_values_of_one_fact(est, squizz)
    assert found == [("e1", "7688287", "s1", "7741220"), ("s1", "3287263", "s2", "3287590")]
    same = [_sq("s4", "Area of...", "km²", ("Canada", "9984670"), ("Australia", "7688287"), ("India", "3287263"))]
    assert two_values_of_one_fact(est, same) == []


def test_the_buzzer_length_check_spares_decks_that_allow_long_answers() -> None:
    from appliance.decks import DeckInfo

    long_answer = "The Lighthouse of Alexandria on the island of Pharos"
    buzz = Deck(DeckInfo("b", "B", "buzzer"), (_buzz("b1", "Q?", "Lima", long_answer), _buzz("b2", "R?", "Quito")))
    est = Deck(DeckInfo("e", "E", "estimation"), (_est("e1", "Q?", "6.02214076e23", ""),))
    assert too_long_for_a_buzzer([buzz, est]) == [("b", "b1", long_answer)]


def test_the_money_check_wants_a_currency_beside_an_amount() -> None:
    cards = [
        AllInCard("a1", "money", "easy", True, (), ("I have spent more than 200 in one night out.", "I ran 5 km.", "")),
        AllInCard("a2", "money", "easy", True, (), ("I have spent more than £200 in a night.", "I paid 20 euros.", "")),
        _buzz("b1", "How much did the first stamp cost?", "One penny"),
    ]
    assert money_without_currency(cards) == [("a1", "I have spent more than 200 in one night out.")]


def test_the_family_check_finds_one_subject_with_two_flags() -> None:
    def statement(card_id: str, text: str, family: bool) -> AllInCard:
        return AllInCard(card_id, "life", "easy", family, (), (text, "b", "c"))

    cards = [
        statement("a1", "I have bought a lottery ticket.", True),
        statement("a2", "I have won a lotto prize.", False),
        statement("a3", "I have tasted wine.", False),
        statement("a4", "I have climbed a hill.", True),
    ]
    assert family_disagreements(cards) == {"lotteries": [("a1", True), ("a2", False)]}
