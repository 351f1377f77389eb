"""Backups and restore carry a deck's pictures and sounds (issue 34): the store's good copy names each file
by its content's reference, and the box never removes a media file, so a database put back from its good copy
finds every picture and sound its decks name, even of a deck deleted after the copy."""

from __future__ import annotations

import json
from pathlib import Path

from appliance.box import recovery
from appliance.decks import dump_deck, load_bundle
from appliance.infra.media import MediaStore
from appliance.infra.store import Store
from tests.decks import media_samples as m


def test_a_restored_good_copy_finds_the_media_of_its_decks(tmp_path: Path) -> None:
    db = tmp_path / "quizbox.db"
    media = MediaStore(tmp_path / "media")
    bundle = load_bundle(m.zipped({"a.png": m.png(), "b.wav": m.wav()}, m.deck([m.card(1, image="a.png",
                                                                                      audio="b.wav")])))
    media.put_all(bundle.media)
    with Store(db) as store:
        store.save_deck("pics", "Picture round", "estimation", json.loads(dump_deck(bundle.deck, "json")))
    recovery.copy_store(db, recovery.good_copy_of(db))
    with Store(db) as store:
        store.delete_deck("pics")  # deleted after the copy: its files stay
    recovery.restore_now(db)
    with Store(db) as store:
        data = store.deck("pics")
    assert data is not None
    refs = [data["cards"][0]["image"], data["cards"][0]["audio"]]
    assert [media.read(ref) for ref in refs] == [bundle.media[ref] for ref in refs]
