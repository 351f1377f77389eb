"""Sample raw cards and deck documents (JSON shapes) for the deck tests."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]


def estimation_card(**changes: Any) -> Json:
    card: Json = {
        "id": "est-0001",
        "category": "space",
        "difficulty": "easy",
        "family": True,
        "question": "The Moon. How many people have walked on it?",
        "answer": "12",
        "unit": "people",
        "fact": "All twelve flew with NASA.",
        "hints": ["More than 10 people.", "Fewer than 15 people."],
        "source": "NASA, Apollo programme",
    }
    card.update(changes)
    return card


def allin_card(**changes: Any) -> Json:
    card: Json = {
        "id": "all-0001",
        "category": "life",
        "difficulty": "easy",
        "family": True,
        "statements": ["I have been on a boat.", "I have sung karaoke.", "I have eaten snails."],
    }
    card.update(changes)
    return card


def squizz_card(**changes: Any) -> Json:
    card: Json = {
        "id": "sq-0001",
        "category": "people",
        "difficulty": "medium",
        "family": True,
        "prompt": "Age at death of...",
        "unit": "years",
        "propositions": [
            {"label": "A", "text": "Methuselah (Bible)", "value": "969"},
            {"label": "B", "text": "Noah (Bible)", "value": "950"},
            {"label": "C", "text": "Jeanne Calment", "value": "122"},
        ],
        "source": "Genesis 5 and 9; Guinness World Records",
    }
    card.update(changes)
    return card


def buzzer_card(**changes: Any) -> Json:
    card: Json = {
        "id": "bz-0001",
        "category": "geography",
        "difficulty": "easy",
        "family": True,
        "question": "What is the capital of Australia?",
        "answer": "Canberra",
        "alternatives": [],
        "source": "Encyclopaedia Britannica, Canberra",
    }
    card.update(changes)
    return card


def deck_doc(deck_type: str, cards: list[Any], **changes: Any) -> Json:
    doc: Json = {
        "format": "quizbox-deck",
        "version": 1,
        "id": "test-deck",
        "name": "Test deck",
        "type": deck_type,
        "description": "",
        "language": "en",
        "cards": cards,
    }
    doc.update(changes)
    return doc


def propositions(*rows: tuple[str, str, str]) -> list[Json]:
    return [{"label": label, "text": text, "value": value} for label, text, value in rows]
