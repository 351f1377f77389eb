"""A deck with media is one zip: its deck file (``deck.json`` or ``deck.csv`` at the top) and the files its
cards name in ``image`` and ``audio`` (paths inside the zip). docs/decks.md, "Pictures and sounds".

:func:`load_bundle` reads such a zip all or nothing: the zip's own safety first (:func:`read_zip`: no path
that climbs out or is absolute, no symlink, no name twice, at most :data:`MAX_ENTRIES` files, each and all
together within their caps when unpacked and no file unpacking to more than :data:`MAX_RATIO` times its
packed size: a zip bomb is refused from its directory, and each file is read with a bound, so a lying
directory gets no further), then the deck file through the one validator, then every picture and sound
through :mod:`appliance.decks.media`. Every problem is collected and located: a card's media problem names
the card and the file. The deck it returns names each file by its media reference (``<sha256>.png``,
:mod:`appliance.infra.media`), with the bytes to store under each; :func:`dump_bundle` writes such a deck
back as a zip that :func:`load_bundle` reads to the same deck.
"""

from __future__ import annotations

import io
import stat
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from appliance.decks.io import Format, dump_deck, load_deck
from appliance.decks.limits import MEDIA_FIELDS, MEDIA_NAME_PATTERN
from appliance.decks.media import MediaProblem, check_audio, check_image
from appliance.decks.model import Card, Deck, DeckInfo, Problem, with_media
from appliance.decks.validate import InvalidDeck
from appliance.infra.media import ref_for

MAX_ZIP_BYTES = 60 * 1024 * 1024
"""Most bytes of a deck's zip as uploaded."""
MAX_UNPACKED_BYTES = 100 * 1024 * 1024
"""Most bytes of all the zip's files unpacked."""
MAX_ENTRIES = 500
"""Most files in a deck's zip (its deck file and its media)."""
MAX_RATIO = 100
"""Most a file may grow when unpacked (unpacked / packed size), for files over 64 KiB unpacked."""
MAX_ENTRY_BYTES = 10 * 1024 * 1024
"""Most bytes of one file unpacked (the deck file's own cap is lower: see docs/decks.md)."""
DECK_NAMES: dict[str, Format] = {"deck.json": "json", "deck.csv": "csv"}
ZIP_MAGIC = b"PK\x03\x04"


def is_zip(data: bytes) -> bool:
    return data[:4] == ZIP_MAGIC


@dataclass(frozen=True)
class Bundle:
    """A deck whose cards name media references, and the bytes of each reference."""

    deck: Deck
    media: Mapping[str, bytes]


def read_zip(data: bytes) -> dict[str, bytes]:
    """The zip's files by path; raises :class:`InvalidDeck` naming each unsafe file (nothing is unpacked
    before every entry of the directory passed)."""
    if len(data) > MAX_ZIP_BYTES:
        raise InvalidDeck([Problem(f"the zip is too big: {len(data)} bytes, at most {MAX_ZIP_BYTES}")])
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise InvalidDeck([Problem(f"not a readable zip: {exc}")]) from None
    files = [e for e in entries if not e.is_dir()]
    if len(entries) > MAX_ENTRIES:
        raise InvalidDeck([Problem(f"the zip holds {len(entries)} entries, at most {MAX_ENTRIES}")])
    problems: list[Problem] = []
    seen: set[str] = set()
    for entry in files:
        problem = _unsafe(entry)
        if problem is None and entry.filename in seen:
            problem = "is in the zip twice"
        if problem is not None:
            problems.append(Problem(f"{entry.filename!r} {problem}", file="zip"))
        seen.add(entry.filename)
    total = sum(e.file_size for e in files)
    if total > MAX_UNPACKED_BYTES:
        problems.append(Problem(f"the zip's files unpack to {total} bytes, at most {MAX_UNPACKED_BYTES} (a zip "
                                "bomb?)", file="zip"))
    if problems:
        raise InvalidDeck(problems)
    out: dict[str, bytes] = {}
    for entry in files:
        try:
            with archive.open(entry) as stream:
                body = stream.read(entry.file_size + 1)
        except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError, ValueError) as exc:
            problems.append(Problem(f"{entry.filename!r} cannot be unpacked: {exc}", file="zip"))
            continue
        if len(body) != entry.file_size:
            problems.append(Problem(f"{entry.filename!r} unpacks to another size than the zip says", file="zip"))
            continue
        out[entry.filename] = body
    if problems:
        raise InvalidDeck(problems)
    return out


def _unsafe(entry: zipfile.ZipInfo) -> str | None:
    """Why a zip entry is refused, or None."""
    name = entry.filename
    mode = entry.external_attr >> 16
    if stat.S_ISLNK(mode):
        return "is a symbolic link: a deck's zip holds plain files only"
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return "is an absolute path: every file must be inside the zip's folder"
    if ".." in name.replace("\\", "/").split("/") or "\\" in name:
        return "climbs out of the zip's folder ('..' or '\\' in its path)"
    if name not in DECK_NAMES and not MEDIA_NAME_PATTERN.fullmatch(name):
        return "is not a media file name (letters, digits, '.', '_', '-' and folders)"
    if entry.file_size > MAX_ENTRY_BYTES:
        return f"unpacks to {entry.file_size} bytes, at most {MAX_ENTRY_BYTES}"
    if entry.file_size > 65536 and entry.file_size > MAX_RATIO * max(entry.compress_size, 1):
        return (f"unpacks to {entry.file_size} bytes from {entry.compress_size}: more than {MAX_RATIO} times "
                "its packed size (a zip bomb?)")
    return None


def load_bundle(data: bytes, info: DeckInfo | None = None) -> Bundle:
    """The deck in a deck's zip, its cards naming media references; raises :class:`InvalidDeck` with
    every problem (the zip's, the deck's, each card's media) and nothing imported."""
    files = read_zip(data)
    names = [n for n in files if n in DECK_NAMES]
    if len(names) != 1:
        found = " and ".join(names) or "neither"
        raise InvalidDeck([Problem(f"a deck's zip holds one deck file at its top, deck.json or deck.csv; found "
                                   f"{found}", file="zip")])
    fmt = DECK_NAMES[names[0]]
    deck = load_deck(files[names[0]], fmt, info if fmt == "csv" else None)
    return _with_media(deck, files, names[0])


def load_plain(data: bytes, fmt: Format, info: DeckInfo | None = None,
               stored: Callable[[str], bool] = lambda ref: False) -> Deck:
    """A deck file given alone (not in a zip): a card may only name media the box has (``stored``)."""
    deck = load_deck(data, fmt, info)
    problems = [Problem(f"{name!r} is not on this box: a deck with pictures or sounds is imported as a zip "
                        "holding the deck file and its media", card=i + 1, card_id=card.id, field=key)
                for i, card in enumerate(deck.cards) for key, name in _media_of(card) if not stored(name)]
    if problems:
        raise InvalidDeck(problems)
    return deck


def _media_of(card: Card) -> list[tuple[str, str]]:
    return [(key, name) for key in MEDIA_FIELDS if (name := getattr(card, key)) is not None]


def _with_media(deck: Deck, files: Mapping[str, bytes], deck_name: str) -> Bundle:
    problems: list[Problem] = []
    refs: dict[str, str] = {}  # zip path -> reference
    media: dict[str, bytes] = {}
    cards: list[Card] = []
    for i, card in enumerate(deck.cards):
        changes: dict[str, str] = {}
        for key, name in _media_of(card):
            if name not in refs:
                try:
                    body = files[name]
                except KeyError:
                    problems.append(Problem(f"{name!r} is not in the zip", card=i + 1, card_id=card.id, field=key))
                    continue
                try:
                    stored, ext = check_image(body, name) if key == "image" else check_audio(body, name)[:2]
                except MediaProblem as exc:
                    problems.append(Problem(f"{name!r}: {exc}", card=i + 1, card_id=card.id, field=key))
                    continue
                refs[name] = ref_for(stored, ext)
                media[refs[name]] = stored
            changes[key] = refs[name]
        cards.append(with_media(card, changes.get("image", card.image), changes.get("audio", card.audio)))
    named = {name for card in deck.cards for _, name in _media_of(card)}
    problems += [Problem(f"{name!r} is in the zip but no card names it", file="zip")
                 for name in files if name != deck_name and name not in named]
    if problems:
        raise InvalidDeck(problems)
    return Bundle(Deck(info=deck.info, cards=tuple(cards)), media)


def has_media(deck: Deck) -> bool:
    return any(_media_of(card) for card in deck.cards)


def dump_bundle(deck: Deck, read: Callable[[str], bytes | None]) -> bytes:
    """The deck as a zip: ``deck.json`` and each media file its cards name, read by reference (a missing
    one raises KeyError naming it)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("deck.json", dump_deck(deck, "json"))
        written: set[str] = set()
        for card in deck.cards:
            for _, ref in _media_of(card):
                if ref in written:
                    continue
                body = read(ref)
                if body is None:
                    raise KeyError(f"card {card.id!r} names {ref!r}, which is not on this box")
                archive.writestr(ref, body, compress_type=zipfile.ZIP_STORED)  # already compressed
                written.add(ref)
    return out.getvalue()
