"""The quizmaster's controls say what they do now and ask before they cut players off or end the game;
the Live page's answer card comes from the store; the TV in a browser; help, print view and error pages
(issue 20)."""

from __future__ import annotations

import io
import re

from flask import Flask
from flask.testing import FlaskClient

from appliance.games.dealt import DealtCard
from appliance.infra.store import Store
from appliance.session.session import setup_json
from tests.web.conftest import post
from tests.web.fakes import FakeLink
from tests.web.tables import answer, start


def _waiting(link: FakeLink) -> None:
    """Confident? with Ann's range in and Bob, Cat still answering."""
    flow = start("confident", {"target": 4})
    answer(flow, "Ann", {"bottom": "8", "top": "8"})
    link.board_state.update({"scene": "playing", "game": "confident", "can_advance": True, "waiting": True,
                             "seats": ["Ann", "Bob", "Cat"], "view": flow.board()})
    link.changed()


def test_next_names_who_it_cuts_off_and_asks_first(admin: FlaskClient, link: FakeLink) -> None:
    _waiting(link)
    page = admin.get("/live/").get_data(as_text=True)
    assert ">Close entries: Bob, Cat have not answered</button>" in page
    asked = post(admin, "/live/command", {"cmd": "next"}, page="/live/")
    assert asked.status_code == 200 and link.commands == []  # nothing sent before the confirmation
    text = asked.get_data(as_text=True)
    assert "Bob, Cat are still answering" in text and 'name="confirmed" value="yes"' in text
    assert post(admin, "/live/command", {"cmd": "next", "confirmed": "yes"}, page="/live/").status_code == 302
    assert link.commands == [{"cmd": "next"}]


def test_next_with_nobody_waiting_is_not_asked(admin: FlaskClient, link: FakeLink) -> None:
    _waiting(link)
    link.board_state["waiting"] = False
    link.changed()
    assert post(admin, "/live/command", {"cmd": "next"}, page="/live/").status_code == 302
    assert link.commands == [{"cmd": "next"}]


def test_both_endings_are_confirmed(admin: FlaskClient, link: FakeLink) -> None:
    _waiting(link)
    page = admin.get("/live/").get_data(as_text=True)
    assert 'value="finish">Finish now and score</button>' in page and ">Abandon the game</button>" in page
    for cmd, words in (("finish", "scored as it stands"), ("end", "no winner")):
        asked = post(admin, "/live/command", {"cmd": cmd}, page="/live/")
        assert asked.status_code == 200 and words in asked.get_data(as_text=True)
    assert link.commands == []
    post(admin, "/live/command", {"cmd": "finish", "confirmed": "yes"}, page="/live/")
    assert link.commands == [{"cmd": "finish"}]


def test_a_game_over_shows_its_ending_and_waits_for_nobody(admin: FlaskClient, link: FakeLink) -> None:
    _waiting(link)  # abandoned mid-question: the view still names the players who had not answered
    link.board_state.update({"scene": "results", "can_advance": False, "waiting": False, "ending": "abandoned"})
    link.changed()
    page = admin.get("/live/").get_data(as_text=True)
    assert "Game over" in page and "Abandoned by the quizmaster: no winner" in page
    assert "Waiting for" not in page


def test_the_answer_card_comes_from_the_stored_game(admin: FlaskClient, link: FakeLink, store: Store) -> None:
    flow = start("confident", {"target": 4})
    game_id = store.create_game("confident", setup_json(flow.setup), {"Ann": "hs-1"})
    card = flow.setup.cards[0].fields
    _waiting(link)
    link.admin["card"] = {"game_id": game_id, "index": 0}
    link.changed()
    page = admin.get("/live/").get_data(as_text=True)
    assert 'aria-label="Answer card"' in page
    assert f"Answer: <strong>{card['answer']}</strong>" in page
    board = json_text(link.board_state)
    assert f'"answer": "{card["answer"]}"' not in board  # the TV's state has no answer


def json_text(state: object) -> str:
    import json

    return json.dumps(state)


def test_the_tv_in_a_browser_needs_no_login_and_shows_the_board(setup_done: Flask, link: FakeLink) -> None:
    app_client = setup_done.test_client()  # not logged in
    _waiting(link)
    page = app_client.get("/tv")
    assert page.status_code == 200 and 'id="tv"' in page.get_data(as_text=True)
    image = app_client.get("/tv/board.png")
    assert image.mimetype == "image/png" and image.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert app_client.get("/tv/version").get_data(as_text=True) == str(link.version())
    assert app_client.get("/live/").status_code == 302  # the Live page still needs the login


def test_help_is_linked_from_every_admin_page(admin: FlaskClient) -> None:
    for url in ("/live/", "/games/new", "/handsets/", "/decks/", "/games/", "/password"):
        page = admin.get(url).get_data(as_text=True)
        assert 'href="/help"' in page, url
    assert "Finish now and score" in admin.get("/help").get_data(as_text=True)


def test_a_huge_game_id_is_a_styled_not_found(admin: FlaskClient) -> None:
    response = admin.get("/games/" + "9" * 40)
    assert response.status_code == 404 and "There is no such page" in response.get_data(as_text=True)


def test_the_413_page_says_the_forms_limit(admin: FlaskClient) -> None:
    form = admin.get("/decks/import").get_data(as_text=True)
    limit = re.search(r"at most (\d+) MB", form)
    assert limit is not None
    admin.application.config["DECK_UPLOAD_BYTES"] = 6 * 1024 * 1024  # the import's own limit, sized down
    big = post(admin, "/decks/import", {"file": (io.BytesIO(b"x" * (7 * 1024 * 1024)), "big.csv"), "name": "Big"},
               page="/decks/import")
    assert big.status_code == 413 and f"at most {limit.group(1)} MB" in big.get_data(as_text=True)


def test_a_player_back_on_another_phone_gets_the_seat_with_one_press(admin: FlaskClient, link: FakeLink) -> None:
    _waiting(link)
    link.board_state.update({
        "players": [{"name": "Cat", "handset": "hs-3", "colour": "#fff", "online": False, "seated": True},
                    {"name": "Cat-2", "handset": "phone-x", "colour": "#fff", "online": True, "seated": False}],
        "seats_away": ["Cat"]})
    link.admin["seat_codes"] = {"Cat": "1234"}  # the codes are the admin state's, never the board's
    link.changed()
    page = admin.get("/live/").get_data(as_text=True)
    assert "Give Cat's seat to Cat-2" in page
    done = post(admin, "/live/seats", {"player": "Cat", "handset": "phone-x", "back": "live"}, page="/live/")
    assert done.location == "/live/" and link.commands == [{"cmd": "seat", "player": "Cat", "handset": "phone-x"}]


def test_results_say_the_ending_and_have_a_print_view(admin: FlaskClient, store: Store) -> None:
    flow = start("confident", {"target": 4})
    stopped = store.create_game("confident", setup_json(flow.setup), {"Ann": "hs-1"})
    store.finish_game(stopped, {"winners": ["Ann"], "scores": {"Ann": 3}, "stopped": True})
    abandoned = store.create_game("confident", setup_json(flow.setup), {"Ann": "hs-1"})
    store.finish_game(abandoned, {"scores": {"Ann": 0}}, status="abandoned")
    page = admin.get(f"/games/{stopped}").get_data(as_text=True)
    assert "Finished early by the quizmaster: scored as it stood" in page and "?print=1" in page
    assert "Abandoned by the quizmaster: no winner" in admin.get(f"/games/{abandoned}").get_data(as_text=True)
    printed = admin.get(f"/games/{stopped}?print=1").get_data(as_text=True)
    assert '<body class="admin print">' in printed and "Winner" in printed


def test_a_phone_asks_for_a_seat_only_for_itself_and_hears_why_not(app: Flask, link: FakeLink) -> None:
    from tests.web.test_phone import _join
    from web.link import Result

    client, phone_id = _join(app, "Cat")
    _waiting(link)
    link.board_state.update({
        "players": [{"name": "Cat", "handset": "hs-3", "colour": "#fff", "online": False, "seated": True},
                    {"name": "Cat", "handset": phone_id, "colour": "#fff", "online": True, "seated": False}],
        "seats_away": ["Cat"]})
    link.changed()
    page = client.get("/phone").get_data(as_text=True)
    assert "Playing already, on a phone that went offline?" in page and "<option selected>Cat</option>" in page
    link.answers["seat"] = Result(False, "wrong seat code for Cat")
    done = post(client, "/phone/seat", {"player": "Cat", "code": "12 35", "handset": "someone-else"}, page="/phone")
    assert done.location == "/phone"
    assert link.commands == [{"cmd": "seat", "player": "Cat", "handset": phone_id, "code": "1235"}]
    assert "Seat code: wrong seat code for Cat" in client.get("/phone").get_data(as_text=True)
    post(client, "/phone/seat", {"player": "Cat", "code": "abcd"}, page="/phone")
    assert len(link.commands) == 1  # not even sent
    assert "type the 4 digits" in client.get("/phone").get_data(as_text=True)


def test_a_buzzer_answer_card_shows_the_answer_and_the_other_answers_that_count(
    admin: FlaskClient, link: FakeLink, store: Store
) -> None:
    fields = {"question": "Which river flows through Baghdad?", "answer": "The Tigris",
              "alternatives": ["Tigris", "Dijla"], "source": "Encyclopaedia Britannica, Tigris River"}
    flow = start("buzzer", {}, [DealtCard("buzzer-world/bz-0022", fields)])
    game_id = store.create_game("buzzer", setup_json(flow.setup), {"Ann": "hs-1"})
    _waiting(link)
    link.admin["card"] = {"game_id": game_id, "index": 0}
    link.changed()
    page = admin.get("/live/").get_data(as_text=True)
    assert "Answer: <strong>The Tigris</strong>" in page
    assert "Also accept: Tigris, Dijla" in page
    assert "Dijla" not in json_text(link.board_state)  # the TV's state has no answer
