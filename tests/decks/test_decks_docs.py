"""The examples in docs/decks.md load as written, so the guide cannot drift from the format."""

from __future__ import annotations

import json
import re
from pathlib import Path

from appliance.decks import load_deck

DOC = (Path(__file__).parents[2] / "docs" / "decks.md").read_text("utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC, flags=re.DOTALL)


def test_the_full_json_example_loads() -> None:
    full = [b for b in blocks("json") if b.lstrip().startswith("{")]
    assert len(full) == 1
    deck = load_deck(full[0], "json")
    assert (deck.type, len(deck.cards)) == ("estimation", 2)


def test_each_json_cards_example_loads_in_a_deck_of_its_type() -> None:
    fragments = [b for b in blocks("json") if b.lstrip().startswith('"cards"')]
    types = []
    for fragment in fragments:
        cards = json.loads("{" + fragment + "}")["cards"]
        deck_type = "squizz" if "propositions" in cards[0] else "buzzer" if "answer" in cards[0] else "allin"
        doc = {"format": "quizbox-deck", "version": 1, "id": "doc", "name": "Doc", "type": deck_type, "cards": cards}
        types.append(load_deck(json.dumps(doc), "json").type)
    assert types == ["allin", "squizz", "buzzer"]


def test_each_csv_example_loads_and_matches_its_json_example() -> None:
    decks = [load_deck(block, "csv") for block in blocks("csv")]
    assert [d.type for d in decks] == ["estimation", "allin", "squizz", "buzzer"]
    full = load_deck(next(b for b in blocks("json") if b.lstrip().startswith("{")), "json")
    assert decks[0].cards == full.cards
