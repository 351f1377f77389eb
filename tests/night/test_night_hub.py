"""The hub's night commands and the admin page's answer matching (a real broker): each command's result
carries the command's id, so a late answer to an earlier command is never taken for this one's."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest

from appliance.edge.broker import RunningBroker
from appliance.edge.hub import Hub
from appliance.flows import flow_factory
from appliance.session.session import Session
from tests.conftest import connection_of


@pytest.fixture
def hub(any_broker: RunningBroker, box_id: str) -> Iterator[Hub]:
    with Hub(box_id, Session(time.monotonic, flows=flow_factory), connection_of(any_broker)) as running:
        yield running


def test_every_admin_result_names_its_command(hub: Hub) -> None:
    hub._admin(json.dumps({"cmd": "night_skip", "round": 1, "id": "tok-1"}).encode())
    assert hub.admin.last == {**hub.admin.last, "ok": False, "msg": "no night is running", "id": "tok-1"}
    hub._admin(json.dumps({"cmd": "night_skip", "round": "one", "id": "tok-2"}).encode())
    assert hub.admin.last == {**hub.admin.last, "ok": False, "id": "tok-2", "code": "bad_command"}
    hub._admin(json.dumps({"cmd": "lobby", "id": "tok-3"}).encode())
    assert hub.admin.last == {"ok": True, "msg": "lobby: done", "id": "tok-3"}


def test_night_commands_reach_the_night(hub: Hub) -> None:
    hub.registry.hello("h1", "Ann", 0.0)[0].accepted = True
    hub.registry.hello("h2", "Bob", 0.0)[0].accepted = True
    seats = [{"player": "Ann", "handset": "h1"}, {"player": "Bob", "handset": "h2"}]
    answer = hub.command({"cmd": "night_start", "seats": seats, "rounds": [{"game": "buzzer"}], "title": "Hub night"})
    assert answer == {"ok": True, "msg": "the night starts with 1 round"}
    assert hub.session.night is not None and hub.session.night.engine is not None
    hub.command({"cmd": "next"})  # between rounds the host's next starts the round
    assert hub.session.state == "playing" and hub.session.setup is not None and hub.session.setup.game == "buzzer"
    hub.command({"cmd": "night_finish"})
    assert hub.session.night.engine.phase == "tiebreak"  # nobody scored: both level for first


def _night_hub() -> tuple[Hub, list[dict[str, str]]]:
    from appliance.edge.mqtt import Connection

    # never started: commands only
    hub = Hub("nightbox", Session(time.monotonic, flows=flow_factory), Connection("127.0.0.1", 1))
    for hid, name in (("h1", "Ann"), ("h2", "Bob"), ("h3", "Cat")):
        handset = hub.registry.hello(hid, name, 0.0)[0]
        handset.accepted = handset.online = True
    seats = [{"player": h.name, "handset": h.id} for h in hub.registry]
    hub.command({"cmd": "night_start", "seats": seats, "rounds": [{"game": "buzzer"}, {"game": "buzzer"}]})
    return hub, seats


def test_a_one_off_game_cannot_start_while_a_night_runs() -> None:
    """Between a night's rounds the session is in the lobby: a one-off game started there (the demo's
    autopilot did) was then finished as the night's next round, and refused ("the Buzzer Round round's
    log does not play again: unknown buzzer action kind 'question'"), found by a security audit."""
    from appliance.errors import QuizboxError

    hub, seats = _night_hub()
    start = {"cmd": "start", "game": "confident", "seats": seats,
             "cards": [{"id": f"c{n}", "question": "Legs of a spider?", "answer": "8"} for n in range(3)]}
    with pytest.raises(QuizboxError, match="a quiz night is running"):
        hub.command(start)
    hub.command({"cmd": "next"})  # the night's round 1
    hub.command({"cmd": "night_finish"})
    with pytest.raises(QuizboxError, match="a quiz night is running"):
        hub.command(start)  # between rounds too
    hub.command({"cmd": "night_end"})
    assert hub.command(start)["ok"]  # once the night is over, any game


def test_the_demo_autopilot_leaves_a_night_to_the_quizmaster() -> None:
    import threading
    from types import SimpleNamespace

    from appliance.box.demo import Autopilot

    hub, _ = _night_hub()
    pilot = Autopilot(SimpleNamespace(hub=hub), 3, "confident", threading.Event())  # type: ignore[arg-type]
    pilot.step()
    assert pilot.retired and hub.session.state == "lobby" and hub.session.flow is None


def test_a_seat_taken_back_with_its_code_in_a_round_holds_in_the_next_round() -> None:
    """The admin page's seat command (a player's seat code from a new phone) in a night's round: the next
    round seats the player on the new handset (a browser audit found it back on the departed one)."""
    hub, _ = _night_hub()
    hub.command({"cmd": "next"})  # the night's round 1
    cat = hub.registry.get("h3")
    assert cat is not None
    cat.online = False
    new = hub.registry.hello("h4", "Cat-2", 0.0)[0]
    new.accepted = new.online = True
    code = hub.session.seat_codes["Cat"]
    assert hub.command({"cmd": "seat", "player": "Cat", "handset": "h4", "code": code})["ok"]
    hub.command({"cmd": "night_finish"})
    hub.session.clock = lambda: time.monotonic() + 10  # past the final screen's grace
    hub.command({"cmd": "next"})  # round 1's final screen makes way for the standing (rules.md Quiz night 6)
    hub.session.clock = lambda: time.monotonic() + 20  # past the standing's grace before the next round
    hub.command({"cmd": "next"})  # round 2
    assert hub.session.state == "playing" and hub.session.seats["Cat"] == "h4"
