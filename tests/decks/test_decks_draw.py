"""Filtering cards and the draw order that avoids cards already used on this box."""

from __future__ import annotations

import random
import re
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.decks import AllInCard, CardFilter, Deck, DeckCard, DeckInfo, EstimationCard, draw_order, pool, used_up
from appliance.decks.model import Difficulty
from appliance.errors import DeckError, MalformedInput


def card(
    card_id: str,
    category: str = "space",
    difficulty: Difficulty = "easy",
    family: bool = True,
    tags: tuple[str, ...] = (),
) -> EstimationCard:
    return EstimationCard(
        id=card_id,
        category=category,
        difficulty=difficulty,
        family=family,
        tags=tags,
        question=f"Question {card_id}?",
        answer=Decimal(1),
        unit="",
        fact="f",
        hints=("a", "b"),
        source="s",
    )


DECK = Deck(
    DeckInfo("mixed", "Mixed", "estimation"),
    (
        card("a", "space", "easy", True, ("moon",)),
        card("b", "space", "hard", False, ("moon", "records")),
        card("c", "history", "medium", True, ()),
        card("d", "sport", "easy", False, ("records",)),
        card("e", "history", "hard", True, ("dates",)),
    ),
)


def ids(cards: tuple[DeckCard, ...] | list[DeckCard]) -> list[str]:
    return [c.card.id for c in cards]


@pytest.mark.parametrize(
    ("card_filter", "expected"),
    [
        (CardFilter(), ["a", "b", "c", "d", "e"]),
        (CardFilter(categories=frozenset({"history"})), ["c", "e"]),
        (CardFilter(categories=frozenset({"history", "sport"})), ["c", "d", "e"]),
        (CardFilter(difficulties=frozenset({"easy"})), ["a", "d"]),
        (CardFilter(family_only=True), ["a", "c", "e"]),
        (CardFilter(tags=frozenset({"records"})), ["b", "d"]),
        (CardFilter(tags=frozenset({"moon", "dates"})), ["a", "b", "e"]),
        (CardFilter(without_tags=frozenset({"records"})), ["a", "c", "e"]),
        (CardFilter(categories=frozenset({"space"}), family_only=True), ["a"]),
        (CardFilter(categories=frozenset({"money"})), []),
    ],
)
def test_a_filter_keeps_the_cards_that_match_every_part(card_filter: CardFilter, expected: list[str]) -> None:
    assert ids(pool([DECK], card_filter)) == expected


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"categories": frozenset({"spce"})}, "unknown categories ['spce']"),
        ({"difficulties": frozenset({"brutal"})}, "unknown difficulties ['brutal']"),
        ({"tags": frozenset({"Not A Tag"})}, "are not tags"),
        ({"without_tags": frozenset({""})}, "are not tags"),
    ],
)
def test_a_filter_with_unknown_words_is_refused(changes: dict[str, object], reason: str) -> None:
    with pytest.raises(MalformedInput, match=re.escape(reason)):
        CardFilter(**changes)  # type: ignore[arg-type]


def test_a_card_key_names_its_deck_so_two_decks_can_share_card_ids() -> None:
    other = Deck(DeckInfo("other", "Other", "estimation"), (card("a"),))
    keys = [c.key for c in pool([DECK, other])]
    assert keys == ["mixed/a", "mixed/b", "mixed/c", "mixed/d", "mixed/e", "other/a"]


def test_a_pool_takes_decks_of_one_type_given_once() -> None:
    allin = Deck(DeckInfo("talk", "Talk", "allin"), (AllInCard("x", "life", "easy", True, (), ("1", "2", "3")),))
    with pytest.raises(DeckError, match="one type, got allin, estimation"):
        pool([DECK, allin])
    with pytest.raises(DeckError, match=r"deck ids \['mixed'\] are given more than once"):
        pool([DECK, DECK])


def test_the_draw_order_puts_unused_cards_first() -> None:
    cards = pool([DECK])
    order = draw_order(cards, {"mixed/a", "mixed/c"}, random.Random(1))
    assert sorted(ids(order[:3])) == ["b", "d", "e"]
    assert sorted(ids(order[3:])) == ["a", "c"]


@pytest.mark.parametrize("seed", range(5))
def test_played_cards_come_back_longest_unplayed_first(seed: int) -> None:
    cards = pool([DECK])
    last = {"mixed/a": 30.0, "mixed/b": 10.0, "mixed/c": 20.0}
    order = ids(draw_order(cards, last.keys(), random.Random(seed), last))
    assert sorted(order[:2]) == ["d", "e"]
    assert order[2:] == ["b", "c", "a"]


def test_the_same_seed_gives_the_same_order_whatever_order_the_cards_come_in() -> None:
    cards = pool([DECK])
    first = draw_order(cards, set(), random.Random(7))
    again = draw_order(tuple(reversed(cards)), set(), random.Random(7))
    assert first == again
    orders = {tuple(ids(draw_order(cards, set(), random.Random(seed)))) for seed in range(30)}
    assert len(orders) > 1  # the rng does shuffle


def test_used_up_when_every_card_of_the_filter_was_used() -> None:
    cards = pool([DECK], CardFilter(categories=frozenset({"history"})))
    assert not used_up(cards, {"mixed/c"})
    assert used_up(cards, {"mixed/c", "mixed/e", "mixed/a"})
    assert used_up((), set())


@settings(max_examples=200)
@given(
    size=st.integers(min_value=1, max_value=30),
    used=st.sets(st.integers(min_value=0, max_value=40)),
    seed=st.integers(),
)
def test_a_draw_order_is_every_card_once_unused_before_used(size: int, used: set[int], seed: int) -> None:
    deck = Deck(DeckInfo("d", "D", "estimation"), tuple(card(f"c{i}") for i in range(size)))
    cards = pool([deck])
    used_keys = {f"d/c{i}" for i in used}
    order = draw_order(cards, used_keys, random.Random(seed))
    assert sorted(c.key for c in order) == sorted(c.key for c in cards)
    fresh = [c.key not in used_keys for c in order]
    assert fresh == sorted(fresh, reverse=True)


@settings(max_examples=100)
@given(size=st.integers(min_value=1, max_value=20), per_game=st.integers(min_value=1, max_value=7), seed=st.integers())
def test_games_on_one_box_deal_every_card_before_any_card_again(size: int, per_game: int, seed: int) -> None:
    deck = Deck(DeckInfo("d", "D", "estimation"), tuple(card(f"c{i}") for i in range(size)))
    cards = pool([deck])
    rng = random.Random(seed)
    used: set[str] = set()  # what the caller stores on the box
    dealt: list[str] = []
    while len(dealt) < size:
        game = [c.key for c in draw_order(cards, used, rng)[:per_game]]
        used.update(game)
        dealt.extend(game)
    assert len(set(dealt[:size])) == size
    assert used_up(cards, used)
