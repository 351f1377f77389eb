"""JSON and CSV: parse(format(deck)) == deck, CSV located problems, and formula injection neutralised."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from appliance.decks import BuzzerCard, Deck, DeckInfo, EstimationCard, InvalidDeck, Problem, dump_deck, load_deck
from appliance.decks.io import CSV_COLUMNS, TEXT_COLUMNS, _escape, _unescape
from tests.decks.decks_strategies import decks

ESTIMATION_HEADER = ",".join(CSV_COLUMNS["estimation"])
ROW = "est-1,space,easy,yes,moon; apollo,How many moonwalkers?,12,people,All NASA.,More than 10.,Fewer than 15.,NASA"


def csv_problems(text: str, info: DeckInfo | None = None) -> list[Problem]:
    with pytest.raises(InvalidDeck) as refused:
        load_deck(text, "csv", info)
    return refused.value.problems


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks())
def test_every_format_round_trips(deck: Deck) -> None:
    assert load_deck(dump_deck(deck, "json"), "json") == deck
    assert load_deck(dump_deck(deck, "csv"), "csv", deck.info) == deck
    assert load_deck(dump_deck(deck, "json").encode("utf-8"), "json") == deck
    assert load_deck(dump_deck(deck, "csv").encode("utf-8-sig"), "csv", deck.info) == deck


@settings(max_examples=300)
@given(st.text())
def test_unescape_undoes_escape_and_escaped_text_never_starts_a_formula(text: str) -> None:
    escaped = _escape(text)
    assert _unescape(escaped) == text
    assert not escaped.startswith(("=", "+", "-", "@", "\t", "\r"))


def _card(**changes: object) -> EstimationCard:
    fields: dict[str, object] = dict(
        id="e1",
        category="science",
        difficulty="easy",
        family=True,
        tags=(),
        question="How cold?",
        answer=Decimal(-40),
        unit="degrees",
        fact="Both scales meet there.",
        hints=("Less than 0 degrees.", "More than -50 degrees."),
        source="NIST",
    )
    fields.update(changes)
    return EstimationCard(**fields)  # type: ignore[arg-type]


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_text_cells_that_a_spreadsheet_would_run_get_an_apostrophe_but_numbers_do_not() -> None:
    card = _card(question='=HYPERLINK("http://x")', fact="+1 for trying", source="@home", unit="-")
    deck = Deck(DeckInfo("d", "D", "estimation"), (card,))
    (row,) = _rows(dump_deck(deck, "csv"))
    assert row["question"] == '\'=HYPERLINK("http://x")'
    assert (row["fact"], row["source"], row["unit"]) == ("'+1 for trying", "'@home", "'-")
    assert row["answer"] == "-40"
    assert row["hint1"] == "Less than 0 degrees."
    assert load_deck(dump_deck(deck, "csv"), "csv", deck.info) == deck


def test_number_columns_are_plain_numbers_a_spreadsheet_reads_as_numbers() -> None:
    deck = Deck(DeckInfo("d", "D", "estimation"), (_card(answer=Decimal("-0.00012"), unit=""),))
    (row,) = _rows(dump_deck(deck, "csv"))
    assert row["answer"] == "-0.00012"
    assert "answer" not in TEXT_COLUMNS and "a_value" not in TEXT_COLUMNS


def test_a_cell_a_spreadsheet_user_protected_with_an_apostrophe_imports_without_it() -> None:
    text = f"{ESTIMATION_HEADER}\r\ne1,space,easy,true,,'=2+2?,'-40,,'Tis true.,Less than 0.,More than -50.,NASA\r\n"
    card = load_deck(text, "csv").cards[0]
    assert isinstance(card, EstimationCard)
    assert (card.question, card.answer, card.fact) == ("=2+2?", Decimal(-40), "'Tis true.")


def test_csv_reads_family_words_tags_and_skips_empty_rows() -> None:
    text = f"{ESTIMATION_HEADER}\n{ROW}\n,,,,,,,,,,,\n\n" + ROW.replace("est-1", "est-2").replace(
        ",yes,", ",No,"
    ).replace("moonwalkers", "moon walkers, really").replace(
        "How many moon walkers, really?", '"How many moon walkers, really?"'
    )
    deck = load_deck(text, "csv")
    assert deck.info == DeckInfo(id="imported-estimation", name="Imported estimation cards", type="estimation")
    assert [(c.id, c.family, c.tags) for c in deck.cards] == [
        ("est-1", True, ("moon", "apollo")),
        ("est-2", False, ("moon", "apollo")),
    ]


def test_csv_columns_may_come_in_any_order_and_any_case() -> None:
    columns = list(reversed(CSV_COLUMNS["estimation"]))
    cells = list(reversed(next(csv.reader([ROW]))))
    text = ",".join(c.upper() for c in columns) + "\n" + ",".join(cells) + "\n"
    assert load_deck(text, "csv").cards == load_deck(f"{ESTIMATION_HEADER}\n{ROW}\n", "csv").cards


def test_csv_problems_carry_the_line_the_card_starts_on() -> None:
    bad = (
        ROW.replace("est-1", "est-3")
        .replace(",12,", ",twelve,")
        .replace(",yes,", ",maybe,")
        .replace("moonwalkers", "golfers on the Moon")
    )
    multiline = ROW.replace("est-1", "est-2").replace("How many moonwalkers?", '"How many\nmoon rocks?"')
    text = f"{ESTIMATION_HEADER}\n{ROW}\n{multiline}\n{bad}\n"
    problems = csv_problems(text)
    assert [(p.line, p.card_id, p.field) for p in problems] == [
        (3, "est-2", "question"),
        (5, "est-3", "family"),
        (5, "est-3", "answer"),
    ]
    assert problems[1].message == "must be true/false/yes/no/1/0, got 'maybe'"
    assert str(problems[2]).startswith("line 5 (est-3), column 'answer': not a number 'twelve'")


def test_csv_hint_and_proposition_problems_name_their_columns() -> None:
    text = f"{ESTIMATION_HEADER}\n" + ROW.replace("Fewer than 15.", "Fewer than 11.") + "\n"
    (problem,) = csv_problems(text)
    assert (problem.line, problem.field) == (2, "hint2")
    header = ",".join(CSV_COLUMNS["squizz"])
    row = "s1,people,easy,true,,Age at death of...,years,Yoda,900,Noah,950,Smurf,900,Rulebook"
    (problem,) = csv_problems(f"{header}\n{row}\n")
    assert (problem.line, problem.field) == (2, "c_value")
    assert "rules.md sQuizz 4" in problem.message


def test_a_row_with_the_wrong_number_of_cells_is_refused_with_advice() -> None:
    text = f"{ESTIMATION_HEADER}\n{ROW}\n" + ROW.replace("All NASA.", "All NASA, really.").replace("est-1", "e2") + "\n"
    (problem,) = csv_problems(text)
    assert problem.line == 3
    assert (
        problem.message == "13 cells, the header has 12 (a comma inside a text needs the whole cell in double quotes)"
    )


def test_a_broken_quote_is_refused_with_its_line() -> None:
    text = f'{ESTIMATION_HEADER}\n{ROW}\ne2,space,easy,true,,"How"many?,1,,f,a,b,s\n'
    (problem,) = csv_problems(text)
    assert problem.line == 3
    assert problem.message.startswith("not readable as CSV")


def test_a_header_that_fits_no_deck_type_lists_the_expected_columns() -> None:
    problems = csv_problems("id,question,answer\ne1,Q?,1\n")
    assert problems[-1].line == 1
    assert "estimation: id,category,difficulty" in problems[-1].message
    assert "allin: id,category" in problems[-1].message


def test_a_header_checked_against_the_expected_type_names_missing_and_unknown_columns() -> None:
    header = ESTIMATION_HEADER.replace("hint2", "hint_2")
    problems = csv_problems(f"{header}\n{ROW}\n", DeckInfo("d", "D", "estimation"))
    assert [p.message for p in problems[:2]] == ["missing column 'hint2'", "unknown column 'hint_2'"]


def test_a_csv_of_another_type_than_expected_is_refused() -> None:
    (problem,) = csv_problems(f"{ESTIMATION_HEADER}\n{ROW}\n", DeckInfo("d", "D", "allin"))
    assert problem.message == "the header has the columns of an estimation deck, but the deck is an allin deck"


def test_a_repeated_header_column_is_named() -> None:
    header = ESTIMATION_HEADER + ",source"
    problems = csv_problems(f"{header}\n{ROW},NASA\n")
    assert problems[0].message == "column 'source' appears more than once"


def test_an_empty_csv_file_is_refused() -> None:
    assert [p.message for p in csv_problems("")] == ["the file is empty: it needs a header row, then one card a row"]


def test_the_deck_info_given_for_a_csv_is_validated_too() -> None:
    problems = csv_problems(f"{ESTIMATION_HEADER}\n{ROW}\n", DeckInfo("Bad Id", "", "estimation"))
    assert [p.field for p in problems] == ["deck id", "deck name"]


def test_a_json_file_carries_its_own_deck_info() -> None:
    with pytest.raises(ValueError, match="carries its own id"):
        load_deck("{}", "json", DeckInfo("d", "D", "estimation"))


def test_json_export_is_readable_utf8_with_tags_only_when_present() -> None:
    deck = Deck(DeckInfo("d", "Café quiz", "estimation"), (_card(), _card(id="e2", question="Q2?", tags=("x",))))
    doc = json.loads(dump_deck(deck, "json"))
    assert "Café" in dump_deck(deck, "json")
    assert "tags" not in doc["cards"][0] and doc["cards"][1]["tags"] == ["x"]
    assert doc["cards"][0]["answer"] == "-40"


def test_a_buzzer_csv_splits_alternatives_on_semicolons_and_escapes_a_risky_answer() -> None:
    header = ",".join(CSV_COLUMNS["buzzer"])
    text = f"{header}\nbz-1,science,easy,yes,,Freezing point of water in Fahrenheit?,32 °F,32; thirty-two,NIST\n"
    (card,) = load_deck(text, "csv").cards
    assert isinstance(card, BuzzerCard)
    assert (card.answer, card.alternatives) == ("32 °F", ("32", "thirty-two"))
    cold = Deck(DeckInfo("d", "D", "buzzer"), (replace(card, answer="-40", alternatives=("=minus forty", "x")),))
    (row,) = _rows(dump_deck(cold, "csv"))
    assert (row["answer"], row["alternatives"]) == ("'-40", "'=minus forty; x")
    assert load_deck(dump_deck(cold, "csv"), "csv", cold.info) == cold


def test_a_buzzer_csv_problem_names_the_alternatives_column() -> None:
    header = ",".join(CSV_COLUMNS["buzzer"])
    (problem,) = csv_problems(f"{header}\nbz-1,science,easy,yes,,Capital of Peru?,Lima,lima,Britannica\n")
    assert (problem.line, problem.card_id, problem.field) == (2, "bz-1", "alternatives")
    assert "same as the answer" in problem.message
