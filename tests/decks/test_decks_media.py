"""A deck with pictures and sounds as one zip: good media load (re-encoded, by reference), every kind of bad
media or unsafe zip is refused with the card and the file named, and an exported zip reads back equal."""

from __future__ import annotations

import io
import json
import random
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from appliance.decks import InvalidDeck, bundle, dump_bundle, load_bundle, load_plain
from appliance.decks.bundle import MAX_ENTRIES
from appliance.infra.media import REF_PATTERN
from tests.decks import media_samples as m


def problems(data: bytes) -> list[str]:
    with pytest.raises(InvalidDeck) as refused:
        load_bundle(data)
    return [str(p) for p in refused.value.problems]


def test_a_zip_with_png_jpeg_webp_and_wav_loads_with_each_file_by_its_reference() -> None:
    doc = m.deck([m.card(1, image="pics/one.png", audio="sounds/beeps.wav"), m.card(2, image="two.jpg"),
                  m.card(3, image="three.webp"), m.card(4, image="pics/one.png")])
    bundle = load_bundle(m.zipped({"pics/one.png": m.png(), "two.jpg": m.picture("JPEG"),
                                   "three.webp": m.picture("WEBP"), "sounds/beeps.wav": m.wav()}, doc))
    cards = bundle.deck.cards
    assert all(c.image is not None and REF_PATTERN.fullmatch(c.image) for c in cards)
    assert cards[0].image == cards[3].image  # one file named twice is stored once
    assert cards[0].audio is not None and cards[0].audio.endswith(".wav")
    assert bundle.media[cards[0].audio] == m.wav()  # a sound is kept as given
    assert set(bundle.media) == {cards[0].image, cards[1].image, cards[2].image, cards[0].audio}
    for card in cards:  # every picture is re-encoded as PNG for the TV, its shape kept
        assert card.image is not None and card.image.endswith(".png")
        image = Image.open(io.BytesIO(bundle.media[card.image]))
        assert image.format == "PNG"
    assert Image.open(io.BytesIO(bundle.media[cards[1].image])).size == (64, 48)


def test_a_big_picture_is_scaled_down_to_fit_the_tv_never_stretched() -> None:
    bundle = load_bundle(m.zipped({"wide.png": m.png(3000, 1000)}, m.deck([m.card(1, image="wide.png")])))
    ref = bundle.deck.cards[0].image
    assert ref is not None
    assert Image.open(io.BytesIO(bundle.media[ref])).size == (1920, 640)


def test_an_exported_zip_reads_back_to_the_same_deck() -> None:
    doc = m.deck([m.card(1, image="a.png", audio="b.wav"), m.card(2)])
    bundle = load_bundle(m.zipped({"a.png": m.png(), "b.wav": m.wav()}, doc))
    again = load_bundle(dump_bundle(bundle.deck, bundle.media.get))
    assert again.deck == bundle.deck
    assert dict(again.media) == dict(bundle.media)


@pytest.mark.parametrize(
    ("files", "says"),
    [
        ({"p.png": m.png()[:60]}, "cannot be read"),  # a truncated PNG
        ({"p.png": m.bomb_png(20000, 20000)}, "decompression bomb"),  # Pillow's own guard
        ({"p.png": m.bomb_png(9000, 5000)}, "9000 x 5000 pixels"),  # our tighter cap, before decoding
        ({"p.png": b"GIF89a" + bytes(40)}, "not a PNG picture"),
        ({"p.png": m.picture("JPEG")}, "not a PNG picture"),  # the content must be what the name says
    ],
)
def test_a_bad_picture_is_refused_naming_the_card_and_the_file(files: dict[str, bytes], says: str) -> None:
    found = problems(m.zipped(files, m.deck([m.card(1), m.card(2, image="p.png")])))
    assert len(found) == 1
    assert "card 2 (p-2), field 'image'" in found[0] and "'p.png'" in found[0] and says in found[0]


@pytest.mark.parametrize(
    ("name", "body", "says"),
    [
        ("s.mp3", b"ID3" + bytes(7) + b"this is not an mp3 at all" * 20, "not a readable MP3"),
        ("s.mp3", b"plain text pretending to be music\n" * 30, "not a MP3 sound"),
        ("s.ogg", m.wav(), "not a OGG sound (it holds WAVE)"),
        ("s.wav", m.wav(61), "lasts 61.0 s"),
        ("s.wav", m.wav()[:30], "not a"),  # a cut WAV header
    ],
)
def test_a_bad_sound_is_refused_naming_the_card_and_the_file(name: str, body: bytes, says: str) -> None:
    found = problems(m.zipped({name: body}, m.deck([m.card(1, audio=name)]), compression=zipfile.ZIP_STORED))
    assert len(found) == 1
    assert "card 1 (p-1), field 'audio'" in found[0] and repr(name) in found[0] and says in found[0]


def test_a_card_naming_a_file_that_is_not_in_the_zip_is_refused() -> None:
    found = problems(m.zipped({"a.png": m.png()}, m.deck([m.card(1, image="a.png"), m.card(2, image="b.png")])))
    assert found == ["card 2 (p-2), field 'image': 'b.png' is not in the zip"]


def test_a_deck_file_alone_may_not_name_media_the_box_does_not_have() -> None:
    data = json.dumps(m.deck([m.card(1, image="a.png")])).encode()
    with pytest.raises(InvalidDeck) as refused:
        load_plain(data, "json")
    assert "card 1 (p-1), field 'image': 'a.png' is not on this box" in str(refused.value.problems[0])
    assert load_plain(data, "json", stored=lambda ref: ref == "a.png").cards[0].image == "a.png"


@pytest.mark.parametrize(
    ("name", "says"),
    [("../evil.png", "climbs out"), ("pics/../../evil.png", "climbs out"), ("/etc/evil.png", "absolute path"),
     ("C:/evil.png", "absolute path"), ("pics\\evil.png", "climbs out")],
)
def test_a_zip_with_a_path_out_of_its_folder_is_refused(name: str, says: str) -> None:
    found = problems(m.zipped({name: m.png()}, m.deck([m.card(1)])))
    assert len(found) == 1 and repr(name) in found[0] and says in found[0]


def test_a_zip_with_a_symlink_is_refused() -> None:
    found = problems(m.with_symlink(m.deck([m.card(1, image="a.png")]), "a.png", "/etc/passwd"))
    assert found == ["zip: 'a.png' is a symbolic link: a deck's zip holds plain files only"]


def test_a_zip_bomb_is_refused_from_its_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    bomb = bytes(4 * 1024 * 1024)  # packs to a few KB: far more than 100 times
    found = problems(m.zipped({"a.png": bomb}, m.deck([m.card(1, image="a.png")])))
    assert len(found) == 1 and "'a.png' unpacks to 4194304 bytes" in found[0] and "zip bomb" in found[0]
    monkeypatch.setattr(bundle, "MAX_UNPACKED_BYTES", 1_000_000)  # the total cap, sized down for the test
    noise = {f"f{i}.png": random.Random(i).randbytes(400_000) for i in range(3)}
    assert problems(m.zipped(noise, m.deck([m.card(1)]))) == [
        "zip: the zip's files unpack to 1200371 bytes, at most 1000000 (a zip bomb?)"]  # with deck.json
    assert "the zip is too big" in problems(b"PK\x03\x04" + bytes(bundle.MAX_ZIP_BYTES))[0]


def test_too_many_files_and_stray_files_are_refused() -> None:
    many = {f"f{i}.png": b"x" for i in range(MAX_ENTRIES + 1)}
    assert "entries, at most" in problems(m.zipped(many, m.deck([m.card(1)])))[0]
    assert problems(m.zipped({"extra.png": m.png()}, m.deck([m.card(1)]))) == [
        "zip: 'extra.png' is in the zip but no card names it"]
    assert "found neither" in problems(m.zipped({"a.png": m.png()}))[0]
    assert "not a readable zip" in problems(b"PK\x03\x04 broken")[0]


def test_every_problem_is_listed_at_once() -> None:
    doc = m.deck([m.card(1, image="a.png"), m.card(2, audio="b.mp3"), m.card(3, image="c.png")])
    found = problems(m.zipped({"a.png": m.png()[:50], "b.mp3": b"nope" * 50}, doc))
    assert [p.split(":")[0] for p in found] == ["card 1 (p-1), field 'image'", "card 2 (p-2), field 'audio'",
                                                "card 3 (p-3), field 'image'"]


def test_the_shipped_picture_and_sound_deck_is_what_its_script_makes_and_every_file_ships(tmp_path: Path) -> None:
    import importlib.util

    from appliance.decks import shipped_decks
    from appliance.infra.media import MediaStore

    decks = {d.id: d for d in shipped_decks()}
    pictures, sounds = decks["estimation-pictures"].cards, decks["estimation-sounds"].cards
    assert len(pictures) >= 40 and len(sounds) >= 20  # a round deals by deck: one deck of each kind
    assert all(c.image is not None and c.audio is None and "picture" in c.tags for c in pictures)
    assert all(c.audio is not None and c.image is None and "sound" in c.tags for c in sounds)
    box = MediaStore(tmp_path / "media")  # a box's own folder, empty: the shipped files are found beside it
    assert all(box.path(ref) is not None for c in (*pictures, *sounds) for ref in (c.image, c.audio)
               if ref is not None)
    script = Path(__file__).resolve().parents[2] / "scripts" / "make_media_deck.py"
    spec = importlib.util.spec_from_file_location("make_media_deck", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0  # deterministic from its seed: the shipped files are what it makes
    doc, _ = module.make(34)
    dots = next(c for c in doc["cards"] if str(c["question"]).startswith("Dots picture 1:"))
    name = str(dots["image"])
    files = module.make(34)[1]
    image = Image.open(io.BytesIO(files[name])).convert("RGB")
    assert image.size == (1200, 900)
    red = sum(1 for pixel in image.getdata() if pixel == (210, 30, 40))
    per_dot = red / int(str(dots["answer"]))
    assert 1400 < per_dot < 1700  # each counted dot is one whole disc of radius 22 (about 1520 pixels)
