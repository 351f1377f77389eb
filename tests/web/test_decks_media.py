"""A deck with pictures and sounds on the admin page: its zip imported all or nothing (the media too), the
editor showing the picture and the sound, the card form keeping them, and the zip exported back."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from appliance.decks import load_bundle
from appliance.infra.media import REF_PATTERN
from appliance.infra.store import Store
from tests.decks import media_samples as m
from tests.web.conftest import post


def _upload(client: FlaskClient, data: bytes, filename: str = "pics.zip", **form: str) -> TestResponse:
    return post(client, "/decks/import", {"file": (io.BytesIO(data), filename), **form}, page="/decks/import",
                content_type="multipart/form-data")


def _media_files(tmp_path: Path) -> list[str]:
    folder = tmp_path / "data" / "media"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


GOOD = {"one.png": m.png(), "beeps.wav": m.wav()}


def test_a_deck_zip_is_imported_with_its_media_shown_and_exported_back(admin: FlaskClient, store: Store,
                                                                       tmp_path: Path) -> None:
    doc = m.deck([m.card(1, image="one.png", audio="beeps.wav"), m.card(2)])
    response = _upload(admin, m.zipped(GOOD, doc))
    assert response.status_code == 302, response.get_data(as_text=True)
    saved = store.deck("pics")
    assert saved is not None
    image, audio = saved["cards"][0]["image"], saved["cards"][0]["audio"]
    assert REF_PATTERN.fullmatch(image) and REF_PATTERN.fullmatch(audio)
    assert _media_files(tmp_path) == sorted([image, audio])
    page = admin.get("/decks/pics/cards/p-1").get_data(as_text=True)
    assert f'src="/decks/media/{image}"' in page
    assert f'<audio controls preload="none" src="/decks/media/{audio}"' in page
    assert admin.get(f"/decks/media/{image}").data == (tmp_path / "data" / "media" / image).read_bytes()
    assert admin.get("/decks/media/" + "0" * 64 + ".png").status_code == 404
    assert admin.get("/decks/media/..%2Fquizbox.db").status_code == 404
    exported = admin.get("/decks/pics/export.zip")
    assert exported.status_code == 200 and exported.mimetype == "application/zip"
    again = load_bundle(exported.data)
    assert again.deck.cards[0].image == image and again.deck.cards[0].audio == audio
    assert "Export ZIP" in admin.get("/decks/pics").get_data(as_text=True)


def test_editing_a_card_keeps_its_picture_and_sound_and_names_no_file_the_box_lacks(admin: FlaskClient,
                                                                                    store: Store) -> None:
    _upload(admin, m.zipped(GOOD, m.deck([m.card(1, image="one.png", audio="beeps.wav")])))
    before = store.deck("pics")
    assert before is not None
    form = {"category": "science", "difficulty": "hard", "family": "true", "tags": "", "question": "How many?",
            "answer": "11", "unit": "dots", "fact": "Counted.", "hint1": "More than 1.", "hint2": "Fewer than 101.",
            "source": "Quizbox", "image": before["cards"][0]["image"], "audio": before["cards"][0]["audio"]}
    assert post(admin, "/decks/pics/cards/p-1", form).status_code == 302
    after = store.deck("pics")
    assert after is not None and after["cards"][0]["difficulty"] == "hard"
    assert (after["cards"][0]["image"], after["cards"][0]["audio"]) == (form["image"], form["audio"])
    forged = post(admin, "/decks/pics/cards/p-1", {**form, "image": "f" * 64 + ".png"})
    assert forged.status_code == 400 and "is not on this box" in forged.get_data(as_text=True)
    assert store.deck("pics") == after


def test_a_zip_with_any_bad_media_imports_nothing(admin: FlaskClient, store: Store, tmp_path: Path) -> None:
    doc = m.deck([m.card(1, image="one.png", audio="beeps.wav"), m.card(2, image="gone.png")])
    decks = store.decks()
    response = _upload(admin, m.zipped(GOOD, doc))
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and "Nothing was imported" in page
    assert "card 2 (p-2), field &#39;image&#39;: &#39;gone.png&#39; is not in the zip" in page
    assert store.decks() == decks and _media_files(tmp_path) == []
    climbing = io.BytesIO()
    with zipfile.ZipFile(climbing, "w") as z:
        z.writestr("deck.json", "{}")
        z.writestr("../../quizbox.db", b"overwrite")
    response = _upload(admin, climbing.getvalue())
    assert response.status_code == 400 and "climbs out" in response.get_data(as_text=True)
    assert store.decks() == decks and _media_files(tmp_path) == []


def test_the_media_cap_refuses_an_import_and_keeps_nothing(admin: FlaskClient, app: Flask, store: Store,
                                                           tmp_path: Path) -> None:
    app.extensions["quizbox-media"].cap = 100  # bytes: sized down for the test
    response = _upload(admin, m.zipped(GOOD, m.deck([m.card(1, image="one.png", audio="beeps.wav")])))
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and "more than its cap" in page
    assert store.deck("pics") is None and _media_files(tmp_path) == []


def test_a_json_deck_alone_naming_a_picture_is_refused(admin: FlaskClient, store: Store) -> None:
    import json

    response = _upload(admin, json.dumps(m.deck([m.card(1, image="one.png")])).encode(), "pics.json")
    assert response.status_code == 400 and "imported as a zip" in response.get_data(as_text=True)
    assert store.deck("pics") is None
