"""The deck pages' rough edges (issue 20): a built-in deck's card opens read-only with a way to copy it
(no bare "Forbidden"), a JSON deck re-imported under another name, an Excel semicolon CSV, a card delete
that asks first, "1 card", and the New game page offering each game only its own kind of deck."""

from __future__ import annotations

import io
import json

from flask.testing import FlaskClient

from appliance.infra.store import Store
from tests.web.conftest import post
from tests.web.samples import GOOD_CSV


def _upload(admin: FlaskClient, data: bytes, filename: str, name: str = "") -> str:
    response = post(admin, "/decks/import", {"file": (io.BytesIO(data), filename), "name": name},
                    page="/decks/import", follow_redirects=True)
    return response.get_data(as_text=True)


def test_a_built_in_card_is_read_only_with_a_copy_button(admin: FlaskClient, store: Store) -> None:
    builtin = next(d for d in store.decks() if d["builtin"])
    deck = store.deck(builtin["id"])
    assert deck is not None
    card_id = deck["cards"][0]["id"]
    page = admin.get(f"/decks/{builtin['id']}/cards/{card_id}").get_data(as_text=True)
    assert "cannot be\n  changed" in page or "cannot be changed" in page.replace("\n  ", " ")
    assert "Copy the deck to edit it" in page and ">Save</button>" not in page
    assert "<fieldset class=\"plain\" disabled>" in page


def test_a_json_deck_imports_again_under_another_name(admin: FlaskClient, store: Store) -> None:
    text = _upload(admin, GOOD_CSV.encode(), "pub.csv", "Pub night")
    assert "Imported 3 cards" in text
    exported = admin.get("/decks/pub-night/export.json").data
    again = _upload(admin, exported, "pub-night.json", "Pub night two")
    assert "Imported 3 cards into &#39;Pub night two&#39;" in again
    ids = {d["id"] for d in store.decks()}
    assert {"pub-night", "pub-night-two"} <= ids
    assert "pub-night" in json.dumps(json.loads(exported))  # the file still names the first deck


def test_an_excel_semicolon_csv_imports_and_a_bad_header_names_the_missing_columns(admin: FlaskClient) -> None:
    semicolons = GOOD_CSV.replace(",", ";").replace('=HYPERLINK("x") ', "")
    assert "Imported 3 cards" in _upload(admin, semicolons.encode(), "excel.csv", "Excel night")
    misspelt = semicolons.replace(";answer;", ";answr;", 1)
    text = _upload(admin, misspelt.encode(), "bad.csv", "Bad night")
    assert "missing column &#39;answer&#39; (for an estimation deck)" in text
    assert "unknown column &#39;answr&#39;" in text


def test_a_card_delete_asks_first_and_one_card_is_one_card(admin: FlaskClient, store: Store) -> None:
    one = GOOD_CSV.split("\r\n")
    assert "Imported 1 card into" in _upload(admin, ("\r\n".join(one[:2]) + "\r\n").encode(), "one.csv", "One")
    show = admin.get("/decks/one").get_data(as_text=True)
    assert "1 card ·" in show and "1 cards" not in show
    asked = admin.get("/decks/one/cards/pub-1/delete")
    assert asked.status_code == 200 and "Delete card pub-1?" in asked.get_data(as_text=True)
    deck = store.deck("one")
    assert deck is not None and len(deck["cards"]) == 1  # nothing deleted yet
    post(admin, "/decks/one/cards/pub-1/delete", page="/decks/one/cards/pub-1/delete")
    deck = store.deck("one")
    assert deck is not None and deck["cards"] == []


def test_new_game_tells_each_games_decks_apart(admin: FlaskClient) -> None:
    page = admin.get("/games/new").get_data(as_text=True)
    assert 'value="confident" data-deck="estimation"' in page and 'value="allin" data-deck="allin"' in page
    assert 'data-type="allin"' in page and 'data-type="estimation"' in page  # setup.js shows only the matching


def test_the_setup_code_may_be_typed_with_spaces(app: object) -> None:
    from tests.web.conftest import services

    account = services(app).account  # type: ignore[arg-type]
    code = account.setup_code()
    assert account.setup_code_ok(code.replace("-", " ").upper())
    assert account.setup_code_ok(" " + code.replace("-", "") + " ")
    assert not account.setup_code_ok(code[:-1] + ("0" if code[-1] != "0" else "1"))


def test_the_all_in_reader_sees_whole_statements() -> None:
    import random

    from appliance.edge.prompts import fit
    from appliance.flows import flow_factory
    from appliance.games.dealt import DealtCard
    from appliance.session.flow import GameSetup

    long = ["I have been to every one of the seven continents, Antarctica too.", "I can juggle.", "I sing."]
    setup = GameSetup("allin", ["Ann", "Bob", "Cat"], {}, [DealtCard(f"a{i}", {"statements": long}) for i in range(3)])
    flow = flow_factory("allin")(setup, random.Random(1), 0.0)
    reader = flow.board()["question"]["reader"]
    prompt = flow.prompt(reader)
    labels = [o["label"] for o in prompt["fields"][0]["options"]]
    assert labels[0] == "1. " + long[0]  # not cut at 24 characters
    assert len(fit({"v": 1, "id": "p1", **prompt})) <= 1024
