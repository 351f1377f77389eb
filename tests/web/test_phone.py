"""Phone handsets through the Flask test client, with fake MQTT clients: join, prompts, the handset core's
checks (nothing is sent for a refused input), acks, the signed cookie binding, idle links and limits."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient

from firmware import protocol
from tests.web.conftest import post, services
from tests.web.fakes import ClientFactory, FakeClient

RANGE = {"v": 1, "id": "p7", "kind": "range", "title": "Q1", "text": "Legs on a spider?", "unit": "legs",
         "boosts": {"copy": ["Bob"], "swap": ["Bob", "Cat"], "double": True}}


def _join(app: Flask, name: str = "Ann") -> tuple[FlaskClient, str]:
    client = app.test_client()
    response = post(client, "/join", {"name": name}, page="/join")
    assert response.status_code == 302 and response.location == "/phone"
    handset_id = re.search(r"phone-[a-z0-9]{8}", client.get("/phone").get_data(as_text=True))
    page = client.get("/phone").get_data(as_text=True)
    assert name in page
    ids = [p for p in services(app).phones._phones if services(app).phones.get(p).name == name]  # noqa: SLF001
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
                     "clock": hello["clock"]}
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


def test_the_handset_core_refuses_what_a_hardware_handset_refuses(app: Flask, phone_clients: ClientFactory) -> None:
    client, handset_id = _join(app)
    mqtt = phone_clients.latest(handset_id)
    mqtt.deliver(protocol.prompt_topic("webtest", handset_id), json.dumps(RANGE).encode())
    refusals = [
        ({"bottom": "9", "top": "2"}, "bottom above top"),  # rules.md Confident 1
        ({"copy": "Zed"}, "cannot copy that"),
        ({"bottom": "1", "top": "2", "swap1": "Bob", "swap2": "Bob"}, "cannot swap those"),
        ({"bottom": "1", "top": "2", "swap1": "Bob"}, "a swap needs two players"),
        ({"bottom": "lots", "top": "2"}, "bottom:"),
        ({"bottom": "", "top": "2"}, "type the bottom"),
    ]
    for form, reason in refusals:
        response = post(client, "/phone/answer", {"prompt": "p7", **form}, page="/phone",
                        headers={"X-Requested-With": "fetch"})
        assert response.status_code == 400, form
        assert reason in response.get_data(as_text=True), form
    stale = post(client, "/phone/answer", {"prompt": "p6", "bottom": "1", "top": "2"}, page="/phone",
                 headers={"X-Requested-With": "fetch"})
    assert stale.status_code == 400 and "that screen is old" in stale.get_data(as_text=True)
    assert _inputs(mqtt) == []  # nothing refused was ever sent


def test_other_prompt_kinds_become_their_protocol_data(app: Flask, phone_clients: ClientFactory) -> None:
    client, handset_id = _join(app)
    mqtt = phone_clients.latest(handset_id)
    prompts = [
        ({"kind": "bet", "title": "Round 1", "text": "", "stack": 180, "to_call": 20, "pot": 70,
          "actions": [{"action": "fold"}, {"action": "call"}, {"action": "raise", "min": 40, "max": 180}]},
         {"action": "raise", "to-raise": "60"}, {"action": "raise", "to": 60}),
        ({"kind": "choice", "title": "You read", "text": "", "fields": [
            {"name": "pick", "label": "Statement", "required": True,
             "options": [{"id": "0", "label": "I juggle"}, {"id": "1", "label": "I sing"}]},
            {"name": "exclude", "label": "Exclude", "required": False, "options": [{"id": "Bob", "label": "Bob"}]}]},
         {"choice-pick": "1", "choice-exclude": ""}, {"choices": {"pick": "1"}}),
        ({"kind": "split", "title": "All in!", "text": "", "total": 15,
          "sides": [{"id": "true", "label": "True"}, {"id": "false", "label": "False"}]},
         {"split-true": "10", "split-false": "5"}, {"split": {"true": 10, "false": 5}}),
        ({"kind": "token", "title": "Middle", "text": "", "answers": ["A", "B", "C"], "tokens": [1, 3]},
         {"answer": "B", "token": "3"}, {"answer": "B", "token": 3}),
    ]
    for seq, (body, form, data) in enumerate(prompts, start=1):
        prompt = {"v": 1, "id": f"q{seq}", **body}
        mqtt.deliver(protocol.prompt_topic("webtest", handset_id), json.dumps(prompt).encode())
        assert post(client, "/phone/answer", {"prompt": f"q{seq}", **form}, page="/phone").status_code == 302
        assert _inputs(mqtt)[-1]["data"] == data
        mqtt.deliver(protocol.ack_topic("webtest", handset_id), protocol.encode(protocol.make_ack(seq, True, "ok")))
    # a split that does not use every chip is refused by the core (rules.md All In 5)
    mqtt.deliver(protocol.prompt_topic("webtest", handset_id), json.dumps(
        {"v": 1, "id": "q9", **prompts[2][0]}).encode())
    refused = post(client, "/phone/answer", {"prompt": "q9", "split-true": "10", "split-false": "4"}, page="/phone",
                   headers={"X-Requested-With": "fetch"})
    assert "split all 15 chips" in refused.get_data(as_text=True)
    assert len(_inputs(mqtt)) == 4


def test_a_refusal_ack_shows_and_the_player_can_answer_again(app: Flask, phone_clients: ClientFactory) -> None:
    client, handset_id = _join(app)
    mqtt = phone_clients.latest(handset_id)
    mqtt.deliver(protocol.prompt_topic("webtest", handset_id), json.dumps(RANGE).encode())
    post(client, "/phone/answer", {"prompt": "p7", "bottom": "1", "top": "2"}, page="/phone")
    mqtt.deliver(protocol.ack_topic("webtest", handset_id),
                 protocol.encode(protocol.make_ack(1, False, "game paused", "p7")))
    page = client.get("/phone/panel").get_data(as_text=True)
    assert "Not accepted: game paused" in page and 'name="bottom"' in page
    post(client, "/phone/answer", {"prompt": "p7", "bottom": "1", "top": "2"}, page="/phone")
    assert [i["seq"] for i in _inputs(mqtt)] == [1, 2]


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
    for n in range(6):
        fresh = app.test_client()
        assert post(fresh, "/join", {"name": f"P{n}"}, page="/join").status_code == 302
    late = app.test_client()
    assert "Too many joins" in post(late, "/join", {"name": "P7"}, page="/join").get_data(as_text=True)


def test_removed_and_leaving_phones_must_join_again(admin: FlaskClient, app: Flask, phone_clients: ClientFactory,
                                                   link: object) -> None:
    client, handset_id = _join(app)
    post(admin, f"/handsets/{handset_id}/identify")
    assert "identify" in client.get("/phone/panel").get_data(as_text=True)
    post(admin, f"/handsets/{handset_id}/remove")
    assert phone_clients.latest(handset_id).stopped
    assert client.get("/phone").location == "/join"
    other, other_id = _join(app, "Bob")
    assert post(other, "/phone/leave", page="/phone").location == "/join"
    assert services(app).phones.get(other_id) is None
    assert other.get("/phone").location == "/join"
