"""From the store to a game's cards: the buzzer round deals buzzer cards, with the answer and the other
answers that count, and never an estimation card (whose answer a buzzer cannot take)."""

from __future__ import annotations

import random
from pathlib import Path

from appliance.decks.deal import DECK_TYPE, cards_for_game, seed_shipped
from appliance.infra.store import Store
from tests.decks.test_deck_cross_checks import BUZZER_ANSWER_MAX, LONG_ANSWERS


def test_the_buzzer_round_deals_buzzer_cards_with_their_answers(tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    seed_shipped(store)
    cards = cards_for_game(store, "buzzer", random.Random(5), limit=40)
    assert len(cards) == 40
    assert all(c.id.startswith("buzzer-") for c in cards), [c.id for c in cards]
    for card in cards:
        fields = card.fields
        assert fields["question"] and fields["source"]
        assert isinstance(fields["alternatives"], list)
        assert len(fields["answer"]) <= BUZZER_ANSWER_MAX
    assert any(c.fields["alternatives"] for c in cards)


def test_the_registry_deals_the_buzzer_round_only_from_decks_that_keep_answers_short() -> None:
    assert LONG_ANSWERS[DECK_TYPE["buzzer"]] is False


def test_the_box_deals_unseen_cards_first_then_the_ones_dealt_longest_ago(tmp_path: Path) -> None:
    now = [1000.0]
    store = Store(tmp_path / "q.db", clock=lambda: now[0])
    seed_shipped(store)
    everything = cards_for_game(store, "buzzer", random.Random(1), limit=5000)
    keys = [c.id for c in everything]
    for i, key in enumerate(reversed(keys)):  # every card dealt once; the first key the most recently
        now[0] = 2000.0 + i
        store.mark_used([key])
    store.forget_used(keys[0].split("/")[0] + "/")  # the quizmaster resets one deck: unseen again
    reset_deck = keys[0].split("/")[0]
    unseen = [k for k in keys if k.startswith(reset_deck + "/")]
    again = [c.id for c in cards_for_game(store, "buzzer", random.Random(2), limit=5000)]
    assert sorted(again[: len(unseen)]) == sorted(unseen)
    rest = again[len(unseen):]
    when = store.last_dealt()
    assert [when[k] for k in rest] == sorted(when[k] for k in rest)


def test_unseen_only_deals_no_card_this_box_has_dealt_and_says_when_none_is_left(tmp_path: Path) -> None:
    import pytest

    from appliance.errors import MalformedInput

    store = Store(tmp_path / "q.db")
    seed_shipped(store)
    deck = cards_for_game(store, "buzzer", random.Random(1), limit=5000)[0].id.split("/")[0]
    everything = [c.id for c in cards_for_game(store, "buzzer", random.Random(1), deck_id=deck, limit=5000)]
    store.mark_used(everything[:-3])  # all but three of the deck dealt on earlier nights
    left = cards_for_game(store, "buzzer", random.Random(2), deck_id=deck, unseen_only=True)
    assert sorted(c.id for c in left) == sorted(everything[-3:])
    store.mark_used(everything[-3:])
    with pytest.raises(MalformedInput, match="no card this box has not dealt yet: reset it on the Decks page"):
        cards_for_game(store, "buzzer", random.Random(2), deck_id=deck, unseen_only=True)
    assert len(cards_for_game(store, "buzzer", random.Random(2), deck_id=deck)) == len(everything)  # not unseen


def test_an_upgrade_takes_the_retired_pictures_and_sounds_deck_out_and_keeps_an_imported_one(tmp_path: Path) -> None:
    # issue 34: the shipped pictures-and-sounds deck became two decks; a box that had it would deal its
    # cards twice (once from each copy) in a round that names no deck
    store = Store(tmp_path / "q.db")
    seed_shipped(store)
    pictures = store.deck("estimation-pictures")
    assert pictures is not None
    store.save_deck("estimation-pictures-sounds", "Pictures and sounds", "estimation", pictures, builtin=True)
    assert seed_shipped(store) == 1 and store.deck("estimation-pictures-sounds") is None
    store.save_deck("estimation-pictures-sounds", "My own", "estimation", pictures, builtin=False)
    assert seed_shipped(store) == 0 and store.deck("estimation-pictures-sounds") is not None
