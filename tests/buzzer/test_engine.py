"""The buzzer engine against rules.md "Buzzer round" 1-2, one rule per test; refusals change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from appliance.errors import ConfigError, IllegalAction, MalformedInput
from appliance.games.base import HOST, Action, NotYourTurn, UnknownPlayer, WrongPhase
from appliance.games.buzzer import Arm, BuzzerEngine, Close, Declare, EndGame, Judge, Press, StartQuestion
from appliance.games.buzzer.engine import EARLY_SLACK_MS, AlreadyBuzzed, LockedOut, NotArmed
from tests.board.fixtures import buzzer_views

PLAYERS = ["Ann", "Bob", "Cat", "Dan"]


def engine(players: list[str] = PLAYERS, **options: Any) -> BuzzerEngine:
    return BuzzerEngine(players, options)


def play(game: BuzzerEngine, *actions: Action) -> BuzzerEngine:
    for action in actions:
        game.apply(action)
    return game


def armed(game: BuzzerEngine, at: int = 1000) -> BuzzerEngine:
    return play(game, StartQuestion(HOST, "Which planet has the most moons?"), Arm(HOST, at))


def refused(game: BuzzerEngine, action: Action, error: type[Exception], words: str) -> None:
    before = game.snapshot()
    with pytest.raises(error, match=words):
        game.apply(action)
    assert game.snapshot() == before


def test_presses_are_ordered_by_when_they_happened_not_by_arrival() -> None:
    # rules.md Buzzer 2: Bob's press arrives first, Ann's happened earlier
    game = play(armed(engine()), Press("Bob", 1300), Press("Ann", 1250), Press("Cat", 1400))
    assert game.phase == "settling"
    game.apply(Declare(HOST))
    assert game.phase == "answering"
    assert game.public_view()["buzzes"] == ["Ann", "Bob", "Cat"]
    assert game.public_view()["answering"] == "Ann"


def test_wrong_passes_to_the_next_in_order_and_right_ends_the_question() -> None:
    game = engine(points_right=3, points_wrong=-1)
    play(armed(game), Press("Cat", 1200), Press("Bob", 1100), Declare(HOST))
    assert game.current is not None and game.current.answering == "Bob"
    game.apply(Judge(HOST, False))
    assert game.current.answering == "Cat" and game.phase == "answering"
    game.apply(Judge(HOST, True))
    assert game.phase == "closed"
    assert game.scores == {"Ann": 0, "Bob": -1, "Cat": 3, "Dan": 0}
    view = game.public_view()
    assert view["right"] == "Cat" and view["wrong"] == ["Bob"] and view["phase"] == "closed"


def test_a_press_before_arming_locks_the_player_out_of_the_question() -> None:
    # rules.md Buzzer 1 (lock-out on by default)
    game = play(engine(), StartQuestion(HOST), Press("Dan", 500))
    assert game.public_view()["locked_out"] == ["Dan"]
    game.apply(Arm(HOST, 1000))
    refused(game, Press("Dan", 1100), LockedOut, "Dan pressed before the buzzers were armed")
    play(game, Press("Ann", 1200), Declare(HOST), Judge(HOST, True), StartQuestion(HOST), Arm(HOST, 5000))
    game.apply(Press("Dan", 5100))  # the lock-out is for that question only
    assert game.current is not None and game.current.buzzed("Dan")


def test_without_lockout_an_early_press_is_refused_and_costs_nothing() -> None:
    game = play(engine(lockout=False), StartQuestion(HOST))
    refused(game, Press("Dan", 500), NotArmed, "before the buzzers were armed")
    play(game, Arm(HOST, 1000), Press("Dan", 1100))
    assert game.current is not None and game.current.buzzed("Dan") and not game.current.locked_out


def test_a_press_stamped_just_before_arming_counts_as_pressed_at_arming() -> None:
    # within EARLY_SLACK_MS of the arming: the handset's clock estimate is off by that much, no earlier
    game = play(armed(engine(), at=1000), Press("Bob", 1004), Press("Ann", 1000 - EARLY_SLACK_MS), Declare(HOST))
    assert game.public_view()["buzzes"] == ["Ann", "Bob"]
    assert game.public_view()["reaction_ms"] == {"Ann": 0, "Bob": 4}
    assert game.public_view()["locked_out"] == []


def test_a_press_that_happened_before_arming_is_locked_out_though_it_arrived_after() -> None:
    # rules.md Buzzer 1-2: the press time decides, not the arrival; an early (or forged) stamp does not
    # make the first press of the question (an audit found it answering first)
    game = play(armed(engine(), at=1000), Press("Bob", 1004), Press("Ann", 1000 - EARLY_SLACK_MS - 1),
                Declare(HOST))
    assert game.current is not None and game.current.answering == "Bob"
    assert game.public_view()["locked_out"] == ["Ann"] and game.public_view()["buzzes"] == ["Bob"]
    refused(game, Press("Ann", 1500), LockedOut, "locked out")


def test_with_the_lockout_off_a_press_stamped_before_arming_is_refused() -> None:
    game = armed(engine(lockout=False), at=1000)
    refused(game, Press("Ann", 400), NotArmed, "before the buzzers were armed")
    play(game, Press("Ann", 1200), Declare(HOST))  # and may press again, now
    assert game.public_view()["buzzes"] == ["Ann"] and game.public_view()["locked_out"] == []


def test_equal_press_times_go_by_arrival() -> None:
    game = play(armed(engine()), Press("Cat", 1500), Press("Ann", 1500), Declare(HOST))
    assert game.public_view()["buzzes"] == ["Cat", "Ann"]


def test_a_late_earlier_press_does_not_take_the_floor_but_is_next() -> None:
    game = play(armed(engine()), Press("Bob", 1300), Declare(HOST), Press("Cat", 1200))
    assert game.current is not None and game.current.answering == "Bob"
    assert game.public_view()["buzzes"] == ["Cat", "Bob"]
    game.apply(Judge(HOST, False))
    assert game.current.answering == "Cat"


def test_wrong_with_nobody_in_line_rearms_for_the_others_only() -> None:
    game = play(armed(engine()), Press("Ann", 1100), Declare(HOST), Judge(HOST, False))
    assert game.phase == "armed"
    refused(game, Press("Ann", 1500), AlreadyBuzzed, "Ann has already buzzed on question 1")
    game.apply(Press("Bob", 1600))
    assert game.phase == "settling"
    # while settling the TV shows only the presses already judged: the order is not final
    assert game.public_view()["buzzes"] == ["Ann"] and game.public_view()["phase"] == "armed"
    game.apply(Declare(HOST))
    assert game.public_view()["buzzes"] == ["Ann", "Bob"] and game.public_view()["answering"] == "Bob"


def test_the_question_closes_when_nobody_is_left_to_buzz() -> None:
    game = play(armed(engine(["Ann", "Bob"])), Press("Ann", 1100), Press("Bob", 1200), Declare(HOST),
                Judge(HOST, False))
    assert game.phase == "answering"
    game.apply(Judge(HOST, False))
    assert game.phase == "closed"
    assert game.current is not None and game.current.right is None


def test_everyone_locked_out_closes_the_question_at_arming() -> None:
    game = play(engine(["Ann", "Bob"]), StartQuestion(HOST), Press("Ann", 10), Press("Bob", 20), Arm(HOST, 1000))
    assert game.phase == "closed"


def test_presses_during_an_answer_join_the_line() -> None:
    game = play(armed(engine()), Press("Ann", 1100), Declare(HOST), Press("Dan", 1900), Press("Cat", 1800))
    assert game.phase == "answering"
    assert game.public_view()["buzzes"] == ["Ann", "Cat", "Dan"]


def test_close_ends_a_question_without_points_and_is_refused_when_closed() -> None:
    game = play(armed(engine()), Press("Ann", 1100), Declare(HOST), Close(HOST))
    assert game.phase == "closed" and set(game.scores.values()) == {0}
    refused(game, Close(HOST), WrongPhase, "close from the host refused: waiting for question 2")
    refused(game, Press("Bob", 2000), WrongPhase, "press from Bob refused")


def test_the_highest_total_wins_and_equal_totals_share() -> None:
    game = engine()
    for winner in ("Ann", "Cat"):
        play(game, StartQuestion(HOST), Arm(HOST, 0), Press(winner, 10), Declare(HOST), Judge(HOST, True))
    game.apply(EndGame(HOST))
    assert game.finished and game.winners() == ["Ann", "Cat"]
    assert game.public_view()["ending"] == "deck_ran_out"


def test_end_is_refused_while_a_question_is_open() -> None:
    game = armed(engine())
    refused(game, EndGame(HOST), WrongPhase, "end from the host refused: question 1 is armed")


@pytest.mark.parametrize(
    ("action", "error", "words"),
    [
        (Arm("Ann", 5), NotYourTurn, "only the host may arm"),
        (Judge("Ann", True), NotYourTurn, "only the host may judge"),
        (Declare("Bob"), NotYourTurn, "only the host may declare"),
        (Press("Zed", 5), UnknownPlayer, "'Zed' is not playing"),
        (Press(HOST, 5), UnknownPlayer, "is not playing"),
        (Judge(HOST, True), WrongPhase, "question 1 is armed"),
        (Declare(HOST), WrongPhase, "question 1 is armed"),
        (Arm(HOST, 5), WrongPhase, "question 1 is armed"),
        (StartQuestion(HOST), WrongPhase, "question 1 is armed"),
    ],
)
def test_refusals_name_the_input_and_the_state(action: Action, error: type[IllegalAction], words: str) -> None:
    refused(armed(engine()), action, error, words)


@pytest.mark.parametrize(
    ("record", "player", "value"),
    [(Press, "Ann", "12"), (Press, "Ann", 1.5), (Arm, HOST, True), (Judge, HOST, 1), (StartQuestion, HOST, 5)],
)
def test_unreadable_actions_are_malformed(record: Any, player: str, value: Any) -> None:
    with pytest.raises(MalformedInput):
        record(player, value)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"lockout": "yes"}, "lockout must be true or false"),
        ({"points_right": 1.5}, "points_right must be a whole number from -100 to 100"),
        ({"points_wrong": -101}, "points_wrong must be a whole number"),
        ({"points_right": True}, "points_right"),
        ({"speed": 1}, "unknown buzzer option"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        BuzzerEngine(PLAYERS, options)


def test_options_default_to_lockout_on_one_point_right_none_wrong() -> None:
    assert engine().options == {"lockout": True, "points_right": 1, "points_wrong": 0}


def test_the_log_rebuilds_the_same_game_from_json() -> None:
    game = play(armed(engine(points_wrong=-2)), Press("Bob", 1300), Press("Ann", 1250), Declare(HOST),
                Judge(HOST, False), Press("Dan", 1900))
    entries = [a.to_json() for a in game.log]
    rebuilt = BuzzerEngine.rebuild(game.players, game.options, [game.action_from_json(e) for e in entries])
    assert rebuilt.snapshot() == game.snapshot()


def test_the_view_has_the_shape_the_board_draws() -> None:
    # appliance/board/scenes/buzzer.py: every key of its documented view, with the phases it knows
    expected = buzzer_views()
    game = engine()
    for _ in range(3):
        play(game, StartQuestion(HOST), Arm(HOST, 0), Close(HOST))
    game.apply(StartQuestion(HOST, "Which planet has the most moons?"))
    states = {"waiting": game.public_view()}
    play(game, Press("Bob", 5), Arm(HOST, 100))
    states["armed"] = game.public_view()
    play(game, Press("Cat", 150), Press("Ann", 160), Press("Dan", 170), Declare(HOST), Judge(HOST, False))
    states["answering"] = game.public_view()
    for phase, view in states.items():
        assert set(expected[phase]) <= set(view)
        assert view["phase"] == phase
        for key in ("buzzes", "answering", "wrong", "locked_out", "number", "question"):
            assert view[key] == expected[phase][key], (phase, key)


def test_private_view_says_where_the_player_stands() -> None:
    game = play(engine(), StartQuestion(HOST), Press("Dan", 5), Arm(HOST, 100), Press("Cat", 150), Declare(HOST))
    assert game.private_view("Cat") == {"seat": 3, "player": "Cat", "score": 0, "buzzed": True, "locked_out": False,
                                        "answering": True}
    assert game.private_view("Dan")["locked_out"] is True
    assert game.private_view("Ann")["buzzed"] is False
    with pytest.raises(UnknownPlayer):
        game.private_view("Zed")
