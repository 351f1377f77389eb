"""Every prompt kind of protocol v1 on a phone, through the Flask test client with a fake MQTT client:
the page offers the controls the prompt allows (and no others), a form becomes exactly the input data
the prompt allows, what the handset core refuses is never sent and its reason is shown, and a refusal
ack from the appliance is shown with the form back for another try."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from firmware import protocol
from tests.web.conftest import post, services
from tests.web.fakes import ClientFactory, FakeClient

JSON = dict[str, Any]
FETCH = {"X-Requested-With": "fetch"}


@dataclass
class Kind:
    prompt: JSON
    shows: list[str]  # on the page
    hides: list[str]  # never on the page
    sends: list[tuple[dict[str, str], JSON]]  # form -> the input data sent
    refuses: list[tuple[dict[str, str], str]] = field(default_factory=list)  # form -> the reason shown


KINDS: dict[str, Kind] = {
    "range": Kind(
        {"kind": "range", "title": "Q1", "text": "Legs on a spider?", "unit": "legs",
         "boosts": {"copy": ["Bob", "Cat"], "swap": ["Bob", "Cat"], "double": True},
         "private": {"score": 3, "boosts": ["copy", "swap", "double"]}},
        ['name="bottom"', 'name="top"', "in legs", '<select name="copy">', "<option>Cat</option>",
         'name="swap1"', 'name="swap2"', "Double my points", "<b>boosts</b> copy, swap, double"],
        ["['copy'"],
        [({"bottom": "6", "top": "2.5k"}, {"bottom": "6", "top": "2500"}),
         ({"copy": "Cat", "bottom": "", "top": "", "double": "on"}, {"copy": "Cat", "double": True}),
         ({"bottom": "-1", "top": "3 x 10^2", "swap1": "Bob", "swap2": "Cat"},
          {"bottom": "-1", "top": "300", "swap": ["Bob", "Cat"]})],
        [({"bottom": "9", "top": "2"}, "From is above To"),  # rules.md Confident 1, in the form's words
         ({"copy": "Zed"}, "cannot copy that"),
         ({"copy": "Bob", "bottom": "1", "top": "2"}, "a copy or your own range, not both"),
         ({"bottom": "1", "top": "2", "swap1": "Bob", "swap2": "Bob"}, "cannot swap those"),
         ({"bottom": "1", "top": "2", "swap1": "Bob"}, "a swap needs two players"),
         ({"bottom": "lots", "top": "2"}, "From: not a number &#39;lots&#39;"),  # the label, not the field name
         ({"bottom": "", "top": "2"}, "From: type a number")]),
    "bet": Kind(
        {"kind": "bet", "title": "Round 2", "text": "More than 4 legs.", "stack": 180, "to_call": 20, "pot": 70,
         "actions": [{"action": "fold"}, {"action": "call"}, {"action": "raise", "min": 40, "max": 180}]},
        ['value="fold"', 'value="call"', 'value="raise"', 'name="to-raise"', 'min="40"', 'max="180"',
         "(40–180)", "Call 20", "Your chips <b>180</b>", "novalidate"],
        ['value="check"', 'value="bet"', 'value="allin"'],
        [({"action": "call"}, {"action": "call"}),
         ({"action": "raise", "to-raise": "60"}, {"action": "raise", "to": 60}),
         ({"action": "fold", "to-raise": "9999"}, {"action": "fold"})],  # the amount beside a Fold is not its
        [({"action": "raise", "to-raise": "30"}, "raise at least 40"),
         ({"action": "raise", "to-raise": "181"}, "raise at most 180"),
         ({"action": "check"}, "cannot check now"),
         ({"action": "raise", "to-raise": "4.5"}, "amount: whole chips only"),
         ({"to-raise": "60"}, "tap the action you want")]),
    "choice": Kind(
        {"kind": "choice", "title": "You read", "text": "1. I juggle / 2. I sing / 3. I knit", "fields": [
            {"name": "pick", "label": "Read which?", "required": True,
             "options": [{"id": "0", "label": "I juggle"}, {"id": "1", "label": "I sing"},
                         {"id": "2", "label": "I knit"}]},
            {"name": "answer", "label": "Your true answer", "required": True,
             "options": [{"id": "true", "label": "True"}, {"id": "false", "label": "False"}]},
            {"name": "exclude", "label": "Exclude (once a game)", "required": False,
             "options": [{"id": "Bob", "label": "Bob"}, {"id": "Cat", "label": "Cat"}]}]},
        ['name="choice-pick" value="2"', "I knit", 'name="choice-answer" value="false"',
         "Exclude (once a game) (optional)", 'name="choice-exclude" value="" checked'],
        ['name="choice-pick" value="" checked'],
        [({"choice-pick": "2", "choice-answer": "false", "choice-exclude": "Cat"},
          {"choices": {"pick": "2", "answer": "false", "exclude": "Cat"}}),
         ({"choice-pick": "0", "choice-answer": "true", "choice-exclude": ""},
          {"choices": {"pick": "0", "answer": "true"}})],
        [({"choice-pick": "1", "choice-exclude": ""}, "choose Your true answer"),
         ({"choice-pick": "7", "choice-answer": "true"}, "bad Read which?"),
         ({"choice-pick": "1", "choice-answer": "true", "choice-exclude": "Zed"}, "bad Exclude (once a g"),
         ({}, "nothing chosen")]),
    "split": Kind(
        {"kind": "split", "title": "All in! Ann says...", "text": "I sing in a choir", "total": 15,
         "sides": [{"id": "true", "label": "True"}, {"id": "false", "label": "False"}],
         "private": {"chips": 15, "exclusion_card": True}},
        ["Split all <strong>15</strong> chips", 'name="split-true"', 'name="split-false"', 'data-total="15"',
         "<b>exclusion card</b> yes"],
        [],
        [({"split-true": "10", "split-false": "5"}, {"split": {"true": 10, "false": 5}}),
         ({"split-true": "15", "split-false": ""}, {"split": {"true": 15, "false": 0}})],
        [({"split-true": "10", "split-false": "4"}, "split all 15 chips"),  # rules.md All In 5
         ({"split-true": "16", "split-false": "-1"}, "False: -1 is below 0")]),
    "token": Kind(
        {"kind": "token", "title": "Which is largest?", "text": "Tallest? A) Eiffel B) Big Ben C) Burj",
         "answers": ["A", "B", "C"], "tokens": [1, 3], "private": {"tokens": [1, 3]}},
        ['name="answer" value="A"', 'name="answer" value="C"', 'name="token" value="1"', 'name="token" value="3"'],
        ['name="token" value="2"'],
        [({"answer": "B", "token": "3"}, {"answer": "B", "token": 3})],
        [({"answer": "B", "token": "2"}, "token not yours"),  # rules.md sQuizz 5: one unused token
         ({"answer": "D", "token": "1"}, "answer A, B or C"),
         ({"answer": "A"}, "choose a bet token"),
         ({"token": "1"}, "choose your answer")]),
    "buzz": Kind(
        {"kind": "buzz", "title": "Buzzers", "text": "Who was the first man on the Moon?", "armed": True},
        ['class="buzz armed"', "Buzz now!"],
        ["Wait for the quizmaster"],
        [({}, {"pressed": -1})],  # -1: stamped by the handset core's clock (checked below)
    ),
    "number": Kind(  # a quiz night's tie-break (protocol 1.2)
        {"kind": "number", "title": "Tie-break!", "text": "How tall is the Eiffel Tower?", "unit": "m"},
        ['name="number"', "in m", "The closest to the answer wins"],
        ['name="bottom"'],
        [({"number": "330"}, {"number": "330"}), ({"number": "3.3k"}, {"number": "3300"}),
         ({"number": "-2.5"}, {"number": "-2.5"})],
        [({"number": ""}, "Your number: type a number"),
         ({"number": "tall"}, "Your number: not a number")]),
    "info": Kind(
        {"kind": "info", "title": "Locked in", "text": "8 to 8", "wait": True, "lines": ["Cat is still thinking"],
         "private": {"score": 3, "range": None}},
        ["Waiting…", "Cat is still thinking", "<b>score</b> 3"],
        ["<form method=\"post\" action=\"/phone/answer\"", "<b>range</b>"],
        [],
        [({"bottom": "1", "top": "2"}, "nothing to answer now")]),
}


def _join(app: Flask, phone_clients: ClientFactory) -> tuple[FlaskClient, FakeClient, str]:
    client = app.test_client()
    assert post(client, "/join", {"name": "Ann"}, page="/join").status_code == 302
    (handset_id,) = services(app).phones._phones  # noqa: SLF001
    return client, phone_clients.latest(handset_id), handset_id


def _prompt(mqtt: FakeClient, handset_id: str, prompt_id: str, body: JSON) -> None:
    mqtt.deliver(protocol.prompt_topic("webtest", handset_id), json.dumps({"v": 1, "id": prompt_id, **body}).encode())


def _inputs(mqtt: FakeClient) -> list[JSON]:
    return [json.loads(p) for t, p, _ in mqtt.published if t.endswith("/input")]


def _answer(client: FlaskClient, prompt_id: str, form: dict[str, str]) -> tuple[int, str]:
    response = post(client, "/phone/answer", {"prompt": prompt_id, **form}, page="/phone", headers=FETCH)
    return response.status_code, response.get_data(as_text=True)


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_page_offers_what_the_prompt_allows(app: Flask, phone_clients: ClientFactory, kind: str) -> None:
    client, mqtt, handset_id = _join(app, phone_clients)
    _prompt(mqtt, handset_id, "p1", KINDS[kind].prompt)
    page = client.get("/phone/panel").get_data(as_text=True)
    assert KINDS[kind].prompt["title"] in page
    for shown in KINDS[kind].shows:
        assert shown in page, shown
    for hidden in KINDS[kind].hides:
        assert hidden not in page, hidden


@pytest.mark.parametrize("kind", [k for k in KINDS if KINDS[k].sends])
def test_a_form_becomes_exactly_the_input_the_prompt_allows(app: Flask, phone_clients: ClientFactory,
                                                           kind: str) -> None:
    client, mqtt, handset_id = _join(app, phone_clients)
    for n, (form, data) in enumerate(KINDS[kind].sends, start=1):
        _prompt(mqtt, handset_id, f"p{n}", KINDS[kind].prompt)
        status, page = _answer(client, f"p{n}", form)
        assert status == 200 and "Sending…" in page, (form, page)
        sent = _inputs(mqtt)[-1]
        assert (sent["seq"], sent["prompt"], sent["kind"]) == (n, f"p{n}", kind)
        if kind == "buzz":  # a phone stamps its press as a hardware handset does (rules.md Buzzer 2)
            assert isinstance(sent["data"]["pressed"], int) and sent["data"]["pressed"] >= 0
        else:
            assert sent["data"] == data
        assert protocol.parse_input(handset_id, sent)["data"] == sent["data"]  # the hub's parser agrees
        mqtt.deliver(protocol.ack_topic("webtest", handset_id),
                     protocol.encode(protocol.make_ack(n, True, "locked", f"p{n}")))
        assert "Locked in: locked" in client.get("/phone/panel").get_data(as_text=True)
    assert len(_inputs(mqtt)) == len(KINDS[kind].sends)


@pytest.mark.parametrize("kind", [k for k in KINDS if KINDS[k].refuses])
def test_what_the_prompt_does_not_allow_is_never_sent_and_the_reason_shows(app: Flask, phone_clients: ClientFactory,
                                                                          kind: str) -> None:
    client, mqtt, handset_id = _join(app, phone_clients)
    _prompt(mqtt, handset_id, "p1", KINDS[kind].prompt)
    phone = services(app).phones.get(handset_id)
    assert phone is not None
    for form, reason in KINDS[kind].refuses:
        status, page = _answer(client, "p1", form)
        assert status == 400 and reason in page, (form, reason)
        assert phone.core.pending is None and phone.core.seq == 0
        if kind != "info":
            assert '<form method="post" action="/phone/answer"' in page  # still on the form: try again
    assert _inputs(mqtt) == []


@pytest.mark.parametrize("kind", [k for k in KINDS if KINDS[k].sends])
def test_a_refusal_ack_shows_and_the_form_is_back(app: Flask, phone_clients: ClientFactory, kind: str) -> None:
    client, mqtt, handset_id = _join(app, phone_clients)
    _prompt(mqtt, handset_id, "p1", KINDS[kind].prompt)
    form, _ = KINDS[kind].sends[0]
    _answer(client, "p1", form)
    mqtt.deliver(protocol.ack_topic("webtest", handset_id),
                 protocol.encode(protocol.make_ack(1, False, "game paused", "p1")))
    page = client.get("/phone/panel").get_data(as_text=True)
    assert "Not accepted: game paused" in page
    for shown in KINDS[kind].shows:
        assert shown in page, shown
    status, _ = _answer(client, "p1", form)  # answering again sends a new input
    assert status == 200 and [i["seq"] for i in _inputs(mqtt)] == [1, 2]


def test_a_choice_with_one_required_option_comes_chosen(app: Flask, phone_clients: ClientFactory) -> None:
    client, mqtt, handset_id = _join(app, phone_clients)
    show = {"kind": "choice", "title": "Show your range?", "text": "Folded: showing is up to you.",
            "fields": [{"name": "show", "label": "Show it", "required": True,
                        "options": [{"id": "yes", "label": "Show my range"}]}]}
    _prompt(mqtt, handset_id, "p1", show)
    assert 'name="choice-show" value="yes" checked' in client.get("/phone/panel").get_data(as_text=True)
    assert _answer(client, "p1", {"choice-show": "yes"})[0] == 200  # one tap on Send
    assert _inputs(mqtt)[-1]["data"] == {"choices": {"show": "yes"}}


def test_a_buzzer_not_yet_armed_still_sends_a_press(app: Flask, phone_clients: ClientFactory) -> None:
    client, mqtt, handset_id = _join(app, phone_clients)
    _prompt(mqtt, handset_id, "p1", {**KINDS["buzz"].prompt, "armed": False})
    page = client.get("/phone/panel").get_data(as_text=True)
    assert 'class="buzz "' in page and "an early press may lock you out" in page
    assert _answer(client, "p1", {})[0] == 200  # rules.md Buzzer 1: the appliance decides the lock-out
    assert list(_inputs(mqtt)[-1]["data"]) == ["pressed"]


def test_an_odd_prompt_offers_fewer_choices_but_the_page_still_works(app: Flask, phone_clients: ClientFactory) -> None:
    client, mqtt, handset_id = _join(app, phone_clients)
    odd = {"kind": "bet", "title": "Round 1", "text": "", "stack": "lots",
           "actions": ["fold", {"action": "dance"}, {"action": "bet", "min": 50, "max": 10}, {"action": "check"}]}
    _prompt(mqtt, handset_id, "p1", odd)
    page = client.get("/phone/panel").get_data(as_text=True)
    assert re.findall(r'name="action" value="(\w+)"', page) == ["check"]
    assert "lots" not in page
    _prompt(mqtt, handset_id, "p2", {"kind": "choice", "title": "Pick", "text": "", "fields": "nope"})
    assert "Pick" in client.get("/phone/panel").get_data(as_text=True)
    status, page = _answer(client, "p2", {"choice-x": "1"})
    assert status == 400 and "nothing chosen" in page  # no field to choose in: the core sends nothing
    assert _inputs(mqtt) == []
