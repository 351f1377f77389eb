"""From decks to the cards a game is dealt: which deck type each game plays, the decks in the store (the
shipped ones are put there on first start), the quizmaster's filters, and a draw order that avoids cards
this box has already played until the deck is used up."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from appliance.decks import (
    AllInCard,
    BuzzerCard,
    Card,
    CardFilter,
    Deck,
    EstimationCard,
    SquizzCard,
    draw_order,
    dump_deck,
    load_deck,
    shipped_decks,
)
from appliance.decks import pool as deck_pool
from appliance.errors import DeckError, MalformedInput
from appliance.games import registry
from appliance.games.dealt import DealtCard
from appliance.games.numbers import format_plain
from appliance.infra.store import Store

DECK_TYPE: Mapping[str, str] = {spec.id: spec.deck for spec in registry.SPECS}
"""Game -> the deck type it deals (the buzzer round deals buzzer cards: a question and a short answer)."""


def card_fields(card: Card) -> dict[str, Any]:
    """A deck card as the plain JSON fields a flow reads (numbers as exact strings); its picture and sound
    (media references) as ``image`` and ``audio`` when it has them (the session puts them on the board)."""
    common: dict[str, Any] = {"category": card.category, "difficulty": card.difficulty, "family": card.family}
    common.update({key: ref for key in ("image", "audio") if (ref := getattr(card, key)) is not None})
    if isinstance(card, EstimationCard):
        return {**common, "question": card.question, "answer": format_plain(card.answer), "unit": card.unit,
                "fact": card.fact, "hints": list(card.hints), "source": card.source}
    if isinstance(card, AllInCard):
        return {**common, "statements": list(card.statements)}
    if isinstance(card, BuzzerCard):
        return {**common, "question": card.question, "answer": card.answer,
                "alternatives": list(card.alternatives), "source": card.source}
    assert isinstance(card, SquizzCard)
    return {**common, "prompt": card.prompt, "unit": card.unit, "source": card.source,
            "propositions": [{"label": p.text, "value": format_plain(p.value)} for p in card.propositions]}


RETIRED_SHIPPED = ("estimation-pictures-sounds",)
"""Shipped decks no longer shipped: an upgrade takes them out of the store (their cards ship in other decks:
the pictures and sounds deck became estimation-pictures and estimation-sounds, issue 34)."""


def seed_shipped(store: Store) -> int:
    """Put the shipped decks in the store (first start, or after an upgrade) and take out the retired ones
    the box shipped before (:data:`RETIRED_SHIPPED`, never a deck the quizmaster imported); returns how many
    changed."""
    count = 0
    for row in store.decks():
        if row["id"] in RETIRED_SHIPPED and row["builtin"] is True:
            store.delete_deck(str(row["id"]))
            count += 1
    for deck in shipped_decks():
        existing = store.deck(deck.id)
        data = _deck_json(deck)
        if existing != data:
            store.save_deck(deck.id, deck.info.name, deck.type, data, builtin=True)
            count += 1
    return count


def _deck_json(deck: Deck) -> dict[str, Any]:
    import json

    loaded: dict[str, Any] = json.loads(dump_deck(deck, "json"))
    return loaded


def stored_decks(store: Store, deck_type: str, deck_id: str | None = None) -> list[Deck]:
    """Decks of ``deck_type`` in the store (one, when ``deck_id`` names it)."""
    import json

    listed = [d for d in store.decks() if d["type"] == deck_type and (deck_id is None or d["id"] == deck_id)]
    if deck_id is not None and not listed:
        raise MalformedInput(f"no {deck_type} deck {deck_id!r} on this box")
    decks = []
    for row in listed:
        data = store.deck(row["id"])
        try:
            decks.append(load_deck(json.dumps(data), "json"))
        except DeckError as exc:
            raise DeckError(f"stored deck {row['id']!r} no longer validates: {exc}") from exc
    return decks


def card_filter(filters: Mapping[str, Any] | None) -> CardFilter:
    """The quizmaster's filters ({"category": [...], "difficulty": [...], "family": bool, "tags": [...]})."""
    f = dict(filters or {})
    unknown = sorted(set(f) - {"category", "difficulty", "family", "tags", "without_tags"})
    if unknown:
        raise MalformedInput(f"unknown card filter(s) {', '.join(unknown)}")

    def words(key: str) -> frozenset[str]:
        value = f.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise MalformedInput(f"card filter {key} must be a list of words, got {value!r}")
        return frozenset(value)

    family = f.get("family", False)
    if not isinstance(family, bool):
        raise MalformedInput(f"card filter family must be true or false, got {family!r}")
    return CardFilter(words("category"), words("difficulty"), family, words("tags"), words("without_tags"))


def cards_for_game(
    store: Store, game: str, rng: random.Random, deck_id: str | None = None,
    filters: Mapping[str, Any] | None = None, limit: int = 500, unseen_only: bool = False,
) -> Sequence[DealtCard]:
    """The cards to deal for ``game``, in draw order (unused on this box first); ``unseen_only``: only the
    cards this box has never dealt (a night's round planned "unseen only"), MalformedInput when none is left."""
    deck_type = DECK_TYPE.get(game)
    if deck_type is None:
        raise MalformedInput(f"no decks for game {game!r}")
    decks = stored_decks(store, deck_type, deck_id)
    cards = deck_pool(decks, card_filter(filters))
    if not cards:
        raise MalformedInput(f"no {deck_type} cards match those filters")
    dealt = store.last_dealt()
    if unseen_only:
        cards = tuple(c for c in cards if c.key not in dealt)
        if not cards:
            where = f"the deck {deck_id!r}" if deck_id else f"the {deck_type} decks"
            raise MalformedInput(f"{where} has no card this box has not dealt yet: reset it on the Decks page, "
                                 "or plan the round without 'unseen only'")
    order = draw_order(cards, dealt.keys(), rng, dealt)[:limit]
    return [DealtCard(c.key, card_fields(c.card)) for c in order]
