"""Words and buttons the quizmaster's night found wrong (issue 31, cosmetic): sQuizz's answer buttons carry
only letters; "Les Quizérables's seat"; the Handsets page gives the admin's own address instead of the
quizbox.local one the TV shows; a poker phone says "range in, change it?" beside "Lock in"."""

from __future__ import annotations

import html

from flask import Flask
from flask.testing import FlaskClient

from firmware import protocol
from tests.web.conftest import post, services
from tests.web.fakes import ClientFactory
from web.phoneview import controls, propositions

TOKEN = {"v": 1, "id": "p1", "kind": protocol.TOKEN, "title": "Which is TRUE?",
         "text": "Capital of France? A) Paris B) Rome C) Oslo", "answers": ["A", "B", "C"], "tokens": [1, 2]}


def test_squizz_buttons_carry_their_propositions() -> None:
    assert propositions("Capital of France? A) Paris B) Rome C) Oslo", ["A", "B", "C"]) == {
        "A": "Paris", "B": "Rome", "C": "Oslo"}
    assert propositions("Which? A) 1 B) 2", []) == {}  # a prompt without letters: the buttons keep letters
    assert controls(TOKEN)["propositions"] == {"A": "Paris", "B": "Rome", "C": "Oslo"}


def test_squizz_phone_shows_the_propositions_on_the_buttons(app: Flask, phone_clients: ClientFactory) -> None:
    import json

    client = app.test_client()
    post(client, "/join", {"name": "Ann"}, page="/join")
    handset_id = next(iter(services(app).phones._phones))  # noqa: SLF001
    mqtt = phone_clients.latest(handset_id)
    mqtt.deliver(protocol.prompt_topic("webtest", handset_id), json.dumps(TOKEN).encode())
    page = html.unescape(client.get("/phone/panel").get_data(as_text=True))
    for text in ("A · Paris", "B · Rome", "C · Oslo"):
        assert text in page, page


def test_the_handsets_page_gives_the_address_the_tv_shows(admin: FlaskClient) -> None:
    page = admin.get("/handsets/").get_data(as_text=True)
    assert "http://webtest.local:8080/join" in page and "localhost" not in page



def test_the_all_in_readers_phone_shows_the_statements_once() -> None:
    """The reader's phone showed the statements twice: a line cut short (for a handset's screen) above them."""
    statements = ["1. Paris is the capital of France", "2. The Seine flows into the Atlantic Ocean at Le Havre",
                  "3. Notre-Dame is on an island"]
    reader = {"v": 1, "id": "p3", "kind": protocol.CHOICE, "title": "You read",
              "text": " / ".join(statements)[:80],  # cut short, as the protocol's text limit does
              "fields": [{"name": "pick", "label": "Read which?", "required": True,
                          "options": [{"id": str(i), "label": s} for i, s in enumerate(statements)]},
                         {"name": "answer", "label": "Your true answer", "required": True,
                          "options": [{"id": "T", "label": "True"}, {"id": "F", "label": "False"}]}]}
    shown = controls(reader)
    assert shown["text"] == "" and [label for _, label in shown["fields"][0]["options"]] == statements
    other = {**reader, "text": "Pick the statement you will read aloud"}  # a line of its own stays
    assert controls(other)["text"] == "Pick the statement you will read aloud"


def test_squizz_text_keeps_the_question_once_the_buttons_carry_the_propositions() -> None:
    assert controls(TOKEN)["text"] == "Capital of France?"
