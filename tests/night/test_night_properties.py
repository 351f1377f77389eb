"""Properties of the night (hypothesis): a round's night points depend only on the seat count and
the tie pattern; the standing never depends on the order the rounds are stored in; a refused
action changes nothing and the log rebuilds the night."""

from __future__ import annotations

import random
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.errors import IllegalAction
from appliance.games.base import HOST, Action
from appliance.games.buzzer.actions import Arm, Close, Declare, Judge, Press
from appliance.games.buzzer.actions import EndGame as End
from appliance.games.buzzer.actions import StartQuestion as Ask
from appliance.games.buzzer.engine import BuzzerEngine
from appliance.games.night import (
    AbandonRound,
    AddRound,
    CloseCard,
    EnterNumber,
    FinishRound,
    MoveRound,
    NightEngine,
    RoundPlan,
    SeatRound,
    SkipRound,
    StartRound,
    TiebreakCard,
)
from appliance.games.night.placement import night_points, places

NAMES = tuple(f"p{i}" for i in range(10))
Draw = Callable[..., Any]
"""``data.draw`` or a composite strategy's ``draw``."""


@st.composite
def tie_patterns(draw: st.DrawFn) -> list[int]:
    """Group sizes from first place down: [2, 1, 3] = two share first, one third, three share fourth."""
    seats = draw(st.integers(2, 10))
    sizes: list[int] = []
    while sum(sizes) < seats:
        sizes.append(draw(st.integers(1, seats - sum(sizes))))
    return sizes


def realise(pattern: list[int], draw: Draw) -> tuple[list[str], dict[str, tuple[int, ...]]]:
    """Players in a random seat order and keys that follow ``pattern`` (random values, same order)."""
    seats = draw(st.permutations(NAMES[: sum(pattern)]))
    values = sorted(draw(st.sets(st.integers(-1000, 1000), min_size=len(pattern), max_size=len(pattern))), reverse=True)
    ranked = list(draw(st.permutations(seats)))
    keys: dict[str, tuple[int, ...]] = {}
    for size, value in zip(pattern, values, strict=True):
        for player in ranked[:size]:
            keys[player] = (value,)
        ranked = ranked[size:]
    return list(seats), keys


@settings(max_examples=300, deadline=None)
@given(st.data(), tie_patterns(), st.integers(0, 5), st.integers(0, 4))
def test_round_points_sum_depends_only_on_seat_count_and_tie_pattern(
    data: st.DataObject, pattern: list[int], multiplier: int, sitting_out: int
) -> None:
    first_seats, first_keys = realise(pattern, data.draw)
    second_seats, second_keys = realise(pattern, data.draw)
    outside = [f"out{i}" for i in range(sitting_out)]
    first = night_points(first_keys, first_seats, [*first_seats, *outside], multiplier)
    second = night_points(second_keys, second_seats, [*outside, *second_seats], multiplier)
    assert sum(first.values()) == sum(second.values())
    # the total, worked out from the pattern alone: each group scores 1 + everyone in the groups below
    below = [sum(pattern[i + 1 :]) for i in range(len(pattern))]
    expected = sum(size * (1 + under) for size, under in zip(pattern, below, strict=True))
    assert sum(first.values()) == multiplier * expected
    assert all(first[p] == 0 for p in outside)
    # a shared place scores the same for all who share it, and places repeat (1, 1, 3)
    placed = places(first_keys, first_seats)
    assert sorted(set(placed.values())) == [1 + sum(pattern[:i]) for i in range(len(pattern))]
    for p in first_seats:
        for q in first_seats:
            assert (placed[p] == placed[q]) == (first[p] == first[q]) or multiplier == 0


# -- the standing and the order of the rounds -----------------------------------------------------------


PLAYERS = NAMES[:5]


@st.composite
def buzzer_rounds(draw: st.DrawFn) -> tuple[RoundPlan, list[Action]]:
    """A buzzer round: a subset of the players, a multiplier, and its finished log."""
    chosen = draw(st.sets(st.sampled_from(PLAYERS), min_size=2))
    seats = tuple(p for p in PLAYERS if p in chosen)
    return RoundPlan("buzzer", seats, multiplier=draw(st.integers(1, 3))), buzzer_log(seats, draw)


def buzzer_log(seats: tuple[str, ...], draw: Draw, end: bool = True) -> list[Action]:
    game = BuzzerEngine(seats)
    for right in draw(st.lists(st.one_of(st.none(), st.sampled_from(seats)), max_size=5)):
        game.apply(Ask(HOST, "q"))
        game.apply(Arm(HOST, 0))
        if right is None:
            game.apply(Close(HOST))
            continue
        game.apply(Press(right, 1))
        game.apply(Declare(HOST))
        game.apply(Judge(HOST, True))
    if end:
        game.apply(End(HOST))
    return list(game.log)


def play_night(rounds: list[tuple[RoundPlan, list[Action]]]) -> NightEngine:
    engine = NightEngine(PLAYERS, {"rounds": [plan for plan, _ in rounds]})
    for _, log in rounds:
        engine.apply(StartRound.now())
        engine.apply(FinishRound.of(log))
    return engine


@settings(max_examples=120, deadline=None)
@given(st.lists(buzzer_rounds(), min_size=1, max_size=5), st.randoms(use_true_random=False))
def test_the_standing_never_depends_on_the_order_rounds_are_stored(
    rounds: list[tuple[RoundPlan, list[Action]]], rng: random.Random
) -> None:
    shuffled = list(rounds)
    rng.shuffle(shuffled)
    first, second = play_night(rounds), play_night(shuffled)
    assert first.standing() == second.standing()
    assert first.tied() == second.tied() and first.phase == second.phase
    assert first.places() == second.places()
    # the standing is the sum of each round's points
    assert sum(first.standing().values()) == sum(sum(r.points.values()) for r in first.rounds)


# -- refusals change nothing; the log rebuilds the night -----------------------------------------------------


def host_actions(engine: NightEngine, draw: Draw) -> Action:
    numbers = [r.number for r in engine.rounds] + [99]
    choice = draw(st.integers(0, 10))
    if engine.card is not None and draw(st.booleans()):
        choice = 9  # a card is open: mostly numbers
    if choice == 0:
        return StartRound.now()
    if choice == 1:
        playing = engine.playing
        seats = playing.seats if playing is not None and draw(st.booleans()) else (PLAYERS[0], PLAYERS[1])
        stopped = draw(st.booleans())
        return FinishRound.of(buzzer_log(seats, draw, end=not stopped or draw(st.booleans())), stopped=stopped)
    if choice == 2:
        return AbandonRound(HOST)
    if choice == 3:
        return SkipRound(HOST, draw(st.sampled_from(numbers)))
    if choice == 4:
        return MoveRound(HOST, draw(st.sampled_from(numbers)), draw(st.one_of(st.none(), st.sampled_from(numbers))))
    if choice == 5:
        seats = tuple(draw(st.sets(st.sampled_from((*PLAYERS, "zed")), min_size=1)))
        return SeatRound(HOST, draw(st.sampled_from(numbers)), seats)
    if choice == 6:
        return AddRound(HOST, draw(buzzer_rounds())[0], draw(st.one_of(st.none(), st.sampled_from(numbers))))
    if choice == 7:
        return TiebreakCard.deal("q", str(draw(st.integers(-50, 50))))
    if choice == 8:
        return CloseCard(HOST)
    player = draw(st.sampled_from((*PLAYERS, "zed")))
    return EnterNumber(player, Decimal(draw(st.integers(-50, 50))))


phases: set[str] = set()


@settings(max_examples=80, deadline=None)
@given(st.data(), st.lists(buzzer_rounds(), min_size=1, max_size=3))
def test_refused_actions_change_nothing_and_the_log_rebuilds_the_night(
    data: st.DataObject, rounds: list[tuple[RoundPlan, list[Action]]]
) -> None:
    engine = NightEngine(PLAYERS, {"rounds": [plan for plan, _ in rounds]})
    for _ in range(30):
        action = host_actions(engine, data.draw)
        before = engine.snapshot()
        allowed = engine.can(action)
        try:
            engine.apply(action)
        except IllegalAction:
            assert not allowed
            assert engine.snapshot() == before
        else:
            assert allowed
        phases.add(engine.phase)
    rebuilt = NightEngine.rebuild(engine.players, engine.options, engine.log)
    assert rebuilt.snapshot() == engine.snapshot()
    assert sum(engine.standing().values()) == sum(sum(r.points.values()) for r in engine.scored())


def test_the_random_walk_reached_every_phase() -> None:
    """Guards the walk above: it played nights to their ends, tie-breaks included (run after it)."""
    test_refused_actions_change_nothing_and_the_log_rebuilds_the_night()
    assert phases >= {"between", "playing", "tiebreak", "card", "finished"}
