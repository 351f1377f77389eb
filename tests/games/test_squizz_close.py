"""sQuizz: the host closes the answers while some answerers have not answered (the product's decision
where rules.md sQuizz is silent; appliance.games.squizz.actions.Close): each missing answerer is
wrong and uses up their lowest unused token, so every token is still used exactly once (rules.md
sQuizz 1 and 5); the reveal follows at once."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from appliance.errors import IllegalAction, MalformedInput
from appliance.games.base import HOST, Action, NotYourTurn, WrongPhase
from appliance.games.squizz import Answer, Close, CloseReason, DealCard, SquizzEngine, StartQuestion

ANN, BOB, CAT, DAN = "ann", "bob", "cat", "dan"
# The middle value is Yoda's 900 years (A).
YODA = DealCard(HOST, "Age of...", ("Yoda", "Papa Smurf", "Noah"), (Decimal(900), Decimal(542), Decimal(950)))
MIDDLE = StartQuestion.host(2)
HOST_CLOSE, TIMEOUT = Close.by(CloseReason.HOST), Close.by(CloseReason.TIMEOUT)


def play(engine: SquizzEngine, *actions: Action) -> SquizzEngine:
    for action in actions:
        engine.apply(action)
    return engine


def new(players: tuple[str, ...] = (ANN, BOB, CAT, DAN)) -> SquizzEngine:
    return SquizzEngine(players, {})


def refused(engine: SquizzEngine, action: Action, error: type[IllegalAction], match: str) -> None:
    before = engine.snapshot()
    assert not engine.can(action)
    with pytest.raises(error, match=match):
        engine.apply(action)
    assert engine.snapshot() == before


def test_missing_answerers_are_wrong_and_use_up_their_lowest_unused_token() -> None:
    engine = play(new(), MIDDLE, YODA, Answer(BOB, "A", 1), Answer(CAT, "B", 6))
    play(engine, TIMEOUT)
    question = engine.current
    assert question is not None and question.revealed and question.closed == "timeout"
    assert question.missed == {DAN: 1} and question.correct == (BOB,)
    assert engine.tokens == {ANN: [1, 2, 3, 4, 5, 6], BOB: [2, 3, 4, 5, 6], CAT: [1, 2, 3, 4, 5], DAN: [2, 3, 4, 5, 6]}
    assert engine.scores() == {ANN: 0, BOB: 1, CAT: 0, DAN: 0} and engine.correct_counts[DAN] == 0
    play(engine, MIDDLE, YODA, Answer(ANN, "A", 3), HOST_CLOSE)  # bob reads; cat and dan are missing
    assert engine.current is not None and engine.current.missed == {CAT: 1, DAN: 2}
    assert engine.tokens[CAT] == [2, 3, 4, 5] and engine.tokens[DAN] == [3, 4, 5, 6]


def test_a_close_with_no_answer_in_makes_everyone_wrong() -> None:
    engine = play(new((ANN, BOB, CAT)), MIDDLE, YODA, HOST_CLOSE)
    question = engine.current
    assert question is not None and question.correct == () and question.missed == {BOB: 1, CAT: 1}
    assert engine.phase == "roll" and engine.next_reader() == BOB


def test_a_player_closed_out_every_time_still_uses_every_token_exactly_once() -> None:
    """rules.md sQuizz 1 and 5 stay true: dan never answers, every question is closed without him,
    and at the end he has used tokens 1-6 once each (lowest first) and scored nothing."""
    engine = new()
    while not engine.finished:
        play(engine, MIDDLE, YODA)
        question = engine.current
        assert question is not None
        for player in question.waiting_for:
            if player != DAN:
                play(engine, Answer(player, "A", engine.tokens[player][-1]))  # highest first, all correct
        if not question.revealed:
            play(engine, HOST_CLOSE)
    missed = [q.missed[DAN] for q in engine.questions if DAN in q.missed]
    assert missed == [1, 2, 3, 4, 5, 6] and engine.tokens[DAN] == []
    assert all(tokens == [] for tokens in engine.tokens.values())
    assert engine.scores() == {ANN: 21, BOB: 21, CAT: 21, DAN: 0}
    assert engine.winners() == [ANN, BOB, CAT]


def test_views_name_who_was_closed_out_but_never_the_token() -> None:
    engine = play(new(), MIDDLE, YODA, Answer(BOB, "A", 4), Answer(CAT, "C", 2), HOST_CLOSE)
    public = engine.public_view()["question"]
    assert public["missed"] == [DAN] and public["closed"] == "host"
    assert public["answers"] == {BOB: "A", CAT: "C"} and public["correct"] == [BOB]
    assert '"token"' not in json.dumps(engine.public_view())  # token values stay hidden (rules.md sQuizz 5)
    mine = engine.private_view(DAN)
    assert mine["answers"] == [{"question": 1, "answer": None, "token": 1, "correct": False}]
    assert mine["tokens"] == [2, 3, 4, 5, 6] and mine["prompt"] is None


def test_a_close_is_refused_outside_answering() -> None:
    engine = new()
    refused(engine, HOST_CLOSE, WrongPhase, "waiting for the die of question 1")
    play(engine, MIDDLE)
    refused(engine, HOST_CLOSE, WrongPhase, "waiting for its card")
    play(engine, YODA, Answer(BOB, "A", 1), Answer(CAT, "A", 1), Answer(DAN, "A", 1))
    refused(engine, TIMEOUT, WrongPhase, "waiting for the die of question 2")  # everyone answered: revealed


def test_a_close_is_refused_after_the_end() -> None:
    engine = new((ANN, BOB))
    while not engine.finished:
        play(engine, MIDDLE, YODA, HOST_CLOSE)
    refused(engine, TIMEOUT, WrongPhase, "the game is over")


def test_only_the_host_closes() -> None:
    engine = play(new(), MIDDLE, YODA)
    refused(engine, Close(ANN, "host"), NotYourTurn, "only the host may close")
    refused(engine, Close(BOB, "timeout"), NotYourTurn, "only the host may close")


def test_no_answer_after_the_close() -> None:
    engine = play(new(), MIDDLE, YODA, HOST_CLOSE)
    refused(engine, Answer(BOB, "A", 2), WrongPhase, "waiting for the die of question 2")


@pytest.mark.parametrize("reason", ["everyone_in", "", 3, None])
def test_a_close_for_an_unknown_reason_is_malformed(reason: object) -> None:
    with pytest.raises(MalformedInput, match="timeout, host"):
        Close(HOST, reason)  # type: ignore[arg-type]


def test_a_closed_game_rebuilds_from_its_json_log() -> None:
    engine = play(new(), MIDDLE, YODA, Answer(CAT, "B", 5), TIMEOUT, MIDDLE, YODA, Answer(DAN, "A", 6), HOST_CLOSE)
    logged = [engine.action_from_json(action.to_json()) for action in engine.log]
    assert logged[3] == TIMEOUT and logged[-1] == HOST_CLOSE
    assert SquizzEngine.rebuild(engine.players, engine.options, logged).snapshot() == engine.snapshot()
