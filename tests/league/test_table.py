"""The league table (rules.md The league 3-5), each expectation reasoned by hand in its comment."""

from __future__ import annotations

from appliance.league.table import NightPlaces, league_points, season


def test_first_gets_100_last_0_and_the_middle_its_share() -> None:
    # n = 3: b = 2, 1, 0 below -> 100*2/2, 100*1/2, 0
    assert league_points({"Owls": 1, "Foxes": 2, "Bats": 3}) == {"Owls": 100, "Foxes": 50, "Bats": 0}


def test_thirds_round_half_up_to_whole_numbers() -> None:
    # n = 4: 100*3/3 = 100, 100*2/3 = 66.67 -> 67, 100*1/3 = 33.33 -> 33, 0
    assert league_points({"A": 1, "B": 2, "C": 3, "D": 4}) == {"A": 100, "B": 67, "C": 33, "D": 0}


def test_an_exact_half_rounds_up() -> None:
    # n = 9: the team with one below gets 100*1/8 = 12.5 -> 13; seven below: 87.5 -> 88
    places = {f"T{i}": i for i in range(1, 10)}
    got = league_points(places)
    assert got["T8"] == 13 and got["T2"] == 88 and got["T9"] == 0 and got["T1"] == 100


def test_a_shared_place_scores_the_same_for_all_who_share_it() -> None:
    # places 1, 1, 3: each of the two firsts has one below -> 100*1/2 = 50; the third has none -> 0
    assert league_points({"A": 1, "B": 1, "C": 3}) == {"A": 50, "B": 50, "C": 0}
    # places 1, 2, 2, 4: first has 3 below -> 100; the two seconds have 1 below -> 33.33 -> 33
    assert league_points({"A": 1, "B": 2, "C": 2, "D": 4}) == {"A": 100, "B": 33, "C": 33, "D": 0}


def test_a_night_of_one_team_gives_no_points() -> None:
    assert league_points({"Alone": 1}) == {"Alone": 0}
    assert league_points({}) == {}


def test_the_season_sums_points_then_counts_wins_then_shares() -> None:
    nights = [
        # box pub-a, three teams: Owls 100, Foxes 50, Bats 0
        NightPlaces("r1", "pub-a", {"Owls": 1, "Foxes": 2, "Bats": 3}),
        # box pub-b, two teams: Cats 100, Dogs 0
        NightPlaces("r2", "pub-b", {"Cats": 1, "Dogs": 2}),
        # pub-a again: Foxes 100, Bats 50, Owls 0 -> Owls 100 (1 win), Foxes 150 (1 win), Bats 50
        NightPlaces("r3", "pub-a", {"Foxes": 1, "Bats": 2, "Owls": 3}),
        # pub-b again, a shared first: n = 2, nobody below either, b = 0 -> 0 each; a shared first is a
        # night won: Cats 100 (2 wins), Dogs 0 (1 win)
        NightPlaces("r4", "pub-b", {"Cats": 1, "Dogs": 1}),
    ]
    rows = season(nights)
    assert [(r.place, r.team, r.points, r.wins, r.nights) for r in rows] == [
        (1, "Foxes", 150, 1, 2),
        (2, "Cats", 100, 2, 2),   # 100 points like Owls, but two nights won against one
        (3, "Owls", 100, 1, 2),
        (4, "Bats", 50, 0, 2),
        (5, "Dogs", 0, 1, 2),
    ]
    assert {r.team: r.box for r in rows} == {"Foxes": "pub-a", "Cats": "pub-b", "Owls": "pub-a",
                                             "Bats": "pub-a", "Dogs": "pub-b"}


def test_equal_points_and_wins_share_a_place() -> None:
    # two boxes, two teams each, each first once: 100 points and 1 win each for the firsts
    rows = season([NightPlaces("a", "x", {"P": 1, "Q": 2}), NightPlaces("b", "y", {"R": 1, "S": 2})])
    assert [(r.place, r.team) for r in rows] == [(1, "P"), (1, "R"), (3, "Q"), (3, "S")]


def test_a_result_id_seen_twice_counts_once() -> None:
    night = NightPlaces("same", "x", {"P": 1, "Q": 2})
    assert [(r.team, r.points, r.nights) for r in season([night, night])] == [("P", 100, 1), ("Q", 0, 1)]
