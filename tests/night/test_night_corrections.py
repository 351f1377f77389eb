"""Score corrections (issue 31.16, rules.md Quiz night 7): the quizmaster adds or takes a team's points with a
reason; a night action like any other (verify, can, apply, its refusal codes), stored before it counts, shown
in the standing and the results, and replayed after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from appliance.errors import IllegalAction, MalformedInput
from appliance.games.base import HOST, UnknownPlayer, WrongPhase
from appliance.games.night import CorrectScore, NightEngine, StartRound, TiebreakCard
from appliance.infra.store import Store
from tests.night.test_night_engine import ANN, BOB, CAT, DAN, night, play_buzzer, refused
from tests.night.test_night_session import SEATS, rebuilt_from_store, restart, table


def test_a_correction_adds_or_takes_points_and_can_break_a_tie() -> None:
    engine = night({"game": "buzzer"}, {"game": "buzzer"})
    play_buzzer(engine, [ANN])
    assert engine.standing() == {ANN: 4, BOB: 1, CAT: 1, DAN: 1}
    fix = CorrectScore.of(BOB, 2, "a marking error in round 1")
    assert engine.can(fix)
    engine.apply(fix)
    engine.apply(CorrectScore.of(ANN, -1, "phone out during a question"))
    assert engine.standing() == {ANN: 3, BOB: 3, CAT: 1, DAN: 1}
    assert engine.public_view()["corrections"] == [
        {"team": BOB, "points": 2, "reason": "a marking error in round 1"},
        {"team": ANN, "points": -1, "reason": "phone out during a question"},
    ]
    engine.apply(StartRound.now())
    engine.apply(CorrectScore.of(CAT, 1, "bonus: best team name"))  # during a round too
    assert engine.standing()[CAT] == 2
    # the log rebuilds the night, corrections included
    again = NightEngine.rebuild(engine.players, engine.options, engine.log)
    assert again.standing() == engine.standing() and again.snapshot() == engine.snapshot()


def test_a_correction_after_the_last_round_settles_a_tie_and_none_once_the_tiebreak_starts() -> None:
    engine = night({"game": "buzzer", "seats": [ANN, BOB]})
    play_buzzer(engine, [])  # nobody scores: Ann and Bob tied for first
    assert engine.phase == "tiebreak"
    engine.apply(CorrectScore.of(BOB, 1, "answer accepted on appeal"))
    assert engine.finished and engine.winners() == [BOB]
    refused(engine, CorrectScore.of(ANN, 1, "late"), WrongPhase, "standing is settled")
    tied = night({"game": "buzzer", "seats": [ANN, BOB]})
    play_buzzer(tied, [])
    tied.apply(TiebreakCard.deal("Piano keys?", "88"))
    refused(tied, CorrectScore.of(ANN, 1, "late"), WrongPhase, "tie-break starts")
    assert CorrectScore.of(ANN, 1, "x").to_json()["kind"] == "correct_score"


@pytest.mark.parametrize(("team", "points", "reason", "match"), [
    (ANN, 0, "nothing", "not 0"),
    (ANN, 101, "too many", "-100 to 100"),
    (ANN, True, "a flag", "whole number"),
    (ANN, 2, "   ", "needs its reason"),
    (ANN, 2, "x" * 121, "needs its reason"),
    ("", 2, "no team", "names a team"),
])
def test_a_bad_correction_is_malformed(team: str, points: int, reason: str, match: str) -> None:
    with pytest.raises(MalformedInput, match=match) as caught:
        CorrectScore(HOST, team, points, reason)
    assert caught.value.code == "bad_value"


def test_a_correction_is_the_hosts_and_for_a_player_of_the_night() -> None:
    engine = night()
    refused(engine, CorrectScore.of("zed", 1, "who?"), UnknownPlayer, "'zed' is not playing")
    refused(engine, CorrectScore(ANN, ANN, 1, "my own bonus"), IllegalAction, "host")


def test_a_correction_is_stored_shown_and_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "q.db"
    store = Store(path)
    session, runner = table(store)
    runner.start(SEATS, [{"game": "buzzer"}, {"game": "buzzer"}])
    runner.start_round()
    runner.finish_round()
    runner.correct_score("Cat", 3, "bonus round on paper")
    runner.correct_score("Ann", -1, "a phone out")
    assert session.board_state([], lambda _: "#fff")["night"]["standing"] == {"Ann": 0, "Bob": 1, "Cat": 4}
    with pytest.raises(UnknownPlayer):
        runner.correct_score("Dan", 1, "not tonight")
    assert rebuilt_from_store(store).standing() == {"Ann": 0, "Bob": 1, "Cat": 4}
    store.close()

    store, session, runner = restart(path)
    assert runner.engine is not None and runner.engine.standing() == {"Ann": 0, "Bob": 1, "Cat": 4}
    assert [c.reason for c in runner.engine.corrections] == ["bonus round on paper", "a phone out"]
