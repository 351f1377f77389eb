"""The league's plans on a member box's night page: offered when no night runs; a league night seats the
teams and starts with the plan's run-sheet and ``league_plan`` (its cards put in the box's decks first);
bad input (too few teams, a damaged deck in the plan, an unknown plan) is refused, said why, nothing sent."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from appliance.games.registry import GAMES as SPECS
from appliance.infra.league_store import LeagueStore
from appliance.infra.store import Store
from tests.web.conftest import post
from tests.web.fakes import FakeLink


def plan_with_deck(store: Store, plan_id: str = "week-1") -> dict[str, Any]:
    kind = SPECS["confident"].deck
    shipped = next(d for d in store.decks() if d["type"] == kind and d["cards"])
    data = store.deck(shipped["id"])
    assert data is not None
    plan = {"v": 1, "plan": plan_id, "title": "Week 1", "cards": {"league-w1": {**data, "id": "league-w1"}},
            "rounds": [{"game": "buzzer", "title": "Fastest finger", "cards": 2},
                       {"game": "confident", "title": "Confident?", "deck": "league-w1", "cards": 2}]}
    LeagueStore(store).save_plan(plan_id, plan)
    return plan


def test_a_league_plan_is_offered_and_starts_a_league_night(admin: FlaskClient, link: FakeLink,
                                                            store: Store) -> None:
    assert "League nights" not in admin.get("/night/").get_data(as_text=True)
    plan = plan_with_deck(store)
    page = admin.get("/night/").get_data(as_text=True)
    assert "League nights" in page and "/night/league/week-1" in page
    link.add_handset("hs-a", "Owls")
    link.add_handset("hs-b", "Bats")
    form = admin.get("/night/league/week-1").get_data(as_text=True)
    assert "Fastest finger" in form and 'value="Owls"' in form

    few = post(admin, "/night/league/week-1", {"player-0": "Owls", "handset-0": "hs-a"}, page="/night/league/week-1")
    assert few.status_code == 400 and "at least two teams" in few.get_data(as_text=True)
    assert link.commands == [] and store.deck("league-w1") is None

    started = post(admin, "/night/league/week-1", {"player-0": "Owls", "handset-0": "hs-a", "player-1": "Bats",
                                                   "handset-1": "hs-b"}, page="/night/league/week-1")
    assert started.status_code == 302
    sent = link.commands[-1]
    assert sent["cmd"] == "night_start" and sent["league_plan"] == "week-1" and sent["rounds"] == plan["rounds"]
    assert [s["player"] for s in sent["seats"]] == ["Owls", "Bats"]
    assert store.deck("league-w1") is not None  # the plan's cards are the box's to deal


def test_a_damaged_deck_or_an_unknown_plan_is_refused(admin: FlaskClient, link: FakeLink, store: Store) -> None:
    plan = plan_with_deck(store, "week-2")
    plan["cards"]["league-w1"] = {"id": "league-w1", "name": "Broken", "type": "numeric", "cards": [{"x": 1}]}
    LeagueStore(store).save_plan("week-2", plan)
    link.add_handset("hs-a", "Owls")
    link.add_handset("hs-b", "Bats")
    bad = post(admin, "/night/league/week-2", {"player-0": "Owls", "handset-0": "hs-a", "player-1": "Bats",
                                               "handset-1": "hs-b"}, page="/night/league/week-2")
    assert bad.status_code == 400 and "deck &#39;league-w1&#39; cannot be used" in bad.get_data(as_text=True)
    assert link.commands == [] and store.deck("league-w1") is None
    assert admin.get("/night/league/nope").status_code == 404
