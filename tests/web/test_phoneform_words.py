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
