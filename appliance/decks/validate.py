"""The one deck validator: every check a deck or card must pass, with every problem located.

The JSON Schemas in ``appliance/decks/schema/`` document the format; this module decides. It works on
the raw values of a parsed file (a JSON object per card, or a CSV row turned into the same shape by
:mod:`appliance.decks.io`), collects every problem instead of stopping at the first, and builds typed
records only when there are none: an import is all or nothing (:class:`InvalidDeck`).

Checks of one card's fields are in :mod:`appliance.decks.fields` (required and unknown fields, types,
text limits, the category and difficulty vocabulary, tags, numbers through
:func:`~appliance.games.numbers.parse_number`, exactly two hints that are true and narrow, three
statements, sQuizz labels A, B, C with three different values: rules.md sQuizz 4); this module adds
the deck's own fields, card ids unique, no question twice (:func:`question_keys`) and the card count.
The limits are in :mod:`appliance.decks.limits`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

from appliance.decks.fields import MISSING, Path, Report, check_text, describe, normalise, parse_card
from appliance.decks.limits import (
    CARD_FIELDS,
    DECK_FIELDS,
    FORMAT,
    ID_PATTERN,
    LANGUAGE_PATTERN,
    MAX_CARDS,
    MAX_FILE_BYTES,
    MAX_LENGTH,
    MAX_TAGS,
    OPTIONAL_DECK_FIELDS,
    OPTIONAL_FIELDS,
    TAG_PATTERN,
    VERSION,
)
from appliance.decks.model import (
    DECK_TYPES,
    AllInCard,
    BuzzerCard,
    Card,
    Deck,
    DeckInfo,
    DeckType,
    EstimationCard,
    Problem,
)
from appliance.errors import DeckError

__all__ = [
    "CARD_FIELDS",
    "DECK_FIELDS",
    "FORMAT",
    "MAX_CARDS",
    "MAX_FILE_BYTES",
    "MAX_LENGTH",
    "MAX_TAGS",
    "OPTIONAL_DECK_FIELDS",
    "OPTIONAL_FIELDS",
    "TAG_PATTERN",
    "VERSION",
    "InvalidDeck",
    "JsonObject",
    "Locate",
    "Path",
    "Report",
    "json_path",
    "make_info",
    "normalise",
    "parse_card",
    "parse_cards",
    "parse_document",
    "parse_info",
    "question_keys",
]


class JsonObject(dict[str, object]):
    """A parsed JSON object that remembers keys the file wrote more than once (JSON keeps the last)."""

    repeated: tuple[str, ...] = ()


class InvalidDeck(DeckError):
    """A deck refused with every problem found (``problems``); nothing of it was imported."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        shown = "; ".join(str(p) for p in self.problems[:5])
        more = f"; and {len(self.problems) - 5} more" if len(self.problems) > 5 else ""
        count = len(self.problems)
        super().__init__(f"deck refused, {count} problem{'s' if count != 1 else ''}: {shown}{more}")


def json_path(path: Path) -> str:
    """A path as JSON field text: ``hints[1]``, ``propositions[0].value``."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


def question_keys(card: Card) -> tuple[str, ...]:
    """What must not appear twice among a type's cards: the question (estimation, buzzer); each All In
    statement (the reader picks one); a sQuizz prompt with its three answers (prompts like "Age at death
    of..." repeat)."""
    if isinstance(card, EstimationCard | BuzzerCard):
        return (normalise(card.question),)
    if isinstance(card, AllInCard):
        return tuple(normalise(s) for s in card.statements)
    return (_squizz_key(card.prompt, [p.text for p in card.propositions]),)


def _squizz_key(prompt: str, texts: Sequence[str]) -> str:
    return " | ".join([normalise(prompt), *sorted(normalise(t) for t in texts)])


def _raw_question_keys(raw: object, deck_type: DeckType) -> list[tuple[Path, str]]:
    """:func:`question_keys` of a raw card, as far as its texts are there (so that even a card with
    other problems is compared)."""
    if not isinstance(raw, dict):
        return []
    keys: list[tuple[Path, str]] = []
    if deck_type in ("estimation", "buzzer") and isinstance(raw.get("question"), str):
        keys.append((("question",), normalise(raw["question"])))
    elif deck_type == "allin" and isinstance(raw.get("statements"), list):
        keys += [(("statements", i), normalise(s)) for i, s in enumerate(raw["statements"]) if isinstance(s, str)]
    elif deck_type == "squizz" and isinstance(raw.get("prompt"), str):
        items = raw.get("propositions")
        texts = [p.get("text") for p in items if isinstance(p, dict)] if isinstance(items, list) else []
        if len(texts) == 3 and all(isinstance(t, str) for t in texts):
            keys.append((("prompt",), _squizz_key(raw["prompt"], [str(t) for t in texts])))
    return [(path, key) for path, key in keys if key]


Locate = Callable[[int, Path, str], Problem]
"""Builds the located problem for card number ``i`` (0-based in the file), a path and a message."""


def parse_cards(raws: Sequence[object], deck_type: DeckType, locate: Locate) -> tuple[list[Card], list[Problem]]:
    """Every card of a deck and every problem, including repeated ids and questions and the count."""
    problems: list[Problem] = []
    cards: list[Card] = []
    if not raws:
        problems.append(Problem("the deck has no cards"))
    if len(raws) > MAX_CARDS:
        problems.append(Problem(f"too many cards: {len(raws)}, at most {MAX_CARDS}"))
        return [], problems
    ids: dict[str, int] = {}
    questions: dict[str, int] = {}
    for i, raw in enumerate(raws):

        def report(path: Path, message: str, i: int = i) -> None:
            problems.append(locate(i, path, message))

        card = parse_card(raw, deck_type, report)
        raw_id = raw.get("id") if isinstance(raw, dict) else None
        if isinstance(raw_id, str) and raw_id.strip():
            if raw_id.strip() in ids:
                problems.append(
                    locate(
                        i,
                        ("id",),
                        f"id {raw_id.strip()!r} is already used by {_other(locate, ids[raw_id.strip()])}",
                    )
                )
            ids.setdefault(raw_id.strip(), i)
        seen_here: set[str] = set()
        for path, key in _raw_question_keys(raw, deck_type):
            if key in questions and key not in seen_here:
                message = f"same {_question_word(deck_type)} as {_other(locate, questions[key])}"
                problems.append(locate(i, path, message))
            questions.setdefault(key, i)
            seen_here.add(key)
        if card is not None:
            cards.append(card)
    return cards, problems


def _question_word(deck_type: DeckType) -> str:
    return {"estimation": "question", "allin": "statement", "squizz": "prompt and answers", "buzzer": "question"}[
        deck_type
    ]


def _other(locate: Locate, i: int) -> str:
    """The earlier card ``i`` as the problem locating it names it (``card 3 (est-0003)``, ``line 4``)."""
    return locate(i, (), "").where()


def parse_info(doc: Mapping[str, object], report: Callable[[str, str], None]) -> DeckInfo | None:
    """The deck's description from a JSON document's top level (``cards`` excepted)."""
    for key in getattr(doc, "repeated", ()):
        report(key, "this field is written more than once")
    for key in doc:
        if key not in DECK_FIELDS:
            report(key, f"unknown field; a deck file has: {', '.join(DECK_FIELDS)}")
    for key in DECK_FIELDS:
        if key not in doc and key not in OPTIONAL_DECK_FIELDS:
            report(key, "missing")
    if "format" in doc and doc["format"] != FORMAT:
        report("format", f"must be {FORMAT!r}, got {doc['format']!r}: is this a Quizbox deck file?")
    version = doc.get("version")
    if "version" in doc and (isinstance(version, bool) or version != VERSION):
        report("version", f"this box reads deck format version {VERSION}, the file says {version!r}")
    return make_info(
        {key: doc[key] for key in ("id", "name", "type", "description", "language") if key in doc},
        lambda path, message: report(str(path[0]), message),
    )


def make_info(values: Mapping[str, object], report: Report) -> DeckInfo | None:
    """A checked :class:`DeckInfo` from its fields (``description`` and ``language`` optional)."""
    deck_id = check_text(values.get("id", MISSING), ("id",), "id", report)
    if deck_id is not None and not ID_PATTERN.fullmatch(deck_id):
        report(("id",), f"{deck_id!r} must be lowercase letters, digits and '-', not starting with '-'")
        deck_id = None
    name = check_text(values.get("name", MISSING), ("name",), "name", report)
    deck_type = values.get("type")
    if "type" in values and deck_type not in DECK_TYPES:
        report(("type",), f"must be one of {', '.join(DECK_TYPES)}, got {deck_type!r}")
    description = check_text(values.get("description", ""), ("description",), "description", report, empty=True)
    language = values.get("language", "en")
    if not isinstance(language, str) or not LANGUAGE_PATTERN.fullmatch(language):
        report(("language",), f"must be a language code such as 'en' or 'en-GB', got {language!r}")
        return None
    if deck_id is None or name is None or deck_type not in DECK_TYPES or description is None:
        return None
    return DeckInfo(id=deck_id, name=name, type=deck_type, description=description, language=language)


def parse_document(doc: object) -> Deck:
    """The deck a parsed JSON deck file describes; raises :class:`InvalidDeck` with every problem."""
    if not isinstance(doc, dict):
        raise InvalidDeck([Problem(f"a deck file is one JSON object {{...}}, got {describe(doc)}")])
    problems: list[Problem] = []
    cards: list[Card] = []
    info = parse_info(doc, lambda field, message: problems.append(Problem(message, field=field)))
    deck_type = doc.get("type")
    raws = doc.get("cards")
    if "cards" in doc and not isinstance(raws, list):
        problems.append(Problem(f"must be a list of cards, got {describe(raws)}", field="cards"))
    elif isinstance(raws, list) and deck_type in DECK_TYPES:
        cards, card_problems = parse_cards(raws, cast(DeckType, deck_type), _locate_json(raws))
        problems.extend(card_problems)
    if problems or info is None:
        raise InvalidDeck(problems)
    return Deck(info=info, cards=tuple(cards))


def _locate_json(raws: Sequence[object]) -> Locate:
    def locate(i: int, path: Path, message: str) -> Problem:
        raw = raws[i]
        raw_id = raw.get("id") if isinstance(raw, dict) else None
        card_id = raw_id.strip() if isinstance(raw_id, str) and raw_id.strip() else None
        return Problem(message, card=i + 1, card_id=card_id, field=json_path(path) if path else None)

    return locate
