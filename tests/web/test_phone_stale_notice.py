"""A refusal that comes from the phone's screen having moved on is said once, never left on the new screen
(issue 31, cosmetic: 'a stale "nothing to answer now" after a refused answer'). Through the Flask test client
with a fake MQTT client, as tests/web/test_phone_kinds.py does: the box refuses an answer, the phone's form
stays up for another try, the box moves on (the next screen is a waiting one), and the player taps Send on
the form still in front of them. The answer's own page says why nothing was sent; the waiting screen, polled
or pushed afterwards, carried that line for as long as it stayed up (until the next question)."""

from __future__ import annotations

from flask import Flask

from firmware import protocol
from tests.web.fakes import ClientFactory
from tests.web.test_phone_kinds import _answer, _inputs, _join, _prompt

RANGE = {"kind": "range", "title": "Q1", "text": "Legs on a spider?", "unit": "legs"}
WAITING = {"kind": "info", "title": "Locked in", "text": "Waiting for the others' ranges.", "wait": True}


def _refused(mqtt_deliver: object, handset_id: str) -> None:
    assert callable(mqtt_deliver)
    mqtt_deliver(protocol.ack_topic("webtest", handset_id),
                 protocol.encode(protocol.make_ack(1, False, "time is up", "p1")))


def test_a_tap_on_a_form_the_box_has_moved_past_is_said_once_not_left_on_the_next_screen(
        app: Flask, phone_clients: ClientFactory) -> None:
    client, mqtt, handset_id = _join(app, phone_clients)
    _prompt(mqtt, handset_id, "p1", RANGE)
    assert _answer(client, "p1", {"bottom": "6", "top": "10"})[0] == 200
    _refused(mqtt.deliver, handset_id)
    assert "Not accepted: time is up" in client.get("/phone/panel").get_data(as_text=True)  # the form is back
    _prompt(mqtt, handset_id, "p2", WAITING)  # the box moved on
    status, page = _answer(client, "p1", {"bottom": "7", "top": "9"})  # Send on the form still shown
    assert status == 400 and "that screen is old; look again" in page and "Waiting for the others" in page
    later = client.get("/phone/panel").get_data(as_text=True)
    assert "Waiting for the others" in later and "that screen is old" not in later
    assert len(_inputs(mqtt)) == 1  # nothing more was sent


def test_nothing_to_answer_is_said_once_when_the_same_screen_became_a_waiting_one(
        app: Flask, phone_clients: ClientFactory) -> None:
    """The box updated the refused prompt under its own id to a screen with nothing to answer (an update of
    a prompt keeps its id, protocol section 9): the tap on the old form is 'nothing to answer now', once."""
    client, mqtt, handset_id = _join(app, phone_clients)
    _prompt(mqtt, handset_id, "p1", RANGE)
    _answer(client, "p1", {"bottom": "6", "top": "10"})
    _refused(mqtt.deliver, handset_id)
    _prompt(mqtt, handset_id, "p1", WAITING)
    status, page = _answer(client, "p1", {"bottom": "7", "top": "9"})
    assert status == 400 and "nothing to answer now" in page
    later = client.get("/phone/panel").get_data(as_text=True)
    assert "Waiting for the others" in later and "nothing to answer now" not in later
    assert len(_inputs(mqtt)) == 1


def test_a_refusal_of_the_form_on_screen_stays_with_that_form(app: Flask, phone_clients: ClientFactory) -> None:
    """What the phone refuses on the form still on screen stays there until the next try (unchanged)."""
    client, mqtt, handset_id = _join(app, phone_clients)
    _prompt(mqtt, handset_id, "p1", RANGE)
    status, _ = _answer(client, "p1", {"bottom": "10", "top": "6"})
    assert status == 400
    assert "From is above To" in client.get("/phone/panel").get_data(as_text=True)
    assert _answer(client, "p1", {"bottom": "6", "top": "10"})[0] == 200
    assert "From is above To" not in client.get("/phone/panel").get_data(as_text=True)
