"""The sQuizz setup table and team forming (appliance.games.squizz.table; rules.md sQuizz 1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.errors import ConfigError
from appliance.games.squizz import SquizzEngine, form_teams, team_name
from appliance.games.squizz.table import READS, TOKENS, questions_for, tokens_for

# The rulebook's table (seed 004, "Setup"): players -> (highest bet token, reads per player).
RULEBOOK = {2: (6, 6), 3: (6, 3), 4: (6, 2), 5: (8, 2), 6: (5, 1), 7: (6, 1), 8: (7, 1)}


def test_table_is_the_rulebooks() -> None:
    assert {n: (TOKENS[n], READS[n]) for n in TOKENS} == RULEBOOK


@pytest.mark.parametrize("players", range(2, 9))
def test_every_non_reader_has_exactly_one_token_per_question_they_answer(players: int) -> None:
    """Each player answers (players - 1) * reads questions, one token each: all their tokens."""
    highest, reads = RULEBOOK[players]
    assert (players - 1) * reads == highest == len(tokens_for(players))
    assert questions_for(players) == players * reads


@pytest.mark.parametrize("players", range(2, 9))
def test_engine_deals_the_tables_tokens_and_reads(players: int) -> None:
    engine = SquizzEngine([f"p{i}" for i in range(players)])
    highest, reads = RULEBOOK[players]
    assert all(tokens == list(range(1, highest + 1)) for tokens in engine.tokens.values())
    assert engine.reads_per_player == reads
    assert engine.total_questions == players * reads


def test_up_to_eight_people_play_alone() -> None:
    people = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
    assert form_teams(people) == [(p,) for p in people]
    assert form_teams(people[:2]) == [("ann",), ("bob",)]


def test_nine_people_make_three_pairs_and_one_team_of_three_in_seat_order() -> None:
    people = [f"p{i}" for i in range(1, 10)]
    assert form_teams(people) == [("p1", "p2"), ("p3", "p4"), ("p5", "p6"), ("p7", "p8", "p9")]


def test_ten_people_make_five_pairs() -> None:
    people = [f"p{i}" for i in range(1, 11)]
    assert form_teams(people) == [("p1", "p2"), ("p3", "p4"), ("p5", "p6"), ("p7", "p8"), ("p9", "p10")]


def test_seventeen_people_fill_the_eight_seats() -> None:
    teams = form_teams([f"p{i}" for i in range(17)])
    assert len(teams) == 8 and teams[-1] == ("p14", "p15", "p16")


def test_eighteen_people_would_need_nine_teams_and_are_refused() -> None:
    with pytest.raises(ConfigError, match="18 people make 9 teams of two; sQuizz seats at most 8 teams"):
        form_teams([f"p{i}" for i in range(18)])


@pytest.mark.parametrize("count", [0, 1])
def test_fewer_than_two_people_are_refused(count: int) -> None:
    with pytest.raises(ConfigError, match="at least 2 people"):
        form_teams([f"p{i}" for i in range(count)])


@settings(max_examples=50)
@given(st.integers(9, 17))
def test_teams_seat_everyone_once_in_order_in_pairs_and_at_most_one_three(count: int) -> None:
    people = [f"p{i}" for i in range(count)]
    teams = form_teams(people)
    assert [p for team in teams for p in team] == people
    assert sorted(len(t) for t in teams) == [2] * (count // 2 - count % 2) + [3] * (count % 2)
    assert 2 <= len(teams) <= 8


def test_team_name_joins_the_members_and_seats_in_the_engine() -> None:
    teams = form_teams([f"p{i}" for i in range(1, 10)])
    names = [team_name(t) for t in teams]
    assert names == ["p1 & p2", "p3 & p4", "p5 & p6", "p7 & p8 & p9"]
    assert team_name(("ann",)) == "ann"
    assert SquizzEngine(names).players == tuple(names)
