"""Confident? engine: phases, every refusal (state unchanged), options, the log, views, legal inputs."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from appliance.errors import ConfigError, IllegalAction, MalformedInput
from appliance.games.base import HOST, UnknownPlayer, WrongPhase
from appliance.games.confident.actions import Answer, Close, EndGame, Settle, StartQuestion
from appliance.games.confident.engine import ConfidentEngine
from appliance.games.confident.refusals import (
    AlreadyAnswered,
    BoostUsed,
    CopySelf,
    HostOnly,
    NoRangeOrCopy,
    NotEveryoneIn,
    SwapSamePlayer,
    SwapSelf,
)
from tests.games.confident_support import ANN, BOB, CAT, DAN, ask, board, copy, new, play, refused, settle_question

# -- phases -----------------------------------------------------------------------------------------


def test_phases_of_one_question() -> None:
    engine = new()
    assert engine.phase == "lobby"
    play(engine, ask())
    assert engine.phase == "open"
    play(engine, board(ANN, "1", "20"), Close(HOST, "timeout"))
    assert engine.phase == "closed"
    play(engine, Settle(HOST))
    assert engine.phase == "settled"
    play(engine, ask("7"))
    assert engine.phase == "open" and engine.current is not None and engine.current.number == 2


@pytest.mark.parametrize(
    ("setup", "action", "match"),
    [
        ((), board(ANN, "1", "2"), "ann cannot write range 1 to 2: no question has been asked yet"),
        ((), Close(HOST, "timeout"), "cannot close entries: no question has been asked yet"),
        ((), Settle(HOST), "cannot settle: no question has been asked yet"),
        ((ask(),), ask(), "cannot ask a new question: question 1 is open \\(waiting for ann, bob, cat, dan\\)"),
        ((ask(),), Settle(HOST), "cannot settle: question 1 is open"),
        ((ask(),), EndGame(HOST), "cannot end the game now: question 1 is open"),
        ((ask(), Close(HOST, "timeout")), Close(HOST, "timeout"), "cannot close entries: entries for question 1"),
        ((ask(), Close(HOST, "timeout")), EndGame(HOST), "cannot end the game now: entries for question 1 are closed"),
        ((ask(), Close(HOST, "timeout")), ask(), "cannot ask a new question: entries for question 1 are closed"),
        ((ask(), Close(HOST, "timeout"), Settle(HOST)), Settle(HOST), "cannot settle: question 1 is settled"),
        ((ask(), Close(HOST, "timeout"), Settle(HOST)), board(ANN, "1", "2"), "question 1 is settled"),
        ((EndGame(HOST),), ask(), "cannot ask a new question: the game is over \\(ann, bob, cat, dan won\\)"),
        ((EndGame(HOST),), EndGame(HOST), "the game is over"),
    ],
)
def test_actions_out_of_phase_are_refused(setup: tuple[Any, ...], action: Any, match: str) -> None:
    refused(play(new(), *setup), action, WrongPhase, match)


# -- refusals of a board ------------------------------------------------------------------------------


@pytest.fixture
def open_question() -> ConfidentEngine:
    return play(new(), ask())


def test_answering_twice_is_refused(open_question: ConfidentEngine) -> None:
    play(open_question, board(ANN, "1", "20"))
    refused(open_question, board(ANN, "2", "30"), AlreadyAnswered, "ann already answered question 1")


@pytest.mark.parametrize(
    ("action", "error", "match"),
    [
        (Answer(ANN), NoRangeOrCopy, "ann cannot write an empty board: a board has a range or a copy"),
        (Answer(ANN, (Decimal(1), Decimal(2)), copy=BOB), NoRangeOrCopy, "the copier writes no range"),
        (copy(ANN, ANN), CopySelf, r"ann cannot write copy ann \(seat 1\): a player cannot copy themselves"),
        (copy(ANN, "zed"), UnknownPlayer, r"ann cannot write copy 'zed': 'zed' is not playing \(seats 1 to 4\)"),
        (board(ANN, "1", "2", swap=(ANN, BOB)), SwapSelf, "a swap names two OTHER players"),
        (board(ANN, "1", "2", swap=(BOB, ANN)), SwapSelf, "a swap names two OTHER players"),
        (board(ANN, "1", "2", swap=(BOB, BOB)), SwapSamePlayer, "a swap names two different players"),
        (board(ANN, "1", "2", swap=(BOB, "zed")), UnknownPlayer, "'zed' is not playing"),
        (board("zed", "1", "2"), UnknownPlayer, "'zed' is not playing"),
        (board(HOST, "1", "2"), UnknownPlayer, "'' is not playing"),
    ],
)
def test_bad_boards_are_refused(
    open_question: ConfidentEngine, action: Answer, error: type[IllegalAction], match: str
) -> None:
    refused(open_question, action, error, match)


@pytest.mark.parametrize(
    ("first", "second", "match"),
    [
        (copy(ANN, BOB), copy(ANN, CAT), "ann already played their copy on question 1"),
        (board(ANN, "1", "2", swap=(BOB, CAT)), board(ANN, "1", "2", swap=(CAT, DAN)), "their swap on question 1"),
        (board(ANN, "1", "2", double=True), board(ANN, "1", "2", double=True), "their double on question 1"),
    ],
)
def test_a_used_boost_is_refused_for_the_rest_of_the_game(first: Answer, second: Answer, match: str) -> None:
    engine = new()
    settle_question(engine, "12", first, board(BOB, "0", "5"))
    play(engine, ask())
    refused(engine, second, BoostUsed, match)
    assert engine.legal_inputs(ANN)["boosts"] == [b for b in ("copy", "swap", "double") if b not in match]


@pytest.mark.parametrize("action", [ask(), Close(HOST, "timeout"), Settle(HOST), EndGame(HOST)])
def test_host_actions_from_a_player_are_refused(action: Any) -> None:
    engine = play(new(), ask(), Close(HOST, "timeout"), Settle(HOST))
    forged = type(action)(**{**action.__dict__, "player": ANN})
    refused(engine, forged, HostOnly, "'ann' cannot .*: only the host does")


def test_closing_as_everyone_in_needs_everyone(open_question: ConfidentEngine) -> None:
    play(open_question, board(ANN, "1", "2"), board(CAT, "1", "2"))
    refused(open_question, Close(HOST, "everyone_in"), NotEveryoneIn, "bob, dan has not answered")
    play(open_question, Close(HOST, "timeout"))
    assert open_question.phase == "closed"


def test_an_action_of_another_game_is_refused(open_question: ConfidentEngine) -> None:
    from appliance.games.base import Action

    with pytest.raises(IllegalAction, match="not an input of confident"):
        open_question.apply(Action(ANN))


# -- records ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "match"),
    [
        (lambda: Answer(ANN, (Decimal(1),)), "a range is \\[bottom, top\\]"),  # type: ignore[arg-type]
        (lambda: Answer(ANN, (1, 2)), "bottom must be a finite Decimal"),  # type: ignore[arg-type]
        (lambda: Answer(ANN, (Decimal("NaN"), Decimal(2))), "finite Decimal"),
        (lambda: Answer(ANN, (Decimal("1E200"), Decimal("2E200"))), "out of range"),
        (lambda: Answer(ANN, copy=3), "the name to copy must be text"),  # type: ignore[arg-type]
        (lambda: Answer(ANN, copy=BOB, swap=(BOB,)), "a swap names two players"),  # type: ignore[arg-type]
        (lambda: Answer(ANN, copy=BOB, double="yes"), "double is true or false"),  # type: ignore[arg-type]
        (lambda: StartQuestion(HOST, "", Decimal(1)), "needs a question"),
        (lambda: StartQuestion(HOST, "Q?", 12), "answer must be a finite Decimal"),  # type: ignore[arg-type]
        (lambda: Close(HOST, "bored"), "entries close for one of everyone_in, timeout"),
    ],
)
def test_malformed_records_are_refused_when_built(build: Any, match: str) -> None:
    with pytest.raises(MalformedInput, match=match):
        build()


def test_actions_round_trip_through_the_log_json() -> None:
    engine = new()
    actions = [
        StartQuestion(HOST, "How far?", Decimal("3.2E6"), "km"),
        Answer(ANN, (Decimal("-1.5"), Decimal("3E6")), swap=(BOB, CAT), double=True),
        Answer(BOB, copy=CAT),
        Close(HOST, "timeout"),
        Settle(HOST),
        EndGame(HOST),
    ]
    for action in actions:
        assert engine.action_from_json(action.to_json()) == action


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({"kind": "answer", "player": ANN, "range": ["1", "2"], "colour": "red"}, "unknown field"),
        ({"kind": "answer", "range": ["1", "2"]}, "needs player"),
        ({"kind": "answer", "player": ANN, "range": ["1,5", "2"]}, "ambiguous"),
        ({"kind": "answer", "player": ANN, "range": "1-2"}, "a range is"),
        ({"kind": "question", "player": HOST, "question": "Q?"}, "needs answer"),
        ({"kind": "question", "player": HOST, "question": "Q?", "answer": "lots"}, "not a number"),
        ({"kind": "shout", "player": ANN}, "unknown confident action kind 'shout'"),
    ],
)
def test_malformed_log_entries_are_refused(data: dict[str, Any], match: str) -> None:
    with pytest.raises(MalformedInput, match=match):
        new().action_from_json(data)


def test_rebuild_from_the_log_gives_the_same_state() -> None:
    engine = new(variants=["minus_points"])
    settle_question(engine, "12", copy(ANN, BOB, swap=(CAT, DAN)), board(BOB, "10", "14", double=True))
    settle_question(engine, "3", board(ANN, "1", "2"), board(CAT, "3", "3"))
    log = [engine.action_from_json(action.to_json()) for action in engine.log]
    rebuilt = ConfidentEngine.rebuild(engine.players, engine.options, log)
    assert rebuilt.snapshot() == engine.snapshot()
    assert engine.undo().snapshot() != engine.snapshot()


# -- options --------------------------------------------------------------------------------------------


def test_default_options() -> None:
    assert new().options == {"target": 15, "variants": [], "fast_play_seconds": 10}


def test_variants_are_kept_in_rule_order() -> None:
    engine = new(variants=["top_two", "final_hurdle"])
    assert engine.options["variants"] == ["final_hurdle", "top_two"]


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"target": 0}, "target must be a whole number from 1"),
        ({"target": "15"}, "target must be a whole number"),
        ({"target": True}, "target must be a whole number"),
        ({"fast_play_seconds": 0}, "fast_play_seconds must be a whole number from 1 to 600"),
        ({"variants": "nail_it"}, "variants must be a list of names"),
        ({"variants": ["nail_it", "nail_it"]}, "must not repeat"),
        ({"variants": ["speedy"]}, "unknown Confident variant\\(s\\) speedy; known: final_hurdle, nail_it"),
        ({"rounds": 3}, "unknown Confident option\\(s\\) rounds"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        ConfidentEngine((ANN, BOB, CAT), options)


def test_player_count_limits() -> None:  # rules.md The room 1: 40 at the default options
    with pytest.raises(ConfigError, match="2 to 40 players"):
        ConfidentEngine([f"p{i}" for i in range(41)])
    assert ConfidentEngine([f"p{i}" for i in range(40)]).players[-1] == "p39"


# -- views ------------------------------------------------------------------------------------------------


def test_public_view_hides_ranges_boosts_and_the_answer_until_settlement() -> None:
    engine = play(new(), ask("12"), board(ANN, "8", "15", double=True), copy(BOB, ANN, swap=(CAT, DAN)))
    view = engine.public_view()
    text = repr(view)
    assert view["question"]["answered"] == [ANN, BOB]
    assert "'8'" not in text and "'15'" not in text and "'12'" not in text
    assert "answer" not in view["question"] and "ranges" not in view["question"]
    assert view["boosts_used"] == {ANN: [], BOB: [], CAT: [], DAN: []}
    play(engine, Close(HOST, "timeout"))
    assert repr(engine.public_view()) == text.replace("'closed': None", "'closed': 'timeout'").replace(
        "'phase': 'open'", "'phase': 'closed'"
    )


def test_public_view_after_settlement_shows_the_reveal() -> None:
    engine = new()
    settle_question(
        engine, "12", board(ANN, "8", "15", double=True), copy(BOB, ANN, swap=(CAT, DAN)), board(CAT, "0", "100")
    )
    question = engine.public_view()["question"]
    assert question["answer"] == "12"
    assert question["boards"][BOB] == {"range": None, "copy": ANN, "swap": [CAT, DAN], "double": False}
    assert question["ranges"] == {ANN: ["8", "15"], BOB: ["8", "15"], CAT: None, DAN: ["0", "100"]}
    assert question["sizes"] == {ANN: "7", BOB: "7", CAT: None, DAN: "100"}
    assert question["points"] == {ANN: 6, BOB: 3, CAT: 0, DAN: 1}
    assert engine.public_view()["scores"] == {ANN: 6, BOB: 3, CAT: 0, DAN: 1}
    assert engine.public_view()["boosts_used"] == {ANN: ["double"], BOB: ["copy", "swap"], CAT: [], DAN: []}


def test_private_view_shows_only_the_players_own_board() -> None:
    engine = play(new(), ask(), board(ANN, "8", "15", double=True), board(BOB, "1", "2"))
    view = engine.private_view(ANN)
    assert view["board"] == {"range": ["8", "15"], "copy": None, "swap": None, "double": True}
    assert view["boosts_left"] == ["copy", "swap"]
    assert view["score"] == 0
    assert view["legal"]["answer"] is False
    assert "'1'" not in repr(view)
    assert engine.private_view(CAT)["board"] is None
    with pytest.raises(UnknownPlayer):
        engine.private_view("zed")


def test_legal_inputs_offer_boosts_left_and_other_players() -> None:
    engine = new()
    settle_question(engine, "12", copy(ANN, BOB), board(BOB, "1", "20"))
    assert engine.legal_inputs(ANN)["answer"] is False  # no question open
    play(engine, ask())
    legal = engine.legal_inputs(ANN)
    assert legal["answer"] is True
    assert legal["boosts"] == ["swap", "double"]
    assert legal["copy"] == []
    assert legal["swap"] == [BOB, CAT, DAN]
    assert engine.legal_inputs(BOB)["copy"] == [ANN, CAT, DAN]
    with pytest.raises(UnknownPlayer):
        engine.legal_inputs("zed")


def test_snapshot_is_plain_json() -> None:
    import json

    engine = new()
    settle_question(engine, "12", board(ANN, "8", "15"))
    assert json.loads(json.dumps(engine.snapshot())) == engine.snapshot()
