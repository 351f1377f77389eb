"""All In: the host closes the splits while some bettors have not split (the product's decision where
rules.md All In is silent; appliance.games.allin.actions.Close): the missing bettors sit the question
out with all their chips, as if excluded, and the reveal follows at once."""

from __future__ import annotations

import pytest

from appliance.errors import IllegalAction, MalformedInput
from appliance.games.allin import AllInEngine, Close, CloseReason, EndGame, Read, Split, StartQuestion
from appliance.games.base import HOST, Action, NotYourTurn, WrongPhase

DEAL = StartQuestion.deal(("I have sung karaoke.", "I have been on TV.", "I can juggle."))
ANN, BOB, CAT, DAN = "ann", "bob", "cat", "dan"
HOST_CLOSE, TIMEOUT = Close.by(CloseReason.HOST), Close.by(CloseReason.TIMEOUT)


def play(engine: AllInEngine, *actions: Action) -> AllInEngine:
    for action in actions:
        engine.apply(action)
    return engine


def new(players: tuple[str, ...] = (ANN, BOB, CAT, DAN), chips: int = 10) -> AllInEngine:
    return AllInEngine(players, {"chips": chips})


def refused(engine: AllInEngine, action: Action, error: type[IllegalAction], match: str) -> None:
    before = engine.snapshot()
    assert not engine.can(action)
    with pytest.raises(error, match=match):
        engine.apply(action)
    assert engine.snapshot() == before


def test_missing_bettors_keep_all_their_chips_and_the_splits_in_are_revealed() -> None:
    engine = play(new(), DEAL, Read(ANN, 1, False), Split(BOB, 4, 6))
    play(engine, TIMEOUT)
    question = engine.current
    assert question is not None and question.revealed
    assert engine.chips == {ANN: 10, BOB: 6, CAT: 10, DAN: 10}  # bob lost his 4 on True; cat and dan sat out
    assert (question.sat_out, question.bettors, question.lost) == ((CAT, DAN), (BOB,), {BOB: 4})
    assert question.closed == "timeout"
    assert engine.total_chips() == 40 - 4  # nothing created, nothing lost but bob's wrong side
    assert engine.phase == "card" and engine.next_reader() == BOB


def test_a_close_with_no_split_in_changes_no_chips() -> None:
    engine = play(new(), DEAL, Read(ANN, 0, True), HOST_CLOSE)
    question = engine.current
    assert question is not None and question.revealed and question.closed == "host"
    assert engine.chips == {ANN: 10, BOB: 10, CAT: 10, DAN: 10}
    assert question.sat_out == (BOB, CAT, DAN) and question.lost == {}


def test_the_public_view_names_who_sat_out_and_shows_only_the_splits_made() -> None:
    engine = play(new(), DEAL, Read(ANN, 1, True), Split(CAT, 10, 0), HOST_CLOSE)
    view = engine.public_view()["question"]
    assert view["sat_out"] == [BOB, DAN] and view["closed"] == "host"
    assert view["splits"] == {CAT: {"true": 10, "false": 0}} and view["lost"] == {CAT: 0}
    assert view["answer"] is True


def test_the_end_check_follows_a_close_and_a_player_who_sat_out_can_win() -> None:
    """rules.md All In 6 after the close: the reader has no chips, the only bettor who split loses
    everything, and cat, who sat out with his chips, is the last player with chips."""
    engine = play(new((ANN, BOB, CAT), chips=2), DEAL, Read(ANN, 0, True), Split(BOB, 2, 0), Split(CAT, 2, 0))
    play(engine, DEAL, Read(BOB, 0, True), Split(ANN, 0, 2), Split(CAT, 2, 0))
    play(engine, DEAL, Read(CAT, 0, True), Split(BOB, 2, 0))
    assert engine.chips == {ANN: 0, BOB: 2, CAT: 2}
    play(engine, DEAL, Read(ANN, 0, True), Split(BOB, 0, 2), HOST_CLOSE)
    assert engine.chips == {ANN: 0, BOB: 0, CAT: 2}
    assert engine.finished and engine.winners() == [CAT]
    assert engine.ending is not None and engine.ending.value == "last_with_chips"


def test_an_excluded_player_and_one_who_sat_out_both_keep_their_chips() -> None:
    engine = play(new(), DEAL, Read(ANN, 2, True, exclude=BOB), Split(CAT, 3, 7), HOST_CLOSE)
    question = engine.current
    assert question is not None and question.excluded == BOB and question.sat_out == (DAN,)
    assert engine.chips == {ANN: 10, BOB: 10, CAT: 3, DAN: 10}


def test_a_close_before_the_read_passes_the_card_to_the_next_reader() -> None:
    engine = play(new(), DEAL)
    before = dict(engine.chips)
    play(engine, HOST_CLOSE)  # Ann's handset is gone: no read, nobody bets (the product's decision)
    assert engine.phase == "card" and engine.chips == before and engine.next_reader() == BOB


def test_a_close_is_refused_between_questions_and_after_the_end() -> None:
    engine = new()
    refused(engine, HOST_CLOSE, WrongPhase, "waiting for card 1")
    play(engine, DEAL)
    play(engine, Read(ANN, 0, True), Split(BOB, 10, 0), Split(CAT, 10, 0), Split(DAN, 10, 0))
    refused(engine, TIMEOUT, WrongPhase, "waiting for card 2")  # everyone split: the reveal happened by itself
    play(engine, EndGame.deck_out())
    refused(engine, TIMEOUT, WrongPhase, "the game is over")


def test_only_the_host_closes() -> None:
    engine = play(new(), DEAL, Read(ANN, 0, True))
    refused(engine, Close(BOB, "host"), NotYourTurn, "only the host may close")
    refused(engine, Close(ANN, "timeout"), NotYourTurn, "only the host may close")


def test_no_split_after_the_close() -> None:
    engine = play(new(), DEAL, Read(ANN, 0, True), HOST_CLOSE)
    refused(engine, Split(BOB, 10, 0), WrongPhase, "waiting for card 2")


@pytest.mark.parametrize("reason", ["everyone_in", "", 3, None])
def test_a_close_for_an_unknown_reason_is_malformed(reason: object) -> None:
    with pytest.raises(MalformedInput, match="timeout, host"):
        Close(HOST, reason)  # type: ignore[arg-type]


def test_a_closed_game_rebuilds_from_its_json_log() -> None:
    engine = play(new(), DEAL, Read(ANN, 1, False), Split(BOB, 4, 6), TIMEOUT, DEAL, Read(BOB, 0, True), HOST_CLOSE)
    logged = [engine.action_from_json(action.to_json()) for action in engine.log]
    assert logged[3] == TIMEOUT and logged[-1] == HOST_CLOSE
    assert AllInEngine.rebuild(engine.players, engine.options, logged).snapshot() == engine.snapshot()
