"""The ante schedule and ante_at (rules.md Estimation poker 1): the ante doubles every N minutes or every
N questions; the session asks ante_at when it starts a question, the engine never reads a clock."""

from __future__ import annotations

from decimal import Decimal

import pytest

from appliance.errors import ConfigError, MalformedInput
from appliance.games.poker.actions import EnterRange, Fold, StartBetting, StartQuestion
from appliance.games.poker.engine import PokerEngine
from appliance.games.poker.schedule import AnteSchedule, Unit, ante_at, parse_schedule

EVERY_20_MINUTES = AnteSchedule(10, 20, Unit.MINUTES)
EVERY_3_QUESTIONS = AnteSchedule(10, 3, Unit.QUESTIONS)


@pytest.mark.parametrize(
    ("seconds", "ante"),
    [(0, 10), (1199.9, 10), (1200, 20), (2399, 20), (2400, 40), (3600, 80), (7 * 3600, 10 * 2**21)],
)
def test_by_minutes_the_ante_doubles_once_per_full_period(seconds: float, ante: int) -> None:
    assert ante_at(EVERY_20_MINUTES, seconds, questions_played=99) == ante


@pytest.mark.parametrize(("played", "ante"), [(0, 10), (2, 10), (3, 20), (5, 20), (6, 40), (30, 10240)])
def test_by_questions_the_ante_doubles_every_n_questions_played(played: int, ante: int) -> None:
    assert ante_at(EVERY_3_QUESTIONS, elapsed_seconds=99999, questions_played=played) == ante


@pytest.mark.parametrize(
    ("seconds", "played"), [(-1, 0), (float("nan"), 0), (float("inf"), 0), (True, 0), (0, -1), (0, 1.5), (0, None)]
)
def test_impossible_times_and_counts_are_refused(seconds: object, played: object) -> None:
    with pytest.raises(MalformedInput):
        ante_at(EVERY_20_MINUTES, seconds, played)  # type: ignore[arg-type]


def test_the_default_schedule_doubles_every_20_minutes_from_the_ante_option() -> None:
    assert parse_schedule(None, 25) == AnteSchedule(25, 20, Unit.MINUTES)
    assert PokerEngine(["ann", "bob"], {"ante": 25}).schedule == AnteSchedule(25, 20, Unit.MINUTES)


def test_the_schedule_option_round_trips_and_describes_itself() -> None:
    engine = PokerEngine(["ann", "bob"], {"ante": 5, "ante_every": {"questions": 4}})
    assert engine.options["ante_every"] == {"questions": 4}
    assert engine.schedule == AnteSchedule(5, 4, Unit.QUESTIONS)
    assert engine.schedule.describe() == "5, doubling every 4 questions"
    assert AnteSchedule(5, 1, Unit.MINUTES).describe() == "5, doubling every minute"


@pytest.mark.parametrize("value", [{"minutes": 0}, {"minutes": 2.5}, {"seconds": 60}, {}, [20], "20"])
def test_a_bad_schedule_is_a_config_error(value: object) -> None:
    with pytest.raises(ConfigError):
        parse_schedule(value, 10)


def test_the_engine_gives_the_ante_for_its_next_question() -> None:
    engine = PokerEngine(["ann", "bob"], {"ante": 10, "ante_every": {"questions": 2}})
    antes = []
    for _ in range(3):
        antes.append(engine.ante_for_next(elapsed_seconds=5000))
        engine.apply(StartQuestion.deal("Q", Decimal(1), ("a", "b"), antes[-1]))
        for player in engine.players:
            engine.apply(EnterRange(player, Decimal(0), Decimal(2)))
        engine.apply(StartBetting.now())
        engine.apply(Fold(engine.to_act or ""))
    assert antes == [10, 10, 20]
    assert [q.ante for q in engine.questions] == antes
    assert PokerEngine(["ann", "bob"], {"ante": 10}).ante_for_next(elapsed_seconds=2400) == 40
