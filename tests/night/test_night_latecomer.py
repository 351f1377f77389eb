"""Latecomers and the join QR code mid-night, and the lobby after the podium (issue 31.10): a team that
arrives late joins the night in progress with 0 points so far (rules.md Quiz night 1), stored and replayed."""

from __future__ import annotations

from pathlib import Path

import pytest

from appliance.edge.handsets import Handset
from appliance.edge.night_commands import night_command
from appliance.errors import IllegalAction, MalformedInput
from appliance.games.base import WrongPhase
from appliance.games.night import JoinNight
from appliance.infra.store import Store
from tests.night.test_night_engine import ANN, BOB, night, play_buzzer, refused
from tests.night.test_night_session import SEATS, buzz_right, handsets, rebuilt_from_store, restart, table


def test_a_latecomer_joins_with_nothing_so_far_and_sits_the_rounds_to_come() -> None:
    engine = night({"game": "buzzer"}, {"game": "buzzer"}, {"game": "poker", "seats": [ANN, BOB]})
    play_buzzer(engine, [ANN])
    engine.apply(JoinNight.of("eve"))
    assert engine.players[-1] == "eve" and engine.standing()["eve"] == 0
    assert "eve" in engine.rounds[1].seats and "eve" not in engine.rounds[0].seats  # played before she came
    assert engine.rounds[2].seats == (ANN, BOB)  # a round with its own seats keeps them
    refused(engine, JoinNight.of("eve"), IllegalAction, "already a player")
    play_buzzer(engine, ["eve"])
    assert engine.standing()["eve"] > 0
    with pytest.raises(MalformedInput, match="1 to 24"):
        JoinNight.of("x" * 25)


def test_no_latecomer_once_the_rounds_are_over_or_when_a_round_cannot_seat_one_more() -> None:
    full = night({"game": "confident", "options": {"variants": ["two_players"]}}, players=(ANN, BOB))
    refused(full, JoinNight.of("late"), IllegalAction, "round 1 .* change its seats first")
    over = night({"game": "buzzer", "seats": [ANN, BOB]})
    play_buzzer(over, [])
    refused(over, JoinNight.of("late"), WrongPhase, "every round is over")


def test_a_latecomer_on_a_new_phone_survives_a_restart_and_plays_the_next_round(tmp_path: Path) -> None:
    path = tmp_path / "q.db"
    store = Store(path)
    session, runner = table(store)
    hs = handsets()
    runner.start(SEATS, [{"game": "buzzer", "cards": 1}, {"game": "buzzer", "cards": 1}])
    runner.start_round()
    buzz_right(session, hs, "Ann")
    eve = Handset(id="eve", name="Eve", accepted=True, online=True)
    accepted = {h.id for h in (*hs.values(), eve)}.__contains__
    assert night_command(runner, {"cmd": "night_join", "player": "Eve", "handset": "eve"}, accepted) == \
        "Eve joins the night with 0 points"
    with pytest.raises(IllegalAction, match="Ann's in this quiz night"):
        runner.join("Zed", "ann")
    with pytest.raises(MalformedInput, match="not at the table"):
        night_command(runner, {"cmd": "night_join", "player": "Zed", "handset": "nobody"}, accepted)
    assert runner.engine is not None and runner.engine.standing()["Eve"] == 0
    assert rebuilt_from_store(store).players[-1] == "Eve"
    store.close()

    store, session, runner = restart(path)
    assert runner.engine is not None and runner.seats["Eve"] == "eve" and runner.engine.standing()["Eve"] == 0
    assert runner.held == "round"  # round 1's final screen, held before the restart, is back (docs/night.md)
    runner.release()
    session.clock.now += 10  # type: ignore[attr-defined]
    runner.start_round()
    assert session.seats["Eve"] == "eve"
    buzz_right(session, {**hs, "Eve": eve}, "Eve")
    assert runner.engine.standing()["Eve"] == 4


def test_the_join_qr_code_between_rounds_and_the_lobby_after_the_podium(tmp_path: Path) -> None:
    session, runner = table(Store(tmp_path / "q.db"))
    hs = handsets()
    runner.start(SEATS, [{"game": "buzzer"}])
    assert session.board_state(hs.values(), lambda _: "#fff")["scene"] == "night"
    runner.show_join(True)
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "lobby" and board["night"]["joining"] is True  # the TV's lobby: the join QR code
    runner.show_join(False)
    assert session.board_state(hs.values(), lambda _: "#fff")["scene"] == "night"
    runner.start_round()
    with pytest.raises(IllegalAction, match="between rounds"):
        runner.show_join(True)
    buzz_right(session, hs, "Bob")
    runner.finish_round()
    runner.release()
    assert session.board_state(hs.values(), lambda _: "#fff")["scene"] == "night-podium"
    runner.end()  # the night page's "Back to the lobby": the podium makes way, the night stays finished
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "lobby" and "night" not in board
