"""The published JSON Schemas document the format; the code decides. They must agree.

jsonschema is not installed, so tests/decks/decks_minischema.py checks the schemas' keyword subset
(it refuses any keyword it does not know). Agreement is shown on the shipped decks, on generated valid
decks, and on a set of bad cards: each one the schema can see is refused by both; the checks only the
code can make (a number that does not parse, a false hint, a repeated id or question, equal sQuizz
values) pass the schema and are refused by the code.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from appliance.decks import Deck, InvalidDeck, dump_deck, load_deck
from appliance.decks.limits import MAX_ALTERNATIVES
from appliance.decks.model import CATEGORIES, DECK_TYPES, DIFFICULTIES, DeckType
from appliance.decks.shipped import shipped_files
from appliance.decks.validate import (
    CARD_FIELDS,
    DECK_FIELDS,
    MAX_CARDS,
    MAX_LENGTH,
    MAX_TAGS,
    OPTIONAL_DECK_FIELDS,
    OPTIONAL_FIELDS,
)
from tests.decks import decks_minischema as minischema
from tests.decks.decks_samples import (
    Json,
    allin_card,
    buzzer_card,
    deck_doc,
    estimation_card,
    propositions,
    squizz_card,
)
from tests.decks.decks_strategies import decks


def schema(deck_type: str) -> Json:
    text = (resources.files("appliance.decks") / "schema" / f"{deck_type}.schema.json").read_text("utf-8")
    loaded: Json = json.loads(text)
    return loaded


def schema_errors(doc: Any) -> list[str]:
    deck_type = doc["type"] if isinstance(doc, dict) and doc.get("type") in DECK_TYPES else "estimation"
    return minischema.errors(schema(deck_type), doc)


def code_refuses(doc: Json) -> bool:
    try:
        load_deck(json.dumps(doc), "json")
    except InvalidDeck:
        return True
    return False


@pytest.mark.parametrize("deck_type", DECK_TYPES)
def test_each_schema_is_draft_2020_12_uses_only_known_keywords_and_names_its_type(deck_type: str) -> None:
    s = schema(deck_type)
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert minischema.keywords(s) <= minischema.KNOWN
    assert s["properties"]["type"] == {"const": deck_type}


@pytest.mark.parametrize("deck_type", DECK_TYPES)
def test_the_schema_limits_and_vocabulary_are_the_codes(deck_type: DeckType) -> None:
    s = schema(deck_type)
    card = s["$defs"]["card"]
    props = card["properties"]
    assert props["category"]["enum"] == list(CATEGORIES)
    assert props["difficulty"]["enum"] == list(DIFFICULTIES)
    assert props["tags"]["maxItems"] == MAX_TAGS
    assert props["tags"]["items"]["maxLength"] == MAX_LENGTH["tag"]
    assert props["id"]["maxLength"] == MAX_LENGTH["id"]
    assert list(props) == list(CARD_FIELDS[deck_type])
    assert sorted(card["required"]) == sorted(set(CARD_FIELDS[deck_type]) - OPTIONAL_FIELDS)
    assert card["additionalProperties"] is False
    assert s["properties"]["cards"]["maxItems"] == MAX_CARDS
    assert list(s["properties"]) == list(DECK_FIELDS)
    assert sorted(s["required"]) == sorted(set(DECK_FIELDS) - OPTIONAL_DECK_FIELDS)
    for field in ("question", "fact", "source", "unit", "statements", "prompt"):
        if field in props:
            limit = props[field].get("items", props[field]).get("maxLength")
            assert limit == MAX_LENGTH["statement" if field == "statements" else field]
    if deck_type == "estimation":
        assert props["hints"]["items"]["maxLength"] == MAX_LENGTH["hint"]
        assert props["answer"]["maxLength"] == MAX_LENGTH["number"]
    if deck_type == "buzzer":
        assert props["answer"]["maxLength"] == MAX_LENGTH["answer"]
        assert props["alternatives"]["items"]["maxLength"] == MAX_LENGTH["answer"]
        assert props["alternatives"]["maxItems"] == MAX_ALTERNATIVES
    if deck_type == "squizz":
        proposition = s["$defs"]["proposition"]["properties"]
        assert (proposition["text"]["maxLength"], proposition["value"]["maxLength"]) == (
            MAX_LENGTH["text"],
            MAX_LENGTH["number"],
        )


def test_every_shipped_deck_file_passes_its_schema() -> None:
    files = shipped_files()
    assert files
    for file in files:
        doc = json.loads(file.read_text("utf-8"))
        assert schema_errors(doc) == [], file.name


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks())
def test_every_deck_the_code_writes_passes_the_schema(deck: Deck) -> None:
    assert schema_errors(json.loads(dump_deck(deck, "json"))) == []


def _without(card: Json, key: str) -> Json:
    return {k: v for k, v in card.items() if k != key}


BOTH_REFUSE: list[tuple[str, Json]] = [
    ("missing answer", deck_doc("estimation", [_without(estimation_card(), "answer")])),
    ("answer as a JSON number", deck_doc("estimation", [estimation_card(answer=12)])),
    ("one hint", deck_doc("estimation", [estimation_card(hints=["More than 10."])])),
    ("empty question", deck_doc("estimation", [estimation_card(question="   ")])),
    ("question too long", deck_doc("estimation", [estimation_card(question="x" * 301)])),
    ("tab in a fact", deck_doc("estimation", [estimation_card(fact="a\tb")])),
    ("unknown category", deck_doc("estimation", [estimation_card(category="spce")])),
    ("difficulty in capitals", deck_doc("estimation", [estimation_card(difficulty="Easy")])),
    ("family as text", deck_doc("estimation", [estimation_card(family="true")])),
    ("misspelt field", deck_doc("estimation", [estimation_card(anwser="12")])),
    ("bad tag", deck_doc("estimation", [estimation_card(tags=["Big Numbers"])])),
    ("tag twice", deck_doc("estimation", [estimation_card(tags=["a", "a"])])),
    ("nine tags", deck_doc("estimation", [estimation_card(tags=[f"t{i}" for i in range(9)])])),
    ("id with a capital", deck_doc("estimation", [estimation_card(id="Est-1")])),
    ("two statements", deck_doc("allin", [allin_card(statements=["a", "b"])])),
    ("statement too long", deck_doc("allin", [allin_card(statements=["a" * 161, "b", "c"])])),
    (
        "proposition without value",
        deck_doc(
            "squizz",
            [squizz_card(propositions=[{"label": "A", "text": "x"}, *propositions(("B", "y", "2"), ("C", "z", "3"))])],
        ),
    ),
    ("buzzer card without an answer", deck_doc("buzzer", [_without(buzzer_card(), "answer")])),
    ("buzzer alternatives as one text", deck_doc("buzzer", [buzzer_card(alternatives="Canberra ACT")])),
    ("buzzer alternative holding the CSV separator", deck_doc("buzzer", [buzzer_card(alternatives=["a; b"])])),
    ("buzzer answer too long", deck_doc("buzzer", [buzzer_card(answer="x" * 81)])),
    ("no cards", deck_doc("estimation", [])),
    ("version 2", deck_doc("estimation", [estimation_card()], version=2)),
    ("version true", deck_doc("estimation", [estimation_card()], version=True)),
    ("not a deck file", deck_doc("estimation", [estimation_card()], format="deck")),
    ("unknown deck field", deck_doc("estimation", [estimation_card()], author="me")),
    ("bad language", deck_doc("estimation", [estimation_card()], language="english")),
    ("allin card in an estimation deck", deck_doc("estimation", [allin_card()])),
]

CODE_ONLY: list[tuple[str, Json]] = [
    ("answer that does not parse", deck_doc("estimation", [estimation_card(answer="12 or so")])),
    ("false hint", deck_doc("estimation", [estimation_card(hints=["More than 20.", "Fewer than 25."])])),
    (
        "hint that does not narrow",
        deck_doc("estimation", [estimation_card(hints=["Fewer than 20.", "Fewer than 30."])]),
    ),
    ("repeated card id", deck_doc("estimation", [estimation_card(), estimation_card(question="Other?")])),
    ("repeated question", deck_doc("estimation", [estimation_card(), estimation_card(id="e2")])),
    (
        "equal sQuizz values (rules.md sQuizz 4)",
        deck_doc(
            "squizz", [squizz_card(propositions=propositions(("A", "x", "1000"), ("B", "y", "1,000"), ("C", "z", "3")))]
        ),
    ),
    (
        "a buzzer alternative that is the answer again",
        deck_doc("buzzer", [buzzer_card(alternatives=["canberra!"])]),
    ),
    ("repeated buzzer question", deck_doc("buzzer", [buzzer_card(), buzzer_card(id="bz-0002")])),
    ("repeated statement", deck_doc("allin", [allin_card(statements=["I ran.", "I swam.", "i ran"])])),
    (
        "first-form letters not A, B, C (a label beside a text is the letter)",
        deck_doc("squizz", [squizz_card(propositions=propositions(("A", "x", "1"), ("C", "y", "2"), ("B", "z", "3")))]),
    ),
]


@pytest.mark.parametrize(("name", "doc"), BOTH_REFUSE, ids=[c[0] for c in BOTH_REFUSE])
def test_a_bad_card_the_schema_can_see_is_refused_by_schema_and_code(name: str, doc: Json) -> None:
    assert schema_errors(doc) != []
    assert code_refuses(doc)


@pytest.mark.parametrize(("name", "doc"), CODE_ONLY, ids=[c[0] for c in CODE_ONLY])
def test_what_only_the_code_can_check_passes_the_schema_and_is_refused_by_the_code(name: str, doc: Json) -> None:
    assert schema_errors(doc) == []
    assert code_refuses(doc)


def test_the_checker_refuses_a_keyword_outside_its_subset() -> None:
    with pytest.raises(ValueError, match="outside the subset"):
        minischema.errors({"type": "string", "format": "email"}, "x")
