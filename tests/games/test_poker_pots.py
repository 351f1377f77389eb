"""Estimation poker pots, uncalled chips, odd chips and the showdown ranking as pure functions
(rules.md Estimation poker 8-10); the engine tests check that the engine uses them."""

from __future__ import annotations

from decimal import Decimal

import pytest

from appliance.games.poker.pots import Pot, clockwise_from, form_pots, split_pot, uncalled
from appliance.games.poker.showdown import Range, best

SEATS = ("ann", "bob", "cat", "dan")


def r(low: str, high: str) -> Range:
    return Range(Decimal(low), Decimal(high))


# -- pots --------------------------------------------------------------------------------------------


def test_one_pot_when_nobody_is_all_in() -> None:
    pots = form_pots(SEATS, {"ann": 40, "bob": 40, "cat": 10, "dan": 40}, folded={"cat"}, all_in=set())
    assert pots == [Pot(130, ("ann", "bob", "dan"))]


def test_each_all_in_amount_caps_a_pot_and_the_rest_goes_to_side_pots() -> None:
    put_in = {"ann": 100, "bob": 30, "cat": 60, "dan": 100}
    pots = form_pots(SEATS, put_in, folded=set(), all_in={"bob", "cat"})
    assert pots == [
        Pot(30 * 4, ("ann", "bob", "cat", "dan")),
        Pot(30 * 3, ("ann", "cat", "dan")),
        Pot(40 * 2, ("ann", "dan")),
    ]
    assert sum(p.amount for p in pots) == sum(put_in.values())


def test_folded_chips_stay_in_the_pots_they_reach_but_folded_players_are_never_eligible() -> None:
    put_in = {"ann": 80, "bob": 20, "cat": 50, "dan": 80}
    pots = form_pots(SEATS, put_in, folded={"cat"}, all_in={"bob"})
    assert pots == [Pot(20 * 4, ("ann", "bob", "dan")), Pot(60 + 30 + 60, ("ann", "dan"))]


def test_equal_all_in_amounts_share_one_cap() -> None:
    put_in = {"ann": 50, "bob": 50, "cat": 90}
    pots = form_pots(SEATS[:3], put_in, folded=set(), all_in={"ann", "bob"})
    assert pots == [Pot(150, ("ann", "bob", "cat")), Pot(40, ("cat",))]


def test_live_pots_keep_players_who_have_not_matched_yet_eligible() -> None:
    # mid-round: ann bet, cat is all-in for less, bob has not acted yet
    put_in = {"ann": 70, "bob": 10, "cat": 30}
    pots = form_pots(SEATS[:3], put_in, folded=set(), all_in={"cat"})
    assert pots == [Pot(70, ("ann", "bob", "cat")), Pot(40, ("ann", "bob"))]


# -- uncalled chips --------------------------------------------------------------------------------


def test_the_part_of_the_biggest_bet_nobody_matched_goes_back() -> None:
    assert uncalled({"ann": 310, "bob": 60, "cat": 110}, live=["ann", "bob"]) == {"ann": 200}


def test_nothing_goes_back_when_the_top_amount_is_matched() -> None:
    assert uncalled({"ann": 100, "bob": 100, "cat": 40}, live=["ann", "bob", "cat"]) == {}


def test_a_folded_players_chips_count_as_matching() -> None:
    assert uncalled({"ann": 150, "bob": 120, "cat": 20}, live=["ann", "cat"]) == {"ann": 30}


def test_chips_above_what_any_player_still_in_put_in_go_back_to_their_folded_owner() -> None:
    # bob folded for want of a range after a full ante of 30; ann and cat are all-in for 18 and 22
    assert uncalled({"ann": 18, "bob": 30, "cat": 22}, live=["ann", "cat"]) == {"bob": 8}
    # two folded full antes above a lone short all-in: each gets back what nobody still in can win
    assert uncalled({"ann": 10, "bob": 30, "cat": 30}, live=["ann"]) == {"bob": 20, "cat": 20}


# -- odd chips ---------------------------------------------------------------------------------------


def test_clockwise_from_starts_with_the_given_seat() -> None:
    assert clockwise_from(SEATS, "cat") == ["cat", "dan", "ann", "bob"]


def test_equal_shares_when_the_pot_divides() -> None:
    assert split_pot(90, ["ann", "cat", "dan"], SEATS, "bob") == {"ann": 30, "cat": 30, "dan": 30}


def test_odd_chips_go_to_the_winner_nearest_clockwise_from_the_first_actor() -> None:
    assert split_pot(101, ["ann", "cat"], SEATS, "bob") == {"ann": 50, "cat": 51}
    assert split_pot(101, ["ann", "cat"], SEATS, "dan") == {"ann": 51, "cat": 50}


def test_the_first_actor_takes_the_odd_chips_when_among_the_winners() -> None:
    assert split_pot(11, ["ann", "bob", "cat"], SEATS, "cat") == {"ann": 3, "bob": 3, "cat": 5}


def test_the_whole_remainder_goes_to_one_winner() -> None:
    shares = split_pot(7, ["ann", "bob", "cat", "dan"], SEATS, "bob")
    assert shares == {"ann": 1, "bob": 4, "cat": 1, "dan": 1}


def test_a_pot_without_winners_is_a_bug_not_a_silent_loss() -> None:
    with pytest.raises(ValueError, match="needs at least one winner"):
        split_pot(10, [], SEATS, "ann")


# -- the best range ----------------------------------------------------------------------------------


def test_a_range_includes_both_endpoints() -> None:
    assert r("200", "500").contains(Decimal("500")) and r("500", "600").contains(Decimal("500"))
    assert not r("200", "499.999").contains(Decimal("500"))


def test_containing_beats_not_containing_however_narrow() -> None:
    ranges = {"ann": r("0", "1000"), "bob": r("499", "499")}
    assert best(ranges, ["ann", "bob"], Decimal("500")) == ["ann"]


def test_the_narrowest_containing_range_wins_as_in_the_rulebook_example() -> None:
    ranges = {"ann": r("200", "600"), "bob": r("400", "1100")}
    assert best(ranges, ["ann", "bob"], Decimal("500")) == ["ann"]


def test_equal_widths_tie() -> None:
    ranges = {"ann": r("400", "600"), "bob": r("450", "650"), "cat": r("0", "5000")}
    assert best(ranges, ["ann", "bob", "cat"], Decimal("500")) == ["ann", "bob"]


def test_closest_midpoint_when_no_range_contains_the_answer() -> None:
    # both ends are 0.5 from 100.5, but the midpoints are 90 (10.5 away) and 105.5 (5 away)
    ranges = {"ann": r("80", "100"), "bob": r("101", "110")}
    assert best(ranges, ["ann", "bob"], Decimal("100.5")) == ["bob"]
    assert best(ranges, ["ann", "bob"], Decimal("-100")) == ["ann"]


def test_midpoint_distances_are_exact() -> None:
    # midpoints 0.15 and 0.35 are both exactly 0.1 from 0.25: a tie, not a float accident
    ranges = {"ann": r("0.1", "0.2"), "bob": r("0.3", "0.4")}
    assert best(ranges, ["ann", "bob"], Decimal("0.25")) == ["ann", "bob"]
    huge = {"ann": r("1E+90", "3E+90"), "bob": r("-1E-90", "1E-90")}
    assert best(huge, ["ann", "bob"], Decimal("2E+90") + Decimal("1E-90")) == ["ann"]


def test_only_the_contenders_given_are_compared() -> None:
    ranges = {"ann": r("1", "1"), "bob": r("0", "10")}
    assert best(ranges, ["bob"], Decimal("1")) == ["bob"]
