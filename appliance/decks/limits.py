"""The deck format's fixed words and limits (deck file format v1; docs/decks.md, "Limits")."""

from __future__ import annotations

import re

from appliance.decks.model import DeckType

FORMAT = "quizbox-deck"
VERSION = 1
MAX_FILE_BYTES = 5_000_000
MAX_CARDS = 5000
MAX_TAGS = 8
MAX_ALTERNATIVES = 8
"""Most accepted alternatives on a buzzer card."""
ALTERNATIVES_SEPARATOR = ";"
"""Separates a buzzer card's alternatives in one CSV cell, so an alternative may not hold it."""
MAX_LENGTH: dict[str, int] = {
    "id": 40,
    "name": 80,
    "description": 500,
    "tag": 30,
    "question": 300,
    "unit": 40,
    "fact": 300,
    "hint": 120,
    "source": 200,
    "statement": 160,
    "prompt": 160,
    "text": 80,
    "number": 80,
    "answer": 80,
}
"""Most characters per text field (after surrounding spaces are removed)."""

ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]*")
TAG_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]*")
LANGUAGE_PATTERN = re.compile(r"[a-z]{2,3}(-[A-Z]{2})?")

COMMON_FIELDS = ("id", "category", "difficulty", "family", "tags")
CARD_FIELDS: dict[DeckType, tuple[str, ...]] = {
    "estimation": (*COMMON_FIELDS, "question", "answer", "unit", "fact", "hints", "source"),
    "allin": (*COMMON_FIELDS, "statements"),
    "squizz": (*COMMON_FIELDS, "prompt", "unit", "propositions", "source"),
    "buzzer": (*COMMON_FIELDS, "question", "answer", "alternatives", "source"),
}
OPTIONAL_FIELDS = frozenset({"tags", "alternatives"})
DECK_FIELDS = ("format", "version", "id", "name", "type", "description", "language", "cards")
OPTIONAL_DECK_FIELDS = frozenset({"description", "language"})
