"""A card as dealt to a game: the record the decks hand the session and the session hands a game's flow.

Plain data, with no rules of its own, so every layer can hold one: the decks make them
(:mod:`appliance.decks.deal`), the session and the flows read their fields, the web shows them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DealtCard:
    """One card as drawn from a deck: ``id`` plus the card's fields (question, answer, hints...)."""

    id: str
    fields: Mapping[str, Any]
