"""Deck files in and out: JSON and CSV, each a parse and format pair, ``parse(format(deck)) == deck``.

:func:`load_deck` is the import the admin page uses: bytes or text in, a :class:`Deck` out or
:class:`~appliance.decks.validate.InvalidDeck` carrying every problem, located (all or nothing).
Before any card is read, the file must be at most :data:`~appliance.decks.validate.MAX_FILE_BYTES`
and UTF-8 (a byte order mark is accepted and dropped).

CSV and spreadsheets (formula injection): on export, a cell of a free-text column (question, fact,
hints, source, unit, statements, prompt, proposition texts, a buzzer card's answer and alternatives)
that starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return gets a leading apostrophe, so a spreadsheet shows it as text instead
of running it as a formula; a text that already starts with an apostrophe followed by one of those or by
another apostrophe gets one too, so the import can tell them apart. On import, a leading apostrophe
followed by one of those characters or by an apostrophe is removed from every cell (a spreadsheet user
may have typed ``'=`` to keep a cell as text). Number columns (an estimation ``answer``, ``a_value``...) are never
prefixed: they are written by :func:`~appliance.games.numbers.format_plain`, so they hold only a sign,
digits and a point (``-40`` stays ``-40``, which a spreadsheet reads as the number -40, never as a
formula); ``id``, ``category``, ``difficulty``, ``family`` and ``tags`` are from a validated vocabulary
of lowercase letters, digits and ``-`` that never starts with ``-``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from appliance.decks.limits import ALTERNATIVES_SEPARATOR, MEDIA_FIELDS
from appliance.decks.model import (
    DECK_TYPES,
    LABELS,
    AllInCard,
    BuzzerCard,
    Card,
    Deck,
    DeckInfo,
    DeckType,
    EstimationCard,
    Problem,
    SquizzCard,
)
from appliance.decks.validate import (
    FORMAT,
    MAX_FILE_BYTES,
    VERSION,
    InvalidDeck,
    JsonObject,
    Path,
    make_info,
    parse_cards,
    parse_document,
)
from appliance.games.numbers import format_plain

Format = Literal["json", "csv"]

CSV_COLUMNS: dict[DeckType, tuple[str, ...]] = {
    "estimation": (
        "id",
        "category",
        "difficulty",
        "family",
        "tags",
        "question",
        "answer",
        "unit",
        "fact",
        "hint1",
        "hint2",
        "source",
    ),
    "allin": ("id", "category", "difficulty", "family", "tags", "statement1", "statement2", "statement3"),
    "squizz": (
        "id",
        "category",
        "difficulty",
        "family",
        "tags",
        "prompt",
        "unit",
        "a_text",
        "a_value",
        "b_text",
        "b_value",
        "c_text",
        "c_value",
        "source",
    ),
    "buzzer": ("id", "category", "difficulty", "family", "tags", "question", "answer", "alternatives", "source"),
}
TEXT_COLUMNS = frozenset(
    {
        "question",
        "unit",
        "fact",
        "hint1",
        "hint2",
        "source",
        "statement1",
        "statement2",
        "statement3",
        "prompt",
        "a_text",
        "b_text",
        "c_text",
    }
)
"""Free-text CSV columns: neutralised against formula injection on export."""
BUZZER_TEXT_COLUMNS = TEXT_COLUMNS | {"answer", "alternatives"}
"""A buzzer deck's free-text columns: its answer is a text, not a number."""

FAMILY_WORDS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
_RISKY = ("=", "+", "-", "@", "\t", "\r")


def load_deck(data: str | bytes, fmt: Format, info: DeckInfo | None = None) -> Deck:
    """The deck in ``data`` (a whole file); raises :class:`InvalidDeck` listing every problem.

    A JSON file carries its own id, name and type (``info`` must be None). A CSV file holds cards only:
    ``info`` gives the deck's id, name, description and language, and its type must match the header's;
    without it the type is read from the header and the deck is called ``imported-<type>``.
    """
    text = decode(data)
    if fmt == "json":
        if info is not None:
            raise ValueError("a JSON deck file carries its own id, name and type: pass no DeckInfo")
        return parse_json(text)
    if fmt == "csv":
        return parse_csv(text, info)
    raise ValueError(f"unknown deck file format {fmt!r}; expected 'json' or 'csv'")


def dump_deck(deck: Deck, fmt: Format) -> str:
    """The deck as a file's text; :func:`load_deck` reads it back equal (CSV with ``deck.info``)."""
    if fmt == "json":
        return format_json(deck)
    if fmt == "csv":
        return format_csv(deck)
    raise ValueError(f"unknown deck file format {fmt!r}; expected 'json' or 'csv'")


def decode(data: str | bytes) -> str:
    """The file's text: at most MAX_FILE_BYTES, UTF-8, without a byte order mark."""
    size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
    if size > MAX_FILE_BYTES:
        raise InvalidDeck([Problem(f"the file is too big: {size} bytes, at most {MAX_FILE_BYTES}")])
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        byte = data[exc.start]
        raise InvalidDeck(
            [
                Problem(
                    f"the file is not UTF-8 text (byte 0x{byte:02x} cannot be read); save it as UTF-8 "
                    "(in a spreadsheet: 'CSV UTF-8')",
                    line=line,
                )
            ]
        ) from None


# --- JSON -----------------------------------------------------------------------------------------------


def parse_json(text: str) -> Deck:
    """The deck in a JSON deck file's text (see docs/decks.md)."""
    try:
        doc = json.loads(text, object_pairs_hook=_object, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InvalidDeck([Problem(f"not valid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno)]) from None
    except ValueError as exc:
        raise InvalidDeck([Problem(f"not valid JSON: {exc}")]) from None
    except RecursionError:
        raise InvalidDeck([Problem("not a deck file: the JSON is nested far too deeply")]) from None
    return parse_document(doc)


def _object(pairs: list[tuple[str, object]]) -> JsonObject:
    obj = JsonObject(pairs)
    keys = [key for key, _ in pairs]
    obj.repeated = tuple(sorted({key for key in keys if keys.count(key) > 1}))
    return obj


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON value")


def format_json(deck: Deck) -> str:
    """The deck as a JSON deck file (UTF-8 text, two-space indent, one final newline)."""
    doc: dict[str, object] = {
        "format": FORMAT,
        "version": VERSION,
        "id": deck.info.id,
        "name": deck.info.name,
        "type": deck.info.type,
        "description": deck.info.description,
        "language": deck.info.language,
        "cards": [card_to_json(card) for card in deck.cards],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def card_to_json(card: Card) -> dict[str, object]:
    """One card as its JSON object (the ``tags`` field only when there are tags)."""
    obj: dict[str, object] = {
        "id": card.id,
        "category": card.category,
        "difficulty": card.difficulty,
        "family": card.family,
    }
    if card.tags:
        obj["tags"] = list(card.tags)
    if isinstance(card, EstimationCard):
        obj.update(
            question=card.question,
            answer=format_plain(card.answer),
            unit=card.unit,
            fact=card.fact,
            hints=list(card.hints),
            source=card.source,
        )
    elif isinstance(card, AllInCard):
        obj.update(statements=list(card.statements))
    elif isinstance(card, BuzzerCard):
        obj.update(question=card.question, answer=card.answer, alternatives=list(card.alternatives), source=card.source)
    else:
        obj.update(
            prompt=card.prompt,
            unit=card.unit,
            source=card.source,
            propositions=[
                {"label": p.text, "value": format_plain(p.value)} for p in card.propositions
            ],
        )
    obj.update(card_media(card))
    return obj


def card_media(card: Card) -> dict[str, str]:
    """A card's ``image`` and ``audio`` that it has (a card without media has neither field)."""
    return {key: name for key in MEDIA_FIELDS if (name := getattr(card, key)) is not None}


# --- CSV ------------------------------------------------------------------------------------------------


def parse_csv(text: str, info: DeckInfo | None = None) -> Deck:
    """The deck in a CSV file's text: a header row naming a deck type's columns, then one card a row."""
    rows = _records(text)
    if not rows:
        raise InvalidDeck([Problem("the file is empty: it needs a header row, then one card a row")])
    header_line, header = rows[0]
    columns = [cell.strip().lower().removeprefix("\ufeff") for cell in header]
    deck_type = _header_type(columns, header_line, info)
    if info is None:
        info = DeckInfo(id=f"imported-{deck_type}", name=f"Imported {deck_type} cards", type=deck_type)
    problems = _check_info(info)
    lines: list[int] = []
    raws: list[object] = []
    for line, cells in rows[1:]:
        if not any(cell.strip() for cell in cells):
            continue  # spreadsheets add empty rows at the end
        if len(cells) != len(columns):
            problems.append(
                Problem(
                    f"{len(cells)} cells, the header has {len(columns)} (a comma inside a "
                    "text needs the whole cell in double quotes)",
                    line=line,
                )
            )
            continue
        lines.append(line)
        raws.append(row_to_raw(dict(zip(columns, (_unescape(c) for c in cells), strict=True)), deck_type))
    cards, card_problems = parse_cards(raws, deck_type, _locate_csv(raws, lines))
    problems.extend(card_problems)
    if problems:
        raise InvalidDeck(problems)
    return Deck(info=info, cards=tuple(cards))


def _records(text: str) -> list[tuple[int, list[str]]]:
    """The CSV records, each with the line it starts on; a broken quote is a located problem."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=_delimiter(text))
    records: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for cells in reader:
            records.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise InvalidDeck([Problem(f"not readable as CSV: {exc}", line=start)]) from None
    return records


def _delimiter(text: str) -> str:
    """The file's separator: a comma, or the semicolon (or tab) a spreadsheet saved it with where the
    decimal mark is a comma (Excel in most of Europe). Read from the header row, the first row that is
    not a ``#`` line."""
    header = next((line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")), "")
    counts = {sep: header.count(sep) for sep in (",", ";", "\t")}
    best = max(counts, key=lambda sep: counts[sep])
    return best if counts[best] > counts[","] else ","


def _header_type(columns: list[str], line: int, info: DeckInfo | None) -> DeckType:
    plain = [c for c in columns if c not in MEDIA_FIELDS]  # a deck with media adds these optional columns
    for deck_type in DECK_TYPES:
        if sorted(plain) == sorted(CSV_COLUMNS[deck_type]) and len(set(columns) - set(plain)) == len(columns) - len(
                plain):
            if info is not None and info.type != deck_type:
                raise InvalidDeck(
                    [
                        Problem(
                            f"the header has the columns of {_a(deck_type)} deck, but the deck is {_a(info.type)} deck",
                            line=line,
                        )
                    ]
                )
            return deck_type
    wanted = [info.type] if info is not None else list(DECK_TYPES)
    problems: list[Problem] = []
    for duplicate in sorted({c for c in columns if columns.count(c) > 1}):
        problems.append(Problem(f"column {duplicate!r} appears more than once", line=line))
    closest = info.type if info is not None else max(
        DECK_TYPES, key=lambda t: len(set(columns) & set(CSV_COLUMNS[t])))  # the type the header is nearest
    if info is not None or set(columns) & set(CSV_COLUMNS[closest]) - {"id", "category", "difficulty", "family",
                                                                      "tags", "unit", "source"}:
        expected = CSV_COLUMNS[closest]
        kind = "" if info is not None else f" (for {_a(closest)} deck)"
        problems += [Problem(f"missing column {c!r}{kind}", line=line) for c in expected if c not in columns]
        problems += [Problem(f"unknown column {c!r}", line=line) for c in dict.fromkeys(columns)
                     if c not in expected and c not in MEDIA_FIELDS]
    problems.append(
        Problem(
            "the header row must name the columns of a deck type: "
            + "; ".join(f"{t}: {','.join(CSV_COLUMNS[t])}" for t in wanted),
            line=line,
        )
    )
    raise InvalidDeck(problems)


def _a(deck_type: DeckType) -> str:
    return f"an {deck_type}" if deck_type[0] in "aeiou" else f"a {deck_type}"


def _check_info(info: DeckInfo) -> list[Problem]:
    problems: list[Problem] = []
    make_info(
        {
            "id": info.id,
            "name": info.name,
            "type": info.type,
            "description": info.description,
            "language": info.language,
        },
        lambda path, message: problems.append(Problem(message, field=f"deck {path[0]}")),
    )
    return problems


def row_to_raw(row: Mapping[str, str], deck_type: DeckType) -> dict[str, object]:
    """A CSV row (or the admin page's card form, by the same column names) in the shape of a JSON card, so
    both go through the same checks."""
    family = row["family"].strip()
    raw: dict[str, object] = {
        "id": row["id"],
        "category": row["category"].strip(),
        "difficulty": row["difficulty"].strip(),
        "family": FAMILY_WORDS.get(family.lower(), family),
        "tags": [tag.strip() for tag in row["tags"].split(";") if tag.strip()],
    }
    if deck_type == "estimation":
        raw.update(
            question=row["question"],
            answer=row["answer"],
            unit=row["unit"],
            fact=row["fact"],
            hints=[row["hint1"], row["hint2"]],
            source=row["source"],
        )
    elif deck_type == "allin":
        raw.update(statements=[row["statement1"], row["statement2"], row["statement3"]])
    elif deck_type == "buzzer":
        alternatives = [a.strip() for a in row["alternatives"].split(ALTERNATIVES_SEPARATOR) if a.strip()]
        raw.update(question=row["question"], answer=row["answer"], alternatives=alternatives, source=row["source"])
    else:
        raw.update(
            prompt=row["prompt"],
            unit=row["unit"],
            source=row["source"],
            propositions=[
                {"label": row[f"{letter.lower()}_text"], "value": row[f"{letter.lower()}_value"]}
                for letter in LABELS
            ],
        )
    for key in MEDIA_FIELDS:
        if row.get(key, "").strip():
            raw[key] = row[key].strip()
    return raw


def csv_column(path: Path) -> str:
    """The CSV column of a card field: ``("hints", 1)`` is ``hint2``, ``("propositions", 0, "value")``
    is ``a_value``."""
    head = path[0] if path else ""
    if head in ("hints", "statements") and len(path) > 1 and isinstance(path[1], int):
        return f"{str(head)[:-1]}{path[1] + 1}"
    if head == "propositions" and len(path) > 2 and isinstance(path[1], int):
        return f"{'abc'[path[1]]}_{'text' if path[2] == 'label' else path[2]}"  # a label is its text
    if head == "family" or head not in ("hints", "statements", "propositions", "alternatives"):
        return str(head)
    return {
        "hints": "hint1, hint2",
        "statements": "statement1-3",
        "propositions": "a_value, b_value, c_value",
        "alternatives": "alternatives",
    }[str(head)]


def _locate_csv(raws: Sequence[object], lines: Sequence[int]) -> Callable[[int, Path, str], Problem]:
    def locate(i: int, path: Path, message: str) -> Problem:
        raw = raws[i]
        raw_id = raw.get("id") if isinstance(raw, dict) else None
        card_id = raw_id.strip() if isinstance(raw_id, str) and raw_id.strip() else None
        if path and path[0] == "family":
            message = message.replace("true or false", "true/false/yes/no/1/0")
        return Problem(message, line=lines[i], card_id=card_id, field=csv_column(path) if path else None)

    return locate


def format_csv(deck: Deck) -> str:
    """The deck's cards as CSV (header row, RFC 4180 quoting, text cells neutralised, see above)."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    columns = CSV_COLUMNS[deck.info.type] + tuple(k for k in MEDIA_FIELDS if any(getattr(c, k) for c in deck.cards))
    texts = BUZZER_TEXT_COLUMNS if deck.info.type == "buzzer" else TEXT_COLUMNS
    writer.writerow(columns)
    for card in deck.cards:
        row = card_to_row(card)
        writer.writerow([_escape(row[c]) if c in texts else row[c] for c in columns])
    return out.getvalue()


def card_to_row(card: Card) -> dict[str, str]:
    """One card as CSV cells by column name (not yet neutralised)."""
    row = {
        "id": card.id,
        "category": card.category,
        "difficulty": card.difficulty,
        "family": "true" if card.family else "false",
        "tags": ";".join(card.tags),
    }
    if isinstance(card, EstimationCard):
        row.update(
            question=card.question,
            answer=format_plain(card.answer),
            unit=card.unit,
            fact=card.fact,
            hint1=card.hints[0],
            hint2=card.hints[1],
            source=card.source,
        )
    elif isinstance(card, AllInCard):
        row.update(statement1=card.statements[0], statement2=card.statements[1], statement3=card.statements[2])
    elif isinstance(card, BuzzerCard):
        row.update(question=card.question, answer=card.answer, source=card.source,
                   alternatives=f"{ALTERNATIVES_SEPARATOR} ".join(card.alternatives))
    elif isinstance(card, SquizzCard):
        row.update(prompt=card.prompt, unit=card.unit, source=card.source)
        for p in card.propositions:
            row[f"{p.letter.lower()}_text"] = p.text
            row[f"{p.letter.lower()}_value"] = format_plain(p.value)
    row.update({key: getattr(card, key) or "" for key in MEDIA_FIELDS})
    return row


def _escape(cell: str) -> str:
    """A text cell a spreadsheet will not run as a formula (see the module docstring)."""
    if cell.startswith(_RISKY) or (cell.startswith("'") and cell[1:2] in (*_RISKY, "'")):
        return "'" + cell
    return cell


def _unescape(cell: str) -> str:
    """``_escape`` undone: one leading apostrophe dropped before a risky character or an apostrophe."""
    if cell.startswith("'") and len(cell) > 1 and cell[1] in (*_RISKY, "'"):
        return cell[1:]
    return cell
