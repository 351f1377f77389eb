"""The decks that ship with the appliance: every ``*.json`` in the package folder ``appliance/data/decks``.

Read with :mod:`importlib.resources`, so they load the same from a checkout, a wheel or a zip.
"""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from importlib.resources.abc import Traversable

from appliance.decks.io import load_deck
from appliance.decks.model import Deck, Problem
from appliance.decks.validate import InvalidDeck


def shipped_files() -> list[Traversable]:
    """The shipped deck files, by name."""
    folder = resources.files("appliance") / "data" / "decks"
    return sorted((f for f in folder.iterdir() if f.is_file() and f.name.endswith(".json")), key=lambda f: f.name)


def shipped_decks() -> list[Deck]:
    """Every shipped deck, validated; raises :class:`InvalidDeck` naming the file of each problem."""
    decks: list[Deck] = []
    problems: list[Problem] = []
    for file in shipped_files():
        try:
            deck = load_deck(file.read_bytes(), "json")
        except InvalidDeck as exc:
            problems += [replace(p, file=file.name) for p in exc.problems]
            continue
        clash = next((d for d in decks if d.id == deck.id), None)
        if clash is not None:
            problems.append(
                Problem(
                    f"deck id {deck.id!r} is also the id of deck {clash.info.name!r}",
                    file=file.name,
                    field="id",
                )
            )
        decks.append(deck)
    if problems:
        raise InvalidDeck(problems)
    return decks
