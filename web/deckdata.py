"""Decks between the store, the deck format and the admin's forms.

The store keeps each deck as its JSON deck file (``appliance.decks.format_json``), so what the appliance
reads when a game starts is exactly what an export gives. Every change goes through the deck format's one
validator (``appliance.decks.parse_document``) with the whole deck, so a repeated id or question is caught, and
is saved in one transaction or not at all. A new deck may have no cards yet; it is not offered for games
until it has one.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import replace

from appliance.decks import (
    CSV_COLUMNS,
    FAMILY_WORDS,
    InvalidDeck,
    card_to_json,
    card_to_row,
    csv_column,
    format_json,
    make_info,
    parse_cards,
    parse_document,
    row_to_raw,
)
from appliance.decks.model import Card, Deck, DeckInfo, DeckType, Problem
from appliance.infra.store import Store

COMMON = ("id", "category", "difficulty", "family", "tags")
MEDIA_KEYS = ("image", "audio")
"""A card's picture and sound: kept through the card form as they are (they come in with a deck's zip)."""

FIELDS: dict[DeckType, tuple[tuple[str, str, str], ...]] = {
    # (column, label, widget) in the order the form shows them
    "estimation": (
        ("question", "Question", "area"),
        ("answer", "Answer (an exact number, e.g. 384400 or 3.2M)", "text"),
        ("unit", "Unit (e.g. km; may be empty)", "text"),
        ("hint1", "First hint (e.g. more than 100000)", "text"),
        ("hint2", "Second hint, narrower (e.g. less than 500000)", "text"),
        ("fact", "Fact to tell after the answer", "area"),
        ("source", "Source", "text"),
    ),
    "allin": (
        ("statement1", "Statement 1", "area"),
        ("statement2", "Statement 2", "area"),
        ("statement3", "Statement 3", "area"),
    ),
    "squizz": (
        ("prompt", "Prompt (e.g. Height in metres of...)", "area"),
        ("unit", "Unit (may be empty)", "text"),
        ("a_text", "A", "text"),
        ("a_value", "A's value", "text"),
        ("b_text", "B", "text"),
        ("b_value", "B's value", "text"),
        ("c_text", "C", "text"),
        ("c_value", "C's value", "text"),
        ("source", "Source", "text"),
    ),
    "buzzer": (
        ("question", "Question", "area"),
        ("answer", "Answer (short: the quizmaster judges it at a glance)", "text"),
        ("alternatives", "Other answers that count, separated by ; (may be empty)", "text"),
        ("source", "Source", "text"),
    ),
}
TYPE_NAMES: dict[str, str] = {"estimation": "Estimation (Confident?, poker)", "allin": "All In", "squizz": "sQuizz",
                              "buzzer": "Buzzer"}
RESERVED_IDS = frozenset({"new", "import"})
"""Deck ids that would clash with the pages /decks/new and /decks/import."""
ID_PREFIX: dict[str, str] = {"estimation": "est", "allin": "allin", "squizz": "sq", "buzzer": "bz"}


def slug(text: str, limit: int = 40) -> str:
    """An id from a name: lowercase ASCII letters, digits and '-'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return words[:limit].strip("-") or "deck"


def unique_deck_id(store: Store, wanted: str) -> str:
    base = slug(wanted)
    taken = {d["id"] for d in store.decks()} | RESERVED_IDS
    candidate, n = base, 2
    while candidate in taken:
        suffix = f"-{n}"
        candidate = base[: 40 - len(suffix)] + suffix
        n += 1
    return candidate


def from_data(data: Mapping[str, object]) -> Deck:
    """The Deck a stored JSON document holds (a deck without cards is allowed in the store)."""
    if data.get("cards") == []:
        problems: list[Problem] = []

        def report(path: tuple[str | int, ...], message: str) -> None:
            problems.append(Problem(message, field=str(path[0])))

        info = make_info({k: data[k] for k in ("id", "name", "type", "description", "language") if k in data},
                         report)
        if info is None:
            raise InvalidDeck(problems)
        return Deck(info=info, cards=())
    return parse_document(json.loads(json.dumps(data)))


def load(store: Store, deck_id: str) -> Deck | None:
    data = store.deck(deck_id)
    return None if data is None else from_data(data)


def unseen(store: Store) -> dict[str, int]:
    """Per deck, how many of its cards this box has never dealt (or not since the quizmaster reset it)."""
    dealt = store.used_cards()
    counts: dict[str, int] = {}
    for entry in store.decks():
        data = store.deck(entry["id"]) or {}
        cards = data.get("cards") if isinstance(data, dict) else None
        ids = [c.get("id") for c in cards if isinstance(c, dict)] if isinstance(cards, list) else []
        counts[entry["id"]] = sum(f"{entry['id']}/{card_id}" not in dealt for card_id in ids)
    return counts


def is_builtin(store: Store, deck_id: str) -> bool:
    return any(d["id"] == deck_id and d["builtin"] for d in store.decks())


def save(store: Store, deck: Deck, builtin: bool = False) -> None:
    store.save_deck(deck.id, deck.info.name, deck.type, json.loads(format_json(deck)), builtin=builtin)


def check_info(values: Mapping[str, object]) -> tuple[DeckInfo | None, dict[str, str]]:
    errors: dict[str, str] = {}

    def report(path: tuple[str | int, ...], message: str) -> None:
        errors.setdefault(str(path[0]), message)

    info = make_info(values, report)
    return info, errors


# -- cards and forms ---------------------------------------------------------------------------------------


def form_values(card: Card | None) -> dict[str, str]:
    if card is None:
        return {"difficulty": "medium", "family": "true"}
    row = card_to_row(card)
    row["tags"] = " ".join(card.tags)
    return row


def raw_card(form: Mapping[str, str], deck_type: DeckType) -> dict[str, object]:
    """A card form in the shape of a JSON card, so it passes the same validator as an imported file. The form's
    fields are the CSV columns; only the family box and the tags (spaces or commas between them) read apart."""
    row = {column: str(form.get(column, "")) for column in (*CSV_COLUMNS[deck_type], *MEDIA_KEYS)}
    family = "true" if form.get("family") in ("true", "on", "yes", "1") else "false"
    raw = row_to_raw(row, deck_type)
    raw.update(id=row["id"].strip(), family=FAMILY_WORDS[family],
               tags=[t for t in re.split(r"[\s,;]+", row["tags"].strip().lower()) if t])
    return raw


def next_card_id(deck: Deck) -> str:
    prefix = ID_PREFIX[deck.type]
    taken = {c.id for c in deck.cards}
    n = len(deck.cards) + 1
    while f"{prefix}-{n:04d}" in taken:
        n += 1
    return f"{prefix}-{n:04d}"


class CardProblems(Exception):
    """A card form refused: ``fields`` maps a form column to its problems; ``general`` the rest."""

    def __init__(self, fields: dict[str, list[str]], general: list[str]) -> None:
        super().__init__("; ".join([*general, *(f"{k}: {' '.join(v)}" for k, v in fields.items())]))
        self.fields = fields
        self.general = general


def with_card(deck: Deck, form: Mapping[str, str], replacing: str | None = None) -> Deck:
    """``deck`` with the card from ``form`` added (or replacing card ``replacing``), validated as a whole."""
    raws: list[object] = [json.loads(json.dumps(_card_json(c))) for c in deck.cards]
    new = raw_card(form, deck.type)
    if replacing is None:
        index = len(raws)
        raws.append(new)
    else:
        index = next(i for i, c in enumerate(deck.cards) if c.id == replacing)
        new["id"] = replacing  # a card keeps its id: games and the used-cards list name it
        raws[index] = new
    problems: list[tuple[int, Problem]] = []

    def locate(i: int, path: tuple[str | int, ...], message: str) -> Problem:
        problem = Problem(message, card=i + 1, field=csv_column(path) if path else None)
        problems.append((i, problem))
        return problem

    cards, _ = parse_cards(raws, deck.type, locate)
    if problems:
        fields: dict[str, list[str]] = {}
        general: list[str] = []
        for i, problem in problems:
            if i == index and problem.field is not None:
                for column in _columns(problem.field):
                    fields.setdefault(column, []).append(problem.message)
            elif i == index:
                general.append(problem.message)
            else:
                general.append(f"{problem.where()}: {problem.message}")
        raise CardProblems(fields, general)
    return replace(deck, cards=tuple(cards))


def _columns(field: str) -> Sequence[str]:
    return {"hint1, hint2": ("hint1",), "statement1-3": ("statement1",),
            "a_value, b_value, c_value": ("a_value",)}.get(field, (field,))


def _card_json(card: Card) -> dict[str, object]:
    return card_to_json(card)


def without_card(deck: Deck, card_id: str) -> Deck:
    return replace(deck, cards=tuple(c for c in deck.cards if c.id != card_id))


def card_text(card: Card) -> str:
    """The card's main text, for lists and search."""
    row = card_to_row(card)
    if "question" in row:
        return row["question"]
    if "statement1" in row:
        return " / ".join(row[f"statement{i}"] for i in (1, 2, 3))
    return f"{row['prompt']}: A {row['a_text']}, B {row['b_text']}, C {row['c_text']}"


def search_text(card: Card) -> str:
    return " ".join(card_to_row(card).values()).casefold()
