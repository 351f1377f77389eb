"""The decks that ship in appliance/data/decks: every file valid, counts, hints true, no repeats."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

import appliance
from appliance.decks import BuzzerCard, Deck, EstimationCard, SquizzCard, dump_deck, load_deck, shipped_decks
from appliance.decks.hints import read_hint
from appliance.decks.shipped import shipped_files
from appliance.decks.validate import question_keys

FOLDER = Path(appliance.__file__).parent / "data" / "decks"
MINIMUM = {"estimation": 150, "allin": 80, "squizz": 80, "buzzer": 150}


@pytest.fixture(scope="module")
def decks() -> list[Deck]:
    return shipped_decks()


def of_type(decks: list[Deck], deck_type: str) -> list[Deck]:
    return [d for d in decks if d.type == deck_type]


def test_every_json_file_in_the_folder_is_loaded_through_importlib_resources(decks: list[Deck]) -> None:
    on_disk = sorted(p.name for p in FOLDER.glob("*.json"))
    assert [f.name for f in shipped_files()] == on_disk
    assert len(decks) == len(on_disk)


def test_each_deck_file_is_named_after_its_deck_id_and_ids_are_unique(decks: list[Deck]) -> None:
    assert sorted(f"{d.id}.json" for d in decks) == sorted(p.name for p in FOLDER.glob("*.json"))
    assert len({d.id for d in decks}) == len(decks)


@pytest.mark.parametrize("deck_type", sorted(MINIMUM))
def test_enough_cards_ship_for_each_game(decks: list[Deck], deck_type: str) -> None:
    count = sum(len(d.cards) for d in of_type(decks, deck_type))
    assert count >= MINIMUM[deck_type], f"{count} {deck_type} cards ship, at least {MINIMUM[deck_type]} are needed"


@pytest.mark.parametrize("deck_type", sorted(MINIMUM))
def test_no_question_appears_twice_across_the_decks_of_a_type(decks: list[Deck], deck_type: str) -> None:
    keys = Counter(key for d in of_type(decks, deck_type) for c in d.cards for key in question_keys(c))
    assert [key for key, n in keys.items() if n > 1] == []


def test_every_estimation_hint_is_a_checked_bound_that_holds_and_the_second_narrows(decks: list[Deck]) -> None:
    for deck in of_type(decks, "estimation"):
        for card in deck.cards:
            assert isinstance(card, EstimationCard)
            first, second = (read_hint(h, card.unit) for h in card.hints)
            assert first is not None and second is not None, (card.id, card.hints)
            assert first.holds(card.answer) and second.holds(card.answer), (card.id, card.hints)
            assert first.meet(second) != first, (card.id, card.hints)


def test_every_estimation_squizz_and_buzzer_card_names_a_source(decks: list[Deck]) -> None:
    for deck in decks:
        for card in deck.cards:
            if isinstance(card, (EstimationCard, SquizzCard, BuzzerCard)):
                assert len(card.source) >= 3, (deck.id, card.id)


def test_every_squizz_card_has_three_different_values(decks: list[Deck]) -> None:
    for deck in of_type(decks, "squizz"):
        for card in deck.cards:
            assert isinstance(card, SquizzCard)
            assert len({p.value for p in card.propositions}) == 3, (deck.id, card.id)


def test_the_estimation_answers_spread_over_magnitudes_signs_and_categories(decks: list[Deck]) -> None:
    cards = [c for d in of_type(decks, "estimation") for c in d.cards if isinstance(c, EstimationCard)]
    answers = [c.answer for c in cards]
    assert sum(a < 0 for a in answers) >= 10
    assert sum(0 < abs(a) <= Decimal("0.0001") for a in answers) >= 4
    assert sum(abs(a) >= 10**9 for a in answers) >= 10
    assert sum(abs(a) >= 10**12 for a in answers) >= 5
    assert sum(a != a.to_integral_value() for a in answers) >= 20
    assert sum(c.unit == "" and 1000 <= a <= 2030 and a == int(a) for c, a in zip(cards, answers, strict=True)) >= 40
    assert len({c.category for c in cards}) >= 10
    assert {c.difficulty for c in cards} == {"easy", "medium", "hard"}


def test_a_bc_year_is_negative_only_where_the_question_says_so(decks: list[Deck]) -> None:
    for deck in of_type(decks, "estimation"):
        for card in deck.cards:
            assert isinstance(card, EstimationCard)
            if card.unit == "" and card.answer < 0:
                assert "negative" in card.question, card.id


def test_every_shipped_deck_round_trips_through_json_and_csv(decks: list[Deck]) -> None:
    for deck in decks:
        assert load_deck(dump_deck(deck, "json"), "json") == deck
        assert load_deck(dump_deck(deck, "csv"), "csv", deck.info) == deck
