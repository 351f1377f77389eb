"""All In engine (appliance.games.allin): every rule of rules.md "All In" and every refusal."""

from __future__ import annotations

import pytest

from appliance.errors import ConfigError, DeckError, IllegalAction, MalformedInput
from appliance.games.allin import AllInEngine, EndGame, Read, Split, StartQuestion
from appliance.games.allin.engine import (
    AlreadySubmitted,
    BadExclusion,
    BadPick,
    BadSplit,
    NotABettor,
)
from appliance.games.base import Action, NotYourTurn, UnknownPlayer, WrongPhase

STATEMENTS = ("I have sung karaoke.", "I have been on TV.", "I can juggle.")
DEAL = StartQuestion.deal(STATEMENTS)
ANN, BOB, CAT, DAN = "ann", "bob", "cat", "dan"


def new(players: tuple[str, ...] = (ANN, BOB, CAT), **options: object) -> AllInEngine:
    return AllInEngine(players, options)


def play(engine: AllInEngine, *actions: Action) -> AllInEngine:
    for action in actions:
        engine.apply(action)
    return engine


def refused(engine: AllInEngine, action: Action, error: type[IllegalAction], match: str) -> None:
    """``action`` is refused with ``error`` and a message matching ``match``; nothing changes."""
    before = engine.snapshot()
    assert not engine.can(action)
    with pytest.raises(error, match=match):
        engine.apply(action)
    assert engine.snapshot() == before


# -- rules.md All In 1: chips, players, options ------------------------------------------------------


def test_default_is_15_chips_each() -> None:
    engine = new()
    assert engine.chips == {ANN: 15, BOB: 15, CAT: 15}
    assert engine.options == {"chips": 15, "max_players": 40}  # rules.md The room 1: the room at the defaults


def test_chips_option_sets_every_stack() -> None:
    assert new(chips=4).chips == {ANN: 4, BOB: 4, CAT: 4}


@pytest.mark.parametrize("chips", [0, -3, "15", 2.5, True, None])
def test_bad_chips_option_is_refused(chips: object) -> None:
    with pytest.raises(ConfigError, match="chips"):
        new(chips=chips)


def test_unknown_option_is_refused() -> None:
    with pytest.raises(ConfigError, match="unknown All In option.*ante"):
        new(ante=10)


@pytest.mark.parametrize("count", [2, 6])
def test_two_to_six_players_by_default(count: int) -> None:
    players = tuple(f"p{i}" for i in range(count))
    assert new(players).players == players


def test_forty_players_sit_at_the_default_options() -> None:  # rules.md The room 1
    players = tuple(f"p{i}" for i in range(40))
    assert new(players).players == players


@pytest.mark.parametrize("count", [1, 41])
def test_player_count_outside_two_to_forty_is_refused(count: int) -> None:
    with pytest.raises(ConfigError, match="players"):
        new(tuple(f"p{i}" for i in range(count)))


def test_max_players_option_raises_the_limit() -> None:
    players = tuple(f"p{i}" for i in range(8))
    assert new(players, max_players=8).players == players
    with pytest.raises(ConfigError, match="at most 8 players"):
        new((*players, "p8"), max_players=8)


@pytest.mark.parametrize("most", [1, 41, "6", False])
def test_max_players_option_must_be_two_to_forty(most: object) -> None:
    with pytest.raises(ConfigError, match="max_players"):
        new(max_players=most)


def test_max_players_option_cannot_go_below_the_seated_count() -> None:
    with pytest.raises(ConfigError, match="at most 2 players, got 3"):
        new(max_players=2)


# -- cards ---------------------------------------------------------------------------------------


def test_a_card_opens_a_question_read_by_the_first_seat() -> None:
    engine = play(new(), DEAL)
    assert engine.phase == "reading"
    assert engine.current is not None
    assert (engine.current.number, engine.current.reader) == (1, ANN)


@pytest.mark.parametrize("statements", [("a", "b"), ("a", "b", "c", "d"), ("a", "", "c"), ("a", 3, "c"), "abc"])
def test_a_card_without_three_statements_is_a_deck_error(statements: object) -> None:
    with pytest.raises(DeckError, match="statement"):
        StartQuestion("", statements)  # type: ignore[arg-type]


def test_only_the_host_deals() -> None:
    refused(new(), StartQuestion(ANN, STATEMENTS), NotYourTurn, "only the host")


def test_no_second_card_while_a_question_is_open() -> None:
    refused(play(new(), DEAL), DEAL, WrongPhase, "waiting for ann's read")


# -- rules.md All In 2: the reader rotates clockwise, players without chips included -----------


def test_reader_rotates_clockwise_every_question_including_players_without_chips() -> None:
    engine = new(chips=3)
    assert engine.next_reader() == ANN
    # question 1: ann reads; bob loses everything, cat keeps everything
    play(engine, DEAL, Read(ANN, 0, True), Split(BOB, 0, 3), Split(CAT, 3, 0))
    assert engine.chips == {ANN: 3, BOB: 0, CAT: 3}
    # question 2: bob has no chips but still reads; ann and cat bet
    play(engine, DEAL)
    assert engine.current is not None and engine.current.reader == BOB
    play(engine, Read(BOB, 1, False))
    assert engine.current.bettors == (ANN, CAT)
    play(engine, Split(ANN, 1, 2), Split(CAT, 0, 3))
    # question 3: cat reads; bob (no chips) does not bet
    play(engine, DEAL, Read(CAT, 2, True))
    assert engine.current is not None and engine.current.reader == CAT
    assert list(engine.current.bettors) == [ANN]
    play(engine, Split(ANN, 1, 1))
    # question 4: back to the first seat
    assert engine.next_reader() == ANN


# -- rules.md All In 3: the reader picks one statement and answers it secretly ------------------


def test_only_the_reader_answers() -> None:
    refused(play(new(), DEAL), Read(BOB, 0, True), NotYourTurn, "bob cannot answer question 1: ann is the reader")


@pytest.mark.parametrize("pick", [-1, 3])
def test_pick_must_be_a_statement_of_the_card(pick: int) -> None:
    refused(play(new(), DEAL), Read(ANN, pick, True), BadPick, f"pick {pick}")


@pytest.mark.parametrize("field,value", [("pick", "1"), ("pick", True), ("answer", 1), ("exclude", 3)])
def test_a_read_of_the_wrong_type_is_malformed(field: str, value: object) -> None:
    fields: dict[str, object] = {"pick": 0, "answer": True, "exclude": None, field: value}
    with pytest.raises(MalformedInput, match=field):
        Read(ANN, **fields)  # type: ignore[arg-type]


def test_the_reader_reads_only_once() -> None:
    refused(play(new(), DEAL, Read(ANN, 0, True)), Read(ANN, 1, False), WrongPhase, "waiting for splits")


def test_unknown_reader_is_refused() -> None:
    refused(play(new(), DEAL), Read("zed", 0, True), UnknownPlayer, "zed")


# -- rules.md All In 4 and 1: one exclusion per player per game ----------------------------------


def test_excluded_player_keeps_their_chips_and_does_not_bet() -> None:
    engine = play(new(chips=5), DEAL, Read(ANN, 0, True, exclude=BOB))
    assert engine.current is not None and engine.current.bettors == (CAT,)
    refused(engine, Split(BOB, 5, 0), NotABettor, "bob is excluded from question 1 by ann")
    play(engine, Split(CAT, 2, 3))
    assert engine.chips == {ANN: 5, BOB: 5, CAT: 2}


def test_exclude_yourself_is_refused() -> None:
    refused(play(new(), DEAL), Read(ANN, 0, True, exclude=ANN), BadExclusion, "cannot exclude themselves")


def test_exclude_an_unknown_player_is_refused() -> None:
    refused(play(new(), DEAL), Read(ANN, 0, True, exclude="zed"), UnknownPlayer, "zed")


def test_second_exclusion_by_the_same_player_is_refused() -> None:
    engine = new((ANN, BOB, CAT, DAN), chips=2)
    play(engine, DEAL, Read(ANN, 0, True, exclude=BOB), Split(CAT, 1, 1), Split(DAN, 1, 1))
    for reader in (BOB, CAT, DAN):
        play(
            engine,
            DEAL,
            Read(reader, 0, True),
            *[Split(p, engine.chips[p], 0) for p in engine.potential_bettors(reader)],
        )
    play(engine, DEAL)
    refused(
        engine,
        Read(ANN, 0, True, exclude=CAT),
        BadExclusion,
        "already played their exclusion card on question 1",
    )
    # the others still have theirs, and ann may still read without excluding
    assert engine.exclusion_used == {ANN: 1}
    play(engine, Read(ANN, 0, True))


def four_with_bob_and_cat_out() -> AllInEngine:
    """Question 1 of four players with 2 chips: bob and cat lose everything; bob reads next."""
    engine = new((ANN, BOB, CAT, DAN), chips=2)
    play(engine, DEAL, Read(ANN, 0, True), Split(BOB, 0, 2), Split(CAT, 0, 2), Split(DAN, 2, 0))
    assert engine.chips == {ANN: 2, BOB: 0, CAT: 0, DAN: 2}
    return play(engine, DEAL)


def test_exclude_a_player_with_no_chips_is_refused() -> None:
    engine = four_with_bob_and_cat_out()
    refused(engine, Read(BOB, 0, True, exclude=CAT), BadExclusion, r"cat \(seat 3\) has no chips left")
    assert engine.exclusion_candidates() == [ANN, DAN]


def test_exclusion_that_leaves_nobody_to_bet_is_refused() -> None:
    engine = play(new((ANN, BOB, CAT), chips=2), DEAL, Read(ANN, 0, True), Split(BOB, 2, 0), Split(CAT, 0, 2))
    assert engine.chips == {ANN: 2, BOB: 2, CAT: 0}
    play(engine, DEAL)  # bob reads; only ann has chips to bet
    refused(engine, Read(BOB, 0, True, exclude=ANN), BadExclusion, "leave nobody to bet")
    assert engine.exclusion_candidates() == []


def test_reader_without_chips_may_exclude_when_two_others_have_chips() -> None:
    engine = play(new((ANN, BOB, CAT), chips=2), DEAL, Read(ANN, 0, True), Split(BOB, 0, 2), Split(CAT, 2, 0))
    play(engine, DEAL)  # bob (no chips) reads; ann and cat have chips
    assert engine.exclusion_candidates() == [ANN, CAT]
    play(engine, Read(BOB, 2, False, exclude=CAT))
    assert engine.current is not None and engine.current.bettors == (ANN,)


# -- rules.md All In 5: every other player with chips splits ALL of them ---------------------------


def test_reader_does_not_split() -> None:
    refused(play(new(), DEAL, Read(ANN, 0, True)), Split(ANN, 15, 0), NotABettor, "ann is the reader")


def test_player_without_chips_does_not_split() -> None:
    engine = play(four_with_bob_and_cat_out(), Read(BOB, 0, True))
    assert engine.current is not None and engine.current.bettors == (ANN, DAN)
    refused(engine, Split(CAT, 0, 0), NotABettor, "cat has no chips left")
    refused(engine, Split(BOB, 0, 0), NotABettor, "bob is the reader")


@pytest.mark.parametrize(
    "on_true,on_false,match",
    [
        (10, 4, "all 15 chips; 10 on True \\+ 4 on False = 14"),
        (10, 6, "= 16"),
        (0, 0, "= 0"),
        (-1, 16, "negative"),
    ],
)
def test_split_must_place_exactly_all_chips(on_true: int, on_false: int, match: str) -> None:
    refused(play(new(), DEAL, Read(ANN, 0, True)), Split(BOB, on_true, on_false), BadSplit, match)


@pytest.mark.parametrize("on_true,on_false", [("5", 10), (5.0, 10), (5, None), (True, 14)])
def test_split_of_the_wrong_type_is_malformed(on_true: object, on_false: object) -> None:
    with pytest.raises(MalformedInput, match="whole number"):
        Split(BOB, on_true, on_false)  # type: ignore[arg-type]


def test_second_split_is_refused() -> None:
    engine = play(new(), DEAL, Read(ANN, 0, True), Split(BOB, 15, 0))
    refused(engine, Split(BOB, 0, 15), AlreadySubmitted, "bob has already split")


def test_split_before_the_read_is_refused() -> None:
    refused(play(new(), DEAL), Split(BOB, 15, 0), WrongPhase, "waiting for ann's read")


def test_split_between_questions_is_refused() -> None:
    refused(new(), Split(BOB, 15, 0), WrongPhase, "waiting for card 1")


def test_wrong_side_leaves_the_game_right_side_is_kept() -> None:
    engine = play(new(), DEAL, Read(ANN, 1, False), Split(BOB, 4, 11), Split(CAT, 12, 3))
    assert engine.chips == {ANN: 15, BOB: 11, CAT: 3}
    assert engine.current is not None and engine.current.lost == {BOB: 4, CAT: 12}
    assert engine.total_chips() == 45 - 16


def test_splits_are_revealed_only_when_all_are_in() -> None:
    engine = play(new(), DEAL, Read(ANN, 1, False), Split(BOB, 4, 11))
    assert engine.phase == "betting"
    assert engine.chips == {ANN: 15, BOB: 15, CAT: 15}
    view = engine.public_view()["question"]
    assert view["locked_in"] == [BOB] and view["waiting_for"] == [CAT]
    assert "answer" not in view and "splits" not in view
    play(engine, Split(CAT, 15, 0))
    view = engine.public_view()["question"]
    assert view["answer"] is False
    assert view["splits"] == {BOB: {"true": 4, "false": 11}, CAT: {"true": 15, "false": 0}}
    assert view["lost"] == {BOB: 4, CAT: 15}


# -- rules.md All In 6: the end ------------------------------------------------------------------


def test_last_player_with_chips_wins_even_as_the_reader() -> None:
    engine = play(new(chips=2), DEAL, Read(ANN, 0, True), Split(BOB, 0, 2), Split(CAT, 0, 2))
    assert engine.finished and engine.winners() == [ANN]
    assert engine.ending is not None and engine.ending.value == "last_with_chips"


def test_excluded_player_can_be_the_last_with_chips() -> None:
    engine = play(four_with_bob_and_cat_out(), Read(BOB, 0, True, exclude=DAN), Split(ANN, 0, 2))
    assert engine.chips == {ANN: 0, BOB: 0, CAT: 0, DAN: 2}
    assert engine.finished and engine.winners() == [DAN]


def test_bettor_can_be_the_last_with_chips() -> None:
    engine = play(new(chips=2), DEAL, Read(ANN, 0, True), Split(BOB, 0, 2), Split(CAT, 2, 0))
    play(engine, DEAL, Read(BOB, 0, True), Split(ANN, 0, 2), Split(CAT, 1, 1))
    assert engine.chips == {ANN: 0, BOB: 0, CAT: 1}
    assert engine.finished and engine.winners() == [CAT]


def test_nobody_with_chips_means_the_reader_wins_without_chips() -> None:
    engine = play(new(chips=2), DEAL, Read(ANN, 0, True), Split(BOB, 0, 2), Split(CAT, 2, 0))
    play(engine, DEAL, Read(BOB, 0, True), Split(ANN, 0, 2), Split(CAT, 0, 2))
    assert engine.chips == {ANN: 0, BOB: 0, CAT: 0}
    assert engine.finished and engine.winners() == [BOB]
    assert engine.ending is not None and engine.ending.value == "nobody_with_chips"


def test_game_goes_on_while_two_players_have_chips() -> None:
    engine = play(new(chips=2), DEAL, Read(ANN, 0, True), Split(BOB, 0, 2), Split(CAT, 2, 0))
    assert not engine.finished and engine.winners() == [] and engine.phase == "card"


def test_deck_out_most_chips_wins() -> None:
    engine = play(new(), DEAL, Read(ANN, 0, True), Split(BOB, 10, 5), Split(CAT, 9, 6), EndGame.deck_out())
    assert engine.chips == {ANN: 15, BOB: 10, CAT: 9}
    assert engine.finished and engine.winners() == [ANN]
    assert engine.ending is not None and engine.ending.value == "deck_out"


def test_deck_out_tie_shares_the_win() -> None:
    engine = play(new(), DEAL, Read(ANN, 0, True, exclude=BOB), Split(CAT, 7, 8), EndGame.deck_out())
    assert engine.chips == {ANN: 15, BOB: 15, CAT: 7}
    assert engine.winners() == [ANN, BOB]


def test_deck_out_only_between_questions_and_only_by_the_host() -> None:
    refused(play(new(), DEAL), EndGame.deck_out(), WrongPhase, "waiting for ann's read")
    refused(play(new(), DEAL, Read(ANN, 0, True)), EndGame.deck_out(), WrongPhase, "waiting for splits")
    refused(new(), EndGame(ANN), NotYourTurn, "only the host")


def test_every_input_is_refused_once_the_game_is_over() -> None:
    engine = play(new(chips=1), DEAL, Read(ANN, 0, True), Split(BOB, 0, 1), Split(CAT, 0, 1))
    assert engine.finished
    for action in (DEAL, Read(BOB, 0, True), Split(BOB, 0, 0), EndGame.deck_out()):
        refused(engine, action, WrongPhase, "the game is over")
    assert engine.next_reader() == BOB and engine.public_view()["next_reader"] is None


# -- the legal-input query --------------------------------------------------------------------------


def test_legal_input_for_the_reader_lists_statements_answers_and_exclusions() -> None:
    engine = play(new(), DEAL)
    assert engine.legal_inputs(ANN) == {
        "input": "read",
        "statements": list(STATEMENTS),
        "picks": [0, 1, 2],
        "answers": [True, False],
        "exclude": [BOB, CAT],
    }
    assert engine.legal_inputs(BOB) is None


def test_legal_input_offers_no_exclusion_once_used() -> None:
    engine = play(new(), DEAL, Read(ANN, 0, True, exclude=BOB), Split(CAT, 15, 0))
    play(engine, DEAL, Read(BOB, 0, True), Split(ANN, 15, 0), Split(CAT, 15, 0), DEAL, Read(CAT, 0, True))
    play(engine, Split(ANN, 15, 0), Split(BOB, 15, 0), DEAL)
    legal = engine.legal_inputs(ANN)
    assert legal is not None and legal["exclude"] == []


def test_legal_input_for_a_bettor_is_the_split_total() -> None:
    engine = play(new(), DEAL, Read(ANN, 0, True, exclude=CAT), Split(BOB, 15, 0), DEAL, Read(BOB, 0, True))
    assert engine.legal_inputs(CAT) == {"input": "split", "total": 15}
    assert engine.legal_inputs(ANN) == {"input": "split", "total": 15}
    play(engine, Split(CAT, 15, 0))
    assert engine.legal_inputs(CAT) is None
    assert engine.legal_inputs(BOB) is None


def test_legal_input_matches_what_the_engine_accepts() -> None:
    engine = play(new((ANN, BOB, CAT, DAN), chips=3), DEAL)
    legal = engine.legal_inputs(ANN)
    assert legal is not None
    for target in (BOB, CAT, DAN, ANN):
        assert engine.can(Read(ANN, 0, True, exclude=target)) == (target in legal["exclude"])
    play(engine, Read(ANN, 0, True))
    total = engine.legal_inputs(BOB)
    assert total is not None
    assert [t for t in range(-1, 5) if engine.can(Split(BOB, t, total["total"] - t))] == [0, 1, 2, 3]


def test_legal_input_names_a_seated_player() -> None:
    with pytest.raises(UnknownPlayer):
        new().legal_inputs("zed")


# -- views: no secret before its reveal ------------------------------------------------------------


def test_public_view_hides_the_card_answer_and_splits_before_the_reveal() -> None:
    engine = play(new(), DEAL)
    question = engine.public_view()["question"]
    assert question["statement"] is None and question["pick"] is None
    assert not any(text in str(engine.public_view()) for text in STATEMENTS)
    play(engine, Read(ANN, 2, True, exclude=BOB), Split(CAT, 6, 9))
    view = engine.public_view()
    assert view["question"]["statement"] == STATEMENTS[2]
    assert STATEMENTS[0] not in str(view) and STATEMENTS[1] not in str(view)
    assert view["question"]["excluded"] == BOB
    assert view["exclusion_cards"] == {ANN: False, BOB: True, CAT: True}


def test_private_view_shows_own_chips_split_and_the_readers_own_answer() -> None:
    engine = play(new((ANN, BOB, CAT, DAN)), DEAL, Read(ANN, 1, False, exclude=DAN), Split(BOB, 5, 10))
    reader = engine.private_view(ANN)
    assert (reader["role"], reader["pick"], reader["answer"]) == ("reader", 1, False)
    assert reader["statements"] == list(STATEMENTS)
    bettor = engine.private_view(BOB)
    assert bettor == {
        "seat": 2,
        "player": BOB,
        "chips": 15,
        "exclusion_card": True,
        "role": "bettor",
        "prompt": None,
        "split": {"true": 5, "false": 10},
    }
    waiting = engine.private_view(CAT)
    assert waiting["prompt"] == {"input": "split", "total": 15} and "split" not in waiting
    assert "answer" not in waiting and "statements" not in waiting
    assert engine.private_view(DAN)["role"] == "excluded"


def test_private_view_names_a_seated_player() -> None:
    with pytest.raises(UnknownPlayer):
        new().private_view("zed")


# -- the log ------------------------------------------------------------------------------------------


def test_log_round_trips_through_json_and_rebuilds_the_same_state() -> None:
    engine = play(new(chips=4), DEAL, Read(ANN, 1, False, exclude=CAT), Split(BOB, 1, 3), DEAL)
    stored = [action.to_json() for action in engine.log]
    loaded = [engine.action_from_json(data) for data in stored]
    assert loaded == engine.log
    assert AllInEngine.rebuild(engine.players, engine.options, loaded).snapshot() == engine.snapshot()


def test_undo_drops_the_last_input() -> None:
    engine = play(new(), DEAL, Read(ANN, 0, True))
    before = play(new(), DEAL).snapshot()
    assert engine.undo().snapshot() == before


def test_a_foreign_action_is_refused() -> None:
    from appliance.games.squizz import StartQuestion

    with pytest.raises(IllegalAction, match="not an input of allin"):
        new().apply(StartQuestion("", 1))
