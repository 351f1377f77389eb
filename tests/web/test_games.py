"""Game set-up (the start command sent to the appliance), results and their CSV export."""

from __future__ import annotations

import csv
import io
import re

from flask.testing import FlaskClient

from appliance.infra.store import Store
from tests.web.conftest import post
from tests.web.fakes import FakeLink
from web.link import Result


def _table(link: FakeLink) -> None:
    link.add_handset("hs-1", "Ann")
    link.add_handset("hs-2", "Bob")
    link.add_handset("phone-abc", "Cat", layout="touch")
    link.add_handset("hs-9", "Zed", accepted=False)


def _deck_of(store: Store, kind: str) -> str:
    return str(next(d["id"] for d in store.decks() if d["type"] == kind))


def _estimation_deck(store: Store) -> str:
    return str(next(d["id"] for d in store.decks() if d["type"] == "estimation"))


def test_the_setup_form_offers_accepted_handsets_in_join_order(admin: FlaskClient, link: FakeLink) -> None:
    _table(link)
    page = admin.get("/games/new").get_data(as_text=True)
    assert 'name="player-0" value="Ann"' in page and 'name="player-2" value="Cat"' in page
    assert "hs-9" not in page  # not accepted yet: not offered
    assert "Final Hurdle" in page and "Starting chips" in page
    # each seat row: its handset list, and the buttons that move it (a game's seats are clockwise)
    assert page.count('<li class="seat">') == page.count('aria-label="Move up"') > 0
    night = admin.get("/night/plan").get_data(as_text=True)  # the night's players: the same rows, not moved
    assert night.count('<li class="seat">') > 0 and 'aria-label="Move up"' not in night


def test_start_sends_game_options_seats_deck_and_filters(admin: FlaskClient, link: FakeLink, store: Store) -> None:
    _table(link)
    deck = _estimation_deck(store)
    form = {"game": "confident", "confident.target": "10", "confident.variant:nail_it": "on",
            "confident.variant:minus_points": "on", "confident.fast_play_seconds": "",
            "player-0": "Cat", "handset-0": "phone-abc", "player-1": "Ann", "handset-1": "hs-1",
            "player-2": "Bob & Dan", "handset-2": "hs-2", "deck": deck,
            "category": ["space", "history"], "difficulty": ["easy"], "family": "on", "tags": "moon, mars"}
    response = post(admin, "/games/new", form)
    assert response.status_code == 302 and response.location == "/live/"
    assert link.commands == [{
        "cmd": "start", "game": "confident", "deck": deck,
        "options": {"target": 10, "variants": ["nail_it", "minus_points"]},
        "seats": [{"player": "Cat", "handset": "phone-abc"}, {"player": "Ann", "handset": "hs-1"},
                  {"player": "Bob & Dan", "handset": "hs-2"}],
        "filters": {"category": ["space", "history"], "difficulty": ["easy"], "family": True,
                    "tags": ["moon", "mars"]},
    }]


def test_new_game_shows_the_engines_seat_limits_and_offers_the_buzzer(admin: FlaskClient, link: FakeLink,
                                                                    store: Store) -> None:
    """Issue 14: the page offered Confident? 2-8 seats while its engine seats 12; the buzzer was missing.
    The room (issue 29): Confident? seats 2-40."""
    _table(link)
    page = admin.get("/games/new").get_data(as_text=True)
    assert re.search(r"Confident\?</strong> <span class=\"muted\">[^<]*2–40 players", page)
    assert 'value="buzzer"' in page and "Early buzzes lock a player out" in page
    form = {"game": "buzzer", "buzzer.lockout": "no", "buzzer.points_right": "2", "buzzer.points_wrong": "-1",
            "player-0": "Ann", "handset-0": "hs-1", "player-1": "Bob", "handset-1": "hs-2",
            "deck": _deck_of(store, "buzzer")}  # the buzzer round plays buzzer cards (issue 35)
    assert post(admin, "/games/new", form).status_code == 302
    assert link.commands[-1]["options"] == {"lockout": False, "points_right": 2, "points_wrong": -1}


def test_poker_options_become_the_engine_option_shapes(admin: FlaskClient, link: FakeLink, store: Store) -> None:
    _table(link)
    form = {"game": "poker", "poker.stack": "500", "poker.ante": "5", "poker.ante_unit": "questions",
            "poker.ante_every": "3", "poker.first": "Bob", "player-0": "Ann", "handset-0": "hs-1",
            "player-1": "Bob", "handset-1": "hs-2", "deck": _estimation_deck(store)}
    assert post(admin, "/games/new", form).status_code == 302
    assert link.commands[-1]["options"] == {"stack": 500, "ante": 5, "ante_every": {"questions": 3}, "first": "Bob"}


def test_bad_setups_are_explained_and_send_nothing(admin: FlaskClient, link: FakeLink, store: Store) -> None:
    _table(link)
    deck = _estimation_deck(store)
    allin_deck = next(d["id"] for d in store.decks() if d["type"] == "allin")
    seats = {"player-0": "Ann", "handset-0": "hs-1", "player-1": "Bob", "handset-1": "hs-2"}
    cases = [
        ({"game": "confident", **seats, "deck": allin_deck}, "plays estimation cards"),
        ({"game": "confident", **seats}, "Choose a deck"),
        ({"game": "confident", "player-0": "Ann", "handset-0": "hs-1", "deck": deck}, "needs 2 to 40 seats"),
        ({"game": "confident", **seats, "player-1": "Ann", "deck": deck}, "seated twice"),
        ({"game": "confident", **seats, "handset-1": "hs-1", "deck": deck}, "already has a seat"),
        ({"game": "confident", **seats, "handset-1": "hs-9", "deck": deck}, "not at the table"),
        ({"game": "confident", **seats, "player-2": "Cat", "deck": deck}, "choose a handset"),
        ({"game": "confident", **seats, "confident.target": "ten", "deck": deck}, "a whole number"),
        ({"game": "squizz", **seats, "squizz.first_reader": "Nobody",
          "deck": next(d["id"] for d in store.decks() if d["type"] == "squizz")}, "is not seated"),
        ({"game": "chess", **seats, "deck": deck}, "Choose a game"),
    ]
    for form, reason in cases:
        response = post(admin, "/games/new", form)
        assert response.status_code == 400, reason
        assert reason in response.get_data(as_text=True).replace("&#39;", "'"), reason
    assert link.commands == []


def test_a_refusal_by_the_box_is_shown(admin: FlaskClient, link: FakeLink, store: Store) -> None:
    _table(link)
    link.answers["start"] = Result(False, "Confident needs 3 or more players")
    form = {"game": "confident", "player-0": "Ann", "handset-0": "hs-1", "player-1": "Bob", "handset-1": "hs-2",
            "deck": _estimation_deck(store)}
    response = post(admin, "/games/new", form)
    assert response.status_code == 400
    assert "refused to start the game: Confident needs 3 or more players" in response.get_data(as_text=True)
    link.online = False
    offline = post(admin, "/games/new", form)
    assert "not running" in offline.get_data(as_text=True)


def _finished_game(store: Store) -> int:
    game_id = store.create_game("confident", {"game": "confident", "players": ["=Ann", "Bob"], "options": {},
                                              "cards": [{"id": "c1", "fields": {}}]},
                                {"=Ann": "hs-1", "Bob": "hs-2"})
    store.append_actions(game_id, 0, [{"player": "Bob"}])
    store.finish_game(game_id, {"scores": {"=Ann": -2, "Bob": 16}, "winners": ["Bob"]})
    return game_id


def test_results_history_and_csv_export(admin: FlaskClient, store: Store) -> None:
    game_id = _finished_game(store)
    history = admin.get("/games/").get_data(as_text=True)
    assert f'href="/games/{game_id}"' in history and "Bob" in history
    page = admin.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Winner: <strong>Bob</strong>" in page and ">16<" in page
    rows = list(csv.reader(io.StringIO(admin.get("/games/history.csv").get_data().decode("utf-8-sig"))))
    assert rows[0] == ["game_id", "game", "status", "started", "ended", "seat", "player", "handset", "points",
                       "winner"]
    assert [r[6] for r in rows[1:]] == ["'=Ann", "Bob"]  # formula injection neutralised
    assert [r[8] for r in rows[1:]] == ["-2", "16"]  # a negative score stays a number
    assert [r[9] for r in rows[1:]] == ["no", "yes"]
    one = admin.get(f"/games/{game_id}.csv")
    assert one.headers["Content-Disposition"] == f'attachment; filename="quizbox-game-{game_id}.csv"'
    assert one.headers["Content-Type"] == "text/csv; charset=utf-8"  # once (it was sent twice)
    assert admin.get("/games/999").status_code == 404
    assert admin.get("/games/999.csv").status_code == 404


def test_the_buzzer_round_needs_no_deck_and_other_games_still_do(admin: FlaskClient, link: FakeLink,
                                                               store: Store) -> None:
    """Issue 31, 12: New game demanded a deck for the buzzer round, which night.md says needs none."""
    _table(link)
    seats = {"player-0": "Ann", "handset-0": "hs-1", "player-1": "Bob", "handset-1": "hs-2"}
    response = post(admin, "/games/new", {"game": "buzzer", **seats})
    assert response.status_code == 302, response.get_data(as_text=True)
    assert link.commands[-1]["game"] == "buzzer" and "deck" not in link.commands[-1]
    refused = post(admin, "/games/new", {"game": "confident", **seats})
    assert refused.status_code == 400 and "Choose a deck." in refused.get_data(as_text=True)
    gone = post(admin, "/games/new", {"game": "buzzer", "deck": "no-such-deck", **seats})
    assert gone.status_code == 400 and "That deck is gone" in gone.get_data(as_text=True)
