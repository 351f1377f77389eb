"""The night engine (appliance.games.night): phases, the rounds still to come, finishing a round from
its own log (finished, stopped, abandoned), placement details the scenario format cannot show, the
tie-break, views and the log that rebuilds it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from appliance.errors import ConfigError, IllegalAction, MalformedInput
from appliance.games.base import HOST, Action, NotYourTurn, UnknownPlayer, WrongPhase
from appliance.games.buzzer.actions import Arm, Close, Declare, Judge, Press
from appliance.games.buzzer.actions import EndGame as End
from appliance.games.buzzer.actions import StartQuestion as Ask
from appliance.games.buzzer.engine import BuzzerEngine
from appliance.games.confident.actions import Answer
from appliance.games.confident.actions import StartQuestion as ConfidentAsk
from appliance.games.confident.engine import ConfidentEngine
from appliance.games.night import (
    AbandonRound,
    AddRound,
    AlreadyEntered,
    BadRoundLog,
    CloseCard,
    EnterNumber,
    FinishRound,
    MoveRound,
    NightEngine,
    NoSuchRound,
    NotTied,
    NotToCome,
    RoundNotOver,
    RoundPlan,
    SeatRound,
    SkipRound,
    StartRound,
    TiebreakCard,
)
from appliance.games.night.placement import night_points, places, poker_stacks_at_each_start
from appliance.games.poker.actions import AllIn, Call, Check, EnterRange, Fold, StartBetting, StartQuestion
from appliance.games.poker.engine import PokerEngine
from appliance.games.poker.room import RoomPokerEngine

ANN, BOB, CAT, DAN = "ann", "bob", "cat", "dan"
PLAYERS = (ANN, BOB, CAT, DAN)


def night(*rounds: dict[str, object], players: tuple[str, ...] = PLAYERS) -> NightEngine:
    return NightEngine(players, {"rounds": list(rounds) or [{"game": "buzzer"}]})


def refused(engine: NightEngine, action: Action, error: type[IllegalAction], match: str) -> None:
    before = engine.snapshot()
    assert not engine.can(action)
    with pytest.raises(error, match=match):
        engine.apply(action)
    assert engine.snapshot() == before


def buzzer_log(seats: tuple[str, ...], rights: list[str | None], end: bool = True) -> list[Action]:
    """A buzzer round's log: one question per entry, answered right by that player (or nobody)."""
    game = BuzzerEngine(seats)
    for right in rights:
        game.apply(Ask(HOST, "q"))
        game.apply(Arm(HOST, 0))
        if right is not None:
            game.apply(Press(right, 10))
            game.apply(Declare(HOST))
            game.apply(Judge(HOST, True))
        else:
            game.apply(Close(HOST))
    if end:
        game.apply(End(HOST))
    return list(game.log)


def play_buzzer(engine: NightEngine, rights: list[str | None], stopped: bool = False) -> None:
    round_ = engine.next_round
    assert round_ is not None
    engine.apply(StartRound.now())
    engine.apply(FinishRound.of(buzzer_log(round_.seats, rights, end=not stopped), stopped=stopped))


# -- the run-sheet ---------------------------------------------------------------------------------


def test_a_night_starts_between_rounds_and_plays_them_in_order() -> None:
    engine = night({"game": "buzzer", "title": "Warm-up"}, {"game": "buzzer", "seats": [ANN, BOB]})
    assert engine.phase == "between" and engine.next_round is not None and engine.next_round.number == 1
    assert engine.status() == "waiting for the host to start round 1 (Buzzer Round)"
    engine.apply(StartRound.now())
    assert engine.phase == "playing" and engine.playing is not None and engine.playing.number == 1
    refused(engine, StartRound.now(), WrongPhase, "round 1 .* is in play")
    engine.apply(FinishRound.of(buzzer_log(PLAYERS, [ANN])))
    assert engine.rounds[0].status.value == "finished"
    assert engine.rounds[0].points == {ANN: 4, BOB: 1, CAT: 1, DAN: 1}
    play_buzzer(engine, [BOB])
    assert engine.rounds[1].places == {ANN: 2, BOB: 1}
    assert engine.rounds[1].points == {ANN: 1, BOB: 2, CAT: 0, DAN: 0}
    assert engine.standing() == {ANN: 5, BOB: 3, CAT: 1, DAN: 1}
    assert engine.finished and engine.winners() == [ANN]


def test_only_the_host_runs_the_night() -> None:
    engine = night()
    refused(engine, StartRound(ANN), NotYourTurn, "only the host")
    refused(engine, SkipRound(ANN, 1), NotYourTurn, "only the host")


@pytest.mark.parametrize(
    "rounds,message",
    [
        ([{"game": "bingo"}], "unknown game 'bingo'"),
        ([{"game": "confident", "seats": [ANN, BOB]}], r"round 1 \(Confident\?\)"),
        ([{"game": "squizz", "seats": [ANN, "zed"]}], "zed sit"),
        ([{"game": "poker", "options": {"stack": 0}}], "stack must be"),
        ([{"game": "buzzer", "multiplier": 1.5}], "multiplier"),
        ([{"game": "buzzer", "deal": 3}], "unknown round key"),
    ],
)
def test_a_bad_run_sheet_is_refused_with_its_round_named(rounds: list[dict[str, object]], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        NightEngine(PLAYERS, {"rounds": rounds})


def test_plans_check_their_own_shape() -> None:
    with pytest.raises(MalformedInput, match="seats are a list"):
        RoundPlan("buzzer", "ann")  # type: ignore[arg-type]
    with pytest.raises(MalformedInput, match="card count"):
        RoundPlan("buzzer", cards=0)
    plan = RoundPlan("poker", (ANN, BOB), {"stack": 50}, 2, "Final", "deck-7", 10, 30)
    assert RoundPlan.from_json(plan.to_json()) == plan


def test_rounds_still_to_come_can_be_added_moved_skipped_and_reseated() -> None:
    engine = night({"game": "buzzer"}, {"game": "confident"}, {"game": "allin"})
    engine.apply(StartRound.now())
    engine.apply(AddRound(HOST, RoundPlan("squizz", (ANN, BOB, CAT)), before=2))
    assert [r.number for r in engine.rounds] == [1, 4, 2, 3]
    engine.apply(MoveRound(HOST, 3, before=4))
    assert [r.number for r in engine.rounds] == [1, 3, 4, 2]
    engine.apply(MoveRound(HOST, 3))
    assert [r.number for r in engine.rounds] == [1, 4, 2, 3]
    engine.apply(SkipRound(HOST, 2))
    engine.apply(SeatRound(HOST, 3, (BOB, DAN)))
    assert engine.round(3).seats == (BOB, DAN)
    refused(engine, SkipRound(HOST, 1), NotToCome, "round 1 is playing, not still to come")
    refused(engine, MoveRound(HOST, 4, before=1), NotToCome, "round 1 is playing")
    refused(engine, MoveRound(HOST, 4, before=4), IllegalAction, "before itself")
    refused(engine, SeatRound(HOST, 4, (ANN,)), IllegalAction, "sQuizz")
    refused(engine, SeatRound(HOST, 2, (ANN, BOB)), NotToCome, "skipped")
    refused(engine, SkipRound(HOST, 9), NoSuchRound, "no round 9")
    refused(engine, AddRound(HOST, RoundPlan("confident", (ANN, BOB))), IllegalAction, "Confident")
    engine.apply(FinishRound.of(buzzer_log(PLAYERS, [CAT])))
    assert engine.next_round is not None and engine.next_round.number == 4
    play_buzzer_like = [(4, "squizz"), (3, "allin")]
    assert [(r.number, r.plan.game) for r in engine.to_come()] == play_buzzer_like


def test_skipping_every_round_left_ends_the_night() -> None:
    engine = night({"game": "buzzer"}, {"game": "buzzer"})
    play_buzzer(engine, [ANN])
    engine.apply(SkipRound(HOST, 2))
    assert engine.finished and engine.winners() == [ANN]
    refused(engine, AddRound(HOST, RoundPlan("buzzer")), WrongPhase, "every round is over")


# -- finishing a round: its own log, finished, stopped or abandoned ---------------------------------


def test_a_round_is_finished_only_when_its_game_is_over() -> None:
    engine = night()
    engine.apply(StartRound.now())
    unfinished = buzzer_log(PLAYERS, [ANN], end=False)
    refused(engine, FinishRound.of(unfinished), RoundNotOver, "finish it now .* or abandon it")
    engine.apply(FinishRound.of(unfinished, stopped=True))
    assert engine.rounds[0].status.value == "stopped" and engine.rounds[0].points[ANN] == 4


def test_a_log_from_another_game_or_seats_is_refused() -> None:
    engine = night({"game": "buzzer", "seats": [ANN, BOB]})
    engine.apply(StartRound.now())
    refused(engine, FinishRound.of(buzzer_log((ANN, CAT), [CAT])), BadRoundLog, "does not play again at action 3")
    confident = ConfidentEngine((ANN, BOB, CAT))
    confident.apply(ConfidentAsk(HOST, "q", Decimal(1)))
    refused(engine, FinishRound.of(confident.log, stopped=True), BadRoundLog, "action 1")
    refused(engine, FinishRound(HOST, ({"kind": "jump"},)), BadRoundLog, "unknown buzzer action kind")


def test_abandon_is_not_finish_now_the_round_scores_nobody() -> None:
    engine = night({"game": "buzzer"}, {"game": "buzzer"})
    engine.apply(StartRound.now())
    engine.apply(AbandonRound(HOST))
    assert engine.rounds[0].status.value == "abandoned" and engine.standing() == dict.fromkeys(PLAYERS, 0)
    play_buzzer(engine, [BOB])
    assert engine.standing() == {ANN: 1, BOB: 4, CAT: 1, DAN: 1} and engine.winners() == [BOB]


def test_stopping_poker_mid_question_places_it_on_the_last_finished_question() -> None:
    """The question in play has not been scored: its antes and bets go back (stop.py)."""
    seats = (ANN, BOB, CAT)
    game = PokerEngine(seats, {"stack": 100})
    game.apply(StartQuestion.deal("q1", Decimal(5), ("h1", "h2"), 10))
    game.apply(EnterRange(ANN, Decimal(4), Decimal(6)))
    game.apply(EnterRange(BOB, Decimal(0), Decimal(1)))
    game.apply(StartBetting.now())
    game.apply(AllIn(ANN))
    game.apply(Call(BOB))  # cat entered no range and is folded (rules.md Estimation poker 4)
    assert game.stacks == {ANN: 210, BOB: 0, CAT: 90}
    game.apply(StartQuestion.deal("q2", Decimal(7), ("h1", "h2"), 50))
    game.apply(EnterRange(ANN, Decimal(0), Decimal(1)))
    assert game.stacks == {ANN: 160, BOB: 0, CAT: 40}  # antes in, question 2 still open
    engine = night({"game": "poker", "seats": list(seats), "options": {"stack": 100}})
    engine.apply(StartRound.now())
    engine.apply(FinishRound.of(game.log, stopped=True))
    ended = engine.rounds[0].engine
    assert isinstance(ended, RoomPokerEngine)
    assert ended.stacks == {ANN: 210, BOB: 0, CAT: 90} and ended.winners() == [ANN]
    assert engine.rounds[0].dropped == 2
    assert engine.rounds[0].places == {ANN: 1, BOB: 3, CAT: 2}


def test_stopping_a_buzzer_question_keeps_the_points_it_gave() -> None:
    seats = (ANN, BOB, CAT)
    game = BuzzerEngine(seats, {"points_wrong": -2})
    game.apply(Ask(HOST, "q"))
    game.apply(Arm(HOST, 0))
    game.apply(Press(ANN, 5))
    game.apply(Declare(HOST))
    game.apply(Judge(HOST, False))
    assert game.phase == "armed" and game.scores[ANN] == -2
    engine = night({"game": "buzzer", "seats": list(seats), "options": {"points_wrong": -2}})
    engine.apply(StartRound.now())
    engine.apply(FinishRound.of(game.log, stopped=True))
    assert engine.rounds[0].dropped == 0
    assert engine.rounds[0].places == {ANN: 3, BOB: 1, CAT: 1}


def test_poker_knockouts_on_one_question_place_by_chips_at_its_start() -> None:
    seats = (ANN, BOB, CAT)
    game = RoomPokerEngine(seats, {"stack": 100})
    game.apply(StartQuestion.deal("q1", Decimal(5), ("h1", "h2"), 10))
    for player, low in ((ANN, 4), (BOB, 0), (CAT, 0)):
        game.apply(EnterRange(player, Decimal(low), Decimal(low + 2)))
    game.apply(StartBetting.now())
    game.apply(Check(ANN))
    game.apply(Check(BOB))
    game.apply(Fold(CAT))
    for _ in range(3):
        game.apply(Check(ANN))
        game.apply(Check(BOB))
    assert game.stacks == {ANN: 120, BOB: 90, CAT: 90}
    game.apply(StartQuestion.deal("q2", Decimal(5), ("h1", "h2"), 120))
    for player, low in ((ANN, 4), (BOB, 0), (CAT, 1)):
        game.apply(EnterRange(player, Decimal(low), Decimal(low + 2)))
    game.apply(StartBetting.now())
    assert game.finished and game.winners() == [ANN]
    assert poker_stacks_at_each_start(game) == [{ANN: 100, BOB: 100, CAT: 100}, {ANN: 120, BOB: 90, CAT: 90}]
    engine = night({"game": "poker", "seats": list(seats), "options": {"stack": 100}})
    engine.apply(StartRound.now())
    engine.apply(FinishRound.of(game.log))
    assert engine.rounds[0].places == {ANN: 1, BOB: 2, CAT: 2}


# -- points ----------------------------------------------------------------------------------------


def test_night_points_and_places_follow_the_keys() -> None:
    keys = {ANN: (3,), BOB: (1,), CAT: (1,), DAN: (0,), "eve": (5,)}
    seats = (ANN, BOB, CAT, DAN, "eve")
    assert places(keys, seats) == {ANN: 2, BOB: 3, CAT: 3, DAN: 5, "eve": 1}
    assert night_points(keys, seats, (*seats, "fay"), 2) == {ANN: 8, BOB: 4, CAT: 4, DAN: 2, "eve": 10, "fay": 0}


# -- the tie-break -----------------------------------------------------------------------------------


def tied_night() -> NightEngine:
    engine = night({"game": "buzzer", "seats": [ANN, BOB, CAT]}, {"game": "buzzer", "seats": [ANN, BOB, CAT]})
    play_buzzer(engine, [ANN])
    play_buzzer(engine, [BOB])
    return engine


def test_a_tie_for_first_waits_for_a_card_and_only_the_tied_play_it() -> None:
    engine = tied_night()
    assert engine.standing() == {ANN: 4, BOB: 4, CAT: 2, DAN: 0}
    assert engine.phase == "tiebreak" and engine.tied() == [ANN, BOB] and engine.winners() == []
    refused(engine, EnterNumber(ANN, Decimal(1)), WrongPhase, "no tie-break card is open")
    refused(engine, EnterNumber(CAT, Decimal(1)), NotTied, "cat is not tied for first")
    refused(engine, EnterNumber("zed", Decimal(1)), UnknownPlayer, "'zed' is not playing")
    refused(engine, TiebreakCard(ANN, "q", Decimal(1)), NotYourTurn, "only the host")
    engine.apply(TiebreakCard.deal("Eiffel Tower?", "330"))
    assert engine.phase == "card" and engine.legal_inputs(ANN) == {"input": "number", "question": "Eiffel Tower?"}
    assert engine.legal_inputs(CAT) is None
    refused(engine, TiebreakCard.deal("again", "1"), WrongPhase, "waiting for numbers from ann, bob")
    engine.apply(EnterNumber(ANN, Decimal(331)))
    refused(engine, EnterNumber(ANN, Decimal(330)), AlreadyEntered, "already entered")
    view = engine.public_view()
    assert view["cards"][0]["entered"] == [ANN] and "numbers" not in view["cards"][0]
    assert "331" not in str(view)
    engine.apply(EnterNumber(BOB, Decimal(329)))  # both 1 away: still tied
    assert engine.phase == "tiebreak" and engine.tied() == [ANN, BOB]
    engine.apply(TiebreakCard.deal("Moon landing year?", "1969"))
    engine.apply(EnterNumber(BOB, Decimal("1969.5")))
    engine.apply(CloseCard(HOST))  # ann never entered: she falls behind bob
    assert engine.finished and engine.winners() == [BOB]
    assert engine.places() == {ANN: 2, BOB: 1, CAT: 3, DAN: 4}
    assert engine.public_view()["cards"][1]["distances"] == {BOB: "0.5"}
    refused(engine, EnterNumber(ANN, Decimal(1)), NotTied, "the night is over: bob won")


def test_distances_are_exact() -> None:
    engine = tied_night()
    engine.apply(TiebreakCard.deal("tiny", "0.1"))
    engine.apply(EnterNumber(ANN, Decimal("0.30000000000000000000000000000001")))
    engine.apply(EnterNumber(BOB, Decimal("-0.1")))
    card = engine.cards[0]
    assert card.distances == {ANN: Decimal("0.20000000000000000000000000000001"), BOB: Decimal("0.2")}
    assert engine.winners() == [BOB]


def test_a_card_nobody_answers_leaves_everyone_tied() -> None:
    engine = tied_night()
    engine.apply(TiebreakCard.deal("q", "1"))
    engine.apply(CloseCard(HOST))
    assert engine.phase == "tiebreak" and engine.tied() == [ANN, BOB]


# -- the log ---------------------------------------------------------------------------------------


def test_the_log_rebuilds_the_night_exactly() -> None:
    engine = night({"game": "buzzer"}, {"game": "poker", "seats": [ANN, BOB]}, {"game": "buzzer"})
    engine.apply(SeatRound(HOST, 3, (ANN, BOB, CAT)))
    play_buzzer(engine, [ANN, BOB])
    engine.apply(StartRound.now())
    engine.apply(AbandonRound(HOST))
    engine.apply(AddRound(HOST, RoundPlan("buzzer", (BOB, CAT), multiplier=3)))
    play_buzzer(engine, [ANN], stopped=True)
    play_buzzer(engine, [CAT])
    stored = [action.to_json() for action in engine.log]
    rebuilt = NightEngine.rebuild(engine.players, engine.options, [engine.action_from_json(a) for a in stored])
    assert rebuilt.snapshot() == engine.snapshot()
    assert rebuilt.public_view() == engine.public_view()
    assert engine.undo().snapshot() != engine.snapshot()


def test_views_show_the_standing_the_last_round_and_the_next() -> None:
    engine = night(
        {"game": "buzzer", "title": "Fastest finger"}, {"game": "buzzer", "seats": [ANN, BOB], "multiplier": 2}
    )
    play_buzzer(engine, [CAT])
    view = engine.public_view()
    assert view["table"][0] == {"player": CAT, "place": 1, "total": 4}
    points = {ANN: 1, BOB: 1, CAT: 4, DAN: 1}
    assert view["standings"] == {"heading": "Night points", "unit": "points", "points": points}
    assert view["last"]["title"] == "Fastest finger" and view["last"]["points"][CAT] == 4
    assert view["next"]["seats"] == [ANN, BOB] and view["next"]["sitting_out"] == [CAT, DAN]
    assert view["next"]["multiplier"] == 2 and view["next"]["title"] == "Buzzer Round"
    assert engine.private_view(CAT) == {"seat": 3, "player": CAT, "total": 4, "place": 1, "prompt": None,
                                        "number": None}


def test_malformed_actions_are_malformed_not_illegal() -> None:
    with pytest.raises(MalformedInput):
        SkipRound(HOST, 0)
    with pytest.raises(MalformedInput):
        EnterNumber(ANN, "lots")  # type: ignore[arg-type]
    with pytest.raises(MalformedInput):
        FinishRound(HOST, "log")  # type: ignore[arg-type]
    with pytest.raises(MalformedInput):
        TiebreakCard(HOST, "", Decimal(1))
    with pytest.raises(MalformedInput):
        NightEngine(PLAYERS, {"rounds": [{"game": "buzzer"}]}).action_from_json({"kind": "teleport"})
    assert EnterNumber(ANN, "1,500").number == Decimal(1500)  # type: ignore[arg-type]
    assert isinstance(Answer, type)
