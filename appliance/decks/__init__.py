"""Question decks: the v1 deck file format (JSON and CSV), its validation, import, export and drawing.

* :mod:`~appliance.decks.model`: typed frozen records (:class:`Deck`, the four card types, :class:`Problem`);
* :mod:`~appliance.decks.validate`: the single validator (the JSON Schemas in ``schema/`` document it);
* :mod:`~appliance.decks.fields` and :mod:`~appliance.decks.limits`: one card's checks, the limits;
* :mod:`~appliance.decks.hints`: estimation hints read as bounds, so a false hint is refused;
* :mod:`~appliance.decks.io`: :func:`load_deck` / :func:`dump_deck`, JSON and CSV parse/format pairs;
* :mod:`~appliance.decks.bundle` and :mod:`~appliance.decks.media`: a deck with pictures and sounds as one
  zip, checked all or nothing (:func:`load_bundle` / :func:`dump_bundle`);
* :mod:`~appliance.decks.draw`: filters and a draw order that avoids cards already used on this box;
* :mod:`~appliance.decks.shipped`: :func:`shipped_decks`, the decks in ``appliance/data/decks``.

The format for deck writers is in docs/decks.md. The names below are the package's public surface; the
admin page's deck editor (web/) uses only these: besides loading and dumping whole decks, one card as a
JSON object or a CSV row (:func:`card_to_json`, :func:`card_to_row`, :data:`CSV_COLUMNS`), and the
validator's document and card parsers (:func:`parse_document`, :func:`parse_cards`, :func:`make_info`).
"""

from __future__ import annotations

from appliance.decks.bundle import MAX_ZIP_BYTES, Bundle, dump_bundle, has_media, is_zip, load_bundle, load_plain
from appliance.decks.draw import CardFilter, DeckCard, draw_order, pool, used_up
from appliance.decks.io import (
    CSV_COLUMNS,
    FAMILY_WORDS,
    card_to_json,
    card_to_row,
    csv_column,
    dump_deck,
    format_json,
    load_deck,
    row_to_raw,
)
from appliance.decks.limits import MAX_FILE_BYTES
from appliance.decks.model import (
    AllInCard,
    BuzzerCard,
    Card,
    Deck,
    DeckInfo,
    DeckType,
    EstimationCard,
    Problem,
    Proposition,
    SquizzCard,
)
from appliance.decks.shipped import shipped_decks
from appliance.decks.validate import InvalidDeck, make_info, parse_cards, parse_document

__all__ = [
    "CSV_COLUMNS",
    "FAMILY_WORDS",
    "MAX_FILE_BYTES",
    "MAX_ZIP_BYTES",
    "AllInCard",
    "Bundle",
    "BuzzerCard",
    "Card",
    "CardFilter",
    "Deck",
    "DeckCard",
    "DeckInfo",
    "DeckType",
    "EstimationCard",
    "InvalidDeck",
    "Problem",
    "Proposition",
    "SquizzCard",
    "card_to_json",
    "card_to_row",
    "csv_column",
    "draw_order",
    "dump_bundle",
    "dump_deck",
    "format_json",
    "has_media",
    "is_zip",
    "load_bundle",
    "load_deck",
    "load_plain",
    "make_info",
    "parse_cards",
    "parse_document",
    "pool",
    "row_to_raw",
    "shipped_decks",
    "used_up",
]
