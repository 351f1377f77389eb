"""The checks of one card's fields: each problem reported with the path of the value it is about.

:func:`parse_card` turns a raw card (a JSON object, or a CSV row in the same shape) into a typed record,
or reports every problem it has through ``report`` and returns None. Deck-wide checks (repeated ids and
questions, the card count) are in :mod:`appliance.decks.validate`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import cast

from appliance.decks.hints import read_hint
from appliance.decks.limits import (
    ALTERNATIVES_SEPARATOR,
    AUDIO_EXTENSIONS,
    CARD_FIELDS,
    ID_PATTERN,
    IMAGE_EXTENSIONS,
    MAX_ALTERNATIVES,
    MAX_LENGTH,
    MAX_TAGS,
    MEDIA_NAME_PATTERN,
    OPTIONAL_FIELDS,
    TAG_PATTERN,
)
from appliance.decks.model import (
    CATEGORIES,
    DIFFICULTIES,
    LABELS,
    AllInCard,
    BuzzerCard,
    Card,
    DeckType,
    Difficulty,
    EstimationCard,
    Proposition,
    SquizzCard,
    with_media,
)
from appliance.errors import MalformedInput
from appliance.games.numbers import format_full, parse_number

Path = tuple[str | int, ...]
"""Where a value is inside a card: ``("hints", 1)``, ``("propositions", 0, "value")``."""

Report = Callable[[Path, str], None]


def normalise(text: str) -> str:
    """Text compared for duplicates: case, accents' forms, punctuation and spacing ignored."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[\W_]+", " ", folded).split())


def _fields(raw: Mapping[str, object], known: Sequence[str], optional: frozenset[str], report: Report) -> None:
    for key in getattr(raw, "repeated", ()):
        report((key,), "this field is written more than once")
    for key in raw:
        if key not in known:
            report((key,), f"unknown field; a card of this type has: {', '.join(known)}")
    for key in known:
        if key not in raw and key not in optional:
            report((key,), "missing")


MISSING = object()
"""A field the card does not have: already reported as missing, so the checks stay quiet."""


def check_text(value: object, path: Path, limit: str, report: Report, *, empty: bool = False) -> str | None:
    if value is MISSING:
        return None
    if not isinstance(value, str):
        report(path, f"must be text, got {describe(value)}")
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
    if value is MISSING:
        return None
    if not isinstance(value, str):
        report(path, f'must be a number written as text in quotes, e.g. "12", got {describe(value)}')
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
    if value is MISSING:
        return None
    if not isinstance(value, list):
        report(path, f"must be a list of {count} {what}, got {describe(value)}")
        return None
    if len(value) != count:
        report(path, f"must hold exactly {count} {what}, got {len(value)}")
        return None
    return value


def describe(value: object) -> str:
    kind = {dict: "an object", list: "a list", bool: "true/false", type(None): "null"}.get(type(value))
    if kind is None and isinstance(value, (int, float)):
        kind = f"the bare number {value!r}"
    return kind or repr(value)


def _common(raw: Mapping[str, object], report: Report) -> tuple[str, str, Difficulty, bool, tuple[str, ...]] | None:
    card_id = check_text(raw.get("id", MISSING), ("id",), "id", report)
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
        report(("family",), f"must be true or false, got {describe(family)}")
    tags = _tags(raw.get("tags", []), report)
    if card_id is None or category not in CATEGORIES or difficulty not in DIFFICULTIES:
        return None
    if not isinstance(family, bool) or tags is None:
        return None
    return card_id, category, difficulty, family, tags


def _tags(value: object, report: Report) -> tuple[str, ...] | None:
    if not isinstance(value, list):
        report(("tags",), f"must be a list of words, got {describe(value)}")
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
        report((), f"a card must be an object {{...}}, got {describe(raw)}")
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
    elif deck_type == "buzzer":
        card = _buzzer(raw, common, counted)
    else:
        card = _squizz(raw, common, counted)
    image = _media_name(raw["image"], "image", counted) if "image" in raw else None
    audio = _media_name(raw["audio"], "audio", counted) if "audio" in raw else None
    if problems or card is None:
        return None
    return with_media(card, image, audio) if image or audio else card


def _media_name(value: object, key: str, report: Report) -> str | None:
    """A card's ``image`` or ``audio``: the name of a file of the deck's media, with a picture's or a
    sound's extension (whether the file is there and what it holds is checked with the deck's zip)."""
    name = check_text(value, (key,), "media", report)
    if name is None:
        return None
    kinds = IMAGE_EXTENSIONS if key == "image" else AUDIO_EXTENSIONS
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if not MEDIA_NAME_PATTERN.fullmatch(name):
        report((key,), f"{name!r} is not a media file name: folders and a name of letters, digits, '.', '_' "
               "and '-', each starting with a letter or digit (no '..', no leading '/', no '\\')")
    elif ext not in kinds:
        what = "a picture" if key == "image" else "a sound"
        report((key,), f"{name!r} is not {what}: the name must end in "
               + ", ".join(f".{e}" for e in kinds))
    else:
        return name
    return None


def _estimation(
    raw: Mapping[str, object],
    common: tuple[str, str, Difficulty, bool, tuple[str, ...]] | None,
    report: Report,
) -> EstimationCard | None:
    question = check_text(raw.get("question", MISSING), ("question",), "question", report)
    answer = _number(raw.get("answer", MISSING), ("answer",), report)
    unit = check_text(raw.get("unit", MISSING), ("unit",), "unit", report, empty=True)
    fact = check_text(raw.get("fact", MISSING), ("fact",), "fact", report)
    source = check_text(raw.get("source", MISSING), ("source",), "source", report)
    items = _list(raw.get("hints", MISSING), ("hints",), 2, "hints", report)
    hints = [check_text(h, ("hints", i), "hint", report) for i, h in enumerate(items or [])]
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
    items = _list(raw.get("statements", MISSING), ("statements",), 3, "statements", report)
    statements = [check_text(s, ("statements", i), "statement", report) for i, s in enumerate(items or [])]
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


def _buzzer(
    raw: Mapping[str, object],
    common: tuple[str, str, Difficulty, bool, tuple[str, ...]] | None,
    report: Report,
) -> BuzzerCard | None:
    question = check_text(raw.get("question", MISSING), ("question",), "question", report)
    answer = check_text(raw.get("answer", MISSING), ("answer",), "answer", report)
    source = check_text(raw.get("source", MISSING), ("source",), "source", report)
    alternatives = _alternatives(raw.get("alternatives", []), answer, report)
    if common is None or question is None or answer is None or source is None or alternatives is None:
        return None
    return BuzzerCard(*common, question=question, answer=answer, alternatives=alternatives, source=source)


def _alternatives(value: object, answer: str | None, report: Report) -> tuple[str, ...] | None:
    """A buzzer card's other accepted answers: texts, none the answer again or another alternative again,
    none holding the CSV cell's separator."""
    if not isinstance(value, list):
        report(("alternatives",), f"must be a list of texts, got {describe(value)}")
        return None
    if len(value) > MAX_ALTERNATIVES:
        report(("alternatives",), f"too many alternatives: {len(value)}, at most {MAX_ALTERNATIVES}")
        return None
    seen = {normalise(answer): "the answer"} if answer is not None else {}
    kept: list[str] = []
    for i, item in enumerate(value):
        text = check_text(item, ("alternatives", i), "answer", report)
        if text is None:
            continue
        if ALTERNATIVES_SEPARATOR in text:
            report(("alternatives", i), f"must not contain {ALTERNATIVES_SEPARATOR!r}: it separates the "
                   "alternatives in a CSV cell; write two alternatives instead")
        elif normalise(text) in seen:
            report(("alternatives", i), f"{text!r} is the same as {seen[normalise(text)]}")
        else:
            seen[normalise(text)] = f"alternative {i + 1}"
            kept.append(text)
    return tuple(kept) if len(kept) == len(value) else None


def _squizz(
    raw: Mapping[str, object],
    common: tuple[str, str, Difficulty, bool, tuple[str, ...]] | None,
    report: Report,
) -> SquizzCard | None:
    prompt = check_text(raw.get("prompt", MISSING), ("prompt",), "prompt", report)
    unit = check_text(raw.get("unit", MISSING), ("unit",), "unit", report, empty=True)
    source = check_text(raw.get("source", MISSING), ("source",), "source", report)
    items = _list(raw.get("propositions", MISSING), ("propositions",), 3, "propositions (A, B, C)", report)
    propositions = [_proposition(item, i, report) for i, item in enumerate(items or [])]
    for i, p in enumerate(propositions):
        earlier = [e for e in propositions[:i] if e is not None]
        if p is None:
            continue
        same_value = next((e for e in earlier if e.value == p.value), None)
        if same_value is not None:
            report(
                ("propositions", i, "value"),
                f"{p.letter} has the same value as {same_value.letter} "
                f"({format_full(p.value)}); the three values must all differ (rules.md sQuizz 4)",
            )
        same_text = next((e for e in earlier if normalise(e.text) == normalise(p.text)), None)
        if same_text is not None:
            written = items[i] if items is not None else None
            where = "text" if isinstance(written, dict) and "text" in written else "label"
            report(("propositions", i, where), f"{p.letter} has the same text as {same_text.letter}")
    if common is None or prompt is None or unit is None or source is None:
        return None
    if len(propositions) != 3 or None in propositions:
        return None
    a, b, c = (cast(Proposition, p) for p in propositions)
    return SquizzCard(*common, prompt=prompt, unit=unit, propositions=(a, b, c), source=source)


def _proposition(raw: object, i: int, report: Report) -> Proposition | None:
    """``{"label": its text, "value"}``; its letter is its position (rules.md sQuizz 4). The first deck files
    wrote ``{"label": letter, "text", "value"}``: that form still loads, its label then being the letter."""
    if not isinstance(raw, dict):
        report(("propositions", i), f'must be an object {{"label", "value"}}, got {describe(raw)}')
        return None
    letter = LABELS[i]
    sub: Report = lambda path, message: report(("propositions", i, *path), message)  # noqa: E731
    _fields(raw, ("label", "text", "value"), frozenset({"text"}), sub)
    if "text" in raw:  # the first form: the label is the letter, the text beside it
        if "label" in raw and raw["label"] != letter:
            sub(("label",), f"must be {letter!r} beside a text (letters go A, B, C in order), got {raw['label']!r}")
        text = check_text(raw["text"], ("text",), "text", sub)
        lettered = raw.get("label") == letter
    else:
        text = check_text(raw.get("label", MISSING), ("label",), "text", sub)
        lettered = True
    value = _number(raw.get("value", MISSING), ("value",), sub)
    if text is None or value is None or not lettered:
        return None
    return Proposition(letter=letter, text=text, value=value)
