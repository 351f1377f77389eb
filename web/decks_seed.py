"""Put the decks that ship with the box into the store as built-in (read-only on the admin page).

One implementation serves the appliance and the web: :func:`appliance.decks.deal.seed_shipped` (it also
refreshes a built-in deck that an upgrade changed)."""

from __future__ import annotations

import logging

from appliance.decks import InvalidDeck
from appliance.decks.deal import seed_shipped as _seed
from appliance.infra.store import Store, StoreError

log = logging.getLogger(__name__)


def seed_shipped(store: Store) -> int:
    """Save each shipped deck the store does not have (or has in an older version); how many were saved."""
    try:
        return _seed(store)
    except (InvalidDeck, StoreError) as exc:
        log.error("shipped decks not loaded: %s", exc)
        return 0
