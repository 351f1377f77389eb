"""Decks: list, search, create, typed card forms, edit, delete, import (all or nothing) and export."""

from __future__ import annotations

import io
import json

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from appliance.decks import EstimationCard, load_deck
from appliance.infra.store import Store
from tests.web.conftest import post
from tests.web.samples import BAD_CSV, GOOD_CSV


def _import(client: FlaskClient, text: str, filename: str, **form: str) -> TestResponse:
    data = {"file": (io.BytesIO(text.encode()), filename), **form}
    return post(client, "/decks/import", data, page="/decks/import", content_type="multipart/form-data")


def test_shipped_decks_are_in_the_store_as_built_in(admin: FlaskClient, store: Store) -> None:
    decks = store.decks()
    assert {d["type"] for d in decks} == {"estimation", "allin", "squizz", "buzzer"}
    assert all(d["builtin"] for d in decks)
    page = admin.get("/decks/").get_data(as_text=True)
    assert all(d["name"] in page for d in decks)
    builtin = decks[0]["id"]
    assert admin.get(f"/decks/{builtin}/edit").status_code == 403
    assert post(admin, f"/decks/{builtin}/delete").status_code == 403
    assert store.deck(builtin) is not None


def test_import_a_csv_deck_then_export_it_equal(admin: FlaskClient, store: Store) -> None:
    response = _import(admin, GOOD_CSV, "pub night.csv")
    assert response.status_code == 302 and response.location == "/decks/pub-night"
    deck = store.deck("pub-night")
    assert deck is not None and [c["id"] for c in deck["cards"]] == ["pub-1", "pub-2", "pub-3"]
    exported = admin.get("/decks/pub-night/export.csv")
    assert exported.headers["Content-Disposition"] == 'attachment; filename="pub-night.csv"'
    assert exported.headers["Content-Type"] == "text/csv; charset=utf-8"  # once (it was sent twice)
    assert admin.get("/decks/pub-night/export.json").headers["Content-Type"] == "application/json"
    text = exported.get_data(as_text=True)
    assert "'=HYPERLINK" in text  # a formula-looking question is neutralised in the export
    again = load_deck(text, "csv")
    assert [c.id for c in again.cards] == ["pub-1", "pub-2", "pub-3"]
    card = again.cards[2]
    assert isinstance(card, EstimationCard) and card.question.startswith("=HYPERLINK")  # read back as written
    as_json = json.loads(admin.get("/decks/pub-night/export.json").get_data(as_text=True))
    assert as_json["id"] == "pub-night" and len(as_json["cards"]) == 3


def test_a_broken_import_lists_each_bad_row_and_saves_nothing(admin: FlaskClient, store: Store) -> None:
    before = store.decks()
    response = _import(admin, BAD_CSV, "broken.csv")
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Nothing was imported" in page
    assert "line 3 (bad-2), column &#39;answer&#39;" in page
    assert "line 4 (bad-3), column &#39;hint1&#39;" in page
    assert "line 2" not in page  # the good row is not blamed
    assert store.decks() == before


def test_import_json_refuses_to_overwrite_unless_asked(admin: FlaskClient, store: Store) -> None:
    _import(admin, GOOD_CSV, "pub.csv")
    document = json.loads(admin.get("/decks/pub/export.json").get_data(as_text=True))
    document["name"] = "Pub renamed"
    text = json.dumps(document)
    refused = _import(admin, text, "pub.json")
    assert refused.status_code == 400 and "exists already" in refused.get_data(as_text=True)
    assert store.deck("pub")["name"] != "Pub renamed"  # type: ignore[index]
    replaced = _import(admin, text, "pub.json", replace="on")
    assert replaced.status_code == 302
    assert store.deck("pub")["name"] == "Pub renamed"  # type: ignore[index]


def test_an_upload_over_the_limit_is_refused(admin: FlaskClient, app: Flask, store: Store) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 2000
    app.config["DECK_UPLOAD_BYTES"] = 2000  # the import's own limit (a deck's zip with media: web/media.py)
    before = store.decks()
    response = _import(admin, GOOD_CSV * 20, "big.csv")
    assert response.status_code == 413 and "too big" in response.get_data(as_text=True).lower()
    assert store.decks() == before


def test_create_a_deck_and_add_typed_cards(admin: FlaskClient, store: Store) -> None:
    created = post(admin, "/decks/new", {"name": "Quiz night", "type": "squizz", "language": "en"})
    assert created.status_code == 302 and created.location == "/decks/quiz-night/cards/new"
    form = admin.get("/decks/quiz-night/cards/new").get_data(as_text=True)
    assert 'name="a_value"' in form and 'name="question"' not in form  # the sQuizz card form
    card = {"id": "sq-0001", "category": "geography", "difficulty": "easy", "family": "true", "tags": "rivers",
            "prompt": "Length in km of...", "unit": "km", "a_text": "The Nile", "a_value": "6650",
            "b_text": "The Thames", "b_value": "346", "c_text": "The Rhine", "c_value": "1230", "source": "Atlas"}
    added = post(admin, "/decks/quiz-night/cards/new", card)
    assert added.status_code == 302
    saved = store.deck("quiz-night")
    assert saved is not None and saved["cards"][0]["propositions"][1]["value"] == "346"
    # rules.md sQuizz 4: three values that are not all different are refused, and nothing changes
    same = dict(card, id="sq-0002", prompt="Other prompt", c_value="346")
    refused = post(admin, "/decks/quiz-night/cards/new", same)
    assert refused.status_code == 400
    assert "must all differ" in refused.get_data(as_text=True)
    assert store.deck("quiz-night") == saved


def test_edit_and_delete_a_card_then_the_deck(admin: FlaskClient, store: Store) -> None:
    _import(admin, GOOD_CSV, "pub.csv")
    page = admin.get("/decks/pub/cards/pub-2").get_data(as_text=True)
    assert "How many legs does a spider have?" in page and 'name="hint2"' in page
    edit = {"category": "nature", "difficulty": "easy", "family": "true", "tags": "",
            "question": "How many legs does an octopus have?", "answer": "8", "unit": "arms", "fact": "Eight.",
            "hint1": "More than 4 arms.", "hint2": "Less than 10 arms.", "source": "Aquarium"}
    assert post(admin, "/decks/pub/cards/pub-2", edit).status_code == 302
    assert store.deck("pub")["cards"][1]["question"] == "How many legs does an octopus have?"  # type: ignore[index]
    # a false hint is refused next to its field, and the stored card is unchanged
    bad = post(admin, "/decks/pub/cards/pub-2", dict(edit, hint1="More than 9 arms.", hint2="Less than 10 arms."))
    assert bad.status_code == 400 and "is not true" in bad.get_data(as_text=True)
    assert store.deck("pub")["cards"][1]["hints"][0] == "More than 4 arms."  # type: ignore[index]
    # the same question as another card is refused
    dup = post(admin, "/decks/pub/cards/pub-2", dict(edit, question="How many people have walked on the Moon?"))
    assert dup.status_code == 400 and "same question" in dup.get_data(as_text=True)
    assert post(admin, "/decks/pub/cards/pub-2/delete").status_code == 302
    assert [c["id"] for c in store.deck("pub")["cards"]] == ["pub-1", "pub-3"]  # type: ignore[index]
    assert "Delete the deck" in admin.get("/decks/pub/delete").get_data(as_text=True)
    assert post(admin, "/decks/pub/delete").status_code == 302
    assert store.deck("pub") is None


def test_rename_copy_and_search(admin: FlaskClient, store: Store) -> None:
    _import(admin, GOOD_CSV, "pub.csv")
    bad = post(admin, "/decks/pub/edit", {"name": "", "description": "", "language": "en"})
    assert bad.status_code == 400
    assert post(admin, "/decks/pub/edit", {"name": "Pub classics", "description": "Easy ones",
                                           "language": "en-GB"}).status_code == 302
    assert store.deck("pub")["name"] == "Pub classics"  # type: ignore[index]
    builtin = next(d for d in store.decks() if d["builtin"])
    copied = post(admin, f"/decks/{builtin['id']}/copy")
    copy_id = copied.location.rsplit("/", 1)[1]
    assert "this copy can be edited" in admin.get(copied.location).get_data(as_text=True)
    assert copy_id != builtin["id"] and not next(d for d in store.decks() if d["id"] == copy_id)["builtin"]
    hits = admin.get("/decks/?q=spider").get_data(as_text=True)
    assert "Pub classics" in hits and "spider" in hits
    assert builtin["name"] not in hits
    none = admin.get("/decks/?q=zzzqqq").get_data(as_text=True)
    assert "No deck matches" in none
    in_deck = admin.get("/decks/pub?q=moon").get_data(as_text=True)
    assert "Moon" in in_deck and "spider" not in in_deck
    assert admin.get("/decks/nope").status_code == 404
    assert admin.get("/decks/pub/export.xml").status_code == 404


def test_a_buzzer_card_is_added_on_the_admin_page_with_its_alternatives(admin: FlaskClient, store: Store) -> None:
    post(admin, "/decks/new", {"name": "Friday buzzer", "type": "buzzer"}, page="/decks/new")
    deck_id = next(d["id"] for d in store.decks() if d["name"] == "Friday buzzer")
    form = {"id": "bz-0001", "category": "geography", "difficulty": "easy", "question": "Capital of Peru?",
            "answer": "Lima", "alternatives": "Ciudad de los Reyes; lima city", "source": "Britannica"}
    post(admin, f"/decks/{deck_id}/cards/new", form, page=f"/decks/{deck_id}/cards/new")
    (card,) = store.deck(deck_id)["cards"]
    assert (card["answer"], card["alternatives"]) == ("Lima", ["Ciudad de los Reyes", "lima city"])
    repeat = {**form, "id": "bz-0002", "question": "Peru's capital?", "alternatives": "LIMA"}
    again = post(admin, f"/decks/{deck_id}/cards/new", repeat, page=f"/decks/{deck_id}/cards/new")
    assert "same as the answer" in again.get_data(as_text=True)
    assert len(store.deck(deck_id)["cards"]) == 1


def test_the_deck_list_shows_unseen_cards_and_a_reset_makes_a_deck_unseen_again(
    admin: FlaskClient, store: Store
) -> None:
    deck = store.deck("buzzer-world")
    assert deck is not None
    ids = [c["id"] for c in deck["cards"]]
    store.mark_used([f"buzzer-world/{i}" for i in ids[:7]] + ["buzzer-culture/bz-0400"])
    page = admin.get("/decks/").get_data(as_text=True)
    row = page[page.index("Buzzer: world"):].split("</tr>")[0]
    assert f'<td class="num">{len(ids) - 7}' in row and "reset-history" in row
    post(admin, "/decks/buzzer-world/reset-history", page="/decks/")
    assert not any(k.startswith("buzzer-world/") for k in store.used_cards())
    assert "buzzer-culture/bz-0400" in store.used_cards()  # only that deck forgets
