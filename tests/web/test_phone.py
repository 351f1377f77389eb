"""Phone handsets through the Flask test client, with fake MQTT clients: join, a prompt and its answer,
acks, the signed cookie binding, idle links and limits (every prompt kind: test_phone_kinds.py)."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient

from firmware import protocol
from tests.web.conftest import post, services
from tests.web.fakes import ClientFactory, FakeClient, FakeLink
from web.phones import PHONE_FIRMWARE

RANGE = {"v": 1, "id": "p7", "kind": "range", "title": "Q1", "text": "Legs on a spider?", "unit": "legs",
         "boosts": {"copy": ["Bob"], "swap": ["Bob", "Cat"], "double": True}}


def _join(app: Flask, name: str = "Ann") -> tuple[FlaskClient, str]:
    client = app.test_client()
    response = post(client, "/join", {"name": name}, page="/join")
    assert response.status_code == 302 and response.location == "/phone"
    handset_id = re.search(r"phone-[a-z0-9]{8}", client.get("/phone").get_data(as_text=True))
    page = client.get("/phone").get_data(as_text=True)
    assert name in page
    ids = [p for p, phone in services(app).phones._phones.items() if phone.name == name]  # noqa: SLF001
    assert len(ids) == 1 and (handset_id is None or handset_id.group(0) == ids[0])
    return client, ids[0]


def _inputs(client: FakeClient) -> list[dict[str, object]]:
    return [json.loads(p) for t, p, _ in client.published if t.endswith("/input")]


def test_join_says_hello_with_the_touch_layout(app: Flask, phone_clients: ClientFactory) -> None:
    _, handset_id = _join(app)
    mqtt = phone_clients.latest(handset_id)
    assert mqtt.availability.topic == protocol.status_topic("webtest", handset_id)
    hello = next(json.loads(p) for t, p, _ in mqtt.published if t.endswith("/hello"))
    assert hello == {"v": 1, "id": handset_id, "fw": "qb-1.0", "layout": "touch", "name": "Ann",
                     "clock": hello["clock"], "results": True}
    assert protocol.prompt_topic("webtest", handset_id) in mqtt.topics


def test_a_prompt_shows_and_an_answer_goes_out_as_protocol_v1(app: Flask, phone_clients: ClientFactory) -> None:
    client, handset_id = _join(app)
    mqtt = phone_clients.latest(handset_id)
    mqtt.deliver(protocol.prompt_topic("webtest", handset_id), json.dumps(RANGE).encode())
    page = client.get("/phone/panel").get_data(as_text=True)
    assert "Legs on a spider?" in page and 'name="bottom"' in page and "Double my points" in page
    response = post(client, "/phone/answer", {"prompt": "p7", "bottom": "6", "top": "3,000", "double": "on"},
                    page="/phone", headers={"X-Requested-With": "fetch"})
    assert response.status_code == 200 and "Sending" in response.get_data(as_text=True)
    (sent,) = _inputs(mqtt)
    assert sent["seq"] == 1 and sent["prompt"] == "p7" and sent["kind"] == "range"
    assert sent["data"] == {"bottom": "6", "top": "3000", "double": True}
    mqtt.deliver(protocol.ack_topic("webtest", handset_id),
                 protocol.encode(protocol.make_ack(1, True, "locked 6 to 3000", "p7")))
    assert "Locked in: locked 6 to 3000" in client.get("/phone/panel").get_data(as_text=True)


def test_a_phone_gives_its_acked_answer_back_to_a_restarted_box(app: Flask, phone_clients: ClientFactory) -> None:
    """Issue 38: the quiz program restarts from its good copy while the admin page (the phones' MQTT client)
    stays up. The phone's core (the firmware's) hears the new boot and says hello with its acked answer itself,
    not only its seq and prompt, until a prompt asks something else."""
    client, handset_id = _join(app)
    mqtt = phone_clients.latest(handset_id)
    assert protocol.appliance_heartbeat_topic("webtest") in mqtt.topics
    beat = protocol.appliance_heartbeat_topic("webtest")
    mqtt.deliver(beat, protocol.encode(protocol.make_heartbeat(1, "aaaaaa")))
    mqtt.deliver(protocol.prompt_topic("webtest", handset_id), json.dumps(RANGE).encode())
    post(client, "/phone/answer", {"prompt": "p7", "bottom": "6", "top": "8"}, page="/phone",
         headers={"X-Requested-With": "fetch"})
    mqtt.deliver(protocol.ack_topic("webtest", handset_id), protocol.encode(protocol.make_ack(1, True, "ok", "p7")))
    mqtt.deliver(beat, protocol.encode(protocol.make_heartbeat(2, "aaaaaa")))  # the same box: nothing to say
    hellos = [json.loads(p) for t, p, _ in mqtt.published if t.endswith("/hello")]
    mqtt.deliver(beat, protocol.encode(protocol.make_heartbeat(3, "bbbbbb")))  # the box restarted
    hello = [json.loads(p) for t, p, _ in mqtt.published if t.endswith("/hello")][len(hellos)]
    assert hello["acked"] == {"seq": 1, "prompt": "p7", "kind": "range", "data": {"bottom": "6", "top": "8"},
                              "mark": protocol.prompt_mark(RANGE)}
    assert protocol.parse_hello(handset_id, hello)["acked"]["data"] == {"bottom": "6", "top": "8"}


def test_the_cookie_binds_a_browser_to_its_own_handset(app: Flask, phone_clients: ClientFactory) -> None:
    ann, ann_id = _join(app, "Ann")
    bob, bob_id = _join(app, "Bob")
    assert ann_id != bob_id
    for handset_id in (ann_id, bob_id):
        phone_clients.latest(handset_id).deliver(protocol.prompt_topic("webtest", handset_id),
                                                 json.dumps(RANGE).encode())
    # Bob's browser can only ever answer as Bob, whatever it sends
    post(bob, "/phone/answer", {"prompt": "p7", "bottom": "1", "top": "2", "id": ann_id, "handset": ann_id},
         page="/phone")
    assert _inputs(phone_clients.latest(ann_id)) == []
    assert len(_inputs(phone_clients.latest(bob_id))) == 1
    # a cookie that was not signed by this server is not a phone
    stranger = app.test_client()
    stranger.set_cookie("quizbox", "eyJwaG9uZSI6InBob25lLWFhYWFhYWFhIn0.forged.sig")
    assert stranger.get("/phone").location == "/join"
    assert stranger.get("/phone/panel").status_code == 410


def test_polling_answers_204_until_something_changes(app: Flask, phone_clients: ClientFactory) -> None:
    client, handset_id = _join(app)
    version = services(app).phones.get(handset_id).version  # type: ignore[union-attr]
    assert client.get(f"/phone/panel?v={version}").status_code == 204
    phone_clients.latest(handset_id).deliver(protocol.prompt_topic("webtest", handset_id), json.dumps(RANGE).encode())
    assert client.get(f"/phone/panel?v={version}").status_code == 200


def test_an_idle_phone_goes_offline_and_comes_back_on_its_next_poll(app: Flask, phone_clients: ClientFactory) -> None:
    client, handset_id = _join(app)
    phones = services(app).phones
    phone = phones.get(handset_id)
    assert phone is not None
    first = phone_clients.latest(handset_id)
    phone.last_poll -= phones.idle_seconds + 1
    phones.reap()
    assert first.stopped and first.published[-1] == (protocol.status_topic("webtest", handset_id), "offline", True)
    client.get("/phone/panel")
    second = phone_clients.latest(handset_id)
    assert second is not first and second.connected.is_set()
    assert any(t.endswith("/hello") for t, _, _ in second.published)
    phone.last_poll -= phones.forget_seconds + 1
    phones.reap()
    assert phones.get(handset_id) is None
    client.get("/phone/panel")  # the signed cookie brings the same handset id back
    assert phones.get(handset_id) is not None


def test_phone_slots_are_limited(app: Flask) -> None:
    app.config["MAX_PHONES"] = 2
    services(app).phones.max_phones = 2
    _join(app, "Ann")
    _join(app, "Bob")
    third = app.test_client()
    response = post(third, "/join", {"name": "Cat"}, page="/join")
    assert response.status_code == 400 and "Every phone place is taken" in response.get_data(as_text=True)
    assert len(services(app).phones) == 2


def test_join_names_and_join_rate_are_checked(app: Flask) -> None:
    client = app.test_client()
    for name, reason in (("", "Type your name"), ("x" * 25, "At most 24"), ("a\u0007b", "Letters")):
        response = post(client, "/join", {"name": name}, page="/join")
        assert response.status_code == 400 and reason in response.get_data(as_text=True)
    assert len(services(app).phones) == 0
    services(app).phones.per_address = 100  # the join rate alone (places per address: test_admin_attacks)
    for n in range(6):
        fresh = app.test_client()
        assert post(fresh, "/join", {"name": f"P{n}"}, page="/join").status_code == 302
    late = app.test_client()
    refused = post(late, "/join", {"name": "P7"}, page="/join").get_data(as_text=True)
    assert "Too many phones joined from this network address" in refused  # the limit is the address's
    assert "this phone" not in refused  # (an audit: it said "from this phone" to a phone joining first)


def test_removed_and_leaving_phones_must_join_again(admin: FlaskClient, app: Flask, phone_clients: ClientFactory,
                                                   link: object) -> None:
    client, handset_id = _join(app)
    post(admin, f"/handsets/{handset_id}/identify")
    assert "identify" in client.get("/phone/panel").get_data(as_text=True)
    post(admin, f"/handsets/{handset_id}/remove")
    assert phone_clients.latest(handset_id).stopped
    assert client.get("/phone").location == "/join"
    other, other_id = _join(app, "Bob")
    # leaving asks first (issue 20): the first press only opens the confirmation, the phone stays
    assert post(other, "/phone/leave", page="/phone").location == "/phone/leave"
    assert "Yes, leave" in other.get("/phone/leave").get_data(as_text=True)
    assert services(app).phones.get(other_id) is not None
    assert post(other, "/phone/leave", {"confirmed": "yes"}, page="/phone").location == "/join"
    assert services(app).phones.get(other_id) is None
    assert other.get("/phone").location == "/join"


def test_a_phone_that_left_is_not_offered_for_a_seat(admin: FlaskClient, app: Flask, phone_clients: ClientFactory,
                                                     link: FakeLink) -> None:
    """An audit: a phone that chose "Yes, leave" was still in every seat's list of a new game and a new
    night ("... · offline"), so a player could be seated on a phone nobody holds any more."""
    stays, stays_id = _join(app, "Ann")
    leaves, leaves_id = _join(app, "Bob")
    for handset_id, name in ((stays_id, "Ann"), (leaves_id, "Bob")):  # as the hub lists them once they said hello
        link.add_handset(handset_id, name, firmware=PHONE_FIRMWARE, layout="touch")
    link.add_handset("hs-1", "Cat", online=False)  # a handset that is off: still offered, it can come back
    assert post(leaves, "/phone/leave", {"confirmed": "yes"}, page="/phone").location == "/join"
    for page in ("/games/new", "/night/plan"):
        text = admin.get(page).get_data(as_text=True)
        assert stays_id in text and "hs-1" in text and leaves_id not in text, page
    refused = post(admin, "/games/new", {"game": "confident", "player-0": "Bob", "handset-0": leaves_id,
                                         "player-1": "Ann", "handset-1": stays_id})
    assert refused.status_code == 400 and not link.commands


def test_a_phone_given_another_players_seat_says_whose_seat_it_plays(app: Flask, link: FakeLink) -> None:
    """An audit: after "Move Chloe here" onto Dan's phone, the phone played Chloe's hand under the header
    "Dan" and never said it held Chloe's seat."""
    client, handset_id = _join(app, "Dan")
    link.board_state.update({"scene": "playing", "players": [
        {"name": "Chloe", "handset": handset_id, "seated": True, "online": True}]})
    link.changed()
    panel = client.get("/phone/panel").get_data(as_text=True)
    assert "in the seat of Chloe" in panel and "Dan" in panel
    link.board_state["players"] = [{"name": "Dan", "handset": handset_id, "seated": True, "online": True}]
    link.changed()
    assert "seat" not in client.get("/phone/panel").get_data(as_text=True).split("</header>")[0]  # own seat
