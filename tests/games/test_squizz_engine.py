"""sQuizz engine (appliance.games.squizz): every rule of rules.md "sQuizz" and every refusal."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

import pytest

from appliance.errors import ConfigError, DeckError, IllegalAction, MalformedInput
from appliance.games.base import HOST, Action, NotYourTurn, UnknownPlayer, WrongPhase
from appliance.games.squizz import Answer, DealCard, EndGame, SquizzEngine, StartQuestion, card_from_scenario
from appliance.games.squizz.engine import AlreadySubmitted, BadAnswer, BadDie, BadToken, NotAnAnswerer

ANN, BOB, CAT, DAN = "ann", "bob", "cat", "dan"
# The rulebook's example: the middle value is Yoda's 900 years (A).
YODA = DealCard(HOST, "Age of...", ("Yoda", "Papa Smurf", "Noah"), (Decimal(900), Decimal(542), Decimal(950)))
SMALLEST, MIDDLE, LARGEST = StartQuestion.host(1), StartQuestion.host(2), StartQuestion.host(3)


def new(players: tuple[str, ...] = (ANN, BOB, CAT), **options: object) -> SquizzEngine:
    return SquizzEngine(players, options)


def play(engine: SquizzEngine, *actions: Action) -> SquizzEngine:
    for action in actions:
        engine.apply(action)
    return engine


def refused(engine: SquizzEngine, action: Action, error: type[IllegalAction], match: str) -> None:
    """``action`` is refused with ``error`` and a message matching ``match``; nothing changes."""
    before = engine.snapshot()
    assert not engine.can(action)
    with pytest.raises(error, match=match):
        engine.apply(action)
    assert engine.snapshot() == before


def question(engine: SquizzEngine, roll: StartQuestion, answers: Mapping[str, tuple[str, int]]) -> SquizzEngine:
    """One question on the Yoda card: the roll, the card, then ``player -> (answer, token)``."""
    return play(engine, roll, YODA, *(Answer(p, a, t) for p, (a, t) in answers.items()))


# -- options and seats (rules.md sQuizz 1 and 2) -----------------------------------------------------


@pytest.mark.parametrize("count", [1, 41])
def test_two_to_forty_players(count: int) -> None:
    with pytest.raises(ConfigError, match="2 to 40 players"):
        new(tuple(f"p{i}" for i in range(count)))


def test_readers_seat_two_to_eight_players() -> None:
    """With readers, 2-8 players (rules.md sQuizz 1); above 8 the room form is the only form."""
    with pytest.raises(ConfigError, match="with readers seats 2 to 8 players, got 9"):
        new(tuple(f"p{i}" for i in range(9)), readers=True)


def test_first_reader_defaults_to_the_first_seat() -> None:
    assert new().options == {"readers": True, "first_reader": ANN}
    assert new().next_reader() == ANN


def test_unknown_option_and_unseated_first_reader_are_refused() -> None:
    with pytest.raises(ConfigError, match="unknown sQuizz option.*colour"):
        new(colour=3)
    with pytest.raises(ConfigError, match="first_reader 'zed' is not playing"):
        new(first_reader="zed")


def test_readers_go_clockwise_from_the_first_reader_one_read_per_lap() -> None:
    engine = new((ANN, BOB, CAT, DAN), first_reader=CAT)
    assert [engine.reader_of(n) for n in range(1, engine.total_questions + 1)] == [CAT, DAN, ANN, BOB] * 2
    play(engine, SMALLEST)
    assert engine.current is not None and engine.current.reader == CAT
    assert engine.current.answerers == (ANN, BOB, DAN)


# -- the die (rules.md sQuizz 3) ---------------------------------------------------------------------


@pytest.mark.parametrize("roll,letter", [(SMALLEST, "B"), (MIDDLE, "A"), (LARGEST, "C")])
def test_die_names_smallest_middle_or_largest(roll: StartQuestion, letter: str) -> None:
    assert YODA.letter_for(roll.die) == letter
    engine = question(new(), roll, {BOB: ("A", 1), CAT: ("B", 1)})
    assert engine.current is not None and engine.current.correct_letter == letter


def test_values_compare_exactly_including_negative_and_fractional() -> None:
    card = DealCard(HOST, "p", ("", "", ""), (Decimal("-0.5"), Decimal("-0.25"), Decimal("-1E+3")))
    assert [card.letter_for(d) for d in (1, 2, 3)] == ["C", "A", "B"]


@pytest.mark.parametrize("die", [0, 4, -1])
def test_die_outside_one_to_three_is_refused(die: int) -> None:
    refused(new(), StartQuestion.host(die), BadDie, f"die {die} refused")


@pytest.mark.parametrize("die", ["2", 2.0, True, None])
def test_die_of_the_wrong_type_is_malformed(die: object) -> None:
    with pytest.raises(MalformedInput, match="the die"):
        StartQuestion.host(die)  # type: ignore[arg-type]


def test_only_the_host_rolls_and_deals() -> None:
    refused(new(), StartQuestion(ANN, 2), NotYourTurn, "only the host may roll")
    engine = play(new(), MIDDLE)
    refused(engine, DealCard(ANN, YODA.prompt, YODA.texts, YODA.values), NotYourTurn, "only the host may card")


def test_roll_then_card_then_answers() -> None:
    refused(new(), YODA, WrongPhase, "waiting for the die of question 1 of 9")
    engine = play(new(), MIDDLE)
    refused(engine, MIDDLE, WrongPhase, "question 1 is waiting for its card")
    refused(engine, Answer(BOB, "A", 1), WrongPhase, "waiting for its card")
    play(engine, YODA)
    refused(engine, YODA, WrongPhase, "waiting for answers from bob, cat")
    refused(engine, LARGEST, WrongPhase, "waiting for answers")


# -- cards (rules.md sQuizz 4) -----------------------------------------------------------------------


@pytest.mark.parametrize("values", [("1", "1", "2"), ("5", "3", "5"), ("900", "900.0", "1")])
def test_card_whose_values_are_not_all_different_is_refused(values: tuple[str, str, str]) -> None:
    with pytest.raises(DeckError, match="must all be different"):
        DealCard(HOST, "p", ("a", "b", "c"), tuple(Decimal(v) for v in values))


@pytest.mark.parametrize(
    "prompt,texts,values,match",
    [
        ("", ("a", "b", "c"), (1, 2, 3), "prompt"),
        ("p", ("a", "b"), (1, 2, 3), "3 texts"),
        ("p", ("a", "b", "c"), (1, 2), "3 values"),
        ("p", ("a", 2, "c"), (1, 2, 3), "B's text"),
    ],
)
def test_malformed_card_is_a_deck_error(
    prompt: str, texts: tuple[str, ...], values: tuple[int, ...], match: str
) -> None:
    with pytest.raises(DeckError, match=match):
        DealCard(HOST, prompt, texts, tuple(Decimal(v) for v in values))


@pytest.mark.parametrize("value", [Decimal("NaN"), Decimal("1E+500"), 3, 2.5])
def test_card_values_must_be_bounded_exact_numbers(value: object) -> None:
    with pytest.raises(DeckError, match="proposition B's value"):
        DealCard(HOST, "p", ("a", "b", "c"), (Decimal(1), value, Decimal(3)))  # type: ignore[arg-type]


def test_card_from_scenario_reads_values_in_any_number_form() -> None:
    card = card_from_scenario(
        {
            "prompt": "Height",
            "propositions": [
                {"label": "Tower", "value": "3M"},
                {"label": "Mast", "value": "2,500,000"},
                {"label": "", "value": "3 x 10^5"},
            ],
        }
    )
    assert card.values == (Decimal(3000000), Decimal(2500000), Decimal(300000))
    assert card.texts == ("Tower", "Mast", "")
    assert card.player == HOST


@pytest.mark.parametrize(
    "data,match",
    [
        ("card", "an object"),
        ({"propositions": []}, "prompt"),
        ({"prompt": "p", "propositions": [{"label": "A", "value": "1"}]}, "3 propositions"),
        ({"prompt": "p", "propositions": [{"label": 2, "value": "1"}, {}, {}]}, "A's label is its text"),
        ({"prompt": "p", "propositions": [{"label": "A", "value": 1}, {}, {}]}, "written as text"),
        ({"prompt": "p", "propositions": [{"label": "A", "value": "1", "rank": 1}, {}, {}]},
         "its letter is its position"),
        ({"prompt": "p", "propositions": [{"label": "A", "value": "1", "text": "Yoda"}, {}, {}]},
         "its letter is its position"),
        ({"prompt": "p", "propositions": [{"label": "A", "value": "1,5"}, {}, {}]}, "A's value"),
        (
            {
                "prompt": "p",
                "propositions": [
                    {"label": "A", "value": "1"},
                    {"label": "B", "value": "2"},
                    {"label": "C", "value": "1.00"},
                ],
            },
            "must all be different",
        ),
    ],
)
def test_card_from_scenario_refuses_bad_cards(data: object, match: str) -> None:
    with pytest.raises(DeckError, match=match):
        card_from_scenario(data)


def test_reader_does_not_answer() -> None:
    refused(play(new(), MIDDLE, YODA), Answer(ANN, "A", 1), NotAnAnswerer, "ann is the reader of question 1")


def test_second_answer_is_refused() -> None:
    engine = play(new(), MIDDLE, YODA, Answer(BOB, "A", 6))
    refused(engine, Answer(BOB, "B", 5), AlreadySubmitted, "bob has already answered question 1")


@pytest.mark.parametrize("letter", ["D", "a", "", "AB"])
def test_answer_must_be_a_b_or_c(letter: str) -> None:
    refused(play(new(), MIDDLE, YODA), Answer(BOB, letter, 1), BadAnswer, "answer A, B or C")


@pytest.mark.parametrize("token", [0, 7, -1])
def test_token_outside_the_players_set_is_refused(token: int) -> None:
    refused(
        play(new(), MIDDLE, YODA), Answer(BOB, "A", token), BadToken, f"bob has no token {token}: the tokens are 1 to 6"
    )


def test_a_token_is_used_only_once_per_game() -> None:
    engine = question(new(), MIDDLE, {BOB: ("A", 4), CAT: ("B", 4)})
    play(engine, MIDDLE, YODA)
    refused(engine, Answer(CAT, "A", 4), BadToken, "cat bets token 4: it is used already; left: 1, 2, 3, 5, 6")
    assert engine.tokens == {ANN: [1, 2, 3, 4, 5, 6], BOB: [1, 2, 3, 5, 6], CAT: [1, 2, 3, 5, 6]}


@pytest.mark.parametrize("answer,token", [(1, 1), ("A", "1"), ("A", True), (None, 2)])
def test_answer_of_the_wrong_type_is_malformed(answer: object, token: object) -> None:
    with pytest.raises(MalformedInput):
        Answer(BOB, answer, token)  # type: ignore[arg-type]


def test_unknown_player_is_refused() -> None:
    refused(play(new(), MIDDLE, YODA), Answer("zed", "A", 1), UnknownPlayer, "zed")


def test_correct_token_scores_wrong_token_is_lost() -> None:
    engine = question(new(), MIDDLE, {BOB: ("A", 5), CAT: ("C", 6)})
    assert engine.current is not None and engine.current.correct == (BOB,)
    assert engine.pile == {ANN: [], BOB: [5], CAT: []}
    assert engine.scores() == {ANN: 0, BOB: 5, CAT: 0}
    assert engine.correct_counts == {ANN: 0, BOB: 1, CAT: 0}
    assert 6 not in engine.tokens[CAT]


def test_answers_are_revealed_together_when_the_last_is_in() -> None:
    engine = play(new(), MIDDLE, YODA, Answer(CAT, "A", 2))
    view = engine.public_view()["question"]
    assert (view["locked_in"], view["waiting_for"], view["revealed"]) == ([CAT], [BOB], False)
    assert "answers" not in view and "correct" not in view and "values" not in view
    play(engine, Answer(BOB, "B", 3))
    view = engine.public_view()["question"]
    assert view["answers"] == {BOB: "B", CAT: "A"}
    assert (view["correct_answer"], view["correct"]) == ("A", [CAT])
    assert view["values"] == {"A": "900", "B": "542", "C": "950"}


def test_token_values_and_totals_stay_off_the_tv_until_the_end() -> None:
    engine = question(new(), MIDDLE, {BOB: ("A", 5), CAT: ("A", 6)})
    other_tokens = question(new(), MIDDLE, {BOB: ("A", 1), CAT: ("A", 2)})
    assert engine.scores() != other_tokens.scores()
    assert engine.public_view() == other_tokens.public_view()
    assert engine.public_view()["scores"] is None
    assert engine.public_view()["correct_counts"] == {ANN: 0, BOB: 1, CAT: 1}


# -- end (rules.md sQuizz 6) -------------------------------------------------------------------------

WRONG, RIGHT = "A", "C"  # on the Yoda card with the die on 3 (largest), C (Noah) is right


def two_player_game(ann: list[tuple[str, int]], bob: list[tuple[str, int]]) -> SquizzEngine:
    """Twelve questions, readers ann, bob, ann...; ``ann``/``bob`` are each one's six answers in order."""
    engine = new((ANN, BOB))
    for number in range(12):
        answerer, answers = (BOB, bob) if number % 2 == 0 else (ANN, ann)
        letter, token = answers[number // 2]
        play(engine, LARGEST, YODA, Answer(answerer, letter, token))
    return engine


def test_the_game_ends_after_every_read_and_uses_every_token() -> None:
    engine = two_player_game([(RIGHT, t) for t in range(1, 7)], [(WRONG, t) for t in range(6, 0, -1)])
    assert engine.finished and engine.phase == "over"
    assert engine.tokens == {ANN: [], BOB: []}
    assert engine.scores() == {ANN: 21, BOB: 0}
    assert engine.winners() == [ANN]
    view = engine.public_view()
    assert view["scores"] == {ANN: 21, BOB: 0} and view["winners"] == [ANN] and view["next_reader"] is None
    refused(engine, MIDDLE, WrongPhase, "the game is over")


def test_points_tie_goes_to_more_correct_answers() -> None:
    ann = [(WRONG, 1), (WRONG, 2), (WRONG, 3), (WRONG, 4), (WRONG, 5), (RIGHT, 6)]
    bob = [(RIGHT, 1), (RIGHT, 2), (RIGHT, 3), (WRONG, 4), (WRONG, 5), (WRONG, 6)]
    engine = two_player_game(ann, bob)
    assert engine.scores() == {ANN: 6, BOB: 6}
    assert engine.correct_counts == {ANN: 1, BOB: 3}
    assert engine.winners() == [BOB]


def test_points_tie_with_fewer_tokens_still_goes_to_more_correct_answers() -> None:
    ann = [(WRONG, 1), (WRONG, 2), (WRONG, 3), (WRONG, 4), (RIGHT, 5), (WRONG, 6)]
    bob = [(RIGHT, 1), (WRONG, 2), (WRONG, 3), (RIGHT, 4), (WRONG, 5), (WRONG, 6)]
    engine = two_player_game(ann, bob)
    assert engine.scores() == {ANN: 5, BOB: 5} and engine.correct_counts == {ANN: 1, BOB: 2}
    assert engine.winners() == [BOB]


def test_still_tied_the_win_is_shared() -> None:
    ann = [(WRONG, 1), (RIGHT, 2), (WRONG, 3), (RIGHT, 4), (WRONG, 5), (WRONG, 6)]
    bob = [(RIGHT, 1), (WRONG, 2), (WRONG, 3), (WRONG, 4), (RIGHT, 5), (WRONG, 6)]
    shared = two_player_game(ann, bob)
    assert shared.scores() == {ANN: 6, BOB: 6} and shared.correct_counts == {ANN: 2, BOB: 2}
    assert shared.winners() == [ANN, BOB]


def test_no_winners_before_the_end() -> None:
    engine = question(new(), MIDDLE, {BOB: ("A", 6), CAT: ("B", 1)})
    assert engine.winners() == [] and not engine.finished


def test_the_host_may_end_the_game_between_questions_and_rule_6_decides() -> None:
    """A quiz night's "finish now and score" (rules.md Quiz night 2): the totals so far decide."""
    engine = question(new(), MIDDLE, {BOB: ("A", 6), CAT: ("B", 1)})
    play(engine, LARGEST, YODA)
    refused(engine, EndGame.now(), WrongPhase, "waiting for answers")
    play(engine, Answer(ANN, "C", 3), Answer(CAT, "C", 2))
    refused(engine, EndGame(BOB), NotYourTurn, "only the host")
    engine.apply(EndGame.now())
    assert engine.finished and engine.phase == "over"
    assert engine.scores() == {ANN: 3, BOB: 6, CAT: 2} and engine.winners() == [BOB]
    assert engine.public_view()["scores"] == {ANN: 3, BOB: 6, CAT: 2}
    refused(engine, MIDDLE, WrongPhase, "the game is over")
    assert SquizzEngine.rebuild(engine.players, engine.options, engine.log).snapshot() == engine.snapshot()


# -- the legal-input query and the private view ----------------------------------------------------


def test_legal_input_offers_the_letters_and_unused_tokens() -> None:
    engine = question(new(), MIDDLE, {BOB: ("A", 2), CAT: ("B", 5)})
    assert engine.legal_inputs(BOB) is None
    play(engine, MIDDLE, YODA)
    assert engine.legal_inputs(ANN) == {"input": "answer", "answers": ["A", "B", "C"], "tokens": [1, 2, 3, 4, 5, 6]}
    assert engine.legal_inputs(CAT) == {"input": "answer", "answers": ["A", "B", "C"], "tokens": [1, 2, 3, 4, 6]}
    assert engine.legal_inputs(BOB) is None  # bob reads question 2
    with pytest.raises(UnknownPlayer):
        engine.legal_inputs("zed")


def test_private_view_shows_own_tokens_and_answers_and_the_readers_card() -> None:
    engine = question(new(), MIDDLE, {BOB: ("A", 2), CAT: ("B", 5)})
    play(engine, LARGEST, YODA, Answer(ANN, "C", 6))
    ann = engine.private_view(ANN)
    assert ann["tokens"] == [1, 2, 3, 4, 5]
    assert ann["answers"] == [{"question": 2, "answer": "C", "token": 6, "correct": None}]
    assert "values" not in ann and ann["role"] == "answerer" and ann["prompt"] is None
    bob = engine.private_view(BOB)
    assert bob["role"] == "reader" and bob["values"] == {"A": "900", "B": "542", "C": "950"}
    assert bob["correct_answer"] == "C"
    assert bob["answers"] == [{"question": 1, "answer": "A", "token": 2, "correct": True}] and bob["points"] == 2
    cat = engine.private_view(CAT)
    assert cat["answers"] == [{"question": 1, "answer": "B", "token": 5, "correct": False}] and cat["points"] == 0
    assert cat["prompt"] == {"input": "answer", "answers": ["A", "B", "C"], "tokens": [1, 2, 3, 4, 6]}


# -- the log -----------------------------------------------------------------------------------------


def test_log_round_trips_through_json_and_rebuilds_the_same_state() -> None:
    big = DealCard(HOST, "Money", ("x", "y", "z"), (Decimal("3E+6"), Decimal("-2.50"), Decimal("0.001")))
    engine = play(new(), LARGEST, big, Answer(BOB, "A", 3), Answer(CAT, "B", 1), SMALLEST, YODA)
    stored = [action.to_json() for action in engine.log]
    loaded = [engine.action_from_json(data) for data in stored]
    assert loaded == engine.log
    assert SquizzEngine.rebuild(engine.players, engine.options, loaded).snapshot() == engine.snapshot()


def test_logged_card_values_must_be_text() -> None:
    with pytest.raises(MalformedInput, match="values as text"):
        new().action_from_json(
            {"kind": "card", "player": "", "prompt": "p", "texts": ["", "", ""], "values": [1, 2, 3]}
        )
