"""Hints read as bounds on the answer (so a shipped or imported hint cannot be false)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.decks.hints import Interval, read_hint

D = Decimal


@pytest.mark.parametrize(
    ("hint", "unit", "interval"),
    [
        ("More than 10.", "", Interval(low=D(10))),
        ("more than 10 people", "people", Interval(low=D(10))),
        ("Fewer than 15 people.", "people", Interval(high=D(15))),
        ("Less than -200 °C.", "°C", Interval(high=D(-200))),
        ("After 1945.", "", Interval(low=D(1945))),
        ("Before 1960", "", Interval(high=D(1960))),
        ("At least 3.", "", Interval(low=D(3), low_closed=True)),
        ("At most 3 km.", "km", Interval(high=D(3), high_closed=True)),
        ("Between 1,000 and 5,000 m.", "m", Interval(D(1000), True, D(5000), True)),
        ("Between 13 billion and 15 billion years.", "years", Interval(D("13e9"), True, D("15e9"), True)),
        ("More than 2.5bn.", "", Interval(low=D("2.5e9"))),
        ("More than 10^-12 m.", "m", Interval(low=D("1e-12"))),
        ("Less than 0.000001 m.", "m", Interval(high=D("0.000001"))),
    ],
)
def test_a_hint_in_a_known_form_is_read_as_its_interval(hint: str, unit: str, interval: Interval) -> None:
    assert read_hint(hint, unit) == interval


@pytest.mark.parametrize(
    ("hint", "unit"),
    [
        ("It is an even number.", ""),
        ("More than half of them.", ""),
        ("More than 3 times the height of Everest.", "m"),  # the rest is not the unit: free text
        ("More than 10 metres.", "m"),  # another unit than the card's: free text
        ("Between 10 and.", ""),
        ("Between 10 or 20.", ""),
        ("Fewer than a dozen.", ""),
    ],
)
def test_other_hints_are_free_text(hint: str, unit: str) -> None:
    assert read_hint(hint, unit) is None


def test_between_includes_both_ends_and_more_than_is_strict() -> None:
    between = read_hint("Between 10 and 20.", "")
    more = read_hint("More than 10.", "")
    assert between is not None and more is not None
    assert [between.holds(D(v)) for v in (9, 10, 15, 20, 21)] == [False, True, True, True, False]
    assert [more.holds(D(v)) for v in (9, 10, 11)] == [False, False, True]


def test_meeting_two_hints_keeps_the_tighter_end_of_each_side() -> None:
    first, second = read_hint("More than 10.", ""), read_hint("Fewer than 15.", "")
    assert first is not None and second is not None
    assert first.meet(second) == Interval(D(10), False, D(15), False)
    closed, strict = read_hint("Between 10 and 20.", ""), read_hint("Fewer than 20.", "")
    assert closed is not None and strict is not None
    assert closed.meet(strict) == Interval(D(10), True, D(20), False)


bounds = st.integers(min_value=-1000, max_value=1000).map(Decimal)


@settings(max_examples=200)
@given(bounds, bounds, bounds, bounds, bounds)
def test_a_value_holds_in_the_meet_exactly_when_it_holds_in_both(a: D, b: D, c: D, d: D, x: D) -> None:
    first = read_hint(f"Between {min(a, b)} and {max(a, b)}.", "")
    second = read_hint(f"More than {c}.", "") if c < d else read_hint(f"At most {d}.", "")
    assert first is not None and second is not None
    assert first.meet(second).holds(x) == (first.holds(x) and second.holds(x))
