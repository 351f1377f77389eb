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
    "media": 120,
}
"""Most characters per text field (after surrounding spaces are removed)."""

ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]*")
TAG_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]*")
LANGUAGE_PATTERN = re.compile(r"[a-z]{2,3}(-[A-Z]{2})?")

MEDIA_NAME_PATTERN = re.compile(r"(?:[A-Za-z0-9][A-Za-z0-9._-]*/)*[A-Za-z0-9][A-Za-z0-9._-]*")
"""A media file's name inside a deck's zip: folders and a name of letters, digits, '.', '_' and '-', each
starting with a letter or digit (so no '..', no absolute path, no backslash)."""
IMAGE_EXTENSIONS = {"png": "PNG", "jpg": "JPEG", "jpeg": "JPEG", "webp": "WEBP"}
"""A picture file's extension and the format Pillow must find in it."""
AUDIO_EXTENSIONS = {"ogg": "OggVorbis", "mp3": "MP3", "wav": "WAVE"}
"""A sound file's extension and the kind mutagen must find in it."""
MEDIA_FIELDS = ("image", "audio")
"""The optional fields of a card of any type that name a file of the deck's media."""

COMMON_FIELDS = ("id", "category", "difficulty", "family", "tags")
CARD_FIELDS: dict[DeckType, tuple[str, ...]] = {
    "estimation": (*COMMON_FIELDS, "question", "answer", "unit", "fact", "hints", "source", *MEDIA_FIELDS),
    "allin": (*COMMON_FIELDS, "statements", *MEDIA_FIELDS),
    "squizz": (*COMMON_FIELDS, "prompt", "unit", "propositions", "source", *MEDIA_FIELDS),
    "buzzer": (*COMMON_FIELDS, "question", "answer", "alternatives", "source", *MEDIA_FIELDS),
}
OPTIONAL_FIELDS = frozenset({"tags", "alternatives", *MEDIA_FIELDS})
DECK_FIELDS = ("format", "version", "id", "name", "type", "description", "language", "cards")
OPTIONAL_DECK_FIELDS = frozenset({"description", "language"})
