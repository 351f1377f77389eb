"""What a phone says when a typed chip amount cannot be sent: the reason in the player's words."""

from __future__ import annotations

import pytest

from web.phoneforms import data_from_form

BET = {"v": 1, "id": "p1", "kind": "bet", "title": "Round 1", "text": "?", "stack": 990, "to_call": 0,
       "actions": [{"action": "fold"}, {"action": "check"}, {"action": "bet", "min": 10, "max": 990}]}
SPLIT = {"v": 1, "id": "p2", "kind": "split", "title": "All In", "text": "?", "total": 15,
         "sides": [{"id": "true", "label": "True"}, {"id": "false", "label": "False"}]}


@pytest.mark.parametrize(("typed", "reason"), [
    ("-5", "below 0"),
    ("99999999999999999999", "too big"),
    ("7.5", "whole chips"),
    ("5,5", "whole chips"),
    ("abc", "a whole number"),
])
def test_an_amount_that_cannot_be_sent_says_why(typed: str, reason: str) -> None:
    """An audit: -5 and a 20-digit bet both read "amount: a whole number, please"."""
    with pytest.raises(ValueError, match=reason):
        data_from_form(BET, {"action": "bet", "to-bet": typed})
    with pytest.raises(ValueError, match=reason):
        data_from_form(SPLIT, {"split-true": typed, "split-false": "10"})


def test_a_good_amount_goes_through() -> None:
    assert data_from_form(BET, {"action": "bet", "to-bet": " 20 "}) == {"action": "bet", "to": 20}


RANGE = {"v": 1, "id": "p3", "kind": "range", "title": "Q1", "text": "?", "unit": "legs"}


@pytest.mark.parametrize("typed", ["12%", "1..2", "--5", "~3M"])
def test_a_number_it_cannot_read_is_said_in_a_few_words(typed: str) -> None:
    """A browser audit: '12%' in From read "not a number '12%': expected digits with an optional sign and
    decimal point, then optionally an exponent (3e6, 3 x 10^6) or a scale word (k, M, bn, million...)"."""
    with pytest.raises(ValueError) as refused:
        data_from_form(RANGE, {"bottom": typed, "top": "20"})
    assert str(refused.value) == f"From: not a number {typed!r}: type digits, like 12, 3.5, 2k or 3 million"
