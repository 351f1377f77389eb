"""Put the decks that ship with the box into the store, once, as built-in (read-only on the admin page)."""

from __future__ import annotations

import functools
import logging

from appliance.decks import Deck, InvalidDeck, shipped_decks
from appliance.store import Store, StoreError
from web import deckdata

log = logging.getLogger(__name__)


@functools.cache
def _shipped() -> tuple[Deck, ...]:
    """The shipped decks, validated once per process (they are package data: they do not change)."""
    return tuple(shipped_decks())


def seed_shipped(store: Store) -> int:
    """Save each shipped deck the store does not have yet; returns how many were added."""
    try:
        have = {d["id"] for d in store.decks()}
        added = 0
        for deck in _shipped():
            if deck.id not in have:
                deckdata.save(store, deck, builtin=True)
                added += 1
        return added
    except (InvalidDeck, StoreError) as exc:
        log.error("shipped decks not loaded: %s", exc)
        return 0
