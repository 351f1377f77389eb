"""The quiz night pages (web/night.py): planning (the night_start command), run-sheets saved in the store,
the controls during the night, results per round and in total (page, CSV, A4 print) rebuilt from a
night the real session stored, and the buzzer round's Live controls."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask.testing import FlaskClient

from appliance.edge.handsets import Handset
from appliance.flows import flow_factory
from appliance.infra.store import Store
from appliance.session.night import NightRunner
from appliance.session.session import Session
from tests.web.conftest import post
from tests.web.fakes import FakeLink
from web.link import Result


def _table(link: FakeLink) -> None:
    link.add_handset("hs-1", "Ann")
    link.add_handset("hs-2", "Bob")
    link.add_handset("hs-3", "Cat")


def _deck(store: Store, kind: str) -> str:
    return str(next(d["id"] for d in store.decks() if d["type"] == kind))


def _plan(store: Store) -> dict[str, Any]:
    return {
        "title": "Friday night",
        "round-0-game": "confident", "round-0-deck": _deck(store, "estimation"), "round-0-cards": "8",
        "round-1-game": "buzzer", "round-1-title": "Fastest finger", "round-1-minutes": "15", "round-1-unseen": "on",
        "round-2-game": "allin", "round-2-deck": _deck(store, "allin"), "round-2-multiplier": "2",
        "round-2-options": '{"chips": 10}',
        "player-0": "Ann", "handset-0": "hs-1", "player-1": "Bob", "handset-1": "hs-2",
        "player-2": "Cat", "handset-2": "hs-3",
    }


def test_the_plan_starts_a_night_with_its_run_sheet(admin: FlaskClient, link: FakeLink, store: Store) -> None:
    _table(link)
    page = admin.get("/night/plan").get_data(as_text=True)
    assert 'data-deck="allin"' in page and 'name="player-2" value="Cat"' in page
    response = post(admin, "/night/plan", {**_plan(store), "action": "start"})
    assert response.status_code == 302 and response.location == "/night/"
    assert link.commands == [{
        "cmd": "night_start", "title": "Friday night",
        "rounds": [
            {"game": "confident", "title": "", "deck": _deck(store, "estimation"), "cards": 8, "multiplier": 1},
            {"game": "buzzer", "title": "Fastest finger", "minutes": 15, "unseen": True, "multiplier": 1},
            {"game": "allin", "title": "", "deck": _deck(store, "allin"), "multiplier": 2, "options": {"chips": 10}},
        ],
        "seats": [{"player": "Ann", "handset": "hs-1"}, {"player": "Bob", "handset": "hs-2"},
                  {"player": "Cat", "handset": "hs-3"}],
    }]


def test_bad_plans_are_explained_and_send_nothing(admin: FlaskClient, link: FakeLink, store: Store) -> None:
    _table(link)
    cases = [
        ({"round-0-deck": _deck(store, "allin")}, "Confident? plays estimation cards"),
        ({"round-0-deck": ""}, "choose a deck"),
        ({"round-2-multiplier": "-1"}, "the multiplier: a whole number from 0 to 100"),
        ({"round-2-options": "chips=10"}, "options are JSON"),
        ({"round-1-minutes": "0"}, "time box"),
        ({"round-0-game": "", "round-1-game": "", "round-2-game": ""}, "at least one round"),
        ({"player-1": "", "handset-1": "", "player-2": "", "handset-2": ""}, "at least two players"),
    ]
    for change, message in cases:
        response = post(admin, "/night/plan", {**_plan(store), **change, "action": "start"})
        assert response.status_code == 400, change
        assert message in response.get_data(as_text=True), (change, message)
    assert link.commands == []
    link.answers["night_start"] = Result(False, "round 1 (sQuizz): sQuizz takes 2 to 8 players")
    response = post(admin, "/night/plan", {**_plan(store), "action": "start"})
    assert "The box refused to start the night: round 1 (sQuizz)" in response.get_data(as_text=True)


def test_a_run_sheet_is_saved_and_used_again(admin: FlaskClient, link: FakeLink, store: Store) -> None:
    _table(link)
    response = post(admin, "/night/plan", {**_plan(store), "name": "Fridays", "action": "save"})
    assert response.status_code == 302 and link.commands == []
    (sheet,) = store.runsheets()
    assert sheet["name"] == "Fridays" and [r["game"] for r in sheet["rounds"]] == ["confident", "buzzer", "allin"]
    assert "Fridays" in admin.get("/night/sheets").get_data(as_text=True)
    page = admin.get(f"/night/plan?sheet={sheet['id']}").get_data(as_text=True)
    assert 'name="round-1-title" value="Fastest finger"' in page and 'value="{&#34;chips&#34;: 10}"' in page
    assert [r.get("unseen", False) for r in sheet["rounds"]] == [False, True, False]  # issue 35: unseen only
    assert 'name="round-1-unseen" checked' in page and 'name="round-0-unseen" checked' not in page


def _stored_night(store: Store) -> int:
    """A night the real session and runner played and stored (three buzzer rounds, one stopped)."""
    session = Session(lambda: 100.0, store=store, flows=flow_factory)
    runner = NightRunner(session, store)
    runner.start({"Ann": "hs-1", "Bob": "hs-2", "Cat": "hs-3"},
                 [{"game": "buzzer", "title": "Warm-up"}, {"game": "buzzer", "title": "Final", "multiplier": 2,
                                                            "seats": ["Ann", "Bob"]}], "Friday night")
    for right in ("Cat", "Ann"):
        runner.start_round()
        session.flow_command("arm", {})
        handset = Handset(id={"Cat": "hs-3", "Ann": "hs-1"}[right], name=right, accepted=True, online=True)
        prompt, _ = session.prompt_for(handset)
        session.handle_input(handset.id, prompt["id"], "buzz", {"age_ms": 0})
        session.advance()
        session.flow_command("right", {})
        runner.finish_round()
    assert runner.engine is not None and runner.engine.finished
    assert runner.night_id is not None
    return runner.night_id


def test_results_per_round_and_total_as_page_csv_and_print(admin: FlaskClient, store: Store) -> None:
    night_id = _stored_night(store)
    page = admin.get(f"/night/{night_id}").get_data(as_text=True)
    assert "Friday night: results" in page and "1. Warm-up" in page and "2. Final (x2)*" in page
    rows = list(csv.reader(io.StringIO(admin.get(f"/night/{night_id}.csv").get_data().decode("utf-8-sig"))))
    assert rows == [
        ["place", "player", "round 1: Warm-up", "round 2: Final", "total"],
        ["1", "Ann", "1", "4", "5"],
        ["2", "Bob", "1", "2", "3"],
        ["2", "Cat", "3", "0", "3"],
    ]
    printed = admin.get(f"/night/{night_id}/print").get_data(as_text=True)
    assert "@page { size: A4" in printed and "<td>Ann</td>" in printed
    assert "Past nights" in admin.get("/night/").get_data(as_text=True)


def test_the_night_page_sends_the_night_controls(admin: FlaskClient, link: FakeLink, store: Store) -> None:
    session = Session(lambda: 100.0, flows=flow_factory)
    runner = NightRunner(session)
    runner.start({"Ann": "hs-1", "Bob": "hs-2", "Cat": "hs-3"},
                 [{"game": "buzzer"}, {"game": "buzzer", "title": "Music"}, {"game": "buzzer"}], "Live night")
    link.board_state = session.board_state([], lambda _: "#fff")
    page = admin.get("/night/").get_data(as_text=True)
    assert "Start the next round" in page and "Live night" in page and "Change seats" in page
    post(admin, "/night/command", {"cmd": "night_round"}, page="/night/")
    asked = post(admin, "/night/command", {"cmd": "night_skip", "round": "2"}, page="/night/").get_data(as_text=True)
    assert "Skip round 2?" in asked and 'name="round" value="2"' in asked and link.commands == [{"cmd": "night_round"}]
    post(admin, "/night/command", {"cmd": "night_skip", "round": "2", "confirmed": "yes"}, page="/night/")
    post(admin, "/night/command", {"cmd": "night_move", "round": "3", "before": "2"}, page="/night/")
    post(admin, "/night/command", {"cmd": "night_seat", "round": "3", "seat": ["Ann", "Cat"]}, page="/night/")
    post(admin, "/night/command", {"cmd": "night_interval", "minutes": "10"}, page="/night/")
    post(admin, "/night/command", {"cmd": "night_add", "add-game": "buzzer", "add-title": "Extra",
                                   "add-multiplier": "3"}, page="/night/")
    post(admin, "/night/command", {"cmd": "night_number", "player": "Ann", "number": "12"}, page="/night/")
    assert link.commands == [
        {"cmd": "night_round"}, {"cmd": "night_skip", "round": 2}, {"cmd": "night_move", "round": 3, "before": 2},
        {"cmd": "night_seat", "round": 3, "seats": ["Ann", "Cat"]}, {"cmd": "night_interval", "seconds": 600},
        {"cmd": "night_add", "plan": {"game": "buzzer", "title": "Extra", "multiplier": 3}},
        {"cmd": "night_number", "player": "Ann", "number": "12"},
    ]
    response = post(admin, "/night/command", {"cmd": "night_dance"}, page="/night/", follow_redirects=True)
    assert "Unknown night control" in response.get_data(as_text=True)


def test_the_buzzer_round_has_its_own_live_controls_with_shortcuts(admin: FlaskClient, link: FakeLink) -> None:
    link.board_state.update({"scene": "playing", "game": "buzzer", "can_advance": True,
                             "view": {"game": "buzzer", "phase": "waiting", "players": ["Ann", "Bob"],
                                      "scores": {"Ann": 0, "Bob": 0}}})
    page = admin.get("/live/").get_data(as_text=True)
    for label, key in (("Arm (A)", "a"), ("Right (R)", "r"), ("Wrong (W)", "w"), ("Next question (N)", "n"),
                       ("Close (C)", "c")):
        assert f'data-key="{key}"' in page and label in page
    assert 'value="right" data-key="r" class="primary big"\n              disabled' in page  # nobody answering
    for cmd in ("arm", "right", "wrong", "close"):
        post(admin, "/live/command", {"cmd": cmd}, page="/live/")
    assert [c["cmd"] for c in link.commands] == ["arm", "right", "wrong", "close"]


def test_the_night_page_knows_when_the_night_moved_on(admin: FlaskClient, link: FakeLink) -> None:
    """The night page did not refresh itself: a number typed on a handset or a round ending showed only
    after a reload. Its version (polled by night.js) changes with the night and only with it."""
    session = Session(lambda: 100.0, flows=flow_factory)
    runner = NightRunner(session)
    runner.start({"Ann": "hs-1", "Bob": "hs-2"}, [{"game": "buzzer", "seats": ["Ann", "Bob"]}], "Tied night")
    link.board_state = session.board_state([], lambda _: "#fff")
    page = admin.get("/night/").get_data(as_text=True)
    first = admin.get("/night/version").get_json()["version"]
    assert f'data-version="{first}"' in page and 'data-poll="/night/version"' in page
    assert admin.get("/night/version").get_json()["version"] == first  # nothing changed: the same
    runner.start_round()
    runner.finish_round()
    runner.tiebreak_card("Eiffel Tower?", "330")
    link.board_state = session.board_state([], lambda _: "#fff")
    card = admin.get("/night/version").get_json()["version"]
    assert card != first
    runner.enter_number("Ann", "320")  # as if from Ann's handset
    link.board_state = session.board_state([], lambda _: "#fff")
    after = admin.get("/night/version")
    assert after.get_json()["version"] not in (first, card)
    assert after.headers["Cache-Control"] == "no-store"
    page = admin.get("/night/").get_data(as_text=True)
    assert "Tie-break: <strong>Eiffel Tower?</strong>" in page
    assert "Bob's number" in page and "Ann's number" not in page


def test_results_say_how_each_round_ended(admin: FlaskClient, store: Store) -> None:
    """Issue 31.4: a round stopped at its card count read "finished early and scored as it stood", a round
    stopped with the Live page's Finish now was not marked, and a stopped round's game said "Played to the
    end" with no winner. Each round's ending now says what happened, and its game has its winner."""
    from tests.night.test_night_session import cards, confident_answer, handsets

    clock = [100.0]
    session = Session(lambda: clock[0], store=store, flows=flow_factory)
    runner = NightRunner(session, store, cards)
    hs = {name: h for name, h in handsets().items()}
    runner.start({p: h.id for p, h in hs.items()},
                 [{"game": "confident", "title": "Counted", "cards": 1}, {"game": "buzzer", "title": "Live stop"},
                  {"game": "buzzer", "title": "Whole"}], "Endings")
    runner.start_round()
    for player, (low, high) in {"Ann": ("9", "11"), "Bob": ("0", "100"), "Cat": ("50", "60")}.items():
        confident_answer(session, hs, player, low, high)
    session.advance()  # the last card's reveal
    runner.next()  # its card count: the round is over
    clock[0] += 10
    runner.next()
    clock[0] += 10
    runner.start_round()
    session.finish_now()  # the Live page's "Finish now and score"
    clock[0] += 10
    runner.next()
    clock[0] += 10
    runner.start_round()
    runner.finish_round()  # the night page's "Finish this round now"
    assert runner.night_id is not None
    page = admin.get(f"/night/{runner.night_id}").get_data(as_text=True)
    assert "1. Counted: stopped at its card count." in page
    assert "2. Live stop: finished early by the quizmaster and scored as it stood." in page
    assert "3. Whole: finished early by the quizmaster" in page
    counted = store.game(store.nights()[0].rounds[1])
    assert counted is not None and counted.result is not None and counted.result.get("winners") == ["Ann"]
    history = admin.get(f"/games/{counted.id}").get_data(as_text=True)
    assert "Finished early by the quizmaster" in history or "stopped" in history.lower()
    assert "Winner: <strong>Ann</strong>" in history and "a deck of" in history


@pytest.mark.parametrize(("name", "label"), [
    ("night_end", "End the night?"), ("night_abandon", "Abandon this round (it does not count)?"),
    ("night_finish", "Finish this round now and score it?"), ("night_skip", "Skip round 3?"),
])
def test_the_night_page_asks_before_what_cannot_be_taken_back(admin: FlaskClient, link: FakeLink, name: str,
                                                              label: str) -> None:
    """Issue 31.3: End the night, Abandon, Finish now and Skip acted on one click; they ask first, as the
    Live page does, and nothing is sent until the quizmaster says yes."""
    form = {"cmd": name, "round": "3"}
    asked = post(admin, "/night/command", form, page="/night/")
    page = asked.get_data(as_text=True)
    assert asked.status_code == 200 and f"<h1>{label}</h1>" in page and "No, go back" in page
    assert link.commands == []
    post(admin, "/night/command", {**form, "confirmed": "yes"}, page="/night/")
    assert [c["cmd"] for c in link.commands] == [name]

