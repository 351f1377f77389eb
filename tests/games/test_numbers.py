"""The number parser and formatters (appliance.games.numbers): exact, strict, bounded."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.errors import MalformedInput
from appliance.games.numbers import (
    COMPACT_WIDTH,
    EXACT,
    MAX_EXPONENT,
    MAX_INPUT_LENGTH,
    ROUNDED_MARKER,
    check_number,
    format_compact,
    format_full,
    format_plain,
    parse_number,
)

ACCEPTED = [
    ("12", "12"),
    ("-40", "-40"),
    ("+7", "7"),
    ("0.001", "0.001"),
    (".5", "0.5"),
    ("5.", "5"),
    ("-3.5", "-3.5"),
    ("3,000,000", "3000000"),
    ("3 000 000", "3000000"),
    ("3\u00a0000\u202f000", "3000000"),
    ("3_000_000", "3000000"),
    ("1,234.5", "1234.5"),
    ("3e6", "3000000"),
    ("3E-3", "0.003"),
    ("1e+2", "100"),
    ("3 x 10^6", "3000000"),
    ("3X10^6", "3000000"),
    ("3×10^6", "3000000"),
    ("3*10^6", "3000000"),
    ("3*10**6", "3000000"),
    ("3·10^6", "3000000"),
    ("3 × 10⁶", "3000000"),
    ("2.5 x 10^-3", "0.0025"),
    ("4×10⁻²", "0.04"),
    ("10^6", "1000000"),
    ("-10⁶", "-1000000"),
    ("3 million", "3000000"),
    ("3 Million", "3000000"),
    ("3M", "3000000"),
    ("3m", "3000000"),
    ("3mn", "3000000"),
    ("3k", "3000"),
    ("3 thousand", "3000"),
    ("2.5bn", "2500000000"),
    ("2.5B", "2500000000"),
    ("7 billion", "7000000000"),
    ("1.2 trillion", "1200000000000"),
    ("1.2T", "1200000000000"),
    ("1.2tn", "1200000000000"),
    ("-1.5k", "-1500"),
    ("\u22125", "-5"),
    ("  12  ", "12"),
    ("-0", "0"),
    ("0.000", "0"),
    ("0e999999999", "0"),
]


@pytest.mark.parametrize(("text", "plain"), ACCEPTED)
def test_accepted_forms_parse_exactly(text: str, plain: str) -> None:
    value = parse_number(text)
    assert isinstance(value, Decimal)
    assert value == Decimal(plain)
    assert format_plain(value) == plain


REFUSED = [
    ("1,5", "ambiguous"),
    ("1,23,4", "ambiguous"),
    ("1,234,5", "ambiguous"),
    ("0,500", "ambiguous"),
    ("1 5", "ambiguous"),
    ("1_0", "ambiguous"),
    ("3,000 000", "mixes"),
    ("", "empty"),
    ("   ", "empty"),
    ("abc", "no digits"),
    (".", "no digits"),
    ("e6", "no digits"),
    ("1.2.3", "expected digits"),
    ("1.234,5", "expected digits"),
    ("3 10^6", "expected digits"),
    ("3e6M", "both an exponent"),
    ("3 x 10^6 million", "both an exponent"),
    ("3 zillion", "unknown scale word 'zillion'"),
    ("12 abc", "unknown scale word 'abc'"),
    ("1e100", "out of range"),
    ("1e-100", "out of range"),
    ("1e999999999", "out of range"),
    ("1 x 10^-999999999", "out of range"),
    ("٣", "expected digits"),
    ("--5", "expected digits"),
    ("NaN", "no digits"),
    ("inf", "no digits"),
    ("~3M", "expected digits"),
]


@pytest.mark.parametrize(("text", "reason"), REFUSED)
def test_refused_forms_say_why_and_quote_the_input(text: str, reason: str) -> None:
    with pytest.raises(MalformedInput) as caught:
        parse_number(text)
    message = str(caught.value)
    assert reason in message
    assert repr(text) in message


def test_non_text_is_refused() -> None:
    with pytest.raises(MalformedInput, match="text"):
        parse_number(12)  # type: ignore[arg-type]


def test_length_is_bounded_and_quoted_shortened() -> None:
    with pytest.raises(MalformedInput, match="too long") as caught:
        parse_number("9" * (MAX_INPUT_LENGTH + 1))
    assert len(str(caught.value)) < 200


def test_longest_accepted_input_is_exact() -> None:
    text = "0." + "1" * (MAX_INPUT_LENGTH - 2)
    assert format_plain(parse_number(text)) == text


def test_magnitude_bounds_are_inclusive() -> None:
    assert parse_number(f"9.5e{MAX_EXPONENT}") == Decimal(f"9.5E{MAX_EXPONENT}")
    assert parse_number(f"1e-{MAX_EXPONENT}") == Decimal(f"1E-{MAX_EXPONENT}")


def test_huge_exponents_are_refused_quickly() -> None:
    started = time.perf_counter()
    for text in ("1e999999999", "9" * 200 + "e" + "9" * 50, "1 x 10^" + "9" * 240):
        with pytest.raises(MalformedInput):
            parse_number(text)
    assert time.perf_counter() - started < 0.5


def test_format_plain_has_no_exponent_separator_trailing_zero_or_negative_zero() -> None:
    assert format_plain(Decimal("3E+6")) == "3000000"
    assert format_plain(Decimal("2.500")) == "2.5"
    assert format_plain(Decimal("1E-7")) == "0.0000001"
    assert format_plain(Decimal("-0.00")) == "0"
    assert format_plain(Decimal("-0E+5")) == "0"
    assert format_plain(Decimal("100")) == "100"


def test_format_full_groups_the_whole_part() -> None:
    assert format_full(Decimal("3200000")) == "3,200,000"
    assert format_full(Decimal("-1234.50")) == "-1,234.5"
    assert format_full(Decimal("999")) == "999"
    assert format_full(Decimal("0.0012")) == "0.0012"
    assert format_full(Decimal("-0")) == "0"


@pytest.mark.parametrize(
    ("value", "compact"),
    [
        ("12", "12"),
        ("-40", "-40"),
        ("0.001", "0.001"),
        ("3200000", "3.2M"),
        ("1234567", "1234567"),
        ("1500", "1500"),
        ("12000", "12k"),
        ("2.5E9", "2.5B"),
        ("1.2E12", "1.2T"),
        ("1E20", "1e20"),
        ("0", "0"),
        ("12345678", "~12.35M"),
        ("-1234567", "~-1.23M"),
        ("999999.6", "~1M"),
        ("0.00012345", "~1.2e-4"),
        ("1234.5678", "~1234.6"),
        ("-1.5E-99", "~-2e-99"),
        ("-9.51E99", "~-9e99"),
    ],
)
def test_format_compact_examples(value: str, compact: str) -> None:
    assert format_compact(Decimal(value)) == compact


@pytest.mark.parametrize("bad", [Decimal("NaN"), Decimal("Infinity"), Decimal("-Infinity")])
def test_formatters_refuse_non_finite(bad: Decimal) -> None:
    for formatter in (format_plain, format_full, format_compact):
        with pytest.raises(MalformedInput):
            formatter(bad)


def test_exact_context_refuses_to_round() -> None:
    top = Decimal("1" + "0" * 60 + ".5")
    assert EXACT.subtract(top, Decimal("0.5")) == Decimal("1E60")
    with pytest.raises(ArithmeticError):
        EXACT.divide(Decimal(1), Decimal(3))


# -- properties --------------------------------------------------------------------------------------


@st.composite
def accepted_values(draw: st.DrawFn) -> Decimal:
    """Any value parse_number accepts: zero or magnitude within the exponent bounds."""
    coefficient = draw(st.integers(min_value=-(10**40), max_value=10**40))
    if coefficient == 0:
        return Decimal(0)
    digits = len(str(abs(coefficient)))
    low = -MAX_EXPONENT - digits + 1
    high = MAX_EXPONENT - digits + 1
    exponent = draw(st.integers(min_value=low, max_value=high) | st.integers(min_value=-8, max_value=8))
    value = Decimal(coefficient).scaleb(exponent, context=EXACT)
    if not -MAX_EXPONENT <= value.adjusted() <= MAX_EXPONENT:
        value = Decimal(coefficient)
    return value


@settings(max_examples=300)
@given(accepted_values())
def test_plain_and_full_round_trip(value: Decimal) -> None:
    assert parse_number(format_plain(value)) == value
    assert parse_number(format_full(value)) == value
    assert "e" not in format_plain(value).lower()


@settings(max_examples=300)
@given(accepted_values())
def test_compact_is_short_and_exact_unless_marked(value: Decimal) -> None:
    compact = format_compact(value)
    assert len(compact) <= COMPACT_WIDTH
    if compact.startswith(ROUNDED_MARKER):
        parsed = parse_number(compact[len(ROUNDED_MARKER) :])
        assert parsed != value
        # Rounded half-even: off by at most half a unit in the last digit shown; next to the parser's
        # bound it rounds toward zero instead: off by less than one unit.
        unit = Decimal(1).scaleb(parsed.as_tuple().exponent)  # type: ignore[arg-type]
        error = EXACT.abs(EXACT.subtract(parsed, value))
        assert EXACT.multiply(2, error) <= unit or (error < unit and parsed.copy_abs() < value.copy_abs())
        assert (parsed < 0) == (value < 0)
    else:
        assert parse_number(compact) == value


@settings(max_examples=300)
@given(st.text(max_size=40))
def test_any_text_parses_or_is_refused_as_malformed(text: str) -> None:
    try:
        value = parse_number(text)
    except MalformedInput as refused:
        assert repr(text) in str(refused)
    else:
        assert value.is_finite()
        assert parse_number(format_plain(value)) == value


def test_check_number_accepts_what_the_parser_produces() -> None:
    assert check_number(parse_number("3M")) == Decimal(3_000_000)
    assert check_number(Decimal("-0.5"), "bottom") == Decimal("-0.5")


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (Decimal("NaN"), "finite Decimal"),
        (Decimal("Infinity"), "finite Decimal"),
        (3, "finite Decimal"),
        ("3", "finite Decimal"),
        (Decimal("1E100"), "out of range"),
        (Decimal("1E-100"), "out of range"),
        (Decimal("0." + "1" * 300), "digits"),
    ],
)
def test_check_number_refuses_what_the_parser_would_not_produce(value: object, reason: str) -> None:
    with pytest.raises(MalformedInput, match=reason) as caught:
        check_number(value, "the answer")
    assert "the answer" in str(caught.value) or reason == "digits"
