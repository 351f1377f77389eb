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
