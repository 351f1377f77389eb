"""The one deck validator: every check a deck or card must pass, with every problem located.

The JSON Schemas in ``appliance/decks/schema/`` document the format; this module decides. It works on
the raw values of a parsed file (a JSON object per card, or a CSV row turned into the same shape by
:mod:`appliance.decks.io`), collects every problem instead of stopping at the first, and builds typed
records only when there are none: an import is all or nothing (:class:`InvalidDeck`).

Checks: required and unknown fields, types, text limits (no control characters), the category and
difficulty vocabulary, tags, answers and values through
:func:`~appliance.games.numbers.parse_number`, exactly two hints (true of the answer and narrowing,
see :mod:`appliance.decks.hints`), three statements, sQuizz labels A, B, C in order with three
different values (rules.md sQuizz 4), card ids unique, no question twice (:func:`question_keys`), and
the card count.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import cast

from appliance.decks.hints import read_hint
from appliance.decks.model import (
    CATEGORIES,
    DECK_TYPES,
    DIFFICULTIES,
    LABELS,
    AllInCard,
    Card,
    Deck,
    DeckInfo,
    DeckType,
    Difficulty,
    EstimationCard,
    Problem,
    Proposition,
    SquizzCard,
)
from appliance.errors import DeckError, MalformedInput
from appliance.games.numbers import format_full, parse_number

FORMAT = "quizbox-deck"
VERSION = 1
MAX_FILE_BYTES = 5_000_000
MAX_CARDS = 5000
MAX_TAGS = 8
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
}
OPTIONAL_FIELDS = frozenset({"tags"})
DECK_FIELDS = ("format", "version", "id", "name", "type", "description", "language", "cards")
OPTIONAL_DECK_FIELDS = frozenset({"description", "language"})

Path = tuple[str | int, ...]
"""Where a value is inside a card: ``("hints", 1)``, ``("propositions", 0, "value")``."""

Report = Callable[[Path, str], None]


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


def normalise(text: str) -> str:
    """Text compared for duplicates: case, accents' forms, punctuation and spacing ignored."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[\W_]+", " ", folded).split())


def question_keys(card: Card) -> tuple[str, ...]:
    """What must not appear twice among a type's cards: the question; each All In statement (the reader
    picks one); a sQuizz prompt with its three answers (prompts like "Age at death of..." repeat)."""
    if isinstance(card, EstimationCard):
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
    if deck_type == "estimation" and isinstance(raw.get("question"), str):
        keys.append((("question",), normalise(raw["question"])))
    elif deck_type == "allin" and isinstance(raw.get("statements"), list):
        keys += [(("statements", i), normalise(s)) for i, s in enumerate(raw["statements"]) if isinstance(s, str)]
    elif deck_type == "squizz" and isinstance(raw.get("prompt"), str):
        items = raw.get("propositions")
        texts = [p.get("text") for p in items if isinstance(p, dict)] if isinstance(items, list) else []
        if len(texts) == 3 and all(isinstance(t, str) for t in texts):
            keys.append((("prompt",), _squizz_key(raw["prompt"], [str(t) for t in texts])))
    return [(path, key) for path, key in keys if key]


def _fields(raw: Mapping[str, object], known: Sequence[str], optional: frozenset[str], report: Report) -> None:
    for key in getattr(raw, "repeated", ()):
        report((key,), "this field is written more than once")
    for key in raw:
        if key not in known:
            report((key,), f"unknown field; a card of this type has: {', '.join(known)}")
    for key in known:
        if key not in raw and key not in optional:
            report((key,), "missing")


_MISSING = object()
"""A field the card does not have: already reported as missing, so the checks stay quiet."""


def _text(value: object, path: Path, limit: str, report: Report, *, empty: bool = False) -> str | None:
    if value is _MISSING:
        return None
    if not isinstance(value, str):
        report(path, f"must be text, got {_shown(value)}")
        return None
    text = value.strip()
    most = MAX_LENGTH[limit]
    if not text and not empty:
        report(path, "must not be empty")
    elif len(text) > most:
        report(path, f"too long: {len(text)} characters, at most {most}")
    elif any(unicodedata.category(c) == "Cc" for c in text):
        report(path, "contains a line break, tab or other control character; keep it on one line")
    elif any(unicodedata.category(c) == "Cs" for c in text):
        report(path, "contains an unpaired surrogate (a broken \\ud800-style escape), which is not a character")
    else:
        return text
    return None


def _number(value: object, path: Path, report: Report) -> Decimal | None:
    if value is _MISSING:
        return None
    if not isinstance(value, str):
        report(path, f'must be a number written as text in quotes, e.g. "12", got {_shown(value)}')
        return None
    if len(value.strip()) > MAX_LENGTH["number"]:
        report(path, f"too long: {len(value.strip())} characters, at most {MAX_LENGTH['number']}")
        return None
    try:
        return parse_number(value)
    except MalformedInput as exc:
        report(path, str(exc))
        return None


def _list(value: object, path: Path, count: int, what: str, report: Report) -> list[object] | None:
    if value is _MISSING:
        return None
    if not isinstance(value, list):
        report(path, f"must be a list of {count} {what}, got {_shown(value)}")
        return None
    if len(value) != count:
        report(path, f"must hold exactly {count} {what}, got {len(value)}")
        return None
    return value


def _shown(value: object) -> str:
    kind = {dict: "an object", list: "a list", bool: "true/false", type(None): "null"}.get(type(value))
    if kind is None and isinstance(value, (int, float)):
        kind = f"the bare number {value!r}"
    return kind or repr(value)


def _common(raw: Mapping[str, object], report: Report) -> tuple[str, str, Difficulty, bool, tuple[str, ...]] | None:
    card_id = _text(raw.get("id", _MISSING), ("id",), "id", report)
    if card_id is not None and not ID_PATTERN.fullmatch(card_id):
        report(("id",), f"{card_id!r} must be lowercase letters, digits and '-', not starting with '-'")
        card_id = None
    category = raw.get("category")
    if "category" in raw and category not in CATEGORIES:
        report(("category",), f"unknown category {category!r}; use one of: {', '.join(CATEGORIES)}")
    difficulty = raw.get("difficulty")
    if "difficulty" in raw and difficulty not in DIFFICULTIES:
        report(("difficulty",), f"must be one of {', '.join(DIFFICULTIES)}, got {difficulty!r}")
    family = raw.get("family")
    if "family" in raw and not isinstance(family, bool):
        report(("family",), f"must be true or false, got {_shown(family)}")
    tags = _tags(raw.get("tags", []), report)
    if card_id is None or category not in CATEGORIES or difficulty not in DIFFICULTIES:
        return None
    if not isinstance(family, bool) or tags is None:
        return None
    return card_id, category, difficulty, family, tags


def _tags(value: object, report: Report) -> tuple[str, ...] | None:
    if not isinstance(value, list):
        report(("tags",), f"must be a list of words, got {_shown(value)}")
        return None
    if len(value) > MAX_TAGS:
        report(("tags",), f"too many tags: {len(value)}, at most {MAX_TAGS}")
        return None
    tags: list[str] = []
    for i, tag in enumerate(value):
        if not isinstance(tag, str) or not TAG_PATTERN.fullmatch(tag) or len(tag) > MAX_LENGTH["tag"]:
            report(
                ("tags", i),
                f"{tag!r} is not a tag: lowercase letters, digits and '-', at most {MAX_LENGTH['tag']} characters",
            )
        elif tag in tags:
            report(("tags", i), f"tag {tag!r} is given twice")
        else:
            tags.append(tag)
    return tuple(tags) if len(tags) == len(value) else None


def parse_card(raw: object, deck_type: DeckType, report: Report) -> Card | None:
    """The card ``raw`` describes, or None after reporting every problem it has."""
    if not isinstance(raw, dict):
        report((), f"a card must be an object {{...}}, got {_shown(raw)}")
        return None
    problems: list[str] = []

    def counted(path: Path, message: str) -> None:
        problems.append(message)
        report(path, message)

    _fields(raw, CARD_FIELDS[deck_type], OPTIONAL_FIELDS, counted)
    common = _common(raw, counted)
    card: Card | None
    if deck_type == "estimation":
        card = _estimation(raw, common, counted)
    elif deck_type == "allin":
        card = _allin(raw, common, counted)
    else:
        card = _squizz(raw, common, counted)
    return None if problems else card


def _estimation(
    raw: Mapping[str, object],
    common: tuple[str, str, Difficulty, bool, tuple[str, ...]] | None,
    report: Report,
) -> EstimationCard | None:
    question = _text(raw.get("question", _MISSING), ("question",), "question", report)
    answer = _number(raw.get("answer", _MISSING), ("answer",), report)
    unit = _text(raw.get("unit", _MISSING), ("unit",), "unit", report, empty=True)
    fact = _text(raw.get("fact", _MISSING), ("fact",), "fact", report)
    source = _text(raw.get("source", _MISSING), ("source",), "source", report)
    items = _list(raw.get("hints", _MISSING), ("hints",), 2, "hints", report)
    hints = [_text(h, ("hints", i), "hint", report) for i, h in enumerate(items or [])]
    if len(hints) == 2 and hints[0] is not None and normalise(hints[0]) == normalise(hints[1] or ""):
        report(("hints", 1), "is the same as the first hint")
    if answer is not None and unit is not None and len(hints) == 2:
        _check_hints(hints, answer, unit, report)
    if (
        common is None
        or question is None
        or answer is None
        or unit is None
        or fact is None
        or source is None
        or len(hints) != 2
        or hints[0] is None
        or hints[1] is None
    ):
        return None
    return EstimationCard(
        *common,
        question=question,
        answer=answer,
        unit=unit,
        fact=fact,
        hints=(hints[0], hints[1]),
        source=source,
    )


def _check_hints(hints: list[str | None], answer: Decimal, unit: str, report: Report) -> None:
    """A hint read as a bound must hold the answer; the second must narrow the first down."""
    bounds = [read_hint(h, unit) if h is not None else None for h in hints]
    for i, bound in enumerate(bounds):
        if bound is not None and not bound.holds(answer):
            report(("hints", i), f"{hints[i]!r} is not true: the answer is {format_full(answer)}")
    first, second = bounds
    if first is not None and second is not None and first.meet(second) == first:
        report(("hints", 1), f"{hints[1]!r} does not narrow down the first hint {hints[0]!r}")


def _allin(
    raw: Mapping[str, object],
    common: tuple[str, str, Difficulty, bool, tuple[str, ...]] | None,
    report: Report,
) -> AllInCard | None:
    items = _list(raw.get("statements", _MISSING), ("statements",), 3, "statements", report)
    statements = [_text(s, ("statements", i), "statement", report) for i, s in enumerate(items or [])]
    seen: dict[str, int] = {}
    for i, statement in enumerate(statements):
        if statement is not None:
            if normalise(statement) in seen:
                report(("statements", i), f"is the same as statement {seen[normalise(statement)] + 1}")
            seen.setdefault(normalise(statement), i)
    if common is None or len(statements) != 3 or None in statements:
        return None
    first, second, third = (cast(str, s) for s in statements)
    return AllInCard(*common, statements=(first, second, third))


def _squizz(
    raw: Mapping[str, object],
    common: tuple[str, str, Difficulty, bool, tuple[str, ...]] | None,
    report: Report,
) -> SquizzCard | None:
    prompt = _text(raw.get("prompt", _MISSING), ("prompt",), "prompt", report)
    unit = _text(raw.get("unit", _MISSING), ("unit",), "unit", report, empty=True)
    source = _text(raw.get("source", _MISSING), ("source",), "source", report)
    items = _list(raw.get("propositions", _MISSING), ("propositions",), 3, "propositions (A, B, C)", report)
    propositions = [_proposition(item, i, report) for i, item in enumerate(items or [])]
    for i, p in enumerate(propositions):
        earlier = [e for e in propositions[:i] if e is not None]
        if p is None:
            continue
        same_value = next((e for e in earlier if e.value == p.value), None)
        if same_value is not None:
            report(
                ("propositions", i, "value"),
                f"{p.label} has the same value as {same_value.label} "
                f"({format_full(p.value)}); the three values must all differ (rules.md sQuizz 4)",
            )
        same_text = next((e for e in earlier if normalise(e.text) == normalise(p.text)), None)
        if same_text is not None:
            report(("propositions", i, "text"), f"{p.label} has the same text as {same_text.label}")
    if common is None or prompt is None or unit is None or source is None:
        return None
    if len(propositions) != 3 or None in propositions:
        return None
    a, b, c = (cast(Proposition, p) for p in propositions)
    return SquizzCard(*common, prompt=prompt, unit=unit, propositions=(a, b, c), source=source)


def _proposition(raw: object, i: int, report: Report) -> Proposition | None:
    if not isinstance(raw, dict):
        report(("propositions", i), f'must be an object {{"label", "text", "value"}}, got {_shown(raw)}')
        return None
    label = LABELS[i]
    sub: Report = lambda path, message: report(("propositions", i, *path), message)  # noqa: E731
    _fields(raw, ("label", "text", "value"), frozenset(), sub)
    if "label" in raw and raw["label"] != label:
        sub(("label",), f"must be {label!r} (labels go A, B, C in order), got {raw['label']!r}")
    text = _text(raw.get("text", _MISSING), ("text",), "text", sub)
    value = _number(raw.get("value", _MISSING), ("value",), sub)
    if text is None or value is None or raw.get("label") != label:
        return None
    return Proposition(label=label, text=text, value=value)


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
    return {"estimation": "question", "allin": "statement", "squizz": "prompt and answers"}[deck_type]


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
    deck_id = _text(values.get("id", _MISSING), ("id",), "id", report)
    if deck_id is not None and not ID_PATTERN.fullmatch(deck_id):
        report(("id",), f"{deck_id!r} must be lowercase letters, digits and '-', not starting with '-'")
        deck_id = None
    name = _text(values.get("name", _MISSING), ("name",), "name", report)
    deck_type = values.get("type")
    if "type" in values and deck_type not in DECK_TYPES:
        report(("type",), f"must be one of {', '.join(DECK_TYPES)}, got {deck_type!r}")
    description = _text(values.get("description", ""), ("description",), "description", report, empty=True)
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
        raise InvalidDeck([Problem(f"a deck file is one JSON object {{...}}, got {_shown(doc)}")])
    problems: list[Problem] = []
    cards: list[Card] = []
    info = parse_info(doc, lambda field, message: problems.append(Problem(message, field=field)))
    deck_type = doc.get("type")
    raws = doc.get("cards")
    if "cards" in doc and not isinstance(raws, list):
        problems.append(Problem(f"must be a list of cards, got {_shown(raws)}", field="cards"))
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
