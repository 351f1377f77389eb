"""What the quizmaster set for the night's screens, and the final screen the TV held, survive a restart
(issue 31 follow-up): the hold time and the join QR code were kept in memory only, and after a power cut
the standing showed instead of the round's final screen. A real SQLite store, closed and opened again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from appliance.edge.night_commands import night_command
from appliance.errors import MalformedInput
from appliance.infra.store import Store, StoreError
from appliance.session.night import NightRunner
from appliance.session.session import Session
from tests.night.test_night_session import SEATS, buzz_right, handsets, restart, table


def board(session: Session) -> dict[str, Any]:
    return session.board_state(handsets().values(), lambda _: "#fff")


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """The store's file, opened again by every restart."""
    return tmp_path / "q.db"


def night(path: Path, rounds: list[dict[str, Any]], buzzed: str | None = None) -> tuple[Store, Session, NightRunner]:
    """A night of ``rounds`` on a new store at ``path``; with ``buzzed``, its first round started and its
    first question answered right by that player."""
    store = Store(path)
    session, runner = table(store)
    runner.start(SEATS, rounds)
    if buzzed is not None:
        runner.start_round()
        buzz_right(session, handsets(), buzzed)
    return store, session, runner


@contextmanager
def restarted(path: Path) -> Iterator[tuple[Session, NightRunner]]:
    """The box started again on the store at ``path`` (its night resumed), closed at the end."""
    store, session, runner = restart(path)
    try:
        yield session, runner
    finally:
        store.close()


def test_the_hold_time_and_the_join_qr_code_survive_a_restart(path: Path) -> None:
    store, _, runner = night(path, [{"game": "buzzer", "cards": 1}, {"game": "buzzer", "cards": 1}])
    accepted = set(SEATS.values()).__contains__
    assert night_command(runner, {"cmd": "night_hold", "seconds": 20}, accepted) == "final screens stay 20 s"
    assert night_command(runner, {"cmd": "night_qr", "show": True}, accepted) == "the join QR code is on the TV"
    with pytest.raises(MalformedInput, match="1 to 600"):
        night_command(runner, {"cmd": "night_hold", "seconds": 601}, accepted)  # refused: nothing stored
    store.close()

    with restarted(path) as (session, runner):
        assert runner.hold_seconds == 20 and runner.joining is True
        view = board(session)
        assert view["scene"] == "lobby" and view["night"]["hold"] == 20
        runner.show_join(False)
        runner.hold_for(None)

    with restarted(path) as (session, runner):
        assert runner.hold_seconds is None and runner.joining is False and board(session)["scene"] == "night"


def test_a_held_final_screen_comes_back_after_a_restart_and_next_moves_on(path: Path) -> None:
    # the round's one question, and *next* finishes it: its final screen held
    store, session, runner = night(path, [{"game": "buzzer", "cards": 1}, {"game": "buzzer"}], buzzed="Bob")
    assert runner.held == "round" and board(session)["scene"] == "results"
    before = board(session)
    store.close()

    with restarted(path) as (session, runner):
        assert runner.held == "round" and session.state == "results"
        after = board(session)
        assert after["scene"] == "results" and after["held"] is True  # the round's own final screen, not the standing
        assert (after["view"], after["ending"]) == (before["view"], before["ending"])
        assert runner.next() == "the final screen made way for the night's standing"
        assert board(session)["scene"] == "night" and session.state == "lobby"

    with restarted(path) as (session, runner):  # released before this restart: the standing again
        assert runner.held is None and board(session)["scene"] == "night"


def test_a_round_finished_early_comes_back_as_it_was_scored(path: Path) -> None:
    """A round the quizmaster finished now: its game is placed by its stopped rule again after the restart."""
    store, session, runner = night(path, [{"game": "buzzer"}, {"game": "buzzer"}], buzzed="Cat")
    runner.finish_round()
    before = board(session)
    store.close()

    with restarted(path) as (session, runner):
        after = board(session)
        assert runner.held == "round" and after["scene"] == "results" and after["ending"] == before["ending"]
        assert after["view"] == before["view"]


def test_an_abandoned_round_or_a_started_one_holds_nothing_after_a_restart(path: Path) -> None:
    store, _, runner = night(path, [{"game": "buzzer"}, {"game": "buzzer"}], buzzed="Cat")
    runner.abandon_round()
    store.close()

    with restarted(path) as (session, runner):
        assert runner.held is None and board(session)["scene"] == "night"


def test_a_night_decided_by_its_tiebreak_is_over_in_the_store_and_does_not_come_back(path: Path) -> None:
    """The held tie-break card is not stored as a screen to bring back: the card that decides the night
    finishes it, and a finished night does not resume (docs/night.md, A power cut)."""
    store, _, runner = night(path, [{"game": "buzzer", "seats": ["Ann", "Bob"]}])
    runner.start_round()
    runner.finish_round()
    runner.release()
    runner.tiebreak_card("Eiffel Tower?", "330")
    runner.enter_number("Ann", "300")
    runner.enter_number("Bob", "320")
    assert runner.held == "tiebreak"
    store.close()

    store = Store(path)
    assert store.unfinished_night() is None and store.nights()[0].status == "finished"
    session, runner = table(store)
    assert runner.resume() is False and runner.engine is None and session.state == "lobby"
    store.close()


def test_a_hold_time_or_join_qr_code_the_store_refuses_is_put_back(path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A setting the store cannot keep is not shown either: the error reaches the quizmaster and the
    screens stay as they were (and as the store has them)."""
    store, session, runner = night(path, [{"game": "buzzer", "cards": 1}, {"game": "buzzer", "cards": 1}])
    runner.hold_for(20)
    changes: list[int] = []
    monkeypatch.setattr(session, "_changed", lambda: changes.append(1))

    def full(*_: object) -> None:
        raise StoreError("disk full")

    monkeypatch.setattr(store, "set_night_screen", full)
    with pytest.raises(StoreError, match="disk full"):
        runner.hold_for(30)
    with pytest.raises(StoreError, match="disk full"):
        runner.show_join(True)
    assert (runner.hold_seconds, runner.joining, changes) == (20, False, [])
    monkeypatch.undo()
    store.close()

    with restarted(path) as (session, runner):
        assert runner.hold_seconds == 20 and runner.joining is False
