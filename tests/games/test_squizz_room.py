"""sQuizz's room form (docs/rules.md squizz-room): nobody reads, every player answers every card with one of
their tokens 1..K (option ``tokens``, default 6), the game has exactly K cards; above 8 players it is the only
form, for 2-8 it is chosen with ``readers`` false. Engine tests, then hypothesis properties over 9-40 players:
every token used once, totals are the correct tokens (recomputed from the log), the log rebuilds the state, a
refused input changes nothing, and no view shows a token value before the end."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from appliance.errors import ConfigError
from appliance.games.base import HOST, Action
from appliance.games.squizz import Answer, Close, CloseReason, DealCard, SquizzEngine, StartQuestion
from appliance.games.squizz.engine import AlreadySubmitted, BadToken
from appliance.games.squizz.table import setup_options
from tests.games.probing import refuse_probes
from tests.games.test_squizz_properties import (
    check_tokens_and_scores,
    other_tokens,
    probes,
    random_game,
)

ROOM = tuple(f"t{n:02d}" for n in range(1, 41))
FIVE = ROOM[:5]
CARD = DealCard(HOST, "Height in metres", ("Eiffel Tower", "Big Ben", "Statue of Liberty"),
                (Decimal(330), Decimal(96), Decimal(93)))
PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seated(count: int, **options: object) -> SquizzEngine:
    return SquizzEngine(ROOM[:count], options)


# -- options and seats -------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [9, 24, 40])
def test_above_eight_players_the_room_form_is_the_default_and_only_form(count: int) -> None:
    engine = seated(count)
    assert engine.options == {"readers": False, "tokens": 6}
    assert engine.room and engine.total_questions == 6 and engine.reads_per_player == 0
    assert all(tokens == [1, 2, 3, 4, 5, 6] for tokens in engine.tokens.values())
    assert engine.next_reader() is None
    with pytest.raises(ConfigError, match=f"with readers seats 2 to 8 players, got {count}"):
        seated(count, readers=True)


def test_two_to_eight_players_choose_the_room_form_with_readers_false() -> None:
    engine = seated(5, readers=False)
    assert engine.room and engine.options == {"readers": False, "tokens": 6}
    assert engine.tokens[FIVE[0]] == [1, 2, 3, 4, 5, 6]  # not the table's 1-8 for 5 players
    assert engine.total_questions == 6  # not 5 x 2 reads
    with_readers = seated(5)
    assert not with_readers.room and with_readers.total_questions == 10
    assert with_readers.tokens[FIVE[0]] == list(range(1, 9))
    assert seated(5, readers=True).options == with_readers.options


@pytest.mark.parametrize(
    ("count", "options", "message"),
    [
        (5, {"tokens": 4}, "option tokens belongs to the room form"),
        (5, {"readers": True, "tokens": 6}, "option tokens belongs to the room form"),
        (12, {"first_reader": "t01"}, "option first_reader belongs to the form with readers"),
        (5, {"readers": False, "first_reader": "t01"}, "option first_reader belongs to the form with readers"),
        (9, {"readers": True}, "with readers seats 2 to 8 players, got 9"),
        (12, {"readers": "no"}, "readers must be true or false, got 'no'"),
        (12, {"tokens": 1}, "tokens must be a whole number from 2 to 12, got 1"),
        (12, {"tokens": 13}, "tokens must be a whole number from 2 to 12, got 13"),
        (12, {"tokens": True}, "tokens must be a whole number from 2 to 12, got True"),
        (12, {"tokens": "6"}, "tokens must be a whole number from 2 to 12, got '6'"),
    ],
)
def test_options_of_the_other_form_are_refused(count: int, options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        seated(count, **options)


@pytest.mark.parametrize("tokens", [2, 12])
def test_tokens_two_to_twelve_give_as_many_cards(tokens: int) -> None:
    engine = seated(40, tokens=tokens)
    assert engine.total_questions == tokens
    assert engine.tokens["t40"] == list(range(1, tokens + 1))


# -- play ----------------------------------------------------------------------------------------------


def test_nobody_reads_every_player_answers_and_the_kth_card_ends_the_game() -> None:
    engine = seated(24, tokens=2)
    engine.apply(StartQuestion.host(3))  # the largest: the Eiffel Tower (A)
    engine.apply(CARD)
    question = engine.current
    assert question is not None and question.reader is None and question.answerers == ROOM[:24]
    assert engine.legal_inputs("t01") == {"input": "answer", "answers": ["A", "B", "C"], "tokens": [1, 2]}
    for n, player in enumerate(ROOM[:24]):
        engine.apply(Answer(player, "A" if n % 2 == 0 else "B", 2))
    assert question.revealed and question.correct == ROOM[:24:2]
    assert engine.phase == "roll" and not engine.finished and engine.winners() == []
    engine.apply(StartQuestion.host(1))  # the smallest: the Statue of Liberty (C)
    engine.apply(CARD)
    for n, player in enumerate(ROOM[:24]):
        engine.apply(Answer(player, "C" if n == 23 else "A", 1))
    assert engine.finished  # 2 tokens, 2 cards
    assert engine.scores() == {p: (2 if n % 2 == 0 else 0) + (1 if n == 23 else 0) for n, p in enumerate(ROOM[:24])}
    # t01, t03, ..., t23 have 2 points and 1 correct answer each; t24 has 1 point: the 12 share the win
    assert engine.winners() == list(ROOM[:24:2])


def test_a_token_above_k_a_used_token_and_a_second_answer_are_refused_and_change_nothing() -> None:
    engine = seated(12, tokens=4)
    engine.apply(StartQuestion.host(2))
    engine.apply(CARD)
    for action, error, match in (
        (Answer("t01", "A", 5), BadToken, "t01 has no token 5: the tokens are 1 to 4"),
        (Answer("t01", "A", 0), BadToken, "t01 has no token 0"),
    ):
        before = engine.snapshot()
        assert not engine.can(action)
        with pytest.raises(error, match=match):
            engine.apply(action)
        assert engine.snapshot() == before
    engine.apply(Answer("t01", "A", 4))
    for action, error, match in ((Answer("t01", "B", 3), AlreadySubmitted, "already answered"),):
        before = engine.snapshot()
        with pytest.raises(error, match=match):
            engine.apply(action)
        assert engine.snapshot() == before


def test_every_view_carries_each_players_seat_number() -> None:
    engine = seated(40)
    expected = {player: n for n, player in enumerate(ROOM, start=1)}
    assert engine.public_view()["seat_numbers"] == expected
    assert engine.public_view()["readers"] is False
    for player in ("t01", "t17", "t40"):
        view = engine.private_view(player)
        assert view["seat"] == expected[player] and view["seat_numbers"] == expected
    assert seated(3).public_view()["seat_numbers"] == {"t01": 1, "t02": 2, "t03": 3}


def test_the_close_in_the_room_form_uses_up_the_lowest_token_of_everyone_missing() -> None:
    engine = seated(10, tokens=3)
    engine.apply(StartQuestion.host(1))
    engine.apply(CARD)
    engine.apply(Answer("t01", "C", 1))
    engine.apply(Close.by(CloseReason.TIMEOUT))
    question = engine.current
    assert question is not None and question.revealed
    assert question.missed == {p: 1 for p in ROOM[1:10]}
    assert question.correct == ("t01",)
    assert engine.public_view()["question"]["missed"] == list(ROOM[1:10])


# -- properties over 9-40 players ----------------------------------------------------------------------------


def room(data: st.DataObject) -> SquizzEngine:
    """A room-form game of 9-40 players, ``tokens`` left out (6) or 2-12."""
    count = data.draw(st.integers(9, 40), label="players")
    options: dict[str, object] = {}
    if data.draw(st.booleans(), label="tokens given"):
        options["tokens"] = data.draw(st.integers(2, 12), label="tokens")
    return SquizzEngine(ROOM[:count], options)


@PROPERTY
@given(st.data())
def test_every_token_is_used_once_and_the_totals_are_the_correct_tokens(data: st.DataObject) -> None:
    engine = random_game(data, new=room)
    k = engine.options["tokens"]
    assert len(engine.questions) == k
    assert all(q.reader is None and q.answerers == engine.players for q in engine.questions)
    check_tokens_and_scores(engine, k)


@PROPERTY
@given(st.data())
def test_the_log_rebuilds_the_state_and_a_refused_input_changes_nothing(data: st.DataObject) -> None:
    candidates: list[Action] = []

    def check(engine: SquizzEngine) -> None:
        if not candidates:  # probes from three seats, and tokens outside 1..K from the last
            candidates.extend(probes(engine.players[:3]))
            candidates.extend(Answer(engine.players[-1], "B", t) for t in (0, 13))
        refuse_probes(engine, data, candidates)
        if engine.finished or data.draw(st.integers(0, 15), label="rebuild now") == 0:
            stored = [action.to_json() for action in engine.log]
            rebuilt = SquizzEngine.rebuild(engine.players, engine.options,
                                           [engine.action_from_json(a) for a in stored])
            assert rebuilt.snapshot() == engine.snapshot()
            assert rebuilt.public_view() == engine.public_view()

    random_game(data, check, new=room)


@PROPERTY
@given(st.data())
def test_no_view_shows_a_token_value_before_the_end(data: st.DataObject) -> None:
    """The same game with every token choice mirrored (t -> K + 1 - t) has the same public view until the
    end; with one player's mirrored, every other player's handset view is the same too."""
    def hidden(engine: SquizzEngine) -> None:
        if engine.finished or data.draw(st.integers(0, 9), label="check now") > 0:
            return
        assert other_tokens(engine, engine.players).public_view() == engine.public_view()
        mirrored = engine.players[data.draw(st.integers(0, len(engine.players) - 1), label="mirrored")]
        twin = other_tokens(engine, (mirrored,))
        assert twin.public_view() == engine.public_view()
        for player in engine.players:
            if player != mirrored:
                assert twin.private_view(player) == engine.private_view(player)

    # no closes: a mirrored token could clash with the lowest token a close used up
    engine = random_game(data, hidden, closes=False, new=room)
    assert engine.public_view()["scores"] == engine.scores()  # the totals are shown at the end
    twin = other_tokens(engine, engine.players)
    assert (twin.public_view() == engine.public_view()) == (twin.scores() == engine.scores())


# -- the set-up page's fields ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("readers", "tokens", "seats", "options"),
    [
        ("auto", 6, 5, {}),  # the page shows tokens 6 whatever the form: with readers it is dropped
        ("auto", None, 24, {}),
        ("auto", 6, 24, {"tokens": 6}),
        ("auto", 9, 40, {"tokens": 9}),
        ("no", 4, 5, {"readers": False, "tokens": 4}),
        ("yes", 6, 8, {"readers": True}),
    ],
)
def test_the_set_up_fields_give_the_engine_options(readers: str, tokens: int | None, seats: int,
                                                   options: dict[str, object]) -> None:
    chosen = setup_options(readers, tokens, seats)
    assert chosen == options
    SquizzEngine(ROOM[:seats], chosen)  # and the engine takes them


def test_tokens_other_than_the_default_with_readers_is_a_set_up_problem() -> None:
    with pytest.raises(ConfigError, match="only when the box reads every card"):
        setup_options("auto", 4, 5)
    with pytest.raises(ConfigError, match="readers is one of"):
        setup_options("maybe", None, 5)
