"""The validator: every problem found, located (card, field / line, column) and explained; all or nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from appliance.decks import InvalidDeck, Problem, SquizzCard, dump_deck, load_deck
from appliance.decks.validate import MAX_CARDS, MAX_FILE_BYTES, MAX_LENGTH, MAX_TAGS
from appliance.errors import DeckError, MalformedInput
from tests.decks.decks_samples import (
    Json,
    allin_card,
    buzzer_card,
    deck_doc,
    estimation_card,
    propositions,
    squizz_card,
)


def problems_of(doc: Json | str | bytes) -> list[Problem]:
    data = doc if isinstance(doc, (str, bytes)) else json.dumps(doc)
    with pytest.raises(InvalidDeck) as refused:
        load_deck(data, "json")
    return refused.value.problems


def only_problem(doc: Json | str | bytes) -> Problem:
    problems = problems_of(doc)
    assert len(problems) == 1, [str(p) for p in problems]
    return problems[0]


def test_a_valid_card_of_each_type_loads() -> None:
    for deck_type, card in (
        ("estimation", estimation_card()),
        ("allin", allin_card()),
        ("squizz", squizz_card()),
        ("buzzer", buzzer_card()),
    ):
        deck = load_deck(json.dumps(deck_doc(deck_type, [card])), "json")
        assert deck.type == deck_type
        assert [c.id for c in deck.cards] == [card["id"]]


def test_invalid_deck_is_a_deck_error_and_a_malformed_input() -> None:
    with pytest.raises(DeckError) as refused:
        load_deck(json.dumps(deck_doc("estimation", [estimation_card(answer="lots")])), "json")
    assert isinstance(refused.value, MalformedInput)
    assert "card 1 (est-0001), field 'answer'" in str(refused.value)


ESTIMATION_BAD: list[tuple[str, Json, str, str]] = [
    ("missing question", {"question": None}, "question", "missing"),
    ("answer not a number", {"answer": "about twelve"}, "answer", "not a number"),
    ("answer as a JSON number", {"answer": 12}, "answer", "in quotes"),
    ("ambiguous decimal comma", {"answer": "1,5"}, "answer", "ambiguous"),
    ("one hint", {"hints": ["More than 10."]}, "hints", "exactly 2 hints"),
    ("three hints", {"hints": ["More than 10.", "Fewer than 15.", "Even."]}, "hints", "exactly 2 hints"),
    ("hints not a list", {"hints": "More than 10."}, "hints", "must be a list"),
    ("false first hint", {"hints": ["More than 20 people.", "Fewer than 25."]}, "hints[0]", "is not true"),
    ("false second hint", {"hints": ["More than 10.", "Between 13 and 15."]}, "hints[1]", "is not true"),
    ("second hint adds nothing", {"hints": ["Between 10 and 14.", "Fewer than 20."]}, "hints[1]", "does not narrow"),
    ("same hint twice", {"hints": ["It is even.", "it is EVEN!"]}, "hints[1]", "same as the first hint"),
    ("empty hint", {"hints": ["More than 10.", "  "]}, "hints[1]", "must not be empty"),
    ("question too long", {"question": "Q" * (MAX_LENGTH["question"] + 1)}, "question", "too long"),
    ("line break in a question", {"question": "Two\nlines?"}, "question", "control character"),
    ("empty fact", {"fact": ""}, "fact", "must not be empty"),
    ("lone surrogate escape", {"fact": "broken \ud800 text"}, "fact", "unpaired surrogate"),
    ("source not text", {"source": ["NASA"]}, "source", "must be text"),
    ("unit missing", {"unit": None}, "unit", "missing"),
    ("unknown category", {"category": "spce"}, "category", "unknown category 'spce'"),
    ("unknown difficulty", {"difficulty": "extreme"}, "difficulty", "easy, medium, hard"),
    ("family as text", {"family": "yes"}, "family", "true or false"),
    ("tag with a space", {"tags": ["Deep Space"]}, "tags[0]", "is not a tag"),
    ("tag twice", {"tags": ["moon", "moon"]}, "tags[1]", "given twice"),
    ("too many tags", {"tags": [f"t{i}" for i in range(MAX_TAGS + 1)]}, "tags", "too many tags"),
    ("tags not a list", {"tags": "moon"}, "tags", "list of words"),
    ("id with capitals", {"id": "Est 1"}, "id", "lowercase letters"),
    ("misspelt field", {"anwser": "12"}, "anwser", "unknown field"),
]


@pytest.mark.parametrize(("name", "changes", "field", "reason"), ESTIMATION_BAD, ids=[c[0] for c in ESTIMATION_BAD])
def test_a_bad_estimation_card_is_refused_with_its_field_and_reason(
    name: str, changes: Json, field: str, reason: str
) -> None:
    card = estimation_card(**changes)
    for key in [k for k, v in changes.items() if v is None]:
        del card[key]
    good = estimation_card(
        id="est-0002", question="How many moons has Mars?", answer="2", unit="", hints=["Fewer than 5.", "More than 1."]
    )
    problem = only_problem(deck_doc("estimation", [good, card]))
    assert (problem.card, problem.card_id, problem.field) == (2, card.get("id", "est-0001"), field)
    assert reason in problem.message


ALLIN_BAD: list[tuple[str, Json, str, str]] = [
    ("two statements", {"statements": ["I have sung.", "I have danced."]}, "statements", "exactly 3"),
    (
        "same statement twice",
        {"statements": ["I have sung.", "I have danced.", "I have SUNG"]},
        "statements[2]",
        "same as statement 1",
    ),
    (
        "statement too long",
        {"statements": ["I" * (MAX_LENGTH["statement"] + 1), "a", "b"]},
        "statements[0]",
        "too long",
    ),
    ("statement not text", {"statements": ["I have sung.", 3, "I have danced."]}, "statements[1]", "must be text"),
    ("estimation field on an All In card", {"question": "Why?"}, "question", "unknown field"),
]


@pytest.mark.parametrize(("name", "changes", "field", "reason"), ALLIN_BAD, ids=[c[0] for c in ALLIN_BAD])
def test_a_bad_allin_card_is_refused_with_its_field_and_reason(
    name: str, changes: Json, field: str, reason: str
) -> None:
    problem = only_problem(deck_doc("allin", [allin_card(**changes)]))
    assert (problem.card, problem.field) == (1, field)
    assert reason in problem.message


SQUIZZ_BAD: list[tuple[str, Json, str, str]] = [
    (
        "two values equal (rules.md sQuizz 4)",
        {"propositions": propositions(("A", "Yoda", "900"), ("B", "Noah", "950"), ("C", "Papa Smurf", "900"))},
        "propositions[2].value",
        "rules.md sQuizz 4",
    ),
    (
        "equal values written differently",
        {"propositions": propositions(("A", "x", "1,000"), ("B", "y", "2000"), ("C", "z", "1k"))},
        "propositions[2].value",
        "same value as A (1,000)",
    ),
    (
        "labels not A, B, C",
        {"propositions": propositions(("A", "Yoda", "900"), ("b", "Noah", "950"), ("C", "Smurf", "542"))},
        "propositions[1].label",
        "must be 'B' beside a text (letters go A, B, C in order)",
    ),
    (
        "two propositions",
        {"propositions": propositions(("A", "Yoda", "900"), ("B", "Noah", "950"))},
        "propositions",
        "exactly 3",
    ),
    (
        "same text twice",
        {"propositions": propositions(("A", "Noah", "900"), ("B", "noah", "950"), ("C", "Smurf", "542"))},
        "propositions[1].text",
        "same text as A",
    ),
    (
        "value not a number",
        {"propositions": propositions(("A", "Yoda", "old"), ("B", "Noah", "950"), ("C", "Smurf", "542"))},
        "propositions[0].value",
        "not a number",
    ),
    (
        "proposition without a label",
        {"propositions": [{"value": "1"}, *propositions(("B", "Noah", "950"), ("C", "Smurf", "542"))]},
        "propositions[0].label",
        "missing",
    ),
    (
        "blank label",
        {"propositions": [{"label": " ", "value": "1"}, *propositions(("B", "Noah", "950"), ("C", "Smurf", "542"))]},
        "propositions[0].label",
        "must not be empty",
    ),
    (
        "proposition not an object",
        {"propositions": ["Yoda", *propositions(("B", "Noah", "950"), ("C", "Smurf", "542"))]},
        "propositions[0]",
        "must be an object",
    ),
    ("missing source", {"source": None}, "source", "missing"),
]


@pytest.mark.parametrize(("name", "changes", "field", "reason"), SQUIZZ_BAD, ids=[c[0] for c in SQUIZZ_BAD])
def test_a_bad_squizz_card_is_refused_with_its_field_and_reason(
    name: str, changes: Json, field: str, reason: str
) -> None:
    card = squizz_card(**changes)
    for key in [k for k, v in changes.items() if v is None]:
        del card[key]
    problem = only_problem(deck_doc("squizz", [card]))
    assert (problem.card, problem.field) == (1, field)
    assert reason in problem.message


BUZZER_BAD: list[tuple[str, Json, str, str]] = [
    ("missing answer", {"answer": None}, "answer", "missing"),
    ("empty answer", {"answer": "  "}, "answer", "must not be empty"),
    ("answer as a JSON number", {"answer": 1901}, "answer", "must be text"),
    ("alternatives as one text", {"alternatives": "Sydney"}, "alternatives", "must be a list of texts"),
    ("alternative is the answer again", {"alternatives": ["CANBERRA"]}, "alternatives[0]", "same as the answer"),
    ("alternative twice", {"alternatives": ["ACT", "act"]}, "alternatives[1]", "same as alternative 1"),
    ("alternative holding ';'", {"alternatives": ["Canberra; ACT"]}, "alternatives[0]", "must not contain ';'"),
    ("nine alternatives", {"alternatives": [f"a{i}" for i in range(9)]}, "alternatives", "too many alternatives"),
    ("missing source", {"source": None}, "source", "missing"),
    ("a hint on a buzzer card", {"hints": ["More than 1."]}, "hints", "unknown field"),
]


@pytest.mark.parametrize(("name", "changes", "field", "reason"), BUZZER_BAD, ids=[c[0] for c in BUZZER_BAD])
def test_a_bad_buzzer_card_is_refused_with_its_field_and_reason(
    name: str, changes: Json, field: str, reason: str
) -> None:
    card = buzzer_card(**changes)
    for key in [k for k, v in changes.items() if v is None]:
        del card[key]
    problem = only_problem(deck_doc("buzzer", [card]))
    assert (problem.card, problem.card_id, problem.field) == (1, "bz-0001", field)
    assert reason in problem.message


def test_a_buzzer_card_without_alternatives_loads_with_none() -> None:
    card = buzzer_card()
    del card["alternatives"]
    deck = load_deck(json.dumps(deck_doc("buzzer", [card])), "json")
    assert [(c.id, getattr(c, "alternatives", None)) for c in deck.cards] == [("bz-0001", ())]


def test_three_equal_squizz_values_are_each_reported_once_against_the_first() -> None:
    card = squizz_card(propositions=propositions(("A", "x", "7"), ("B", "y", "7"), ("C", "z", "7.0")))
    problems = problems_of(deck_doc("squizz", [card]))
    assert [(p.field, p.message.split(";")[0]) for p in problems] == [
        ("propositions[1].value", "B has the same value as A (7)"),
        ("propositions[2].value", "C has the same value as A (7)"),
    ]


def test_every_problem_of_every_card_is_reported_in_file_order() -> None:
    cards = [
        estimation_card(id="est-0001", answer="x"),
        estimation_card(id="est-0002", question="Second?", category="nope", hints=["Fewer than 5.", "More than 1."]),
        estimation_card(id="est-0003", question="Third?", fact="", source=""),
    ]
    problems = problems_of(deck_doc("estimation", cards))
    located = [(p.card, p.field) for p in problems]
    assert located == [(1, "answer"), (2, "category"), (2, "hints[0]"), (3, "fact"), (3, "source")]


def test_one_bad_card_refuses_the_whole_deck_and_names_only_that_card() -> None:
    cards = [estimation_card(id=f"est-{i:04d}", question=f"Question {i}?") for i in range(1, 40)]
    cards[17]["answer"] = "twelve"
    problem = only_problem(deck_doc("estimation", cards))
    assert (problem.card, problem.card_id) == (18, "est-0018")


def test_repeated_card_id_names_the_first_card_with_it() -> None:
    cards = [estimation_card(), estimation_card(question="Another question?")]
    problem = only_problem(deck_doc("estimation", cards))
    assert (problem.card, problem.field) == (2, "id")
    assert problem.message == "id 'est-0001' is already used by card 1 (est-0001)"


def test_the_same_question_twice_is_refused_ignoring_case_spaces_and_punctuation() -> None:
    cards = [
        estimation_card(),
        estimation_card(id="est-0002", question="  the moon: how many PEOPLE have walked on it"),
    ]
    problem = only_problem(deck_doc("estimation", cards))
    assert (problem.card, problem.field) == (2, "question")
    assert "same question as card 1 (est-0001)" in problem.message


def test_a_repeated_question_is_found_even_on_a_card_with_other_problems() -> None:
    cards = [estimation_card(), estimation_card(id="est-0002", answer="many")]
    fields = [(p.card, p.field) for p in problems_of(deck_doc("estimation", cards))]
    assert fields == [(2, "answer"), (2, "question")]


def test_an_allin_statement_may_not_appear_on_two_cards() -> None:
    second = allin_card(id="all-0002", statements=["I have flown a kite.", "i have sung karaoke!", "I have run."])
    problem = only_problem(deck_doc("allin", [allin_card(), second]))
    assert (problem.card, problem.field) == (2, "statements[1]")
    assert "same statement as card 1" in problem.message


def test_squizz_prompts_may_repeat_with_otherpropositions() -> None:
    other = squizz_card(
        id="sq-0002", propositions=propositions(("A", "Yoda", "900"), ("B", "Papa Smurf", "542"), ("C", "Noah", "950"))
    )
    deck = load_deck(json.dumps(deck_doc("squizz", [squizz_card(), other])), "json")
    assert len(deck.cards) == 2
    again = squizz_card(id="sq-0003", propositions=list(reversed(copy.deepcopy(squizz_card()["propositions"]))))
    for label, proposition in zip("ABC", again["propositions"], strict=True):
        proposition["label"] = label
    problem = only_problem(deck_doc("squizz", [squizz_card(), again]))
    assert (problem.card, problem.field) == (2, "prompt")


def test_a_deck_needs_cards_and_at_most_the_card_limit() -> None:
    assert only_problem(deck_doc("estimation", [])).message == "the deck has no cards"
    many = [estimation_card(id=f"e{i}") for i in range(MAX_CARDS + 1)]
    problem = only_problem(deck_doc("estimation", many))
    assert problem.message == f"too many cards: {MAX_CARDS + 1}, at most {MAX_CARDS}"


DECK_BAD: list[tuple[str, Json, str, str]] = [
    ("not a deck file", {"format": "something-else"}, "format", "Quizbox deck file"),
    ("later version", {"version": 2}, "version", "version 1"),
    ("version true", {"version": True}, "version", "version 1"),
    ("unknown type", {"type": "trivia"}, "type", "estimation, allin, squizz"),
    ("deck id with a slash", {"id": "my/deck"}, "id", "lowercase letters"),
    ("empty name", {"name": " "}, "name", "must not be empty"),
    ("name too long", {"name": "N" * (MAX_LENGTH["name"] + 1)}, "name", "too long"),
    ("bad language", {"language": "English"}, "language", "language code"),
    ("extra field", {"author": "me"}, "author", "unknown field"),
    ("cards not a list", {"cards": {"a": 1}}, "cards", "list of cards"),
]


@pytest.mark.parametrize(("name", "changes", "field", "reason"), DECK_BAD, ids=[c[0] for c in DECK_BAD])
def test_a_bad_deck_field_is_refused_with_its_name(name: str, changes: Json, field: str, reason: str) -> None:
    doc = deck_doc("estimation", [estimation_card()])
    doc.update(changes)
    problems = problems_of(doc)
    assert [p.field for p in problems] == [field]
    assert reason in problems[0].message
    assert problems[0].card is None


def test_missing_deck_fields_are_each_reported() -> None:
    doc = deck_doc("estimation", [estimation_card()])
    for key in ("format", "version", "name", "cards"):
        del doc[key]
    assert sorted(p.field or "" for p in problems_of(doc)) == ["cards", "format", "name", "version"]


def test_description_and_language_are_optional() -> None:
    doc = deck_doc("estimation", [estimation_card()])
    del doc["description"], doc["language"]
    deck = load_deck(json.dumps(doc), "json")
    assert (deck.info.description, deck.info.language) == ("", "en")


def test_a_field_written_twice_in_one_card_is_refused() -> None:
    text = json.dumps(deck_doc("estimation", [estimation_card()])).replace(
        '"answer": "12"', '"answer": "12", "answer": "13"'
    )
    problem = only_problem(text)
    assert (problem.card, problem.field, problem.message) == (1, "answer", "this field is written more than once")


def test_invalid_json_is_reported_with_its_line() -> None:
    text = '{\n  "format": "quizbox-deck",\n  "version": 1,\n  "id": "x"\n  "name": "y"\n}'
    problem = only_problem(text)
    assert problem.line == 5
    assert problem.message.startswith("not valid JSON: Expecting ',' delimiter")


def test_nan_and_deep_nesting_are_refused_as_invalid_json() -> None:
    assert "NaN" in only_problem('{"format": NaN}').message
    assert "nested" in only_problem("[" * 100_000 + "]" * 100_000).message


def test_a_deck_file_must_be_a_json_object() -> None:
    assert only_problem("[1, 2]").message == "a deck file is one JSON object {...}, got a list"


def test_a_card_that_is_not_an_object_is_located() -> None:
    cards: list[Any] = [allin_card(), "I have sung."]
    problem = only_problem(deck_doc("allin", cards))
    assert (problem.card, problem.card_id, problem.field) == (2, None, None)
    assert str(problem) == "card 2: a card must be an object {...}, got 'I have sung.'"


def test_a_file_over_the_size_limit_is_refused_before_reading() -> None:
    data = b" " * (MAX_FILE_BYTES + 1)
    assert only_problem(data).message == f"the file is too big: {MAX_FILE_BYTES + 1} bytes, at most {MAX_FILE_BYTES}"


def test_a_file_that_is_not_utf8_is_refused_with_the_line_of_the_bad_byte() -> None:
    text = json.dumps(deck_doc("estimation", [estimation_card(fact="Caf\u00e9 talk.")]), indent=2, ensure_ascii=False)
    data = text.encode("latin-1")
    problem = only_problem(data)
    assert problem.line == text[: text.index("Caf")].count("\n") + 1
    assert "not UTF-8" in problem.message and "0xe9" in problem.message


def test_a_byte_order_mark_is_accepted_in_bytes_and_in_text() -> None:
    text = json.dumps(deck_doc("estimation", [estimation_card()]))
    plain = load_deck(text, "json")
    assert load_deck(b"\xef\xbb\xbf" + text.encode(), "json") == plain
    assert load_deck("\ufeff" + text, "json") == plain


def test_text_is_stored_without_surrounding_spaces() -> None:
    deck = load_deck(json.dumps(deck_doc("estimation", [estimation_card(question="  Spaced out?  ")])), "json")
    assert deck.cards[0].question == "Spaced out?"  # type: ignore[union-attr]


def test_problem_locations_read_well() -> None:
    assert str(Problem("m", card=3, card_id="e3", field="hints[1]")) == "card 3 (e3), field 'hints[1]': m"
    assert str(Problem("m", line=7, card_id="e6", field="answer")) == "line 7 (e6), column 'answer': m"
    assert str(Problem("m", file="a.json", card=2)) == "a.json card 2: m"
    assert str(Problem("m", field="name")) == "field 'name': m"
    assert str(Problem("m")) == "file: m"


def test_the_error_message_summarises_the_first_problems() -> None:
    cards = [estimation_card(id=f"e{i}", question=f"Q{i}?", answer="x") for i in range(7)]
    with pytest.raises(InvalidDeck) as refused:
        load_deck(json.dumps(deck_doc("estimation", cards)), "json")
    assert len(refused.value.problems) == 7
    assert str(refused.value).startswith("deck refused, 7 problems: card 1 (e0), field 'answer'")
    assert str(refused.value).endswith("; and 2 more")


def test_an_unknown_format_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown deck file format 'xml'"):
        load_deck("{}", "xml")  # type: ignore[arg-type]


def test_a_proposition_label_is_its_text_and_its_letter_its_position() -> None:
    """rules.md sQuizz 4: ``{"label": "Eiffel Tower", "value"}``; the first is A, the second B, the third C. A label
    that looks like a letter is only text. The first form of deck files (letter label beside a text) still loads
    to the same card, and the box writes the label form."""
    labelled = [{"label": "B", "value": "900"}, {"label": "Noah", "value": "950"}, {"label": "Smurf", "value": "542"}]
    first_form = [{"label": "A", "text": "B", "value": "900"}, {"label": "B", "text": "Noah", "value": "950"},
                  {"label": "C", "text": "Smurf", "value": "542"}]
    new = load_deck(json.dumps(deck_doc("squizz", [squizz_card(propositions=labelled)])), "json")
    old = load_deck(json.dumps(deck_doc("squizz", [squizz_card(propositions=first_form)])), "json")
    assert new == old
    card = new.cards[0]
    assert isinstance(card, SquizzCard)
    assert [(p.letter, p.text) for p in card.propositions] == [("A", "B"), ("B", "Noah"), ("C", "Smurf")]
    written = json.loads(dump_deck(new, "json"))["cards"][0]["propositions"]
    assert written == labelled
