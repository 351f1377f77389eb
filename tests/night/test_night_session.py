"""The session plays a night round after round (appliance/session/night.py) with a real SQLite store:
rounds from the run-sheet, scored from their games' logs, finish now vs abandon, the time box, the
tie-break, and a restart at every moment a power cut could split (rules.md Quiz night 5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from appliance.edge.handsets import Handset
from appliance.edge.night_commands import night_command
from appliance.errors import IllegalAction, MalformedInput, QuizboxError
from appliance.flows import flow_factory
from appliance.games.dealt import DealtCard
from appliance.games.night import NightEngine
from appliance.infra.store import Store
from appliance.session.night import NightRunner
from appliance.session.session import Session
from firmware import protocol

PLAYERS = ("Ann", "Bob", "Cat")
SEATS = {p: p.lower() for p in PLAYERS}
CONFIDENT = [DealtCard(f"c{i}", {"question": f"Question {i}?", "answer": str(10 * i)}) for i in range(1, 6)]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def cards(game: str, command: Any) -> list[DealtCard]:
    return list(CONFIDENT) if game in ("confident", "buzzer") else []


def handsets() -> dict[str, Handset]:
    return {p: Handset(id=p.lower(), name=p, accepted=True, online=True) for p in PLAYERS}


def table(store: Store | None, clock: Clock | None = None) -> tuple[Session, NightRunner]:
    session = Session(clock or Clock(), store=store, flows=flow_factory)
    return session, NightRunner(session, store, cards)


def buzz_right(session: Session, hs: dict[str, Handset], player: str) -> None:
    """One buzzer question answered right by ``player`` (the quizmaster arms, judges, moves on)."""
    session.flow_command("arm", {})
    prompt, _ = session.prompt_for(hs[player])
    session.handle_input(hs[player].id, prompt["id"], "buzz", {"age_ms": 0})
    session.advance()  # declare at once
    session.flow_command("right", {})
    session.advance()  # the next question


def confident_answer(session: Session, hs: dict[str, Handset], player: str, low: str, high: str) -> None:
    prompt, _ = session.prompt_for(hs[player])
    session.handle_input(hs[player].id, prompt["id"], "range", {"bottom": low, "top": high})


RUNSHEET = [
    {"game": "buzzer", "title": "Fastest finger", "cards": 2},
    {"game": "confident", "title": "Confident?", "options": {"target": 3}, "multiplier": 2},
]


def test_a_night_plays_its_rounds_and_scores_each_from_its_game(tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    session, runner = table(store)
    hs = handsets()
    runner.start(SEATS, RUNSHEET, "Tuesday quiz")
    board = session.board_state(hs.values(), lambda _: "#ffffff")
    assert board["scene"] == "night" and board["night"]["next"]["title"] == "Fastest finger"
    assert board["can_advance"] is True
    runner.start_round()
    assert session.state == "playing" and session.setup is not None and session.setup.game == "buzzer"
    buzz_right(session, hs, "Bob")
    buzz_right(session, hs, "Bob")  # the second and last question: the buzzer round is over
    assert runner.engine is not None and runner.engine.rounds[0].status.value == "finished"
    assert runner.engine.rounds[0].points == {"Ann": 1, "Bob": 3, "Cat": 1}
    assert session.board_state(hs.values(), lambda _: "#fff")["scene"] == "results"  # its own final screen
    session.clock.now += 2  # type: ignore[attr-defined]
    runner.next()
    between = session.prompt_for(hs["Ann"])[0]["text"]  # an audit read "Place 2 with 1 points"
    assert "with 1 point" in between and "1 points" not in between, between
    assert "with 3 points" in session.prompt_for(hs["Bob"])[0]["text"]
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "night" and board["can_advance"] is False  # a second *next* cannot skip ahead
    session.clock.now += 5  # type: ignore[attr-defined]
    assert session.board_state(hs.values(), lambda _: "#fff")["can_advance"] is True
    runner.start_round()
    confident_answer(session, hs, "Ann", "0", "100")
    confident_answer(session, hs, "Bob", "9", "11")
    confident_answer(session, hs, "Cat", "50", "60")
    session.advance()  # settle: Bob's 3 reaches the target; places 1, 2, 3 score 3, 2, 1, doubled
    assert runner.engine.finished and runner.engine.standing() == {"Ann": 5, "Bob": 9, "Cat": 3}
    session.clock.now += 2  # type: ignore[attr-defined]
    runner.next()  # the round's final screen makes way for the podium
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "night-podium" and board["night"]["winners"] == ["Bob"]
    stored = store.unfinished_night()
    assert stored is None
    night = store.nights()[0]
    assert night.status == "finished" and set(night.rounds) == {1, 2}
    assert all(store.game(g).status == "finished" for g in night.rounds.values())  # type: ignore[union-attr]
    # a one-off game after the night: its own screens, not the podium
    from appliance.session.flow import GameSetup

    session.start_game(GameSetup("buzzer", ["Ann", "Bob"], {"questions": 1}), {"Ann": "ann", "Bob": "bob"})
    session.end_game()
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "results" and "night" not in board


def test_finish_now_scores_by_the_stopped_rule_and_abandon_scores_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    session, runner = table(store)
    hs = handsets()
    runner.start(SEATS, [{"game": "buzzer"}, {"game": "buzzer"}, {"game": "buzzer"}])
    runner.start_round()
    buzz_right(session, hs, "Cat")
    runner.finish_round()  # finish now and score
    assert runner.engine is not None and runner.engine.rounds[0].status.value == "stopped"
    assert runner.engine.rounds[0].points == {"Ann": 1, "Bob": 1, "Cat": 3}
    assert session.state == "results" and runner.held == "round"  # the round's final screen
    runner.start_round()
    buzz_right(session, hs, "Ann")
    runner.abandon_round()
    assert runner.engine.rounds[1].status.value == "abandoned" and runner.engine.standing()["Ann"] == 1
    first, second = (store.game(store.nights()[0].rounds[n]) for n in (1, 2))
    assert first is not None and first.status == "finished" and first.result is not None
    assert second is not None and second.status == "abandoned"
    runner.start_round()
    session.end_game()  # the generic End the game abandons the round too, the night follows
    assert runner.engine.rounds[2].status.value == "abandoned"
    assert runner.engine.finished and runner.engine.winners() == ["Cat"]


def test_a_time_box_ends_the_round_on_its_last_reveal_held_until_next(tmp_path: Path) -> None:
    """Issue 31.1: a round that ran out of time was finished on the next 0.1 s tick, so its last reveal
    was never seen; now the reveal stays until the quizmaster's *next*, then the round's final screen."""
    clock = Clock()
    session, runner = table(Store(tmp_path / "q.db"), clock)
    hs = handsets()
    runner.start(SEATS, [{"game": "buzzer", "minutes": 5}])
    runner.start_round()
    session.flow_command("arm", {})
    clock.now += 301
    assert session.tick() is False  # a question is open: it plays out first
    prompt, _ = session.prompt_for(hs["Ann"])
    session.handle_input("ann", prompt["id"], "buzz", {"age_ms": 0})
    session.advance()
    session.flow_command("right", {})
    for _ in range(50):  # ticks of a whole evening's worth: the judged question stays on the TV
        clock.now += 10
        assert session.tick() is False
    assert runner.engine is not None and runner.engine.phase == "playing"
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "playing" and board["can_advance"] is True
    assert runner.wants_next()
    runner.next()  # the quizmaster moves on: the round is scored, its final screen held
    assert runner.engine.finished and runner.engine.winners() == ["Ann"]
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "results" and board["held"] is True and board["view"]["winners"] == ["Ann"]
    assert board["can_advance"] is True  # *next* moves on to the standing
    clock.now += 2
    assert runner.wants_next() and runner.next().startswith("the final screen")
    assert session.board_state(hs.values(), lambda _: "#fff")["scene"] == "night-podium"


def test_each_round_ends_on_its_own_final_screen_held_until_next(tmp_path: Path) -> None:
    """Issue 31.1: the last card of a round with a card count was revealed for one tick; phones skipped
    the reveal. Now the reveal stays (TV and phones) until *next*, then the game's final screen."""
    clock = Clock()
    session, runner = table(Store(tmp_path / "q.db"), clock)
    hs = handsets()
    runner.start(SEATS, [{"game": "confident", "cards": 1}, {"game": "buzzer", "cards": 1}])
    runner.start_round()
    confident_answer(session, hs, "Ann", "0", "100")
    confident_answer(session, hs, "Bob", "9", "11")
    confident_answer(session, hs, "Cat", "50", "60")
    session.advance()  # the reveal of the round's last card
    clock.now += 60
    assert session.tick() is False
    assert runner.engine is not None and runner.engine.phase == "playing"
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "playing" and board["view"]["phase"] != "answering" and board["can_advance"] is True
    phone = session.prompt_for(hs["Bob"])[0]
    assert phone["title"] != "Quiz night", phone  # the phone sees the card's outcome, not the standing
    runner.next()
    assert runner.engine.rounds[0].status.value == "stopped"
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "results" and board["ending"] == "stopped" and board["view"]["winners"] == ["Bob"]
    clock.now += 2
    runner.next()
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "night" and session.prompt_for(hs["Ann"])[0]["title"] == "Quiz night"
    clock.now += 5
    runner.next()  # the buzzer round, ended by the quizmaster's hold time this time
    runner.hold_for(8)
    session.flow_command("arm", {})
    session.handle_input("cat", session.prompt_for(hs["Cat"])[0]["id"], "buzz", {"age_ms": 0})
    session.advance()  # declare at once
    session.flow_command("right", {})
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "playing" and board["view"]["phase"] == "closed"
    assert session.tick() is False  # the hold time counts from the tick that sees the round due
    clock.now += 7
    assert session.tick() is False
    clock.now += 1
    assert session.tick() is True and session.board_state(hs.values(), lambda _: "#fff")["scene"] == "results"
    clock.now += 8
    assert session.tick() is True
    assert session.board_state(hs.values(), lambda _: "#fff")["scene"] == "night-tiebreak"  # Bob and Cat on 4
    with pytest.raises(MalformedInput, match="hold time"):
        runner.hold_for(0)


def test_the_tiebreak_is_entered_for_the_tied_players(tmp_path: Path) -> None:
    session, runner = table(Store(tmp_path / "q.db"))
    runner.start(SEATS, [{"game": "buzzer", "seats": ["Ann", "Bob"]}])
    runner.start_round()
    runner.finish_round()
    assert runner.engine is not None and runner.engine.phase == "tiebreak"
    hs = handsets()
    assert session.board_state(hs.values(), lambda _: "#fff")["scene"] == "results"  # the round's own end first
    runner.release()
    assert session.board_state(hs.values(), lambda _: "#fff")["scene"] == "night-tiebreak"
    runner.tiebreak_card("Eiffel Tower?", "330")
    prompt, _ = session.prompt_for(hs["Ann"])
    assert prompt["title"] == "Tie-break!" and prompt["text"].startswith("Eiffel Tower?")
    assert session.prompt_for(hs["Cat"])[0]["title"] == "Quiz night"
    with pytest.raises(IllegalAction, match="Cat is not tied"):
        runner.enter_number("Cat", "330")
    runner.enter_number("Ann", "300")
    runner.enter_number("Bob", "345")
    assert runner.engine.finished and runner.engine.winners() == ["Bob"]
    # issue 31.1: the deciding card's answer and numbers stay up until *next*, then the podium
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "night-tiebreak" and board["held"] is True
    assert board["night"]["cards"][-1]["answer"] == "330" and board["night"]["cards"][-1]["numbers"]["Bob"] == "345"
    session.clock.now += 2  # type: ignore[attr-defined]
    runner.next()
    assert session.board_state(hs.values(), lambda _: "#fff")["scene"] == "night-podium"


def test_the_tied_players_type_their_numbers_on_their_own_handsets(tmp_path: Path) -> None:
    """Issue 15: the tie-break's numbers came only from the quizmaster; now each tied handset gets a
    ``number`` prompt, its input is stored with its origin (its handset's last acked input) before the ack."""
    store = Store(tmp_path / "q.db")
    session, runner = table(store)
    runner.start(SEATS, [{"game": "buzzer", "seats": ["Ann", "Bob"]}])
    runner.start_round()
    runner.finish_round()
    runner.tiebreak_card("Eiffel Tower, in metres?", "330")
    hs = handsets()
    ann, _ = session.prompt_for(hs["Ann"])
    assert ann["kind"] == protocol.NUMBER and ann["text"] == "Eiffel Tower, in metres?"
    assert protocol.parse_prompt(ann) is ann
    assert session.prompt_for(hs["Cat"])[0]["kind"] == "info"  # not tied: the standing
    cat, _ = session.prompt_for(hs["Cat"])
    with pytest.raises(QuizboxError):  # a number from a screen that takes none
        session.handle_input("cat", cat["id"], protocol.NUMBER, {"number": "330"})
    with pytest.raises(MalformedInput):
        session.handle_input("ann", ann["id"], protocol.NUMBER, {"number": "three hundred-ish"})
    assert runner.engine is not None and runner.engine.card is not None
    assert runner.engine.card.waiting_for == ["Ann", "Bob"]  # the bad number changed nothing
    message = session.handle_input("ann", ann["id"], protocol.NUMBER, {"number": "300"}, origin=("ann", 7, ann["id"]))
    assert "300" in message
    assert store.last_acked("ann") == (7, ann["id"])
    locked, _ = session.prompt_for(hs["Ann"])
    assert locked["kind"] == "info" and locked["title"] == "Locked in" and "300" in locked["text"]
    with pytest.raises(QuizboxError):  # the old screen again (a re-sent input is the hub's duplicate check)
        session.handle_input("ann", ann["id"], protocol.NUMBER, {"number": "310"})
    bob, _ = session.prompt_for(hs["Bob"])
    session.handle_input("bob", bob["id"], protocol.NUMBER, {"number": "345"})
    assert runner.engine.finished and runner.engine.winners() == ["Bob"]
    assert rebuilt_from_store(store).winners() == ["Bob"]


def test_night_commands_check_their_input() -> None:
    session, runner = table(None)
    accepted = {"ann", "bob"}.__contains__
    with pytest.raises(Exception, match="is not at the table"):
        night_command(runner, {"cmd": "night_start", "seats": [{"player": "Cat", "handset": "cat"}],
                               "rounds": [{"game": "buzzer"}]}, accepted)
    with pytest.raises(Exception, match="needs its rounds"):
        night_command(runner, {"cmd": "night_start", "seats": [], "rounds": []}, accepted)
    seats = [{"player": "Ann", "handset": "ann"}, {"player": "Bob", "handset": "bob"}]
    assert "2 round" in night_command(runner, {"cmd": "night_start", "seats": seats,
                                               "rounds": [{"game": "buzzer"}, {"game": "buzzer"}]}, accepted)
    night_command(runner, {"cmd": "night_move", "round": 2, "before": 1}, accepted)
    assert runner.engine is not None and [r.number for r in runner.engine.rounds] == [2, 1]
    with pytest.raises(Exception, match="needs round as a whole number"):
        night_command(runner, {"cmd": "night_skip", "round": "2"}, accepted)
    with pytest.raises(Exception, match="unknown night command"):
        night_command(runner, {"cmd": "night_dance"}, accepted)


# -- a power cut at each moment -----------------------------------------------------------------------


def restart(path: Path) -> tuple[Store, Session, NightRunner]:
    store = Store(path)
    session, runner = table(store)
    assert runner.resume() is True
    return store, session, runner


def rebuilt_from_store(store: Store) -> NightEngine:
    """The night as its stored log alone gives it."""
    stored = store.nights()[0]
    engine = NightEngine(stored.players, stored.options)
    for data in stored.log:
        engine.apply(engine.action_from_json(data))
    return engine


def test_a_restart_mid_round_resumes_the_round_and_keeps_finished_rounds(tmp_path: Path) -> None:
    path = tmp_path / "q.db"
    store = Store(path)
    session, runner = table(store)
    hs = handsets()
    runner.start(SEATS, [{"game": "buzzer", "cards": 1}, {"game": "buzzer", "cards": 2}])
    runner.start_round()
    buzz_right(session, hs, "Ann")
    runner.start_round()
    buzz_right(session, hs, "Cat")
    store.close()  # the power cord, mid round 2

    store, session, runner = restart(path)
    assert runner.engine is not None and runner.engine.phase == "playing"
    assert runner.engine.rounds[0].points == {"Ann": 3, "Bob": 1, "Cat": 1}
    assert session.state == "playing" and session.flow is not None
    assert session.flow.engine.scores == {"Ann": 0, "Bob": 0, "Cat": 1}  # type: ignore[attr-defined]
    buzz_right(session, hs, "Cat")
    assert runner.engine.phase == "tiebreak" and runner.engine.standing() == {"Ann": 4, "Bob": 2, "Cat": 4}
    assert rebuilt_from_store(store).snapshot() == runner.engine.snapshot()


def test_a_restart_after_the_game_ended_but_before_the_night_scored_it(tmp_path: Path) -> None:
    """The game's end is stored by the session, the night's FinishRound after it: a cut between the two
    leaves a night playing a round whose game is finished; the restart scores it from the game's log."""
    path = tmp_path / "q.db"
    store = Store(path)
    session, runner = table(store)
    hs = handsets()
    runner.start(SEATS, [{"game": "buzzer", "cards": 1}, {"game": "buzzer"}])
    runner.start_round()
    original = store.append_night_actions

    def cut(*args: Any, **kwargs: Any) -> None:
        raise SystemExit("power cut")

    store.append_night_actions = cut  # type: ignore[method-assign]
    with pytest.raises(SystemExit):
        buzz_right(session, hs, "Bob")
    store.append_night_actions = original  # type: ignore[method-assign]
    night = store.unfinished_night()
    assert night is not None and night.log[-1]["kind"] == "start_round"
    assert store.game(night.rounds[1]).status == "finished"  # type: ignore[union-attr]
    store.close()

    store, session, runner = restart(path)
    assert runner.engine is not None and runner.engine.phase == "between"
    assert runner.engine.rounds[0].points == {"Ann": 1, "Bob": 3, "Cat": 1}
    assert session.state == "results" and runner.held == "round"  # its own final screen, as without the cut
    runner.release()
    assert session.state == "lobby"
    assert rebuilt_from_store(store).snapshot() == runner.engine.snapshot()


def test_a_restart_between_rounds_and_during_the_tiebreak(tmp_path: Path) -> None:
    path = tmp_path / "q.db"
    store = Store(path)
    session, runner = table(store)
    runner.start(SEATS, [{"game": "buzzer", "seats": ["Ann", "Bob"]}, {"game": "buzzer", "seats": ["Ann", "Bob"]}])
    runner.start_round()
    runner.finish_round()
    runner.skip_round(2)
    runner.tiebreak_card("Piano keys?", "88")
    runner.enter_number("Ann", "80")
    store.close()

    store, session, runner = restart(path)
    assert runner.engine is not None and runner.engine.phase == "card"
    assert runner.engine.card is not None and runner.engine.card.waiting_for == ["Bob"]
    runner.enter_number("Bob", "88")
    assert runner.engine.winners() == ["Bob"]
    assert store.nights()[0].status == "finished"


def test_a_rounds_plan_sets_its_flows_timing(tmp_path: Path) -> None:
    """Issue 15 (planning): a round's answer time and poker's action time were refused by the night
    ("unknown Confident option answer_seconds"): the night checked every option against the engine.
    The flow's own options now go to the flow; a bad one is refused when the night is planned."""
    session, runner = table(Store(tmp_path / "q.db"))
    runner.start(SEATS, [{"game": "confident", "options": {"target": 3, "answer_seconds": 30}},
                         {"game": "poker", "options": {"action_seconds": 20, "stack": 30}},
                         {"game": "buzzer", "options": {"settle_ms": 300}, "cards": 1}])
    runner.start_round()
    assert session.flow is not None and session.flow.answer_seconds == 30
    hs = handsets()
    for player in PLAYERS:
        confident_answer(session, hs, player, "1", "1000")
    runner.finish_round(stopped=True)
    assert runner.engine is not None and [r.status for r in runner.engine.rounds][0] == "stopped"
    assert runner.engine.standing() == {"Ann": 1, "Bob": 1, "Cat": 1}  # the round scored with its timing kept
    for bad, says in (({"answer_seconds": "soon"}, "answer_seconds must be a whole number"),
                      ({"action_seconds": -1}, "action_seconds must be a whole number"),
                      ({"answer_seconds": 30, "speed": 2}, "unknown")):
        game = "poker" if "action_seconds" in bad else "confident"
        with pytest.raises(QuizboxError, match=says):
            table(None)[1].start(SEATS, [{"game": game, "options": bad}])


def test_a_seat_moved_in_a_round_stays_moved_for_the_rest_of_the_night(tmp_path: Path) -> None:
    """A player whose phone died takes their seat on a new one mid-round (the quizmaster's move or their
    seat code): the night's later rounds seat them there too, after a restart as well (a browser audit
    found round 2 seating the old, departed phone again, and the new one shown as not seated)."""
    path = tmp_path / "q.db"
    store = Store(path)
    session, runner = table(store)
    hs = handsets()
    runner.start(SEATS, [{"game": "buzzer", "cards": 1}] * 3)
    runner.start_round()
    hs["Cat"].online = False
    new = Handset(id="cat2", name="Cat-2", accepted=True, online=True)
    assert session.move_seat("Cat", new, hs["Cat"]) == "Cat's seat is now on Cat-2"
    moved = {**hs, "Cat": new}
    buzz_right(session, moved, "Cat")  # round 1's one question, answered on the new handset
    assert runner.engine is not None and runner.engine.rounds[0].points["Cat"] == 3
    runner.release()  # the round's final screen makes way for the standing
    between = session.prompt_for(new)[0]["text"]
    assert "Place 1 with 3 points" in between, between  # the night's standing on the new handset
    assert "Place" not in session.prompt_for(hs["Cat"])[0]["text"]  # the old one is nobody's now

    runner.start_round()
    assert session.seats["Cat"] == "cat2" and session.player_of("cat") is None
    buzz_right(session, moved, "Cat")  # round 2 plays on the new handset
    assert runner.engine.rounds[1].points["Cat"] == 3
    runner.start_round()
    store.close()  # the power cord, mid round 3

    store, session, runner = restart(path)
    assert runner.seats["Cat"] == "cat2" and session.seats["Cat"] == "cat2"
    buzz_right(session, moved, "Cat")
    assert runner.engine is not None and runner.engine.finished
    assert store.nights()[0].seats["Cat"] == "cat2"


def test_a_seat_cannot_move_to_the_handset_of_a_night_player_sitting_a_round_out(tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    session, runner = table(store)
    hs = handsets()
    runner.start(SEATS, [{"game": "buzzer", "cards": 1}] * 2)
    runner.seat_round(1, ["Bob", "Cat"])  # Ann sits the first round out
    runner.start_round()
    with pytest.raises(IllegalAction, match="Ann's in this quiz night"):
        session.move_seat("Cat", hs["Ann"], hs["Cat"])
    assert session.seats == {"Bob": "bob", "Cat": "cat"} and runner.seats == SEATS
    assert store.nights()[0].seats == SEATS


def test_a_teams_colour_stays_the_teams_when_its_seat_moves(tmp_path: Path) -> None:
    """Issue 31.7: a team's colour belonged to its handset, so moving a seat changed the team's colour
    mid-night; it belongs to the team (the night's player)."""
    session, runner = table(Store(tmp_path / "q.db"))
    hs = handsets()
    colours = {"ann": "#E69F00", "bob": "#56B4E9", "cat": "#009E73", "cat2": "#CC79A7"}
    runner.start(SEATS, [{"game": "buzzer", "cards": 1}] * 2)

    def colour_of(player: str, room: list[Handset]) -> str:
        board = session.board_state(room, colours.__getitem__)
        return next(p["colour"] for p in board["players"] if p["name"] == player)

    assert colour_of("Cat", list(hs.values())) == "#009E73"
    runner.start_round()
    hs["Cat"].online = False
    new = Handset(id="cat2", name="Cat-2", accepted=True, online=True)
    session.move_seat("Cat", new, hs["Cat"])
    room = [hs["Ann"], hs["Bob"], new]
    assert colour_of("Cat", room) == "#009E73"  # Cat's colour, on the new handset
    buzz_right(session, {**hs, "Cat": new}, "Cat")
    runner.release()
    assert colour_of("Cat", room) == "#009E73"  # between rounds too


def test_a_capped_rounds_header_says_the_most_points_win_when_it_runs_out(tmp_path: Path) -> None:
    """Issue 31.14: a night round with a card count said only "First to 30 points wins" on the TV."""
    from appliance.board.compose import compose

    session, runner = table(Store(tmp_path / "q.db"))
    hs = handsets()
    runner.start(SEATS, [{"game": "confident", "cards": 4, "options": {"target": 30}},
                         {"game": "confident", "options": {"target": 30}}])
    runner.start_round()
    canvas, _ = compose(session.board_state(hs.values(), lambda _: "#fff"), (1920, 1080), 0.0)
    texts = [p.text for p in canvas.placements]
    assert "First to 30 points, or the most after 4 questions" in texts, texts
    runner.finish_round()
    runner.release()
    session.clock.now += 10  # type: ignore[attr-defined]
    runner.start_round()
    canvas, _ = compose(session.board_state(hs.values(), lambda _: "#fff"), (1920, 1080), 0.0)
    assert "First to 30 points wins" in [p.text for p in canvas.placements]


def test_a_stopped_squizz_round_reveals_its_hidden_totals_before_the_standing(tmp_path: Path) -> None:
    """Issue 31.1: sQuizz hides its totals until the end; a night round of it stopped by the quizmaster went
    straight to the standing, so the totals were never shown. Its final screen (the totals revealed) is held."""
    from appliance.board.compose import choose
    from appliance.board.state import Board

    squizz = [DealtCard(f"s/{i}", {"prompt": f"Q{i}", "propositions": [{"text": t, "value": v} for t, v in
                                                                     (("x", 1), ("y", 2), ("z", 3))]})
              for i in range(12)]
    session = Session(Clock(), store=Store(tmp_path / "q.db"), flows=flow_factory)
    runner = NightRunner(session, session.store, lambda game, how: squizz)
    hs = handsets()
    runner.start(SEATS, [{"game": "squizz"}, {"game": "buzzer"}])
    runner.start_round()
    runner.finish_round()  # the night page's "Finish this round now"
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["scene"] == "results" and board["held"] is True and board["view"]["stopped"] is True
    assert choose(Board(board)).name == "squizz-final"  # the totals revealed one by one
    runner.next()
    assert session.board_state(hs.values(), lambda _: "#fff")["scene"] == "night"
