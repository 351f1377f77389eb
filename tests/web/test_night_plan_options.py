"""The night plan's options as fields with their limits, and seat counts checked when the plan is saved or
started (issue 31, 11): the options had to be typed as JSON, and 41 teams with a Confident? round (2-40)
were refused only when that round started."""

from __future__ import annotations

from flask.testing import FlaskClient

from appliance.infra.store import Store
from tests.web.conftest import post
from tests.web.fakes import FakeLink
from tests.web.test_night_web import _deck, _plan, _table


def test_each_games_options_are_fields_with_their_limits(admin: FlaskClient) -> None:
    page = admin.get("/night/plan").get_data(as_text=True)
    assert 'name="round-0-confident.target"' in page and 'min="1" max="10000"' in page
    assert 'name="round-0-allin.chips"' in page and 'name="round-0-poker.stack"' in page
    assert 'name="round-0-buzzer.lockout"' in page
    assert 'name="round-0-poker.first"' not in page  # who sits a round is chosen while the night runs


def test_fields_become_the_rounds_options(admin: FlaskClient, link: FakeLink, store: Store) -> None:
    _table(link)
    form = {**_plan(store), "round-2-options": "", "round-2-allin.chips": "12", "round-0-confident.target": "9",
            "round-1-buzzer.lockout": "no", "round-2-confident.target": "7",  # another game's field: ignored
            "action": "start"}
    response = post(admin, "/night/plan", form)
    assert response.status_code == 302, response.get_data(as_text=True)
    rounds = link.commands[-1]["rounds"]
    assert rounds[0]["options"] == {"target": 9}
    assert rounds[1]["options"] == {"lockout": False}
    assert rounds[2]["options"] == {"chips": 12}


def test_an_option_beyond_its_limit_is_refused_by_name(admin: FlaskClient, link: FakeLink, store: Store) -> None:
    _table(link)
    response = post(admin, "/night/plan", {**_plan(store), "round-2-allin.chips": "5000", "action": "start"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and "Round 3 (All In): Chips each: from 1 to 1000, please" in page
    assert link.commands == []


def test_seats_beyond_a_games_limit_are_refused_when_the_plan_is_saved(admin: FlaskClient, link: FakeLink,
                                                                      store: Store) -> None:
    players = {}
    for n in range(41):
        link.add_handset(f"hs-{n}", f"Team {n:02d}")
        players |= {f"player-{n}": f"Team {n:02d}", f"handset-{n}": f"hs-{n}"}
    form = {"title": "Big night", "round-0-game": "buzzer", "round-1-game": "confident",
            "round-1-deck": _deck(store, "estimation"), **players}
    for action in ("save", "start"):
        response = post(admin, "/night/plan", {**form, "name": "Big", "action": action})
        page = response.get_data(as_text=True).replace("&#39;", "'")
        assert response.status_code == 400, action
        assert "Round 2 (Confident?) seats 2 to 40 players; the night has 41." in page, action
    assert link.commands == [] and store.runsheets() == []
