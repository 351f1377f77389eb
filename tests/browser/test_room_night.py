"""The room's night, as a quizmaster starts it in chromium (issue 29): 24 handsets (simulated handsets over
the test's mosquitto, as the bench seats them) are at the table; the plan page lists a row for each of them,
says the night's and each game's seat limits beside the list with the count filled in, and starts a night of
24 teams whose first round, a Confident? round, seats all 24. Before the room, the page had 12 fixed rows: a
night of 24 could not be started from it. Screenshot: artifacts/web-screens/web-room-night-plan.png."""

from __future__ import annotations

import time
from typing import Any

import pytest

from appliance.box.sim import start_bots
from tests.browser.conftest import Box, _expect
from tests.browser.test_game_e2e import _first_run_and_login
from tests.conftest import connection_of

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]

TEAMS = 24


def _wait(predicate: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_a_night_of_24_teams_starts_from_the_plan_page(box: Box, browser: Any, mosquitto: Any, box_id: str) -> None:
    expect = _expect()
    bots = start_bots(box_id, connection_of(mosquitto), TEAMS, think=(0.5, 1.5))
    try:
        _wait(lambda: sum(1 for h in box.hub.registry if h.accepted and h.online) == TEAMS)
        admin = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        _first_run_and_login(box, admin)
        admin.goto(box.url + "/night/plan")
        rows = admin.locator("#seats li")
        assert rows.count() >= TEAMS  # a row per handset at the table, not 12
        for seat in range(TEAMS):
            assert admin.locator(f"input[name=player-{seat}]").input_value() != ""
            assert admin.locator(f"select[name=handset-{seat}]").input_value() != ""
        limit = admin.locator("#seat-limit")
        expect(limit).to_contain_text("A night seats 2 to 256 players")
        expect(limit).to_contain_text("Confident? 2–40")
        expect(limit).to_contain_text("Buzzer Round 2–256")
        expect(admin.locator("#seat-count")).to_have_text(f"{TEAMS} players are filled in.")
        admin.fill("input[name=title]", "Room night")
        admin.select_option("select[name=round-0-game]", "confident")
        deck = admin.locator("select[name=round-0-deck] option[data-type=estimation]").first.get_attribute("value")
        admin.select_option("select[name=round-0-deck]", deck)
        admin.fill("input[name=round-0-cards]", "2")
        admin.select_option("select[name=round-1-game]", "buzzer")
        admin.fill("input[name=round-1-cards]", "1")
        box.shot(admin, "room-night-plan")
        admin.click("#start-night")
        expect(admin.locator(".flash")).to_contain_text("The night has started", timeout=10_000)
        night = box.hub.session.night
        assert night is not None and night.engine is not None and len(night.engine.players) == TEAMS
        admin.goto(box.url + "/night/")
        admin.click("button:has-text('Start the next round')")
        expect(admin.locator(".flash")).to_contain_text(": done", timeout=10_000)
        _wait(lambda: box.hub.session.setup is not None and box.hub.session.state == "playing")
        setup = box.hub.session.setup
        assert setup is not None and setup.game == "confident" and len(setup.players) == TEAMS
        assert len(box.hub.session.seats) == TEAMS  # each team on its own handset
    finally:
        for bot in bots:
            bot.stop()
