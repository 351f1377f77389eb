"""The words the poker table and its showdown put on the TV, where a phone says the same thing its own way."""

from __future__ import annotations

from appliance.board.scenes.numberline import Row, empty_words
from appliance.board.scenes.poker import offer_words


def test_a_call_and_an_all_in_say_the_total_they_bet_to() -> None:
    """An audit: with 40 in and 950 behind facing 990, the phone said "Call 950" (chips added) and the TV
    "call 990 · all-in 990" (the totals), neither saying which; the TV now says "to", as its raise does."""
    assert offer_words({"kind": "call", "min_to": 990, "max_to": 990}) == "call to 990"
    assert offer_words({"kind": "allin", "min_to": 990, "max_to": 990}) == "all-in to 990"
    assert offer_words({"kind": "raise", "min_to": 40, "max_to": 500}) == "raise to 40–500"
    assert offer_words({"kind": "check"}) == "check" and offer_words({"kind": "fold"}) == "fold"


def test_a_folded_range_not_shown_is_not_said_to_be_missing() -> None:
    """An audit: a player who entered a range and folded read "no range · folded" at the showdown; showing
    it is their choice (rules.md poker-11), so the TV says only that they folded."""
    assert empty_words(Row("Bob", None, None, "folded", dim=True, hidden=True)) == "folded"
    assert empty_words(Row("Ann", None, None, "not shown", hidden=True)) == "not shown"
    assert empty_words(Row("Cat", None, None, "timed out")) == "no range · timed out"  # Confident?'s
